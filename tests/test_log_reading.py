"""Reading saved games: linear, streamed, bounded, one error style (issue 10)."""

from __future__ import annotations

import tracemalloc

from logfiles import tied_cuts_log

from crib3.engine.log import load_log
from crib3.replay import Replay


def test_a_long_log_is_folded_without_copying_what_came_before(tmp_path):
    """Point 8's cause: every cut for the deal was kept in a tuple copied per
    event, so a long run of tied cuts made a fold quadratic (and a replay,
    which keeps every state, quadratic in memory). 4,000 rounds kept a
    tuple-per-state of up to 8,000 cuts: over 100 MB; shared, well under 10."""
    path = tied_cuts_log(tmp_path / "long.jsonl", 4000)
    events = load_log(path).events
    tracemalloc.start()
    try:
        replay = Replay(events)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(replay.states[-1].deal_cuts) == 8003
    assert peak < 10_000_000
