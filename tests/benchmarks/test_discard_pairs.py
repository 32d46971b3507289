"""Two discards on the same deals, hand by hand: a measure of a discard
change a hundred times cheaper than whole games.

For each deal (the first hand of a seeded game) and each seat, both
variants choose a discard; where they differ, the hand is played out once
with each (the other seats discard and every seat plays as the `expert`,
the cut is the same), and the seat's margin in that hand (its points minus
the others' mean: play, hand and crib) is compared. Where they agree the
difference is zero. So the paired difference has little noise, and a gain
of a few hundredths of a point a hand shows in a few thousand deals.

    CRIB3_PAIR_A=expert:play_weight=0.25 CRIB3_PAIR_B=expert CRIB3_PAIR_DEALS=3000 \\
        python -m pytest tests/benchmarks/test_discard_pairs.py --benchmark-only -s

It measures the discard at 0-0-0, so the end-of-game terms never weigh in.
"""

from __future__ import annotations

import math
import os
import random
from concurrent.futures import ProcessPoolExecutor

from crib3.engine import Discard, Game, PlayerInfo, Rules
from crib3.engine.state import Phase
from crib3.players import make_player
from crib3.players.coach import rank_discards

A = os.environ.get("CRIB3_PAIR_A", "expert:play_weight=1")
B = os.environ.get("CRIB3_PAIR_B", "expert")
DEALS = int(os.environ.get("CRIB3_PAIR_DEALS", "1000"))
SEED = int(os.environ.get("CRIB3_PAIR_SEED", "1000"))


def _hand_margin(seed: int, hero: int, card) -> float:
    """The hero's margin in the first hand of game `seed`, throwing `card`."""
    game = Game.new([PlayerInfo(f"p{i}", "expert") for i in range(3)], Rules(), seed=seed)
    bots = [make_player("expert", random.Random(seed * 7 + s)) for s in range(3)]
    start, hand = game.state.scores, game.state.hand_number
    while not game.over and game.state.hand_number == hand:
        seat = game.to_act()[0]
        view = game.view(seat)
        if view.phase == Phase.DISCARD and seat == hero:
            game.dispatch(Discard(seat, card))
        else:
            game.dispatch(bots[seat].choose(view))
    gained = [game.state.scores[s] - start[s] for s in range(3)]
    return gained[hero] - (sum(gained) - gained[hero]) / 2


def _deal(args: tuple[str, str, int]) -> list[float]:
    """A's margin minus B's, for each seat of one deal."""
    a, b, seed = args
    game = Game.new([PlayerInfo(f"p{i}", "expert") for i in range(3)], Rules(), seed=seed)
    styles = [make_player(level).style for level in (a, b)]  # type: ignore[attr-defined]
    out = []
    for hero in range(3):
        view = game.view(hero)
        card_a, card_b = (rank_discards(view, style)[0].card for style in styles)
        out.append(0.0 if card_a == card_b
                   else _hand_margin(seed, hero, card_a) - _hand_margin(seed, hero, card_b))
    return out


def pair_discards(a: str, b: str, deals: int, seed: int, jobs: int = 2
                  ) -> tuple[float, float, float, int, int]:
    """(mean of A minus B a seat-hand, its 95% interval, seat-hands, how many differed)."""
    work = [(a, b, seed + i) for i in range(deals)]
    with ProcessPoolExecutor(jobs) as pool:
        diffs = [d for ds in pool.map(_deal, work, chunksize=10) for d in ds]
    n = len(diffs)
    mean = sum(diffs) / n
    half = 1.959964 * math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    return mean, mean - half, mean + half, n, sum(1 for d in diffs if d)


def test_two_discards_on_the_same_deals(benchmark):
    mean, low, high, n, differ = benchmark.pedantic(
        lambda: pair_discards(A, B, DEALS, SEED), rounds=1, iterations=1)
    benchmark.extra_info.update(a=A, b=B, seat_hands=n, differ=differ,
                                a_minus_b=round(mean, 4), ci95=[round(low, 4), round(high, 4)])
    print(f"\n{A} minus {B}: {mean:+.4f} points a hand (95% CI {low:+.4f} to {high:+.4f}) "
          f"over {n} seat-hands, {differ} with different discards")
    assert n == 3 * DEALS
