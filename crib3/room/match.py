"""A match: the same three people play games at one table until one of
them has won a majority of them (best of 3: two games; best of 5: three).

Three-handed, the games can run out with nobody there (1-1-1 of three,
2-2-1 of five). As a cribbage club plays a match out rather than settle
it on points, the match then goes on, a game at a time, until somebody
reaches that number: the first to win 2 (of 3) or 3 (of 5) wins it,
however many games it takes. Each game is a new game (the deal is cut
for, as the rules say for any new game).

The match's ranking is what a rated table rates, once, when the match
ends: its winner first, the other two by games won (equal ones share a
place, as a game's equal scores do); a person who left (the computer
finished their seat) last. Its result line scores each seat by its games
won, so that the results log ranks it as the match did.

Pure: no clock, no files; the table keeps a `Match` and replaces it as
each game ends (`Match.add`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

BEST_OF = (1, 3, 5)  # a table's choices: one game, best of 3, best of 5


@dataclass(frozen=True, slots=True)
class Played:
    """One finished game of a match: its winner's seat, and every seat's final score."""

    winner: int
    scores: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Match:
    """A match's games so far (see the module's docstring)."""

    best_of: int = 1
    games: tuple[Played, ...] = ()

    def __post_init__(self) -> None:
        if self.best_of not in BEST_OF:
            raise ValueError(f"a match is best of {' or '.join(map(str, BEST_OF))}, "
                             f"not {self.best_of}")

    @property
    def is_match(self) -> bool:
        """More than one game: a single game is no match."""
        return self.best_of > 1

    @property
    def needed(self) -> int:
        """Games to win it: a majority of `best_of` (2 of 3, 3 of 5, 1 of 1)."""
        return self.best_of // 2 + 1

    def wins(self, seats: int = 3) -> list[int]:
        """Games won by each seat so far."""
        counts = [0] * seats
        for game in self.games:
            counts[game.winner] += 1
        return counts

    @property
    def winner(self) -> int | None:
        """The seat that has won the match, None while it goes on."""
        for seat, won in enumerate(self.wins()):
            if won >= self.needed:
                return seat
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def extra(self) -> bool:
        """The scheduled games ran out with nobody at a majority: it plays on."""
        return not self.over and len(self.games) >= self.best_of

    def add(self, game: Played) -> Match:
        """The match with one more finished game (ValueError once it is over)."""
        if self.over:
            raise ValueError("the match is over: no more games")
        return Match(self.best_of, (*self.games, game))

    def places(self, left: Sequence[bool] = (False, False, False)) -> list[int]:
        """Each seat's place in the match, 1 the best (see the module's
        docstring; `crib3.room.ratings.places` ranks its result line the same)."""
        scores = self.wins(len(left))

        def key(seat: int) -> tuple[bool, int]:
            return (True, 0) if left[seat] else (False, -scores[seat])

        return [1 + sum(1 for other in range(len(left)) if key(other) < key(seat))
                for seat in range(len(left))]


def standing_words(match: Match, names: Sequence[str]) -> str:
    """The match in a few words: "best of 3 · game 2 · Ann 1, Bob 0, Cy 0"
    (`names` already shown as they should be)."""
    wins = match.wins(len(names))
    tally = ", ".join(f"{name} {won}" for name, won in zip(names, wins))
    if match.winner is not None:
        return f"best of {match.best_of} · won by {names[match.winner]} · {tally}"
    game = len(match.games) + 1
    extra = f" (played on: nobody has {match.needed} yet)" if match.extra else ""
    return f"best of {match.best_of} · game {game}{extra} · {tally}"
