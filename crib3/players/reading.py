"""Reading the other seats' hands from what they did.

The look-ahead deals the unseen cards to the other seats many times. Every
deal consistent with the view is possible, but not every one is as likely:
a seat that could have made 15 with a five and played something else
probably holds no five. This module weighs a deal by how likely each
seat's earlier plays this hand were, had it held those cards, under a
simple model of a player (`play_chance`): often the `standard` player's
choice (points now, then no gift, then the highest card), as often the
wary one (`rollout.wary_code`), and otherwise any legal rank alike; and
`Reader.deal` draws deals in proportion to that weight. A go needs no
weight: it is a hard limit, already kept by the floors of
`analysis.min_values`.

The expert now draws its deals from `crib3.players.posterior`, which works
each seat's belief out whole with this module's `play_chance` (and the
keep, `crib3.players.keeps`). `Reader.deal`'s rejection throws away at most
a few blind deals for each one it keeps: a sharp model (a seat read as the
standard bot) rules out most blind deals, its spare runs out, and the rest
are kept unread, which is why a sharper reading measured no stronger here
and stronger there. `Reader` stays for the expert with `Style.posterior`
off (`crib3 sim` variants such as `expert:posterior=off`, and the old
expert kept in `crib3.players.expert`).

Works on ints, like the look-ahead's playouts (see `analysis.pack_ranks`):
a deal's weight costs a few cached dictionary lookups a seat.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from crib3.cards import Card
from crib3.players.analysis import (
    CACHE_LIMIT,
    PILE_MASK,
    greedy_code,
    pack_ranks,
    pile_points_code,
)
from crib3.players.rollout import reply_risk, wary_code

# How often the model player makes the standard player's choice, and the
# wary one (both, where they agree); otherwise it plays any legal rank
# alike. Not all: people, and the expert, often do neither, and a deal ruled
# out by one surprising card would throw good samples away. The shares fit
# the hidden hands of standard and expert players about equally well
# (measured: assets/measurements/players.md, 'Reading the other seats').
GREEDY_SHARE = 0.3
WARY_SHARE = 0.3

_TAIL6 = (1 << 24) - 1


@dataclass(frozen=True, slots=True)
class Choice:
    """One earlier play of a seat, as it was made: the ranks that seat
    played after it this hand (they were in its hand then), the packed pile
    and the count before it, and the rank it played."""

    later: tuple[int, ...]
    pile: int
    count: int
    rank: int


def choices_by_seat(history: Sequence[tuple[int, Card, int]],
                    seats: Sequence[int]) -> dict[int, tuple[Choice, ...]]:
    """Each of `seats`' plays this hand, from the view's `hand_plays`
    (seat, card, count number), with the position it was made in."""
    out: dict[int, list[Choice]] = {s: [] for s in seats}
    pile = count = 0
    number = -1
    for i, (seat, card, n) in enumerate(history):
        if n != number:
            pile = count = 0
            number = n
        if seat in out:
            later = tuple(c.rank for who, c, _ in history[i + 1:] if who == seat)
            out[seat].append(Choice(later, pile, count, card.rank))
        pile = ((pile << 4) | card.rank) & PILE_MASK
        count += card.value
    return {s: tuple(choices) for s, choices in out.items()}


SHARES = (GREEDY_SHARE, WARY_SHARE)


@dataclass(frozen=True, slots=True)
class Habit:
    """A smoother model of a player than the shares: it plays each legal
    rank with a chance that grows with what the card is worth, as
    exp(`points` x the points it pegs - `risk` x what the next player may
    expect in reply (`rollout.reply_risk`) + `pips` x its pip value), and
    `stray` of the time any legal rank alike. A second-best card is then
    likely too, where the shares put all their weight on one card."""

    points: float
    risk: float
    pips: float
    stray: float

    def scores(self, pile: int, count: int) -> list[float]:
        """For each rank (index 1..13), exp of its score on the packed
        `pile` at `count` (0 where it does not fit: over 31, or a fifth of
        a kind)."""
        out = [0.0] * 14
        for rank in range(1, 14):
            value = min(10, rank)
            new = count + value
            if new > 31 or pile & 0xFFFF == rank * 0x1111:  # nobody holds a fifth
                continue
            after = ((pile << 4) | rank) & PILE_MASK
            risk = reply_risk(after, new) / 100 if new != 31 else 0.0
            out[rank] = math.exp(self.points * pile_points_code(after, new)
                                 - self.risk * risk + self.pips * value)
        return out

    def chance(self, scores: Sequence[float], rank: int, legal: Iterable[int]) -> float:
        """The chance of playing `rank` among the distinct `legal` ranks,
        given their `scores` (see `scores`)."""
        legal = list(legal)
        return self.stray / len(legal) \
            + (1 - self.stray) * scores[rank] / sum(scores[r] for r in legal)


# The expert bot's habits, fitted by maximum likelihood to its plays with
# a choice of ranks (true hands known): they fit those plays better than
# the shares that fit them best, and those better than any legal rank
# alike (measured: assets/measurements/players.md, 'Reading an expert seat').
EXPERT_HABIT = Habit(points=2.3, risk=0.85, pips=0.175, stray=0.035)

# A model of a player: the shares (standard, wary) or a Habit.
Model = tuple[float, float] | Habit

# play_chance's answers, by the model (one table for each model in use).
_CHANCES: dict[Model, dict[int, float]] = {}


def play_chance(hand: int, pile: int, count: int, rank: int,
                shares: Model = SHARES) -> float:
    """How likely the model player, holding the packed sorted `hand`, plays
    `rank` on the packed `pile` at `count`: `shares` are how often it makes
    the standard choice and the wary one (GREEDY_SHARE, WARY_SHARE unless
    told), otherwise any legal rank alike; or a `Habit`."""
    key = (hand << 40) | ((pile & _TAIL6) << 13) | (count << 4) | rank
    chances = _CHANCES.get(shares)
    if chances is None:
        chances = _CHANCES[shares] = {}
    got = chances.get(key)
    if got is not None:
        return got
    if len(chances) >= CACHE_LIMIT:
        chances.clear()
    room = 31 - count
    legal = set()
    code = hand
    while code:
        r = code & 15
        if (r if r < 10 else 10) <= room:
            legal.add(r)
        code >>= 4
    got = 0.0
    if rank in legal and isinstance(shares, Habit):
        got = shares.chance(shares.scores(pile, count), rank, legal)
    elif rank in legal and not isinstance(shares, Habit):
        greedy = (hand >> (4 * greedy_code(hand, pile, count))) & 15
        wary = (hand >> (4 * wary_code(hand, pile, count))) & 15
        greedy_share, wary_share = shares
        got = (greedy_share if rank == greedy else 0.0) + (wary_share if rank == wary else 0.0) \
            + (1 - greedy_share - wary_share) / len(legal)
    chances[key] = got
    return got


def deal_weight(choices: dict[int, tuple[Choice, ...]], dealt: dict[int, list[Card]],
                shares: Model = SHARES) -> float:
    """How likely the seats' earlier plays were had they held `dealt` (the
    cards they hold now): the product of `play_chance` over every play."""
    weight = 1.0
    for seat, made in choices.items():
        if not made:
            continue
        held = [c.rank for c in dealt.get(seat, ())]
        for choice in made:
            hand = pack_ranks(sorted((*choice.later, *held, choice.rank)))
            weight *= play_chance(hand, choice.pile, choice.count, choice.rank, shares)
    return weight


class Reader:
    """One decision's reading of the other seats: their earlier plays, the
    most weight a deal drawn so far had, and each seat's weight by the
    ranks it is dealt (kept as the decision draws: many deals give a seat
    the same ranks)."""

    __slots__ = ("_seat_weights", "choices", "shares", "spare", "top")

    def __init__(self, history: Sequence[tuple[int, Card, int]], seats: Sequence[int],
                 spare: int = 1 << 30,
                 shares: Mapping[int, Model] | None = None) -> None:
        self.choices = {s: made for s, made in choices_by_seat(history, seats).items() if made}
        self.top = 0.0  # the most weight a deal drawn so far had
        # Deals this decision may still throw away: past them, every deal
        # drawn is kept, so a decision's cost has a ceiling.
        self.spare = spare
        # Each seat's model player (see `play_chance`): SHARES unless told.
        self.shares = {s: (shares or {}).get(s, SHARES) for s in seats}
        self._seat_weights: dict[int, float] = {}

    def __bool__(self) -> bool:
        """Whether there is anything to read: another seat has played."""
        return bool(self.choices)

    def weight(self, dealt: dict[int, list[Card]]) -> float:
        """`deal_weight` of `dealt`, a seat's part worked out once for its ranks."""
        weight = 1.0
        known = self._seat_weights
        for seat, made in self.choices.items():
            held = sorted(c.rank for c in dealt.get(seat, ()))
            key = (pack_ranks(held) << 2) | seat
            part = known.get(key)
            if part is None:
                part = known[key] = deal_weight({seat: made}, {seat: dealt.get(seat, [])},
                                                   self.shares[seat])
            weight *= part
        return weight

    def deal(self, draw: Callable[[], dict[int, list[Card]] | None], rng: random.Random,
             tries: int) -> dict[int, list[Card]] | None:
        """A deal drawn as likely as the seats' earlier plays make it: deals
        from `draw` (consistent with the view), each kept with the chance
        `weight` / the most weight seen so far (rejection sampling against
        a bound learnt as it goes: a bound worked out beforehand is loose
        where no hand makes a seat's play its standard choice, and would
        throw most draws away). So the kept deals follow the model's
        belief and every playout is spent on a deal that counts in full.
        After `tries` draws the last is kept anyway: a seat that played
        against the model throughout must not stall the decision."""
        dealt = None
        for _ in range(tries):
            dealt = draw()
            if dealt is None:
                return None
            weight = self.weight(dealt)
            if weight > self.top:
                self.top = weight
            if rng.random() * self.top <= weight or self.spare <= 0:
                return dealt
            self.spare -= 1
        return dealt
