"""A cluster's finished games, copied to each node's own folder, so that a
person's "My games" lists them and replays them as on one machine.

A cluster's table keeps its game on the tables' stream, not in a file, and
whichever node hosted it, the person may come back through any node. The
lobby's record (`crib3.room.records`) reads a room's put-away tables: a
game's log and its seat file, side by side. So each node copies every
finished game of the cluster there: the registry (which every node
watches) says which tables' games are over and who sat where, and the
table's stream holds its log, the very lines a file would. A finished
game never changes, so it is copied once; a node that joins late copies
the games it has not got, a few at a time, in the background.

A table's game counts as finished when the registry says so and the log
read from its stream ends with its win (a game that did not end is left
for a later look). The seat file is written first and the log second,
each in one step, so the record never finds a log without its seats.
A match's table (its entry's `best_of` over 1) is copied as one machine
puts a match away: each of its games as `table-N-game-K.jsonl`, in order,
once every game on its stream is won.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

from crib3.cluster.registry import OVER
from crib3.cluster.retry import ended, keep_doing
from crib3.cluster.store import ClusterStore
from crib3.cluster.watched import WatchedBucket
from crib3.engine import fold
from crib3.room.storage import CLOSED, put_away_folder, write_whole

log = logging.getLogger("crib3.cluster")

COPY_EVERY = 2.0  # seconds between a node's looks for newly finished games
AT_ONCE = 20  # games copied a look at most (a node that joins late catches up by steps)


class FinishedGames:
    """One node's copies of the cluster's finished games (see the module's
    docstring), in `folder`'s put-away folder."""

    def __init__(self, store: ClusterStore, known: WatchedBucket, folder: Path) -> None:
        self.store = store
        self.known = known
        self.away = put_away_folder(folder)
        self.copied: set[str] = set()  # the tables whose game is here
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(keep_doing(
            self.copy_new, every=COPY_EVERY, what=f"node {self.store.node}: copying the "
            "cluster's finished games", meaning="My games lacks the games finished since, "
            "until it works again", most=30.0))

    async def stop(self) -> None:
        await ended(self._task, f"node {self.store.node}: copying the cluster's finished games")

    def _waiting(self) -> list[tuple[str, dict[str, Any]]]:
        """The tables the registry says are over whose game is not here yet."""
        found = []
        for key, entry in list(self.known.entries.items()):
            if key in self.copied or not key.isdigit():
                continue
            try:
                data = json.loads(entry.value or b"{}")
            except ValueError:
                continue
            if not isinstance(data, dict) or data.get("status") != OVER:
                continue
            number = int(key)
            if (self.away / f"table-{number}.jsonl").is_file() or \
                    (self.away / f"table-{number}-game-1.jsonl").is_file():
                self.copied.add(key)
                continue
            found.append((key, data))
        return sorted(found, key=lambda item: int(item[0]))

    async def copy_new(self) -> int:
        """The finished games not copied yet, copied (at most AT_ONCE);
        how many."""
        copied = 0
        for key, data in self._waiting()[:AT_ONCE]:
            record = await self.store.read(key)
            games = record.all_games()
            if not games or len(games[0].lines) < 2 or \
                    any(fold(game.events).winner is None for game in games):
                continue  # (not over on its stream yet: looked at again later)
            number = int(key)
            best_of = int(data.get("best_of", 1))
            seats = {"number": number, "owner": data.get("owner", ""),
                     "rules": data.get("rules", {}), "seats": data.get("seats", []),
                     "status": CLOSED, "started_by": data.get("started_by"),
                     "rated": data.get("rated") is True, "best_of": best_of}
            write_whole(self.away / f"table-{number}.json", json.dumps(seats, indent=1))
            if best_of == 1:
                write_whole(self.away / f"table-{number}.jsonl",
                            "".join(line + "\n" for line in record.lines))
            for count, game in enumerate(games if best_of > 1 else [], 1):
                write_whole(self.away / f"table-{number}-game-{count}.jsonl",
                            "".join(line + "\n" for line in game.lines))
            self.copied.add(key)
            copied += 1
        return copied


__all__ = ["FinishedGames"]
