"""Who is signed in to a cluster's room, and where: a name held once
across every node, the names a person may hold at once counted across
nodes, and an admin's word reaching a session on another node.

**A name, held once.** The `crib3-people` bucket holds one key per UTS #39
skeleton of a signed-in name (`crib3.common.lookalikes.name_keys`: the
name as written, case-folded and in capitals; each skeleton hashed, for a
key holds only a few ASCII characters). Signing in creates every one of
them, so a name and its lookalike ("alice", "аlice" with a Cyrillic а,
"aIice") meet on at least one key and the second is refused, whichever
node it came through, and two nodes asked at once cannot both win: a
create succeeds only where the key is absent. The value says whose it is:
the proof it was signed in with (the key's fingerprint, or under `--open`
"first-use ..." with a reconnect code's hash, never the code itself), the
person it counts for (`Presence.holder`), and the node running the
session. The same proof signing in again, on any node, takes the name
over (rewritten at the revision it read) and the session on the other node
is ended, as on one machine ("you signed in again from elsewhere").

**A dead node's people free up.** The bucket has a TTL (a few seconds,
fixed by whoever made it): each node renews its people's keys at a third
of it (rewritten at the revision it holds). A node that dies or is cut off
stops renewing and the server drops its keys; a renewal that finds its key
taken meanwhile ends that session. A renewal that fails (the cluster does
not answer) is logged once and tried again sooner, backing off to the
usual third of a term; if it fails for a whole term, this node's people's
names are free to anyone until it works again.

**Names per person, across nodes.** `names_per_key` counts in the
`crib3-holders` bucket: one key per person (their holder, hashed),
listing their signed-in names. A name is added by rewriting that key at
the revision read (or creating it), so two nodes granting the last slot at
once cannot both succeed: the second reads again and finds it taken.
Names that are no longer alive (their key expired or went to someone
else) are dropped as it is read, so a dead node's people do not hold
their slots for ever. (`tables_per_key` is not counted here: a node
counts a person's open tables from its lobby, every node's tables,
`crib3.cluster.room.ClusterRoom.tables_held`.)

**Admins.** Who is an admin is each node's `--admins` file, as today: the
cluster is one trust domain, so every node is given the same file. What an
admin does must reach the person wherever their session runs: each node
answers on `crib3.room.kick.<node>`, and `remove` sends the word to the
node the `crib3-people` bucket says runs that person's session.

Under `--open` a name is also held, for the room's life, by the first
proof it signed in with (`hold`, `held_by`: the `crib3-names` bucket, no
TTL, the same skeleton keys).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import nats.errors
import nats.js.errors

from crib3.cluster.retry import keep_doing
from crib3.cluster.store import ClusterStore, check_table_id, create_key, kv_bucket
from crib3.cluster.watched import WatchedBucket
from crib3.common.lookalikes import name_keys
from crib3.common.names import check_name, shown_name
from crib3.room.basics import RoomError
from crib3.room.seats import Presence

PEOPLE = "crib3-people"  # skeleton -> who is signed in under it, and on which node (TTL)
HOLDERS = "crib3-holders"  # person -> their signed-in names
NAMES = "crib3-names"  # skeleton -> the proof that holds it for the room's life (--open)
KICK = "crib3.room.kick."  # + a node's id: an admin's word for a session there
AGAIN = "you signed in again from elsewhere"
REMOVED = "an admin closed your session; your table is saved"
LOST = "your name was taken on another server while this one was cut off"
MISSING = (nats.js.errors.KeyNotFoundError, nats.js.errors.KeyDeletedError)
log = logging.getLogger("crib3.cluster")


def name_key(skeleton: str) -> str:
    """A bucket's key for one skeleton of a name."""
    return "s" + hashlib.sha256(skeleton.encode("utf-8", "surrogatepass")).hexdigest()[:40]


def keys_of(name: str) -> list[str]:
    """The bucket keys a name holds: one a skeleton, in a fixed order."""
    return sorted({name_key(s) for s in name_keys(name)})


def holder_key(holder: str) -> str:
    return "h" + hashlib.sha256(holder.encode("utf-8", "surrogatepass")).hexdigest()[:40]


async def _entry(kv: Any, key: str) -> tuple[dict[str, Any], int] | None:
    """A key's value (JSON) and revision, or None when it has none."""
    try:
        entry = await kv.get(key)
    except MISSING:
        return None
    if entry.value is None or entry.operation in ("DEL", "PURGE"):
        return None
    return json.loads(entry.value), int(entry.revision)


@dataclass
class SignedIn:
    """A person signed in through this node: their presence and the
    revision of each of their name's keys in `crib3-people`."""

    presence: Presence
    value: bytes
    revisions: dict[str, int] = field(default_factory=dict)

    @property
    def primary(self) -> str:
        return min(self.revisions)


class ClusterPeople:
    """One node's part of the cluster's sign-in (see the module's
    docstring): `sign_in` (its names counted per person), `sign_out`,
    `where`, `remove`; under `--open`, `hold` and `held_by`."""

    def __init__(self, store: ClusterStore, people: Any, holders: Any, names: Any) -> None:
        self.store = store
        self.node = store.node
        self.people = people
        self.holders = holders
        self.names = names
        self.ttl = 10.0
        self.here: dict[str, SignedIn] = {}  # primary key -> a session run by this node
        self.paused = False  # (tests: a node stopped, as by SIGSTOP)
        self._tasks: list[asyncio.Task[None]] = []
        self._subscription: Any = None
        # Who is signed in on any node, as the people's bucket is watched:
        # its key -> (the name, when it was last written here). A key whose
        # node died expires without a word to the watch, so one not written
        # for a term and a half (it is renewed thrice a term) is left out.
        self.everyone: dict[str, tuple[str, float]] = {}
        # Under --open, the names held for the room's life, as the names'
        # bucket is watched: its key -> the proof that holds it (a node's
        # door asks for a reconnect code when any node's people hold it).
        self.held: dict[str, str] = {}
        self.listeners: list[Callable[[], None]] = []
        # The two watches (people, names), each kept for the node's life.
        self.watches: list[WatchedBucket] = []

    @classmethod
    async def start(cls, store: ClusterStore, *, replicas: int = 1,
                    ttl: float = 10.0) -> ClusterPeople:
        """The node `store.node`'s part, its buckets made if need be (the
        people's TTL is the bucket's, fixed by whoever made it first)."""
        check_table_id(store.node)  # (a subject's token)
        js = store.js
        people = await kv_bucket(js, PEOPLE, replicas, ttl)
        self = cls(store, people, await kv_bucket(js, HOLDERS, replicas),
                   await kv_bucket(js, NAMES, replicas))
        status = await people.status()
        self.ttl = float(status.ttl or ttl)
        self._subscription = await store.client.subscribe(KICK + self.node, cb=self._kicked)
        self._tasks.append(asyncio.get_running_loop().create_task(self._renew_forever()))
        self.watches = [
            WatchedBucket(people, f"node {self.node}: the watch on who is signed in",
                          "the lobby's list of the people on other nodes does not change "
                          "until it works again"),
            WatchedBucket(self.names, f"node {self.node}: the watch on the names held",
                          "a name held on another node under --open is not asked its "
                          "reconnect code here until it works again")]
        self.watches[0].listeners.append(self._heard_everyone)
        self.watches[1].listeners.append(self._heard_held)
        for watched in self.watches:
            await watched.start()
            store.reconnected.append(watched.again)
        return self

    def held_proof(self, name: str) -> str | None:
        """The proof that holds `name` (or a lookalike) as this node last
        heard (`held`); the bucket itself is the word at sign-in (`hold`)."""
        for key in keys_of(name):
            if key in self.held:
                return self.held[key]
        return None

    def _heard_held(self, key: str, entry: Any) -> None:
        """The names' bucket's `key` changed (None: gone)."""
        if entry is None or not entry.value:
            self.held.pop(key, None)
            return
        with contextlib.suppress(ValueError, KeyError, TypeError):
            self.held[key] = str(json.loads(entry.value)["proof"])

    def signed_in(self) -> list[str]:
        """The names signed in on every node now (see `everyone`)."""
        fresh = time.monotonic() - 1.5 * self.ttl
        seen: dict[str, str] = {}
        for name, written in self.everyone.values():
            if written >= fresh:
                seen.setdefault(name.lower(), name)
        return list(seen.values())

    def _heard_everyone(self, key: str, entry: Any) -> None:
        """The people's bucket's `key` changed (None: gone)."""
        if entry is None or not entry.value:
            changed = self.everyone.pop(key, None) is not None
        else:
            try:
                name = json.loads(entry.value)["name"]
            except (ValueError, KeyError, TypeError):
                return
            changed = key not in self.everyone
            self.everyone[key] = (str(name), time.monotonic())
        if changed:
            for listener in list(self.listeners):
                listener()

    # --- signing in and out -----------------------------------------------------------

    async def sign_in(self, presence: Presence, names_per_key: int = 0) -> SignedIn:
        """`presence` holds its name across the cluster, run by this node;
        RoomError (one line) when the name or a lookalike is held by
        someone else, or the person has `names_per_key` names signed in
        already (0: no limit)."""
        try:
            name = check_name(presence.name)
        except ValueError as exc:
            raise RoomError(str(exc)) from None
        proof = presence.key or ""
        value = json.dumps({"name": name, "proof": proof, "holder": presence.holder,
                            "node": self.node, "admin": presence.admin}).encode()
        claim = SignedIn(presence, value)
        elsewhere: set[str] = set()
        try:
            for key in keys_of(name):
                claim.revisions[key] = await self._claim(key, name, proof, value, elsewhere)
            holder = presence.holder
            if names_per_key and holder is not None:
                await self._count(holder, "names", claim.primary, name, names_per_key,
                                  self._name_alive(holder))
        except BaseException:
            await self._let_go(claim)
            raise
        old = self.here.get(claim.primary)
        self.here[claim.primary] = claim
        if old is not None and old.presence is not presence:
            old.presence.kick(AGAIN)
        for node in elsewhere - {self.node}:
            await self._tell(node, name, AGAIN)
        return claim

    async def _claim(self, key: str, name: str, proof: str, value: bytes,
                     elsewhere: set[str]) -> int:
        for _ in range(20):
            try:
                return await create_key(self.people, key, value)
            except nats.js.errors.KeyWrongLastSequenceError:
                pass
            found = await _entry(self.people, key)
            if found is None:
                continue  # it expired meanwhile: create it again
            held, revision = found
            if held.get("proof") != proof:
                other = str(held.get("name", "?"))
                if other.lower() != name.lower():
                    raise RoomError(f"{name} looks like {shown_name(other)}, a name here "
                                    "already: choose another")
                raise RoomError(f"{name} is here already, with another key")
            try:  # the same person again: taken over, the other session ended
                revision = int(await self.people.update(key, value, last=revision))
            except nats.js.errors.KeyWrongLastSequenceError:
                continue
            elsewhere.add(str(held.get("node")))
            return revision
        raise RoomError(f"{name} is being signed in elsewhere just now: try again")

    async def sign_out(self, presence: Presence) -> None:
        """The session of `presence` ended: its name is free (unless it
        was taken over meanwhile) and no longer counted."""
        for primary, claim in list(self.here.items()):
            if claim.presence is presence:
                del self.here[primary]
                await self._let_go(claim)
                holder = presence.holder
                if holder is not None:
                    try:
                        await self._uncount(holder, "names", primary)
                    except Exception as exc:
                        log.info("%s signed out; its person's count of names not "
                                 "updated (%s): the next count leaves it out",
                                 shown_name(presence.name, 40), exc)

    async def _let_go(self, claim: SignedIn) -> None:
        for key, revision in claim.revisions.items():
            with contextlib.suppress(nats.js.errors.KeyWrongLastSequenceError,
                                     nats.js.errors.APIError):
                await self.people.delete(key, last=revision)

    async def where(self, name: str) -> dict[str, Any] | None:
        """Who is signed in under `name` (or its lookalike) and on which
        node: {"name", "proof", "holder", "node", "admin"}, or None."""
        for key in keys_of(name):
            found = await _entry(self.people, key)
            if found is not None:
                return found[0]
        return None

    # --- renewing: a dead node's people free up -------------------------------------------

    async def _renew_forever(self) -> None:
        every = self.ttl / 3
        await keep_doing(self.renew, every=every, first=every / 4, most=every,
                         what=f"node {self.node}: the renewal of its people's names",
                         meaning="their names run out at the end of their term and "
                                 "anyone may take them",
                         paused=lambda: self.paused)

    async def renew(self) -> None:
        """Every name this node runs a session of, held for another term;
        a session whose name went to someone else meanwhile is ended."""
        for primary, claim in list(self.here.items()):
            for key, revision in list(claim.revisions.items()):
                try:
                    claim.revisions[key] = int(await self.people.update(
                        key, claim.value, last=revision))
                    continue
                except nats.js.errors.KeyWrongLastSequenceError:
                    pass
                try:  # it expired (this node was cut off): free still?
                    claim.revisions[key] = await create_key(self.people, key, claim.value)
                except nats.js.errors.KeyWrongLastSequenceError:
                    if self.here.get(primary) is claim:
                        del self.here[primary]
                        await self._let_go(claim)
                        claim.presence.kick(LOST)
                    break

    # --- per-person counts ----------------------------------------------------------------

    def _name_alive(self, holder: str) -> Callable[[str, Any], Awaitable[bool]]:
        async def alive(key: str, _name: Any) -> bool:
            found = await _entry(self.people, key)
            return found is not None and found[0].get("holder") == holder
        return alive

    async def _count(self, holder: str, kind: str, item: str, value: Any, limit: int,
                     alive: Callable[[str, Any], Awaitable[bool]]) -> None:
        """`item` counted among the holder's `kind` ("names"),
        unless they have `limit` alive already: RoomError. Rewritten at
        the revision read, so two nodes cannot both take the last slot."""
        key = holder_key(holder)
        while True:
            found = await _entry(self.holders, key)
            record, revision = found if found is not None else ({}, 0)
            items: dict[str, Any] = dict(record.get(kind, {}))
            if item in items:
                return
            items = {i: v for i, v in items.items() if await alive(i, v)}
            if len(items) >= limit:
                raise RoomError(self._full(holder, kind, len(items)))
            items[item] = value
            record[kind] = items
            data = json.dumps(record).encode()
            try:
                if revision:
                    await self.holders.update(key, data, last=revision)
                else:
                    await self.holders.create(key, data)
                return
            except nats.js.errors.KeyWrongLastSequenceError:
                continue  # another node counted meanwhile: read again

    @staticmethod
    def _full(holder: str, kind: str, count: int) -> str:
        whose = "your key" if holder.startswith("key ") else "your address"
        return f"{whose} has {count} {kind} signed in already, the most here at once"

    async def _uncount(self, holder: str, kind: str, item: str) -> None:
        key = holder_key(holder)
        while True:
            found = await _entry(self.holders, key)
            if found is None or item not in found[0].get(kind, {}):
                return
            record, revision = found
            del record[kind][item]
            try:
                await self.holders.update(key, json.dumps(record).encode(), last=revision)
                return
            except nats.js.errors.KeyWrongLastSequenceError:
                continue

    # --- held for the room's life (--open) ------------------------------------------------

    async def hold(self, name: str, proof: str) -> None:
        """Under `--open`: `name` (and its lookalikes) held by `proof` for
        the room's life; RoomError when another proof holds it."""
        made: dict[str, int] = {}
        for key in keys_of(name):
            try:
                made[key] = await self.names.create(
                    key, json.dumps({"name": name, "proof": proof}).encode())
            except nats.js.errors.KeyWrongLastSequenceError:
                found = await _entry(self.names, key)
                if found is not None and found[0].get("proof") != proof:
                    for mine, revision in made.items():  # nothing held by a refusal
                        with contextlib.suppress(nats.js.errors.APIError):
                            await self.names.delete(mine, last=revision)
                    raise RoomError(f"{name} is held here by someone else") from None

    async def held_by(self, name: str) -> str | None:
        """The proof that holds `name` (or a lookalike) under `--open`, or None."""
        for key in keys_of(name):
            found = await _entry(self.names, key)
            if found is not None:
                return str(found[0].get("proof"))
        return None

    # --- an admin's word, to the node running the session ---------------------------------

    async def remove(self, name: str, by: Presence) -> None:
        """An admin ends the session of `name`, on whichever node runs it
        (see `Room.remove`)."""
        if not by.admin:
            raise RoomError("only an admin can remove a session")
        if name.lower() == by.name.lower():
            raise RoomError("you cannot remove yourself: quit instead")
        held = await self.where(name)
        if held is None or not await self._tell(str(held["node"]), str(held["name"]), REMOVED):
            raise RoomError(f"{shown_name(name)} is not here")

    async def end_session(self, node: str, name: str, reason: str) -> bool:
        """The session of `name` run by `node` (as `where` says) ended with
        `reason` (an admin's ban): whether it was there."""
        return await self._tell(node, name, reason)

    async def _tell(self, node: str, name: str, reason: str) -> bool:
        """The session of `name` run by `node` ended with `reason`: whether
        it was there."""
        if node == self.node:
            return self._kick_here(name, reason)
        body = json.dumps({"name": name, "reason": reason}).encode()
        try:
            answer = await self.store.client.request(KICK + node, body, timeout=2)
        except (nats.errors.TimeoutError, nats.errors.NoRespondersError):
            return False  # that node is gone: its people's names expire
        return bool(json.loads(answer.data or b"{}").get("kicked"))

    def _kick_here(self, name: str, reason: str) -> bool:
        claim = self.here.get(keys_of(name)[0])
        if claim is None:
            claim = next((c for c in self.here.values() if set(c.revisions) & set(keys_of(name))),
                         None)
        if claim is None:
            return False
        if reason == AGAIN:  # the name is the new session's now: not this one's to free
            self.here = {k: c for k, c in self.here.items() if c is not claim}
        claim.presence.kick(reason)
        return True

    async def _kicked(self, message: Any) -> None:
        try:
            data = json.loads(message.data)
            kicked = self._kick_here(str(data["name"]), str(data["reason"])[:200])
        except Exception as exc:
            log.info("a kick message not understood: %s", exc)
            kicked = False
        with contextlib.suppress(Exception):
            await message.respond(json.dumps({"kicked": kicked}).encode())

    # --- stopping -------------------------------------------------------------------------

    async def stop(self, release: bool = True) -> None:
        """No more renewals; with `release`, this node's people's names freed."""
        for task in self._tasks:
            task.cancel()
        for watched in self.watches:
            await watched.stop()
        if self._subscription is not None:
            with contextlib.suppress(Exception):
                await self._subscription.unsubscribe()
        if release:
            for claim in list(self.here.values()):
                await self.sign_out(claim.presence)


__all__ = ["ClusterPeople", "SignedIn", "keys_of"]
