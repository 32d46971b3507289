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
import hashlib
import hmac
import logging
import os
import secrets
import signal
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import asyncssh
from textual.app import App

from crib3.common import crash
from crib3.net.bounds import OUTPUT_HIGH_WATER, OUTPUT_LOW_WATER, capped_size
from crib3.net.console import client_console  # (also here: where it was)
from crib3.net.driver import STOP, ChannelDriver
from crib3.common.names import shown_name
from crib3.net.gate import Gate, Limits, Throttled, raise_open_files
from crib3.net.journey import Journey
from crib3.net.keys import KeysFile, keys_file_too_open  # noqa: F401 (the policy, also imported from here)
from crib3.net.visiting import RelayedSession, VisitChannel
from crib3.net.workers import LOST, WorkerPool
from crib3.room import Presence, Room, RoomError, wire
from crib3.room.seats import FIRST_USE
from crib3.room.contract import RoomView, Wayfinding
from crib3.room.host import RoomHost
from crib3.tui.textual_compat import many_terminals_in_one_process

log = logging.getLogger("crib3.serve")

DEFAULT_SIZE = (80, 24)
FAILED = "something went wrong on the server (it is logged); your table is saved: connect again"


class AppFactory(Protocol):
    """Makes one session's app: `CardRoomApp` fits. The app must have a
    `crash` attribute (why it stopped, if it failed) like crib3's apps."""

    def __call__(self, room: RoomView, presence: Presence, ascii: bool = ...,
                 think: float = ..., journey: Wayfinding | None = ...) -> App[Any]: ...


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
    limits: Limits = field(default_factory=Limits)  # the door's, before sign-in (crib3.net.gate)
    lobby_idle: float = 900.0  # seconds a session may sit idle in the lobby; 0: no limit


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
                 admin: bool = False, address: str | None = None,
                 doorman: Doorman | None = None) -> None:
        self.service = service
        self.doorman = doorman
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
        self.closed = False  # its farewell written and its channel closed
        self.visiting: Any = None  # its app runs on another node now (`_visit`)
        self.journey = Journey()  # its way between the lobby, tables and other nodes

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
        if self.doorman is not None:
            self.doorman.active = time.monotonic()
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
        presence = self.presence
        if presence is None:  # (a visit from another node comes signed in)
            try:
                presence = await room.enter(self.username, self.key, self._kick, self.address,
                                            self.admin, journey=self.journey)
                if self.doorman is not None:
                    presence.code = self.doorman.code  # a new reconnect code: the lobby shows it
            except RoomError as exc:  # one line to them, one to the log, no traceback
                log.info("%r refused: %s", self.username, exc)
                _say_and_close(chan, f"crib3: {exc}")
                return
        env = dict(chan.get_environment())
        self.presence = presence
        if self.service.pool is not None:
            await self._run_in_worker(presence, env)
            return
        self.service.sessions.add(self)
        try:
            # A cluster's node (crib3 serve --cluster) runs a table's sessions
            # where the table is hosted: at another node's table, this
            # session visits it (`_visit`), and comes back here after.
            going = self._seat_elsewhere(presence)
            while not self.ended:
                if going is not None:
                    going, go_on = await self._visit(presence, env, *going)
                    if not go_on:
                        break
                    continue  # (on to the next table elsewhere, or an app here)
                if not await self._run_app(presence, env):
                    break
                going, self.journey.go_to = self.journey.go_to, None
                if going is None or not self.may_visit:
                    break
        finally:
            self._close(presence)

    may_visit = True  # (a visitor's own session goes back to its door to go elsewhere)

    def _ascii(self, env: dict[str, str]) -> bool:
        return wants_ascii(env)

    async def _run_app(self, presence: Presence, env: dict[str, str]) -> bool:
        """One app for this session, here, until it ends; False if it failed."""
        room = self.service.room
        app = self.service.make_app(room, presence, ascii=self._ascii(env),
                                    think=self.service.options.think, journey=self.journey)
        client_console(app, self.term or "xterm", env)
        self.app = app
        make_driver = ChannelDriver.for_channel(self.chan)

        def driver_class(app_: Any, **kwargs: Any) -> ChannelDriver:
            self.driver = make_driver(app_, **kwargs)
            for data in self._early:
                self.driver.feed(data)
            self._early.clear()
            if self.ended:  # kicked or gone while the app was being made
                self.driver.end_app()
            return self.driver

        app.driver_class = driver_class
        try:
            if self.ended:  # gone (or kicked) before its app was made
                return True
            await app.run_async(size=self.size)
            failure = getattr(app, "crash", None)
            if failure is not None:
                raise failure
        except Exception as exc:
            crash.report(log, exc, f"the session of {self.username}")
            self.farewell = self.farewell or FAILED
            return False
        finally:
            self.driver = None
        return True

    def _hand_over(self, stand_in: Any, size: tuple[int, int]) -> None:
        """`stand_in` (a worker's session, or a visit) takes the driver's
        place, told what happened while it was asked for: the window
        changed from `size`, keys typed, the session ended."""
        self.driver = stand_in
        if self.size != size:
            stand_in.resize_soon(*self.size)
        for data in self._early:
            stand_in.feed(data)
        self._early.clear()
        if self.ended:
            stand_in.end_app()

    def _seat_elsewhere(self, presence: Presence) -> tuple[int, bool] | None:
        """A seat of this person's at a table another node of the cluster
        hosts (they come back to it there), or None."""
        cluster = self.service.room.cluster
        if cluster is None or not self.may_visit:
            return None
        number = cluster.seat_elsewhere(presence)
        return None if number is None else (number, False)

    async def _visit(self, presence: Presence, env: dict[str, str], number: int,
                     watch: bool) -> tuple[tuple[int, bool] | None, bool]:
        """This session visits table `number`'s node (`crib3.net.visiting`)
        until the visit ends: where it goes next (another node's table, or
        None: an app here), and whether the session goes on at all."""
        cluster = self.service.room.cluster
        assert cluster is not None  # (only a cluster's node has tables elsewhere)
        size = self.size
        try:
            link = await cluster.visit_elsewhere(
                presence, number, watch, ascii=self._ascii(env),
                think=self.service.options.think, term=self.term or "xterm",
                env=_colours(env), size=self.size)
        except RoomError as exc:  # that node cannot take them: said in the lobby here
            self.journey.notice = str(exc)
            return None, True
        if link is None:  # the table is hosted here (now): an app here sits them at it
            self.journey.joining = (number, watch)
            return None, True
        relayed = RelayedSession(link, self.chan)
        log.info("%s visits node %s for table %d", self.username, link.peer, number)
        self.visiting = relayed
        try:
            self._hand_over(relayed, size)
            ended = await relayed.finished
        finally:
            self.driver = None
            self.visiting = None
        if ended is None or ended.moved:  # that node stopped: back here, and back to the seat
            if self.ended:
                return None, False
            self.journey.notice = (
                f"The server of table {number} stopped. Another server takes the table over "
                f"in a few seconds, and you are taken back to your seat.")
            self.journey.rejoin = (number, relayed.link.peer)
            return None, True
        if ended.farewell:
            self.farewell = self.farewell or ended.farewell
            return None, False
        if ended.table is not None and not self.ended:
            return (ended.table, ended.watch), True
        return None, False  # they quit there (or left here meanwhile)

    def _close(self, presence: Presence) -> None:
        """The session is over: the room lets the person go, and the
        client reads the farewell, if any, before the channel closes."""
        self.service.sessions.discard(self)
        self.service.room.depart(presence)
        with contextlib.suppress(Exception):
            if self.farewell:
                self.chan.write(f"crib3: {self.farewell}\r\n".encode())
            self.chan.exit(0)
        self.closed = True

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
                                     env=_colours(env),
                                     size=size)
            self._hand_over(remote, size)
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


class VisitSession(PlaySession):
    """A visitor's session (`crib3 serve --cluster`): a person connected to
    another node (their door) whose table this node hosts. The door relays
    their terminal (`crib3.net.visiting`); here it is a session like any
    other, signed in here only (the door holds their name in the cluster).
    How it ends goes back to the door: a farewell, a table elsewhere to go
    on to, or that this node is stopping (the table goes to another node)."""

    may_visit = False

    def __init__(self, service: CardRoom, visit: Any, link: Any) -> None:
        super().__init__(service, visit.name, visit.key, visit.admin, visit.address)
        self.visit = visit
        self.link = link
        self.moved = False
        chan = VisitChannel(link, dict(visit.env))
        self.connection_made(chan)
        self.term = visit.term
        self.size = _sane_size(*visit.size)

    def begin(self) -> None:
        """Sign the visitor in here (RoomError: why not), then start their
        app, sitting at (or watching) the table they came for."""
        cluster = self.service.room.cluster
        assert cluster is not None  # (only a cluster's node admits visits)
        presence = cluster.visit_in(self.username, self.key, self._kick, self.address,
                                    self.admin, journey=self.journey)
        self.journey.joining = (self.visit.table, self.visit.watch)
        self.presence = presence
        self.chan.attach(self)
        self.session_started()

    def _ascii(self, env: dict[str, str]) -> bool:
        return bool(self.visit.ascii)

    def close_room(self) -> None:
        """This node stops: the visitor goes back to their door, and on to
        their table once another node has adopted it."""
        self.moved = True
        self._end()

    def _close(self, presence: Presence) -> None:
        self.service.sessions.discard(self)
        self.service.room.depart(presence)
        go_to = self.journey.go_to
        if self.moved:
            ended = wire.VisitEnded(moved=True)
        elif self.farewell:
            ended = wire.VisitEnded(farewell=self.farewell)
        elif go_to is not None:
            ended = wire.VisitEnded(table=go_to[0], watch=go_to[1])
        else:
            ended = wire.VisitEnded()
        self.link.send(ended)
        self.link.close()
        self.closed = True


def _colours(env: dict[str, str]) -> dict[str, str]:
    """What of the client's environment an app made elsewhere (a worker, or
    another node) needs besides its terminal type: how it takes colour."""
    return {k: v for k, v in env.items() if k in ("COLORTERM", "NO_COLOR")}


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


class Arrival:
    """A connection accepted and not yet signed in: what the `Gate` counts,
    and what it may close to make way for another."""

    def __init__(self, sock: socket.socket, address: str) -> None:
        self.sock = sock
        self.address = address
        self.doorman: Doorman | None = None

    def close(self) -> None:
        if self.doorman is not None and self.doorman.conn is not None:
            self.doorman.conn.abort()
        else:
            with contextlib.suppress(OSError):
                self.sock.close()


class Doorman(asyncssh.SSHServer):  # type: ignore[misc]
    """Who may come in: one instance per connection.

    With keys (not `--open`) a name is anyone's whose key is listed. Under
    `--open` anyone may come in, but a name is held, for the room's life,
    by the first key it signs in with (trust on first use; the key is
    listed nowhere), or, for a client that offers no key, by a reconnect
    code it is shown in the lobby and asked for (keyboard-interactive) when
    it comes back: nobody takes a seat by typing a name.

    Each connection may fail `auth_tries` times, and each address
    `failures_per_minute` times a minute (`crib3.net.gate`)."""

    def __init__(self, service: CardRoom) -> None:
        self.service = service
        self.username = ""
        self.key: str | None = None
        self.admin = False  # signed in with a key from --admins
        self.peer = ""
        self.conn: Any = None
        self.arrival: Arrival | None = None
        self.tries = 0  # keys and codes that failed
        self.code: str | None = None  # a new reconnect code: shown to this person
        self.signed_in = False
        self.active = time.monotonic()  # the last key typed (or the sign-in)
        self.sessions: list[PlaySession] = []

    def connection_made(self, conn: Any) -> None:
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.peer = str(peer[0])
        self.conn = conn
        self.service.connections.add(conn)
        self.service.doormen[conn] = self
        self.arrival = self.service.arrivals.pop(tuple(peer[:2]), None)
        if self.arrival is not None:
            self.arrival.doorman = self
        log.info("connection from %s", self.peer)

    def connection_lost(self, exc: Exception | None) -> None:
        self.service.connections.discard(self.conn)
        self.service.doormen.pop(self.conn, None)
        self._done_waiting()
        if exc is not None:
            log.info("connection from %s ended: %s", self.peer, exc)

    def _done_waiting(self) -> None:
        if self.arrival is not None:
            self.service.gate.done(self.arrival)
            self.arrival = None

    def auth_completed(self) -> None:
        self.signed_in = True
        self.active = time.monotonic()
        self._done_waiting()

    def begin_auth(self, username: str) -> bool:
        self.username = username
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.service.options.open_door

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if not self._may_try():
            return False
        options = self.service.options
        fingerprint = key.get_fingerprint()
        if options.open_door:
            held = self.service.room.held_by(username)
            proof = FIRST_USE + fingerprint
            if held is None or held == proof:
                self.key = proof
                return True
            return self._failed(f"{username} is held by another key or a reconnect code")
        if await self._listed(self.service.admin_keys, key):
            self.key, self.admin = fingerprint, True
            return True
        if not await self._listed(self.service.authorized, key):
            return self._failed("")
        self.key = fingerprint
        return True

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> Any:
        """Under `--open`, for a client with no key (or none it may use):
        a free name is given a new reconnect code at once; one held by a
        code asks for it; one held by a key is refused."""
        if not self._may_try():
            return False
        held = self.service.room.held_by(username)
        if held is None:
            self.code = new_code()
            self.key = FIRST_USE + code_proof(self.code)
            return True
        if held.startswith(FIRST_USE + CODE):
            return ("crib3", f"{shown_name(username)} is held here by a reconnect code "
                    "(shown in the lobby when it was given).", "",
                    [(f"reconnect code for {shown_name(username)}: ", True)])
        return self._failed(f"{username} is held here by another key")

    def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        held = self.service.room.held_by(username)
        if held is not None and len(responses) == 1 and len(responses[0]) <= 64:
            proof = FIRST_USE + code_proof(responses[0].strip().lower())
            if hmac.compare_digest(proof, held):
                self.key = proof
                return True
        return self._failed("")

    def _may_try(self) -> bool:
        """The connection (and its address) may try a key or a code."""
        gate = self.service.gate
        if self.tries >= gate.limits.auth_tries or gate.penalised(self.peer):
            self._shut("too many tries")
            return False
        self.service.tries += 1
        return True

    def _failed(self, why: str) -> bool:
        """A key or a code that failed: counted for the connection and the
        address, and the connection is closed once either has run out."""
        self.tries += 1
        gate = self.service.gate
        may_go_on = gate.failed(self.peer) and self.tries < gate.limits.auth_tries
        if why and self.tries == 1:
            with contextlib.suppress(Exception):
                self.conn.send_auth_banner(f"crib3: {why}\r\n")
        if not may_go_on:
            self._shut("too many tries")
        return False

    def _shut(self, why: str) -> None:
        log.info("%s (%r): %s", self.peer, self.username[:40], why)
        with contextlib.suppress(Exception):
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, why)

    async def _listed(self, keys: KeysFile | None, key: asyncssh.SSHKey) -> bool:
        """`key` is in the keys file, as it is now (so a file mended or
        added to needs no restart), and that file is not writable by others
        (StrictModes)."""
        if keys is None:
            return False
        allowed, problem = await keys.keys()
        if allowed is None:
            self.service.key_trouble(problem or f"cannot read {keys.path}")
            return False
        return allowed.validate(key, self.peer, self.peer) is not None  # type: ignore[attr-defined]

    def session_requested(self) -> PlaySession:
        session = PlaySession(self.service, self.username, self.key, self.admin, self.peer,
                              doorman=self)
        self.sessions.append(session)
        return session

    def connection_requested(self, *args: Any) -> bool:
        return False  # no port forwarding

    def server_requested(self, *args: Any) -> bool:
        return False  # no remote port forwarding


CODE = "code "  # a reconnect code's proof, after FIRST_USE: its hash
CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a screen


def new_code() -> str:
    """A reconnect code: eight letters and digits in two fours (about 40
    bits: with a few tries a connection and a minute an address, never
    guessed)."""
    letters = "".join(secrets.choice(CODE_LETTERS) for _ in range(8))
    return f"{letters[:4]}-{letters[4:]}"


def code_proof(code: str) -> str:
    """What the room keeps of a code (it is on disk with the seats): its hash."""
    return CODE + hashlib.sha256(code.encode("utf-8", "replace")).hexdigest()


class CardRoom:
    """The server: its options, its room, its door (a listening socket of
    its own, so that connections are counted and turned away before any SSH
    is spoken, and running out of open files is handled here: see
    `crib3.net.gate`), and how it makes each session's app."""

    def __init__(self, options: ServeOptions, room: Room, make_app: AppFactory) -> None:
        self.options = options
        self.room = room
        self.make_app = make_app
        self.listener: socket.socket | None = None
        self.sessions: set[PlaySession] = set()  # those running an app now
        self.connections: set[Any] = set()  # every SSH connection open now
        self.doormen: dict[Any, Doorman] = {}  # each connection's
        self.arrivals: dict[tuple[Any, ...], Arrival] = {}  # accepted, SSH not begun
        self.pool: WorkerPool | None = None  # the session workers, with --workers above 1
        self.gate = Gate(options.limits)
        self.authorized = KeysFile(options.authorized_keys) if options.authorized_keys else None
        self.admin_keys = KeysFile(options.admins) if options.admins else None
        self.key_trouble = Throttled(log.warning)
        self.out_of_files = Throttled(log.warning)
        self._ssh_options: Any = None
        self._starting: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self.tries = 0  # keys and codes looked at (for the log and the tests)

    def _admit_visit(self, visit: Any, link: Any) -> None:
        """A person connected to another node comes to a table hosted here
        (`VisitSession`); RoomError when they may not."""
        VisitSession(self, visit, link).begin()

    def table_of(self, presence: Presence) -> Any:
        """The table `presence` sits at or watches, if any (what its app
        would call its table)."""
        place = self.room.place_of(presence)
        if place is not None:
            return place[0]
        return next((t for t in self.room.tables.values() if presence in t.watchers), None)

    async def start(self, host_key: asyncssh.SSHKey) -> None:
        many_terminals_in_one_process()
        if self.room.cluster is not None:  # a cluster's node: people of other nodes visit its tables
            self.room.cluster.admit_visits(self._admit_visit)
        if self.options.workers > 1:
            factory = f"{self.make_app.__module__}:{self.make_app.__qualname__}"
            host = RoomHost(self.room, lambda worker, message: worker.send(message))
            self.pool = WorkerPool(self.options.workers, host, factory)
            await self.pool.start()
        try:
            self._ssh_options = await asyncssh.SSHServerConnectionOptions.construct(
                server_factory=lambda: Doorman(self),
                server_host_keys=[host_key], encoding=None, line_editor=False,
                agent_forwarding=False, x11_forwarding=False, allow_scp=False,
                sftp_factory=None, keepalive_interval=30, keepalive_count_max=4,
                login_timeout=self.options.limits.login_grace)
            family = socket.AF_INET6 if ":" in self.options.host else socket.AF_INET
            self.listener = socket.create_server((self.options.host, self.options.port),
                                                 family=family, backlog=128)
        except OSError:
            if self.pool is not None:
                await self.pool.stop()
            raise
        self.listener.setblocking(False)
        self._listen()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    def _listen(self) -> None:
        if self.listener is not None and self.listener.fileno() >= 0:
            asyncio.get_running_loop().add_reader(self.listener.fileno(), self._accept)

    def _accept(self) -> None:
        """Take what is waiting at the door (a bounded number at a time, so
        the players' keys are not kept waiting). Out of open files, stop
        taking any for a moment, make way by closing the oldest connection
        not yet signed in of the busiest address, and say so once a minute
        at most (asyncio's own accept loop would log it, with a traceback,
        many times a second)."""
        assert self.listener is not None
        loop = asyncio.get_running_loop()
        for _ in range(64):
            try:
                sock, peer = self.listener.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as exc:
                loop.remove_reader(self.listener.fileno())
                victim = self.gate.make_way()
                if victim is not None:
                    victim.close()
                self.out_of_files(f"cannot take connections for a moment: {exc.strerror or exc} "
                                  f"({len(self.gate.pending)} not signed in, "
                                  f"{len(self.sessions)} sessions)")
                loop.call_later(0.2 if victim is not None else 1.0, self._listen)
                return
            self._arrive(sock, peer)

    def _arrive(self, sock: socket.socket, peer: Any) -> None:
        address = str(peer[0]) if isinstance(peer, tuple) else str(peer)
        admitted, victim = self.gate.admit(address)
        if not admitted:
            with contextlib.suppress(OSError):
                sock.close()
            return
        if victim is not None:
            victim.close()
        sock.setblocking(False)
        arrival = Arrival(sock, address)
        self.gate.arrived(arrival, address)
        self.arrivals[tuple(peer[:2])] = arrival
        loop = asyncio.get_running_loop()
        options = self._ssh_options

        async def begin() -> None:
            try:
                await loop.connect_accepted_socket(
                    lambda: asyncssh.SSHServerConnection(loop, options), sock)
            except OSError:
                self.arrivals.pop(tuple(peer[:2]), None)
                self.gate.done(arrival)
                with contextlib.suppress(OSError):
                    sock.close()

        task = loop.create_task(begin())
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    async def _sweep(self) -> None:
        """Close what waits for nothing: a session idle in the lobby (no
        key typed for `lobby_idle` seconds, not seated, not watching), or a
        signed-in connection that never opened one. A seated player's
        session stays: their seat waits for them as it always did."""
        idle = self.options.lobby_idle
        if not idle:
            return
        while True:
            await asyncio.sleep(min(5.0, idle / 4))
            now = time.monotonic()
            for doorman in list(self.doormen.values()):
                if not doorman.signed_in or now - doorman.active < idle:
                    continue
                live = [s for s in doorman.sessions if not s.ended]
                if any(s.presence is not None and (s.visiting is not None
                                                   or self.table_of(s.presence) is not None)
                       for s in live):  # (a visitor: at another node's table, or its lobby)
                    continue
                if any(s.ended and not s.closed and s.task is not None and not s.task.done()
                       for s in doorman.sessions):
                    continue  # still saying goodbye (an app ends slowly on a busy machine)
                if not live:
                    log.info("%s (%r): signed in, no session: closed", doorman.peer,
                             doorman.username[:40])
                    doorman.conn.close()
                    continue
                for session in live:
                    session._kick(f"idle in the lobby for {idle:g} seconds: connect again "
                                  "to come back")

    @property
    def port(self) -> int:
        assert self.listener is not None
        return int(self.listener.getsockname()[1])

    async def stop(self, grace: float = 5.0) -> None:
        """Stop: take no more connections, end every session's app with a
        farewell (its terminal put back, then one line: the room is closing),
        close the connections once that is sent, and close the room (every
        table is on disk already). `grace` bounds the wait for sessions that
        do not end (a client that stopped reading, say)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self.listener is not None and self.listener.fileno() >= 0:
            asyncio.get_running_loop().remove_reader(self.listener.fileno())
            self.listener.close()
        for arrival in list(self.arrivals.values()):
            arrival.close()
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
    raise_open_files()  # the most this process may have: a flood meets the highest limit
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
            "come in, without a listed key (a name is held by the first key or reconnect "
            "code it signs in with)")
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
