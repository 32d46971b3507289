"""A session worker's memory over 2,000 short lobby sessions (sign in,
open the help, hang up), one after another, in one worker.

Run on demand:
`python -m pytest tests/benchmarks/test_worker_sessions.py --benchmark-only -s`

It prints the worker's resident size and the objects it holds (collected
ones and frozen ones) after a warm-up of 50 sessions and every 250
sessions after that; the worker's size after them all should be within a
few MB of its warm size (before: it grew some 150 KB a session, for ever).
"""

from __future__ import annotations

from worker_sessions import run_sessions


def test_a_workers_memory_over_two_thousand_sessions(benchmark, tmp_path):
    found: dict = {}
    benchmark.pedantic(lambda: found.update(run_sessions(tmp_path, warm=50, sessions=2000,
                                                         every=250, timeout=1800)),
                       rounds=1, iterations=1)
    rows = found["rows"]
    for row in rows:
        print(f"{row['sessions']:5d} sessions: {row['rss_mb']:6.1f} MB, "
              f"{row['objects']} objects ({row['frozen']} frozen)")
    print(f"apps still in memory at the end: {found['apps_alive']}")
    warm, last = rows[0], rows[-1]
    benchmark.extra_info.update(warm_mb=warm["rss_mb"], last_mb=last["rss_mb"],
                                peak_mb=max(r["rss_mb"] for r in rows),
                                apps_alive=found["apps_alive"])
    assert found["apps_alive"] == 0
    assert last["rss_mb"] - warm["rss_mb"] < 10
