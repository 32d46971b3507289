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

import json
from typing import Any

import nats.errors
import nats.js.errors

from crib3.cluster.event_bucket import check_event_result
from crib3.cluster.registry import OVER
from crib3.cluster.store import ClusterStore, patiently
from crib3.engine import fold
from crib3.room.results import EVENT, BestHands, Result, lines_digest, lines_game_id
from crib3.room.room import Room
from crib3.room.seats import Seat


class NotYet(Exception):
    """The result's game cannot be read yet; ask again later."""


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
        seats = await self._seats_at_end(result.table)
        if seats is None:
            return f"table {result.table} is not in the registry"
        best = BestHands()
        for event in record.events:
            best(event)
        made = Room.placings(result.table, seats, state, best.best)
        if made is None:
            return f"table {result.table}'s game rates nobody"
        if tuple(made) != result.placings:
            return f"seats or scores that table {result.table}'s game does not give"
        return None

    async def _seats_at_end(self, table: int) -> list[Seat] | None:
        """The table's seats as its host wrote them when its game ended;
        None: the registry has no such table."""
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
        except (ValueError, TypeError, KeyError, AttributeError):
            return None
        if status != OVER:
            raise NotYet(f"the registry has not heard table {table}'s game end yet")
        return seats


__all__ = ["NotYet", "ResultCheck"]
