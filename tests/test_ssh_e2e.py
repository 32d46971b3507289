"""`crib3 serve` with the real OpenSSH client, three players in three tmux
terminals, by key presses alone."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from crib3.cards import parse_card

pytestmark = [
    pytest.mark.skipif(shutil.which("tmux") is None or shutil.which("ssh") is None
                       or shutil.which("ssh-keygen") is None,
                       reason="needs tmux and the OpenSSH client"),
    pytest.mark.slow,
]

NAMES = ("ann", "bob", "cat")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
            time.sleep(0.15)
        raise AssertionError(f"{name}: {text!r} never appeared; the screen:\n"
                             f"{self.screen(name)}")

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def start_serving(tmp_path: Path, *args: str) -> subprocess.Popen:
    """`crib3 serve ARGS --think 0.05` in its own process, its stderr in
    tmp_path/serve.log, once it says it is listening."""
    with open(tmp_path / "serve.log", "w") as errors:  # the server keeps its own copy
        server = subprocess.Popen(
            [sys.executable, "-c", "from crib3.cli import main; raise SystemExit(main())",
             "serve", *args, "--think", "0.05"],
            env={**os.environ, "CRIB3_HOME": str(tmp_path / "home")}, stderr=errors)
    deadline = time.monotonic() + 20
    while "listening on" not in (tmp_path / "serve.log").read_text():
        assert server.poll() is None and time.monotonic() < deadline, \
            (tmp_path / "serve.log").read_text()
        time.sleep(0.1)
    return server


@pytest.fixture
def card_room(tmp_path, room_workers):
    """`crib3 serve` on a free port with three players' keys authorized."""
    keys = {}
    for name in NAMES:
        key = tmp_path / f"id_{name}"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name,
                        "-f", str(key)], check=True)
        keys[name] = key
    authorized = tmp_path / "authorized_keys"
    authorized.write_text("".join(Path(f"{k}.pub").read_text() for k in keys.values()))
    port = free_port()
    server = start_serving(tmp_path, "--port", str(port), "--authorized-keys", str(authorized),
                           "--workers", str(room_workers))
    terminals = Terminals()
    try:
        yield port, keys, terminals, tmp_path
    finally:
        terminals.close()
        server.terminate()
        server.wait(timeout=10)
    log = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in log, log


def ssh(port: int, name: str, key: Path | None) -> str:
    identity = f"-i {key} -o IdentitiesOnly=yes" if key else \
        "-o PubkeyAuthentication=no -o IdentitiesOnly=yes"
    return (f"ssh -t {identity} -o BatchMode=yes -o StrictHostKeyChecking=no "
            f"-o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p {port} {name}@127.0.0.1")


def test_three_openssh_clients_sit_at_one_table_and_play_a_hand(card_room):
    port, keys, terminals, home = card_room
    for name in NAMES:
        terminals.open(name, ssh(port, name, keys[name]))
    terminals.wait_for("ann", "Open a table")
    terminals.keys("ann", "o")
    terminals.wait_for("ann", "Second seat")
    terminals.keys("ann", "Enter")
    terminals.wait_for("ann", "Seat 1  ann  owner  (you)")
    for name in ("bob", "cat"):
        terminals.wait_for(name, "waiting")  # the table, in their lobby
        terminals.keys(name, "Enter")
        terminals.wait_for(name, "Waiting for ann to start")
    terminals.wait_for("ann", "Seat 3  cat")
    terminals.keys("ann", "Enter")

    for name in NAMES:  # the cut for the deal, on every screen
        terminals.wait_for(name, "deals first")
        terminals.keys(name, "Enter")
    screens = {name: terminals.wait_for(name, "Throw one card") for name in NAMES}

    log = home / "home" / "data" / "tables" / "table-1.jsonl"
    events = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    dealt = next(e for e in events if e["type"] == "CardsDealt")
    players = next(e for e in events if e["type"] == "GameStarted")["players"]
    seat_of = {p["name"]: i for i, p in enumerate(players)}
    for name, screen in screens.items():
        mine = [parse_card(c) for c in dealt["hands"][seat_of[name]]]
        others = [parse_card(c) for i, hand in enumerate(dealt["hands"])
                  if i != seat_of[name] for c in hand]
        for card in mine:  # each screen shows its own hand...
            assert card.label() in screen, (name, card, screen)
        for card in others:  # ...and nobody else's
            assert card.label() not in screen, (name, card, screen)

    # Play the hand to its end by key presses: Enter throws, cuts, plays the
    # highlighted card and steps through the show.
    deadline = time.monotonic() + 90
    while '"HandEnded"' not in log.read_text():
        assert time.monotonic() < deadline, {n: terminals.screen(n) for n in NAMES}
        for name in NAMES:
            terminals.keys(name, "Enter")
        time.sleep(0.25)
    for name in NAMES:  # every screen goes through the show to the next deal
        deadline = time.monotonic() + 60
        while "Hand 2" not in terminals.screen(name):
            assert time.monotonic() < deadline, terminals.screen(name)
            terminals.keys(name, "Enter")
            time.sleep(0.3)


def test_without_an_authorized_key_nobody_gets_in(card_room):
    port, keys, terminals, home = card_room
    result = subprocess.run(ssh(port, "eve", None).replace("ssh -t", "ssh -T").split(),
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 255 and "Permission denied" in result.stderr
    stranger = home / "id_eve"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(stranger)],
                   check=True)
    result = subprocess.run(ssh(port, "eve", stranger).replace("ssh -t", "ssh -T").split(),
                            capture_output=True, text=True, timeout=30)
    assert result.returncode == 255 and "Permission denied" in result.stderr
