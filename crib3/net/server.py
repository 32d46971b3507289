"""`crib3 serve`'s SSH server, on asyncssh.

`CardRoomServer` is the accept loop in front of asyncssh (a listening
socket of its own, so that connections are counted and turned away by
`crib3.net.gate` before any SSH is spoken), the sweep of idle sessions,
and the start and stop of everything its doors share: the room, the app
factory `crib3 serve` hands in (no screen is imported here), the session
workers and the sessions running now. Who may come in, and the adapter
of asyncssh's callbacks, are `crib3.net.doorman`; the web door
(`crib3.net.web`) and visits from other nodes (`crib3.net.visit_session`)
hand their sessions to this server too. The only thing a session can do
is play: there is no shell, no command execution, no subsystem (so no
SFTP or scp), no port, agent or X11 forwarding. `crib3.net.serving` is
the whole life of `crib3 serve`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Hashable
from typing import Any

import asyncssh

from crib3.net.doorman import Arrival, Doorman
from crib3.net.gate import Gate, Throttled
from crib3.net.keys import KeysFile
from crib3.net.options import AppFactory, ServeOptions
from crib3.net.session import PlaySession
from crib3.net.visit_session import admit_visit
from crib3.net.visiting import Link
from crib3.net.workers import Worker, WorkerPool
from crib3.room import Presence, Room, Table, wire
from crib3.room.host import RoomHost
from crib3.tui.textual_compat import many_terminals_in_one_process

log = logging.getLogger("crib3.serve")


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
        if self.room.cluster is not None:  # a cluster's node: others' people visit its tables
            self.room.cluster.admit_visits(self._admit_visit)
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
