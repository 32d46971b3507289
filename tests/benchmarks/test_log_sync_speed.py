"""How long a game log's `append` holds its caller (in the card room, the
event loop that relays every key), fsynced before it returns (`NOW`, a
local game's) or just after in a thread (`LATER`, the card room's).

Run on demand:
`python -m pytest tests/benchmarks/test_log_sync_speed.py --benchmark-only -s`

Alternate blocks of each, in one run, on the machine's own disk (the test's
temporary folder): p50, p95 and the longest wait an event. Asserted only
that the thread's way holds the caller less in the middle.
"""

from __future__ import annotations

import statistics
import time

from crib3.engine.events import GameStarted, PlayerInfo, Rules
from crib3.engine.log import LATER, NOW, LogWriter

EVENT = GameStarted((PlayerInfo("Ann", "human"), PlayerInfo("Bob", "easy"),
                     PlayerInfo("Cat", "easy")), Rules(), 1)
BLOCKS, EVENTS = 4, 100
PACE = 0.002  # seconds between events (a busy room's loop does other work between)


def test_an_append_holds_its_caller(benchmark, tmp_path):
    waits: dict[str, list[float]] = {NOW: [], LATER: []}

    def measure() -> None:
        for block in range(BLOCKS):
            for sync in (NOW, LATER):
                with LogWriter(tmp_path / f"{sync}-{block}.jsonl", sync=sync) as writer:
                    for _ in range(EVENTS):
                        started = time.perf_counter()
                        writer.append(EVENT)
                        waits[sync].append(time.perf_counter() - started)
                        time.sleep(PACE)

    benchmark.pedantic(measure, rounds=1, iterations=1)
    for sync, found in waits.items():
        ms = sorted(w * 1000 for w in found)
        print(f"\nfsync {sync:5s}: {len(ms)} events, p50 {statistics.median(ms):.3f} ms, "
              f"p95 {ms[int(len(ms) * 0.95)]:.3f} ms, longest {ms[-1]:.3f} ms")
        benchmark.extra_info[f"p50_ms_{sync}"] = round(statistics.median(ms), 4)
    assert statistics.median(waits[LATER]) < statistics.median(waits[NOW])
