"""Time from typing `crib3` to the first usable screen, in a real terminal.

Run on demand: `python -m pytest tests/benchmarks/test_startup.py --benchmark-only -s`.
The Textual cribbage program we compared with takes about 0.25 s to its title
on this machine; crib3 should be faster.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid

import pytest

from commands import crib3_command

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")


def _time_to_screen(home, text: str = "three-handed cribbage") -> float:
    socket = f"crib3-start-{uuid.uuid4().hex[:8]}"
    command = crib3_command()
    tmux = ["tmux", "-L", socket]
    try:
        started = time.perf_counter()
        subprocess.run([*tmux, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                        f"env CRIB3_HOME={home} {command}"], check=True)
        while True:
            screen = subprocess.run([*tmux, "capture-pane", "-p", "-t", "t"],
                                    capture_output=True, text=True).stdout
            if text in screen:
                return time.perf_counter() - started
            if time.perf_counter() - started > 20:
                raise AssertionError("the new-game screen never appeared")
            time.sleep(0.005)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


def test_time_to_the_new_game_screen(benchmark, tmp_path):
    _time_to_screen(tmp_path)  # warm the file cache and the .pyc files
    times = []
    benchmark.pedantic(lambda: times.append(_time_to_screen(tmp_path)), rounds=7,
                       iterations=1)
    times.sort()
    benchmark.extra_info.update(median_s=round(times[len(times) // 2], 3),
                                best_s=round(times[0], 3))
    print(f"\ncrib3 to the new-game screen: median {times[len(times) // 2]:.3f} s, "
          f"best {times[0]:.3f} s")


BARE_APP = '''
from textual.app import App
from textual.widgets import Footer, Static


class Bare(App):
    def compose(self):
        yield Static("three-handed cribbage")
        yield Footer()


Bare().run()
'''


def test_time_to_a_bare_textual_screen_for_comparison(benchmark, tmp_path):
    """The floor on this machine: a Textual app with one line of text and a
    footer, timed the same way. crib3's first screen is measured against it."""
    script = tmp_path / "bare.py"
    script.write_text(BARE_APP)
    command = f"{sys.executable} {script}"
    times = []

    def once() -> None:
        socket = f"crib3-bare-{uuid.uuid4().hex[:8]}"
        tmux = ["tmux", "-L", socket]
        try:
            started = time.perf_counter()
            subprocess.run([*tmux, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                            command], check=True)
            while "three-handed cribbage" not in subprocess.run(
                    [*tmux, "capture-pane", "-p", "-t", "t"], capture_output=True,
                    text=True).stdout:
                if time.perf_counter() - started > 20:
                    raise AssertionError("the bare app never drew")
                time.sleep(0.005)
            times.append(time.perf_counter() - started)
        finally:
            subprocess.run([*tmux, "kill-server"], capture_output=True)

    once()
    times.clear()
    benchmark.pedantic(once, rounds=7, iterations=1)
    times.sort()
    benchmark.extra_info.update(median_s=round(times[len(times) // 2], 3),
                                best_s=round(times[0], 3))
    print(f"\nbare Textual app to its screen: median {times[len(times) // 2]:.3f} s, "
          f"best {times[0]:.3f} s")
