"""Time from typing `crib3` to the first usable screen, in a real terminal,
side by side with a bare Textual app and (if installed) magmacrunch-cribbage.

Run on demand: `python -m pytest tests/benchmarks/test_startup.py --benchmark-only -s`.
Each program is started in its own tmux server at 80x24 and timed until its
first screen's text is in the pane. The programs take turns (one launch
each, in a rotating order, `ROUNDS` times), so a busy moment on this shared
machine falls on all of them alike; the medians and their ratios are
printed. The target (issue 12, point 18): crib3 within 1.1x the bare app
(a Static and a Footer) and no slower than magmacrunch-cribbage.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from commands import crib3_command

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

ROUNDS = int(os.environ.get("CRIB3_STARTUP_ROUNDS", "11"))  # launches of each (>= 9)

BARE_APP = '''
from textual.app import App
from textual.widgets import Footer, Static


class Bare(App):
    def compose(self):
        yield Static("three-handed cribbage")
        yield Footer()


Bare().run()
'''


def time_to_screen(command: str, text: str, linger: float = 0.0) -> float:
    """Seconds from starting `command` in an 80x24 tmux pane until `text`
    shows (the program is then left running `linger` seconds more)."""
    tmux = ["tmux", "-L", f"crib3-start-{uuid.uuid4().hex[:8]}"]
    # As an installed program starts: with its .pyc files (an editable
    # install under PYTHONDONTWRITEBYTECODE would compile crib3 each time).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    try:
        started = time.perf_counter()
        subprocess.run([*tmux, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                        command], check=True, env=env)
        while text not in subprocess.run([*tmux, "capture-pane", "-p", "-t", "t"],
                                         capture_output=True, text=True).stdout:
            if time.perf_counter() - started > 20:
                raise AssertionError(f"{command!r} never showed {text!r}")
            time.sleep(0.005)
        took = time.perf_counter() - started
        time.sleep(linger)
        return took
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


def programs(folder: Path) -> dict[str, tuple[str, str]]:
    """name -> (command, the text of its first screen)."""
    script = folder / "bare.py"
    script.write_text(BARE_APP)
    found = {"bare": (f"{sys.executable} {script}", "three-handed cribbage"),
             "crib3": (f"env CRIB3_HOME={folder / 'home'} {crib3_command()}",
                       "three-handed cribbage")}
    magma = Path(sys.executable).with_name("cribbage")
    if magma.exists():  # pip install magmacrunch-cribbage (same Textual)
        found["magmacrunch"] = (f"env HOME={folder / 'magma'} {magma}", "PLAY THE COMPUTER")
    return found


def test_time_to_the_first_screen_against_a_bare_app(benchmark, tmp_path):
    runs = programs(tmp_path)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for name, (command, text) in runs.items():
        # Warm the file cache and the .pyc files, and let each program keep
        # what it keeps between runs (crib3: the parsed CSS, saved a second
        # after its first screen): the launches timed are a user's next start.
        time_to_screen(command, text, linger=2.0)

    def rounds() -> None:
        names = list(runs)
        for turn in range(ROUNDS):
            for name in names[turn % len(names):] + names[:turn % len(names)]:
                times[name].append(time_to_screen(*runs[name]))

    benchmark.pedantic(rounds, rounds=1, iterations=1)
    median = {name: statistics.median(found) for name, found in times.items()}
    ratio = {name: median["crib3"] / m for name, m in median.items() if name != "crib3"}
    benchmark.extra_info.update(rounds=ROUNDS, **{f"{n}_median_s": round(m, 3)
                                                  for n, m in median.items()},
                                **{f"crib3_over_{n}": round(r, 3) for n, r in ratio.items()})
    print(f"\nto the first screen at 80x24, median of {ROUNDS} interleaved launches: "
          + ", ".join(f"{n} {m:.3f} s" for n, m in median.items()))
    print("  crib3 / " + ", crib3 / ".join(f"{n}: {r:.2f}x" for n, r in ratio.items())
          + ("" if "magmacrunch" in runs else " (magmacrunch-cribbage not installed)"))
