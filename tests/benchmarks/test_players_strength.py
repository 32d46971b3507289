"""Computer players' strength, discard quality and think time.

Run on demand: `python -m pytest tests/benchmarks/test_players_strength.py
--benchmark-only -s`. The strength runs play 3,000 games each (set
CRIB3_BENCH_GAMES to play fewer while trying things); on 2 cores the expert
run takes about ten minutes.
"""

from __future__ import annotations

import os
import random
import statistics
import time

import pytest

from crib3.cards import DECK
from crib3.engine import Game, PlayerInfo, Rules
from crib3.players import make_player
from crib3.players.analysis import crib_table, discard_options, discard_table
from crib3.players.coach import advise
from crib3.players.keeps import warm_keep_chances
from crib3.scoring import rank_table
from crib3.study import sim

GAMES = int(os.environ.get("CRIB3_BENCH_GAMES", "3000"))


def _strength(benchmark, hero: str, field: str, floor: float) -> None:
    summary = benchmark.pedantic(
        lambda: sim.run([hero, field, field], GAMES, seed=2026, jobs=sim.default_jobs(GAMES)),
        rounds=1, iterations=1)
    share, low, high = summary.win_share(0)
    benchmark.extra_info.update(games=GAMES, win_share=round(share, 4),
                                ci95=[round(low, 4), round(high, 4)],
                                first_deals=[summary.first_deals(e) for e in range(3)])
    print(f"\n{hero} vs two {field}: {share:.1%} (95% CI {low:.1%}-{high:.1%}) "
          f"over {GAMES} games")
    assert share >= floor


def test_expert_beats_two_standard(benchmark):
    _strength(benchmark, "expert", "standard", 0.40)


def test_standard_beats_two_easy(benchmark):
    _strength(benchmark, "standard", "easy", 0.55)


def test_discard_quality(benchmark):
    """Over 1,000 random deals: the expert's kept hand is within 1% of the
    best expected hand, and what it throws into an opponent's crib is worth
    less than what the standard player throws."""
    rng = random.Random(11)
    deals = [rng.sample(DECK, 5) for _ in range(1000)]
    table = crib_table()

    def measure():
        best = expert_hand = 0.0
        expert_gift = standard_gift = 0.0
        for i, hand in enumerate(deals):
            own = i % 3 == 0
            options = discard_options(hand, own_crib=own)
            by_hand = max(options, key=lambda o: o.hand)
            standard = discard_options(hand, own_crib=own, use_crib=False)[0]
            best += by_hand.hand
            expert_hand += options[0].hand
            if not own:
                expert_gift += table[options[0].card.rank]
                standard_gift += table[standard.card.rank]
        return best, expert_hand, expert_gift, standard_gift

    best, expert_hand, expert_gift, standard_gift = benchmark.pedantic(measure, rounds=1)
    shortfall = 1 - expert_hand / best
    opp = sum(1 for i in range(1000) if i % 3)
    benchmark.extra_info.update(
        expert_hand_vs_best=f"{shortfall:.3%} below", mean_best_hand=round(best / 1000, 3),
        expert_gift=round(expert_gift / opp, 3), standard_gift=round(standard_gift / opp, 3))
    print(f"\nexpert keeps {expert_hand / 1000:.3f} vs best {best / 1000:.3f} "
          f"({shortfall:.2%} below); gives opponents' cribs {expert_gift / opp:.3f} "
          f"vs standard {standard_gift / opp:.3f}")
    assert shortfall <= 0.01
    assert expert_gift < standard_gift


def _think_times(choose, others: str = "standard", games: int = 30) -> dict[str, list[float]]:
    """CPU milliseconds per decision of seat 0 over `games` games of `others`
    players (CPU time, not the wall clock: this machine is shared, and a
    decision that waits for the processor is not slower for it). Against
    experts, the look-ahead reads them and plays them out by the expert's
    own habits, which costs otherwise than against standard players."""
    times: dict[str, list[float]] = {"discard": [], "play": []}
    for seed in range(games):
        infos = [PlayerInfo(f"p{i}", others) for i in range(3)]
        game = Game.new(infos, Rules(), seed=seed)
        players = [make_player(others, random.Random(seed + s)) for s in range(3)]
        while not game.over:
            seat = game.to_act()[0]
            view = game.view(seat)
            if seat == 0 and view.phase in times:
                started = time.process_time()
                choose(view)
                times[view.phase].append((time.process_time() - started) * 1000)
            game.dispatch(players[seat].choose(view))
    return times


def _p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


# The targets: a play decision p95 <= 15 ms and never over 50 ms; a
# discard p95 <= 5 ms.
P95_MS = {"discard": 5.0, "play": 15.0}
MAX_MS = 50.0


@pytest.mark.parametrize("others", ["standard", "expert"])
@pytest.mark.parametrize("who", ["expert", "coach"])
def test_think_time(benchmark, who, others):
    expert = make_player("expert", random.Random(1))
    choose = expert.choose if who == "expert" else advise
    crib_table()  # the tables are loaded once per process (the app warms them up
    rank_table()  # while the new-game screen is up), before the clock
    discard_table()
    warm_keep_chances()
    times = benchmark.pedantic(lambda: _think_times(choose, others), rounds=1)
    report = {k: {"n": len(v), "median_ms": round(statistics.median(v), 2),
                  "p95_ms": round(_p95(v), 2), "max_ms": round(max(v), 2)}
              for k, v in times.items()}
    benchmark.extra_info.update(report)
    print(f"\n{who} among {others} players: {report}")
    assert all(report[k]["p95_ms"] <= P95_MS[k] for k in report)
    assert report["play"]["max_ms"] <= MAX_MS


SHORT_GAMES = 2  # the short version's games of think time (and ten times as many simulated)


@pytest.mark.short
def test_short_think_time_and_sim(benchmark):
    """The short version `.ci/run` runs: the expert's think time over
    `SHORT_GAMES` games among standard players, and a short `crib3 sim`;
    asserted only that they ran and measured, never a time."""
    expert = make_player("expert", random.Random(1))
    crib_table()
    rank_table()
    discard_table()
    warm_keep_chances()
    found: dict = {}

    def run() -> None:
        found["times"] = _think_times(expert.choose, "standard", games=SHORT_GAMES)
        started = time.perf_counter()
        found["summary"] = sim.run(["standard"] * 3, SHORT_GAMES * 10, seed=1, jobs=1)
        found["sim_s"] = time.perf_counter() - started

    benchmark.pedantic(run, rounds=1, iterations=1)
    times = found["times"]
    print(f"\nexpert among standard players, {SHORT_GAMES} games: "
          + ", ".join(f"{k} n={len(v)} median {statistics.median(v):.2f} ms "
                      f"max {max(v):.2f} ms" for k, v in times.items())
          + f"; sim: {SHORT_GAMES * 10} standard games in {found['sim_s']:.2f} s")
    assert all(len(v) > 0 for v in times.values()), times
    assert found["summary"].games == SHORT_GAMES * 10


def test_sim_standard_games_per_second(benchmark):
    games = 300
    summary = benchmark.pedantic(
        lambda: sim.run(["standard"] * 3, games, seed=1, jobs=sim.default_jobs(games)),
        rounds=2, iterations=1)
    benchmark.extra_info["games_per_second"] = round(games / benchmark.stats.stats.mean, 1)
    assert summary.games == games


# Two experts are close: at 500 deal sets (3,000 games) the interval on
# their difference is about +-2.4%, so a gain of 2% shows only by luck.
# Session 13 (seed 2026): 500 sets +2.1% [-0.4, +4.5]; 1,500 sets +1.4%
# [-0.0, +2.8], 50.7% of the games, final score +0.18 [-0.01, +0.38] a
# game. An exploratory run on another seed (2027, 1,083 sets) gave +2.6%
# [+1.0, +4.3]: at a gain near 2% this test at 1,500 sets finds it about
# three times in four, and it fell just short.
#
# So, decided in session 15 before any of the new games was played: the
# same seed, continued to 3,000 deal sets (the first 1,500 are the same
# games as before, none dropped), and the gain must clear a 99% interval
# (2.576 standard errors), not a 95% one. The 500- and 1,500-set looks
# each had their chance to pass at 95%; counting all three looks (Brownian
# motion at 1/6, 1/2 and all of the information, two million runs), the
# chance that this sequence declares a gain where there is none is 4.6%
# one-sided, where the first two looks alone had spent 4.4%. Neither the
# seed nor the size moves again: if this fails, the gain is not shown.
# Session 15, 3,000 sets (3,685 s, 4.9 games/s): +1.87%, 99% interval
# [+0.60, +3.14] (95% [+0.9, +2.8]); the earlier look the same games as
# before, +1.38% [-0.01, +2.76]; the new 1,500 sets +2.36% [+1.01, +3.70];
# final score +0.30 [+0.16, +0.44] a game. Passed.
DEAL_SETS = int(os.environ.get("CRIB3_BENCH_DEAL_SETS", "3000"))
EARLIER_LOOK = 1500  # deal sets the test had played when it last looked


def test_expert_gains_on_the_december_2026_expert(benchmark):
    """The expert against the expert it was (expert-2026-12), on
    the same shuffles in all six seatings: a gain whose 99% interval is
    above zero. 3,000 deal sets are 18,000 games, about an hour on two cores."""
    from crib3.study import duplicate

    summary = benchmark.pedantic(
        lambda: duplicate.run("expert", "expert-2026-12", DEAL_SETS, seed=2026,
                              jobs=sim.default_jobs(DEAL_SETS * 6)),
        rounds=1, iterations=1)
    data = summary.to_json()
    gain, low99, high99 = summary.difference(duplicate.Z99)
    data["a_minus_b_ci99"] = [round(low99, 4), round(high99, 4)]
    benchmark.extra_info.update(data)
    print("\n" + duplicate.format_summary(summary))
    print(f"A minus B, 99% interval: {gain:+.2%} [{low99:+.2%}, {high99:+.2%}]")
    for name, part in (("the earlier look", [s for s in summary.sets if s.number < EARLIER_LOOK]),
                       ("the new deal sets",
                        [s for s in summary.sets if s.number >= EARLIER_LOOK])):
        piece = duplicate.DuplicateSummary(summary.a, summary.b, summary.rules, summary.seed,
                                           sets=part)
        value, low, high = piece.difference()
        print(f"{name}, {len(part)} deal sets: {value:+.2%} [{low:+.2%}, {high:+.2%}] (95%)")
    assert low99 > 0
