"""A table's sessions run in one session worker (`crib3 serve --workers 2`):
what its seats draw alike is then drawn once (`crib3.net.placement`).
Headless asyncssh clients in this process; the workers are real processes."""

from __future__ import annotations

import os
import signal

import pytest
from games import public_cards
from ssh_support import Client, plain, press_on, seat_three, serving, until, worker_pids

from crib3.engine import events as ev
from crib3.net import placement

pytestmark = pytest.mark.slow


def settled(server) -> bool:
    """No session is on its way from one worker to another."""
    return not any(w.leaving for w in server.pool.workers)


async def test_a_tables_sessions_that_connected_alternately_end_up_in_one_worker(tmp_path):
    async with serving(tmp_path, workers=2) as server:
        clients = [await Client.connect(server.port, name) for name in ("ann", "bob", "cat")]
        for client in clients:
            await client.shows("open a table of your own")
            # (Each comes back below under the same name: the code it was
            # shown holds it. An older Textual draws that line a frame later.)
            await client.shows("reconnect code")
        before = worker_pids(server)
        assert len(set(before.values())) == 2  # a new session: the emptier worker (2 and 1)
        for client in clients:
            client.close()
        await until(lambda: not worker_pids(server), what="the sessions ended")

        clients, table = await seat_three(server.port, server.room)
        await until(lambda: settled(server) and len(worker_pids(server)) == 3,
                    what="the moves done")
        pids = worker_pids(server)
        assert len(set(pids.values())) == 1, pids  # the table's three seats: one worker
        for client in clients:
            await client.shows("deals first")
        # The next person in the lobby goes to the other worker: still balanced.
        dee = await Client.connect(server.port, "dee")
        await dee.shows("open a table of your own")
        assert worker_pids(server)["dee"] != pids["ann"]
        # and the table plays on
        await press_on(clients, table, hands=1, limit=60)
        assert table.game.state.hand_number >= 2
        for client in [*clients, dee]:
            client.close()


async def test_the_moved_session_shows_its_own_seat_and_only_its_own_cards(tmp_path):
    async with serving(tmp_path, workers=2) as server:
        clients, table = await seat_three(server.port, server.room)
        # (bob's move may still be on its way when the game starts)
        await until(lambda: settled(server) and len(worker_pids(server)) == 3,
                    what="the moves done")
        moved = [r for w in server.pool.workers for r in w.sessions.values() if r.moves]
        assert [r.name for r in moved] == ["bob"]  # (ann and cat: 1st and 3rd, one worker)
        bob = clients[1]
        await until(lambda: "Hand 1" in bob.terminal.text() or "Go on" in bob.terminal.text(),
                    what="bob's table")
        if "Hand 1" not in bob.terminal.text():
            bob.press("\r")  # (past who deals first)
        await bob.shows("Hand 1")
        dealt = next(e for e in table.game.events if isinstance(e, ev.CardsDealt))
        seat = table.seat_of("bob")
        mine = {c.label() for c in dealt.hands[seat]}
        for label in mine:
            await bob.shows(label)
        text = plain(bytes(bob.terminal.received))
        since_deal = text[text.index("Hand 1"):]
        others = {c.label() for s in range(3) if s != seat for c in dealt.hands[s]}
        public = {c.label() for c in public_cards(table.game.state)}
        assert not (others - mine - public) & {w for w in others if w in since_deal}
        for client in clients:
            client.close()


def past_the_throw(text: str) -> bool:
    """The footer drawn last offers no throw."""
    last = text.rfind("f Feed")
    return last > 0 and "Throw" not in text[max(0, last - 40):last]


async def _at_the_throw(client) -> None:
    """Past who deals first, to the throw of hand 1."""
    # (All it drew is read, not only its last frames: a frame drawn after the
    # throw's prompt could push it out of them, and an Enter would throw.)
    await until(lambda: "Throw one card" in client.terminal.text()
                or "Go on" in client.terminal.text()[-3000:], what="the table")
    if "Throw one card" not in client.terminal.text():
        client.press("\r")
    await client.shows("Throw one card")


async def test_a_move_typed_across_the_switch_is_carried_out_once(tmp_path):
    """A key sent just before a session moves (to its old app) and one sent
    as it moves (held for its new app) are each carried out once, and the
    new app shows it."""
    async with serving(tmp_path, workers=2) as server:
        clients, table = await seat_three(server.port, server.room)
        await until(lambda: settled(server), what="the moves done")
        pool = server.pool
        for client in clients:
            await _at_the_throw(client)
        remotes = {r.name: r for w in pool.workers for r in w.sessions.values()}
        bob, cat = clients[1], clients[2]
        other = next(w for w in pool.workers if w is not remotes["bob"].worker)

        remotes["bob"].feed(b"1")  # on its way to the old app as the move begins
        pool.move(remotes["bob"], other)
        pool.move(remotes["cat"], other)
        cat.press("1")  # held while it moves, for the new app
        await until(lambda: settled(server), what="the moves done")
        await until(lambda: all(table.game.state.discards[table.seat_of(n)] is not None
                                for n in ("bob", "cat")), what="both throws")
        thrown = [e.seat for e in table.game.events if isinstance(e, ev.CardDiscarded)]
        assert sorted(thrown) == sorted([table.seat_of("bob"), table.seat_of("cat")])
        assert worker_pids(server)["bob"] == worker_pids(server)["cat"] == other.pid
        for name, client in (("bob", bob), ("cat", cat)):
            seat = table.seat_of(name)
            card = table.game.state.discards[seat].label()
            await client.shows(card)  # the new app shows it (in the crib, face down or own)
            await until(lambda client=client: past_the_throw(client.terminal.text()),
                        what=f"{name}'s screen past the throw")
        clients[0].press("1")  # and the game goes on
        await until(lambda: table.game.state.hand_number == 1 and all(
            d is not None for d in table.game.state.discards), what="the third throw")
        for client in clients:
            client.close()


async def test_a_spectator_moves_to_the_tables_worker_and_watches_there(tmp_path):
    async with serving(tmp_path, workers=2) as server:
        ann = await Client.connect(server.port, "ann")
        await ann.shows("Open a table")
        ann.press("o")
        await ann.shows("Second seat")
        ann.press("\r")
        await until(lambda: server.room.tables, what="the table")
        await ann.shows("start the game")
        ann.press("\r")  # computer players in the other seats
        table = next(iter(server.room.tables.values()))
        await until(lambda: table.started, what="the start")
        dan = await Client.connect(server.port, "dan")
        await dan.shows("hand 1")
        assert worker_pids(server)["dan"] != worker_pids(server)["ann"]  # the emptier one
        dan.press("w")
        await until(lambda: settled(server) and "dan" in worker_pids(server)
                    and worker_pids(server)["dan"] == worker_pids(server)["ann"],
                    what="dan moved to the table's worker")
        # (what the old app drew after the move began is dropped: this is the new one's)
        await dan.shows("(you are watching)")
        assert [p.name for p in table.watchers] == ["dan"]
        ann.press("c")
        await ann.shows("Say at table 1")
        ann.press("hello dan\r")
        await dan.shows("ann: hello dan")
        for client in (ann, dan):
            client.close()


async def test_a_session_whose_move_fails_stays_where_it_was_and_plays_on(tmp_path):
    """The table's worker dies as a session moves there: the session gets a
    new app where it was (no "lost your session" line), at its seat, and
    what it types is carried out."""
    async with serving(tmp_path, workers=2) as server:
        clients, table = await seat_three(server.port, server.room)
        await until(lambda: settled(server), what="the moves done")
        pool = server.pool
        bob = clients[1]
        await _at_the_throw(bob)
        remote = next(r for w in pool.workers for r in w.sessions.values() if r.name == "bob")
        here = remote.worker
        there = next(w for w in pool.workers if w is not here)
        pool.move(remote, there)
        os.kill(there.pid, signal.SIGKILL)
        await until(lambda: settled(server) and not remote.starting
                    and remote.worker is here, what="bob back where he was")
        await until(lambda: len([w for w in pool.workers if w.alive]) == 2,
                    what="the worker started again")
        assert not remote.finished.done()
        assert "lost your session" not in bob.terminal.text()
        bob.press("1")
        seat = table.seat_of("bob")
        await until(lambda: table.game.state.discards[seat] is not None, what="bob's throw")
        await until(lambda: past_the_throw(bob.terminal.text()), what="bob's screen")

        # Again, but the table's worker dies after the new app was sent there,
        # before it drew anything (stopped, then killed): back where it was.
        there = next(w for w in pool.workers if w is not here)
        os.kill(there.pid, signal.SIGSTOP)
        pool.move(remote, there)
        await until(lambda: remote.worker is there, what="the new app sent there")
        assert remote.starting
        os.kill(there.pid, signal.SIGKILL)
        await until(lambda: remote.worker is here and not remote.starting, what="bob back")
        await until(lambda: len([w for w in pool.workers if w.alive]) == 2,
                    what="the worker started again")
        assert not remote.finished.done()
        assert "lost your session" not in bob.terminal.text()
        for client in clients:
            client.close()


class _Table:
    """What `placement` reads of a table."""

    def __init__(self, owner: str, seated: list[str], watchers: list[str] = ()) -> None:
        from crib3.room.seats import Seat

        self.owner = owner
        self.seats = [Seat(name, None) for name in seated]
        self.watchers = list(watchers)

    def watcher_names(self) -> list[str]:
        return self.watchers


def test_a_tables_worker_is_where_most_of_its_others_are_then_the_owners():
    table = _Table("Ann", ["Ann", "bob", "cat"], ["dan"])
    # most of the others
    assert placement.home_of(table, {"ann": ["A"], "cat": ["B"], "dan": ["B"]}, "bob") == "B"
    # a tie: the owner's, unless the session is in one of the tied already
    assert placement.home_of(table, {"ann": ["A"], "cat": ["B"]}, "bob") == "A"
    assert placement.home_of(table, {"ann": ["A"], "cat": ["B"]}, "bob", here="B") == "B"
    # one's own sessions do not count; nobody else there: no table's worker
    assert placement.home_of(table, {"bob": ["B"]}, "BOB") is None
    assert placement.people_at(table) == ["ann", "bob", "cat", "dan"]
