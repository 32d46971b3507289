"""Play now on a cluster: one queue for every node, matched by one node at
a time.

**The queue** is a key-value bucket (`crib3-queue`): one key an identity
(`crib3.room.playnow.queue_identity`, hashed), written by the node where
that person is signed in (`join`: created, so an identity queued on two
nodes at once gets one place; `leave` and leaving the room: deleted). Its
value: the name, key, node, rating, when they joined (the wall clock:
the nodes' clocks are assumed near), and its state: waiting, claimed by
a matcher, or seated at a table.

**One matcher at a time**, fenced like a table's lease
(`crib3.cluster.store`): every node asks each second for the matcher's
lease (`MATCHER`, in the leases' bucket); the one that holds it keeps it
renewed (`LeaseKeeper`), and a node that dies or stops lets it expire, and
another takes it over. The matcher's every write is fenced twice:

- each claim is an update at the entry's revision as the matcher read it,
  so one entry is claimed once, whatever two matchers (one paused past
  its lease) do; a trio is seated only once all three are claimed, or
  else its claims are given back;
- it writes nothing once its lease's term has passed on its own clock
  (`Lease.held`, measured from before it asked), and a claim of an older
  matcher (another lease revision) found by the new one is given back.

**Nobody is seated twice**: before each round, an entry whose person is
not signed in on any node any more (left, or their node died) or has a seat
at a table anywhere is dropped; the trio's table is made (a number from
the registry, hosted by the matcher's node, started) before the entries
say "seated"; each person's own lobby takes them to it, here or through a
visit, and then deletes their entry.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import nats.js.errors

from crib3.cluster.hosted import HostedTable
from crib3.cluster.retry import keep_doing
from crib3.cluster.store import (
    Lease,
    LeaseHeld,
    create_key,
    kv_bucket,
    patiently,
    wrong_last_sequence,
)
from crib3.cluster.watched import WatchedBucket
from crib3.engine import Rules
from crib3.room.basics import RoomError
from crib3.room.matcher import Match, Matcher
from crib3.room.playnow import PlayNow, queue_identity
from crib3.room.seats import Presence, Seat
from crib3.room.storage import OPEN

if TYPE_CHECKING:
    from crib3.cluster.room import ClusterRoom

log = logging.getLogger("crib3.cluster")

QUEUE = "crib3-queue"
MATCHER = "play-now"  # the matcher's lease, a key in the leases' bucket
WAITING, CLAIMED, SEATED = "waiting", "claimed", "seated"
EVERY = 1.0  # seconds between two rounds of the matcher (and two asks for its lease)


def entry_key(identity: str) -> str:
    """The queue's key for an identity (a bucket's key is a subject's token)."""
    return hashlib.sha256(identity.encode()).hexdigest()[:32]


class ClusterPlayNow(PlayNow):
    """A node's part of the cluster's queue (see the module's docstring):
    its people's places, and the matching while it holds the lease."""

    def __init__(self, room: ClusterRoom, kv: Any, watched: WatchedBucket,
                 every: float = EVERY) -> None:
        super().__init__(room, time.time, every)
        self.node_room = room
        self.kv = kv
        self.watched = watched  # the queue, as this node last heard it
        # This node's people in the queue: identity -> (their name, their
        # entry's revision; None until it is written).
        self.mine: dict[str, tuple[str, int | None]] = {}
        self.lease: Lease | None = None  # the matcher's, while this node holds it
        self.rounds = 0  # rounds matched while holding the lease
        self._task: asyncio.Task[None] | None = None
        self._writes: set[asyncio.Task[Any]] = set()

    @classmethod
    async def start(cls, room: ClusterRoom, replicas: int = 1,
                    every: float = EVERY) -> ClusterPlayNow:
        kv = await kv_bucket(room.node.store.js, QUEUE, replicas)
        node = room.node.name
        watched = WatchedBucket(kv, f"node {node}: the watch on the play-now queue",
                                "nobody queued on another node is matched by this node, "
                                "nor seen leaving, until it works again")
        self = cls(room, kv, watched, every)
        watched.listeners.append(self._heard)
        await watched.start()
        room.node.store.reconnected.append(watched.again)
        self._task = asyncio.get_running_loop().create_task(keep_doing(
            self._round, every=every, what=f"node {node}: the play-now matcher",
            meaning="nobody queued is seated by this node until it works again",
            most=10 * every))
        return self

    # --- this node's people -----------------------------------------------------------

    def join(self, presence: Presence) -> int:
        """As the room's (`PlayNow.join`), the place written to the cluster's
        queue in the background (refused there if the identity has one)."""
        room = self.node_room
        if room.people.get(presence.name.lower()) is not presence:
            raise RoomError("you are not in the room")
        if room.place_of(presence) is not None or room.seat_elsewhere(presence) is not None:
            raise RoomError("you sit at a table already: one table at a time")
        identity = queue_identity(presence)
        if identity in self.mine or entry_key(identity) in self.watched.entries:
            raise RoomError("you are in the queue already (Esc leaves it)")
        # (A place asks for a table: paced as opening one, on the node one is on.)
        room._may_open(presence, asked="asked for", again="queue again")
        rating = self.rating(identity)
        self.mine[identity] = (presence.name, None)
        value = {"identity": identity, "name": presence.name, "key": presence.key,
                 "node": room.node.name, "rating": rating, "since": time.time(),
                 "state": WAITING}
        self._write(self._create(identity, value))
        return rating

    async def _create(self, identity: str, value: dict[str, Any]) -> None:
        name = str(value["name"])
        try:
            revision = await patiently(lambda: create_key(self.kv, entry_key(identity),
                                                          json.dumps(value).encode()))
        except nats.js.errors.KeyWrongLastSequenceError:
            log.info("play now: %r is queued on another node already", name[:40])
            revision = None
        if self.mine.get(identity, ("", 0))[0] != name:  # they left meanwhile
            if revision is not None:
                await self.kv.delete(entry_key(identity), last=revision)
        elif revision is None:
            # (Refused because a join of theirs just before this one wrote the
            # place, and they left and came back before it was answered: that
            # place is theirs now, and kept.)
            if self.mine[identity][1] is None:
                del self.mine[identity]
                self.node_room.changed()
        else:
            self.mine[identity] = (name, revision)

    def leave(self, presence: Presence) -> None:
        identity = queue_identity(presence)
        mine = self.mine.get(identity)
        if mine is None or mine[0].lower() != presence.name.lower():
            return
        del self.mine[identity]
        if mine[1] is not None:
            self._write(self._delete(entry_key(identity)))

    async def _delete(self, key: str) -> None:
        with contextlib.suppress(nats.js.errors.KeyNotFoundError):
            await patiently(lambda: self.kv.delete(key))

    def queued(self, presence: Presence) -> bool:
        mine = self.mine.get(queue_identity(presence))
        return mine is not None and mine[0].lower() == presence.name.lower()

    def _heard(self, key: str, entry: Any) -> None:
        """The queue's `key` changed (None: gone): a person of this node
        whose place went (dropped by the matcher) is no longer queued."""
        if entry is not None:
            return
        for identity, (_, revision) in list(self.mine.items()):
            if revision is not None and entry_key(identity) == key:
                del self.mine[identity]
                self.node_room.changed()

    def _write(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._writes.add(task)
        task.add_done_callback(self._written)

    def _written(self, task: asyncio.Task[Any]) -> None:
        self._writes.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("play now: the queue could not be written (a place may stay "
                        "until its person is seen gone): %s", task.exception())

    def step(self) -> list[Any]:
        """(The matcher's rounds are `_round`, on the node that holds its lease.)"""
        return []

    # --- the matcher ------------------------------------------------------------------

    async def _round(self) -> None:
        """One second's work: the lease asked for (or kept), then a round."""
        keeper = self.node_room.node.keeper
        if self.lease is None:
            try:
                self.lease = await self.node_room.node.store.acquire(MATCHER)
            except LeaseHeld:
                return
            keeper.keep(self.lease, self._lost)
            log.info("node %s: matches the play-now queue now", self.node_room.node.name)
        if not self.lease.held() or not self.watched.live:
            return
        await self._match(self.lease)
        self.rounds += 1

    def _lost(self) -> None:
        log.info("node %s: the play-now matcher's lease was lost; another node matches now",
                 self.node_room.node.name)
        self.lease = None

    async def _match(self, lease: Lease) -> None:
        waiting: dict[str, tuple[dict[str, Any], int]] = {}
        for key, entry in list(self.watched.entries.items()):
            try:
                data = json.loads(entry.value)
                revision = int(entry.revision)
            except (ValueError, TypeError):
                await self._drop(key, int(entry.revision), "an unreadable place")
                continue
            state = data.get("state")
            if self._gone(data) or (state != SEATED and self._seated(data)):
                await self._drop(key, revision, f"{str(data.get('name'))[:40]!r} left or sat")
            elif data.get("state") == CLAIMED and data.get("by") != lease.revision:
                await self._put_back(key, data, revision)  # an older matcher's
            elif data.get("state") == WAITING:
                waiting[key] = (data, revision)
        matcher = Matcher(time.time)
        for key, (data, _) in waiting.items():
            matcher.join(key, str(data["name"]), int(data["rating"]), float(data["since"]))
        for match in matcher.pair():
            if not lease.held():
                return
            await self._claim_and_seat(match, waiting, lease)

    def _gone(self, data: dict[str, Any]) -> bool:
        """Nobody of that name is signed in on any node (a seated place
        stays until its person's lobby has taken them to the table)."""
        name = str(data.get("name", "")).lower()
        return name not in {n.lower() for n in self.node_room.names_here()}

    def _seated(self, data: dict[str, Any]) -> bool:
        """They have a seat at a table somewhere (sat down elsewhere meanwhile)."""
        someone = Presence(str(data.get("name", "")), data.get("key"))
        room = self.node_room
        return room.place_of(someone) is not None or room.seat_elsewhere(someone) is not None

    async def _drop(self, key: str, revision: int, why: str) -> None:
        if self.lease is None or not self.lease.held():
            return
        try:
            await self.kv.delete(key, last=revision)
        except nats.js.errors.KeyNotFoundError:
            return
        except nats.js.errors.APIError as exc:
            if wrong_last_sequence(exc):  # (written since: not this drop's to make)
                return
            raise
        log.info("play now: a place dropped (%s)", why)

    async def _put_back(self, key: str, data: dict[str, Any], revision: int) -> int | None:
        """A claimed place waiting again; its new revision (None: it changed meanwhile)."""
        data = {**data, "state": WAITING}
        data.pop("by", None)
        try:
            return int(await self.kv.update(key, json.dumps(data).encode(), last=revision))
        except nats.js.errors.KeyWrongLastSequenceError:
            return None

    async def _claim_and_seat(self, match: Match, waiting: dict[str, tuple[dict[str, Any], int]],
                    lease: Lease) -> None:
        """Claim the three places (each at its revision), make their table,
        and say where: or give the claims back if one could not be claimed."""
        claimed: list[tuple[str, dict[str, Any], int]] = []
        for entry in match.entries:
            data, revision = waiting[entry.identity]
            mine = {**data, "state": CLAIMED, "by": lease.revision}
            try:
                claimed.append((entry.identity, mine, int(await self.kv.update(
                    entry.identity, json.dumps(mine).encode(), last=revision))))
            except nats.js.errors.KeyWrongLastSequenceError:
                break
        if len(claimed) < 3 or not lease.held():
            for key, data, revision in claimed:
                await self._put_back(key, data, revision)
            return
        try:
            table = await self._open([data for _, data, _ in claimed])
        except BaseException:  # (no table: the three wait again, and the round's failure is said)
            for key, data, revision in claimed:
                with contextlib.suppress(Exception):
                    await self._put_back(key, data, revision)
            raise
        for key, data, revision in claimed:
            seated = {**data, "state": SEATED, "table": table.number}
            with contextlib.suppress(nats.js.errors.KeyWrongLastSequenceError):
                await self.kv.update(key, json.dumps(seated).encode(), last=revision)
        self.seated += 3
        log.info("play now: table %d seats %s", table.number,
                 ", ".join(repr(str(data["name"])[:40]) for _, data, _ in claimed))
        self.node_room.changed()

    async def _open(self, people: list[dict[str, Any]]) -> HostedTable:
        """A new table hosted here for three people, started: its first
        seat the one who waited longest."""
        room = self.node_room
        node = room.node
        seats = [Seat(str(p["name"]), p.get("key")) for p in people]
        owner = seats[0].name
        assert owner is not None
        number, lease, table_log = await node.prepare_table(
            {"number": 0, "owner": owner, "rules": asdict(Rules()),
             "seats": [asdict(s) for s in seats], "status": OPEN, "started_by": None,
             "node": node.name})
        table = HostedTable(room, number, owner, Rules(), seats, node, table_log)
        table.rated = room.rates
        node.host(table, lease)
        table.start(owner)
        table.save()
        return table

    # --- its end ----------------------------------------------------------------------

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def stop(self) -> None:
        """The loop ended, the lease given back (another node matches at once)."""
        self.close()
        await self.watched.stop()
        lease, self.lease = self.lease, None
        if lease is not None:
            self.node_room.node.keeper.drop(MATCHER)
            try:
                await self.node_room.node.store.release(lease)
            except Exception as exc:  # (its connection gone: a node dying)
                log.warning("node %s: the play-now matcher's lease not released (%s): it "
                            "runs out by itself, and another node matches then",
                            self.node_room.node.name, exc)


__all__ = ["MATCHER", "QUEUE", "ClusterPlayNow", "entry_key"]
