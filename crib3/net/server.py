"""`crib3 serve`'s SSH door, on asyncssh.

Who may come in (`Doorman`: keys, reconnect codes, the limits on tries),
the accept loop in front of asyncssh (`CardRoomServer`: a listening socket
of its own, counted by `crib3.net.gate` before any SSH is spoken), and the
adapter that turns asyncssh's session callbacks into a transport-neutral
`crib3.net.session.PlaySession` (`SSHSession`). The only thing a session
can do is play: there is no shell, no command execution, no subsystem (so
no SFTP or scp), no port, agent or X11 forwarding.

People are known by the name they connect as (`ssh -p 2222 NAME@host`) and,
unless the server runs `--open`, by the public key they authenticate with:
it must be in the authorized-keys file, which is read again for every
connection, so adding a friend's key needs no restart.

The server also holds what its doors share (the room, the app factory
`crib3 serve` hands in, the session workers, the sessions running now):
the web door (`crib3.net.web`) and visits from other nodes
(`crib3.net.visit_session`) hand their sessions to it. No screen is
imported here. `crib3.net.serving` is the whole life of `crib3 serve`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import socket
import time
from collections.abc import Hashable, Mapping
from typing import Any

import asyncssh

from crib3.common.names import shown_name
from crib3.net.gate import Gate, Throttled
from crib3.net.keys import KeysFile
from crib3.net.options import AppFactory, ServeOptions
from crib3.net.session import Identity, PlaySession
from crib3.net.visit_session import admit_visit
from crib3.net.visiting import Link
from crib3.net.workers import Worker, WorkerPool
from crib3.room import Presence, Room, Table, wire
from crib3.room.host import RoomHost
from crib3.room.seats import FIRST_USE
from crib3.tui.textual_compat import many_terminals_in_one_process

log = logging.getLogger("crib3.serve")


class SSHSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session: asyncssh's callbacks, told to its `PlaySession` in
    the session's own words. The SSH door's adapter, and the only place
    these callbacks are written (`tests/test_doors.py`)."""

    def __init__(self, session: PlaySession, doorman: Doorman) -> None:
        self.session = session
        self.doorman = doorman

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.session.attach(chan)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:
        self.session.set_terminal(term_type, term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        self.session.start()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.doorman.active = time.monotonic()
        self.session.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self.session.resize(width, height)

    def pause_writing(self) -> None:
        self.session.output_paused()

    def resume_writing(self) -> None:
        self.session.output_resumed()

    def eof_received(self) -> bool:
        self.session.end()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.session.hang_up()


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


class Doorman(asyncssh.SSHServer):
    """Who may come in: one instance per connection.

    With keys (not `--open`) a name is anyone's whose key is listed. Under
    `--open` anyone may come in, but a name is held, for the room's life,
    by the first key it signs in with (trust on first use; the key is
    listed nowhere), or, for a client that offers no key, by a reconnect
    code it is shown in the lobby and asked for (keyboard-interactive) when
    it comes back: nobody takes a seat by typing a name.

    Each connection may fail `auth_tries` times, and each address
    `failures_per_minute` times a minute (`crib3.net.gate`)."""

    def __init__(self, service: CardRoomServer) -> None:
        self.service = service
        self.username = ""
        self.key: str | None = None
        self.admin = False  # signed in with a key from --admins
        self.peer = ""
        self.conn: asyncssh.SSHServerConnection | None = None
        self.arrival: Arrival | None = None
        self.tries = 0  # keys and codes that failed
        self.code: str | None = None  # a new reconnect code: shown to this person
        self.signed_in = False
        self.active = time.monotonic()  # the last key typed (or the sign-in)
        self.sessions: list[PlaySession] = []

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
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
        if self.conn is not None:
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
        if why and self.tries == 1 and self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.send_auth_banner(f"crib3: {why}\r\n")
        if not may_go_on:
            self._shut("too many tries")
        return False

    def _shut(self, why: str) -> None:
        log.info("%s (%r): %s", self.peer, self.username[:40], why)
        if self.conn is None:
            return
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
        return allowed.validate(key, self.peer, self.peer) is not None

    def session_requested(self) -> SSHSession:
        identity = Identity(self.username, self.key, self.admin, self.peer, code=self.code)
        session = PlaySession(self.service, identity)
        self.sessions.append(session)
        return SSHSession(session, self)

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


class CardRoomServer:
    """The server: its options, its room, how it makes each session's app,
    its session workers, the sessions running now (whatever their door),
    and its SSH door (a listening socket of its own, so that connections
    are counted and turned away before any SSH is spoken, and running out
    of open files is handled here: see `crib3.net.gate`). It is what a
    `crib3.net.session.Service` asks for."""

    def __init__(self, options: ServeOptions, room: Room, make_app: AppFactory) -> None:
        self.options = options
        self.room = room
        self.make_app = make_app
        self.listener: socket.socket | None = None
        self.sessions: set[PlaySession] = set()  # those running an app now
        self.connections: set[asyncssh.SSHServerConnection] = set()  # every SSH connection open now
        self.doormen: dict[asyncssh.SSHServerConnection, Doorman] = {}  # each connection's
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

    def _admit_visit(self, visit: wire.Visit, link: Link) -> None:
        """A person connected to another node comes to a table hosted here
        (`crib3.net.visit_session`); RoomError when they may not."""
        admit_visit(self, visit, link)

    def table_of(self, presence: Presence) -> Table | None:
        """The table `presence` sits at or watches, if any (what its app
        would call its table)."""
        place = self.room.place_of(presence)
        if place is not None:
            return place[0]
        return next((t for t in self.room.tables.values() if presence in t.watchers), None)

    async def start(self, host_key: asyncssh.SSHKey) -> None:
        many_terminals_in_one_process()
        admit_visits = getattr(self.room, "admit_visits", None)
        if admit_visits is not None:  # a cluster's node: people of other nodes visit its tables
            admit_visits(self._admit_visit)
        if self.options.workers > 1:
            factory = f"{self.make_app.__module__}:{self.make_app.__qualname__}"
            host = RoomHost(self.room, _send_to_worker)
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
                    if doorman.conn is not None:
                        doorman.conn.close()
                    continue
                for session in live:
                    session.kick(f"idle in the lobby for {idle:g} seconds: connect again "
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


def _send_to_worker(worker: Hashable, message: object) -> None:
    """How the room's host reaches a session worker (a `Worker`)."""
    assert isinstance(worker, Worker)
    worker.send(message)
