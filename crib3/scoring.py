"""Cribbage scoring: hands in the show and cards in the play.

Two paths, one set of rules:

- `score_hand` / `score_play` return an itemized `Score`: one `ScoreItem` per
  scoring combination, so the show can be said aloud and the log can say what
  every point was for.
- `hand_points` returns only the total, fast, for the bots' inner loops. The
  part of a hand's score that depends on ranks alone (fifteens, pairs, runs) is
  looked up in a table keyed by the multiset of the five ranks, built once on
  first use from the itemized rules themselves, so the two paths cannot
  disagree (a test checks every key).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from crib3.cards import JACK, Card

FIFTEEN = "fifteen"
THIRTY_ONE = "thirty-one"
PAIR = "pair"
RUN = "run"
FLUSH = "flush"
NOBS = "nobs"

HAND_KINDS = (FIFTEEN, PAIR, RUN, FLUSH, NOBS)
PAIR_POINTS = {2: 2, 3: 6, 4: 12}


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: what kind, which cards, how many points."""

    kind: str
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"{self.kind} {' '.join(map(str, self.cards))} for {self.points}"


@dataclass(frozen=True, slots=True)
class Score:
    """A total and the items that make it up, in the order a player says them."""

    total: int
    items: tuple[ScoreItem, ...]

    @classmethod
    def of(cls, items: Sequence[ScoreItem]) -> Score:
        return cls(sum(i.points for i in items), tuple(items))


NO_SCORE = Score(0, ())


def _check_hand(hand: Sequence[Card], starter: Card) -> None:
    if len(hand) != 4:
        raise ValueError(f"a hand to count has 4 cards, not {len(hand)}")
    if len({*hand, starter}) != 5:
        raise ValueError("a card appears twice among the hand and the starter")


def score_hand(hand: Sequence[Card], starter: Card, crib: bool = False) -> Score:
    """Itemized score of four cards with the starter (rules.md R6).

    Items come in the order they are said: fifteens, pairs, runs, flush, nobs.
    With `crib=True` only a five-card flush counts.
    """
    _check_hand(hand, starter)
    five = sorted((*hand, starter))
    items: list[ScoreItem] = []

    for combo in _fifteens(five):
        items.append(ScoreItem(FIFTEEN, tuple(five[i] for i in combo), 2))

    for a, b in combinations(five, 2):
        if a.rank == b.rank:
            items.append(ScoreItem(PAIR, (a, b), 2))

    items.extend(_hand_runs(five))

    suit = hand[0].suit
    if all(c.suit == suit for c in hand):
        if starter.suit == suit:
            items.append(ScoreItem(FLUSH, tuple(five), 5))
        elif not crib:
            items.append(ScoreItem(FLUSH, tuple(sorted(hand)), 4))

    for c in hand:
        if c.rank == JACK and c.suit == starter.suit:
            items.append(ScoreItem(NOBS, (c,), 1))

    return Score.of(items)


_INDEX_SETS = [combo for size in (2, 3, 4, 5) for combo in combinations(range(5), size)]
_FIFTEENS_BY_VALUES: dict[tuple[int, ...], list[tuple[int, ...]]] = {}


def _fifteens(five: Sequence[Card]) -> list[tuple[int, ...]]:
    """Positions of every combination making 15 among five cards sorted by
    rank. It depends only on their values, so it is worked out once for each
    of the few thousand value patterns and remembered."""
    values = tuple(c.value for c in five)
    found = _FIFTEENS_BY_VALUES.get(values)
    if found is None:
        found = [ix for ix in _INDEX_SETS if sum(values[i] for i in ix) == 15]
        _FIFTEENS_BY_VALUES[values] = found
    return found


def _hand_runs(five: Sequence[Card]) -> list[ScoreItem]:
    """Every distinct combination of the longest run (length >= 3)."""
    by_rank: dict[int, list[Card]] = {}
    for c in five:
        by_rank.setdefault(c.rank, []).append(c)
    ranks = sorted(by_rank)
    best: list[int] = []
    current: list[int] = []
    for r in ranks:
        current = current + [r] if current and r == current[-1] + 1 else [r]
        if len(current) > len(best):
            best = current
    if len(best) < 3:
        return []
    combos: list[tuple[Card, ...]] = [()]
    for r in best:
        combos = [(*combo, c) for combo in combos for c in sorted(by_rank[r])]
    return [ScoreItem(RUN, combo, len(best)) for combo in combos]


def score_play(pile: Sequence[Card]) -> Score:
    """Points for the last card of `pile`, the cards played since the last
    reset, in order (rules.md R5.6): fifteen, thirty-one, pairs, runs."""
    if not pile:
        return NO_SCORE
    count = sum(c.value for c in pile)
    if count > 31:
        raise ValueError(f"the count would be {count}: a pile never passes 31")
    items: list[ScoreItem] = []
    if count == 15:
        items.append(ScoreItem(FIFTEEN, tuple(pile), 2))
    elif count == 31:
        items.append(ScoreItem(THIRTY_ONE, tuple(pile), 2))

    last = pile[-1]
    same = 1
    while same < len(pile) and pile[-1 - same].rank == last.rank:
        same += 1
    if same >= 2:
        items.append(ScoreItem(PAIR, tuple(pile[-same:]), PAIR_POINTS[same]))
    else:
        run = _play_run_length(pile)
        if run:
            items.append(ScoreItem(RUN, tuple(pile[-run:]), run))
    return Score.of(items)


def _play_run_length(pile: Sequence[Card]) -> int:
    """The longest k >= 3 such that the last k cards are k consecutive ranks."""
    for k in range(len(pile), 2, -1):
        ranks = {c.rank for c in pile[-k:]}
        if len(ranks) == k and max(ranks) - min(ranks) == k - 1:
            return k
    return 0


def play_points(pile: Sequence[Card]) -> int:
    """Total of `score_play(pile)`, for bots."""
    return score_play(pile).total


# --- the fast path -----------------------------------------------------------

_RANK_TABLE: dict[int, int] = {}


def _rank_points(ranks: Sequence[int]) -> int:
    """Fifteens, pairs and runs of five ranks (suits do not matter for them)."""
    values = [min(r, 10) for r in ranks]
    points = 0
    for size in (2, 3, 4, 5):
        for combo in combinations(values, size):
            if sum(combo) == 15:
                points += 2
    counts = [0] * 15
    for r in ranks:
        counts[r] += 1
    points += sum(n * (n - 1) for n in counts)
    r = 1
    while r <= 13:
        if counts[r]:
            start = r
            product = 1
            while r <= 13 and counts[r]:
                product *= counts[r]
                r += 1
            if r - start >= 3:
                points += (r - start) * product
        else:
            r += 1
    return points


def rank_table() -> dict[int, int]:
    """Points from ranks alone for every multiset of five ranks, keyed by the
    sum of the cards' `rank_bit`. Built on first use (about 50 ms).

    Built aside and published whole (one `dict.update`, which holds the
    GIL throughout): two threads may ask at once (the game's warm-up and
    the statistics' review), and one must never read a half-built table
    (it did: a KeyError that ended the app)."""
    if not _RANK_TABLE:
        built = {sum(1 << (3 * (r - 1)) for r in combo): _rank_points(combo)
                 for combo in _rank_multisets(5)}
        _RANK_TABLE.update(built)
    return _RANK_TABLE


def _rank_multisets(size: int, low: int = 1) -> list[tuple[int, ...]]:
    if size == 0:
        return [()]
    out = []
    for r in range(low, 14):
        for rest in _rank_multisets(size - 1, r):
            combo = (r, *rest)
            if combo.count(r) <= 4:
                out.append(combo)
    return out


def hand_points(hand: Sequence[Card], starter: Card, crib: bool = False) -> int:
    """Total of `score_hand(hand, starter, crib)`, without the items. Assumes
    four distinct cards and a starter not among them (bots' inner loop)."""
    a, b, c, d = hand
    points = (_RANK_TABLE or rank_table())[
        a.rank_bit + b.rank_bit + c.rank_bit + d.rank_bit + starter.rank_bit
    ]
    suit = a.suit
    if b.suit == suit and c.suit == suit and d.suit == suit:
        if starter.suit == suit:
            points += 5
        elif not crib:
            points += 4
    s = starter.suit
    if (
        (a.rank == JACK and a.suit == s)
        or (b.rank == JACK and b.suit == s)
        or (c.rank == JACK and c.suit == s)
        or (d.rank == JACK and d.suit == s)
    ):
        points += 1
    return points
