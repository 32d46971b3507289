"""The other seats' hidden ranks, worked out whole rather than drawn blind.

`reading.Reader` draws deals blind and keeps each with the chance its seat's
earlier plays give it (rejection), throwing away at most a few deals for
each one played out: a sharp model of a seat (the `standard` bot, whose
plays and keep are all but certain) rules out most blind deals, so the
spare runs out and the rest of the deals are kept unread. Here each seat's
belief is worked out over every multiset of ranks it may hold (at most
1,820 for four cards), from:

- the prior: how many ways the unseen cards give it those ranks;
- its gos (`analysis.min_values`): every card it holds is above the floor;
- its earlier plays this hand (`reading.play_chance`, by the seat's model);
- its keep (`keeps.keep_weight`): how far it is believed to have kept its
  best four (by the hand alone, or with the crib weighed: see
  `keeps.crib_keep_chance`).

A deal draws each seat's ranks from its belief and then the cards of
those ranks from the unseen ones; two seats' ranks are drawn apart and the
pair kept with the chance that the unseen cards hold both (a rejection
that is exact for the joint deal and rarely rejects). So however sharp the
belief, every deal played out counts in full and costs the same.
"""

from __future__ import annotations

import bisect
import random
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from itertools import combinations_with_replacement

from crib3.cards import Card
from crib3.players.analysis import _BONUS, PILE_MASK, draw_hands, pile_points_code
from crib3.players.keeps import crib_keep_chance, warm_keep_chances
from crib3.players.reading import SHARES, Choice, Habit, Model
from crib3.players.rollout import reply_risk

# C(n, k) for the few n and k a rank can have (at most 4 of a rank).
_CHOOSE = ((1, 0, 0, 0, 0), (1, 1, 0, 0, 0), (1, 2, 1, 0, 0), (1, 3, 3, 1, 0), (1, 4, 6, 4, 1))
# (C(n, k) is 0 past n: a seat cannot hold more of a rank than are unseen.)
TRIES = 64  # pairs of ranks drawn, at most, for one deal of two seats


class SeatBelief:
    """One seat's belief: the rank multisets it may hold, and the running
    total of their weights (for drawing one by bisection)."""

    __slots__ = ("hands", "totals")

    def __init__(self, hands: list[tuple[int, ...]], totals: list[float]) -> None:
        self.hands = hands
        self.totals = totals

    def draw(self, rng: random.Random) -> tuple[int, ...]:
        at = bisect.bisect_right(self.totals, rng.random() * self.totals[-1])
        return self.hands[min(at, len(self.hands) - 1)]


def _multisets(size: int) -> tuple[tuple[tuple[int, ...], tuple[tuple[int, int], ...], int, int],
                                    ...]:
    """Every multiset of `size` ranks (sorted), with its ranks and how many
    of each, its lowest card's value (for a go's floor), and its ranks as
    bits (1 << rank)."""
    out = []
    for hand in combinations_with_replacement(range(1, 14), size):
        pairs = tuple((r, hand.count(r)) for r in sorted(set(hand)))
        bits = 0
        for r in hand:
            bits |= 1 << r
        out.append((hand, pairs, min(hand[0], 10) if hand else 10, bits))
    return tuple(out)


_MULTISETS = tuple(_multisets(size) for size in range(5))
# keep_chance of each multiset of _MULTISETS[4 - len(played)] with the
# ranks played, by the sorted ranks played (worked out once per process).
# And by the seat's crib weight (see `keeps.crib_keep_chance`).
_KEEPS: dict[tuple[tuple[int, ...], float], tuple[float, ...]] = {}


def _keep_chances(played: Sequence[int], crib_weight: float = 0.0) -> tuple[float, ...]:
    key = tuple(sorted(played))
    got = _KEEPS.get((key, crib_weight))
    if got is None:
        if not _KEEPS:
            warm_keep_chances()  # all 1,820 at once: far faster than one by one
        got = _KEEPS[key, crib_weight] = tuple(
            crib_keep_chance((*key, *hand), crib_weight)
            for hand, _, _, _ in _MULTISETS[4 - len(key)])
    return got


def _scores(pile: int, count: int) -> tuple[list[int], list[int], int]:
    """For each rank (index 1..13), the score by which the standard choice
    (`analysis.greedy_code`) and the wary one (`rollout.wary_code`) rank a
    card of it on the packed `pile` at `count`, and the ranks (as bits)
    that fit there: not over 31, and not a fifth of a kind (all four on the
    pile: nobody holds one). Each score depends on the card alone, not on
    the rest of the hand: so a choice is the best-scoring rank held that
    fits, the lowest on a tie."""
    bonus = _BONUS[count][0 if pile else 1]
    greedy: list[int] = [0] * 14
    wary: list[int] = [0] * 14
    fits = 0
    for rank in range(1, 14):
        new = count + (rank if rank < 10 else 10)
        if new > 31 or pile & 0xFFFF == rank * 0x1111:
            continue
        fits |= 1 << rank
        after = ((pile << 4) | rank) & PILE_MASK
        points = pile_points_code(after, new)
        greedy[rank] = 100 * points + bonus[rank]
        wary[rank] = 100 * (100 * points - (reply_risk(after, new) if new != 31 else 0)) \
            + bonus[rank]
    return greedy, wary, fits


def choice_masks(choice: Choice) -> tuple[int, int, int, int]:
    """What a multiset of ranks must not hold for `choice` to have been the
    standard choice, and the wary one (the ranks, as bits, that would have
    been chosen before it), the ranks that fitted, and the ranks the seat
    is known to have held then (its later plays and this one)."""
    played = choice.rank
    greedy, wary, fits = _scores(choice.pile, choice.count)
    beat_greedy = beat_wary = 0
    for rank in range(1, 14):
        bit = 1 << rank
        if not fits & bit:
            continue
        if greedy[rank] > greedy[played] or (greedy[rank] == greedy[played] and rank < played):
            beat_greedy |= bit
        if wary[rank] > wary[played] or (wary[rank] == wary[played] and rank < played):
            beat_wary |= bit
    held = 1 << played
    for rank in choice.later:
        held |= 1 << rank
    return beat_greedy, beat_wary, fits, held


def seat_belief(counts: Sequence[int], size: int, floor: int, played: Sequence[int],
                choices: Sequence[Choice], shares: Model = SHARES,
                keeps: float = 0.0, crib_weight: float = 0.0) -> SeatBelief | None:
    """The belief about a seat holding `size` hidden cards, the unseen cards
    being `counts[rank]` of each rank (see the module's docstring); None
    when no multiset is possible. The last few are kept: at the lead both
    other seats of the same kind have the same belief, and the coach and
    the expert ask about the same view."""
    return _seat_belief(tuple(counts), size, floor, tuple(played), tuple(choices),
                        shares if isinstance(shares, Habit) else tuple(shares), keeps,
                        crib_weight)


def _habit_chances(habit: Habit, choice: Choice) -> Callable[[int], float]:
    """For one earlier play, its chance under `habit` given the ranks (as
    bits) the seat held then that fitted, as `reading.play_chance` works it
    out: many multisets share those bits, so each answer is kept."""
    scores = habit.scores(choice.pile, choice.count)
    known: dict[int, float] = {}

    def chance_of(held: int) -> float:
        got = known.get(held)
        if got is None:
            ranks = [rank for rank in range(1, 14) if held >> rank & 1]
            got = known[held] = habit.chance(scores, choice.rank, ranks)
        return got

    return chance_of


@lru_cache(maxsize=32)
def _seat_belief(counts: tuple[int, ...], size: int, floor: int, played: tuple[int, ...],
                 choices: tuple[Choice, ...], shares: Model,
                 keeps: float, crib_weight: float) -> SeatBelief | None:
    ways = [_CHOOSE[n] for n in counts]  # ways[rank][k]: C(unseen of rank, k)
    chances = _keep_chances(played, crib_weight) \
        if keeps > 0.0 and len(played) + size == 4 else None
    flat = 1.0 - keeps
    greedy_share, wary_share = (0.0, 0.0) if isinstance(shares, Habit) else shares
    other_share = 1.0 - greedy_share - wary_share
    masks = [choice_masks(choice) for choice in choices]
    habits = [_habit_chances(shares, choice) for choice in choices] \
        if isinstance(shares, Habit) else None
    hands: list[tuple[int, ...]] = []
    totals: list[float] = []
    total = 0.0
    for index, (hand, pairs, lowest, bits) in enumerate(_MULTISETS[size]):
        if lowest < floor:
            continue
        weight = 1.0
        for rank, same in pairs:
            weight *= ways[rank][same]
        if not weight:
            continue
        # Each earlier play's chance under the seat's model (as
        # `reading.play_chance`, from the ranks it held then).
        if habits is not None:
            for (_, _, fits, held), chance_of in zip(masks, habits):
                weight *= chance_of((bits | held) & fits)
                if not weight:
                    break
        else:
            for beat_greedy, beat_wary, fits, held in masks:
                then = bits | held
                chance = other_share / (then & fits).bit_count()
                if not then & beat_greedy:
                    chance += greedy_share
                if not then & beat_wary:
                    chance += wary_share
                weight *= chance
                if not weight:
                    break
        if chances is not None and weight:
            weight *= flat + keeps * chances[index]  # keeps.keep_weight
        if not weight:
            continue
        total += weight
        hands.append(hand)
        totals.append(total)
    if not hands:
        return None
    return SeatBelief(hands, totals)


class Posterior:
    """One decision's beliefs about the other seats, and deals drawn from them."""

    __slots__ = ("beliefs", "by_rank", "counts", "floors", "pool", "sizes")

    def __init__(self, pool: Sequence[Card], sizes: Mapping[int, int],
                 floors: Mapping[int, int], played: Mapping[int, Sequence[int]],
                 choices: Mapping[int, Sequence[Choice]],
                 shares: Mapping[int, Model],
                 keeps: Mapping[int, float],
                 crib_weights: Mapping[int, float] | None = None) -> None:
        self.pool, self.sizes, self.floors = pool, dict(sizes), dict(floors)
        self.by_rank: list[list[Card]] = [[] for _ in range(14)]
        for card in pool:
            self.by_rank[card.rank].append(card)
        self.counts = [len(cards) for cards in self.by_rank]
        self.beliefs: dict[int, SeatBelief | None] = {}
        for s, size in sizes.items():
            if not size:
                continue
            floor = floors.get(s, 1)
            belief = seat_belief(self.counts, size, floor, played.get(s, ()),
                                 choices.get(s, ()), shares.get(s, SHARES), keeps.get(s, 0.0),
                                 (crib_weights or {}).get(s, 0.0))
            if belief is None:
                # A seat that played against its model throughout (a person
                # named as a bot, say): read its gos alone, never stall.
                belief = seat_belief(self.counts, size, floor, (), ())
            self.beliefs[s] = belief

    def deal(self, rng: random.Random) -> dict[int, list[Card]] | None:
        """The other seats' hidden cards, drawn from the beliefs; None when
        a seat has no possible hand."""
        if any(b is None for b in self.beliefs.values()):
            return None
        seats = list(self.beliefs)
        beliefs = [(s, b) for s, b in self.beliefs.items() if b is not None]  # all, checked above
        drawn: dict[int, tuple[int, ...]] = {}
        for _ in range(TRIES):
            drawn = {s: b.draw(rng) for s, b in beliefs}
            if len(seats) < 2 or rng.random() <= self._both(drawn[seats[0]], drawn[seats[1]]):
                break
        else:
            # The two beliefs all but rule each other out (both seats read
            # as holding the same last cards): a deal the gos allow.
            return draw_hands(self.pool, self.sizes, self.floors, rng)
        # Which cards of each rank: a random few of the unseen ones (the
        # suits count only in the show).
        need = [0] * 14
        for s in seats:
            for rank in drawn[s]:
                need[rank] += 1
        picked: dict[int, list[Card]] = {}
        for rank in range(1, 14):
            if need[rank]:
                picked[rank] = rng.sample(self.by_rank[rank], need[rank])
        return {s: [picked[rank].pop() for rank in drawn[s]] for s in seats}

    def _both(self, first: tuple[int, ...], second: tuple[int, ...]) -> float:
        """The chance that the unseen cards that gave the first seat its
        ranks still give the second its own, against the chance they give
        it them alone: the correction that makes two independent draws one
        joint deal."""
        chance = 1.0
        for rank in set(second):
            need = second.count(rank)
            n = self.counts[rank]
            left = n - first.count(rank)
            if left < need:
                return 0.0
            chance *= _CHOOSE[left][need] / _CHOOSE[n][need]
        return chance
