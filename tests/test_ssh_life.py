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

from test_ssh_e2e import Terminals, free_port, ssh, start_serving

pytestmark = [pytest.mark.slow]

NAMES = ("ann", "bob")


@pytest.fixture
def keys(tmp_path) -> tuple[dict[str, Path], Path]:
    """A key for ann and one for bob, both in an authorized-keys file."""
    made = {}
    for name in NAMES:
        key = tmp_path / f"id_{name}"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name,
                        "-f", str(key)], check=True)
        made[name] = key
    authorized = tmp_path / "authorized_keys"
    authorized.write_text("".join(Path(f"{k}.pub").read_text() for k in made.values()))
    return made, authorized


@pytest.fixture
def terminals():
    opened = Terminals()
    yield opened
    opened.close()


def login(port: int, name: str, key: Path) -> str:
    """OpenSSH, then (when it ends) its exit status and a shell's prompt."""
    return f"{ssh(port, name, key)}; echo rc=$?; PS1='prompt> ' sh -i"


def flat(screen: str) -> str:
    """A screen's words on one line: a toast wraps its text over a few rows,
    inside a border; this puts the words back together."""
    return " ".join(screen.replace("▌", " ").replace("▐", " ").split())


def wait_for_words(terminals: Terminals, name: str, words: str, timeout: float = 20) -> None:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if words in flat(terminals.screen(name)):
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


def test_on_sigint_every_player_is_told_and_gets_their_terminal_back(tmp_path, keys,
                                                                     terminals):
    made, authorized = keys
    port = free_port()
    server = start_serving(tmp_path, "--port", str(port), "--authorized-keys", str(authorized))
    try:
        for name in NAMES:
            terminals.open(name, login(port, name, made[name]))
        open_and_start(terminals)
        server.send_signal(signal.SIGINT)
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
    assert log.strip().splitlines()[-1] == "crib3 serve: stopping; every table is saved"
    tables = tmp_path / "home" / "data" / "tables"
    assert json.loads((tables / "table-1.json").read_text())["status"] == "open"
    # The next start picks the game up.
    again = start_serving(tmp_path, "--port", str(port), "--authorized-keys", str(authorized))
    try:
        assert "1 table resumed" in (tmp_path / "serve.log").read_text()
    finally:
        stop(again, tmp_path)
