"""`crib3 serve` under load: 20 tables of three people, all playing over SSH.

Run on demand:
`python -m pytest tests/benchmarks/test_ssh_load.py --benchmark-only -s`
(`CRIB3_LOAD_TABLES=5` for a quicker look with fewer tables).

A real server (`crib3 serve --open --think 0`) runs in its own process; this
test's event loop is 60 headless SSH clients (asyncssh, an 80x24
xterm-256color pty each) that open tables, sit down and start the games as
people would, by keys: table by table, the first of three opens it (o,
Enter), the other two sit (Ctrl+End to the newest table, Enter), the first
starts it (Enter). Once every table has started, each client presses Enter
whenever its footer offers the key (throw, cut, play, go on), waits for the
answer, then a jittered 50-150 ms, for a fixed period.

Measured, for every Enter in that period: the time from writing the key to
the first bytes the server sends back (key -> updated screen), as p50, p95
and max (a key unanswered after ANSWER_TIMEOUT counts as slowest, shown as
">=" the timeout); during the throw all three players of a table move at
once, so now and then the first bytes after a key are another player's
move. And the server's resident memory before anyone connects and with all
60 sessions playing, from which the memory a table costs (three sessions
and a game). Also reported: how long seating everyone took, the game events
logged while playing, and the CPU used by the server and by these clients.

The aim: a key reaches the screen within 100 ms at p95 with 20 busy tables
on a 2-core machine, and a table costs a few MB. No time or memory is
asserted (the machine is shared and noisy); what is asserted is what would
be wrong on any machine: every table started and wrote its log, every
client's keys were answered, and the server logged no error while playing.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import asyncssh
import pytest
from rich.cells import cell_len, get_character_cell_size

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(),
                                reason="reads the server's memory and CPU from /proc")

TABLES = int(os.environ.get("CRIB3_LOAD_TABLES", "20"))  # fewer for a quicker look
PER_TABLE = 3
PLAY_SECONDS = 40.0  # the measured period, all tables playing
ANSWER_TIMEOUT = 10.0  # a key with no bytes back by then is counted unanswered
STEP_TIMEOUT = 60.0  # any one step of opening and filling a table (the server is busy)
ENTER, CTRL_END, OPEN = b"\r", b"\x1b[1;5F", b"o"


# --- a minimal terminal: enough of xterm to read Textual's screens -----------------

_ESCAPE = re.compile(r"\x1b\[([0-9;?<>=]*)[ -/]*([@-~])"  # CSI
                     r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
                     r"|\x1b[ -/]*[0-~]")  # two-byte escapes


class ScreenModel:
    """The characters of an 80x24 screen as the server drew them: cursor
    positioning and text; colours, modes and the rest are skipped."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.width, self.height = width, height
        self.rows = [[" "] * width for _ in range(height)]
        self.x = self.y = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._held = ""  # an escape sequence cut in two by the network

    def feed(self, data: bytes) -> None:
        text = self._held + self._decoder.decode(data)
        self._held = ""
        pos = 0
        while pos < len(text):
            esc = text.find("\x1b", pos)
            self._put(text[pos:] if esc < 0 else text[pos:esc])
            if esc < 0:
                return
            match = _ESCAPE.match(text, esc)
            if match is None:
                if len(text) - esc < 256:  # the rest of it comes with the next bytes
                    self._held = text[esc:]
                    return
                pos = esc + 1  # not a sequence we know: drop the Escape
                continue
            if match.group(2) == "H":
                row, col, *_ = [int(p) if p.isdigit() else 1
                                for p in (match.group(1) or "").split(";")] + [1, 1]
                self.y = min(max(row, 1), self.height) - 1
                self.x = min(max(col, 1), self.width) - 1
            pos = match.end()

    def _put(self, text: str) -> None:
        for line_no, line in enumerate(text.split("\n")):
            if line_no:
                self.y = min(self.y + 1, self.height - 1)
            line = "".join(ch for ch in line if ch >= " ") if not line.isprintable() else line
            if not line:
                continue
            row = self.rows[self.y]
            if cell_len(line) == len(line):  # the usual case: one cell a character
                end = min(self.x + len(line), self.width)
                if end > self.x:
                    row[self.x:end] = line[:end - self.x]
                self.x += len(line)
                continue
            for ch in line:
                width = get_character_cell_size(ch)
                if width and self.x < self.width:
                    row[self.x] = ch
                    if width == 2 and self.x + 1 < self.width:
                        row[self.x + 1] = ""
                self.x += width

    def text(self) -> str:
        return "\n".join("".join(row) for row in self.rows)

    def footer(self) -> str:
        return "".join(self.rows[-1])


class Terminal(asyncssh.SSHClientSession):  # type: ignore[misc]
    """One person's side of an SSH session: the screen, and when the bytes
    answering the last key arrived."""

    def __init__(self) -> None:
        self.screen = ScreenModel()
        self.changed = asyncio.Event()
        self.pressed_at: float | None = None
        self.latencies: list[float] = []
        self.answered = asyncio.Event()
        self.closed = False

    def data_received(self, data: bytes, datatype: object) -> None:
        now = time.perf_counter()
        if self.pressed_at is not None:
            self.latencies.append(now - self.pressed_at)
            self.pressed_at = None
            self.answered.set()
        self.screen.feed(data)
        self.changed.set()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.changed.set()


class Player:
    """One headless client: a name, its SSH connection and its screen."""

    def __init__(self, name: str, conn: object, chan: object, term: Terminal) -> None:
        self.name, self.conn, self.chan, self.term = name, conn, chan, term
        self.unanswered = 0
        self.game_over = False

    def press(self, key: bytes) -> None:
        self.chan.write(key)  # type: ignore[attr-defined]

    async def expect(self, text: str, timeout: float = STEP_TIMEOUT) -> None:
        """Wait until the screen shows `text`."""
        end = time.monotonic() + timeout
        while text not in self.term.screen.text():
            if self.term.closed:
                raise AssertionError(f"{self.name}: the server closed the session while "
                                     f"we waited for {text!r}")
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: {text!r} never reached the screen; it "
                                     f"shows:\n{self.term.screen.text()}")
            self.term.changed.clear()
            try:
                await asyncio.wait_for(self.term.changed.wait(), left)
            except TimeoutError:
                pass


async def _connect(port: int, name: str) -> Player:
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  client_keys=None, agent_path=None, config=None)
    chan, term = await conn.create_session(Terminal, term_type="xterm-256color",
                                           term_size=(80, 24), encoding=None)
    return Player(name, conn, chan, term)


async def _join(player: Player, table: int) -> None:
    """Sit at `table`, the newest in the lobby: Ctrl+End to its last row,
    then Enter once the screen has moved. (Sent together, Enter would
    overtake Ctrl+End: the lobby's Enter is a priority binding.) Should the
    keys reach the lobby before it lists the new table, the row before is a
    table already playing, which says so; then try again."""
    waiting = f"Waiting for t{table}p0"
    for _ in range(5):
        player.term.changed.clear()
        player.press(CTRL_END)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(player.term.changed.wait(), 2)
        await asyncio.sleep(0.2)
        player.press(ENTER)
        try:
            await player.expect(waiting, timeout=5)
            return
        except AssertionError:
            continue
    await player.expect(waiting, timeout=1)


async def _seat_table(port: int, table: int, everyone: list[Player]) -> None:
    """Three people connect; the first opens a table, the others sit at it,
    and the first starts the game. They are added to `everyone` as they
    connect (to be hung up at the end, whatever happens)."""
    async def connect(name: str) -> Player:
        player = await _connect(port, name)
        everyone.append(player)
        await player.expect(f"You are {name}.")
        return player

    players = list(await asyncio.gather(*(connect(f"t{table}p{p}")
                                          for p in range(PER_TABLE))))
    owner, *joiners = players
    owner.press(OPEN)
    await owner.expect("Seats nobody takes")
    owner.press(ENTER)
    await owner.expect("Enter: start the game")
    for joiner in joiners:
        await _join(joiner, table)
    await owner.expect(f"t{table}p{PER_TABLE - 1}")
    owner.press(ENTER)
    for player in players:
        await player.expect("pts")  # the table: every seat's box shows its points


async def _play(player: Player, until: float, rng: random.Random) -> None:
    """Press Enter whenever the footer offers it, until the time is up or
    the game is over."""
    term = player.term
    while time.monotonic() < until and not term.closed:
        if "back to the lobby" in term.screen.text():
            player.game_over = True
            return
        if "⏎" in term.screen.footer():
            term.answered.clear()
            term.pressed_at = time.perf_counter()
            player.press(ENTER)
            try:
                await asyncio.wait_for(term.answered.wait(), ANSWER_TIMEOUT)
            except TimeoutError:
                term.pressed_at = None
                player.unanswered += 1
        await asyncio.sleep(rng.uniform(0.05, 0.15))


# --- the server --------------------------------------------------------------------


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/PID/status")


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_server(home: Path, log: Path) -> tuple[subprocess.Popen, int]:
    env = {**os.environ, "CRIB3_HOME": str(home)}
    env.pop("NO_COLOR", None)
    with log.open("wb") as err:
        server = subprocess.Popen(
            [sys.executable, "-m", "crib3", "serve", "--open", "--host", "127.0.0.1",
             "--port", "0", "--think", "0"],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read_text(errors="replace"))
        if found:
            return server, int(found.group(1))
        if server.poll() is not None:
            break
        time.sleep(0.05)
    server.kill()
    raise AssertionError(f"the server did not start:\n{log.read_text(errors='replace')}")


def _stop_server(server: subprocess.Popen) -> None:
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _tail(log: Path, lines: int = 40) -> str:
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


# --- the benchmark -----------------------------------------------------------------


def _logged(tables: Path) -> int:
    """Lines in the tables' game logs: a header each, then one per event."""
    return sum(len(path.read_bytes().splitlines()) for path in tables.glob("table-*.jsonl"))


async def _quiet(pid: int, limit: float = 30.0) -> None:
    """Wait (up to `limit` seconds) for the server to use under a tenth of
    a core: done with the sessions that have just hung up."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        before = _cpu_seconds(pid)
        await asyncio.sleep(1)
        if _cpu_seconds(pid) - before < 0.1:
            return


def test_twenty_tables_of_three_over_ssh(benchmark, tmp_path):
    home, log = tmp_path / "home", tmp_path / "server.log"
    tables = home / "data" / "tables"
    server, port = _start_server(home, log)
    players: list[Player] = []
    found: dict[str, float] = {}
    rng = random.Random(3)

    async def load() -> None:
        try:
            await asyncio.sleep(1)  # let the server settle before it is weighed
            found["rss_idle"] = _rss_mb(server.pid)
            started = time.monotonic()
            for table in range(1, TABLES + 1):
                await _seat_table(port, table, players)
            found["seating_s"] = time.monotonic() - started
            found["lines_before"] = _logged(tables)
            found["rss_seated"] = _rss_mb(server.pid)
            cpu, mine, play_started = (_cpu_seconds(server.pid), time.process_time(),
                                       time.monotonic())
            until = play_started + PLAY_SECONDS
            await asyncio.gather(*(_play(p, until, random.Random(rng.random()))
                                   for p in players))
            played = time.monotonic() - play_started
            found["server_cpu"] = (_cpu_seconds(server.pid) - cpu) / played
            found["client_cpu"] = (time.process_time() - mine) / played
            found["rss_playing"] = _rss_mb(server.pid)
            found["events"] = _logged(tables) - found["lines_before"]
            found["log_while_playing"] = log.stat().st_size
        finally:
            for player in players:
                player.conn.close()  # type: ignore[attr-defined]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(
                    *(p.conn.wait_closed() for p in players),  # type: ignore[attr-defined]
                    return_exceptions=True), 15)
            await _quiet(server.pid)  # so that what it logs about the hang-ups is read

    try:
        benchmark.pedantic(lambda: asyncio.run(load()), rounds=1, iterations=1)
    except BaseException:
        print(f"\nserver stderr, the end:\n{_tail(log)}")
        raise
    finally:
        _stop_server(server)

    server_log = log.read_bytes()
    while_playing = server_log[:int(found["log_while_playing"])].decode(errors="replace")
    after = server_log[int(found["log_while_playing"]):].decode(errors="replace")
    # A key still unanswered after ANSWER_TIMEOUT counts as the slowest of
    # all: its percentiles are shown as ">=" the timeout.
    unanswered = sum(p.unanswered for p in players)
    latencies = sorted(x for p in players for x in p.term.latencies)
    latencies += [ANSWER_TIMEOUT] * unanswered
    keys = len(latencies)
    games_over = sum(p.game_over for p in players) // PER_TABLE

    def ms(q: float) -> float:
        return latencies[min(keys - 1, int(keys * q))] * 1000 if keys else float("nan")

    def shown(q: float) -> str:
        index = min(keys - 1, int(keys * q))
        return f">={ms(q):.0f}" if index >= keys - unanswered else f"{ms(q):.0f}"

    per_table = (found["rss_playing"] - found["rss_idle"]) / TABLES
    benchmark.extra_info.update(
        tables=TABLES, clients=len(players), keys=keys, unanswered_keys=unanswered,
        key_to_screen_p50_ms=round(ms(0.50), 1), key_to_screen_p95_ms=round(ms(0.95), 1),
        key_to_screen_max_ms=round(ms(1.0), 1),
        rss_idle_mb=round(found["rss_idle"], 1), rss_seated_mb=round(found["rss_seated"], 1),
        rss_playing_mb=round(found["rss_playing"], 1),
        mb_per_table=round(per_table, 2), seating_s=round(found["seating_s"], 1),
        play_s=PLAY_SECONDS, events_while_playing=int(found["events"]),
        server_cpu_while_playing=round(found["server_cpu"], 2),
        client_cpu_while_playing=round(found["client_cpu"], 2), games_over=games_over)
    print(f"\nssh load: {TABLES} tables x {PER_TABLE} clients, {keys} keys, key->screen "
          f"p50 {shown(0.50)} ms p95 {shown(0.95)} ms max {shown(1.0)} ms; "
          f"server RSS idle {found['rss_idle']:.0f} MB, playing {found['rss_playing']:.0f} MB, "
          f"{per_table:.1f} MB per table")
    print(f"  seating {len(players)} people took {found['seating_s']:.0f} s; "
          f"in {PLAY_SECONDS:.0f} s of play: {int(found['events'])} game events, "
          f"{games_over} games over, "
          f"{unanswered} keys unanswered in {ANSWER_TIMEOUT:.0f} s; server RSS "
          f"{found['rss_seated']:.0f} MB once all were seated; the server used "
          f"{found['server_cpu']:.0%} of a core, these clients {found['client_cpu']:.0%}")
    problems = [line for line in after.splitlines()
                if "failed" in line or "Traceback" in line or "Error" in line]
    if problems:
        print(f"  the server logged {len(problems)} error lines after the clients hung up, "
              f"the first: {problems[0]!r}")

    missing = [n for n in range(1, TABLES + 1) if not (tables / f"table-{n}.jsonl").exists()]
    assert not missing, f"tables that never started: {missing}"
    assert len(players) == TABLES * PER_TABLE
    silent = [p.name for p in players if not p.term.latencies]
    assert not silent, f"clients whose keys got no screen back: {silent}"
    assert "Traceback" not in while_playing, f"the server failed while playing:\n{while_playing}"
