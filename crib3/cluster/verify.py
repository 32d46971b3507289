"""A result on the cluster's results stream checked against its table's
own stream before any node folds it (`crib3.cluster.results`).

Anyone who can publish to the results stream could otherwise write a
well-formed line with made-up scores and move ratings on every node. The
table's stream is the truth a result claims to be folded from, so each
node folds the table's game from it and makes the result it gives, exactly
as its host made it (`crib3.cluster.results.table_result`):

- the game's id and the digest of its log, from the stream's lines (the
  game the result names, whole);
- its state, by the engine's fold: the game must be over, and each seat's
  score is the one the fold gives, its best hand the one its events show;
- each seat's identity, name and whether its person left, from the
  table's seats in the registry as its host wrote them at the game's end
  (a result naming someone who did not sit there is refused).

A match's result (its id begins `match-`: `crib3.room.results.match_result`)
is checked the same way over every game on the table's stream: each won,
together a match of the registry's `best_of` that is over with the last
of them, its id the first game's, its digest every game's in order, each
seat scored by its games won and its best hand its best in any game
(`match_of`, which its host's result is made by too). A single game's
result for a match's table is refused: a match is rated as a whole.

A result whose game cannot be read yet (the stream or the registry does
not answer, or the registry has not heard of the game's end: its host
writes that just before the result) raises `NotYet`: the node stops its
fold there and tries again later, so every node still folds the same
results in the same order. Anything else that differs is a refusal, the
same on every node.

A rated live event's result (its id an event's) is made again from the
event in the cluster's bucket and every board table's stream, as the node
that wrote it made it (`crib3.cluster.event_bucket.check_event_result`):
the same entries, places and scores, and the same digest of the tables'
logs.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

import nats.errors
import nats.js.errors

from crib3.cluster.event_bucket import check_event_result
from crib3.cluster.registry import OVER
from crib3.cluster.store import ClusterStore, TableRecord, patiently
from crib3.engine import State, fold
from crib3.room.match import Match, Played
from crib3.room.ratings import Placing
from crib3.room.results import EVENT, MATCH, BestHands, Result, lines_digest, lines_game_id
from crib3.room.room import Room
from crib3.room.seats import Seat


class NotYet(Exception):
    """The result's game cannot be read yet; ask again later."""


@dataclass(frozen=True)
class StreamMatch:
    """A match read back from its table's stream (`match_of`)."""

    match: Match
    last: State  # the state its last game ended in
    best: list[int]  # each seat's best hand in any of its games
    game: str  # its result's id
    digest: str  # its result's digest: every game's log's, in order

    def placings(self, number: int, seats: list[Seat]) -> list[Placing] | None:
        """Its seats as its result ranks them: scored by games won."""
        won, second, third = self.match.wins()
        return Room.placings(number, seats, self.last._replace(scores=(won, second, third)),
                             self.best)


def match_of(record: TableRecord, best_of: int) -> StreamMatch:
    """The match a table's stream holds: every game on it folded, each one
    won, in a match of `best_of`. ValueError says what is wrong (a game not
    over, a game after the match was won, no game at all)."""
    games = record.all_games()
    if not games or len(games[0].lines) < 2:
        raise ValueError("no game on its stream")
    match, last, best = Match(best_of), None, [0] * 3
    for number, game in enumerate(games, 1):
        state = fold(game.events)
        if state.winner is None:
            raise ValueError(f"its game {number} is not over")
        match = match.add(Played(state.winner, tuple(state.scores)))  # (over: ValueError)
        hands = BestHands()
        for event in game.events:
            hands(event)
        best = [max(pair) for pair in zip(best, hands.best, strict=False)]
        last = state
    assert last is not None
    digest = hashlib.sha256("".join(lines_digest(game.lines) for game in games)
                            .encode()).hexdigest()
    return StreamMatch(match, last, best, MATCH + lines_game_id(games[0].lines), digest)


class ResultCheck:
    """Results checked against the tables' streams and the registry (see
    the module's docstring): `await check(result)` is None when the
    result is its table's game's, else why not."""

    def __init__(self, store: ClusterStore, registry: Any | None) -> None:
        self.store = store
        self.registry = registry

    async def __call__(self, result: Result) -> str | None:
        if result.game.startswith(EVENT):  # a rated live event's: made again from its tables
            try:
                return await check_event_result(self.store, result)
            except (nats.errors.Error, TimeoutError) as exc:
                raise NotYet(f"event result {result.game} cannot be read ({exc!r})") from None
        try:
            record = await self.store.read(str(result.table))
        except (nats.errors.Error, TimeoutError) as exc:
            raise NotYet(f"table {result.table}'s stream cannot be read ({exc!r})") from None
        except (ValueError, KeyError, TypeError) as exc:  # (a line no game's: never ours)
            return f"table {result.table}'s stream is no game's log ({exc})"
        if result.game.startswith(MATCH):
            return await self._check_match(result, record)
        if record.games:
            return f"table {result.table} plays a match: its games are not rated one by one"
        lines = record.lines
        if len(lines) < 2:
            return f"table {result.table} has no game on the cluster"
        if lines_game_id(lines) != result.game:
            return f"game {result.game} is not table {result.table}'s"
        try:
            state = fold(record.events)
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            return f"table {result.table}'s events are no game ({exc!r})"
        if state.winner is None:
            return f"table {result.table}'s game is not over"
        if lines_digest(lines) != result.digest:
            return f"its log's digest is not that of table {result.table}'s game"
        at_end = await self._seats_at_end(result.table)
        if at_end is None:
            return f"table {result.table} is not in the registry"
        seats, best_of = at_end
        if best_of != 1:
            return f"table {result.table} plays a match: its games are not rated one by one"
        best = BestHands()
        for event in record.events:
            best(event)
        made = Room.placings(result.table, seats, state, best.best)
        if made is None:
            return f"table {result.table}'s game rates nobody"
        if tuple(made) != result.placings:
            return f"seats or scores that table {result.table}'s game does not give"
        return None

    async def _check_match(self, result: Result, record: TableRecord) -> str | None:
        """`__call__` for a match's result (see the module's docstring)."""
        table = result.table
        games = record.all_games()
        if not games or len(games[0].lines) < 2:
            return f"table {table} has no game on the cluster"
        if MATCH + lines_game_id(games[0].lines) != result.game:
            return f"match {result.game} is not table {table}'s"
        at_end = await self._seats_at_end(table)
        if at_end is None:
            return f"table {table} is not in the registry"
        seats, best_of = at_end
        if best_of == 1:
            return f"table {table} plays no match"
        try:
            played = match_of(record, best_of)
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            return f"table {table}'s match: {exc}"
        if not played.match.over:
            return f"table {table}'s match is not over"
        if played.digest != result.digest:
            return f"its logs' digest is not that of table {table}'s match"
        made = played.placings(table, seats)
        if made is None:
            return f"table {table}'s match rates nobody"
        if tuple(made) != result.placings:
            return f"seats or games won that table {table}'s match does not give"
        return None

    async def _seats_at_end(self, table: int) -> tuple[list[Seat], int] | None:
        """The table's seats as its host wrote them when its game (or
        match) ended, and its `best_of`; None: the registry has no such table."""
        registry = self.registry
        if registry is None:  # (a reader of a cluster that never had a table)
            return None
        try:  # (a read: safe to ask again)
            entry = await patiently(lambda: registry.get(str(table)))
        except nats.js.errors.KeyNotFoundError:
            return None
        except (nats.errors.Error, TimeoutError) as exc:
            raise NotYet(f"the registry cannot be read ({exc!r})") from None
        try:
            data = json.loads(entry.value or b"{}")
            status, seats = data.get("status"), [Seat(**seat) for seat in data["seats"]]
            best_of = int(data.get("best_of", 1))
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
        if status != OVER:
            raise NotYet(f"the registry has not heard table {table}'s game end yet")
        return seats, best_of


__all__ = ["NotYet", "ResultCheck", "StreamMatch", "match_of"]
