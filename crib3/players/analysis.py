"""The arithmetic the bots and the coach share: expected hands, crib values,
points in the play, and samples of the unseen cards.

Everything here works from what one seat may know (its `SeatView`, or the
cards in its own hand), never from the engine's state.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from crib3.cards import DECK, JACK, Card
from crib3.scoring import rank_table

# --- the discard -------------------------------------------------------------


class StarterCounts:
    """The possible starters, counted by rank and by suit: enough to work out
    an expected hand exactly in 13 steps instead of 47."""

    __slots__ = ("n", "by_rank", "by_suit")

    def __init__(self, starters: Iterable[Card]) -> None:
        self.by_rank = [0] * 14
        self.by_suit = [0] * 4
        self.n = 0
        for c in starters:
            self.by_rank[c.rank] += 1
            self.by_suit[c.suit] += 1
            self.n += 1


_RANK_BITS = [0] + [1 << (3 * (r - 1)) for r in range(1, 14)]


def expected_hand(kept: Sequence[Card], starters: Iterable[Card] | StarterCounts) -> float:
    """Mean points of `kept` (four cards) over the possible `starters`:
    exactly the mean of `hand_points` over them, grouped by rank (fifteens,
    pairs and runs depend on the rank alone) and by suit (flush, nobs)."""
    counts = starters if isinstance(starters, StarterCounts) else StarterCounts(starters)
    if not counts.n:
        return 0.0
    table = rank_table()
    a, b, c, d = kept
    base = a.rank_bit + b.rank_bit + c.rank_bit + d.rank_bit
    total = 0
    by_rank = counts.by_rank
    for rank in range(1, 14):
        if by_rank[rank]:
            total += table[base + _RANK_BITS[rank]] * by_rank[rank]
    suit = a.suit
    if b.suit == suit and c.suit == suit and d.suit == suit:
        total += 4 * counts.n + counts.by_suit[suit]  # 4, or 5 with the starter's suit
    for card in kept:
        if card.rank == JACK:
            total += counts.by_suit[card.suit]  # nobs
    return total / counts.n


def starters_for(hand: Sequence[Card]) -> list[Card]:
    """Every card the starter may be, seen from a seat holding `hand`: the 47
    cards that are not among its five."""
    own = set(hand)
    return [c for c in DECK if c not in own]


@lru_cache(maxsize=1)
def crib_table() -> dict[int, float]:
    """Expected points of a three-player crib given the rank (1..13) of one
    seat's discard, computed by `python -m crib3.players.cribtable` and
    shipped as data (crib_table.json)."""
    text = resources.files("crib3.players").joinpath("crib_table.json").read_text("utf-8")
    data = json.loads(text)
    return {int(rank): float(value) for rank, value in data["expected_crib"].items()}


@lru_cache(maxsize=1)
def discard_table() -> tuple[tuple[dict[int, float], ...], tuple[tuple[float, ...], ...]]:
    """The play's worth of a kept four by place (0 = left of the dealer,
    1, 2 = the dealer), keyed by `pack_ranks` of the sorted kept ranks; and
    the crib's shift for each (rank thrown, rank kept). Computed by
    `python -m crib3.players.discardtable`, shipped as discard_table.json."""
    text = resources.files("crib3.players").joinpath("discard_table.json").read_text("utf-8")
    data = json.loads(text)
    play = tuple({int(code): float(v) for code, v in cells.items()} for cells in data["play"])
    given: list[tuple[float, ...]] = [(0.0,) * 14]
    for thrown in range(1, 14):
        row = data["crib_given_kept"][str(thrown)]
        given.append((0.0, *(float(row[str(k)]) for k in range(1, 14))))
    return play, tuple(given)


def crib_value(card: Card, kept: Sequence[Card]) -> float:
    """The expected points of the crib `card` goes into, the seat keeping
    `kept`: the crib table's value for its rank, moved by the cards kept."""
    shift = discard_table()[1][card.rank]
    return crib_table()[card.rank] + sum(shift[c.rank] for c in kept)


def kept_play(kept: Sequence[Card], place: int) -> float:
    """The discard table's play margin for keeping `kept` at `place`."""
    return discard_table()[0][place].get(pack_ranks(sorted(c.rank for c in kept)), 0.0)


def place_of(seat: int, dealer: int) -> int:
    """A seat's place for the discard table: 0 left of the dealer (leads
    the play, counts first), 1 next, 2 the dealer."""
    return (seat - dealer - 1) % 3


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """One possible discard, with its numbers.

    `crib` is the crib's expected value as it counts for this seat: positive
    in its own crib, negative in an opponent's. `play` is the kept four's
    expected margin in the play (0 when the play is not counted).
    `net` = `hand` + `crib` + `play`, and near the end of the game the
    chance to count out first (`out`, see `crib3.players.endgame`) weighed
    as a win, and with skunks on the chance to get over the next skunk line
    before the end (`clear`) weighed as half a win."""

    card: Card
    kept: tuple[Card, ...]
    hand: float
    crib: float
    net: float
    play: float = 0.0
    out: float | None = None
    clear: float | None = None


# Points in an opponent's crib go to one of two opponents: measured against
# the mean of the opponents, as every margin here is, they cost half as much
# as points in your own crib are worth.
OPPONENT_CRIB_WEIGHT = 0.5


def discard_options(hand: Sequence[Card], own_crib: bool,
                    use_crib: bool = True, place: int | None = None,
                    play_weight: float = 1.0) -> list[DiscardOption]:
    """The five discards of a five-card hand, best first (by `net`).
    With a `place` (see `place_of`), the play's worth of the kept four
    counts too (times `play_weight`), and the crib's value is conditioned
    on the cards kept."""
    starters = StarterCounts(starters_for(hand))
    table = crib_table() if use_crib else None
    play_table, crib_given = discard_table() if place is not None else ((), ())
    options = []
    for card in hand:
        kept = tuple(c for c in hand if c is not card)
        ev = expected_hand(kept, starters)
        crib = 0.0
        if table is not None:
            crib = table[card.rank]
            if place is not None:
                shift = crib_given[card.rank]
                crib += sum(shift[c.rank] for c in kept)
            crib = crib if own_crib else -OPPONENT_CRIB_WEIGHT * crib
        play = 0.0
        if place is not None:
            play = play_weight * play_table[place].get(pack_ranks(sorted(c.rank for c in kept)),
                                                       0.0)
        options.append(DiscardOption(card, kept, ev, crib, ev + crib + play, play))
    options.sort(key=lambda o: (-o.net, o.card.index))
    return options


# --- the play -------------------------------------------------------------------


def play_points(pile: Sequence[Card], count: int) -> int:
    """Points for the last card of `pile` (count `count` after it): the same
    rules as `crib3.scoring.score_play`, without building the items."""
    return rank_points([c.rank for c in pile], count)


def rank_points(pile: Sequence[int], count: int) -> int:
    """`play_points` on the ranks of the pile (1 = ace .. 13 = king): the
    play never looks at suits, so the look-ahead plays with ranks alone."""
    points = 2 if count == 15 or count == 31 else 0
    n = len(pile)
    last = pile[-1]
    same = 1
    while same < n and pile[-1 - same] == last:
        same += 1
    if same >= 2:
        return points + (2, 6, 12)[same - 2]
    for k in range(n, 2, -1):
        lo = hi = last
        seen = 0
        ok = True
        for r in pile[-k:]:
            bit = 1 << r
            if seen & bit:
                ok = False
                break
            seen |= bit
            if r < lo:
                lo = r
            elif r > hi:
                hi = r
        if ok and hi - lo == k - 1:
            return points + k
    return points


def gift_risk(count: int) -> str | None:
    """What a count left by a card invites from the next player, in words."""
    if count == 5:
        return "leaves 5: a ten makes 15"
    if count == 21:
        return "leaves 21: a ten makes 31"
    need15 = 15 - count
    if 1 <= need15 <= 9:
        return f"leaves {count}: a{'n' if need15 in (8, 1) else ''} {_rank_word(need15)} makes 15"
    need31 = 31 - count
    if 1 <= need31 <= 9:
        return f"leaves {count}: a{'n' if need31 in (8, 1) else ''} {_rank_word(need31)} makes 31"
    return None


def _rank_word(value: int) -> str:
    return "ace" if value == 1 else str(value)


def greedy_play(hand: Sequence[Card], pile: list[Card], count: int) -> Card | None:
    """The `standard` play: most points now; then not a gift; then the
    highest card (low cards are worth keeping for late in the count).
    Leading, it prefers a card under 5, which nobody can make 15."""
    index = greedy_rank([c.rank for c in hand], tuple(c.rank for c in pile), count)
    return None if index < 0 else hand[index]


def greedy_rank(hand: Sequence[int], pile: tuple[int, ...], count: int) -> int:
    """`greedy_play` on ranks: the index in `hand` of the card to play, or
    -1 when none fits. Of equal cards, the first in the hand."""
    return _greedy(tuple(hand), pile, count)


@lru_cache(maxsize=1 << 16)
def _greedy(hand: tuple[int, ...], pile: tuple[int, ...], count: int) -> int:
    # Cached: the look-ahead asks the same few thousand positions over and
    # over in its playouts.
    best = -1
    best_key: tuple[int, int, int] | None = None
    room = 31 - count
    leading = not pile
    for i, rank in enumerate(hand):
        value = rank if rank < 10 else 10
        if value > room:
            continue
        new = count + value
        points = rank_points((*pile, rank), new)
        gift = 1 if new == 5 or new == 21 or 5 <= 15 - new <= 9 or 5 <= 31 - new <= 9 else 0
        if leading:
            tiebreak = 20 - value if value < 5 else -value
        else:
            tiebreak = value
        key = (points, -gift, tiebreak)
        if best_key is None or key > best_key:
            best, best_key = i, key
    return best


# --- the look-ahead's positions as integers ---------------------------------------
#
# The look-ahead plays out a great many counts for every decision. Its
# positions are packed into ints (four bits a rank, 1..13): ints are not
# tracked by the garbage collector, so the caches below, keyed and valued by
# ints, cost a full collection nothing, and a playout allocates almost no
# containers (tuples and lists made the collector run often, and its full
# passes over the old caches were the slowest decisions' spikes; measured:
# assets/measurements/players.md, 'Think time').

CACHE_LIMIT = 1 << 18  # entries per cache before it is emptied and refilled


def pack_ranks(ranks: Iterable[int]) -> int:
    """Ranks packed four bits each, the first in the lowest bits."""
    code = 0
    for shift, rank in enumerate(ranks):
        code |= rank << (4 * shift)
    return code


def unpack_ranks(code: int) -> list[int]:
    out = []
    while code:
        out.append(code & 15)
        code >>= 4
    return out


# A count's pile is kept as its last seven ranks, the newest in the lowest
# bits: nothing further back can score (a run of eight would count 36).
PILE_MASK = (1 << 28) - 1
_TAIL6 = (1 << 24) - 1


def push_rank(pile: int, rank: int) -> int:
    """The packed pile after one more card (see PILE_MASK)."""
    return ((pile << 4) | rank) & PILE_MASK


def pack_pile(ranks: Iterable[int]) -> int:
    """A count's ranks, oldest first, as a packed pile (see PILE_MASK)."""
    pile = 0
    for rank in ranks:
        pile = push_rank(pile, rank)
    return pile


_PILE_POINTS: dict[int, int] = {}


def pile_points_code(pile: int, count: int) -> int:
    """`rank_points` for the newest card of a packed pile, `count` after it."""
    key = pile | (count << 28)
    got = _PILE_POINTS.get(key)
    if got is None:
        if len(_PILE_POINTS) >= CACHE_LIMIT:
            _PILE_POINTS.clear()
        got = _PILE_POINTS[key] = rank_points(unpack_ranks(pile)[::-1], count)
    return got


_GREEDY: dict[int, int] = {}


def greedy_code(hand: int, pile: int, count: int) -> int:
    """`greedy_rank` on a packed hand (sorted, lowest rank first: the same
    card a sorted tuple would give) and a packed pile: the index of the card
    to play, or -1. Only the pile's last six ranks can matter to the next
    card, so the key holds those and the count: many piles share a key."""
    key = (hand << 40) | ((pile & _TAIL6) << 6) | count
    got = _GREEDY.get(key)
    if got is not None:
        return got
    if len(_GREEDY) >= CACHE_LIMIT:
        _GREEDY.clear()
    # `_greedy`'s choice, from the cached pile points: its key (points, not
    # a gift, tiebreak) as one int, the first best card winning.
    bonus = _BONUS[count][0 if pile else 1]
    best = -1
    best_score = -1
    room = 31 - count
    index = 0
    code = hand
    while code:
        rank = code & 15
        value = rank if rank < 10 else 10
        if value <= room:
            score = 100 * pile_points_code(((pile << 4) | rank) & PILE_MASK, count + value) \
                + bonus[rank]
            if score > best_score:
                best, best_score = index, score
        code >>= 4
        index += 1
    _GREEDY[key] = best
    return best


def _bonus_row(count: int, leading: bool) -> tuple[int, ...]:
    """For each rank, `_greedy`'s (not a gift, tiebreak) after `count` as
    one int in 0..99, to add to 100 x the points."""
    row = [0]
    for rank in range(1, 14):
        value = rank if rank < 10 else 10
        new = count + value
        gift = 1 if new == 5 or new == 21 or 5 <= 15 - new <= 9 or 5 <= 31 - new <= 9 else 0
        if leading:
            tiebreak = 20 - value if value < 5 else -value
        else:
            tiebreak = value
        row.append((1 - gift) * 40 + tiebreak + 20)
    return tuple(row)


_BONUS = tuple((_bonus_row(count, False), _bonus_row(count, True)) for count in range(32))


def remove_at(hand: int, index: int) -> int:
    """A packed hand without its card at `index`."""
    low = hand & ((1 << (4 * index)) - 1)
    return low | ((hand >> (4 * index + 4)) << (4 * index))


# --- sampling the unseen cards -----------------------------------------------------


def min_values(hand_gos: Sequence[tuple[int, int, int]]) -> dict[int, int]:
    """For each seat that said go this hand, the lowest card value it can
    still hold: a go at count c means every card it held was over 31 - c."""
    out: dict[int, int] = {}
    for seat, count, _ in hand_gos:
        out[seat] = max(out.get(seat, 1), 32 - count)
    return out


def sample_hands(pool: Sequence[Card], sizes: dict[int, int], floors: dict[int, int],
                 rng: random.Random) -> dict[int, list[Card]] | None:
    """Deal `sizes[seat]` cards from `pool` to each seat so that no seat
    gets a card below its floor. Seats with a floor are dealt first."""
    if not floors:  # the usual case: a random few of the pool, dealt in turn
        wanted = sum(sizes.values())
        if wanted > len(pool):
            return None
        drawn = rng.sample(pool, wanted)
        hands: dict[int, list[Card]] = {}
        start = 0
        for seat, want in sizes.items():
            hands[seat] = drawn[start:start + want]
            start += want
        return hands
    cards = list(pool)
    rng.shuffle(cards)
    hands = {}
    for seat in sorted(sizes, key=lambda s: -floors.get(s, 1)):
        floor = floors.get(seat, 1)
        want = sizes[seat]
        took = [c for c in cards if c.value >= floor][:want]
        if len(took) < want:
            return None
        taken = set(took)
        cards = [c for c in cards if c not in taken]
        hands[seat] = took
    return hands


def draw_hands(pool: Sequence[Card], sizes: dict[int, int], floors: dict[int, int],
               rng: random.Random) -> dict[int, list[Card]] | None:
    """`sample_hands` with the same odds for every deal, drawn faster where
    a seat has a floor: each seat's cards are a sample of the cards it may
    hold, not the first of a shuffled pool (the look-ahead without
    `Style.read_plays` keeps `sample_hands`, so that it plays as it did)."""
    if not floors:
        return sample_hands(pool, sizes, floors, rng)
    cards = list(pool)
    hands: dict[int, list[Card]] = {}
    for seat in sorted(sizes, key=lambda s: -floors.get(s, 1)):
        floor = floors.get(seat, 1)
        want = sizes[seat]
        fits = [c for c in cards if c.value >= floor] if floor > 1 else cards
        if len(fits) < want:
            return None
        took = rng.sample(fits, want)
        taken = set(took)
        cards = [c for c in cards if c not in taken]
        hands[seat] = took
    return hands
