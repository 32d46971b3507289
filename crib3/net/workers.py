"""The session workers of `crib3 serve --workers N`, as the main process
keeps them.

The main process holds what must be one (the SSH server, the `Room` and
its games, bots, logs and limits) and spreads the sessions' apps, where
the CPU goes (drawing screens), over N worker processes
(`crib3.net.worker`), one socket pair each. For a session the main
process is a relay: the client's bytes, window changes, flow and hang-up
go to the worker as messages, and the app's output comes back for the SSH
channel (`RemoteSession`, which a `PlaySession` drives as it would a
`ChannelDriver`). The room reaches the workers through `RoomHost`.

A worker is spawned at the start (a fresh interpreter: `python -m`), a new
session goes to the one with the fewest sessions, and a worker that dies
is noticed when its socket closes: each of its sessions is ended with its
terminal put back and one line, and the worker is started again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
import subprocess
import sys
from typing import Any

from crib3.room import Presence, wire
from crib3.room.host import RoomHost

log = logging.getLogger("crib3.serve")

LOST = ("the card room lost your session (a server process stopped); your table is "
        "saved: connect again")


class RemoteSession:
    """One session whose app runs in a worker: what the SSH session calls
    on it (the same as on a `ChannelDriver`) becomes a message, and
    `finished` is set when the app has stopped: (why it failed or None,
    whether the worker was lost)."""

    def __init__(self, number: int, worker: Worker, chan: Any, name: str) -> None:
        self.number = number
        self.name = name  # whose session (for the log and the tests)
        self.worker = worker
        self.chan = chan
        self.finished: asyncio.Future[tuple[str | None, bool]] = \
            asyncio.get_running_loop().create_future()

    def feed(self, data: bytes) -> None:
        self.worker.send(wire.Input(self.number, data))

    def resize_soon(self, width: int, height: int) -> None:
        self.worker.send(wire.Resize(self.number, width, height))

    def output_paused(self) -> None:
        self.worker.send(wire.Flow(self.number, True))

    def output_resumed(self) -> None:
        self.worker.send(wire.Flow(self.number, False))

    def end_app(self) -> None:
        self.worker.send(wire.End(self.number, False))

    def hang_up(self) -> None:
        self.worker.send(wire.End(self.number, True))

    def output(self, data: bytes) -> None:
        with contextlib.suppress(Exception):  # the client may be gone already
            self.chan.write(data)

    def done(self, failure: str | None, lost: bool = False) -> None:
        if not self.finished.done():
            self.finished.set_result((failure, lost))


class Worker:
    """One worker process and its socket, seen from the main process."""

    def __init__(self, pool: WorkerPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.process: subprocess.Popen[bytes] | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.pid = 0
        self.ready = asyncio.get_running_loop().create_future()
        self.sessions: dict[int, RemoteSession] = {}
        self.reading: asyncio.Task[None] | None = None

    async def start(self) -> None:
        ours, theirs = socket.socketpair()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "crib3.net.worker", str(theirs.fileno()), self.pool.factory],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL)
        theirs.close()
        reader, self.writer = await asyncio.open_unix_connection(sock=ours, limit=1 << 20)
        self.reading = asyncio.get_running_loop().create_task(self._read(reader))

    def send(self, message: object) -> None:
        if self.writer is not None and not self.writer.is_closing():
            self.writer.write(wire.frame(message))

    async def _read(self, reader: asyncio.StreamReader) -> None:
        frames = wire.Frames()
        try:
            while data := await reader.read(1 << 20):
                for message in frames.feed(data):
                    self._receive(message)
        except Exception as exc:
            log.warning("worker %d: %s", self.index, exc)
        finally:
            self.pool.lost(self)

    def _receive(self, message: object) -> None:
        if isinstance(message, wire.Output):
            session = self.sessions.get(message.session)
            if session is not None:
                session.output(message.data)
        elif isinstance(message, wire.Call):
            self.pool.host.answer(self, message)
        elif isinstance(message, wire.Unfollow):
            self.pool.host.unfollow(message.sub)
        elif isinstance(message, wire.Ended):
            session = self.sessions.pop(message.session, None)
            self.pool.host.drop_session(message.session)
            if session is not None:
                session.done(message.failure)
        elif isinstance(message, wire.Hello):
            if message.version != wire.VERSION:
                log.warning("worker %d speaks version %d, not %d: stopped", self.index,
                            message.version, wire.VERSION)
                self.stop()
                return
            self.pid = message.pid
            self.pool.host.add_worker(self)
            if not self.ready.done():
                self.ready.set_result(None)

    def stop(self) -> None:
        if self.writer is not None:
            self.writer.close()


class WorkerPool:
    """N workers (see the module's docstring)."""

    def __init__(self, count: int, host: RoomHost, factory: str) -> None:
        self.count = max(1, count)
        self.host = host
        self.factory = factory  # "module:Name" of the app each session runs
        self.workers: list[Worker] = []
        self.stopping = False
        self._numbers = itertools.count(1)

    async def start(self) -> None:
        for index in range(self.count):
            worker = Worker(self, index)
            self.workers.append(worker)
            await worker.start()
        await asyncio.gather(*(w.ready for w in self.workers))

    def describe(self) -> str:
        return f"{self.count} session workers: pids " + " ".join(str(w.pid) for w in self.workers)

    async def open(self, chan: Any, presence: Presence, **session: Any) -> RemoteSession:
        """A new session on the worker with the fewest sessions."""
        worker = min(self.workers, key=lambda w: (not w.ready.done(), len(w.sessions)))
        await worker.ready
        number = next(self._numbers)
        remote = RemoteSession(number, worker, chan, presence.name)
        worker.sessions[number] = remote
        self.host.add_session(number, worker, presence)
        self.host.flush()  # the worker knows them before their app asks the room
        worker.send(wire.OpenSession(number, presence.name, presence.key, presence.admin,
                                     **session))
        log.info("the session of %s runs in worker %d (pid %d)", presence.name, worker.index,
                 worker.pid)
        return remote

    def lost(self, worker: Worker) -> None:
        """A worker's socket closed: it stopped (or died). Its sessions end
        with one line each; unless the server is stopping, it starts again."""
        self.host.remove_worker(worker)
        if worker.process is not None and not self.stopping:
            if worker.process.poll() is None:  # its socket closed, yet it runs: stop it
                worker.process.kill()
            asyncio.get_running_loop().run_in_executor(None, worker.process.wait)  # (reaped)
        for session in list(worker.sessions.values()):
            session.done(None, lost=True)
        worker.sessions.clear()
        if self.stopping or worker not in self.workers:
            return
        log.warning("worker %d (pid %d) stopped; starting it again", worker.index, worker.pid)
        again = Worker(self, worker.index)
        self.workers[self.workers.index(worker)] = again
        asyncio.get_running_loop().create_task(self._restart(again))

    async def _restart(self, worker: Worker) -> None:
        try:
            await worker.start()
        except OSError as exc:
            log.warning("worker %d could not start again: %s", worker.index, exc)

    async def stop(self, grace: float = 5.0) -> None:
        """Stop every worker (their sessions have ended already)."""
        self.stopping = True
        for worker in self.workers:
            worker.stop()
        loop = asyncio.get_running_loop()
        for worker in self.workers:
            if worker.process is None:
                continue
            try:
                await asyncio.wait_for(loop.run_in_executor(None, worker.process.wait), grace)
            except asyncio.TimeoutError:
                worker.process.kill()
                await loop.run_in_executor(None, worker.process.wait)
        for worker in self.workers:
            if worker.reading is not None:
                with contextlib.suppress(BaseException):
                    await worker.reading
