"""The session workers of `crib3 serve --workers N`, as the main process
keeps them.

The main process holds what must be one (the SSH server, the `Room` and
its games, bots, logs and limits) and spreads the sessions' apps, where
the CPU goes (drawing screens), over N worker processes
(`crib3.net.worker`), one socket pair each. For a session the main
process is a relay: the client's bytes, window changes, flow and hang-up
go to the worker as messages, and the app's output comes back for the SSH
channel (`RemoteSession`, which a `crib3.net.session.PlaySession` drives
as it would a `ChannelDriver`). The room reaches the workers through `RoomHost`.

A worker is spawned at the start (a fresh interpreter: `python -m`), a new
session goes to the one with the fewest sessions (or, coming back to its
table, to that table's), and a worker that dies is noticed when its socket
closes: each of its sessions is ended with its terminal put back and one
line, and the worker is started again.

A table's sessions run in one worker (`crib3.net.placement` says which,
and why): after a call that sat a session at a table, or had it watch one,
whose other sessions run in another worker, the session moves there
(`WorkerPool.move`). Its old app is told to `Leave` (it handles the keys
it has, then ends; its output is dropped from then on, so the terminal is
not touched); once it has `Ended`, a new app starts in the table's worker
with a new session number, at the session's current size, straight at
its seat as a reconnect does (or watching), and draws the whole screen.
What the client typed meanwhile is held and given to the new app once it
has drawn its first screen. Should the table's worker be gone by then, the
new app starts in the old one: the session stays where it was, and works.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
import subprocess
import sys
from typing import TYPE_CHECKING, Any

from crib3.net import placement
from crib3.net.driver import STOP
from crib3.room import Presence, wire
from crib3.room.host import RoomHost

if TYPE_CHECKING:
    from crib3.net.session import Terminal

log = logging.getLogger("crib3.serve")

HELD_AT_MOST = 4096  # bytes of a moving session's input kept for its new app
HOLD_AT_MOST = 5.0  # seconds it is kept at most, should the new app draw nothing
FRAME_AT_LEAST = 256  # bytes: any output longer is a screen drawn (as in crib3.net.worker)
LOST = ("the card room lost your session (a server process stopped); your table is "
        "saved: connect again")


class RemoteSession:
    """One session whose app runs in a worker: what its `PlaySession` calls
    on it (the same as on a `ChannelDriver`) becomes a message, and
    `finished` is set when the app has stopped: (why it failed or None,
    whether the worker was lost).

    It may move to another worker (`WorkerPool.move`): its app there is a
    new one with a new number. While it moves (`moving`, from the old app's
    `Leave` to its `Ended`), what the client sends is held here and given to
    the new app, and the window size, flow and an end are remembered."""

    def __init__(self, number: int, worker: Worker, chan: Terminal, presence: Presence,
                 opened: dict[str, Any]) -> None:
        self.number = number
        self.name = presence.name  # whose session (for the log and the tests)
        self.presence = presence
        self.worker = worker
        self.chan = chan
        self.opened = opened  # what `OpenSession` says besides its number (a move says it again)
        self.size: tuple[int, int] = opened.get("size", (80, 24))
        self.paused = False
        self.moving: Worker | None = None  # where it goes, while its old app ends
        self.watching: int | None = None  # ... as a spectator of this table (its uid)
        self.from_start = False  # ... waiting for its table's game (`wire.OpenSession`)
        self.came_from: Worker | None = None  # the worker of its last move's old app
        self.held: list[bytes] = []  # what the client sent meanwhile
        # The new app has not drawn its first screen yet: input is still held
        # (keys given to an app before its screen is up were lost).
        self.starting = False
        self.holding: asyncio.TimerHandle | None = None  # lets go at the latest (`HOLD_AT_MOST`)
        self.ended = False  # the client left, or the session was ended (kicked)
        self.hung_up = False
        self.moves = 0
        self.finished: asyncio.Future[tuple[str | None, bool]] = \
            asyncio.get_running_loop().create_future()

    def feed(self, data: bytes) -> None:
        if self.moving is not None or self.starting:
            if sum(map(len, self.held)) < HELD_AT_MOST:
                self.held.append(data)
            return
        self.worker.send(wire.Input(self.number, data))

    def resize_soon(self, width: int, height: int) -> None:
        self.size = (width, height)
        if self.moving is None:
            self.worker.send(wire.Resize(self.number, width, height))

    def output_paused(self) -> None:
        self.paused = True
        if self.moving is None:
            self.worker.send(wire.Flow(self.number, True))

    def output_resumed(self) -> None:
        self.paused = False
        if self.moving is None:
            self.worker.send(wire.Flow(self.number, False))

    def end_app(self) -> None:
        self.ended = True
        if self.moving is None:
            self.worker.send(wire.End(self.number, False))

    def hang_up(self) -> None:
        self.ended = self.hung_up = True
        self.held.clear()
        if self.moving is None:
            self.worker.send(wire.End(self.number, True))

    def output(self, data: bytes) -> None:
        with contextlib.suppress(Exception):  # the client may be gone already
            self.chan.write(data)
        if self.starting and len(data) > FRAME_AT_LEAST:  # the new app's first screen
            self.let_go()

    def let_go(self) -> None:
        """Give the new app (after a move) what the client sent meanwhile."""
        if not self.starting:
            return
        self.starting = False
        held, self.held = self.held, []
        if not self.ended:
            for data in held:
                self.worker.send(wire.Input(self.number, data))

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
        # Sessions whose app here ends as they move to another worker: their
        # output is dropped (the terminal is not touched) until it has.
        self.leaving: dict[int, RemoteSession] = {}
        self.reading: asyncio.Task[None] | None = None
        self.gone = False  # its socket closed (`WorkerPool.lost`)

    async def start(self) -> None:
        ours, theirs = socket.socketpair()
        # (Popen only starts the process, which runs on its own: no waiting here.)
        self.process = subprocess.Popen(  # noqa: ASYNC220
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
        except Exception as exc:  # (a frame not of ours among them: `wire.WireError`)
            log.warning("worker %d: %s", self.index, exc)
            self.stop()  # its link is closed
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
            moved = self.leaving.pop(message.session, None)
            if moved is not None:  # its old app has ended: the new one starts
                self.pool.host.drop_session(message.session)
                self.pool.arrive(moved, self)
                return
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

    @property
    def alive(self) -> bool:
        """Up and taking sessions (it has said hello, and its socket is open)."""
        return self.ready.done() and not self.gone and self.writer is not None \
            and not self.writer.is_closing() and self in self.pool.workers


class WorkerPool:
    """N workers (see the module's docstring)."""

    def __init__(self, count: int, host: RoomHost, factory: str) -> None:
        self.count = max(1, count)
        self.host = host
        self.factory = factory  # "module:Name" of the app each session runs
        self.workers: list[Worker] = []
        self.stopping = False
        self._numbers = itertools.count(1)
        host.placed = self.placed

    async def start(self) -> None:
        for index in range(self.count):
            worker = Worker(self, index)
            self.workers.append(worker)
            await worker.start()
        await asyncio.gather(*(w.ready for w in self.workers))

    def describe(self) -> str:
        return f"{self.count} session workers: pids " + " ".join(str(w.pid) for w in self.workers)

    async def open(self, chan: Terminal, presence: Presence, **session: Any) -> RemoteSession:
        """A new session: on its table's worker if it comes back to a table
        whose other sessions run there (a reconnect), else on the worker
        with the fewest sessions (`crib3.net.placement`)."""
        worker = self._home(presence)
        if worker is None:
            worker = min(self.workers, key=lambda w: (not w.ready.done(), len(w.sessions)))
            await worker.ready
        remote = RemoteSession(0, worker, chan, presence, session)
        self._start(remote, worker)
        log.info("the session of %s runs in worker %d (pid %d)", presence.name, worker.index,
                 worker.pid)
        return remote

    def _start(self, remote: RemoteSession, worker: Worker, watching: int | None = None,
               from_start: bool = False) -> None:
        """Start `remote`'s app (a new one, with a new number) in `worker`."""
        number = next(self._numbers)
        remote.number, remote.worker = number, worker
        worker.sessions[number] = remote
        presence = remote.presence
        self.host.add_session(number, worker, presence)
        self.host.flush()  # the worker knows them before their app asks the room
        worker.send(wire.OpenSession(number, presence.name, presence.key, presence.admin,
                                     **{**remote.opened, "size": remote.size},
                                     watching=watching, from_start=from_start,
                                     code=presence.code))

    def _where(self) -> dict[str, list[Worker]]:
        """Each person's sessions' workers (where a moving one goes)."""
        where: dict[str, list[Worker]] = {}
        for worker in self.workers:
            for remote in [*worker.sessions.values(), *worker.leaving.values()]:
                if not remote.ended:
                    where.setdefault(remote.name.lower(), []).append(remote.moving or worker)
        return where

    def _home(self, presence: Presence, here: Worker | None = None) -> Worker | None:
        """The worker of the table `presence` is at, if its other sessions
        run in one that takes sessions (`crib3.net.placement.home_of`)."""
        table = placement.table_of(self.host.room, presence)
        if table is None:
            return None
        home = placement.home_of(table, self._where(), presence.name, here)
        return home if isinstance(home, Worker) and home.alive else None

    def placed(self, number: int) -> None:
        """Session `number` may have sat at, or watched, a table (`RoomHost.placed`):
        if that table's other sessions run in another worker, it moves there."""
        remote = next((w.sessions[number] for w in self.workers if number in w.sessions), None)
        if remote is None or remote.moving is not None or remote.ended:
            return
        home = self._home(remote.presence, remote.worker)
        if home is not None and home is not remote.worker:
            self.move(remote, home)

    def move(self, remote: RemoteSession, to: Worker) -> None:
        """Move `remote` to worker `to`: its app there ends (`wire.Leave`:
        the keys it has are handled first, its output is dropped), then a
        new one starts in `to` straight at its seat, as a reconnect does
        (`arrive`); meanwhile the client's input is held."""
        old = remote.worker
        table = placement.table_of(self.host.room, remote.presence)
        watching = table is not None and remote.presence in table.watchers
        remote.watching = self.host.uid_of(table) if watching else None
        remote.from_start = table is not None and not table.started
        del old.sessions[remote.number]
        old.leaving[remote.number] = remote
        remote.moving = to
        remote.moves += 1
        old.send(wire.Leave(remote.number))
        log.info("the session of %s moves from worker %d to worker %d, its table's",
                 remote.name, old.index, to.index)

    def arrive(self, remote: RemoteSession, old: Worker) -> None:
        """`remote`'s old app (in `old`) has ended: its new one starts where
        it was going, or, should that worker be gone, stays in `old` (a new
        app there, at its seat); or on the emptiest if both are gone."""
        to, remote.moving = remote.moving, None
        remote.came_from = old
        if remote.ended:  # the client left (or was sent away) during the move
            if not remote.hung_up:
                remote.output(STOP.encode())  # (the old app's was dropped)
            remote.done(None)
            return
        if to is None or not to.alive:
            to = old if old.alive else None
        if to is None:
            live = [w for w in self.workers if w.alive]
            if not live or self.stopping:  # (its session puts the terminal back)
                remote.done(None, lost=True)
                return
            to = min(live, key=lambda w: len(w.sessions))
        self._start(remote, to, remote.watching, remote.from_start)
        if remote.paused:
            to.send(wire.Flow(remote.number, True))
        remote.starting = True  # input waits for its first screen (`RemoteSession.output`)
        if remote.holding is not None:
            remote.holding.cancel()
        remote.holding = asyncio.get_running_loop().call_later(HOLD_AT_MOST, remote.let_go)

    def lost(self, worker: Worker) -> None:
        """A worker's socket closed: it stopped (or died). Its sessions end
        with one line each; unless the server is stopping, it starts again."""
        worker.gone = True
        self.host.remove_worker(worker)
        if worker.process is not None and not self.stopping:
            if worker.process.poll() is None:  # its socket closed, yet it runs: stop it
                worker.process.kill()
            asyncio.get_running_loop().run_in_executor(None, worker.process.wait)  # (reaped)
        for session in list(worker.sessions.values()):
            if session.starting and session.came_from is not None and not self.stopping:
                # Moved here, its new app not yet drawn: its move failed, and
                # it starts again where it came from (what it typed is held).
                session.moving = session.came_from
                self.arrive(session, session.came_from)
            else:
                session.done(None, lost=True)
        worker.sessions.clear()
        leaving, worker.leaving = list(worker.leaving.values()), {}
        for session in leaving:  # its old app is gone anyway: the new one starts
            self.arrive(session, worker)
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
            except TimeoutError:
                worker.process.kill()
                await loop.run_in_executor(None, worker.process.wait)
        for worker in self.workers:
            if worker.reading is not None:
                with contextlib.suppress(BaseException):
                    await worker.reading
