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
