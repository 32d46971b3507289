"""The room's replica (what a session worker's screens read) and the main
process's host of it, joined in one process by a link that carries the
same messages a socket would (each one framed as the wire writes it and
read back: `crossed`)."""

from __future__ import annotations

import asyncio
import random

import pytest

from crib3.engine import Discard, IllegalMove, Rules, SeatFeed
from crib3.engine.events import CardDiscarded, CardsDealt
from crib3.players.easy import EasyPlayer
from crib3.room import Room, RoomError, wire
from crib3.room.host import RoomHost
from crib3.room.replica import CALLER, ReplicaRoom


def crossed(message: object) -> object:
    """`message` as the other end of a socket reads it (`crib3.room.wire`)."""
    frames = wire.Frames()
    (back,) = frames.feed(wire.frame(message))
    return back


class Pipe:
    """The worker's end of the link, in-process: a call is answered by the
    host at once, and what the host sent meanwhile is applied in order."""

    def __init__(self, host: RoomHost, name: str) -> None:
        self.host, self.name = host, name
        self.waiting: list[object] = []
        self.replica: ReplicaRoom | None = None
        self.sent: list[object] = []

    auto = False  # apply what the host sends by itself, on the loop (as a worker's reader)

    def deliver(self, message: object) -> None:
        self.waiting.append(crossed(message))  # as over a socket
        if self.auto:
            asyncio.get_running_loop().call_soon(self.pump)

    def pump(self) -> wire.Reply | None:
        reply = None
        while self.waiting:
            message = self.waiting.pop(0)
            if isinstance(message, wire.Reply) and message.call not in \
                    self.replica._unanswered:
                reply = message  # (a move sent without waiting is the replica's)
            else:
                assert self.replica.receive(message), message
        return reply

    def call(self, call: wire.Call) -> wire.Reply:
        self.host.answer(self.name, crossed(call))
        reply = self.pump()
        assert reply is not None and reply.call == call.call
        return reply

    held = False  # moves sent without waiting stay in `sent` until `release()`
    refuse: str | None = None  # the next move is refused with this line, not carried out

    def send(self, message: object) -> None:
        self.sent.append(message)
        if isinstance(message, wire.Unfollow):
            self.host.unfollow(message.sub)
        elif isinstance(message, wire.Call) and not self.held:
            self.release()

    def release(self) -> None:
        """The host answers the moves sent so far, in order."""
        self.held = False
        calls = [m for m in self.sent if isinstance(m, wire.Call)]
        self.sent = [m for m in self.sent if not isinstance(m, wire.Call)]
        for call in calls:
            if self.refuse is not None:
                self.deliver(wire.Reply(call.call, error=self.refuse, illegal=True))
                self.refuse = None
            else:
                self.host.answer(self.name, crossed(call))


def joined(tmp_path, workers=("w1",)) -> tuple[Room, RoomHost, dict[str, Pipe]]:
    room = Room(tmp_path / "tables", think=0, patience=60.0)
    pipes: dict[str, Pipe] = {}
    host = RoomHost(room, lambda worker, message: pipes[worker].deliver(message))
    for name in workers:
        pipes[name] = Pipe(host, name)
        pipes[name].replica = ReplicaRoom(pipes[name])
        host.add_worker(name)
        pipes[name].pump()
    return room, host, pipes


def session(room: Room, host: RoomHost, pipe: Pipe, name: str, number: int):
    """A person signed in to the real room, and their presence in the replica."""
    real = room.sign_in(name, None, lambda reason: None)
    host.add_session(number, pipe.name, real)
    host.flush()
    pipe.pump()
    return real, pipe.replica.presence(name, None, False, number)


def as_caller(number: int):
    class Caller:
        def __enter__(self):
            self.token = CALLER.set(number)

        def __exit__(self, *exc):
            CALLER.reset(self.token)

    return Caller()


async def test_a_replica_opens_sits_starts_and_sees_what_the_room_sees(tmp_path):
    room, host, pipes = joined(tmp_path, ("w1", "w2"))
    one, two = pipes["w1"], pipes["w2"]
    _, ann = session(room, host, one, "Ann", 1)
    _, bob = session(room, host, two, "Bob", 2)
    with as_caller(1):
        table = one.replica.open_table(ann, Rules(target=61), ("easy", "expert"))
    assert table.number == 1 and table.seats[0].name == "Ann" and table.owner == "Ann"
    two.pump()  # the other worker heard of it too
    theirs = two.replica.tables[1]
    assert [t.number for t in two.replica.lobby()] == [1]
    told = []
    theirs.listeners.append(lambda: told.append("table"))
    with as_caller(2):
        assert theirs.sit(bob) == 1
        with pytest.raises(RoomError, match="only Ann can start"):
            theirs.start("Ann")  # as the caller (Bob), whatever the screen says
    assert told and theirs.seats[1].name == "Bob"
    one.pump()
    assert table.seats[1].name == "Bob" and sorted(one.replica.people) == ["ann", "bob"]
    assert one.replica.place_of(ann) == (table, 0)
    with as_caller(1):
        table.start("Ann")
    assert table.started and table.game is not None and not table.game.over
    two.pump()
    assert theirs.state is not None and theirs.state.name(2) == room.tables[1].state.name(2)


async def test_a_replica_feed_is_exactly_the_seats_redacted_feed(tmp_path):
    room, host, pipes = joined(tmp_path)
    pipe = pipes["w1"]
    _, ann = session(room, host, pipe, "Ann", 1)
    with as_caller(1):
        table = pipe.replica.open_table(ann, Rules(target=61), ("easy", "easy"))
        table.start("Ann")
        feed = table.feed(0)
        got = []
        history, unsubscribe = feed.follow(lambda e, s, v: got.append((e, s, v)))
    real = room.tables[1]
    expected, stop = SeatFeed(real.game, 0).follow(lambda *a: None)
    stop()
    assert history == expected
    dealt = [e for e, _, _ in history if isinstance(e, CardsDealt)]
    assert dealt and all(not h for e in dealt for s, h in enumerate(e.hands) if s != 0)
    # Ann plays (through the replica) until the game is won; every event
    # and view is the one her seat's SeatFeed gives.
    pick = EasyPlayer(random.Random(2))
    mine, stop = SeatFeed(real.game, 0).follow(lambda *a: None)
    stop()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while not real.game.over:
        assert loop.time() < deadline
        if 0 in real.game.to_act():
            with as_caller(1):
                feed.dispatch(pick.choose(real.game.view(0)))
        else:
            await asyncio.sleep(0.001)
        pipe.pump()
    expected, stop = SeatFeed(real.game, 0).follow(lambda *a: None)
    stop()
    assert history + got == expected
    for _ in range(200):  # the table's driver sees the end, and the room is told
        await asyncio.sleep(0.01)
        host.flush()
        pipe.pump()
        if table.over:
            break
    assert table.over and table.game.over and 1 not in pipe.replica.tables
    unsubscribe()
    assert not host.follows


async def test_a_seat_is_only_its_persons(tmp_path):
    room, host, pipes = joined(tmp_path)
    pipe = pipes["w1"]
    _, ann = session(room, host, pipe, "Ann", 1)
    _, bob = session(room, host, pipe, "Bob", 2)
    with as_caller(1):
        table = pipe.replica.open_table(ann, Rules(target=61), ("easy", "easy"))
        table.start("Ann")
    with as_caller(2):  # Bob has no seat: Ann's feed and moves are not his
        with pytest.raises(RoomError, match="you do not sit in that seat"):
            table.feed(0).follow(lambda *a: None)
        command = room.tables[1].game.view(0).legal[0]
        with pytest.raises(RoomError, match="you do not sit in that seat"):
            table._call("dispatch", 0, command)
        with pytest.raises(IllegalMove, match="a spectator cannot move"):
            table.feed(None).dispatch(command)
        table.watch(bob)  # public facts: anyone's
        history, _ = table.feed(None).follow(lambda *a: None)
        spectator, stop = SeatFeed(room.tables[1].game, None).follow(lambda *a: None)
        stop()
        assert history == spectator
    assert table.watcher_names() == ["Bob"]


async def test_chat_and_errors_cross_as_one_line(tmp_path):
    room, host, pipes = joined(tmp_path)
    pipe = pipes["w1"]
    _, ann = session(room, host, pipe, "Ann", 1)
    with as_caller(1):
        table = pipe.replica.open_table(ann, Rules(target=61), ("easy", "easy"))
        heard = []
        table.chat.listeners.append(lambda: heard.append(list(table.chat.lines)))
        table.start("Ann")
        table.say(ann, "[b]hello[/]")
        with pytest.raises(RoomError, match="say something first"):
            table.say(ann, "   ")
        with pytest.raises(RoomError, match="you sit at a table already"):
            pipe.replica.open_table(ann, Rules(), ("easy", "easy"))
    assert heard and ([(line.name, line.text) for line in table.chat.lines]
                      == [("Ann", "[b]hello[/]")])


async def test_a_table_that_leaves_the_room_is_told_once_and_its_number_may_return(tmp_path):
    room, host, pipes = joined(tmp_path)
    pipe = pipes["w1"]
    _, ann = session(room, host, pipe, "Ann", 1)
    with as_caller(1):
        first = pipe.replica.open_table(ann, Rules(), ("easy", "easy"))
        first.leave(0)  # nobody left before the start: put away
        assert first.closed and 1 not in pipe.replica.tables
        second = pipe.replica.open_table(ann, Rules(), ("easy", "easy"))
    assert second is not first and second.number == 1 and not second.closed
    assert not first.listeners and first.closed  # the old screen's table stays closed


def test_a_call_with_no_session_is_refused(tmp_path):
    room, host, pipes = joined(tmp_path)
    with pytest.raises(RoomError, match="no session"):
        pipes["w1"].replica.bring_back(None)


async def test_a_spectator_leaves_a_table_whose_game_is_over(tmp_path):
    """As with the room in one process: leaving a table that has left the
    room (its game won) is no error."""
    room, host, pipes = joined(tmp_path)
    pipe = pipes["w1"]
    _, ann = session(room, host, pipe, "Ann", 1)
    _, bob = session(room, host, pipe, "Bob", 2)
    with as_caller(1):
        table = pipe.replica.open_table(ann, Rules(target=61), ("easy", "easy"))
        table.start("Ann")
    with as_caller(2):
        table.watch(bob)
    real = room.tables.pop(1)  # (as the table's driver does when its game is won)
    room.changed()
    host.flush()
    pipe.pump()
    assert 1 not in pipe.replica.tables
    with as_caller(2):
        table.unwatch(bob)
    assert real.watchers == []


async def test_the_lobby_and_table_screens_run_unaware_on_replicas(tmp_path):
    """The room's screens, unchanged, on two replicas (as in two workers):
    Dan sits down at Cat's table, Cat starts, and both screens go to the
    table, each from its seat, fed through the replica."""
    from tui_support import room_with_tables, wait_for

    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.screens.lobby import LobbyScreen
    from crib3.tui.screens.waiting import WaitingScreen

    room = room_with_tables(tmp_path)
    table = room.tables[2]
    pipes: dict[str, Pipe] = {}
    host = RoomHost(room, lambda worker, message: pipes[worker].deliver(message))
    apps = {}
    for number, (worker, name) in enumerate((("w1", "Cat"), ("w2", "Dan")), 1):
        pipes[worker] = Pipe(host, worker)
        pipes[worker].replica = ReplicaRoom(pipes[worker])
        pipes[worker].auto = True
        host.add_worker(worker)
        pipes[worker].pump()
        host.add_session(number, worker, room.people[name.lower()])
        presence = pipes[worker].replica.presence(name, None, False, number)
        apps[name] = CardRoomApp(pipes[worker].replica, presence, think=0.0)
    cat_app, dan_app = apps["Cat"], apps["Dan"]
    CALLER.set(1)  # each app's tasks keep the caller they were started with
    async with cat_app.run_test(size=(80, 24)) as cat:
        CALLER.set(2)
        async with dan_app.run_test(size=(80, 24)) as dan:
            await wait_for(cat, lambda: isinstance(cat_app.screen, WaitingScreen))
            await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
            await dan.press("down", "enter")
            await wait_for(cat, lambda: "Dan" in str(cat_app.screen.query_one("#seats").render()))
            assert table.seats[1].name == "Dan"  # in the one real room
            assert not dan_app.screen.check_action("start", ())  # only the owner starts
            await cat.press("enter")
            await wait_for(cat, lambda: getattr(cat_app.screen, "me", None) == 0)
            await wait_for(dan, lambda: getattr(dan_app.screen, "me", None) == 1)
            assert table.started
            screen = dan_app.screen
            await wait_for(dan, lambda: screen.presented >= 1)
            assert set(screen.view.hand) <= set(table.game.state.hands[1])
            assert len(host.follows) == 2


async def test_a_table_is_told_whole_only_to_the_workers_with_someone_at_it(tmp_path):
    """Chat, watchers and times away go only where a session sits at the
    table, watches it or follows its game; every other worker gets the
    lobby's summary, and only when that changed. A worker that comes to
    the table is told it whole then."""
    room, host, pipes = joined(tmp_path, ("w1", "w2", "w3"))
    one, two, three = pipes["w1"], pipes["w2"], pipes["w3"]
    _, ann = session(room, host, one, "Ann", 1)
    _, bob = session(room, host, two, "Bob", 2)
    for pipe in (one, two, three):
        pipe.pump()
        pipe.told = []
        pipe.replica.receive = (lambda r, p: lambda m: (p.told.append(m),
                                                          type(r).receive(r, m))[1])(
            pipe.replica, pipe)
    with as_caller(1):
        table = one.replica.open_table(ann, Rules(target=61), ("easy", "easy"))
        table.start("Ann")
        table.say(ann, "hello")
    for pipe in (two, three):
        pipe.pump()
        theirs = pipe.replica.tables[1]
        assert theirs.seats[0].name == "Ann" and theirs.started  # the lobby's summary
        assert not theirs.chat.lines  # ... without the chat
        snaps = [t for m in pipe.told if isinstance(m, wire.RoomDelta) for t in m.tables]
        assert snaps and all(not t.whole and not t.chat for t in snaps)
    assert [line.text for line in table.chat.lines] == ["hello"]
    # the chat alone changed: the other workers hear nothing at all
    three.told.clear()
    with as_caller(1):
        table.say(ann, "anyone?")
    three.pump()
    assert not [m for m in three.told if isinstance(m, wire.RoomDelta)]
    # Bob (in w2) watches: w2 is told the table whole, chat and all
    with as_caller(2):
        theirs = two.replica.tables[1]
        theirs.watch(bob)
    assert [line.text for line in theirs.chat.lines] == ["hello", "anyone?"]
    assert theirs.watcher_names() == ["Bob"]
    three.pump()
    assert not three.replica.tables[1].chat.lines and three.replica.tables[1].watchers == []


def _started(tmp_path, bots=("easy", "easy")):
    """Ann (session 1, worker w1) at a started table of 61 points, in the
    discard: her seat's feed, followed, with what it heard (events and
    answers, in the order they came)."""
    room, host, pipes = joined(tmp_path)
    room.think = 3600  # the computer players never get to move
    pipe = pipes["w1"]
    _, ann = session(room, host, pipe, "Ann", 1)
    heard: list[object] = []
    with as_caller(1):
        table = pipe.replica.open_table(ann, Rules(target=61), bots)
        table.start("Ann")
        feed = table.feed(0)
        feed.follow(lambda event, state, view: heard.append(event))
    assert feed.view is not None and feed.view.legal  # Ann is to throw
    return room, pipe, feed, heard


async def test_a_move_is_sent_without_waiting_and_answered_after_its_events(tmp_path):
    room, pipe, feed, heard = _started(tmp_path)
    real = room.tables[1].game
    pipe.held = True  # the main process has not read it yet
    move = feed.view.legal[0]
    with as_caller(1):
        assert feed.send(move, heard.append)
        # a second move while the first is unanswered is not sent: `dispatch` it
        assert not feed.send(feed.view.legal[1], heard.append)
    assert 0 in real.to_act() and move.card in real.state.hands[0]  # not carried out yet
    heard.clear()
    pipe.release()
    pipe.pump()
    thrown = [i for i, e in enumerate(heard) if isinstance(e, CardDiscarded) and e.seat == 0]
    assert thrown and heard[-1] is None and heard.index(None) > thrown[0]
    assert move.card not in real.state.hands[0] and not feed._unanswered


async def test_a_move_the_seats_view_does_not_offer_is_not_sent(tmp_path):
    room, pipe, feed, heard = _started(tmp_path)
    other = room.tables[1].game.view(1).legal[0]  # seat 1's, not Ann's
    with as_caller(1):
        assert not feed.send(other, heard.append)
        assert not feed.send(Discard(0, other.card), heard.append)  # a card not hers
    assert not pipe.sent


async def test_a_move_the_room_refuses_later_is_answered_with_its_one_line(tmp_path):
    """The seat's view offered the move, but by the time the main process
    read it the game had gone on (here: the same throw, made elsewhere
    first): the answer is the room's refusal, after the events that came
    first, and nothing of the seat's is left unanswered."""
    room, pipe, feed, heard = _started(tmp_path)
    real = room.tables[1]
    pipe.held = True
    move = feed.view.legal[0]
    with as_caller(1):
        assert feed.send(move, heard.append)
    real.feed(0).dispatch(move)  # the race
    heard.clear()
    pipe.release()
    pipe.pump()
    refusals = [h for h in heard if isinstance(h, str)]
    assert len(refusals) == 1 and heard[-1] == refusals[0] \
        and refusals[0] == "seat 0 has already discarded"
    assert any(isinstance(e, CardDiscarded) for e in heard[:-1])
    assert not feed._unanswered


async def test_a_late_refusal_reaches_the_right_sessions_screen_which_may_move_again(tmp_path):
    """Ann and Bob play at one table from two sessions of one worker. The
    room refuses a throw of Ann's after it was sent: her screen says so,
    once, and offers the throw again, which then goes; Bob's says nothing."""
    from tui_support import wait_for

    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.words import Mode

    room, host, pipes = joined(tmp_path)
    room.think = 3600  # the computer player never gets to move
    pipe = pipes["w1"]
    _, ann = session(room, host, pipe, "Ann", 1)
    _, bob = session(room, host, pipe, "Bob", 2)
    with as_caller(1):
        table = pipe.replica.open_table(ann, Rules(target=61), ("easy", "easy"))
    with as_caller(2):
        table.sit(bob)
    with as_caller(1):
        table.start("Ann")
    pipe.auto = True
    real = room.tables[1].game
    apps = {n: CardRoomApp(pipe.replica, p, think=0.0) for n, p in (("Ann", ann), ("Bob", bob))}

    def toasts(app) -> list[str]:
        return [str(n.message) for n in app._notifications]

    CALLER.set(1)
    async with apps["Ann"].run_test(size=(80, 24)) as ann_pilot:
        CALLER.set(2)
        async with apps["Bob"].run_test(size=(80, 24)) as bob_pilot:
            screens = {n: a.screen for n, a in apps.items()}
            for pilot in (ann_pilot, bob_pilot):
                await wait_for(pilot, lambda pilot=pilot: getattr(pilot.app.screen, "mode", None)
                               == Mode.YOUR_TURN)
            mine = screens["Ann"]
            held = list(mine.view.hand)
            pipe.refuse = "the room says no"
            await ann_pilot.press("1")
            await wait_for(ann_pilot, lambda: toasts(apps["Ann"]))
            assert toasts(apps["Ann"]) == ["the room says no"]
            assert mine.mode == Mode.YOUR_TURN and list(mine.view.hand) == held
            assert held[0] in real.state.hands[0]  # nothing was thrown
            pipe.auto = False  # (what the room sends back is applied below, by hand)
            await ann_pilot.press("1")  # again: this time the room takes it
            assert mine._moving and mine.mode == Mode.YOUR_TURN
            pipe.pump()
            # her own move's events are being shown as they come, not after
            # a turn of her screen's queue (as a local move's are)
            assert mine.mode == Mode.PRESENTING and not mine._moving
            pipe.auto = True
            await wait_for(ann_pilot, lambda: held[0] not in mine.view.hand)
            assert held[0] not in real.state.hands[0]
            assert toasts(apps["Ann"]) == ["the room says no"]
            await bob_pilot.pause()
            assert toasts(apps["Bob"]) == []


async def test_moves_may_be_made_to_wait_as_the_other_calls_do(tmp_path):
    """(A session worker's default; `CRIB3_MOVES_WAIT=0` sends them without waiting.)"""
    room, pipe, feed, heard = _started(tmp_path)
    pipe.replica.moves_wait = True
    with as_caller(1):
        assert not feed.send(feed.view.legal[0], heard.append)
    assert not pipe.sent


def test_a_workers_moves_wait_unless_told_otherwise():
    """Measured at 30 tables, waiting answers a key sooner (crib3.net.worker)."""
    from crib3.net.worker import moves_wait

    assert moves_wait({}) and moves_wait({"CRIB3_MOVES_WAIT": "1"})
    assert not moves_wait({"CRIB3_MOVES_WAIT": "0"})


async def test_a_move_the_room_turns_away_as_a_room_matter_is_one_line_not_a_crash(tmp_path):
    """An admin closes Ann's table while her throw is on its way (her
    worker has not yet heard of the closing): the room answers the move
    with a `RoomError` ("that table is gone"), not an illegal move. Her
    screen says it in one line and her session goes on, back in the lobby
    once the closing reaches it; it used to end her app with the error."""
    from tui_support import wait_for

    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.words import Mode

    room, host, pipes = joined(tmp_path)
    room.think = 3600
    pipe = pipes["w1"]
    pipe.replica.moves_wait = True  # (a session worker's default)
    _, ann = session(room, host, pipe, "Ann", 1)
    with as_caller(1):
        table = pipe.replica.open_table(ann, Rules(target=61), ("easy", "easy"))
        table.start("Ann")
    pipe.auto = True
    app = CardRoomApp(pipe.replica, ann, think=0.0)
    CALLER.set(1)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: getattr(app.screen, "mode", None) == Mode.YOUR_TURN)
        pipe.auto = False  # the closing is not yet read when she throws
        admin = room.sign_in("Root", None, lambda reason: None)
        admin.admin = True
        room.close_by_admin(room.tables[1], admin)
        host.flush()
        await pilot.press("1")
        pipe.auto = True
        pipe.pump()
        await wait_for(pilot, lambda: any("table is gone" in str(n.message)
                                          for n in app._notifications))
        assert app.is_running and app.return_code is None


async def test_a_replica_table_knows_who_started_its_game(tmp_path):
    """The owner's x at a game under way asks whether they started it
    (an owner who inherited it asks the others first): a worker's table
    is told, as the room's own table knows."""
    room, host, pipes = joined(tmp_path)
    pipe = pipes["w1"]
    _, ann = session(room, host, pipe, "Ann", 1)
    with as_caller(1):
        table = pipe.replica.open_table(ann, Rules(target=61), ("easy", "easy"))
        assert table.started_by is None
        table.start("Ann")
    assert table.started_by == room.tables[1].started_by == "Ann"


def test_a_workers_tables_keep_the_show_at_the_rooms_pace(tmp_path):
    """`crib3 serve --show-pace`: the room's seconds a count of the show
    stays reach a session worker's copy of the room, whose table screens
    read it there."""
    from crib3.common.pace import SHOW_PACE

    room, host, pipes = joined(tmp_path)
    assert pipes["w1"].replica.show_pace == room.show_pace == SHOW_PACE
    room = Room(tmp_path / "paced", think=0, patience=60.0)
    room.show_pace = 0.0
    pipe: Pipe
    host = RoomHost(room, lambda worker, message: pipe.deliver(message))
    pipe = Pipe(host, "w1")
    pipe.replica = ReplicaRoom(pipe)
    host.add_worker("w1")
    pipe.pump()
    assert pipe.replica.show_pace == 0.0


async def test_a_worker_is_told_which_board_an_events_table_plays(tmp_path):
    """A worker's spectator of a live event's table is told its board
    ("Board 1 of 3", not "Hand 1"): the event's delta names its tables."""
    from crib3.duplicate.boards import make_boards
    from crib3.duplicate.events import DuplicateEvent
    from crib3.room.live_event import LiveEvent

    room, host, pipes = joined(tmp_path)
    event = DuplicateEvent("friday", 8, "easy", make_boards(8, 3), "")
    event.folder.mkdir(parents=True)
    room.events.add(LiveEvent(event, "Dan", 0.0))
    people = [room.sign_in(name, None, lambda reason: None) for name in ("Dan", "Eve")]
    for presence in people:
        room.events.join("friday", presence)
    room.events.start("friday", people[0])
    host.flush()
    pipes["w1"].pump()
    events = pipes["w1"].replica.events
    (board_table,) = room.events.tables["friday"]
    assert events.board_of(board_table) == (1, 3)
    zed = room.sign_in("Zed", None, lambda reason: None)
    assert events.board_of(room.open_table(zed, Rules(), ("easy", "easy"))) is None
