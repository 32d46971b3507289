"""The lobby of a cluster's room, the same on every node: every node's
tables, read from the tables' registry (`crib3.cluster.registry`, written
by each table's host: `crib3.cluster.hosted`), as the node's one watch on
it hears it, so that a node's lobby changes as soon as any node's table
does. What it keeps of an entry is what the lobby shows today and nothing
more (`LobbyTable`): the number, owner and rules, each seat's name or
computer player, who is away, the host node, and the game's public
standing (names, scores, the hand, the winner). No seat's key, and never
a card: the registry holds none.

The lobby has no chat, as on one machine; a table's chat is its host's,
where all its people are, kept on the cluster for a node that adopts the
table (`crib3.cluster.chat`).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crib3.cluster.presence import holder_key
from crib3.cluster.registry import OVER, open_registry, watch_registry
from crib3.cluster.store import ClusterStore
from crib3.cluster.watched import WatchedBucket
from crib3.common import crash
from crib3.engine import PlayerInfo, Rules
from crib3.room.match import Match, Played
from crib3.room.seats import Seat, SeatLookup, holder_of
from crib3.room.storage import OPEN, SHELVED
from crib3.room.wire import PublicStanding

log = logging.getLogger("crib3.cluster")


@dataclass(frozen=True)
class LobbySeat:
    name: str | None  # None: a computer player
    level: str
    replaced: bool


@dataclass(frozen=True)
class LobbyTable(SeatLookup):
    """One table as the lobby shows it, wherever it is hosted."""

    number: int
    owner: str
    rules: Rules
    seats: tuple[LobbySeat, ...]  # type: ignore[assignment]  # SeatLookup reads a seat's name alone, which a LobbySeat has
    online: frozenset[int]
    started: bool
    over: bool
    node: str
    standing: PublicStanding | None
    # Whom its owner counts as for `--tables-per-key` (`holder_key` of their
    # `Presence.holder`: a digest, not the key), or None.
    owner_holder: str | None = None
    rated: bool = False  # its finished game moves ratings
    match: Match = Match()  # its match and its games so far (a single game: best of 1)

    @property
    def state(self) -> PublicStanding | None:
        """(The lobby's words read a table's standing as its state.) None
        until it names a player for every seat (a game just begun, its
        first events not yet stored, has none)."""
        standing = self.standing
        if standing is None or len(standing.players) != len(self.seats) \
                or len(standing.scores) != len(self.seats):
            return None
        return standing

    @classmethod
    def from_entry(cls, data: dict[str, Any]) -> LobbyTable:
        standing = data.get("standing")
        return cls(
            number=int(data["number"]), owner=str(data["owner"]), rules=Rules(**data["rules"]),
            seats=tuple(LobbySeat(None if s.get("name") is None else str(s["name"]),
                                  str(s.get("level", "standard")), bool(s.get("replaced")))
                        for s in data["seats"]),
            online=frozenset(int(i) for i in data.get("online", ())),
            started=data.get("started_by") is not None or standing is not None,
            over=data.get("status") == OVER, node=str(data.get("node", "?")),
            owner_holder=_owner_holder(data), rated=data.get("rated") is True,
            match=Match(int(data.get("best_of", 1)),
                        tuple(Played(int(winner), tuple(int(s) for s in scores))
                              for winner, scores in data.get("games", ()))),
            standing=None if standing is None else PublicStanding(
                tuple(PlayerInfo(str(n), str(k)) for n, k in standing["players"]),
                tuple(int(s) for s in standing["scores"]), int(standing["hand"]),
                None if standing["winner"] is None else int(standing["winner"])))


def _owner_holder(entry: dict[str, Any]) -> str | None:
    owner = str(entry.get("owner", "")).lower()
    for seat in entry.get("seats", ()):
        name = seat.get("name")
        if isinstance(name, str) and name.lower() == owner:
            holder = holder_of(seat.get("key"), None)
            return None if holder is None else holder_key(holder)
    return None


class ClusterLobby:
    """A node's view of every table of the cluster's room: `tables()`,
    kept up to date by the node's watch on the registry (a
    `WatchedBucket`, made again whenever it breaks); `listeners` are
    called on each change."""

    def __init__(self, known: WatchedBucket) -> None:
        self.known = known
        self.entries: dict[int, LobbyTable] = {}
        # Tables put away while nobody was at them: who sits where (with
        # their keys: who may bring one back), by number.
        self.shelved: dict[int, list[Seat]] = {}
        self.listeners: list[Callable[[], None]] = []
        self.ready = known.ready  # the registry's entries read once
        self._owned = False  # (its own watch, stopped with it)

    @classmethod
    async def start(cls, store: ClusterStore, *, replicas: int = 1,
                    known: WatchedBucket | None = None) -> ClusterLobby:
        """The lobby of the registry as `known` hears it (the node's watch),
        or, without it, as a watch of its own hears it."""
        owned = known is None
        if known is None:
            known = await watch_registry(await open_registry(store, replicas), store.node)
            store.reconnected.append(known.again)
        lobby = cls(known)
        lobby._owned = owned
        for key, entry in known.entries.items():
            lobby._heard(key, entry, tell=False)
        known.listeners.append(lobby._heard)
        return lobby

    def tables(self) -> list[LobbyTable]:
        """The tables people can see: waiting or playing, in order."""
        return [t for _, t in sorted(self.entries.items()) if not t.over]

    def _heard(self, key: str, entry: Any, tell: bool = True) -> None:
        """The registry's entry `key` changed (None: it is gone)."""
        if not key.isdigit():
            return
        number = int(key)
        if entry is None or not entry.value:
            self.entries.pop(number, None)
            self.shelved.pop(number, None)
        else:
            try:
                data = json.loads(entry.value)
                self.shelved.pop(number, None)
                if data.get("status") not in (OPEN, OVER):  # shelved, closed, a spare
                    self.entries.pop(number, None)
                    if data.get("status") == SHELVED:
                        self.shelved[number] = [Seat(**seat) for seat in data["seats"]]
                else:
                    self.entries[number] = LobbyTable.from_entry(data)
            except (ValueError, KeyError, TypeError) as exc:
                log.info("registry entry %s not understood: %s", key, exc)
                return
        if tell:
            for listener in list(self.listeners):
                try:
                    listener()
                except Exception as exc:  # (the others are told all the same)
                    crash.report(log, exc, "a listener of the cluster's lobby")

    async def stop(self) -> None:
        with contextlib.suppress(ValueError):
            self.known.listeners.remove(self._heard)
        if self._owned:
            await self.known.stop()


__all__ = ["ClusterLobby", "LobbySeat", "LobbyTable"]
