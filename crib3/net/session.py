"""One card-room session, whatever door it came in by.

A door (`crib3.net.doorman` for SSH, `crib3.net.web` for a browser,
`crib3.net.visit_session` for a visit from another node of a cluster) only
turns a connection into a `PlaySession`: it hands it the person's
`Identity` and a `Terminal` to write to, and then tells it what the client
does, in the session's own words: bytes in (`feed`), a size (`resize`),
flow (`output_paused`, `output_resumed`), the end of its input (`end`) and
a hang-up (`hang_up`). Everything after that is here, the same for every
door: signing in, the app (here, in a session worker, or at another node's
table), the bounds, kicks, farewells and the close.

No door imitates another's library: asyncssh's callbacks stay in the SSH
door, which adapts them to this interface (a test of the doors holds
that), and this module loads no asyncssh.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from crib3.common import crash
from crib3.net.bounds import OUTPUT_HIGH_WATER, OUTPUT_LOW_WATER, capped_size
from crib3.net.console import client_console
from crib3.net.driver import STOP, ChannelDriver
from crib3.net.journey import Journey
from crib3.net.metrics import SESSIONS, KeyTimer
from crib3.net.visiting import RelayedSession
from crib3.net.workers import LOST, WorkerPool
from crib3.room import Presence, Room, RoomError, Table

if TYPE_CHECKING:
    from textual.app import App

    from crib3.net.options import AppFactory, ServeOptions

log = logging.getLogger("crib3.serve")

DEFAULT_SIZE = (80, 24)
FAILED = "something went wrong on the server (it is logged); your table is saved: connect again"


@dataclass(frozen=True)
class Identity:
    """Who a session is, as its door knows them: the name they came as, the
    key the room knows them by (None: none), where they connect from (the
    room's limits under --open count by address), whether they may close
    and remove tables, and a reconnect code the door just gave them (the
    lobby shows it once)."""

    name: str
    key: str | None
    admin: bool = False
    address: str | None = None
    code: str | None = None


class Terminal(Protocol):
    """What a session needs of its door's connection: bytes out, what the
    client sent as its environment, and the end. An asyncssh channel is
    one as it is; the web door's `WebChannel` and a visit's
    `VisitChannel` are shaped to it."""

    def write(self, data: bytes) -> None:
        """Send (OSError once the client has gone)."""

    def exit(self, status: int) -> None:
        """The session is over: send what is queued, then close."""

    def close(self) -> None: ...

    async def wait_closed(self) -> None: ...

    def get_environment(self) -> Mapping[str, str]: ...

    def get_write_buffer_size(self) -> int: ...

    def set_write_buffer_limits(self, high: int, low: int) -> None:
        """Past `high` unsent bytes the door calls `output_paused`, and
        `output_resumed` below `low`."""


class AppLink(Protocol):
    """Where a session's input goes: its app's `ChannelDriver` here, or a
    stand-in that relays it to where the app runs (a worker's
    `RemoteSession`, a visit's `RelayedSession`)."""

    def feed(self, data: bytes) -> None: ...

    def resize_soon(self, width: int, height: int) -> None: ...

    def output_paused(self) -> None: ...

    def output_resumed(self) -> None: ...

    def end_app(self) -> None: ...

    def hang_up(self) -> None: ...


class Service(Protocol):
    """What a session needs of the server it runs in
    (`crib3.net.server.CardRoomServer`)."""

    options: ServeOptions
    room: Room
    make_app: AppFactory
    pool: WorkerPool | None
    sessions: set[PlaySession]  # those running an app now

    def table_of(self, presence: Presence) -> Table | None: ...


def wants_ascii(env: Mapping[str, str]) -> bool:
    """Plain ASCII (S H D C suits, +-| borders) unless the client's locale
    (sent as LANG or LC_*, as OpenSSH does by default) says UTF-8; the same
    rule as at the command line, except that a client that sent no locale
    at all told us nothing, and today's terminals speak UTF-8."""
    from crib3.common.terminal import speaks_utf8

    return not speaks_utf8(dict(env), unset=True)


class PlaySession:
    """One person's session: their crib3 app, here, in a worker, or at
    another node's table (see the module's docstring)."""

    may_visit = True  # (a visitor's own session goes back to its door to go elsewhere)
    door = "ssh"  # which door it came by, for the room's metrics

    def __init__(self, service: Service, identity: Identity) -> None:
        self.service = service
        self.identity = identity
        self.chan: Terminal | None = None  # the door's connection (`attach`)
        self.term: str | None = None
        self.size = DEFAULT_SIZE
        self.driver: AppLink | None = None
        self.app: App[Any] | None = None
        self.task: asyncio.Task[None] | None = None
        self._early: list[bytes] = []
        self.ended = False  # kicked, or the client left: no app (or no more of it)
        self.presence: Presence | None = None
        self.farewell: str | None = None  # said as the session ends
        self.closed = False  # its farewell written and its channel closed
        self.visiting: RelayedSession | None = None  # its app runs on another node now
        self.journey = Journey()  # its way between the lobby, tables and other nodes
        self.keys = KeyTimer(time.monotonic)  # its key→screen, for the room's metrics

    @property
    def username(self) -> str:
        return self.identity.name

    @property
    def key(self) -> str | None:
        return self.identity.key

    @property
    def admin(self) -> bool:
        return self.identity.admin

    @property
    def address(self) -> str | None:
        return self.identity.address

    # --- what a door tells its session ---------------------------------------------

    def attach(self, terminal: Terminal) -> None:
        """The connection this session writes to."""
        self.chan = TimedTerminal(terminal, self.keys)
        # A client that stops reading makes the door call output_paused
        # past this mark: the driver then skips frames instead of keeping them.
        terminal.set_write_buffer_limits(high=OUTPUT_HIGH_WATER, low=OUTPUT_LOW_WATER)

    def set_terminal(self, term: str, width: int, height: int) -> None:
        """The client's terminal: its type and size. A session never told
        has no terminal: it says so in one line and ends."""
        self.term = term
        self.size = sane_size(width, height)

    def start(self) -> None:
        """Begin: sign in, then the app (until the session ends)."""
        self.task = asyncio.get_running_loop().create_task(self._counted())

    async def _counted(self) -> None:
        SESSIONS.labels(self.door).inc()
        try:
            await self._run()
        finally:
            SESSIONS.labels(self.door).dec()

    def feed(self, data: bytes) -> None:
        """Bytes from the client: keys, mouse, pastes, terminal replies."""
        self.keys.pressed(data)
        if self.driver is not None:
            try:
                self.driver.feed(data)
            except Exception as exc:  # garbage from a client must not stop its app
                crash.report(log, exc, f"input from {self.username}")
        elif not self.ended and sum(map(len, self._early)) < 4096:
            self._early.append(data)  # typed before the app is up (a little of it)

    def resize(self, width: int, height: int) -> None:
        """The client's window changed."""
        self.size = sane_size(width, height)
        if self.driver is not None:
            self.driver.resize_soon(*self.size)

    def output_paused(self) -> None:
        """The connection holds more unsent bytes than it should."""
        if self.driver is not None:
            self.driver.output_paused()

    def output_resumed(self) -> None:
        if self.driver is not None:
            self.driver.output_resumed()

    def end(self) -> None:
        """The client closed its input: the app ends, its farewell is written."""
        self._end()

    def hang_up(self) -> None:
        """The connection is gone."""
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

    def kick(self, reason: str) -> None:
        """End the session with one line to say why (signed in again
        elsewhere, idle, removed by an admin...)."""
        self.farewell = reason
        self._end()

    def close_room(self) -> None:
        """The server is stopping: end this session's app (which puts the
        client's terminal back as it was), then say why in one line."""
        table = getattr(self.app, "table", None)  # (a table that never started is not kept)
        if self.app is None and self.presence is not None:  # its app runs in a worker
            table = self.service.table_of(self.presence)
        playing = table is not None and table.started and not table.over
        self.kick("the card room is closing; your table is saved" if playing else
                   "the card room is closing")

    def signed_in(self, presence: Presence) -> None:
        """The room let this session's person in (a door's hook: the web
        door writes a new browser to its invite book only now)."""

    async def _run(self) -> None:
        chan = self.chan
        assert chan is not None  # (a door attaches its connection before it starts)
        if self.term is None:
            say_and_close(chan, "crib3 needs a terminal: connect with ssh -t")
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
                presence = await room.enter(self.username, self.key, self.kick, self.address,
                                            self.admin, journey=self.journey)
                presence.code = self.identity.code  # a new reconnect code: the lobby shows it
            except RoomError as exc:  # one line to them, one to the log, no traceback
                log.info("%r refused: %s", self.username, exc)
                say_and_close(chan, f"crib3: {exc}")
                return
            self.signed_in(presence)
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
                going = self.journey.go_to
                if going is None or not self.may_visit:
                    break  # (a visitor's `go_to` is its door's to follow: see `_close`)
                self.journey.go_to = None
        finally:
            self._close(presence)

    def _ascii(self, env: dict[str, str]) -> bool:
        return wants_ascii(env)

    async def _run_app(self, presence: Presence, env: dict[str, str]) -> bool:
        """One app for this session, here, until it ends; False if it failed."""
        assert self.chan is not None
        room = self.service.room
        app = self.service.make_app(room, presence, ascii=self._ascii(env),
                                    think=self.service.options.think, journey=self.journey)
        client_console(app, self.term or "xterm", env)
        self.app = app
        make_driver = ChannelDriver.for_channel(self.chan)

        def driver_class(app_: Any, **kwargs: Any) -> ChannelDriver:
            driver: ChannelDriver = make_driver(app_, **kwargs)
            self.driver = driver
            for data in self._early:
                driver.feed(data)
            self._early.clear()
            if self.ended:  # kicked or gone while the app was being made
                driver.end_app()
            return driver

        # (Textual calls its driver class to make the driver: this
        # function makes it, and keeps it as the session's.)
        app.driver_class = driver_class  # type: ignore[assignment]  # a factory, not a class
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

    def _hand_over(self, stand_in: AppLink, size: tuple[int, int]) -> None:
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
        assert self.chan is not None
        cluster = self.service.room.cluster
        assert cluster is not None  # (only a cluster's node has tables elsewhere)
        size = self.size
        host = next((t.node for t in cluster.elsewhere() if t.number == number), None)
        try:
            link = await cluster.visit_elsewhere(
                presence, number, watch, ascii=self._ascii(env),
                think=self.service.options.think, term=self.term or "xterm",
                env=colours(env), size=self.size)
        except RoomError as exc:  # that node cannot take them: said in the lobby here
            self.journey.refused_visit(cluster, presence, number, watch, host, str(exc))
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
        if ended is None or ended.moved:  # that node stopped, or lost us: back to the seat
            if self.ended:
                return None, False
            again = self.journey.back_from_visit(self.service.room, presence, number,
                                                 relayed.link.peer,
                                                 moved=ended is not None,
                                                 given_up=relayed.given_up)
            return again, True
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
            assert self.chan is not None
            if self.farewell:
                self.chan.write(f"crib3: {self.farewell}\r\n".encode())
            self.chan.exit(0)
        self.closed = True

    async def _run_in_worker(self, presence: Presence, env: dict[str, str]) -> None:
        """The session's app runs in a worker process (`--workers` above
        1): this session relays its terminal (`RemoteSession` takes the
        driver's place), then ends as `_run` does."""
        chan, pool = self.chan, self.service.pool
        assert pool is not None and chan is not None
        self.service.sessions.add(self)
        try:
            size = self.size
            remote = await pool.open(chan, presence, ascii=wants_ascii(env),
                                     think=self.service.options.think, term=self.term or "xterm",
                                     env=colours(env),
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


class TimedTerminal:
    """A session's connection, noting each write for its key→screen (the
    bytes leave here for the client, whichever process drew them)."""

    def __init__(self, terminal: Terminal, keys: KeyTimer) -> None:
        self.terminal, self.keys = terminal, keys

    def write(self, data: bytes) -> None:
        self.keys.drawn()
        self.terminal.write(data)

    def exit(self, status: int) -> None:
        self.terminal.exit(status)

    def close(self) -> None:
        self.terminal.close()

    async def wait_closed(self) -> None:
        await self.terminal.wait_closed()

    def get_environment(self) -> Mapping[str, str]:
        return self.terminal.get_environment()

    def get_write_buffer_size(self) -> int:
        return self.terminal.get_write_buffer_size()

    def set_write_buffer_limits(self, high: int, low: int) -> None:
        self.terminal.set_write_buffer_limits(high=high, low=low)

    def __getattr__(self, name: str) -> Any:
        """Whatever else the door's connection has (a test's way in to a
        websocket, say) is its own: this adds timing, nothing more."""
        return getattr(self.terminal, name)


def colours(env: Mapping[str, str]) -> dict[str, str]:
    """What of the client's environment an app made elsewhere (a worker, or
    another node) needs besides its terminal type: how it takes colour."""
    return {k: v for k, v in env.items() if k in ("COLORTERM", "NO_COLOR")}


def say_and_close(chan: Terminal, line: str, status: int = 1) -> None:
    """End a session that cannot begin with one line to the client. The
    client may have closed its side already (ssh < /dev/null sends EOF at
    once): then there is nobody to tell, and that is no error to log."""
    try:
        chan.write(f"{line}\r\n".encode())
        chan.exit(status)
    except OSError:
        chan.close()


def sane_size(width: int, height: int) -> tuple[int, int]:
    """A client may claim any size: none (0) is the default, and beyond
    300×100 the screen is drawn at 300×100 (see `crib3.net.bounds`)."""
    return capped_size(width or DEFAULT_SIZE[0], height or DEFAULT_SIZE[1])
