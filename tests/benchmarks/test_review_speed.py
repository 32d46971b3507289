"""Reviewing a game, on demand:
`python -m pytest tests/benchmarks/test_review_speed.py --benchmark-only -s`.

Target: a whole game of 121 reviewed, every decision of one seat ranked by
the coach, in under 2 s on this machine.
"""

from __future__ import annotations

from games import random_game

from crib3.study.review import review_events


def _forget() -> None:
    """The coach keeps its last few answers; each round starts without them."""
    from crib3.players import coach

    kept = getattr(coach, "_rank_plays_kept", None)
    if kept is not None and hasattr(kept, "cache_clear"):
        kept.cache_clear()


def test_review_a_whole_game(benchmark):
    events = list(random_game(11, ("human", "easy", "easy")).events)
    review = benchmark.pedantic(lambda: review_events(events, 0), setup=_forget, rounds=3,
                                iterations=1)
    seconds = benchmark.stats.stats.mean
    benchmark.extra_info["decisions"] = len(review.decisions)
    print(f"\nreview of a whole game: {seconds:.2f} s for {len(review.decisions)} decisions")
    assert seconds < 2
