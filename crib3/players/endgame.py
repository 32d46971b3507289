"""Near the end of a game, a discard is worth the game, not the points.

When a seat can reach the target this hand, what matters is the chance
that it does before anybody else. The play comes first: a seat that pegs
out there wins, whoever counts first. Then the show goes left of the dealer
first, then the next seat, then the dealer (hand, then crib): a seat that
counts first and gets there wins, whatever the others hold. So a discard's
chance to win is

    peg + first * (show - peg)

where `peg` is the chance of pegging out with the four kept (the seat's
place's measured play, `crib3.players.seatplay`, moved by the discard
table's play margin for those four; without `Style.seat_play`, a Poisson
around PLAY_POINTS for every seat), `show` the chance that the
play, the hand (over the 46 starters) and the dealer's crib (its measured
spread around its expectation) reach the target, and `first` the chance
that nobody counting earlier gets there first. This chance, weighed as a
win, is added to the discard's net.

With skunks on (R8.1), a seat that may lose this hand below a skunk line
also weighs its chance of getting over the line before the game ends,
with the same sum: a skunk makes the loss count double, so getting over a
line is worth half a win (a win against a loss is two losses' worth).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from crib3.cards import DECK, Card
from crib3.players.seatplay import CRIB_TAIL, crib_at_least, hand_at_least, play_at_least_at
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


@lru_cache(maxsize=256)
def _tails(tenths: int) -> tuple[float, ...]:
    """`_poisson_at_least` for a mean in tenths of a point (kept: the play's
    mean takes a few dozen values)."""
    return tuple(_poisson_at_least(tenths / 10))


def play_at_least(points: float, mean: float = PLAY_POINTS) -> float:
    """The chance of at least `points` in the play, for a seat whose mean
    there is `mean`."""
    need = math.ceil(points)
    if need <= 0:
        return 1.0
    tails = _tails(max(1, round(mean * 10)))
    return tails[need] if need < len(tails) else 0.0


def hand_spread(kept: Sequence[Card], hand: Sequence[Card]) -> list[int]:
    """What `kept` (of the five cards `hand`) scores with each of the 46
    starters the seat cannot see."""
    own = set(hand)
    return [hand_points(kept, starter) for starter in DECK if starter not in own]


def reach_chance(spread: Sequence[int], need: float, extra: float = 0.0,
                 play_mean: float = PLAY_POINTS, place: int | None = None,
                 crib: bool = False) -> float:
    """The chance that the play's points, plus the hand (one of `spread`,
    each as likely), plus `extra` (the dealer's crib) reach `need`. With a
    `place` (see `analysis.place_of`), the play's points are that place's
    measured distribution (`crib3.players.seatplay`) moved to `play_mean`;
    without, a Poisson around `play_mean` (the rougher model). With
    `crib` (and a `place`), `extra` is the dealer's crib's expected points
    and the crib counts as its measured distribution (`seatplay.CRIB_TAIL`
    shifted to that mean), not as its mean: a crib's points spread far
    around their mean, and near the end its long tail is often the game
    (measured: assets/measurements/players.md, 'How each place pegs')."""
    if place is not None and crib:
        return crib_reach(spread, need, extra, place, play_mean)
    if place is not None:
        return sum(play_at_least_at(need - extra - h, place, play_mean)
                   for h in spread) / len(spread)
    return sum(play_at_least(need - extra - h, play_mean) for h in spread) / len(spread)


def crib_reach(spread: Sequence[int], need: float, crib_mean: float, place: int,
               play_mean: float) -> float:
    """`reach_chance` with the crib as a distribution: over the hands in
    `spread` (grouped by value) and the crib's points, the chance that the
    play makes up the rest."""
    counts: dict[int, int] = {}
    for h in spread:
        counts[h] = counts.get(h, 0) + 1
    cribs = []
    above = 1.0
    for c in range(len(CRIB_TAIL) + 1):
        next_above = crib_at_least(c + 1, crib_mean)
        if above > next_above:
            cribs.append((c, above - next_above))
        above = next_above
        if above <= 0.0:
            break
    plays: dict[int, float] = {}  # P(play >= k), by k, worked out once each
    total = 0.0
    for h, n in counts.items():
        for c, p in cribs:
            k = math.ceil(need - h - c)
            got = plays.get(k)
            if got is None:
                got = plays[k] = play_at_least_at(k, place, play_mean)
            total += n * p * got
    return total / len(spread)


def before_the_end(spread: Sequence[int], need: float, first: float, extra: float = 0.0,
                   play_mean: float = PLAY_POINTS, peg_first: bool = True,
                   race: float = 1.0, place: int | None = None, crib: bool = False) -> float:
    """The chance of `need` points before anybody else ends the game: in
    the play (which comes before every count; `race` is the chance that no
    other seat pegs out before us), or in the show when nobody counting
    earlier has gone out (`first`). Without `peg_first` (`Style.peg_out`
    off): only the show's chance, times `first`. `place` as for
    `reach_chance`."""
    show = reach_chance(spread, need, extra, play_mean, place, crib)
    if not peg_first:
        return first * show
    peg = play_at_least(need, play_mean) if place is None \
        else play_at_least_at(need, place, play_mean)
    return race * peg + first * max(0.0, show - peg)


def peg_race(seat: int, scores: Sequence[int], target: int,
             dealer: int | None = None) -> float:
    """A rough chance that no other seat pegs out in the play before
    `seat` gets its points there: each other seat that can peg out at all
    gets there first half of the time. With the `dealer`, each seat pegs as
    its place does (`crib3.players.seatplay`), else as a Poisson around
    PLAY_POINTS (the rougher model)."""
    chance = 1.0
    for other in range(3):
        if other != seat:
            need = target - scores[other]
            peg = play_at_least(need) if dealer is None \
                else play_at_least_at(need, (other - dealer - 1) % 3)
            chance *= 1.0 - 0.5 * peg
    return chance


def others_reach_chance(need: int) -> float:
    """A rough chance that a seat whose cards are hidden reaches `need`
    points with its play and hand (a normal guess around a usual hand)."""
    mean = HAND_MEAN + PLAY_POINTS
    spread = math.hypot(HAND_SPREAD, math.sqrt(PLAY_POINTS))
    return 0.5 * math.erfc((need - 0.5 - mean) / (spread * math.sqrt(2)))


def first_chance(seat: int, dealer: int, scores: Sequence[int], target: int,
                 by_place: bool = False) -> float:
    """The chance that nobody who counts before `seat` in this hand's show
    reaches the target first (their play and hand; the play also runs
    before anyone counts, so every other seat may peg out first). With
    `by_place`, from each seat's measured play and hand at its place
    (`crib3.players.seatplay`), else a normal guess around a usual hand
    (`others_reach_chance`)."""
    order = ((dealer + 1) % 3, (dealer + 2) % 3, dealer)
    chance = 1.0
    for place, other in enumerate(order[:order.index(seat)]):
        need = target - scores[other]
        chance *= 1.0 - (hand_at_least(need, place) if by_place else others_reach_chance(need))
    return chance


def ends_this_hand(seat: int, scores: Sequence[int], target: int,
                   dealer: int | None = None) -> float:
    """A rough chance that one of the other seats reaches the target this
    hand (their play and hand, the crib left out); with the `dealer`, from
    each seat's measured play and hand at its place."""
    stays = 1.0
    for other in range(3):
        if other != seat:
            need = target - scores[other]
            stays *= 1.0 - (others_reach_chance(need) if dealer is None
                            else hand_at_least(need, (other - dealer - 1) % 3))
    return 1.0 - stays


# Within this many points of the target (or of a skunk line), a seat may get
# there this hand.
ENDGAME_NEED = 32


@dataclass(frozen=True, slots=True)
class Stakes:
    """What the end of the game adds to one discard: the chance to win
    (`win`), the chance to get over the next skunk line before the end
    (`clear`, None when no line is at stake), and their worth in points."""

    win: float | None
    clear: float | None
    bonus: float


def stakes(kept: Sequence[Card], hand: Sequence[Card], seat: int, dealer: int,
           scores: Sequence[int], target: int, skunk_lines: Sequence[int],
           extra: float, play_mean: float, win_bonus: float,
           peg_first: bool = True, by_place: bool = False,
           crib_spread: bool = False) -> Stakes:
    """The end-of-game terms of keeping `kept`, for `seat` (see the module
    docstring); `skunk_lines` empty when skunks are off (or not weighed).
    With `by_place`, every seat's play (and the others' play and hand) is
    its place's measured distribution (`crib3.players.seatplay`), the
    seat's own moved to `play_mean`; without, the rougher models (a Poisson
    for the play, a normal guess for the others' play and hand).
    With `crib_spread` (and `by_place`), `extra`, the seat's own crib, counts
    as a distribution, not its mean (see `reach_chance`)."""
    need = target - scores[seat]
    first = first_chance(seat, dealer, scores, target, by_place)
    race = peg_race(seat, scores, target, dealer if by_place else None)
    place = (seat - dealer - 1) % 3 if by_place else None
    spread: list[int] | None = None
    win = clear = None
    bonus = 0.0
    if need <= ENDGAME_NEED:
        spread = hand_spread(kept, hand)
        win = before_the_end(spread, need, first, extra, play_mean, peg_first, race, place,
                             crib_spread)
        bonus += win_bonus * win
    line = min((line for line in skunk_lines if scores[seat] < line), default=None)
    if line is not None and line - scores[seat] <= ENDGAME_NEED:  # the next line up
        end = ends_this_hand(seat, scores, target, dealer if by_place else None)
        if spread is None:
            spread = hand_spread(kept, hand)
        clear = before_the_end(spread, line - scores[seat], first, extra, play_mean, peg_first,
                               race, place, crib_spread)
        bonus += win_bonus / 2 * end * clear
    return Stakes(win, clear, bonus)
