"""The terminal's locale decides ASCII mode, and a screen needs a terminal:
the rules (crib3/common/terminal.py), and the real command under each locale."""

from __future__ import annotations

import io
import os
import re
import subprocess
import time

import pytest
from commands import POLL, Tmux, crib3_argv, crib3_command, needs_tmux

from crib3.common.terminal import full_screen_problem, is_utf8_locale, locale_name, speaks_utf8


def test_locale_precedence_is_posix():
    assert locale_name({"LC_ALL": "C", "LC_CTYPE": "en_GB.UTF-8", "LANG": "en_GB.UTF-8"}) == "C"
    assert locale_name({"LC_CTYPE": "C.UTF-8", "LANG": "C"}) == "C.UTF-8"
    assert locale_name({"LC_ALL": "", "LC_CTYPE": "", "LANG": "de_DE.utf8"}) == "de_DE.utf8"
    assert locale_name({"LC_MESSAGES": "en_GB.UTF-8"}) is None  # not about characters


@pytest.mark.parametrize("name,utf8", [
    ("en_GB.UTF-8", True), ("C.utf8", True), ("de_DE.utf8@euro", True), ("UTF-8", True),
    ("C", False), ("POSIX", False), ("en_US.ISO-8859-1", False), ("en_US", False),
    ("ru_RU.KOI8-R", False), ("", False), (None, False),
])
def test_which_locales_speak_utf8(name, utf8):
    assert is_utf8_locale(name) is utf8


def test_no_locale_is_the_c_locale_unless_told_otherwise():
    assert not speaks_utf8({})
    assert speaks_utf8({}, unset=True)  # an SSH client that sent none
    assert not speaks_utf8({"LANG": "C"}, unset=True)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_full_screen_needs_ttys_and_a_term():
    tty = _Tty()
    assert full_screen_problem({"TERM": "xterm"}, tty, tty, tty) is None
    assert full_screen_problem({"TERM": "xterm"}, io.StringIO(), tty, tty) == \
        "stdin is not a terminal"
    assert full_screen_problem({"TERM": "xterm"}, tty, io.StringIO(), tty) == \
        "stdout is not a terminal"
    assert full_screen_problem({"TERM": "dumb"}, tty, tty, tty) == "TERM is dumb"
    assert full_screen_problem({}, tty, tty, tty) == "TERM is not set"


def _run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """crib3 as a shell with this locale starts it (only PATH and HOME kept)."""
    base = {k: os.environ[k] for k in ("PATH", "HOME") if k in os.environ}
    return subprocess.run([*crib3_argv(), *args], capture_output=True, timeout=120,
                          env={**base, **env}, stdin=subprocess.DEVNULL, text=True,
                          encoding="utf-8", errors="replace")


@pytest.mark.parametrize("env", [
    {"LANG": "C"}, {}, {"LC_ALL": "POSIX", "LANG": "en_GB.UTF-8"},
    {"LC_ALL": "en_US.ISO-8859-1"}, {"LANG": "C", "PYTHONUTF8": "1"},
], ids=["LANG=C", "no-locale", "LC_ALL=POSIX", "latin-1", "python-utf8-mode"])
def test_a_locale_that_is_not_utf8_gets_letters(env):
    """Python writes UTF-8 under LANG=C (its UTF-8 mode), but the terminal
    shows the C locale's bytes: the suits must be letters."""
    result = _run("score", "5H", "5C", "5S", "JD", "5D", **env)
    assert result.returncode == 0, result.stderr
    assert result.stdout.isascii() and "5H 5C 5S JD with 5D" in result.stdout


@pytest.mark.parametrize("env", [
    {"LANG": "en_GB.UTF-8"}, {"LC_ALL": "", "LC_CTYPE": "C.UTF-8", "LANG": "C"},
])
def test_a_utf8_locale_gets_the_suit_symbols(env):
    result = _run("score", "5H", "5C", "5S", "JD", "5D", **env)
    assert result.returncode == 0 and "5♥ 5♣ 5♠ J♦ with 5♦" in result.stdout


@pytest.mark.parametrize("args", [[], ["play", "--seed", "1"], ["resume"], ["replay", "LOG"]],
                         ids=["default", "play", "resume", "replay"])
@pytest.mark.parametrize("term", ["xterm-256color", "dumb"])
def test_no_terminal_gets_one_line_and_exit_1(args, term, tmp_path):
    from games import random_game

    from crib3.engine.log import write_log

    game = random_game(3, ("human", "easy", "easy"))
    log = tmp_path / "data" / "games" / "2026-01-01-100000-000000.jsonl"
    log.parent.mkdir(parents=True)
    write_log(log, game.events[:120])
    args = [str(log) if a == "LOG" else a for a in args]
    if args[:1] == ["resume"]:
        args.append(str(log))
    result = _run(*args, TERM=term, LANG="C.UTF-8", CRIB3_HOME=str(tmp_path))
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    assert (len(lines) == 1
            and re.match(r"crib3 \w+: needs a full-screen terminal \(", lines[0])), lines
    assert "\x1b" not in result.stdout + result.stderr and result.stdout == ""


@needs_tmux
@pytest.mark.parametrize("term", ["TERM=dumb", "-u TERM"])
def test_a_dumb_terminal_gets_one_line_not_escape_codes(term, tmp_path):
    """In a real terminal (a tmux pane) with TERM=dumb or no TERM: the line,
    exit 1, and the pane shows nothing else (no alternate screen, no codes)."""
    tmux = Tmux(tmp_path)  # its own run(): the command below sets TERM itself
    try:
        done = tmp_path / "status"
        tmux.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                 f"env {term} LANG=C.UTF-8 CRIB3_HOME={tmp_path} {crib3_command()} play "
                 f"--seed 1; echo $? > {done}; sleep 30")
        deadline = time.monotonic() + 60
        # (The shell makes the file before `echo` writes the status into it:
        # wait for the status, not for the file.)
        while not (done.exists() and done.read_text().strip()) \
                and time.monotonic() < deadline:
            time.sleep(POLL)
        assert done.read_text().strip() == "1"
        screen = [line for line in tmux.run("capture-pane", "-p", "-J", "-t", "t").splitlines()
                  if line.strip()]
        assert (len(screen) == 1
                and screen[0].startswith("crib3 play: needs a full-screen terminal ("))
        assert "[?" not in screen[0]
    finally:
        tmux.kill()
