"""How a board is scored, and how a field of plays of it is compared.

A play of a board scores its net points: what the entry made in the hand
(pegging, his heels, the hand and, as dealer, the crib) less the mean of
what the two other seats made. Cribbage is a race, so points let through
to the others count against a play as points made count for it; halved,
because a point to one of two rivals hurts less than a point of one's own
helps. Everyone compared on a board held the same seat's cards, with the
crib or without it alike, so nets are comparable within a board (not
across boards: a board with a fat crib is worth more to its dealer).

The plays of a board are compared by matchpoints, as a percentage: each
play scores one point for every other play of the board with a lower net
and half for every equal one, out of the plays it is compared with. It is
the scale of bridge's pair games (and of duplicate play generally) because
every board weighs the same, whatever its points, so one huge crib does not
outweigh five well-played hands, and it works for a field of any size. An
event's score is the mean percentage over the boards played: 50% is the
field's middle.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


def net(points: Sequence[int]) -> float:
    """Seat 0's net on a board: its points less the others' mean."""
    return points[0] - (points[1] + points[2]) / 2


def matchpoints(nets: Sequence[float]) -> list[float]:
    """Each net's matchpoints as a percentage of the others it is compared
    with (a play alone on its board has nobody to beat: 50%)."""
    if len(nets) < 2:
        return [50.0] * len(nets)
    out = []
    for i, mine in enumerate(nets):
        won = sum(1.0 if mine > other else 0.5 if mine == other else 0.0
                  for j, other in enumerate(nets) if j != i)
        out.append(100 * won / (len(nets) - 1))
    return out


@dataclass(frozen=True)
class Play:
    """One entry's play of one board, read from its log."""

    board: int
    who: str  # a person's name, or a computer level's entry
    person: bool
    points: tuple[int, int, int]  # the entry's seat first, then its left, its right
    log: Path

    @property
    def net(self) -> float:
        return net(self.points)


@dataclass(frozen=True)
class Scored:
    """A play with its place in the board's field."""

    play: Play
    percent: float


@dataclass(frozen=True)
class BoardResult:
    """Every finished play of a board, best first."""

    board: int
    plays: tuple[Scored, ...]

    def of(self, who: str, person: bool = True) -> Scored | None:
        """`who`'s play of the board (a person's, or the computer entry's)."""
        return next((s for s in self.plays if s.play.who == who and s.play.person == person),
                    None)


@dataclass(frozen=True)
class Standing:
    """An entry's event so far: its mean percentage over its boards."""

    who: str
    person: bool
    boards: int
    percent: float
    net: float  # the sum of its nets (a tie-break, and what it made)


def score_boards(plays: Sequence[Play]) -> list[BoardResult]:
    """Each board's field, in board order."""
    by_board: dict[int, list[Play]] = defaultdict(list)
    for play in plays:
        by_board[play.board].append(play)
    results = []
    for number in sorted(by_board):
        field = by_board[number]
        scored = [Scored(p, pct) for p, pct in zip(field, matchpoints([p.net for p in field]))]
        scored.sort(key=lambda s: (-s.percent, s.play.who))
        results.append(BoardResult(number, tuple(scored)))
    return results


def standings(results: Sequence[BoardResult]) -> list[Standing]:
    """The ranking: the highest mean percentage first, ties by net points.
    A person and a computer entry are told apart by more than the name (a
    person may call themself "computer (easy)")."""
    percents: dict[tuple[str, bool], list[float]] = defaultdict(list)
    nets: dict[tuple[str, bool], float] = defaultdict(float)
    for result in results:
        for scored in result.plays:
            entry = (scored.play.who, scored.play.person)
            percents[entry].append(scored.percent)
            nets[entry] += scored.play.net
    table = [Standing(who, person, len(p), sum(p) / len(p), nets[who, person])
             for (who, person), p in percents.items()]
    table.sort(key=lambda s: (-s.percent, -s.net, s.who))
    return table
