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
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from dataclasses import asdict
from typing import Any

from crib3.cluster.store import ClusterStore, kv_bucket
from crib3.cluster.watched import INACTIVE_THRESHOLD
from crib3.room.moderation import Moderation, Sanction

BANS = "crib3-bans"  # hash of (what, whom) -> the ban or mute in force, or {"lifted": true}
log = logging.getLogger("crib3.cluster")


def ban_key(what: str, whom: str) -> str:
    return hashlib.sha256(f"{what} {whom}".encode()).hexdigest()[:40]


class ClusterBans:
    """One node's side of the bucket (see the module's docstring)."""

    def __init__(self, kv: Any, moderation: Moderation) -> None:
        self.kv = kv
        self.moderation = moderation
        self.ready = asyncio.Event()  # the entries there were are read
        self._watcher: Any = None
        self._task: asyncio.Task[None] | None = None

    @classmethod
    async def start(cls, store: ClusterStore, moderation: Moderation, *,
                    replicas: int = 1) -> ClusterBans:
        bans = cls(await kv_bucket(store.js, BANS, replicas), moderation)
        # (Its consumer, left behind when the node dies or its connection
        # starts again, is dropped by the server after a minute, as every
        # watch's: nats-py's own default is five.)
        bans._watcher = await bans.kv.watchall(inactive_threshold=INACTIVE_THRESHOLD)
        bans._task = asyncio.get_running_loop().create_task(bans._watch())
        return bans

    async def tell(self, what: str, whom: str, sanction: Sanction | None) -> None:
        """Every node: `whom` is banned (muted) so, or (None) no longer."""
        value = asdict(sanction) if sanction is not None else \
            {"what": what, "whom": whom, "lifted": True}
        await self.kv.put(ban_key(what, whom), json.dumps(value).encode())

    async def _watch(self) -> None:
        async for entry in self._watcher:
            if entry is None:
                self.ready.set()
                continue
            if entry.operation in ("DEL", "PURGE") or not entry.value:
                continue
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
                log.info("a ban entry %s not understood: %s", entry.key, exc)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._watcher is not None:
            with contextlib.suppress(Exception):
                await self._watcher.stop()


__all__ = ["BANS", "ClusterBans"]
