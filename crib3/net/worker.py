"""One session worker process of `crib3 serve --workers N`: it runs many
sessions' apps on a replica of the room.

The main process (`crib3.net.workers`) spawns it with one end of a socket
pair (`python -m crib3.net.worker FD APP`); everything it hears and says
goes over that socket as `crib3.room.wire` messages:

- each session's terminal, relayed: the client's bytes, window size,
  flow (the client stopped reading or caught up) and hang-up come in;
  the app's output goes back. The app runs on the same `ChannelDriver` as
  in one process, on a `RelayChannel` in place of the SSH channel, so the
  input bounds (key rate, byte rate, backlog) work as they do there, and
  output is skipped while the main process says the client is behind;
- the room, as `ReplicaRoom` (`crib3.room.replica`): deltas and seat
  feeds come in, calls go out and wait for their reply; a move goes out
  without waiting, and its reply comes in as the room's messages do.

It ignores SIGINT (Ctrl-C at the server's terminal reaches the whole
process group): the main process decides when sessions end, says
farewell, and stops the workers. When the main process is gone (the
socket closes) the worker ends its apps and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import importlib
import logging
import os
import select
import signal
import socket
import sys
import time
from collections import deque
from collections.abc import Mapping
from typing import Any

from crib3.common import crash
from crib3.common.loop_watch import LoopWatch
from crib3.net.collector import Collector
from crib3.net.console import client_console  # (not from the server: no asyncssh here)
from crib3.net.driver import START, ChannelDriver
from crib3.net.journey import Journey
from crib3.net.worker_stats import WorkerStats, from_environment
from crib3.room import wire
from crib3.room.replica import CALLER, ReplicaPresence, ReplicaRoom

log = logging.getLogger("crib3.serve")
STARTED = START.encode()  # what a driver writes first, before any screen
FRAME_AT_LEAST = 256  # bytes: any write longer is a screen drawn (80x24: thousands)
# Bytes queued for the main process that are written at once rather than at
# the end of the loop's turn (`WorkerLink.send`): some ten 80x24 frames.
FLUSH_AT = 64 * 1024
# A move waits for the room's answer unless this is "0" (sent without
# waiting: `ReplicaFeed.send`). Waiting is much the faster to the screen:
# without it the mover's events wait their turn behind every other session
# of the worker, and arrive apart, each drawn on its own, where a waiting
# key draws them at once (measured: assets/measurements/card-room.md).
MOVES_WAIT = "CRIB3_MOVES_WAIT"


def moves_wait(environ: Mapping[str, str]) -> bool:
    """Whether a worker's moves wait for the room (`MOVES_WAIT`)."""
    return environ.get(MOVES_WAIT, "1") != "0"


class WorkerLink:
    """The worker's end of the socket: frames out (buffered, never
    blocking the loop except inside a call), frames in (handed to the
    worker in order). A call blocks until its reply, applying the room's
    messages that come first (a move's reply among them) and leaving the
    sessions' for the loop.

    Every message read waits in one queue, `inbox`, and leaves it in the
    order it came, whoever reads it: a call's reply often shares a read
    with the room's next messages (a computer player's move, made as soon
    as the person's was answered), which wait there for the loop; a call
    made before the loop has handed them on applies them first, then what
    it reads itself. (Applying the newer ones at once, as another call
    read them, gave a screen a board's go and its new count before the
    card that led to them, and the screen waited on a turn that was not
    its own any more.)"""

    def __init__(self, sock: socket.socket, worker: Worker) -> None:
        self.sock = sock
        self.worker = worker
        self.frames = wire.Frames()
        self.out = bytearray()
        self.loop = asyncio.get_running_loop()
        self._writing = False
        self._flushing = False  # a write is due at the end of this turn (`_flush_soon`)
        self.inbox: deque[object] = deque()  # read, not yet handed on (see the class's docstring)
        self._handing_on = False  # the loop is to hand the inbox on (`_hand_on_soon`)
        self.closed = asyncio.Event()
        sock.setblocking(False)
        self.loop.add_reader(sock, self._readable)

    def send(self, message: object) -> None:
        """Queue `message`; everything queued in one turn of the loop goes
        in one write, at the end of the turn (`_flush_soon`)."""
        if self.closed.is_set():
            return
        if self.worker.stats is not None and isinstance(message, wire.Call):
            self.worker.stats.move_sent(message.call)  # (a call sent so is a move)
        self.out += wire.frame(message)
        if len(self.out) >= FLUSH_AT:
            self._write()
        else:
            self._flush_soon()

    def _flush_soon(self) -> None:
        """Write what is queued once the callbacks ready now have run: a
        turn of a busy worker's loop draws several sessions' screens, and
        each write is a system call here and a wake-up and a read in the
        main process; one write a turn serves them all."""
        if not self._flushing:
            self._flushing = True
            self.loop.call_soon(self._flush)

    def _flush(self) -> None:
        self._flushing = False
        if not self.closed.is_set():
            self._write()

    def _write(self) -> None:
        try:
            while self.out:
                sent = self.sock.send(self.out)
                del self.out[:sent]
        except BlockingIOError:
            pass
        except OSError:
            self._lost()
            return
        if self.out and not self._writing:
            self._writing = True
            self.loop.add_writer(self.sock, self._writable)
        elif not self.out and self._writing:
            self._writing = False
            self.loop.remove_writer(self.sock)

    def _writable(self) -> None:
        self._write()

    def _received(self) -> bytes | None:
        """What the socket has: None when nothing yet, b"" when it is gone."""
        try:
            return self.sock.recv(1 << 20)
        except BlockingIOError:
            return None
        except OSError:
            return b""

    def _readable(self) -> None:
        data = self._received()
        if data is None:
            return
        if not data:
            self._lost()
            return
        try:
            messages = self.frames.feed(data)
        except wire.WireError as exc:
            log.warning("the main process sent %s: the link is closed", exc)
            self._lost()
            return
        self.inbox.extend(messages)
        self._hand_on()

    def _hand_on(self) -> None:
        """Hand the worker every message read, in order (from the loop)."""
        self._handing_on = False
        while self.inbox:
            self.worker.receive(self.inbox.popleft(), later=False)

    def _hand_on_soon(self) -> None:
        if not self._handing_on:
            self._handing_on = True
            self.loop.call_soon(self._hand_on)

    def _lost(self) -> None:
        if not self.closed.is_set():
            self.closed.set()
            self.loop.remove_reader(self.sock)
            if self._writing:
                self.loop.remove_writer(self.sock)

    def call(self, call: wire.Call) -> wire.Reply:
        """Send `call` and wait for its reply (see the class's docstring)."""
        if self.closed.is_set():
            return wire.Reply(call.call, error="the card room is closing")
        self.out += wire.frame(call)
        stats, started = self.worker.stats, time.perf_counter()
        try:
            return self._wait_for(call)
        finally:
            if stats is not None:
                stats.call_took(call.method, time.perf_counter() - started)

    def _wait_for(self, call: wire.Call) -> wire.Reply:
        while True:
            readable, writable, _ = select.select([self.sock], [self.sock] if self.out else [],
                                                  [], 5.0)
            if writable:
                self._write()
            if not readable:
                if self.closed.is_set():
                    return wire.Reply(call.call, error="the card room is closing")
                continue
            data = self._received()
            if data is None:
                continue
            if not data:
                self._lost()
                return wire.Reply(call.call, error="the card room is closing")
            try:
                messages = self.frames.feed(data)
            except wire.WireError as exc:
                log.warning("the main process sent %s: the link is closed", exc)
                self._lost()
                return wire.Reply(call.call, error="the card room is closing")
            self.inbox.extend(messages)
            reply = self._apply_until(call)
            if reply is not None:
                return reply

    def _apply_until(self, call: wire.Call) -> wire.Reply | None:
        """Apply the room's messages in the inbox up to `call`'s reply, in
        order, and take out the reply (None: not read yet). A session's
        message stays where it is, for the loop; so does all after the
        reply."""
        kept = 0  # the inbox's first messages, sessions', left for the loop
        while kept < len(self.inbox):
            message = self.inbox[kept]
            if isinstance(message, wire.Reply) and message.call == call.call:
                del self.inbox[kept]
                if self.inbox:
                    self._hand_on_soon()
                return message
            if self.worker.receive(message, later=True):
                del self.inbox[kept]  # (a room's message: applied)
            else:
                kept += 1
        return None


class RelayChannel:
    """What `ChannelDriver` writes to: the session's output, sent to the
    main process for its SSH channel."""

    def __init__(self, session: int, link: WorkerLink) -> None:
        self.session = session
        self.link = link

    def write(self, data: bytes) -> None:
        if self.link.closed.is_set():
            raise OSError("the main process is gone")
        if self.link.worker.stats is not None:
            self.link.worker.stats.output(self.session, len(data))
        self.link.send(wire.Output(self.session, data))


class Session:
    """One session's app in this worker."""

    def __init__(self, opened: wire.OpenSession, presence: ReplicaPresence) -> None:
        self.opened = opened
        self.presence = presence
        self.driver: ChannelDriver | None = None
        self.early: list[bytes] = []
        self.size = opened.size  # the latest window size (one may come before the driver)
        self.ended = False
        self.hung_up = False
        self.task: asyncio.Task[None] | None = None


class Worker:
    """The sessions of this process and the room they share."""

    def __init__(self, sock: socket.socket, make_app: Any) -> None:
        self.make_app = make_app
        self.stats: WorkerStats | None = from_environment()
        self.link = WorkerLink(sock, self)
        self.room = ReplicaRoom(self.link)
        self.room.moves_wait = moves_wait(os.environ)
        self.sessions: dict[int, Session] = {}
        self.collector = Collector()

    def receive(self, message: object, later: bool) -> bool:
        """A message from the main process; False if it was left. The
        room's are applied now; while a call waits (`later`), a session's
        is left, for the link to hand on in its turn (`WorkerLink`)."""
        if self.stats is not None and isinstance(message, wire.Reply):
            self.stats.move_answered(message.call)
        if self.room.receive(message):
            return True
        if later:
            return False
        try:
            self._session_message(message)
        except Exception as exc:  # one session's trouble is not the worker's
            crash.report(log, exc, "a message to a session")
        return True

    def _session_message(self, message: object) -> None:
        if isinstance(message, wire.OpenSession):
            self._open(message)
            return
        session = self.sessions.get(getattr(message, "session", -1))
        if session is None:
            return
        driver = session.driver
        if isinstance(message, wire.Input):
            if self.stats is not None:
                self.stats.key_in(session.opened.session)
            if driver is not None:
                driver.feed(message.data)
            elif not session.ended and sum(map(len, session.early)) < 4096:
                session.early.append(message.data)
        elif isinstance(message, wire.Resize):
            session.size = (message.width, message.height)
            if driver is not None:
                driver.resize_soon(message.width, message.height)
        elif isinstance(message, wire.Flow):
            if driver is not None:
                (driver.output_paused if message.paused else driver.output_resumed)()
        elif isinstance(message, wire.Leave):
            session.ended = True  # (no more input comes: the main process keeps it)
            session.early.clear()
            if driver is not None:
                self.link.loop.create_task(self._leave(driver))
        elif isinstance(message, wire.End):
            session.ended = True
            session.hung_up = session.hung_up or message.hang_up
            session.early.clear()
            if driver is not None:
                (driver.hang_up if message.hang_up else driver.end_app)()

    @staticmethod
    async def _leave(driver: ChannelDriver, patience: float = 1.0) -> None:
        """End a session's app that moves to another worker (`wire.Leave`),
        once the keys it was given before are handled (two looks a moment
        apart find nothing waiting), or after `patience` seconds: a key typed
        just before the move is carried out here, and the new app shows it."""
        quiet = 0
        for _ in range(int(patience / 0.01)):
            quiet = quiet + 1 if driver.backlog() == 0 else 0
            if quiet >= 2:
                break
            await asyncio.sleep(0.01)
        driver.end_app()

    def _open(self, opened: wire.OpenSession) -> None:
        presence = self.room.presence(opened.name, opened.key, opened.admin, opened.session)
        presence.code = opened.code
        # Moved here to watch its table with the others (or to play at it,
        # its game begun as it moved): the app opens there.
        journey = Journey(watching=self.room._table(opened.watching),
                          from_start=opened.from_start)
        session = Session(opened, presence)
        self.sessions[opened.session] = session
        app = self.make_app(self.room, presence, ascii=opened.ascii, think=opened.think,
                            journey=journey)
        client_console(app, opened.term, opened.env)
        make_driver = ChannelDriver.for_channel(RelayChannel(opened.session, self.link))

        def driver_class(app_: Any, **kwargs: Any) -> ChannelDriver:
            driver = session.driver = make_driver(app_, **kwargs)
            for data in session.early:
                driver.feed(data)
            session.early.clear()
            if session.size != session.opened.size:
                driver.resize_soon(*session.size)
            if session.ended:
                (driver.hang_up if session.hung_up else driver.end_app)()
            return driver

        app.driver_class = driver_class
        context = contextvars.copy_context()
        context.run(CALLER.set, opened.session)  # the room's calls are this session's
        session.task = self.link.loop.create_task(self._run(session, app), context=context)

    async def _run(self, session: Session, app: Any) -> None:
        failure: str | None = None
        try:
            if not session.ended:
                await app.run_async(size=session.opened.size)
            if getattr(app, "crash", None) is not None:
                raise app.crash
        except Exception as exc:
            crash.report(log, exc, f"the session of {session.presence.name}")
            failure = f"{type(exc).__name__}: {exc}"
        finally:
            self.sessions.pop(session.opened.session, None)
            self.room.forget(session.presence)
            self.link.send(wire.Ended(session.opened.session, failure))
            self.collector.session_ended()

    async def warm_up(self, timeout: float = 20.0) -> None:
        """Pay the fixed cost of a session before the first one comes: one
        app, off the record, draws its first screen (the lobby) to a channel
        that keeps nothing; what that made to stay (classes, parsed CSS,
        caches) is then frozen (`crib3.net.collector`)."""
        drawn = asyncio.Event()

        class Nowhere:
            def write(self, data: bytes) -> None:
                # A screen, not the terminal's modes (`STARTED`) or the
                # pointer's shape (a few bytes each), which come first.
                if len(data) > FRAME_AT_LEAST:
                    drawn.set()

        app = self.make_app(self.room, ReplicaPresence("warm-up", None), ascii=False, think=0)
        app.driver_class = ChannelDriver.for_channel(Nowhere())
        task = self.link.loop.create_task(app.run_async(size=(80, 24)))
        try:
            await asyncio.wait_for(drawn.wait(), timeout)
        except TimeoutError:
            log.warning("the warm-up drew nothing in %.0f s", timeout)
        finally:
            app.exit()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(task, timeout)
        del app, task
        self.collector.warmed()

    async def run(self) -> None:
        with LoopWatch(log).watching():  # (a loop that stops turning is said in the log)
            await self.warm_up()
            self.link.send(wire.Hello(wire.VERSION, os.getpid()))
            await self.link.closed.wait()
            for session in list(self.sessions.values()):  # the main process is gone
                session.ended = session.hung_up = True
                if session.driver is not None:
                    session.driver.hang_up()
            tasks = [s.task for s in self.sessions.values() if s.task is not None]
            if tasks:
                await asyncio.wait(tasks, timeout=5)
            self.collector.stop()
            if self.stats is not None:
                self.stats.write()


def app_factory(path: str) -> Any:
    """`module:Name` -> the object (the command names the app class; the
    SSH side imports no screen itself)."""
    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process says when to stop
    fd, factory = int(argv[0]), argv[1]
    from crib3.common import server_log

    server_log.configure_worker(sys.stderr)
    from crib3.tui.textual_compat import many_terminals_in_one_process

    many_terminals_in_one_process()
    make_app = app_factory(factory)
    sock = socket.socket(fileno=fd)

    async def run() -> None:
        await Worker(sock, make_app).run()

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
