"""Near the end of a game, a discard is worth the game, not the points
(issue 13, point 3).

When a seat can reach the target in this hand's show, what matters is the
chance that it does, before the seats that count ahead of it do. The show
goes left of the dealer first, then the next seat, then the dealer (hand,
then crib): a seat that counts first and gets there wins, whatever the
others hold. So each discard's chance of counting out (its hand over the 46
starters, plus the play's points, a Poisson guess around PLAY_POINTS, plus
the crib's expectation for the dealer) is added to its net, weighted by the
chance that nobody counting earlier gets there first.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from crib3.cards import DECK, Card
from crib3.scoring import hand_points

PLAY_POINTS = 3.0  # a seat's mean points in one hand's play, three-handed
HAND_MEAN, HAND_SPREAD = 5.0, 3.5  # a hand kept the usual way, before the starter


def _poisson_at_least(mean: float, limit: int = 40) -> list[float]:
    """P(X >= k) for k = 0..limit, X Poisson with this mean."""
    pmf = [math.exp(-mean)]
    for k in range(1, limit + 1):
        pmf.append(pmf[-1] * mean / k)
    out = []
    tail = 1.0
    for k in range(limit + 1):
        out.append(max(tail, 0.0))
        tail -= pmf[k]
    return out


_PLAY_AT_LEAST = _poisson_at_least(PLAY_POINTS)


def play_at_least(points: float) -> float:
    """The chance of at least `points` in the play."""
    need = math.ceil(points)
    if need <= 0:
        return 1.0
    return _PLAY_AT_LEAST[need] if need < len(_PLAY_AT_LEAST) else 0.0


def count_out_chance(kept: Sequence[Card], hand: Sequence[Card], need: int,
                     extra: float = 0.0) -> float:
    """The chance that `kept` (of the five cards `hand`) plus the play's
    points plus `extra` (the dealer's crib) reach `need` points, over the
    46 starters the seat cannot see."""
    own = set(hand)
    total = 0.0
    n = 0
    for starter in DECK:
        if starter in own:
            continue
        n += 1
        total += play_at_least(need - extra - hand_points(kept, starter))
    return total / n


def others_reach_chance(need: int) -> float:
    """A rough chance that a seat whose cards are hidden reaches `need`
    points with its play and hand (a normal guess around a usual hand)."""
    mean = HAND_MEAN + PLAY_POINTS
    spread = math.hypot(HAND_SPREAD, math.sqrt(PLAY_POINTS))
    return 0.5 * math.erfc((need - 0.5 - mean) / (spread * math.sqrt(2)))


def first_chance(seat: int, dealer: int, scores: Sequence[int], target: int) -> float:
    """The chance that nobody who counts before `seat` in this hand's show
    reaches the target first (their play and hand; the play also runs
    before anyone counts, so every other seat may peg out first)."""
    order = ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
    chance = 1.0
    for other in order[:order.index(seat)]:
        chance *= 1.0 - others_reach_chance(target - scores[other])
    return chance


# Within this many points of the target, a seat may count out this hand.
ENDGAME_NEED = 32
