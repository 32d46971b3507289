"""Time from typing `crib3` to the first usable screen, in a real terminal,
side by side with a bare Textual app and (if installed) magmacrunch-cribbage.

Run on demand: `python -m pytest tests/benchmarks/test_startup.py --benchmark-only -s`;
with CRIB3_STARTUP_AGAINST=FOLDER, another checkout's crib3 (say main's,
`git archive main`) is launched in the same turns, for a before and after.
Each program is started in its own tmux server at 80x24 and timed until its
first screen's text is in the pane. The programs take turns (one launch
each, in a rotating order, `ROUNDS` times), so a busy moment on this shared
machine falls on all of them alike; the medians and their ratios are
printed, and so is each program's own CPU time to its first screen (read
from /proc when the text shows), which a busy machine does not stretch. The
target: crib3 within 1.1x the bare app (a Static and a
Footer) and no slower than magmacrunch-cribbage.
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
    return screen_costs(command, text, linger)[0]


def cpu_seconds(pid: int) -> float | None:
    """CPU time used so far by process `pid`, all its threads (Linux's
    schedstat, in nanoseconds); None where it cannot be read."""
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        return sum(int((task / "schedstat").read_text().split()[0]) for task in tasks) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def screen_costs(command: str, text: str, linger: float = 0.0) -> tuple[float, float | None]:
    """(wall seconds, CPU seconds of the program) from starting `command` in
    an 80x24 tmux pane until `text` shows. The CPU time is what a busy
    machine does not blur: other engineers' work stretches the wall clock,
    not the program's own work."""
    tmux = ["tmux", "-L", f"crib3-start-{uuid.uuid4().hex[:8]}"]
    # As an installed program starts: with its .pyc files (an editable
    # install under PYTHONDONTWRITEBYTECODE would compile crib3 each time).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    try:
        started = time.perf_counter()
        subprocess.run([*tmux, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                        command], check=True, env=env)
        pid = int(subprocess.run([*tmux, "display-message", "-p", "-t", "t", "#{pane_pid}"],
                                 capture_output=True, text=True, check=True).stdout)
        while text not in subprocess.run([*tmux, "capture-pane", "-p", "-t", "t"],
                                         capture_output=True, text=True).stdout:
            if time.perf_counter() - started > 20:
                raise AssertionError(f"{command!r} never showed {text!r}")
            time.sleep(0.005)
        took = time.perf_counter() - started
        cpu = cpu_seconds(pid)
        time.sleep(linger)
        return took, cpu
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


def returning_player(home: Path) -> Path:
    """A crib3 home as a player's is after a first game: the settings the
    new-game screen saved (read, and the name in them checked, at every
    start)."""
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "settings.json").write_text(
        '{"name": "Ann", "left": "standard", "right": "expert", "think": 0.6}\n')
    return home


def programs(folder: Path) -> dict[str, tuple[str, str]]:
    """name -> (command, the text of its first screen)."""
    script = folder / "bare.py"
    script.write_text(BARE_APP)
    returning_player(folder / "home")
    returning_player(folder / "home-other")
    found = {"bare": (f"{sys.executable} {script}", "three-handed cribbage"),
             "crib3": (f"env CRIB3_HOME={folder / 'home'} {crib3_command()}",
                       "three-handed cribbage")}
    other = os.environ.get("CRIB3_STARTUP_AGAINST")
    if other:  # another checkout's crib3 (its source folder), in the same turns
        entry = folder / "crib3-other"  # started as the installed script starts crib3
        entry.write_text(f"#!{sys.executable}\nimport re\nimport sys\n"
                         "from crib3.cli import main\nsys.exit(main())\n")
        entry.chmod(0o755)
        found["crib3-other"] = (f"env CRIB3_HOME={folder / 'home-other'} PYTHONPATH={other} "
                                f"{entry}", "three-handed cribbage")
    magma = Path(sys.executable).with_name("cribbage")
    if magma.exists():  # pip install magmacrunch-cribbage (same Textual)
        found["magmacrunch"] = (f"env HOME={folder / 'magma'} {magma}", "PLAY THE COMPUTER")
    return found


def launches(benchmark, runs: dict[str, tuple[str, str]], rounds: int,
             ) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Each of `runs` launched `rounds` times, in turns (after a warm-up
    launch each): the wall seconds and the CPU seconds to its first screen,
    by name."""
    times: dict[str, list[float]] = {name: [] for name in runs}
    cpu: dict[str, list[float]] = {name: [] for name in runs}
    for _name, (command, text) in runs.items():
        # Warm the file cache and the .pyc files, and let each program keep
        # what it keeps between runs (crib3: the parsed CSS, saved a second
        # after its first screen): the launches timed are a user's next start.
        time_to_screen(command, text, linger=2.0)

    def turns() -> None:
        names = list(runs)
        for turn in range(rounds):
            for name in names[turn % len(names):] + names[:turn % len(names)]:
                took, used = screen_costs(*runs[name])
                times[name].append(took)
                if used is not None:
                    cpu[name].append(used)

    benchmark.pedantic(turns, rounds=1, iterations=1)
    return times, cpu


@pytest.mark.short
def test_short_time_to_the_first_screen(benchmark, tmp_path):
    """The short version `.ci/run` runs: crib3 and the bare app, two
    launches each to their first screen; asserted only that every launch
    showed it and was measured, never a time."""
    runs = {name: run for name, run in programs(tmp_path).items() if name != "magmacrunch"}
    times, cpu = launches(benchmark, runs, 2)
    print("\nto the first screen: " + ", ".join(
        f"{n} {', '.join(f'{t:.2f}' for t in found)} s" for n, found in times.items()))
    assert all(len(found) == 2 and min(found) > 0 for found in times.values()), times


def test_time_to_the_first_screen_against_a_bare_app(benchmark, tmp_path):
    runs = programs(tmp_path)
    times, cpu = launches(benchmark, runs, ROUNDS)
    median = {name: statistics.median(found) for name, found in times.items()}
    ratio = {name: median["crib3"] / m for name, m in median.items() if name != "crib3"}
    benchmark.extra_info.update(rounds=ROUNDS, **{f"{n}_median_s": round(m, 3)
                                                  for n, m in median.items()},
                                **{f"crib3_over_{n}": round(r, 3) for n, r in ratio.items()})
    print(f"\nto the first screen at 80x24, median of {ROUNDS} interleaved launches: "
          + ", ".join(f"{n} {m:.3f} s" for n, m in median.items()))
    print("  crib3 / " + ", crib3 / ".join(f"{n}: {r:.2f}x" for n, r in ratio.items())
          + ("" if "magmacrunch" in runs else " (magmacrunch-cribbage not installed)"))
    if all(cpu.values()):
        used = {name: statistics.median(found) for name, found in cpu.items()}
        cpu_ratio = {n: used["crib3"] / u for n, u in used.items() if n != "crib3"}
        benchmark.extra_info.update(**{f"{n}_cpu_median_s": round(u, 3) for n, u in used.items()},
                                    **{f"crib3_cpu_over_{n}": round(r, 3)
                                       for n, r in cpu_ratio.items()})
        print("  CPU to the first screen: " + ", ".join(f"{n} {u:.3f} s" for n, u in used.items())
              + "; crib3 / " + ", crib3 / ".join(f"{n}: {r:.2f}x" for n, r in cpu_ratio.items()))
    print(f"  load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
