"""A long command shows Rich's progress bar on a terminal
(games so far, the running share, the time left) and keeps its plain lines
when its output is not a terminal. Each command runs as a real subprocess:
in a pseudo-terminal for the first case, through pipes for the second."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import termios
import time
from pathlib import Path

import pytest

from tests.commands import CRIB3

BAR = "━"  # Rich's bar is drawn with this
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "CRIB3_HOME": str(home), "TERM": "xterm-256color",
            "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8", "COLUMNS": "100"}


def in_terminal(home: Path, *args: str, stdout_piped: bool = False) -> tuple[int, str, str]:
    """`crib3 ARGS` with stderr (and stdin, and stdout unless `stdout_piped`)
    on a pseudo-terminal of 100x24: its exit status, everything the
    terminal received (escapes and all) and what went down the pipe."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    process = subprocess.Popen([*CRIB3, *args], stdin=slave, stderr=slave,
                               stdout=subprocess.PIPE if stdout_piped else slave,
                               env=_env(home))
    os.close(slave)
    seen = bytearray()
    give_up = time.monotonic() + 120
    while True:
        left = give_up - time.monotonic()
        if left <= 0:
            process.kill()
            process.wait(timeout=10)
            os.close(master)
            raise AssertionError(f"crib3 {' '.join(args)} still ran after 120 s; its terminal "
                                 f"last showed {bytes(seen[-300:])!r}")
        if not select.select([master], [], [], left)[0]:
            continue
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every end of the terminal is closed
            break
        if not chunk:
            break
        seen += chunk
    os.close(master)
    piped = process.stdout.read().decode() if stdout_piped else ""
    status = process.wait(timeout=120)
    return status, seen.decode("utf-8", "replace"), piped


def piped(home: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CRIB3, *args], capture_output=True, text=True, timeout=120,
                          stdin=subprocess.DEVNULL, env=_env(home))


def _frames(seen: str) -> list[str]:
    """The bar's states, one a redraw, without their colours."""
    return [ESCAPES.sub("", part) for part in re.split(r"\r|\x1b\[2K", seen) if BAR in part]


def test_sim_shows_a_bar_with_the_games_the_running_share_and_the_time_left(tmp_path):
    status, seen, _ = in_terminal(tmp_path, "sim", "--games", "40", "--seed", "3", "--jobs", "1")
    assert status == 0
    frames = _frames(seen)
    assert frames, seen
    last = frames[-1]
    assert "40/40 games" in last
    assert re.search(r"easy-1 \d+%  easy-2 \d+%  easy-3 \d+%", last), last
    assert re.search(r"\d:\d\d:\d\d", last), last  # the time left
    assert any(re.search(r"\b([1-9]|[1-3]\d)/40 games", f) for f in frames)  # and on the way
    assert "40 games, seed 3" in ESCAPES.sub("", seen)  # the summary follows


def test_duplicate_shows_a_bar_with_a_running_share(tmp_path):
    status, seen, _ = in_terminal(tmp_path, "sim", "--duplicate", "standard,easy", "--games", "3",
                                  "--seed", "3", "--jobs", "1")
    assert status == 0
    last = _frames(seen)[-1]
    assert "18/18 games" in last and re.search(r"standard \d+\.\d%", last), last


def test_sim_without_a_terminal_prints_its_plain_lines_and_no_bar(tmp_path):
    result = piped(tmp_path, "sim", "--games", "40", "--seed", "3", "--jobs", "1",
                   "--progress-every", "0")
    assert result.returncode == 0
    assert BAR not in result.stderr + result.stdout and "\x1b" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines and all(re.match(r"\d+ of 40 games, ", line) for line in lines), lines
    assert result.stdout.startswith("40 games, seed 3")
    quiet = in_terminal(tmp_path, "sim", "--games", "5", "--seed", "3", "--quiet")
    assert quiet[0] == 0 and BAR not in quiet[1]


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> Path:
    """Thirty saved games and one broken file, in a data folder's games/."""
    home = tmp_path_factory.mktemp("home")
    games = home / "data" / "games"
    made = subprocess.run([*CRIB3, "sim", "--games", "30", "--seed", "5", "--log-dir", str(games),
                           "--quiet"], capture_output=True, env=_env(home), timeout=120)
    assert made.returncode == 0
    (games / "zz-broken.jsonl").write_text("not a log\n")
    return home


def test_verify_over_many_files_shows_a_bar_and_its_lines_above_it(logs):
    files = sorted(str(p) for p in (logs / "data" / "games").glob("*.jsonl"))
    status, seen, _ = in_terminal(logs, "verify", *files)
    assert status == 1  # the broken file
    frames = _frames(seen)
    assert frames and "31/31 files 30 valid, 1 not" in frames[-1], frames[-1:]
    plain = ESCAPES.sub("", seen)
    assert plain.count(": valid, ") == 30 and "zz-broken.jsonl:1: not JSON" in plain
    # stdout down a pipe while stderr is the terminal: the lines go down the
    # pipe as ever, the bar to the terminal.
    status, seen, out = in_terminal(logs, "verify", *files, stdout_piped=True)
    assert status == 1 and _frames(seen)
    assert out.count(": valid, ") == 30 and "\x1b" not in out and BAR not in out


def test_verify_without_a_terminal_is_its_plain_lines(logs):
    files = sorted(str(p) for p in (logs / "data" / "games").glob("*.jsonl"))
    result = piped(logs, "verify", *files)
    assert result.returncode == 1
    assert result.stdout.count(": valid, ") == 30 and len(result.stdout.splitlines()) == 30
    assert result.stderr.strip().splitlines() == [
        f"crib3 verify: {files[-1]}:1: not JSON (Expecting value)"]


def test_stats_over_many_games_shows_a_bar_then_the_table(logs, tmp_path):
    home = tmp_path / "home"
    (home / "data").mkdir(parents=True)
    (home / "data" / "games").symlink_to(logs / "data" / "games")
    status, seen, _ = in_terminal(home, "stats")
    assert status == 0
    frames = _frames(seen)
    assert any("31/31 games read" in f for f in frames), frames[-3:]
    assert any("20/20 recent games reviewed" in f for f in frames), frames[-3:]
    plain = ESCAPES.sub("", seen)
    assert "zz-broken.jsonl:1: not JSON (Expecting value); skipped" in plain
    assert "player" in plain and "easy-1 (easy)" in plain
    again = piped(home, "stats")  # the plain lines, no bar
    assert again.returncode == 0 and BAR not in again.stdout + again.stderr
    assert again.stdout.startswith("player") and "\x1b" not in again.stdout
