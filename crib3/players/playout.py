"""One deal played out: the rest of the play from a position, every seat
playing by a cheap policy (see `crib3.players.rollout`), and near the end
of the game the show in its order, to see who reaches the target first.
The look-ahead (`crib3.players.lookahead`) plays many of these, one for
each option on each deal it draws.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from crib3.cards import Card
from crib3.engine.state import turn_order
from crib3.players.analysis import (
    PILE_MASK,
    greedy_code,
    pack_pile,
    pile_points_code,
    push_rank,
    remove_at,
)
from crib3.players.style import WIN_BONUS
from crib3.scoring import hand_points


@dataclass(frozen=True, slots=True)
class Show:
    """What a playout needs to count the show at the end of the play."""

    order: tuple[int, int, int]
    starter: Card
    played: tuple[tuple[Card, ...], ...]  # by seat, before the look-ahead
    crib_known: tuple[Card, ...]  # the seat's own discard


# The opponents' points counted as their mean (the margin without `Style.rivals`).
MEAN_WEIGHTS = (0.5, 0.5, 0.5)

# Who moves after seat s, in turn: left, then the one after, then s again.
_AFTER = (turn_order(0), turn_order(1), turn_order(2))


def play_out(card: Card, me: int, ranks: list[int], held: Sequence[Sequence[Card]],
             table: tuple[int, ...], count: int, scores: Sequence[int], target: int,
             show: Show | None = None, crib_rest: Sequence[Card] = (),
             choose: Callable[[int, int, int], int] = greedy_code,
             weights: Sequence[float] = MEAN_WEIGHTS,
             bonus: float = WIN_BONUS,
             by_seat: Mapping[int, Callable[[int, int, int], int]] | None = None
             ) -> tuple[int, float, int]:
    """Play `card`, then the rest of the play (this count and the next ones)
    with every seat playing by `choose` (the `standard` way unless told
    otherwise: see `crib3.players.rollout`), then, near the end of the
    game, the show. Returns (my points in the play, my margin over the
    opponents' points, each weighed by `weights`: their mean unless told
    otherwise, see `crib3.players.rivals`); reaching the target first is
    worth `bonus` (WIN_BONUS unless told), an opponent reaching it first
    costs as much; and
    who did (1: I did, -1: an opponent did, 0: nobody this hand).

    With `by_seat`, each seat named there plays by its own policy instead.

    The play needs ranks alone (suits count only in the show): `ranks` are
    the hands' ranks packed by `pack_ranks`, each sorted lowest first, `held`
    the hands as cards for the show, `table` the ranks of the count so far.
    The position is kept in ints (see `analysis.pack_ranks`)."""
    points = [0, 0, 0]
    policies = [choose, choose, choose]
    if by_seat:
        for s, policy in by_seat.items():
            policies[s] = policy
    hands = list(ranks)
    hand = hands[me]
    shift = 0
    while (hand >> shift) & 15 != card.rank:
        shift += 4
    hands[me] = remove_at(hand, shift // 4)
    pile = push_rank(pack_pile(table), card.rank)
    count += card.value
    points[me] += pile_points_code(pile, count)
    need0, need1, need2 = target - scores[0], target - scores[1], target - scores[2]
    last = me
    winner = -1
    while True:
        if points[last] >= (need0, need1, need2)[last]:
            winner = last
            break
        mover = -1
        if count != 31:
            room = 31 - count
            for s in _AFTER[last]:
                hand = hands[s]
                if hand and (hand & 15) <= room:  # sorted: the lowest rank is the lowest value
                    mover = s
                    break
        if mover < 0:
            if count != 31:
                points[last] += 1  # the go, or the last card
                if points[last] >= (need0, need1, need2)[last]:
                    winner = last
                    break
            # R5.5: the next count is led left of the last card's player.
            for s in _AFTER[last]:
                if hands[s]:
                    mover = s
                    break
            if mover < 0:
                break  # every card is played
            pile = count = 0
        hand = hands[mover]
        index = policies[mover](hand, pile, count)
        chosen = (hand >> (4 * index)) & 15
        hands[mover] = remove_at(hand, index)
        pile = ((pile << 4) | chosen) & PILE_MASK
        count += chosen if chosen < 10 else 10
        points[mover] += pile_points_code(pile, count)
        last = mover
    margin = points[me] - (weights[0] * points[0] + weights[1] * points[1]
                           + weights[2] * points[2] - weights[me] * points[me])
    if winner < 0 and show is not None:
        winner = _show_winner(show, held, crib_rest, [scores[s] + points[s] for s in range(3)],
                              target)
    if winner >= 0:
        margin += bonus if winner == me else -bonus
        return points[me], margin, 1 if winner == me else -1
    return points[me], margin, 0


def play_out_searching(card: Card, me: int, ranks: list[int],
                       held: Sequence[Sequence[Card]], table: tuple[int, ...], count: int,
                       scores: Sequence[int], target: int, show: Show | None,
                       crib_rest: Sequence[Card], choose: Callable[[int, int, int], int],
                       weights: Sequence[float], bonus: float) -> tuple[int, float, int]:
    """`play_out` with the seat `me` choosing each later card as the best
    on this deal (Style.search_self): every rank it may play is tried and
    the one whose playout ends with the best margin (a win counting
    `bonus`) is kept; the other seats play by `choose`."""
    hands = list(ranks)
    hand = hands[me]
    shift = 0
    while (hand >> shift) & 15 != card.rank:
        shift += 4
    hands[me] = remove_at(hand, shift // 4)
    pile = push_rank(pack_pile(table), card.rank)
    count += card.value
    points = [0, 0, 0]
    points[me] += pile_points_code(pile, count)
    needs = (target - scores[0], target - scores[1], target - scores[2])

    def finish(points: list[int], winner: int) -> tuple[int, float, int]:
        margin = points[me] - (weights[0] * points[0] + weights[1] * points[1]
                               + weights[2] * points[2] - weights[me] * points[me])
        if winner < 0 and show is not None:
            winner = _show_winner(show, held, crib_rest,
                                  [scores[s] + points[s] for s in range(3)], target)
        if winner >= 0:
            margin += bonus if winner == me else -bonus
            return points[me], margin, 1 if winner == me else -1
        return points[me], margin, 0

    def go_on(hands: list[int], pile: int, count: int, points: list[int], last: int
              ) -> tuple[int, float, int]:
        while True:
            if points[last] >= needs[last]:
                return finish(points, last)
            mover = -1
            if count != 31:
                room = 31 - count
                for s in _AFTER[last]:
                    hand = hands[s]
                    if hand and (hand & 15) <= room:
                        mover = s
                        break
            if mover < 0:
                if count != 31:
                    points[last] += 1  # the go, or the last card
                    if points[last] >= needs[last]:
                        return finish(points, last)
                for s in _AFTER[last]:
                    if hands[s]:
                        mover = s
                        break
                if mover < 0:
                    return finish(points, -1)  # every card is played
                pile = count = 0
            hand = hands[mover]
            if mover == me:
                indices = []
                code, index, previous, room = hand, 0, -1, 31 - count
                while code:
                    rank = code & 15
                    if rank != previous and (rank if rank < 10 else 10) <= room:
                        indices.append(index)
                    previous = rank
                    code >>= 4
                    index += 1
                if len(indices) > 1:
                    best: tuple[int, float, int] | None = None
                    for index in indices:
                        chosen = (hand >> (4 * index)) & 15
                        branch = list(hands)
                        branch[me] = remove_at(hand, index)
                        after = ((pile << 4) | chosen) & PILE_MASK
                        new_count = count + (chosen if chosen < 10 else 10)
                        got = list(points)
                        got[me] += pile_points_code(after, new_count)
                        result = go_on(branch, after, new_count, got, me)
                        if best is None or result[1] > best[1]:
                            best = result
                    assert best is not None
                    return best
                index = indices[0]
            else:
                index = choose(hand, pile, count)
            chosen = (hand >> (4 * index)) & 15
            hands[mover] = remove_at(hand, index)
            pile = ((pile << 4) | chosen) & PILE_MASK
            count += chosen if chosen < 10 else 10
            points[mover] += pile_points_code(pile, count)
            last = mover

    return go_on(hands, pile, count, points, me)


def _show_winner(show: Show, held: Sequence[Sequence[Card]], crib_rest: Sequence[Card],
                 totals: list[int], target: int) -> int:
    """Who reaches the target first in the show (R6.1, R7.1), or -1."""
    for seat in show.order:
        kept = (*show.played[seat], *held[seat])
        totals[seat] += hand_points(kept, show.starter)
        if totals[seat] >= target:
            return seat
    dealer = show.order[2]
    totals[dealer] += hand_points((*show.crib_known, *crib_rest), show.starter, crib=True)
    return dealer if totals[dealer] >= target else -1
