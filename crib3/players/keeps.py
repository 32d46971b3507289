"""Reading the other seats' hands from the discard: players keep good fours
(so a lead that looks safe against a blind deal may feed the left-hand
neighbour).

The look-ahead deals the unseen cards to the other seats as if any four
were as likely as any other. They are not: every seat chose its four from
five, and nearly everybody keeps the four with the best expected hand. So
the fours that are somebody's best of five (fives with ten-cards, pairs,
runs, fifteens) are held far more often than a blind deal gives them, and a
lead of a ten-card or a count of ten is more dangerous than it looks.

`keep_chance` says how likely a seat is to hold four given ranks: the share
of the fifth cards it might have been dealt for which those four are the
best keep (by ranks alone, the way the `standard` player chooses, flushes
and nobs left out). The look-ahead weighs each deal it plays out by the
product over the other seats of `keep_weight` (a mix of that chance with a
flat part, since people and the expert keep otherwise at times), as an
importance weight: no deal is drawn twice, so a decision costs what it did.

A function of ranks alone, cached by the four's packed ranks (1,820 fours
at most, each worked out once per process: `warm_keep_chances` does all of
them at once, far faster than one at a time, which the app does while the
new-game screen is up and the expert's posterior at its first decision):
the bots stay honest.

Against standard players it is much nearer the truth than the blind deal
about the pairs, fives and ten-cards a seat holds (measured:
assets/measurements/players.md, 'Reading the keep').
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from crib3.players.analysis import crib_table, pack_ranks
from crib3.scoring import rank_table

_BIT = [0] + [1 << (3 * (r - 1)) for r in range(1, 14)]
_KEEP: dict[int, float] = {}
# keep_chance's answers for a seat weighing the crib, by its crib weight
# (see crib_keep_chance).
_CRIB_KEEP: dict[float, dict[int, float]] = {}
_TIE = 1e-9  # whole numbers tie exactly; with the crib's share, this close


def _expected(kept: tuple[int, ...], five: tuple[int, ...]) -> float:
    """The mean points of four kept ranks over the starters a seat holding
    the five ranks `five` cannot see, by ranks alone."""
    table = rank_table()
    base = sum(_BIT[r] for r in kept)
    total = 0
    n = 0
    for rank in range(1, 14):
        left = 4 - five.count(rank)
        if left:
            total += table[base + _BIT[rank]] * left
            n += left
    return total / n


def keep_chance(ranks: Iterable[int]) -> float:
    """The chance that a seat keeping its best four of five (by expected
    hand, ranks alone) keeps these four ranks, given it holds them among
    its five: the share of the possible fifth cards (each rank as many as
    are left of it) for which these four are the best keep, ties shared."""
    four = tuple(sorted(ranks))
    code = pack_ranks(four)
    got = _KEEP.get(code)
    if got is not None:
        return got
    kept_share = 0.0
    fifths = 0
    for rank in range(1, 14):
        left = 4 - four.count(rank)
        if not left:
            continue
        five = tuple(sorted((*four, rank)))
        mine = _expected(four, five)
        rivals = {other for other in combinations(five, 4) if other != four}
        values = [_expected(other, five) for other in rivals]
        if all(v <= mine + 1e-9 for v in values):
            ties = sum(1 for v in values if v >= mine - 1e-9)
            kept_share += left / (1 + ties)
        fifths += left
    got = _KEEP[code] = kept_share / fifths
    return got


def warm_keep_chances(crib_weight: float = 0.0) -> None:
    """Work out `keep_chance` for every four at once: far faster than one
    four at a time (the look-ahead's posterior needs them all at its first
    decision; measured: assets/measurements/players.md, 'Think time'). The same answers, exactly: a
    four's expected hand over the starters a holder of five cannot see is
    (the sum over every rank of its points with that rank, times the cards
    of it left, less its points with the card thrown) / 47, so each four's
    sum is worked out once and the comparisons are of whole numbers.

    With a `crib_weight`, the seat is believed to choose its four by the
    expected hand plus `crib_weight` x the crib table's value of the card
    it throws (`analysis.crib_table`): 1 for a dealer who throws to its own
    crib the way the expert does, -OPPONENT_CRIB_WEIGHT for a seat throwing
    to another's (see `crib_keep_chance`)."""
    from itertools import combinations_with_replacement

    known = _keep_table(crib_weight)
    table = rank_table()
    crib = crib_table()
    # 47 x the crib's share of a throw, so that it adds to the sums below.
    bonus = [0.0] + [47 * crib_weight * crib[r] for r in range(1, 14)]
    fours: list[tuple[int, ...]] = list(combinations_with_replacement(range(1, 14), 4))
    bases = {four: sum(_BIT[r] for r in four) for four in fours}
    sums = {four: sum(table[bases[four] + _BIT[r]] * (4 - four.count(r))
                      for r in range(1, 14) if four.count(r) < 4)
            for four in fours}
    for four in fours:
        code = pack_ranks(four)
        if code in known:
            continue
        kept_share = 0.0
        fifths = 0
        for thrown in range(1, 14):
            left = 4 - four.count(thrown)
            if not left:
                continue
            fifths += left
            mine = sums[four] - table[bases[four] + _BIT[thrown]] + bonus[thrown]
            ties = 0
            for other_out in set(four) - {thrown}:  # keeping `thrown`, throwing this
                rest = list(four)
                rest.remove(other_out)
                other = tuple(sorted((*rest, thrown)))
                value = sums[other] - table[bases[other] + _BIT[other_out]] + bonus[other_out]
                if value > mine + _TIE:
                    break
                ties += abs(value - mine) <= _TIE
            else:
                kept_share += left / (1 + ties)
        known[code] = kept_share / fifths



def _keep_table(crib_weight: float) -> dict[int, float]:
    if not crib_weight:
        return _KEEP
    return _CRIB_KEEP.setdefault(crib_weight, {})


def crib_keep_chance(ranks: Iterable[int], crib_weight: float) -> float:
    """`keep_chance` for a seat that chooses its four by the expected hand
    plus `crib_weight` x the crib table's value of the card it throws, as
    the expert does (+1 to its own crib; to another seat's, -0.5, its
    `OPPONENT_CRIB_WEIGHT`). That choice is the expert's own throw far more
    often than the hand alone is (measured: assets/measurements/players.md,
    'Reading an expert seat')."""
    if not crib_weight:
        return keep_chance(ranks)
    known = _keep_table(crib_weight)
    code = pack_ranks(sorted(ranks))
    got = known.get(code)
    if got is None:  # cold, or another thread still filling it: fill what is missing
        warm_keep_chances(crib_weight)
        got = known[code]
    return got


def keep_weight(ranks: Iterable[int], strength: float) -> float:
    """How much a deal giving a seat these four ranks (the cards it has
    played this hand and the cards dealt to it) counts: `strength` of
    `keep_chance`, the rest flat. 1.0 when `strength` is 0."""
    if strength <= 0.0:
        return 1.0
    return (1.0 - strength) + strength * keep_chance(ranks)


_BEST: dict[int, float] = {}


def kept_with(four: Iterable[int], thrown: int) -> float:
    """Whether a seat keeping its best four (by expected hand, ranks alone)
    dealt these four ranks and `thrown` keeps the four: 1 when they are its
    one best keep, 1/n when n keeps tie for best, else 0. A look-ahead that
    deals a seat its cards and the card it threw can keep each deal with
    this chance (rejection, not weighing: every deal played out counts in
    full, so no decision rests on a few heavy deals)."""
    kept = tuple(sorted(four))
    key = (pack_ranks(kept) << 4) | thrown
    got = _BEST.get(key)
    if got is not None:
        return got
    five = tuple(sorted((*kept, thrown)))
    mine = _expected(kept, five)
    values = [_expected(other, five) for other in set(combinations(five, 4)) if other != kept]
    got = 0.0
    if all(v <= mine + 1e-9 for v in values):
        got = 1.0 / (1 + sum(1 for v in values if v >= mine - 1e-9))
    _BEST[key] = got
    return got
