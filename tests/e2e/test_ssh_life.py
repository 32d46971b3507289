"""The card room's tables never strand, and the server says goodbye
(issue 11 points 5 and 7), with the real OpenSSH client in tmux terminals
and `crib3 serve` in its own process: tiny --patience and --idle-close
values keep each test to a few seconds."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest
from commands import lines_from
from ssh_support import Terminals, free_port, openssh_keys, ssh, start_serving

pytestmark = [pytest.mark.slow]

NAMES = ("ann", "bob")


@pytest.fixture
def keys(tmp_path) -> tuple[dict[str, Path], Path]:
    """A key for ann and one for bob, both in an authorized-keys file."""
    return openssh_keys(tmp_path, NAMES)


@pytest.fixture
def terminals():
    opened = Terminals()
    yield opened
    opened.close()


def login(port: int, name: str, key: Path) -> str:
    """OpenSSH, then (when it ends) its exit status and a shell's prompt."""
    return f"{ssh(port, name, key)}; echo rc=$?; PS1='prompt> ' sh -i"


def toasts(screen: str) -> str:
    """The words of the toasts on a screen, on one line: a toast wraps its
    text over a few rows, right of its border (▌), beside whatever else is
    on those rows (and before a box's right edge); this puts its words
    back together."""
    return " ".join(word for line in screen.splitlines() if "▌" in line
                    for word in line.rsplit("▌", 1)[1].split()
                    if not set(word) <= _BEHIND_A_TOAST)


# What the table draws right of a toast (a box's edge, the board's holes).
_BEHIND_A_TOAST = set("│─╮╯╭╰┃━┓┛·◎●")


def wait_for_words(terminals: Terminals, name: str, words: str, timeout: float = 20) -> None:
    """Wait until a toast on `name`'s screen says `words`."""
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if words in toasts(terminals.screen(name)):
            return
        time.sleep(0.15)
    raise AssertionError(f"{name}: {words!r} never appeared; the screen:\n"
                         f"{terminals.screen(name)}")


def stop(server: subprocess.Popen, tmp_path: Path) -> str:
    if server.poll() is None:
        server.terminate()
        server.wait(timeout=15)
    log = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in log, log
    return log


def open_and_start(terminals: Terminals) -> None:
    """ann opens a table, bob sits at it, ann starts the game."""
    terminals.wait_for("ann", "Open a table")
    terminals.keys("ann", "o")
    terminals.wait_for("ann", "Second seat")
    terminals.keys("ann", "Enter")
    terminals.wait_for("ann", "Seat 1  ann  owner  (you)")
    terminals.wait_for("bob", "waiting")
    terminals.keys("bob", "Enter")
    terminals.wait_for("bob", "Waiting for ann to start")
    terminals.wait_for("ann", "Seat 2  bob")
    terminals.keys("ann", "Enter")
    for name in NAMES:
        terminals.wait_for(name, "deals first")


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["INT", "TERM"])
def test_on_sigint_every_player_is_told_and_gets_their_terminal_back(tmp_path, keys,
                                                                     terminals, signum,
                                                                     room_workers):
    made, authorized = keys
    port = free_port()
    server = start_serving(tmp_path, "--port", str(port), "--authorized-keys", str(authorized),
                           "--workers", str(room_workers))
    try:
        for name in NAMES:
            terminals.open(name, login(port, name, made[name]))
        open_and_start(terminals)
        server.send_signal(signum)
        assert server.wait(timeout=20) == 0
        for name in NAMES:
            screen = terminals.wait_for(name, "prompt>")
            said = [line for line in screen.splitlines() if line.startswith("crib3:")]
            assert said == ["crib3: the card room is closing; your table is saved"], screen
            assert "rc=0" in screen
            # The terminal is as it was: main screen, cursor shown, no mouse reports.
            state = terminals.run("display-message", "-p", "-t", name,
                                  "#{alternate_on} #{cursor_flag} #{mouse_any_flag} "
                                  "#{mouse_standard_flag} #{mouse_sgr_flag}").split()
            assert state == ["0", "1", "0", "0", "0"], (name, state)
    finally:
        log = stop(server, tmp_path)
    assert log.strip().splitlines()[-1].endswith(
        " crib3.serve.console: crib3 serve: stopping; every table is saved")
    tables = tmp_path / "home" / "data" / "tables"
    assert json.loads((tables / "table-1.json").read_text())["status"] == "open"
    # The next start picks the game up.
    again = start_serving(tmp_path, "--port", str(port), "--authorized-keys", str(authorized))
    try:
        assert "1 table resumed" in (tmp_path / "serve.log").read_text()
    finally:
        stop(again, tmp_path)


def wait_until_gone(terminals: Terminals, name: str, text: str, timeout: float = 20) -> str:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        screen = terminals.screen(name)
        if text not in screen:
            return screen
        time.sleep(0.15)
    raise AssertionError(f"{name}: {text!r} never went; the screen:\n{terminals.screen(name)}")


def test_a_table_passes_on_waits_and_is_shelved_and_one_key_is_limited(tmp_path, keys,
                                                                       terminals):
    made, authorized = keys
    port = free_port()
    server = start_serving(tmp_path, "--port", str(port), "--authorized-keys", str(authorized),
                           "--patience", "1", "--idle-close", "2", "--tables-per-key", "1",
                           "--names-per-key", "2")
    tables = tmp_path / "home" / "data" / "tables"
    try:
        for name in NAMES:
            terminals.open(name, login(port, name, made[name]))
        open_and_start(terminals)
        # The owner's connection goes: bob owns the table, and is told.
        terminals.run("kill-session", "-t", "ann")
        wait_for_words(terminals, "bob", "ann left: you own table 1 now (x closes it for "
                                         "everyone).")
        # After --patience, bob (not the owner when ann left) is told he may seat a bot.
        wait_for_words(terminals, "bob", "ann has been away a while: anyone at the table may "
                                         "press b")
        terminals.keys("bob", "b")
        wait_for_words(terminals, "bob", "computer player now plays for ann")

        # One key: as many names and tables as the room allows, and one line beyond.
        terminals.open("ann", login(port, "ann", made["ann"]))
        terminals.wait_for("ann", "Open a table")
        terminals.keys("ann", "o")
        terminals.wait_for("ann", "Second seat")
        terminals.keys("ann", "Enter")
        terminals.wait_for("ann", "Seat 1  ann  owner  (you)")
        terminals.open("ann2", login(port, "ann2", made["ann"]))
        terminals.wait_for("ann2", "Open a table")
        terminals.keys("ann2", "o")
        terminals.wait_for("ann2", "Second seat")
        terminals.keys("ann2", "Enter")
        wait_for_words(terminals, "ann2", "you own 1 open table already, the most this room "
                                          "allows")
        terminals.open("ann3", login(port, "ann3", made["ann"]))
        screen = terminals.wait_for("ann3", "prompt>")
        said = [line for line in screen.splitlines() if line.strip()]
        assert said[0] == "crib3: your key has 2 names signed in already, the most here at once"
        assert said[1] == "rc=1", screen

        # bob leaves the table: nobody is at it, and after --idle-close it
        # leaves the lobby, saved.
        terminals.keys("bob", "l")
        row = "   1      ann (standard), bob (away)"  # (toasts may cover its right)
        terminals.wait_for("bob", row)  # in the lobby, his table still listed
        screen = wait_until_gone(terminals, "bob", row)
        assert "   2      ann, · free ·" in screen  # ann's table 2 stays: only table 1 went
        assert json.loads((tables / "table-1.json").read_text())["status"] == "shelved"
        # bob comes back: his table comes back with him, where it stood.
        terminals.run("kill-session", "-t", "bob")
        terminals.open("bob", login(port, "bob", made["bob"]))
        terminals.wait_for("bob", "x Close")  # at his table, and its owner
        assert json.loads((tables / "table-1.json").read_text())["status"] == "open"
    finally:
        log = stop(server, tmp_path)
    assert "table 1: nobody there for 2s; shelved" in log


async def test_the_farewell_after_the_terminal_is_put_back_and_table_only_if_playing(tmp_path):
    """Headless: someone in the lobby, and someone waiting at a table that
    never started (it is not kept), hear only that the room is closing;
    each after the sequence that puts their terminal back."""
    from ssh_support import Client, serving

    from crib3.net.driver import STOP

    async with serving(tmp_path) as server:
        ann, bob = [await Client.connect(server.port, name) for name in ("ann", "bob")]
        await ann.shows("Also here: bob.")
        ann.press("o")
        await ann.shows("Second seat")
        ann.press("\r")
        await ann.shows("start the game")
        await server.stop()
        for client in (ann, bob):
            said = bytes(client.terminal.received).decode()
            assert said.endswith(STOP + "crib3: the card room is closing\r\n"), said[-200:]
            assert client.chan.get_exit_status() == 0


def test_a_player_is_told_even_when_the_servers_own_console_is_gone(tmp_path, keys,
                                                                      terminals):
    """`crib3 serve 2>&1 | tee serve.log`, then Ctrl-C: the shell's SIGINT
    ends tee too, so the server's own farewell line meets a closed pipe.
    That must not cost the players theirs (it did: the server died on the
    broken pipe, and each player's terminal was left on the table's
    screen, in the alternate screen, with no line)."""
    import os
    import sys
    import time

    made, authorized = keys
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "from crib3.cli import main; raise SystemExit(main())",
         "serve", "--port", str(port), "--authorized-keys", str(authorized), "--think", "0.05"],
        env={**os.environ, "CRIB3_HOME": str(tmp_path / "home")}, stderr=subprocess.PIPE)
    try:
        seen = ""
        deadline = time.monotonic() + 20
        while "listening on" not in seen:
            assert time.monotonic() < deadline, seen
            seen += lines_from(server.stderr, 1, max(0.1, deadline - time.monotonic()),
                               f"crib3 serve's stderr (so far {seen!r})")[0]
        terminals.open("ann", login(port, "ann", made["ann"]))
        terminals.wait_for("ann", "Open a table")
        server.stderr.close()  # tee is gone
        server.send_signal(signal.SIGINT)
        screen = terminals.wait_for("ann", "prompt>")
        said = [line for line in screen.splitlines() if line.startswith("crib3:")]
        assert said == ["crib3: the card room is closing"], screen
        assert "rc=0" in screen
        state = terminals.run("display-message", "-p", "-t", "ann", "#{alternate_on}").split()
        assert state == ["0"], state
        assert server.wait(timeout=20) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
