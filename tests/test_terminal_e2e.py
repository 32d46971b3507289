"""The real `crib3` command in a real terminal (tmux), played by send-keys."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid

import pytest

from commands import crib3_command

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


class Tmux:
    def __init__(self, tmp_path) -> None:
        self.socket = f"crib3-{uuid.uuid4().hex[:8]}"
        self.home = tmp_path

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True,
                              text=True, timeout=30).stdout

    def start(self, command: str) -> None:
        env = f"env CRIB3_HOME={self.home} TERM=xterm-256color LANG=C.UTF-8 "
        self.run("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", env + command)

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
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared; the screen:\n{self.screen()}")

    def alive(self) -> bool:
        return subprocess.run(["tmux", "-L", self.socket, "has-session", "-t", "t"],
                              capture_output=True).returncode == 0

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def tmux(tmp_path):
    t = Tmux(tmp_path)
    yield t
    t.kill()


def test_play_a_hand_in_a_real_terminal(tmux):
    tmux.start(f"{crib3_command()} play --seed 3 --name Ann --players easy,standard "
               "--think 0.05; sleep 5")
    screen = tmux.wait_for("deals first")
    assert "Go on" in screen
    tmux.keys("Enter")
    screen = tmux.wait_for("Throw one card")
    assert "┌───┐" in screen and "Ann" in screen
    tmux.keys("2", "Enter")
    for _ in range(60):                      # play on until it is our turn in the play
        screen = tmux.screen()
        if "Your play" in screen:
            break
        if "Enter: cut" in screen or "Enter: go on" in screen:
            tmux.keys("Enter")
        time.sleep(0.3)
    else:
        raise AssertionError("never our turn to play:\n" + tmux.screen())
    tmux.keys("Enter")
    log = tmux.home / "data" / "games"
    deadline = time.monotonic() + 20             # the autosave has our card at once
    while time.monotonic() < deadline:
        saved = list(log.glob("*.jsonl"))
        if saved and '"CardPlayed", "seat": 0' in saved[0].read_text():
            break
        time.sleep(0.1)
    else:
        raise AssertionError("our play never reached the saved game")
    tmux.keys("q")
    tmux.wait_for("Quit this game?")
    tmux.keys("y")
    deadline = time.monotonic() + 10
    while "Quit this game?" in tmux.screen() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert "Traceback" not in tmux.screen()
    saved = list((tmux.home / "data" / "games").glob("*.jsonl"))
    assert len(saved) == 1
    text = saved[0].read_text()
    assert '"type": "CardDiscarded", "seat": 0' in text and '"CardPlayed", "seat": 0' in text


def test_play_without_a_terminal_says_so():
    result = subprocess.run([*crib3_command().split(), "play", "--seed", "1"],
                            capture_output=True, text=True, stdin=subprocess.DEVNULL,
                            timeout=60, env={**os.environ, "CRIB3_HOME": "/nonexistent"})
    assert result.returncode == 1 and "needs a full-screen terminal" in result.stderr
    assert "Traceback" not in result.stderr
