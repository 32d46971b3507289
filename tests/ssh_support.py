"""A card room served in the test's own event loop, and headless SSH
clients (asyncssh's) that type keys and keep every byte they receive; and
`crib3 serve` in its own process, with the real OpenSSH client in tmux
terminals."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path

import asyncssh
import pytest
from commands import POLL
from helpers import finished
from ports import free_port
from screen_model import ScreenModel

from crib3.net.options import ServeOptions
from crib3.net.server import CardRoomServer
from crib3.room import Room
from crib3.tui.room_app import CardRoomApp
from crib3.tui.screens.lobby_words import standing

ANSI = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")
FOCUS_IN = "\x1b[I"  # a terminal's report that it has the focus (xterm focus events)


def plain(data: bytes | str) -> str:
    """Terminal output with its escape sequences taken out."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    return ANSI.sub("", text)


@asynccontextmanager
async def serving(folder: Path, keys: Path | None = None, patience: float = 60.0,
                  think: float = 0.0, admins: Path | None = None, workers: int = 1,
                  web=None, limits=None, lobby_idle: float = 900.0,
                  show_pace: float | None = None, **room_options):
    """A card room on a free port of 127.0.0.1 (open to any name unless
    `keys`, an authorized-keys file, is given; `admins`: the --admins file);
    `room_options` go to the `Room` (idle_close, tables_per_key, names_per_key);
    `workers` above 1 runs the sessions' apps in that many worker processes.
    `web` (a `crib3.net.web_options.WebOptions`): its web door opens too, as
    `server.door`, and closes as `crib3 serve` closes it. `show_pace`: the
    room's `--show-pace` (None: its default)."""
    room = Room(folder / "tables", think=think, patience=patience, **room_options)
    if show_pace is not None:
        room.show_pace = show_pace
    assert room.restore() == []  # a restarted server picks up its tables
    options = ServeOptions(port=0, authorized_keys=keys, open_door=keys is None, think=think,
                           admins=admins, workers=workers, lobby_idle=lobby_idle,
                           **({"limits": limits} if limits is not None else {}))
    server = CardRoomServer(options, room, CardRoomApp)
    await server.start(asyncssh.generate_private_key("ssh-ed25519"))
    server.door = None
    if web is not None:
        from crib3.common.paths import data_dir
        from crib3.net.web import WebDoor
        from crib3.room.invites import InviteBook

        server.door = WebDoor(server, web, InviteBook(data_dir() / "web"))
        await server.door.start()
    try:
        yield server
    finally:
        if server.door is not None:
            server.door.stop_listening()
        await finished(server.stop(), 60, "the card room's stop")
        if server.door is not None:
            await finished(server.door.stop(), 90, "the web door's stop")


class Terminal(asyncssh.SSHClientSession):
    """The client end of one session: everything received, in order."""

    def __init__(self) -> None:
        self.received = bytearray()
        self.arrived = asyncio.Event()
        self.closed = asyncio.Event()

    def data_received(self, data: bytes, datatype) -> None:
        self.received += data
        self.arrived.set()

    def connection_lost(self, exc) -> None:
        self.closed.set()

    def text(self) -> str:
        return plain(bytes(self.received))


class Visitor(asyncssh.SSHClient):
    """A client that answers the card room's keyboard-interactive
    question under --open: nothing (a free name), or its reconnect code."""

    def __init__(self, code: str | None = None) -> None:
        self.code = code

    def kbdint_auth_requested(self):
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):
        if not prompts:
            return []
        return [self.code] if self.code is not None and len(prompts) == 1 else None


def person_address(n: int, block: int = 1) -> str:
    """The loopback address (127.BLOCK.x.y, from 127.BLOCK.0.1) of the `n`th
    simulated person (from 0): the room counts its per-person limits (names
    and tables under --open, pending connections, sign-ins) by address, so a
    crowd from 127.0.0.1 alone is one person meeting them all. A block is
    254 * 256 people; the hostile tests' own addresses sit in 127.0.x.y."""
    assert 0 <= n < 254 * 256 and 1 <= block <= 255, (n, block)
    return f"127.{block}.{n // 254}.{n % 254 + 1}"


def reconnect_code(client: Client) -> str:
    """The reconnect code the lobby showed this client."""
    found = CODE_SHOWN.search(client.terminal.text())
    assert found, client.terminal.text()[-600:]
    return found.group(1)


CODE_SHOWN = re.compile(r"reconnect code: ([a-z0-9]{4}-[a-z0-9]{4})")
# Seconds a client's connection may take, at most, to be signed in and get
# its session: a server paused (SIGSTOP) takes the TCP connection in its
# kernel, then says nothing, and asyncssh would wait for good.
CONNECT_SECONDS = 30.0


class ScreenReader:
    """What a client (SSH or browser) shows now, read from the bytes its
    terminal received (`terminal.received`, `terminal.arrived`)."""

    terminal: Terminal

    def __init__(self, size=(80, 24)) -> None:
        self._screen = ScreenModel(*size)  # what the client shows now (`footer`)
        self._fed = 0  # the bytes of `terminal.received` it has been given

    def footer(self) -> str:
        """The last row of the screen as the client shows it now (what its
        keys do now), not the last bytes drawn, which may be any row."""
        received = self.terminal.received
        if len(received) < self._fed:  # (cleared by the test: read it again from here)
            self._fed = 0
        self._screen.feed(bytes(received[self._fed:]))
        self._fed = len(received)
        return self._screen.footer()

    def screen(self) -> str:
        """The whole screen as the client shows it now (not the bytes drawn)."""
        self.footer()  # (brings the screen up to what has been received)
        return self._screen.text()

    async def gone(self, text: str, timeout: float = 30.0) -> None:
        """Wait until `text` is on this client's screen no more (a dialog
        closed: the next key then comes as a key of its own, never with an
        Esc still unread by the server, which would make the two one key)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text in self.screen():
            remaining = deadline - loop.time()
            assert remaining > 0, f"{text!r} still shown: {self.screen()!r}"
            self.terminal.arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.terminal.arrived.wait(), min(remaining, 0.5))


class Client(ScreenReader):
    """One person at an SSH client."""

    seen: dict[str, Client] = {}  # name -> the last to connect (a restarted server: another port)

    def __init__(self, conn, chan, terminal: Terminal, size=(80, 24)) -> None:
        super().__init__(size)
        self.conn, self.chan, self.terminal = conn, chan, terminal

    @classmethod
    async def connect(cls, port: int, name: str, size=(80, 24), key=None,
                      env: dict[str, str] | None = None, code: str | None = None,
                      source: str | None = None,
                      timeout: float = CONNECT_SECONDS) -> Client:
        """`name` signs in with `key`, or with none: under --open a free name
        is given a reconnect code, and a name held by one is asked for it
        (`code`; unless given, the one the last client of that name here
        was shown, as a person would remember it). `source`: the client's
        own address (any of 127/8). TimeoutError, saying which step, when
        signing in and opening the session take more than `timeout`
        seconds (a server that does not answer: paused, or stuck)."""
        before = Client.seen.get(name.lower())
        if code is None and before is not None:
            found = CODE_SHOWN.search(before.terminal.text())
            code = found.group(1) if found else None
        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        step = "no SSH handshake and sign-in"
        try:
            conn = await asyncio.wait_for(asyncssh.connect(
                "127.0.0.1", port, username=name, known_hosts=None,
                client_factory=lambda: Visitor(code),
                client_keys=key if isinstance(key, list) else [key] if key else None,
                agent_path=None, local_addr=(source, 0) if source else None,
                preferred_auth="publickey" if key else "none,publickey,keyboard-interactive"),
                timeout)
            step = "signed in, but no session opened"
            try:
                chan, terminal = await asyncio.wait_for(conn.create_session(
                    Terminal, term_type="xterm-256color", term_size=size, encoding=None,
                    env=env or {}), max(0.0, give_up - loop.time()))
            except BaseException:
                conn.abort()
                raise
        except TimeoutError:
            raise TimeoutError(f"{name} connecting to the SSH server on port {port}: {step} "
                               f"in {timeout:g} s (the server does not answer: paused, or "
                               "stuck?)") from None
        client = cls(conn, chan, terminal, size)
        Client.seen[name.lower()] = client
        return client

    def press(self, keys: str | bytes) -> None:
        self.chan.write(keys.encode() if isinstance(keys, str) else keys)

    async def shows(self, text: str, timeout: float = 10.0, there: bool = False) -> None:
        """Wait until `text` has been drawn on this client's screen. `there`:
        meanwhile say every 0.3 s that this terminal has the focus (a focus
        report: a byte the room counts as the person being there, and a key
        no screen acts on), so that a screen slow to come on a loaded machine
        does not count as idle against a room that closes idle lobbies within
        a second."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in self.terminal.text()[-20000:]:
            remaining = deadline - loop.time()
            assert remaining > 0, f"{text!r} never arrived; last: {self.terminal.text()[-600:]!r}"
            if there:
                self.press(FOCUS_IN)
                remaining = min(remaining, 0.3)
            self.terminal.arrived.clear()
            try:
                await asyncio.wait_for(self.terminal.arrived.wait(), remaining)
            except TimeoutError:
                pass

    def close(self) -> None:
        self.conn.close()


async def until(condition, timeout: float = 10.0, what: str = "condition") -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


def worker_pids(server) -> dict[str, int]:
    """Whose session runs in which worker process (by pid), with
    `serving(..., workers=N)`."""
    return {remote.name: worker.pid for worker in server.pool.workers
            for remote in worker.sessions.values()}


async def seat_three(port: int, room: Room, names=("ann", "bob", "cat"), short: bool = True,
                     clients=None, late: bool = False):
    """Three clients: the first opens a table (to 61 when `short`), the
    others sit at it, the owner starts. Returns the clients and the table.
    `clients`: three connected already (a browser among them, say).
    `late`: each of the others connects only as it comes to sit (not idle
    in the lobby while the owner opens the table: in a room that closes
    idle lobby sessions within a second, a slow machine would close them).
    """
    if clients is None:
        clients = [await Client.connect(port, name) for name in (names[:1] if late else names)]
    owner = clients[0]
    await owner.shows("Open a table")
    owner.press("o")
    await owner.shows("Second seat")
    if short:
        owner.press("\x1b[B" * 4)  # down to "Game"
        await asyncio.sleep(0.1)
        owner.press("\x1b[C")  # 121 -> 61
        await owner.shows("the short game")
    owner.press("\r")
    await until(lambda: room.tables, what="the table")
    table = next(iter(room.tables.values()))
    for index in range(1, 3):
        if len(clients) == index:
            clients.append(await Client.connect(port, names[index]))
        client = clients[index]
        # (late: its lobby may take longer than the room's idle limit to come)
        await client.shows("Table", there=late)
        await client.shows("waiting")
        client.press("\r")
    await until(lambda: all(s.name for s in table.seats), what="three seated")
    await owner.shows("start the game")
    owner.press("\r")
    await until(lambda: table.started, what="the start")
    return clients, table


async def press_on(clients, table, every: float = 0.05, limit: float = 120.0,
                   hands: int | None = None) -> None:
    """Everyone presses Enter, again and again, until the game is over and
    every screen has gone through the result to the lobby; or, with
    `hands`, until that many hands have been played. (20 keys a second
    each: the door closes a session that types faster than 30 for long,
    and a loaded machine's session, slow to take its keys, drops them
    sooner: at 33 a second a test's person was closed mid-game.)"""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    done: set[int] = set()

    def finished() -> bool:
        if hands is not None:
            return table.over or table.game.state.hand_number > hands
        return table.over and len(done) == len(clients)

    while not finished():
        assert loop.time() < deadline, stuck(clients, table)
        for index, client in enumerate(clients):
            if client.terminal.closed.is_set() or index in done:
                continue
            if table.over and "open a table of your own" in plain(
                    bytes(client.terminal.received[-6000:])):  # back in the lobby
                done.add(index)
                continue
            client.press("\r")
        await asyncio.sleep(every)


def stuck(clients, table) -> str:
    """Why `press_on` gave up: where the game stood, whom it waited for,
    and each person's connection and the end of their screen (a stuck game
    in a loaded clean-clone run said only its hand and scores)."""
    game = table.game
    waiting = game.to_act() if game is not None else ()
    lines = [f"the game is stuck at {standing(table)}; phase "
             f"{game.state.phase.name if game is not None else '-'}, to act {waiting}, "
             f"online {sorted(table.online)}"]
    for index, client in enumerate(clients):
        shown = [line.strip() for line in client.screen().splitlines() if line.strip()]
        tail = " | ".join(shown[-6:])
        closed = "closed" if client.terminal.closed.is_set() else "open"
        lines.append(f"  person {index} ({closed}): ...{tail[-400:]}")
    return "\n".join(lines)


class Recorder:
    """Everything the server writes to each person, as (name, events on
    their screen, text), for the no-leak checks.

    In one process (`workers` 1) each write is taken at the driver, with
    exactly how many events that person's table screen had shown. With
    session workers the screens are in other processes: each write is
    taken where the main process relays it, with how many events the
    game had then (`progress`, set once the table is known): the screen
    had shown no more than that, and (since nobody's next hand starts
    before they have thrown to its crib) no less than the start of the
    hand before. `hidden` is then what was hidden all through that span,
    so a card shown in the last show and dealt again is not taken for a
    leak.

    A toast stays on screen its timeout (5 s), written again with every
    frame that draws over it, and a game whose people press Enter as fast
    as they can goes through a hand or two meanwhile: a refusal of a card
    of one's own ("7♦ is not in your hand", one's play still on its way)
    is still there once 7♦ is dealt to someone else. So in one process the
    toasts are followed too: `since(name, shown)` is how far that screen
    had got when the oldest toast it may still show was raised, and what
    it saw from there on is no leak (`hidden` and `visible_since`)."""

    GRACE = 1.0  # seconds a toast may outlive its timeout (its removal is a timer)

    def __init__(self, monkeypatch, workers: int = 1) -> None:
        from textual.app import App

        from crib3.net.driver import ChannelDriver
        from crib3.net.workers import RemoteSession
        from crib3.tui.screens.table import TableScreen

        self.sent: list[tuple[str, int, str]] = []
        self.exact = workers == 1
        self.progress = lambda: 0
        # In one process: each person's toasts that may be on screen still,
        # as `Toast`s, and for each (name, shown) of `sent` the least point
        # any of them was raised at (`since`).
        self._toasts: dict[str, list[Toast]] = {}
        self._since: dict[tuple[str, int], int] = {}
        sent = self.sent
        if self.exact:
            write = ChannelDriver.write
            notify = App.notify
            on_notify = App._on_notify

            def presented(app) -> int:
                tables = [s for s in app.screen_stack if isinstance(s, TableScreen)]
                return tables[-1].presented if tables else 0

            def keep(driver: ChannelDriver, data: str) -> None:
                app = driver._app
                self.wrote(app.presence.name, presented(app), data, time.monotonic(),
                           list(app._notifications))
                write(driver, data)

            def toast(app, message: str, *args, timeout: float | None = None, **kwargs) -> None:
                presence = getattr(app, "presence", None)
                if presence is not None:
                    self.toasted(presence.name, message, presented(app), time.monotonic()
                                 + (app.NOTIFICATION_TIMEOUT if timeout is None else timeout))
                notify(app, message, *args, timeout=timeout, **kwargs)

            def shown_toast(app, event) -> None:  # (the toast raised, as Textual keeps it)
                presence = getattr(app, "presence", None)
                if presence is not None:
                    self.toast_up(presence.name, event.notification)
                on_notify(app, event)

            monkeypatch.setattr(ChannelDriver, "write", keep)
            monkeypatch.setattr(App, "notify", toast)
            monkeypatch.setattr(App, "_on_notify", shown_toast)
        else:
            output = RemoteSession.output

            def relayed(remote: RemoteSession, data: bytes) -> None:
                sent.append((remote.name, self.progress(), data.decode("utf-8", "replace")))
                output(remote, data)

            monkeypatch.setattr(RemoteSession, "output", relayed)
        self._spans: dict[tuple[int, int], set] = {}

    def follow(self, table) -> None:
        self.progress = lambda: len(table.game.events) if table.game is not None else 0

    def toasted(self, name: str, message: str, shown: int, until: float) -> None:
        """`name`'s screen, at `shown` events, raised a toast, on screen until `until`."""
        self._toasts.setdefault(name, []).append(Toast(message, until, shown))

    def toast_up(self, name: str, notification: object) -> None:
        """Textual keeps the toast `name`'s screen raised last with this
        message as `notification` (raised in turn: the first waiting)."""
        message = getattr(notification, "message", None)
        toast = next((t for t in self._toasts.get(name, ())
                      if t.notification is None and t.message == message), None)
        if toast is not None:
            toast.notification = notification

    def wrote(self, name: str, shown: int, data: str, now: float,
              on: Iterable[object] = ()) -> None:
        """`data` written to `name`'s screen, at `shown` events, at `now`,
        with the toasts `on` still up (Textual's own notifications: a toast
        outlives its timeout until its timer goes)."""
        up = list(on)
        live = [t for t in self._toasts.get(name, ())
                if t.until + self.GRACE > now or any(n is t.notification for n in up)]
        self._toasts[name] = live
        since = min([shown, *(t.shown for t in live)])
        self._since[name, shown] = min(self._since.get((name, shown), since), since)
        self.sent.append((name, shown, data))

    def since(self, name: str, shown: int) -> int:
        """How far `name`'s screen had got when the oldest toast it may
        still have shown at `shown` was raised (`shown` itself: none)."""
        return self._since.get((name, shown), shown)

    def visible_since(self, states: list, name: str, shown: int, cards_seen) -> set:
        """What `name`'s screen may still show at `shown` from its toasts:
        `cards_seen(state)` (face up, or one's own) from `since` on."""
        return {card for state in states[self.since(name, shown):shown + 1]
                for card in cards_seen(state)}

    def hidden(self, states: list, shown: int, cards_hidden, cards_seen,
               name: str | None = None) -> set:
        """The cards this screen may not have shown at `shown` (see the
        class's docstring): `cards_hidden(state)` at that point, less, with
        session workers, `cards_seen(state)` (face up, or one's own) at any
        point of the span the screen may have been at; in one process,
        less what its toasts may still show (given the person's `name`)."""
        if self.exact:
            hidden = set(cards_hidden(states[shown]))
            if name is not None:
                hidden -= self.visible_since(states, name, shown, cards_seen)
            return hidden
        hand = states[shown].hand_number
        start = next(i for i, s in enumerate(states) if s.hand_number >= hand - 1)
        key = (start, shown, id(cards_hidden))
        if key not in self._spans:
            span = set(cards_hidden(states[shown]))
            for state in states[start:shown]:
                span -= cards_seen(state)
            self._spans[key] = span
        return self._spans[key]


@dataclass
class Toast:
    """A toast a `Recorder` follows: its message, when its timeout ends,
    how many events its screen had shown when it was raised, and Textual's
    `Notification` of it once raised."""

    message: str
    until: float
    shown: int
    notification: object | None = None


def joined(sent):
    """Consecutive writes to one person at one point of the game (a
    `Recorder`'s `sent`), as one text (a card's label is never split across
    writes within a frame)."""
    merged: list[list] = []
    for name, shown, data in sent:
        if merged and merged[-1][0] == name and merged[-1][1] == shown:
            merged[-1][2] += data
        else:
            merged.append([name, shown, data])
    return merged


# --- `crib3 serve` in its own process, and the OpenSSH client ------------------------

needs_openssh = pytest.mark.skipif(
    shutil.which("tmux") is None or shutil.which("ssh") is None
    or shutil.which("ssh-keygen") is None,
    reason="needs tmux and the OpenSSH client")


class Terminals:
    """One tmux server, a window per player."""

    def __init__(self) -> None:
        self.socket = f"crib3-ssh-{uuid.uuid4().hex[:8]}"

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=30).stdout

    def open(self, name: str, command: str) -> None:
        self.run("new-session", "-d", "-s", name, "-x", "80", "-y", "24",
                 f"env TERM=xterm-256color LANG=C.UTF-8 {command}; sleep 30")

    def screen(self, name: str) -> str:
        return self.run("capture-pane", "-p", "-t", name)

    def keys(self, name: str, *keys: str) -> None:
        self.run("send-keys", "-t", name, *keys)

    def wait_for(self, name: str, text: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen(name)
            if text in screen:
                return screen
            time.sleep(POLL)
        raise AssertionError(f"{name}: {text!r} never appeared; the screen:\n"
                             f"{self.screen(name)}")

    def say(self, name: str, text: str) -> None:
        """`name`, at a table, says `text` in the chat: c, the line typed
        a few characters at a time (not all in one instant; an emoji and
        its modifier in one piece), Enter."""
        import regex

        self.keys(name, "c")
        self.wait_for(name, "Say at table")
        pieces = [""]
        for cluster in regex.findall(r"\X\s*", text):
            if len(pieces[-1]) + len(cluster) > 8:
                pieces.append("")
            pieces[-1] += cluster
        for piece in pieces:
            self.run("send-keys", "-t", name, "-l", piece)
            time.sleep(0.05)
        self.keys(name, "Enter")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       timeout=30)


def start_serving(tmp_path: Path, *args: str, files: int | None = None) -> subprocess.Popen:
    """`crib3 serve ARGS --think 0.05` in its own process, its stderr in
    tmp_path/serve.log, once it says it is listening; `files`: its limit of
    open files (soft and hard)."""
    limit = (f"import resource; resource.setrlimit(resource.RLIMIT_NOFILE, ({files}, {files})); "
             if files else "")
    with open(tmp_path / "serve.log", "w") as errors:  # the server keeps its own copy
        server = subprocess.Popen(
            [sys.executable, "-c", limit + "from crib3.cli import main; raise SystemExit(main())",
             "serve", *args, "--think", "0.05"],
            env={**os.environ, "CRIB3_HOME": str(tmp_path / "home")}, stderr=errors)
    deadline = time.monotonic() + 20
    while "listening on" not in (tmp_path / "serve.log").read_text():
        assert server.poll() is None and time.monotonic() < deadline, \
            (tmp_path / "serve.log").read_text()
        time.sleep(POLL)
    return server


@contextmanager
def openssh_room(tmp_path: Path, *args: str) -> Iterator[tuple[int, Terminals]]:
    """`crib3 serve --port PORT ARGS` on a free port (see `start_serving`),
    and a tmux server for the clients: (port, terminals). Afterwards both
    are stopped, and the server's log must hold no traceback."""
    port = free_port()
    server = start_serving(tmp_path, "--port", str(port), *args)
    terminals = Terminals()
    try:
        yield port, terminals
    finally:
        terminals.close()
        server.terminate()
        server.wait(timeout=10)
    log = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in log, log


def ssh(port: int, name: str, key: Path | None) -> str:
    """The OpenSSH command that signs `name` in with `key` (or with none)."""
    # (Without a key, under --open, the name is held by a reconnect code,
    # asked for by keyboard-interactive: BatchMode would not even try that.)
    identity = f"-i {key} -o IdentitiesOnly=yes -o BatchMode=yes" if key else \
        "-o PubkeyAuthentication=no -o IdentitiesOnly=yes -o BatchMode=no"
    return (f"ssh -t {identity} -o StrictHostKeyChecking=no "
            f"-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p {port} "
            f"-l {shlex.quote(name)} 127.0.0.1")


def openssh_key(path: Path, comment: str | None = None) -> Path:
    """A new ed25519 key pair made by ssh-keygen: `path` and `path`.pub."""
    named = ["-C", comment] if comment is not None else []
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", *named, "-f", str(path)],
                   check=True, timeout=30)
    return path


def openssh_keys(folder: Path, names: Iterable[str]) -> tuple[dict[str, Path], Path]:
    """A key for each of `names` (folder/id_NAME), all of them in one
    authorized-keys file (folder/authorized_keys): (keys by name, the file)."""
    keys = {name: openssh_key(folder / f"id_{name}", comment=name) for name in names}
    authorized = folder / "authorized_keys"
    authorized.write_text("".join(Path(f"{k}.pub").read_text() for k in keys.values()))
    return keys, authorized
