"""What a renderer of the table's own could save a card-room key, at most
(issue 46, point 3): the key at two tables (`measure_keys`) as the room
draws it, against the same with the table's block drawn by the sketch in
`table_sketch` (one widget's rows, the parts' Textual drawing gone), and
against the block composing the lines Textual's styles cache makes of
each part (`exact`), in alternate processes (the sketch patches classes
for a whole process).

Run on demand:
`python -m pytest tests/benchmarks/test_table_sketch.py --benchmark-only -s`

Printed: the CPU a key and an event, the frames and bytes a key, of each
run, and the medians' ratio. Nothing is asserted but that both ran and
the sketch drew the block (fewer bytes a key: only its changed rows are
sent), never a time (the machine is shared); the figures and what they
mean are in assets/measurements/card-room.md. Its short version (one run
each, fewer keys) is on demand too.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

RUNS = 4  # alternate runs of each
SHORT_KEYS = 40
HERE = Path(__file__).parent

ONE_RUN = """
import asyncio, json, sys
sys.path[:0] = [{here!r}, {tests!r}]
if {sketched!r}:
    from table_sketch import sketch_the_table
    sketch_the_table(exact={sketched!r} == "exact")
import test_screen_update
channels = []
made = test_screen_update.ScreenChannel.__init__
def kept(channel):
    made(channel)
    channels.append(channel)
test_screen_update.ScreenChannel.__init__ = kept
found = asyncio.run(test_screen_update.measure_keys(keys={keys}))
print(json.dumps(dict(found, screen=channels[0].screen.text())))
"""


def _one_run(sketched: str, keys: int = 150) -> dict[str, Any]:
    """One process's `measure_keys` (and the first seat's screen at its
    end): `sketched` "" (the widgets), "sketch" or "exact"."""
    code = ONE_RUN.format(here=str(HERE), tests=str(HERE.parent), sketched=sketched, keys=keys)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _not_drawn(runs: dict[str, list[dict[str, Any]]]) -> list[str]:
    """What a run did not do, one line each (none: every run ran; the
    sketches drew the block, their keys sending fewer bytes: only the
    block's changed rows; and drew what its parts hold, a seat's screen at
    the end showing the board's holes and the game hole: a part drawn at
    no size, or from what it held before, showed nothing). Each said
    apart: a clean-clone run once failed the short version on one of
    them, and a bare False did not say which."""
    widgets = min(f["bytes"] for f in runs["widgets"])
    missing = []
    for name, found in runs.items():
        for n, f in enumerate(found):
            run = f"{name} run {n + 1}"
            if not (f["keys"] > 0 and f["writes"] > 0):
                missing.append(f"{run}: {f['keys']} keys, {f['writes']} writes")
            if name == "widgets":
                continue
            if f["bytes"] >= widgets:
                missing.append(f"{run}: {f['bytes']} bytes a key, the widgets' fewest "
                               f"{widgets}")
            for mark, what in (("·····", "the board's holes"), ("◎", "the game hole")):
                if mark not in f["screen"]:
                    missing.append(f"{run}: a seat's last screen without {what}")
    return missing


def _assert_drawn(runs: dict[str, list[dict[str, Any]]]) -> None:
    missing = _not_drawn(runs)
    assert not missing, (missing, {name: [{k: v for k, v in f.items() if k != "screen"}
                                          for f in found] for name, found in runs.items()})


def test_the_table_sketch_runs(benchmark):
    """The short version: one run each, `SHORT_KEYS` keys. (Not in `.ci/run`:
    it failed there once, its cause not yet read; see the measurements.)"""
    runs: dict[str, list[dict[str, Any]]] = {}
    benchmark.pedantic(lambda: runs.update(widgets=[_one_run("", SHORT_KEYS)],
                                           sketch=[_one_run("sketch", SHORT_KEYS)],
                                           exact=[_one_run("exact", SHORT_KEYS)]),
                       rounds=1, iterations=1)
    _assert_drawn(runs)


def test_a_table_drawn_as_one_widget_against_its_widgets(benchmark):
    runs: dict[str, list[dict[str, Any]]] = {"widgets": [], "sketch": [], "exact": []}

    def measure() -> None:
        for _ in range(RUNS):
            for name in runs:
                runs[name].append(_one_run("" if name == "widgets" else name))

    benchmark.pedantic(measure, rounds=1, iterations=1)
    medians = {}
    print()
    for name, found in runs.items():
        keys = [f["cpu_ms"] for f in found]
        events = [f["cpu_ms"] * f["keys"] / f["events"] for f in found]
        medians[name] = (_median(keys), _median(events))
        print(f"{name:8s} CPU a key " + ", ".join(f"{ms:.1f}" for ms in keys)
              + f" ms (median {medians[name][0]:.1f}); an event "
              + ", ".join(f"{ms:.1f}" for ms in events)
              + f" (median {medians[name][1]:.1f}); frames a key "
              + ", ".join(f"{f['frames']:.2f}" for f in found) + "; bytes a key "
              + ", ".join(f"{f['bytes'] / 1000:.1f} K" for f in found))
    for name in ("sketch", "exact"):
        key_ratio = medians[name][0] / medians["widgets"][0]
        event_ratio = medians[name][1] / medians["widgets"][1]
        print(f"{name} against the widgets: {key_ratio:.2f} a key, {event_ratio:.2f} an event")
        benchmark.extra_info.update({f"{name}_key_ratio": round(key_ratio, 3),
                                     f"{name}_event_ratio": round(event_ratio, 3)})
    _assert_drawn(runs)
