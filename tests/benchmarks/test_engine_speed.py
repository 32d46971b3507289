"""Engine speed, run on demand: `python -m pytest tests/benchmarks --benchmark-only`.

Targets: points-only hand scoring ten times the fastest Python
scorer we know (55,000 hands/s here), so 550,000 hands/s; `crib3 sim` with
`easy` players faster than OpenSpiel's C++ engine (1,500 random 3-player games/s);
and folding a 1,500-event log from disk.
"""

from __future__ import annotations

import random

import pytest

from crib3.cards import DECK
from crib3.engine import fold
from crib3.engine.log import load_log, parse_log
from crib3.scoring import hand_points, rank_table, score_hand
from crib3.study import sim

HANDS = 10_000


@pytest.fixture(scope="module")
def deals():
    rng = random.Random(1)
    rank_table()
    return [rng.sample(DECK, 5) for _ in range(HANDS)]


def test_hand_points_only(benchmark, deals):
    """The bots' path: total only. Reports hands/s in extra_info."""
    def run():
        total = 0
        for five in deals:
            total += hand_points(five[:4], five[4])
        return total

    benchmark(run)
    benchmark.extra_info["hands_per_second"] = round(HANDS / benchmark.stats.stats.mean)


def test_hand_points_for_every_starter(benchmark, deals):
    """A bot's inner loop: one kept hand against each of the 46 other cards."""
    hands = [five[:4] for five in deals[:500]]

    def run():
        total = 0
        for hand in hands:
            kept = set(hand)
            for starter in DECK:
                if starter not in kept:
                    total += hand_points(hand, starter)
        return total

    benchmark(run)
    benchmark.extra_info["hands_per_second"] = round(500 * 48 / benchmark.stats.stats.mean)


def test_score_hand_itemized(benchmark, deals):
    subset = deals[:2000]

    def run():
        return sum(score_hand(five[:4], five[4]).total for five in subset)

    benchmark(run)
    benchmark.extra_info["hands_per_second"] = round(2000 / benchmark.stats.stats.mean)


@pytest.mark.parametrize("jobs", [1, 2])
def test_sim_easy_games_per_second(benchmark, jobs):
    games = 200

    def run():
        return sim.run(["easy", "easy", "easy"], games, seed=1, jobs=jobs)

    summary = benchmark.pedantic(run, rounds=3, iterations=1)
    benchmark.extra_info["games_per_second"] = round(games / benchmark.stats.stats.mean, 1)
    assert summary.games == games


def _long_log_paths(tmp_path):
    from games import games_totalling

    return games_totalling(tmp_path)


def test_load_and_verify_1500_events_from_disk(benchmark, tmp_path):
    """Read, decode and re-run every event through the rules: the cost of
    opening a log. Reported per 1,500 events (one game has about 400)."""
    paths, events = _long_log_paths(tmp_path)
    benchmark(lambda: [load_log(p) for p in paths])
    benchmark.extra_info["events"] = events
    benchmark.extra_info["ms_per_1500_events"] = round(
        benchmark.stats.stats.mean * 1000 * 1500 / events, 2)


def test_fold_1500_events_from_disk(benchmark, tmp_path):
    """Read, decode and fold without re-checking the rules (a trusted log)."""
    paths, events = _long_log_paths(tmp_path)

    def run():
        return [fold(e for _, e in parse_log(p)[1]) for p in paths]

    benchmark(run)
    benchmark.extra_info["events"] = events
    benchmark.extra_info["ms_per_1500_events"] = round(
        benchmark.stats.stats.mean * 1000 * 1500 / events, 2)
