"""The look-ahead's playout policy: the `standard` choice, and a wary one.

The look-ahead plays the rest of the play out many times; every seat in
those playouts (the expert's own later cards included) plays by a policy.
The `standard` player's choice (`analysis.greedy_code`: points now, then
not one of the classic gifts, then the highest card) is cheap but careless:
it leaves a count where the next player pairs or makes fifteen as readily
as any other, once the classic gifts are avoided. `wary_code` plays more
like the expert does: points now, less what the next player can expect
to score in reply over the ranks still unseen, the standard choice
breaking ties. Both are cached by position as
ints (see `analysis.pack_ranks`), so a playout costs the same either way.
"""

from __future__ import annotations

from crib3.players.analysis import (
    _BONUS,
    CACHE_LIMIT,
    PILE_MASK,
    pile_points_code,
)

# The chance the next player holds a card of a given rank (about three cards
# of four in each of 13 ranks): what one reply's points are weighed by.
REPLY_CHANCE = 0.2

_TAIL6 = (1 << 24) - 1


def _risk_table() -> tuple[int, ...]:
    """_RISK[(count * 14 + rank) * 5 + same]: 100 x what the next player
    may expect in reply to a count of `count` whose last `same` cards are all `rank`
    (REPLY_CHANCE x the points of each rank that fits: fifteen and 31,
    pairs). Runs are left out: they need the whole pile, and a reply's run
    is rarer than its fifteen or pair. One flat tuple of ints, not tuples
    of tuples: hundreds of small containers living for the whole process
    would only give the garbage collector's full passes more to walk."""
    table = []
    for count in range(32):
        for rank in range(14):
            for same in range(5):
                total = 0
                for reply in range(1, 14):
                    value = reply if reply < 10 else 10
                    if count + value > 31:
                        continue
                    if count + value in (15, 31):
                        total += 2
                    if rank and reply == rank and same < 4:
                        total += (2, 6, 12)[same - 1]
                table.append(int(100 * REPLY_CHANCE * total))
    return tuple(table)


_RISK = _risk_table()


def reply_risk(pile: int, count: int) -> int:
    """100 x the points the next player may expect in reply to the packed
    `pile` at `count` (see `_risk_table`)."""
    rank = pile & 15
    same = 1
    while same < 4 and (pile >> (4 * same)) & 15 == rank:
        same += 1
    return _RISK[(count * 14 + rank) * 5 + same]


_WARY: dict[int, int] = {}


def wary_code(hand: int, pile: int, count: int) -> int:
    """The index in the packed sorted `hand` of the card the wary player
    plays on the packed `pile` at `count`, or -1 when none fits."""
    key = (hand << 40) | ((pile & _TAIL6) << 6) | count
    got = _WARY.get(key)
    if got is not None:
        return got
    if len(_WARY) >= CACHE_LIMIT:
        _WARY.clear()
    bonus = _BONUS[count][0 if pile else 1]
    best = -1
    best_score = -(1 << 30)
    room = 31 - count
    index = 0
    code = hand
    while code:
        rank = code & 15
        value = rank if rank < 10 else 10
        if value <= room:
            after = ((pile << 4) | rank) & PILE_MASK
            new = count + value
            score = 100 * (100 * pile_points_code(after, new)
                           - (reply_risk(after, new) if new != 31 else 0)) + bonus[rank]
            if score > best_score:
                best, best_score = index, score
        code >>= 4
        index += 1
    _WARY[key] = best
    return best
