"""`crib3 serve`: the card room as an SSH server, on asyncssh.

Every SSH session runs its own crib3 app (the lobby, then the table) on a
`ChannelDriver`; all of them share one `Room`. With `workers` 1 everything
is in this process, on one event loop; with more, the apps run in session
worker processes (`crib3.net.workers`) on a replica of the room, and this
process keeps the SSH side and the room, and relays each session's
terminal (`PlaySession._run_in_worker`). The only thing a session can do
is play: there is no shell, no command execution, no subsystem (so no
SFTP or scp), no port, agent or X11 forwarding.

People are known by the name they connect as (`ssh -p 2222 NAME@host`) and,
unless the server runs `--open`, by the public key they authenticate with:
it must be in the authorized-keys file, which is read again for every
connection, so adding a friend's key needs no restart.

This module speaks SSH and nothing else: the room (`crib3.room`) is the
model, and each session's app is made by the `AppFactory` the command hands
in (`crib3 serve` passes `CardRoomApp`), so no screen is imported here.
`serve` is the whole life of `crib3 serve` once its arguments are checked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import asyncssh
from textual.app import App

from crib3.common import crash
from crib3.net.bounds import OUTPUT_HIGH_WATER, OUTPUT_LOW_WATER, capped_size
from crib3.net.console import client_console  # (also here: where it was)
from crib3.net.driver import STOP, ChannelDriver
from crib3.net.keys import keys_file_too_open  # the policy, shared with crib3 serve
from crib3.net.workers import LOST, WorkerPool
from crib3.room import Presence, Room, RoomError
from crib3.room.host import RoomHost
from crib3.tui.textual_compat import many_terminals_in_one_process

log = logging.getLogger("crib3.serve")

DEFAULT_SIZE = (80, 24)
FAILED = "something went wrong on the server (it is logged); your table is saved: connect again"


class AppFactory(Protocol):
    """Makes one session's app: `CardRoomApp` fits. The app must have a
    `crash` attribute (why it stopped, if it failed) like crib3's apps."""

    def __call__(self, room: Room, presence: Presence, ascii: bool = ...,
                 think: float = ...) -> App[Any]: ...


class CannotServe(Exception):
    """The server cannot begin (its port is taken, say): one line to say why."""


@dataclass
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    authorized_keys: Path | None = None  # None with open_door: anyone may sit
    open_door: bool = False
    think: float = 0.6
    admins: Path | None = None  # keys (authorized_keys format) of those who may close and remove
    workers: int = 1  # processes the sessions' apps run in; 1: all in this one (crib3.net.workers)
    web: Any = None  # a `crib3.net.web.WebOptions`: the web door, if it is to open
    web_folder: Path | None = None  # where the web door keeps its invites (`crib3.room.invites`)


def default_workers() -> int:
    """`--workers` unless told: one session worker per core this process
    may run on (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def wants_ascii(env: dict[str, str]) -> bool:
    """Plain ASCII (S H D C suits, +-| borders) unless the client's locale
    (sent as LANG or LC_*, as OpenSSH does by default) says UTF-8; the same
    rule as at the command line, except that a client that sent no locale
    at all told us nothing, and today's terminals speak UTF-8."""
    from crib3.common.terminal import speaks_utf8

    return not speaks_utf8(env, unset=True)


class PlaySession(asyncssh.SSHServerSession):  # type: ignore[misc]
    """One SSH session: one person's crib3 app."""

    def __init__(self, service: CardRoom, username: str, key: str | None,
                 admin: bool = False, address: str | None = None) -> None:
        self.service = service
        self.username = username
        self.key = key
        self.admin = admin
        self.address = address  # the client's, for the room's limits under --open
        self.chan: Any = None
        self.term: str | None = None
        self.size = DEFAULT_SIZE
        self.driver: ChannelDriver | None = None
        self.app: Any = None
        self.task: asyncio.Task[None] | None = None
        self._early: list[bytes] = []
        self.ended = False  # kicked, or the client left: no app (or no more of it)
        self.presence: Presence | None = None
        self.farewell: str | None = None  # said as the session ends

    # --- what asyncssh asks -------------------------------------------------------

    def connection_made(self, chan: Any) -> None:
        self.chan = chan
        # A client that stops reading makes the channel call pause_writing
        # past this mark: the driver then skips frames instead of keeping them.
        chan.set_write_buffer_limits(high=OUTPUT_HIGH_WATER, low=OUTPUT_LOW_WATER)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        self.term = term_type
        self.size = _sane_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._run())

    def data_received(self, data: bytes, datatype: Any) -> None:
        if self.driver is not None:
            try:
                self.driver.feed(data)
            except Exception as exc:  # garbage from a client must not stop its app
                crash.report(log, exc, f"input from {self.username}")
        elif not self.ended and sum(map(len, self._early)) < 4096:
            self._early.append(data)  # typed before the app is up (a little of it)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self.size = _sane_size(width, height)
        if self.driver is not None:
            self.driver.resize_soon(*self.size)

    def pause_writing(self) -> None:
        if self.driver is not None:
            self.driver.output_paused()

    def resume_writing(self) -> None:
        if self.driver is not None:
            self.driver.output_resumed()

    def eof_received(self) -> bool:
        self._end()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._end(hang_up=True)

    # --- the app ---------------------------------------------------------------------

    def _end(self, hang_up: bool = False) -> None:
        """End this session's app: at once, even if it is still starting.
        With `hang_up` the connection is gone, so what it sent and has
        not been handled yet is thrown away and nothing more is written."""
        self.ended = True
        self._early.clear()
        if self.driver is not None:
            if hang_up:
                self.driver.hang_up()
            else:
                self.driver.end_app()

    def _kick(self, reason: str) -> None:
        self.farewell = reason
        self._end()

    def close_room(self) -> None:
        """The server is stopping: end this session's app (which puts the
        client's terminal back as it was), then say why in one line."""
        table = getattr(self.app, "table", None)  # (a table that never started is not kept)
        if self.app is None and self.presence is not None:  # its app runs in a worker
            table = self.service.table_of(self.presence)
        playing = table is not None and table.started and not table.over
        self._kick("the card room is closing; your table is saved" if playing else
                   "the card room is closing")

    async def _run(self) -> None:
        chan = self.chan
        if self.term is None:
            _say_and_close(chan, "crib3 needs a terminal: connect with ssh -t")
            return
        if self.term.lower() in ("", "dumb"):
            said = "TERM is dumb" if self.term else "TERM is not set"
            chan.write(f"crib3 needs a full-screen terminal ({said})\r\n".encode())
            chan.exit(1)
            return
        room = self.service.room
        try:
            presence = room.sign_in(self.username, self.key, self._kick, self.address)
            presence.admin = self.admin
        except RoomError as exc:  # one line to them, one to the log, no traceback
            log.info("%r refused: %s", self.username, exc)
            _say_and_close(chan, f"crib3: {exc}")
            return
        env = dict(chan.get_environment())
        self.presence = presence
        if self.service.pool is not None:
            await self._run_in_worker(presence, env)
            return
        app = self.service.make_app(room, presence, ascii=wants_ascii(env),
                                    think=self.service.options.think)
        client_console(app, self.term, env)
        self.app = app
        make_driver = ChannelDriver.for_channel(chan)

        def driver_class(app_: Any, **kwargs: Any) -> ChannelDriver:
            self.driver = make_driver(app_, **kwargs)
            for data in self._early:
                self.driver.feed(data)
            self._early.clear()
            if self.ended:  # kicked or gone while the app was being made
                self.driver.end_app()
            return self.driver

        app.driver_class = driver_class
        self.service.sessions.add(self)
        try:
            if self.ended:  # gone (or kicked) before its app was made
                return
            await app.run_async(size=self.size)
            failure = getattr(app, "crash", None)
            if failure is not None:
                raise failure
        except Exception as exc:
            crash.report(log, exc, f"the session of {self.username}")
            self.farewell = self.farewell or FAILED
        finally:
            self._close(presence)

    def _close(self, presence: Presence) -> None:
        """The session is over: the room lets the person go, and the
        client reads the farewell, if any, before the channel closes."""
        self.service.sessions.discard(self)
        self.service.room.depart(presence)
        with contextlib.suppress(Exception):
            if self.farewell:
                self.chan.write(f"crib3: {self.farewell}\r\n".encode())
            self.chan.exit(0)

    async def _run_in_worker(self, presence: Presence, env: dict[str, str]) -> None:
        """The session's app runs in a worker process (`--workers` above
        1): this session relays its terminal (`RemoteSession` takes the
        driver's place), then ends as `_run` does."""
        chan, pool = self.chan, self.service.pool
        assert pool is not None
        self.service.sessions.add(self)
        try:
            size = self.size
            remote = await pool.open(chan, presence, ascii=wants_ascii(env),
                                     think=self.service.options.think, term=self.term or "xterm",
                                     env={k: v for k, v in env.items()
                                          if k in ("COLORTERM", "NO_COLOR")},
                                     size=size)
            self.driver = remote  # type: ignore[assignment]
            if self.size != size:  # the window changed while a worker was found
                remote.resize_soon(*self.size)
            for data in self._early:
                remote.feed(data)
            self._early.clear()
            if self.ended:  # kicked or gone while the worker was asked
                remote.end_app()
            failure, lost = await remote.finished
            if lost:
                with contextlib.suppress(Exception):
                    chan.write(STOP.encode())  # the client's terminal, put back
                self.farewell = self.farewell or LOST
            elif failure is not None:
                log.warning("the session of %s failed in its worker: %s", self.username, failure)
                self.farewell = self.farewell or FAILED
        finally:
            self._close(presence)


def _say_and_close(chan: Any, line: str, status: int = 1) -> None:
    """End a session that cannot begin with one line to the client. The
    client may have closed its side already (ssh < /dev/null sends EOF at
    once): then there is nobody to tell, and that is no error to log."""
    try:
        chan.write(f"{line}\r\n".encode())
        chan.exit(status)
    except OSError:
        chan.close()


def _sane_size(width: int, height: int) -> tuple[int, int]:
    """A client may claim any size: none (0) is the default, and beyond
    300×100 the screen is drawn at 300×100 (see `crib3.net.bounds`)."""
    return capped_size(width or DEFAULT_SIZE[0], height or DEFAULT_SIZE[1])


class Doorman(asyncssh.SSHServer):  # type: ignore[misc]
    """Who may come in: one instance per connection."""

    def __init__(self, service: CardRoom) -> None:
        self.service = service
        self.username = ""
        self.key: str | None = None
        self.admin = False  # signed in with a key from --admins
        self.peer = ""
        self.conn: Any = None

    def connection_made(self, conn: Any) -> None:
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.peer = str(peer[0])
        self.conn = conn
        self.service.connections.add(conn)
        log.info("connection from %s", self.peer)

    def connection_lost(self, exc: Exception | None) -> None:
        self.service.connections.discard(self.conn)
        if exc is not None:
            log.info("connection from %s ended: %s", self.peer, exc)

    def begin_auth(self, username: str) -> bool:
        self.username = username
        return not self.service.options.open_door  # False: no authentication needed

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return not self.service.options.open_door

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if self._listed(self.service.options.admins, key):
            self.key, self.admin = key.get_fingerprint(), True
            return True
        if not self._listed(self.service.options.authorized_keys, key):
            return False
        self.key = key.get_fingerprint()
        return True

    def _listed(self, path: Path | None, key: asyncssh.SSHKey) -> bool:
        """`key` is in the keys file at `path`, read now (so a file mended
        or added to needs no restart), and that file is not writable by
        others (StrictModes)."""
        if path is None:
            return False
        loose = keys_file_too_open(path)  # type: ignore[arg-type]
        if loose:
            log.warning("refusing every key: %s", loose)
            return False
        try:
            allowed = asyncssh.read_authorized_keys(str(path))
        except (OSError, ValueError) as exc:
            log.warning("cannot read %s: %s", path, exc)
            return False
        return allowed.validate(key, self.peer, self.peer) is not None

    def session_requested(self) -> PlaySession:
        return PlaySession(self.service, self.username, self.key, self.admin, self.peer)

    def connection_requested(self, *args: Any) -> bool:
        return False  # no port forwarding

    def server_requested(self, *args: Any) -> bool:
        return False  # no remote port forwarding


class CardRoom:
    """The server: its options, its room, its listener, and how it makes
    each session's app."""

    def __init__(self, options: ServeOptions, room: Room, make_app: AppFactory) -> None:
        self.options = options
        self.room = room
        self.make_app = make_app
        self.server: Any = None
        self.sessions: set[PlaySession] = set()  # those running an app now
        self.connections: set[Any] = set()  # every SSH connection open now
        self.pool: WorkerPool | None = None  # the session workers, with --workers above 1

    def table_of(self, presence: Presence) -> Any:
        """The table `presence` sits at or watches, if any (what its app
        would call its table)."""
        place = self.room.place_of(presence)
        if place is not None:
            return place[0]
        return next((t for t in self.room.tables.values() if presence in t.watchers), None)

    async def start(self, host_key: asyncssh.SSHKey) -> None:
        many_terminals_in_one_process()
        if self.options.workers > 1:
            factory = f"{self.make_app.__module__}:{self.make_app.__qualname__}"
            host = RoomHost(self.room, lambda worker, message: worker.send(message))
            self.pool = WorkerPool(self.options.workers, host, factory)
            await self.pool.start()
        try:
            self.server = await asyncssh.create_server(
                lambda: Doorman(self), self.options.host, self.options.port,
                server_host_keys=[host_key], encoding=None, line_editor=False,
                agent_forwarding=False, x11_forwarding=False, allow_scp=False,
                sftp_factory=None, keepalive_interval=30, keepalive_count_max=4,
                login_timeout=60)
        except OSError:
            if self.pool is not None:
                await self.pool.stop()
            raise

    @property
    def port(self) -> int:
        return int(self.server.sockets[0].getsockname()[1])

    async def stop(self, grace: float = 5.0) -> None:
        """Stop: take no more connections, end every session's app with a
        farewell (its terminal put back, then one line: the room is closing),
        close the connections once that is sent, and close the room (every
        table is on disk already). `grace` bounds the wait for sessions that
        do not end (a client that stopped reading, say)."""
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
        sessions = list(self.sessions)
        for session in sessions:
            session.close_room()
        tasks = [s.task for s in sessions if s.task is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=grace)
        # What a session wrote last may still wait for the client's window
        # (OpenSSH's is small): its channel closes once it is all sent.
        closing = [asyncio.ensure_future(s.chan.wait_closed()) for s in sessions
                   if s.chan is not None]
        if closing:
            await asyncio.wait(closing, timeout=grace)
        if self.pool is not None:
            await self.pool.stop(grace)
        for conn in list(self.connections):
            conn.close()
        waits = [asyncio.ensure_future(conn.wait_closed()) for conn in list(self.connections)]
        if waits:
            await asyncio.wait(waits, timeout=grace)
        self.room.close()


async def serve(options: ServeOptions, room: Room, host_key: asyncssh.SSHKey,
                make_app: AppFactory, say: Callable[[str], None]) -> None:
    """`crib3 serve` from its checked arguments to Ctrl-C: pick up the
    room's games, listen, tell the person at the server's console what is
    going on (`say`, one line at a time), and on SIGINT or SIGTERM stop with
    every table saved. CannotServe when it cannot listen."""
    for problem in room.restore():
        say(f"warning: a table could not be resumed: {problem}")
    card_room = CardRoom(options, room, make_app)
    stop = asyncio.Event()  # set by Ctrl-C (or a service manager's SIGTERM)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        # (It returns once every session worker has warmed up: "listening"
        # below says the server is ready, what the load benchmark weighs idle.)
        await card_room.start(host_key)
    except OSError as exc:
        room.close()
        raise CannotServe(f"cannot listen on {options.host}:{options.port}: "
                          f"{exc.strerror or exc}") from None
    door = None
    if options.web is not None:
        door = await _open_web_door(card_room, options)
    if options.open_door:
        say(f"warning: --open: anyone who can reach {options.host}:{card_room.port} can "
            "sit down under any name, without a key")
    resumed = len(room.tables)
    say(f"crib3 serve: listening on {options.host}:{card_room.port}"
        + (f", {resumed} table{'s' * (resumed != 1)} resumed" if resumed else "")
        + f"; players connect with: ssh -p {card_room.port} NAME@HOST")
    if card_room.pool is not None:  # (after the line above: scripts wait for it)
        log.info("%s; each warmed up", card_room.pool.describe())
    if door is not None:
        say(f"crib3 serve: the web door is open at {door.url} (crib3 invite NAME makes a link)")
    await stop.wait()
    say("crib3 serve: stopping; every table is saved")
    if door is not None:
        door.stop_listening()
    await card_room.stop()
    if door is not None:
        await door.stop()


async def _open_web_door(card_room: CardRoom, options: ServeOptions) -> Any:
    """The web door (`crib3.net.web`), open, or CannotServe."""
    from crib3.net.web import WebDoor, WebRefused
    from crib3.room.invites import InviteBook

    assert options.web_folder is not None
    door = WebDoor(card_room, options.web, InviteBook(options.web_folder), PlaySession)
    try:
        await door.start()
    except (OSError, WebRefused) as exc:
        await card_room.stop()
        raise CannotServe(f"cannot open the web door on {options.web.host}:{options.web.port}: "
                          f"{getattr(exc, 'strerror', None) or exc}") from None
    return door
