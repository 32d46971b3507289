"""How the tests start the `crib3` command the way a user does: as a
subprocess, or in a real terminal (tmux) driven by send-keys."""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest


def crib3_argv() -> list[str]:
    """The `crib3` script that pip installed beside the Python running the
    tests (in the README's venv that is `.venv/bin/crib3`, which is not on
    PATH). Not the first `crib3` on PATH: that may be another install, or a
    pyenv shim that adds its own start-up time."""
    beside = Path(sys.executable).with_name("crib3")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("crib3")
    return [found] if found else [sys.executable, "-m", "crib3"]


def crib3_command() -> str:
    """The same, as one string for a shell (tmux)."""
    return " ".join(crib3_argv())


CRIB3 = crib3_argv()


# --- as a subprocess ----------------------------------------------------------------


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`crib3 ARGS` with little of the environment: PATH, HOME, PYTHONPATH
    and VIRTUAL_ENV (so no CRIB3_HOME unless HOME leads there)."""
    return subprocess.run([*CRIB3, *args], capture_output=True, text=True, timeout=120, cwd=cwd,
                          env={"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8",
                               **{k: v for k, v in os.environ.items()
                                  if k in ("PATH", "HOME", "PYTHONPATH", "VIRTUAL_ENV")}})


def crib3(*args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    """`crib3 ARGS` in the tests' environment (with CRIB3_HOME `home` when
    given), its input closed."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    if home is not None:
        env["CRIB3_HOME"] = str(home)
    return subprocess.run([*CRIB3, *args], capture_output=True, text=True, timeout=120,
                          env=env, stdin=subprocess.DEVNULL)


def serve_says(home: Path, *args: str, lines: int = 2) -> list[str]:
    """The first `lines` lines `crib3 serve ARGS` writes to stderr (with
    CRIB3_HOME `home`); then the server is stopped."""
    server = subprocess.Popen([*CRIB3, "serve", *args], stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "CRIB3_HOME": str(home)})
    try:
        return lines_from(server.stderr, lines, what="crib3 serve's stderr")
    finally:
        server.terminate()
        server.wait(timeout=10)


def lines_from(stream: IO[Any], count: int, timeout: float = 30.0,
               what: str = "the process") -> list[str]:
    """The next `count` lines a child process writes to its pipe `stream`
    (as `readline` reads them: "" once the pipe is closed), within
    `timeout` seconds, or the test fails saying what it got: a child that
    writes less would block `readline` for good. Read a byte at a time,
    never past the last line's end: the rest stays in the pipe, for
    `communicate`."""
    fd = stream.fileno()
    give_up = time.monotonic() + timeout
    lines: list[str] = []
    line = bytearray()
    while len(lines) < count:
        left = give_up - time.monotonic()
        assert left > 0, (f"{what} wrote {len(lines)} of {count} lines in {timeout:.0f} s",
                          lines, bytes(line))
        if not select.select([fd], [], [], left)[0]:
            continue
        byte = os.read(fd, 1)
        line += byte
        if byte in (b"\n", b""):
            lines.append(line.decode("utf-8", "replace"))
            line = bytearray()
    return lines


def assert_clean_failure(result: subprocess.CompletedProcess, code: int) -> None:
    """The command failed with `code` and said why in one line, no traceback."""
    assert result.returncode == code, result
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


# --- in a real terminal -------------------------------------------------------------

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


# How often a wait looks at a terminal again: a look (tmux capture-pane) costs
# a few milliseconds, and a wait ends on average half a look after the text
# arrived, so short looks save time in every wait and check the same screens.
POLL = 0.05


class Tmux:
    """One tmux server of the test's own, with one window ("t")."""

    def __init__(self, tmp_path) -> None:
        self.socket = f"crib3-{uuid.uuid4().hex[:8]}"
        self.home = tmp_path

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=30).stdout

    def start(self, command: str, width: int = 80, height: int = 24) -> None:
        """`command` in the window; its pane stays once the command ends
        (`remain-on-exit`), so that a wait that fails shows what was last
        on the screen, not an empty one (`alive` tells the two apart)."""
        env = f"env CRIB3_HOME={self.home} TERM=xterm-256color LANG=C.UTF-8 "
        self.run("new-session", "-d", "-s", "t", "-x", str(width), "-y", str(height),
                 env + command, ";", "set-option", "-t", "t", "remain-on-exit", "on")

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "t")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", "t", *keys)

    def wait_for(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(POLL)
        ended = "" if self.alive() else f" (the command had ended: {self.how_it_ended()})"
        raise AssertionError(f"{text!r} never appeared{ended}; the screen:\n{self.screen()}")

    def alive(self) -> bool:
        """The window's command still runs."""
        return self.run("display-message", "-p", "-t", "t", "#{pane_dead}").strip() == "0"

    def how_it_ended(self) -> str:
        """The ended command's exit status, or the signal that ended it (a
        Ctrl+C that reached the process group as SIGINT says "signal 2")."""
        status, signal_number = self.run("display-message", "-p", "-t", "t",
                                         "#{pane_dead_status} #{pane_dead_signal}").split(" ", 1)
        return f"signal {signal_number.strip()}" if signal_number.strip() \
            else f"exit status {status.strip() or '?'}"

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True,
                       timeout=30)


@contextlib.contextmanager
def terminal(tmp_path: Path, command: str) -> Iterator[Tmux]:
    """`command` running in a real terminal (tmux), which prints its exit
    status when it ends; the terminal is closed afterwards."""
    tmux = Tmux(tmp_path)
    tmux.start(f"sh -c '{command}; echo EXIT=$?; sleep 60'")
    try:
        yield tmux
    finally:
        tmux.kill()


def ended(tmux: Tmux) -> tuple[int, list[str]]:
    """Once the command has ended: its exit status and what it printed."""
    return exit_status(tmux), last_lines(tmux)


def exit_status(tmux: Tmux) -> int:
    screen = tmux.wait_for("EXIT=")
    return int(screen.split("EXIT=")[1].split()[0])


def last_lines(tmux: Tmux) -> list[str]:
    """What the command printed after the screen was restored: its lines
    whole, as a person reads them (tmux joins the lines it wrapped)."""
    screen = tmux.run("capture-pane", "-p", "-J", "-t", "t")
    lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
    return lines[: lines.index(next(x for x in lines if x.startswith("EXIT=")))]
