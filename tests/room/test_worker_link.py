"""The session worker's end of its socket (`crib3.net.worker.WorkerLink`):
what it writes to the main process, and when."""

from __future__ import annotations

import asyncio
import socket

from crib3.net.worker import FLUSH_AT, WorkerLink
from crib3.room import wire


class CountedSocket:
    """A socket whose writes are counted (a real socket's methods cannot be
    replaced on the instance)."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.sends = 0

    def fileno(self) -> int:
        return self.sock.fileno()

    def setblocking(self, flag: bool) -> None:
        self.sock.setblocking(flag)

    def send(self, data: bytes) -> int:
        self.sends += 1
        return self.sock.send(data)

    def recv(self, size: int) -> bytes:
        return self.sock.recv(size)


class NoWorker:
    stats = None

    def receive(self, message: object, later: bool) -> None:
        pass


def read_all(sock: socket.socket) -> list[object]:
    sock.setblocking(False)
    frames, got = wire.Frames(), []
    try:
        while data := sock.recv(1 << 20):
            got += frames.feed(data)
    except BlockingIOError:
        pass
    return got


async def test_what_the_sessions_say_in_one_turn_of_the_loop_goes_in_one_write():
    mine, theirs = socket.socketpair()
    counted = CountedSocket(mine)
    link = WorkerLink(counted, NoWorker())  # type: ignore[arg-type]
    try:
        for session in range(3):  # three screens drawn in one turn
            link.send(wire.Output(session, b"x" * 5000))
        assert counted.sends == 0 and read_all(theirs) == []  # not before the turn ends
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert counted.sends == 1
        assert [m.session for m in read_all(theirs)] == [0, 1, 2]  # all of it, in order
    finally:
        link._lost()
        mine.close()
        theirs.close()


async def test_a_large_backlog_is_written_at_once():
    mine, theirs = socket.socketpair()
    counted = CountedSocket(mine)
    link = WorkerLink(counted, NoWorker())  # type: ignore[arg-type]
    try:
        link.send(wire.Output(0, b"x" * FLUSH_AT))
        assert counted.sends >= 1
        assert [m.session for m in read_all(theirs)] == [0]
    finally:
        link._lost()
        mine.close()
        theirs.close()


def a_go_round(seat: int = 0):
    """A board's play from seat `seat`, as its feed hands it to that
    seat's screen, up to the computer's card (seat 2) after which both
    people say go, the computer scores the go and the count starts again
    with `seat` to lead; and those five items."""
    from crib3.duplicate.boards import make_boards
    from crib3.duplicate.play import play_with_bots
    from crib3.engine import SeatFeed
    from crib3.engine import events as ev

    game = play_with_bots(make_boards(2, 1)[0], 0, ["standard"] * 3)
    history, _ = SeatFeed(game, seat).follow(lambda *_: None)
    items = [(event, view) for event, _, view in history]
    for at in range(len(items) - 4):
        card, go, go_too, scored, reset = (event for event, _ in items[at:at + 5])
        if isinstance(card, ev.CardPlayed) and card.seat == 2 \
                and isinstance(go, ev.GoSaid) and isinstance(go_too, ev.GoSaid) \
                and isinstance(scored, ev.GoScored) \
                and isinstance(reset, ev.CountReset) and reset.leader == seat:
            return items[:at], items[at:at + 5]
    raise AssertionError("the board has no go round led by seat 0 after it")


async def test_a_screen_is_handed_the_rooms_events_in_the_order_sent_whoever_reads_them():
    """A call's reply shares a read with the computer's card; before the
    loop hands the card on, another session's call reads the two gos, the
    go's point and the new count: the screen still gets the card first, and
    its seat's view ends where the game stands (its turn to lead), not at
    the card (another's turn: the table would wait on a screen that offers
    no move)."""
    from crib3.net.worker import Worker
    from crib3.room.replica import CALLER, ReplicaTable

    before, round_ = a_go_round()
    mine, theirs = socket.socketpair()
    worker = Worker(mine, None)
    table = ReplicaTable(worker.room, 4)
    got: list[tuple[object, object]] = []
    token = CALLER.set(1)
    try:
        theirs.sendall(wire.frame(wire.Reply(1, wire.Followed(9, tuple(before)))))
        feed = table.feed(0)
        so_far, _ = feed.follow(lambda event, state, view: got.append((event, view)))
        assert len(so_far) == len(before)
        CALLER.set(2)  # another person's call: its reply, then the computer's card
        theirs.sendall(wire.frame(wire.Reply(2)) + wire.frame(wire.FeedItems(9, (round_[0],))))
        worker.room._call("room", "play_now_leave", wire.ME)
        CALLER.set(3)  # and a third's, before the loop has handed the card on
        theirs.sendall(b"".join(wire.frame(wire.FeedItems(9, (item,))) for item in round_[1:])
                       + wire.frame(wire.Reply(3)))
        worker.room._call("room", "play_now_leave", wire.ME)
        deadline = asyncio.get_running_loop().time() + 10
        while len(got) < len(round_):
            assert asyncio.get_running_loop().time() < deadline, (
                "the round's five events were not all handed on", got)
            await asyncio.sleep(0.01)
        assert [event for event, _ in got] == [event for event, _ in round_]
        assert got[-1][1].my_turn and feed.view is not None and feed.view.my_turn
    finally:
        CALLER.reset(token)
        worker.link._lost()
        mine.close()
        theirs.close()
