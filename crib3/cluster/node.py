"""One node of a cluster's card room: the tables it hosts, each by one
node at a time, its log on the cluster's stream, adopted by another node
when its host dies.

**One owner, fenced.** The node holds each of its tables' leases
(`ClusterStore`), renewed by its `LeaseKeeper` at a third of the term.
When a renewal is refused, or an append is (`Fenced`: the lease ran out on
this node's clock, or another node took the table and appended its owner
message), or the table's entry in the registry moved on under it, the node
stops hosting the table at once: the events it had not got on the stream
are dropped (no screen showed them), the table closes here with `moved`
set, and its listeners are told, so that its people's screens send them
to reconnect.

**Adoption.** The tables of a cluster are listed in its registry
(`crib3.cluster.registry`: who sits where, as a table's seat file holds
it, with its status and the node that wrote it last). Every node watches
it (one watch for the node's life: `known`) and scans what it heard, and
a table that is open and whose lease is free (its host released it,
or died and the server dropped its lease at the end of its term) is
acquired by the first node to ask: it reads the table's stream, rebuilds
the game by the engine's fold, the game where it stood, and goes on with
it, its computer players carrying on and its people's seats waiting for
them. An open table whose log holds no event and whose lease is free
(its people were on a dead node before it started) is forgotten by the
scan (`forget`: its registry entry and its stream's messages gone), as a
table that closes before it started is by its own node: it leaves every
node's lobby, and nothing is left of it that an export would take for a
game with no event. A spare table (`crib3.cluster.room`: a number a node
keeps ready) whose lease is free is its dead node's: the scan forgets it
the same way, so that it does not stay in the registry for good. A scan
while the registry's watch is broken (being made again) fails, logged
once and tried again with backoff, but tries the tables as the node last
heard of them first: each adoption asks the cluster for the table's entry
and its lease anyway, so a stale list costs a request, never a wrong
adoption; and after an outage the tables freed meanwhile are taken as soon
as their streams answer, not once the watch is back too (seconds later,
after a restart of every server). The node's connection back, or the
registry read whole again, the scan is tried at once (a long outage grows
its backoff). A match's table is adopted with its match
(`match_on`: its games on its stream, `best_of` in its entry), in the
middle of a game or between two. A shelved table is adopted the same way, when its person asks
for it (`crib3.cluster.room`). Not here yet: closed games brought back.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import nats.js.errors

from crib3.cluster.board_tables import board_entry
from crib3.cluster.chat import read_lines
from crib3.cluster.hosted import HostedTable
from crib3.cluster.leases import LeaseKeeper
from crib3.cluster.liveness import EVERY, Liveness
from crib3.cluster.registry import SPARE, highest_number, open_registry, watch_registry
from crib3.cluster.retry import Failing, keep_doing
from crib3.cluster.store import (
    READ_ASK,
    RETRY_SECONDS,
    ClusterStore,
    Fenced,
    Lease,
    LeaseHeld,
    TableLog,
    check_table_id,
    patiently,
    wrong_last_sequence,
)
from crib3.cluster.watched import WatchedBucket, quick
from crib3.common import crash
from crib3.engine import Event, Rules, fold
from crib3.engine.log import make_header
from crib3.room.basics import notify
from crib3.room.match import Match, Played
from crib3.room.room import Room
from crib3.room.seats import Presence, Seat
from crib3.room.storage import OPEN, StoredTable

log = logging.getLogger("crib3.cluster")
# Seconds a table let go may take to get its events and its registry entry
# written (each write is tried again for RETRY_SECONDS), and a node waits
# for what it publishes: bounded, so that a stop or a test never waits for good.
FLUSH_SECONDS = RETRY_SECONDS + 5.0
# Tables one scan adopts at once, at most (`Node.scan`): enough that a
# cluster's tables freed together by an outage are hosted again within a
# lease, few enough that a node does not flood a cluster just back.
ADOPT_AT_ONCE = 4
# Seconds a scan waits for the adoptions it began before the next scan may
# begin: one that takes longer (a cluster slow to answer after an outage,
# each request retried for RETRY_SECONDS) goes on by itself, and the next
# scans take the other tables freed meanwhile, not after it.
SCAN_WAITS = 2.0


BoardMaker = Callable[[tuple[str, int, int], StoredTable, TableLog], Awaitable[HostedTable]]


class NodeRoom(Room):
    """The room as one node of a cluster sees it: the tables it hosts now.
    Its folder holds this node's own copies of their seat files (the
    registry holds the cluster's)."""

    node: Node


class Node:
    """One node of a cluster's room: the tables it hosts, the leases it
    keeps, and the scan that adopts the tables whose host is gone."""

    def __init__(self, store: ClusterStore, registry: Any, known: WatchedBucket,
                 folder: Path, *, think: float = 0.6, scan_every: float = 0.5,
                 room: NodeRoom | None = None) -> None:
        self.store = store
        self.registry = registry
        # (The adoption's look at a table's entry, asked again soon: a
        # request sent while its stream had no leader is never answered.)
        self._asking = quick(registry, READ_ASK)
        self.known = known  # the registry as this node last heard it
        self.name = store.node
        self.room = room if room is not None else NodeRoom(folder, think=think)
        self.room.node = self
        self.keeper = LeaseKeeper(store)
        self.scan_every = scan_every
        self.revisions: dict[str, int] = {}  # table -> the registry revision this node wrote
        # Tables this node is making (their lease held, not hosted yet): its
        # own scan must not take them for free ones (see `adopt`).
        self.making: set[str] = set()
        self._dirty: dict[str, HostedTable] = {}
        self.failing = Failing(log, f"node {self.name}")  # (tables' adoptions and entries)
        self._writing = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._letting_go: set[asyncio.Task[None]] = set()
        self._adopting: dict[str, asyncio.Task[None]] = {}  # adoptions begun, by table
        self._adopt_room = asyncio.Semaphore(ADOPT_AT_ONCE)  # (shared by every scan)
        self.adopted: list[str] = []  # the tables this node adopted, in order
        self.liveness: Liveness | None = None  # its connection checked (`start`)
        # A live event's board table to adopt, rebuilt by the cluster's events
        # (`crib3.cluster.live_events`); None: this node adopts none of them.
        self.boards: BoardMaker | None = None
        # (Set when the node's connection is back, and when the registry is
        # read whole again: the scan works at once, not at its backoff's end.)
        self._scan_now = asyncio.Event()
        known.whole.append(self._scan_now.set)
        store.reconnected.append(self._scan_now.set)

    @classmethod
    async def start(cls, servers: str | Sequence[str], name: str, folder: Path, *,
                    replicas: int | None = None, lease_seconds: float = 10.0,
                    think: float = 0.6, scan_every: float = 0.5, adopt: bool = True,
                    room: NodeRoom | None = None, alive_every: float = EVERY,
                    **options: Any) -> Node:
        """A node of the cluster at `servers`, called `name` (unique in the
        cluster), adopting the tables left without a host (`adopt`); its
        room is `room` (`crib3 serve --cluster`'s) or a plain `NodeRoom`;
        its connection checked every `alive_every` seconds
        (`crib3.cluster.liveness`)."""
        store = await ClusterStore.connect(servers, name, replicas=replicas,
                                           lease_seconds=lease_seconds, **options)
        try:
            registry = await open_registry(store)
            known = await watch_registry(registry, name)
        except BaseException:
            await store.close()
            raise
        store.reconnected.append(known.again)
        node = cls(store, registry, known, folder, think=think, scan_every=scan_every,
                   room=room)
        node.liveness = Liveness(store.client, name, every=alive_every, timeout=alive_every)
        await node.liveness.start()
        loop = asyncio.get_running_loop()
        node._tasks.append(loop.create_task(node._write_registry()))
        if adopt:
            node._tasks.append(loop.create_task(node._scan_forever()))
        return node

    # --- opening and adopting tables ----------------------------------------------------

    async def open_table(self, owner: Presence, rules: Rules,
                         levels: tuple[str, str]) -> HostedTable:
        """A new table hosted by this node, `owner` in its first seat (the
        room's own checks, who may open what, are the lobby's business)."""
        seats = first_seats(owner, levels)
        number, lease, table_log = await self.prepare_table(
            {"number": 0, "owner": owner.name, "rules": asdict(rules),
             "seats": [asdict(s) for s in seats], "status": OPEN,
             "started_by": None, "node": self.name})
        return self.seat_owner(owner, rules, levels, number, lease, table_log)

    async def prepare_table(self, entry: dict[str, Any]) -> tuple[int, Lease, TableLog]:
        """A table made ready to open: the cluster's next number claimed
        (its lease taken first, which the caller keeps, then its registry
        entry `entry` made: see `crib3.cluster.registry`); its stream's
        header written."""
        number = 0
        while True:
            mine = [int(key) for key in (*self.revisions, *self.keeper.leases) if key.isdigit()]
            number = max(number, highest_number(self.known), *mine) + 1
            try:
                lease = await self.store.acquire(str(number))
            except LeaseHeld:
                continue  # another node's just now
            entry["number"] = number
            self.making.add(str(number))  # (until it is hosted: `host`)
            key, value = str(number), json.dumps(entry).encode()

            async def create(key: str = key, value: bytes = value) -> int:
                return int(await self.registry.create(key, value))
            # Asked patiently (a stream electing its leader, as just after a
            # cluster starts, has nobody to answer for a moment: a node
            # starting then failed to start), while the lease, not yet kept,
            # is still held; a create sent again after its answer was lost
            # is refused, and is ours if the entry is.
            try:
                try:
                    revision = await patiently(
                        create, within=max(0.0, lease.deadline - time.monotonic()))
                except nats.js.errors.KeyWrongLastSequenceError:
                    landed = await self._landed(key, value)
                    if landed is None:
                        raise
                    revision = landed
            except nats.js.errors.KeyWrongLastSequenceError:
                self.making.discard(key)
                await self.store.release(lease)  # (an entry there already: not a new number)
                continue
            except BaseException:
                self.making.discard(key)
                raise
            break
        self.revisions[key] = revision
        try:
            table_log = await self.store.open_log(lease, make_header(source="crib3 serve",
                                                                     table=number))
        except BaseException:
            self.making.discard(str(number))
            raise
        return number, lease, table_log

    def seat_owner(self, owner: Presence, rules: Rules, levels: tuple[str, str],
                   number: int, lease: Lease, table_log: TableLog,
                   rated: bool = False, best_of: int = 1) -> HostedTable:
        """Table `number` (made ready by `prepare_table`) opened by `owner`,
        in its first seat, hosted here; its registry entry says it is open
        (every node's lobby lists it)."""
        table = HostedTable(self.room, number, owner.name, rules, first_seats(owner, levels),
                            self, table_log)
        table.online.add(0)
        table.rated = rated
        table.match = Match(best_of)
        if owner.holder is not None:
            table.holders[0] = owner.holder
        self.host(table, lease)
        table.save()
        return table

    async def adopt(self, table_id: str, statuses: tuple[str, ...] = (OPEN,)
                    ) -> HostedTable | None:
        """Table `table_id`, if it is open (or in `statuses`: a shelved table
        brought back) and nobody holds its lease: its game rebuilt from its
        stream, where it stood, hosted here. None when it is hosted, not
        open, or never started."""
        check_table_id(table_id)
        if int(table_id) in self.room.tables or table_id in self.making:
            return None
        began = time.monotonic()
        try:
            entry = await patiently(lambda: self._asking.get(table_id))
        except nats.js.errors.KeyNotFoundError:
            return None
        data = json.loads(entry.value or b"{}")
        if data.get("status") not in statuses:
            return None
        try:
            lease = await self.store.acquire(table_id)
        except LeaseHeld:
            return None
        if int(table_id) in self.room.tables or table_id in self.making:
            # This node's own lease (`acquire` takes a lease this node holds
            # for its own: a create whose answer was lost): the table is
            # being made or hosted here, not free. Left to its maker.
            return None
        # Its lease renewed from now on, not only once it is hosted: reading a
        # long log and rebuilding its game can take longer than a lease's
        # term on a busy machine, and the lease ran out under the adoption
        # (the table adopted, then lost at once, then adopted again...).
        lost = asyncio.Event()
        self.keeper.keep(lease, lost.set)
        leased = time.monotonic()
        try:
            log_ = await self._read_log(lease, int(entry.revision))
        except BaseException:
            if self.keeper.drop(table_id) is lease:
                with contextlib.suppress(Exception):  # (it runs out by itself)
                    await self.store.release(lease)
            raise
        read = time.monotonic()
        if log_ is None:
            return None
        if lost.is_set():  # (the keeper dropped it: another node may hold it now)
            log.info("node %s: table %s lost while it was adopted", self.name, table_id)
            return None
        try:
            match, events = match_on(log_, int(data.get("best_of", 1)))
        except (ValueError, TypeError) as exc:  # (its lease given back: not kept for good)
            log.warning("node %s: table %s's match cannot be read back (%s): not adopted",
                        self.name, table_id, exc)
            if self.keeper.drop(table_id) is lease:
                await self.store.release(lease)
            return None
        stored = StoredTable(int(data["number"]), str(data["owner"]), Rules(**data["rules"]),
                             [Seat(**seat) for seat in data["seats"]], events,
                             OPEN, 0.0, data.get("started_by"), rated=data.get("rated") is True,
                             match=match)
        made = board_entry(data)
        if made is None:
            table = HostedTable(self.room, stored.number, stored.owner, stored.rules,
                                stored.seats, self, log_)
        elif self.boards is None:  # (rebuilt as a game, it would deal on past its board)
            await self.store.release(lease)
            return None
        else:
            table = await self.boards(made, stored, log_)
        self.revisions[table_id] = int(entry.revision)
        self.host(table, lease)
        table.pick_up(stored)
        if table.over and table.game is not None:  # it ended as its host died: its result,
            if table.match.is_match:  # unless that host wrote it
                self.room.match_over(table)
            else:
                self.room.game_over(table, table.game.state)
        table.save()  # the registry says who hosts it now (and fences its former host there)
        self.adopted.append(table_id)
        log.info("node %s adopted table %s (%d events)", self.name, table_id,
                 len(log_.events))
        took = time.monotonic() - began
        if took > self.store.lease_seconds:  # (where a slow adoption's time went, to read after)
            log.info("node %s: adopting table %s took %.1f s: its entry and lease %.1f s, "
                     "its log %.1f s, its game rebuilt %.1f s", self.name, table_id, took,
                     leased - began, read - leased, time.monotonic() - read)
        self.background(self._chat_back(table))
        self.room.changed()
        return table

    async def _read_log(self, lease: Lease, revision: int) -> TableLog | None:
        """The log of a table being adopted, its lease `lease` kept (the
        keeper's); None, the lease given back, when it has no log (or it was
        lost meanwhile) or it never started (then it is forgotten)."""
        try:
            log_ = await self.store.open_log(lease)
        except (ValueError, Fenced):  # no log at all, or lost meanwhile
            if self.keeper.drop(lease.table) is lease:
                await self.store.release(lease)
            return None
        if not log_.record.played:  # it never started: its people were on a dead node
            log.info("node %s: table %s never started and its node is gone: forgotten",
                     self.name, lease.table)
            if self.keeper.drop(lease.table) is lease:
                await self.forget(lease, revision)  # (out of every node's lobby)
            return None
        return log_

    async def _spare_of_the_dead(self, table_id: str, revision: int) -> None:
        """Spare table `table_id` (at registry revision `revision`), if its
        lease is free (its node is gone), forgotten."""
        try:
            lease = await self.store.acquire(table_id)
        except LeaseHeld:
            return  # its node is alive: its spare
        log.info("node %s: spare table %s of a node gone forgotten", self.name, table_id)
        await self.forget(lease, revision)

    async def forget(self, lease: Lease, revision: int | None = None) -> None:
        """A table that never had a game (a spare, or a table that never
        started) given back, its lease `lease` held by this node: its
        registry entry deleted (at `revision`, when given: unless it was
        written since), its stream's messages gone, its lease released. A
        step that fails is logged; the others are done."""
        table_id = lease.table
        try:
            await self.registry.delete(table_id, last=revision)
        except Exception as exc:
            if wrong_last_sequence(exc):
                # Written since `revision`: forgotten by another node already
                # (its delete is that write: two nodes' scans found it), or
                # its node came back and it is a table now. Not this node's to
                # take out; and nothing stays behind for good: a spare, or a
                # table never started, still there is found again by the next
                # scan, at its new revision.
                log.info("node %s: table %s, which never had a game, was written since "
                         "(forgotten by another node, or its own came back): left as it is",
                         self.name, table_id)
            else:
                log.warning("node %s: table %s, which never had a game, not taken out of "
                            "the registry (%s)", self.name, table_id, exc)
        else:
            try:
                await self.store.forget(table_id)
            except Exception as exc:
                log.warning("node %s: the stream's messages of table %s, which never had a "
                            "game, not taken away (%s)", self.name, table_id, exc)
        try:
            await self.store.release(lease)
        except Exception as exc:
            log.warning("node %s: the lease of table %s not released (%s): it runs out "
                        "by itself", self.name, table_id, exc)

    async def _chat_back(self, table: HostedTable) -> None:
        """An adopted table's chat where it stood (its last lines, from the
        cluster), before any said since."""
        lines = await read_lines(self.store.js, table.table_id)
        if lines:
            said_since = list(table.chat.lines)
            table.chat.lines.clear()
            table.chat.lines.extend([*lines, *said_since])
            notify(table.chat.listeners)

    def host(self, table: HostedTable, lease: Lease) -> None:
        """`table` hosted here, its lease kept (fenced when it is lost)."""
        self.making.discard(str(table.number))
        self.room.tables[table.number] = table
        self.keeper.keep(lease, table.fence)

    async def scan(self) -> list[str]:
        """Adopt every open table whose lease is free; their ids. (A table
        that fails is logged and the others are tried; a registry not
        watched just now raises, once the tables last heard of are
        tried.) Up to `ADOPT_AT_ONCE` tables are taken at once: after an
        outage every table of the cluster is free together, and one by one
        the last waited for all the others' round trips (and for any
        request of theirs that a stream without a leader left unanswered).
        A scan waits `SCAN_WAITS` seconds at most for what it began: an
        adoption still under way then goes on by itself (its table not
        begun again meanwhile), and the next scan takes the tables freed
        since (after an outage, one table went without a host for 25 s
        while its node's scans waited on slow adoptions of others)."""
        adopted: list[str] = []
        room = self._adopt_room

        async def one(key: str, entry: Any) -> None:
            async with room:
                if int(key) in self.room.tables:
                    return
                if _status(entry) == SPARE and key not in self.revisions:  # (not this node's)
                    await self.failing.attempt(f"the spare table {key} of a node gone",
                                               self._spare_of_the_dead(key, int(entry.revision)))
                elif _status(entry) == OPEN:
                    if await self.failing.attempt(f"adopting table {key}",
                                                  self.adopt(key)) is not None:
                        adopted.append(key)
        begun = []
        for key, entry in list(self.known.entries.items()):
            if key.isdigit() and int(key) not in self.room.tables and key not in self._adopting:
                task = asyncio.get_running_loop().create_task(one(key, entry))
                self._adopting[key] = task
                task.add_done_callback(functools.partial(self._adopted, key))
                begun.append(task)
        if begun:
            await asyncio.wait(begun, timeout=SCAN_WAITS)
        if not self.known.live:  # (what it heard was tried all the same: see the module's doc)
            raise RuntimeError("the registry is not watched just now (its watch is made again)")
        return adopted

    def _adopted(self, key: str, task: asyncio.Task[None]) -> None:
        """An adoption the scan began is over (`failing.attempt` says what
        failed; anything else is a defect, reported)."""
        if self._adopting.get(key) is task:
            del self._adopting[key]
        failed = None if task.cancelled() else task.exception()
        if failed is not None:
            crash.report(log, failed, f"node {self.name}: adopting table {key}")

    def _stop_adopting(self) -> None:
        for task in list(self._adopting.values()):
            task.cancel()
        self._adopting.clear()

    async def _scan_forever(self) -> None:
        await keep_doing(self.scan, every=self.scan_every, most=max(5.0, self.scan_every),
                         what=f"node {self.name}: the adoption scan",
                         meaning="the tables of a dead node are not adopted until it works "
                                 "again",
                         paused=lambda: self.keeper.paused, wake=self._scan_now)

    # --- the registry -------------------------------------------------------------------

    def publish(self, table: HostedTable) -> None:
        """The table's entry, to be written to the registry (the latest one
        only, in the background, in order)."""
        if not table.moved:
            self._dirty[table.table_id] = table
            self._writing.set()

    async def _write_registry(self) -> None:
        while True:
            await self._writing.wait()
            # (`_writing` stays set until the entries are written, not only
            # taken: `flushed` waits for the one in flight too, so a table is
            # never let go while its registry entry still says it is open.)
            while self._dirty:
                key, table = next(iter(self._dirty.items()))
                del self._dirty[key]
                if table.moved:
                    continue

                value = json.dumps(table.entry()).encode()

                async def update(key: str = key, value: bytes = value) -> int:
                    return int(await self.registry.update(
                        key, value, last=self.revisions.get(key, 0)))
                what = f"writing the registry entry of table {key}"
                try:  # (an entry that fails is logged: the writer goes on with the next)
                    self.revisions[key] = await patiently(update)
                except nats.js.errors.KeyWrongLastSequenceError:
                    landed = await self._landed(key, value)
                    if landed is not None:
                        self.revisions[key] = landed
                        continue
                    log.info("node %s: table %s's registry entry was written by another "
                             "node: it hosts the table now", self.name, key)
                    table.fence()
                except Exception as exc:
                    self.failing.failed(what, exc)
                else:
                    self.failing.worked(what)
            self._writing.clear()

    async def _landed(self, key: str, value: bytes) -> int | None:
        """The revision of a registry entry refused as written since, when
        the write since was this very one: sent again by `patiently` after
        its answer was lost (a cluster slow to answer after an outage), the
        first send had landed. Only this node writes this node's entry of a
        table it hosts, so the same bytes are its own; None otherwise (or
        when the entry cannot be read: the table is let go, as before)."""
        try:
            entry = await patiently(lambda: self._asking.get(key))
        except Exception:
            return None
        return int(entry.revision) if entry.value == value else None

    async def flushed(self, seconds: float = FLUSH_SECONDS) -> None:
        """Until every entry published so far is written; TimeoutError after
        `seconds` (the cluster does not answer, or the writer has stopped:
        the node is closing), so that nothing waits on it for good."""
        give_up = time.monotonic() + seconds
        while self._dirty or self._writing.is_set():  # noqa: ASYNC110  (two sides change it: polled)
            if time.monotonic() > give_up:
                raise TimeoutError(f"node {self.name}: the registry's entries not written "
                                   f"in {seconds:g} s")
            await asyncio.sleep(0.01)

    def background(self, work: Coroutine[Any, Any, None]) -> None:
        """`work` run in the background, waited for as the node stops."""
        task = asyncio.get_running_loop().create_task(work)
        self._letting_go.add(task)
        task.add_done_callback(self._letting_go.discard)

    # --- letting tables go ----------------------------------------------------------------

    def moved_elsewhere(self, table: HostedTable) -> None:
        """This node may not host `table` any more (see the module's
        docstring): it closes here, and its listeners are told it moved."""
        if table.moved:
            return
        log.info("node %s: table %s is hosted elsewhere now", self.name, table.number)
        table.moved = True
        self.keeper.drop(table.table_id)
        self._dirty.pop(table.table_id, None)
        if self.room.tables.get(table.number) is table:
            del self.room.tables[table.number]
        table.close()  # (its listeners are told: `table.moved`)
        self.room.changed()

    def let_go(self, table: HostedTable) -> None:
        """This node gives `table` up (its game is over, it was closed or
        shelved, or the node stops): once its events and its entry are
        written, its lease is released (open, it may be adopted at once).
        A table that never started is forgotten (`forget`)."""
        self.background(self._release(table))

    async def _release(self, table: HostedTable) -> None:
        try:
            await asyncio.wait_for(self._written(table), FLUSH_SECONDS)
        except TimeoutError:
            log.warning("node %s: table %s let go, but its events or its entry were not "
                        "written in %g s: its lease is left to run out", self.name,
                        table.table_id, FLUSH_SECONDS)
            self.keeper.drop(table.table_id)
            return
        lease = self.keeper.drop(table.table_id)
        if lease is None or table.moved:
            return
        if table.log.record.played:
            await self.store.release(lease)
        else:  # closed before it started
            self._dirty.pop(table.table_id, None)
            await self.forget(lease, self.revisions.get(table.table_id))

    async def _written(self, table: HostedTable) -> None:
        await table.settled()
        await self.flushed()

    # --- stopping -------------------------------------------------------------------------

    def pause(self) -> None:
        """(Tests.) As if the node's process stopped: no renewal, no scan."""
        self.keeper.paused = True

    async def stop(self) -> None:
        """The node stops: its tables are let go (open ones to be adopted
        by the other nodes at once), then its connection closed."""
        self._stop_adopting()
        for table in list(self.room.tables.values()):
            table.close()
        give_up = time.monotonic() + FLUSH_SECONDS + 5.0  # (each let-go is bounded by less)
        while self._letting_go:
            left = give_up - time.monotonic()
            if left <= 0:
                log.warning("node %s stops with %d tables not let go yet: their leases run "
                            "out by themselves", self.name, len(self._letting_go))
                break
            done, _ = await asyncio.wait(set(self._letting_go), timeout=left)
            for task in done:
                failed = None if task.cancelled() else task.exception()
                if failed is not None:
                    crash.report(log, failed, f"node {self.name}: letting a table go")
        await self.close()

    async def close(self) -> None:
        """The connection closed, nothing released (a node that dies)."""
        for table in list(self.room.tables.values()):
            table.halt()
        self.keeper.stop()
        self._stop_adopting()
        for task in self._tasks:
            task.cancel()
        if self.liveness is not None:
            await self.liveness.stop()
        await self.known.stop()
        await self.store.close()


def _status(entry: Any) -> str | None:
    """A registry entry's status (None when it is not understood)."""
    try:
        return str(json.loads(entry.value)["status"])
    except (ValueError, KeyError, TypeError):
        return None


def match_on(table_log: TableLog, best_of: int) -> tuple[Match, list[Event]]:
    """A table's match as its stream holds it (a single game: best of 1),
    and the events of the game to go on with: none between two games (the
    next one begins as the table is picked up), the last game's when the
    match is over (the table is over), else the game under way's."""
    match = Match(best_of)
    if not match.is_match:
        return match, list(table_log.events)
    record = table_log.record
    for game in record.games:
        state = fold(game.events)
        if state.winner is None:  # (the stream's reader takes a header only after a win)
            raise ValueError(f"table {table_log.lease.table}: a match's game not won")
        match = match.add(Played(state.winner, tuple(state.scores)))
    if record.events:
        state = fold(record.events)
        if state.winner is not None:
            match = match.add(Played(state.winner, tuple(state.scores)))
            if not match.over:
                return match, []
    return match, list(record.events)


def first_seats(owner: Presence, levels: tuple[str, str]) -> list[Seat]:
    """A new table's seats: its owner, then two computer players."""
    return [Seat(owner.name, owner.key), Seat(level=levels[0]), Seat(level=levels[1])]


__all__ = ["Node", "NodeRoom", "first_seats", "match_on"]
