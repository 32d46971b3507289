"""Bans and mutes that hold on every node of a cluster's room.

Each node keeps its own (`crib3.room.moderation`: its file, its audit log);
this keeps them in step through the `crib3-bans` bucket: one key per ban or
mute (what, and whom: a `Presence.holder`, hashed, for a key holds only a
few ASCII characters), its value the ban or mute in force, or a mark that
it was lifted. What a node's admin imposes or lifts is put there
(`Moderation.on_change`); every node watches the bucket and takes each
entry in (`Moderation.adopt`, `forget`), those that were there before it
started too, so a node that joins or restarts holds every ban at once.
The last word written wins, as on one machine. The message of the day is
each node's own (give every node the same `--motd`).

The watch is a `WatchedBucket`'s, kept for the node's life: made again
when its consumer is lost (its server restarted, the node's connection
made anew), the bucket read whole again, so that a ban made while it was
lost still reaches this node.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import asdict
from typing import Any

from crib3.cluster.store import ClusterStore, kv_bucket
from crib3.cluster.watched import WatchedBucket
from crib3.room.moderation import Moderation, Sanction

BANS = "crib3-bans"  # hash of (what, whom) -> the ban or mute in force, or {"lifted": true}
log = logging.getLogger("crib3.cluster")


def ban_key(what: str, whom: str) -> str:
    return hashlib.sha256(f"{what} {whom}".encode()).hexdigest()[:40]


class ClusterBans:
    """One node's side of the bucket (see the module's docstring)."""

    def __init__(self, kv: Any, moderation: Moderation, watched: WatchedBucket) -> None:
        self.kv = kv
        self.moderation = moderation
        self.watched = watched
        self.ready = asyncio.Event()  # the entries there were are read

    @classmethod
    async def start(cls, store: ClusterStore, moderation: Moderation, *,
                    replicas: int = 1) -> ClusterBans:
        kv = await kv_bucket(store.js, BANS, replicas)
        watched = WatchedBucket(kv, f"node {store.node}: the watch on the bans",
                                "a ban or mute made on another node does not hold here "
                                "until it works again")
        bans = cls(kv, moderation, watched)
        watched.listeners.append(bans._take)
        await watched.start()
        store.reconnected.append(watched.again)
        bans.ready.set()
        return bans

    async def tell(self, what: str, whom: str, sanction: Sanction | None) -> None:
        """Every node: `whom` is banned (muted) so, or (None) no longer."""
        value = asdict(sanction) if sanction is not None else \
            {"what": what, "whom": whom, "lifted": True}
        await self.kv.put(ban_key(what, whom), json.dumps(value).encode())

    def _take(self, key: str, entry: Any) -> None:
        """A ban or mute entry heard (new, changed, or read again): taken in."""
        if entry is None or not entry.value:  # (a key deleted: nothing to take)
            return
        try:
            data = json.loads(entry.value)
            if data.get("lifted"):
                self.moderation.forget(str(data["what"]), str(data["whom"]))
            else:
                until = data["until"]
                self.moderation.adopt(Sanction(
                    str(data["what"]), str(data["whom"]), str(data["name"]),
                    str(data["by"]), float(data["when"]),
                    None if until is None else float(until)))
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            log.info("a ban entry %s not understood: %s", key, exc)

    async def stop(self) -> None:
        await self.watched.stop()


__all__ = ["BANS", "ClusterBans"]
