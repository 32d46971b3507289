"""What a renderer of the table's own could save a card-room key, at most
(issue 46, point 3): the key at two tables (`measure_keys`) as the room
draws it, against the same with the table's block drawn by the sketch in
`table_sketch` (one widget's rows, the parts' Textual drawing gone), in
alternate processes (the sketch patches classes for a whole process).

Run on demand:
`python -m pytest tests/benchmarks/test_table_sketch.py --benchmark-only -s`

Printed: the CPU a key and an event, the frames and bytes a key, of each
run, and the medians' ratio. Nothing is asserted but that both ran and
the sketch drew the block (fewer bytes a key: only its changed rows are
sent), never a time (the machine is shared); the figures and what they
mean are in assets/measurements/card-room.md. Its short version (one run
each, fewer keys) runs in `.ci/run`, so that a sketch the table no longer
fits is seen there.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

RUNS = 4  # alternate runs of each
SHORT_KEYS = 40
HERE = Path(__file__).parent

ONE_RUN = """
import asyncio, json, sys
sys.path[:0] = [{here!r}, {tests!r}]
if {sketched!r}:
    from table_sketch import sketch_the_table
    sketch_the_table()
from test_screen_update import measure_keys
print(json.dumps(asyncio.run(measure_keys(keys={keys}))))
"""


def _one_run(sketched: bool, keys: int = 150) -> dict[str, float]:
    code = ONE_RUN.format(here=str(HERE), tests=str(HERE.parent), sketched=sketched, keys=keys)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def _drew_the_block(runs: dict[str, list[dict[str, float]]]) -> bool:
    """Both ran, and the sketch drew the block: its keys sent fewer bytes."""
    ran = all(f["keys"] > 0 and f["writes"] > 0 for found in runs.values() for f in found)
    return ran and max(f["bytes"] for f in runs["sketch"]) < min(f["bytes"] for f in
                                                                  runs["widgets"])


@pytest.mark.short
def test_the_table_sketch_runs(benchmark):
    """The short version: one run each, `SHORT_KEYS` keys."""
    runs: dict[str, list[dict[str, float]]] = {}
    benchmark.pedantic(lambda: runs.update(widgets=[_one_run(False, SHORT_KEYS)],
                                           sketch=[_one_run(True, SHORT_KEYS)]),
                       rounds=1, iterations=1)
    assert _drew_the_block(runs), runs


def test_a_table_drawn_as_one_widget_against_its_widgets(benchmark):
    runs: dict[str, list[dict[str, float]]] = {"widgets": [], "sketch": []}

    def measure() -> None:
        for _ in range(RUNS):
            runs["widgets"].append(_one_run(False))
            runs["sketch"].append(_one_run(True))

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
    key_ratio = medians["sketch"][0] / medians["widgets"][0]
    event_ratio = medians["sketch"][1] / medians["widgets"][1]
    print(f"the sketch against the widgets: {key_ratio:.2f} a key, {event_ratio:.2f} an event")
    benchmark.extra_info.update({"key_ratio": round(key_ratio, 3),
                                 "event_ratio": round(event_ratio, 3)})
    assert _drew_the_block(runs), runs
