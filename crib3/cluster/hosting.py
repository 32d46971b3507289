"""A card room's tables hosted by the nodes of a cluster (issue 31, points 3
and 4): each table by one node at a time, its log on the cluster's stream,
and adopted by another node when its host dies.

**Acknowledged before shown.** A room's table writes its log through its
game (`Table._new_game`, `Table._go_on`): on one machine the table's file
is the game's first subscriber, fsynced before any screen hears of the
event. Here the game is an `AckedGame`: a command is checked and carried out
at once (a refusal comes back at once, as today) against the host's working
state, its events are queued, and a task appends them to the table's stream
one by one, telling the game's subscribers (the screens' feeds, the bots'
wake-up) of each only once the cluster acknowledged it. Moves that arrive
meanwhile are checked against the state their predecessors make and queued
behind them, in order; nothing waits on the event loop.

**One owner, fenced.** The node holds the table's lease (`ClusterStore`),
renewed by its `LeaseKeeper` at a third of the term. When a renewal is
refused, or an append is (`Fenced`: the lease ran out on this node's clock,
or another node took the table and appended its owner message), or the
table's entry in the registry moved on under it, the node stops hosting
the table at once: the events it had not got on the stream are dropped
(no screen showed them), the table closes here with `moved` set, and its
listeners are told, so that its people's screens send them to reconnect.

**Adoption.** The tables of a cluster are listed in a key-value bucket
(`crib3-tables`: who sits where, as a table's seat file holds it, with its
status and the node that wrote it last). Every node scans it, and a table
that is open and whose lease is free (its host released it, or died and
the server dropped its lease at the end of its term) is acquired by the
first node to ask: it reads the table's stream, rebuilds the game by the
engine's fold, the game where it stood, and goes on with it, its computer
players carrying on and its people's seats waiting for them.

The cluster-wide sign-in and lobby are `crib3.cluster.presence` and
`crib3.cluster.lobby` (the lobby reads what `HostedTable.entry` writes);
`crib3.cluster.room` is the room of a `crib3 serve --cluster` node. An
open table whose log holds no event and whose lease is free (closed before
it started, or its people were on a dead node) is marked closed by the
scan, so that it leaves every node's lobby. A person connected to another node
sits at a table here by visiting this node (`crib3.cluster.visits`). A
shelved table is adopted the same way, when its person asks for it
(`crib3.cluster.room`). Not here yet: closed games brought back.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import nats.js.errors
from nats.js.api import KeyValueConfig

from crib3.cluster.chat import keep_line, read_lines
from crib3.cluster.store import (
    NOT_YET_PLACED,
    ClusterStore,
    Fenced,
    Lease,
    LeaseHeld,
    TableLog,
    check_table_id,
    patiently,
)
from crib3.common import crash
from crib3.engine import Event, Game, IllegalMove, PlayerInfo, Rules, State
from crib3.engine.commands import Command
from crib3.engine.log import make_header
from crib3.engine.rules import begin, legal_moves, step, to_act
from crib3.engine.state import apply
from crib3.engine.views import SeatView, project
from crib3.room.basics import notify
from crib3.room.chat import ChatLine
from crib3.room.room import Room
from crib3.room.seats import Presence, Seat
from crib3.room.storage import CLOSED, OPEN, StoredTable
from crib3.room.table import Table

REGISTRY = "crib3-tables"
OVER = "over"  # a table's status in the registry once its game ended
MOVED = "this table is hosted by another server now: reconnect"
log = logging.getLogger("crib3.cluster")


class AckedGame(Game):
    """A game whose subscribers hear of an event only once it is on the
    table's stream (see the module's docstring). `events` and `state` are
    what the cluster acknowledged (what screens may show); a seat's moves
    and the computer players' view (`to_act`, `legal_moves`, `view`) are
    the host's working state, queued events included."""

    def __init__(self, log: TableLog, lost: Callable[[], None],
                 rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.log = log
        self._lost = lost
        self.ahead: State = self.state  # the state once every queued event is acknowledged
        self._outbox: deque[tuple[Event, State]] = deque()
        self._pump: asyncio.Task[None] | None = None
        self._settled = asyncio.Event()
        self._settled.set()
        self.fenced = False

    @classmethod
    def hosting(cls, log: TableLog, lost: Callable[[], None],
                events: Iterable[Event] = ()) -> AckedGame:
        """The game `events` (read from the stream) make, going on from there."""
        game = cls(log, lost)
        state = game.state
        for event in events:
            state = apply(state, event)
            game.events.append(event)
        game.state = game.ahead = state
        return game

    def begin(self, players: Sequence[PlayerInfo], rules: Rules, seed: int) -> None:
        """A new game's first events, on their way to the stream."""
        self.rng = random.Random(seed)
        self._emit([begin(tuple(players), rules, seed)])
        self._resolve_chance()

    # --- moves: checked against the working state, queued -----------------------------

    def dispatch(self, command: Command) -> list[Event]:
        if self.fenced:
            raise IllegalMove(MOVED)
        start = len(self._outbox)
        events, state = step(self.ahead, command)
        self._emit(events, state)
        self._resolve_chance()
        return [event for event, _ in list(self._outbox)[start:]]

    def _emit(self, events: list[Event], final: State | None = None) -> None:
        state = self.ahead
        for event in events:
            state = apply(state, event)
            self._outbox.append((event, state))
        self.ahead = final if final is not None else state
        if self._pump is None or self._pump.done():
            self._settled.clear()
            self._pump = asyncio.get_running_loop().create_task(self._send())

    def _chance_state(self) -> State:
        return self.ahead  # (the events that lead there wait for the stream)

    def to_act(self) -> tuple[int, ...]:
        return () if self.fenced else to_act(self.ahead)

    def legal_moves(self, seat: int) -> list[Command]:
        return legal_moves(self.ahead, seat)

    def view(self, seat: int | None) -> SeatView:
        return project(self.ahead, seat)

    # --- the stream, then the screens -------------------------------------------------

    async def _send(self) -> None:
        try:
            while self._outbox and not self.fenced:
                event, state = self._outbox[0]
                await self.log.append(event)  # acknowledged by the cluster (or Fenced)
                if self.fenced:  # let go meanwhile (a renewal refused): shown by the next host
                    break
                self._outbox.popleft()
                self.events.append(event)
                self.state = state
                for callback in list(self._subscribers):
                    try:
                        callback(event, state)
                    except Exception as exc:
                        crash.report(log, exc, "a subscriber of a cluster's table")
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # Fenced, or a cluster that answers no more
            if not isinstance(exc, Fenced):
                log.warning("table %s: an append failed (%s); this node lets it go",
                            self.log.lease.table, exc)
            self.fence()
        finally:
            self._settled.set()

    def fence(self) -> None:
        """This node may not write the table's log any more: what it had not
        got on the stream is dropped (no screen showed it)."""
        if self.fenced:
            return
        self.fenced = True
        self._outbox.clear()
        self.ahead = self.state
        self._lost()

    async def settled(self) -> None:
        """Until every event queued so far is on the stream (or dropped)."""
        await self._settled.wait()


class LeaseKeeper:
    """Renews a node's leases at a third of their term, in the background;
    a lease it cannot renew (refused, or its term ran out meanwhile) is
    dropped and its `lost` callback called."""

    def __init__(self, store: ClusterStore) -> None:
        self.store = store
        self.leases: dict[str, tuple[Lease, Callable[[], None]]] = {}
        self.paused = False  # (tests: a node stopped, as by SIGSTOP)
        self._task: asyncio.Task[None] | None = None

    def keep(self, lease: Lease, lost: Callable[[], None]) -> None:
        self.leases[lease.table] = (lease, lost)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def drop(self, table: str) -> Lease | None:
        kept = self.leases.pop(table, None)
        return kept[0] if kept else None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.store.lease_seconds / 3)
            if self.paused:
                continue
            # All at once: one after the other, 20 tables' renewals on a
            # busy node's loop took long enough for the last ones' leases to
            # run out while the node was alive (tests/benchmarks/
            # test_cluster_load.py, with the machine's cores kept busy).
            await asyncio.gather(*(self._renew(table, lease, lost)
                                   for table, (lease, lost) in list(self.leases.items())))

    async def _renew(self, table: str, lease: Lease, lost: Callable[[], None]) -> None:
        try:
            await self.store.renew(lease)
            return
        except Fenced:
            pass
        except Exception as exc:
            if lease.held():
                log.info("table %s: a renewal failed (%s); trying again", table, exc)
                return
        if self.leases.get(table, (None,))[0] is lease:
            self.drop(table)
            lost()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None


class NodeRoom(Room):
    """The room as one node of a cluster sees it: the tables it hosts now.
    Its folder holds this node's own copies of their seat files (the
    registry holds the cluster's)."""

    node: Node


class HostedTable(Table):
    """A room's table hosted by this node: its log on the cluster's stream,
    its seats in the registry (see the module's docstring)."""

    def __init__(self, room: NodeRoom, number: int, owner: str, rules: Rules,
                 seats: list[Seat], node: Node, log: TableLog) -> None:
        super().__init__(room, number, owner, rules, seats)
        self.node = node
        self.log = log
        self.status = OPEN
        self._published: tuple[Any, ...] | None = None  # what the registry says of it

    @property
    def table_id(self) -> str:
        return str(self.number)

    @property
    def state(self) -> State | None:
        """The game as the cluster holds it; None until its first events
        are stored (the lobby names no player before that)."""
        state = super().state
        return state if state is not None and state.players else None

    def _new_game(self, players: list[PlayerInfo], seed: int) -> Game:
        game = AckedGame(self.log, self._lost)
        game.subscribe(self._record)
        game.begin(players, self.rules, seed)
        return game

    def _go_on(self, events: list[Event]) -> Game:
        game = AckedGame.hosting(self.log, self._lost, events)
        game.subscribe(self._record)
        return game

    def _record(self, event: Event, state: State) -> None:
        # The event is on the stream already (AckedGame); the end is said,
        # and a new score or hand told to every node's lobby.
        if state.winner is not None:
            self.save()
        elif self._public() != self._published:
            self.node._publish(self)

    def _public(self) -> tuple[Any, ...]:
        """What the lobby shows of the table (see `crib3.cluster.lobby`)."""
        state = self.state
        return (tuple((s.name, s.level, s.replaced) for s in self.seats),
                tuple(sorted(self.online)), self.started_by,
                None if state is None else (tuple(state.scores), state.hand_number,
                                            state.winner))

    def _changed(self) -> None:
        super()._changed()
        if not self.closed and self._public() != self._published:
            self.node._publish(self)

    def save(self, status: str = OPEN) -> None:
        super().save(status)  # this node's own copy
        self.status = status
        self.node._publish(self)

    def entry(self) -> dict[str, Any]:
        """The table's entry in the registry: its seats (for a node that
        adopts it) and what the lobby shows of it (who is here, the game's
        public standing: never a card)."""
        self._published = self._public()
        state = self.state
        standing = None if state is None else {
            "players": [[p.name, p.kind] for p in state.players],
            "scores": list(state.scores), "hand": state.hand_number, "winner": state.winner}
        return {"number": self.number, "owner": self.owner, "rules": asdict(self.rules),
                "seats": [asdict(seat) for seat in self.seats],
                "status": OVER if self.over else self.status,
                "started_by": self.started_by, "node": self.node.name,
                "online": sorted(self.online), "standing": standing}

    def _lost(self) -> None:
        self.node._moved(self)

    def say(self, presence: Presence, text: str) -> ChatLine:
        """Said and shown here at once, as on one machine; kept on the
        cluster too, for a node that adopts the table (`crib3.cluster.chat`)."""
        line = super().say(presence, text)
        self.node._background(keep_line(self.node.store.js, self.table_id, line))
        return line

    async def _drive(self) -> None:
        await super()._drive()
        if self.over and not self.moved:
            self.node._let_go(self)

    def close(self) -> None:
        if self.closed:
            return
        super().close()
        if not self.moved:
            self.node._let_go(self)


class Node:
    """One node of a cluster's room: the tables it hosts, the leases it
    keeps, and the scan that adopts the tables whose host is gone."""

    def __init__(self, store: ClusterStore, registry: Any, folder: Path, *,
                 think: float = 0.6, scan_every: float = 0.5,
                 room: NodeRoom | None = None) -> None:
        self.store = store
        self.registry = registry
        self.name = store.node
        self.room = room if room is not None else NodeRoom(folder, think=think)
        self.room.node = self
        self.keeper = LeaseKeeper(store)
        self.scan_every = scan_every
        self.revisions: dict[str, int] = {}  # table -> the registry revision this node wrote
        self._dirty: dict[str, HostedTable] = {}
        self._writing = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._letting_go: set[asyncio.Task[None]] = set()
        self.adopted: list[str] = []  # the tables this node adopted, in order

    @classmethod
    async def start(cls, servers: str | Sequence[str], name: str, folder: Path, *,
                    replicas: int | None = None, lease_seconds: float = 10.0,
                    think: float = 0.6, scan_every: float = 0.5, adopt: bool = True,
                    room: NodeRoom | None = None, **options: Any) -> Node:
        """A node of the cluster at `servers`, called `name` (unique in the
        cluster), adopting the tables left without a host (`adopt`); its
        room is `room` (`crib3 serve --cluster`'s) or a plain `NodeRoom`."""
        store = await ClusterStore.connect(servers, name, replicas=replicas,
                                           lease_seconds=lease_seconds, **options)
        try:
            registry = await patiently(lambda: store.js.key_value(REGISTRY))
        except nats.js.errors.BucketNotFoundError:
            try:
                registry = await patiently(lambda: store.js.create_key_value(KeyValueConfig(
                    bucket=REGISTRY, replicas=store.replicas, history=1)),
                    also=NOT_YET_PLACED)
            except nats.js.errors.APIError:  # another node made it meanwhile
                registry = await patiently(lambda: store.js.key_value(REGISTRY))
        node = cls(store, registry, folder, think=think, scan_every=scan_every, room=room)
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
        seats = [Seat(owner.name, owner.key), Seat(level=levels[0]), Seat(level=levels[1])]
        number = await self._claim_number(owner, rules, seats)
        lease = await self.store.acquire(str(number))
        log_ = await self.store.open_log(lease, make_header(source="crib3 serve",
                                                            table=number))
        table = HostedTable(self.room, number, owner.name, rules, seats, self, log_)
        table.online.add(0)
        if owner.holder is not None:
            table.holders[0] = owner.holder
        self._host(table, lease)
        table.save()
        return table

    async def _claim_number(self, owner: Presence, rules: Rules, seats: list[Seat]) -> int:
        """The next table number of the cluster, its registry entry made."""
        while True:
            try:
                numbers = [int(k) for k in await self.registry.keys() if k.isdigit()]
            except nats.js.errors.NoKeysError:
                numbers = []
            number = max(numbers, default=0) + 1
            entry = {"number": number, "owner": owner.name, "rules": asdict(rules),
                     "seats": [asdict(s) for s in seats], "status": OPEN,
                     "started_by": None, "node": self.name}
            try:
                self.revisions[str(number)] = await self.registry.create(
                    str(number), json.dumps(entry).encode())
                return number
            except nats.js.errors.KeyWrongLastSequenceError:
                continue  # another node took that number first

    async def adopt(self, table_id: str, statuses: tuple[str, ...] = (OPEN,)
                    ) -> HostedTable | None:
        """Table `table_id`, if it is open (or in `statuses`: a shelved table
        brought back) and nobody holds its lease: its game rebuilt from its
        stream, where it stood, hosted here. None when it is hosted, not
        open, or never started."""
        check_table_id(table_id)
        if int(table_id) in self.room.tables:
            return None
        try:
            entry = await patiently(lambda: self.registry.get(table_id))
        except nats.js.errors.KeyNotFoundError:
            return None
        data = json.loads(entry.value or b"{}")
        if data.get("status") not in statuses:
            return None
        try:
            lease = await self.store.acquire(table_id)
        except LeaseHeld:
            return None
        try:
            log_ = await self.store.open_log(lease)
        except (ValueError, Fenced):  # no log at all, or lost meanwhile
            await self.store.release(lease)
            return None
        if not log_.events:  # it never started: closed, or its people were on a dead node
            await self.store.release(lease)
            data["status"] = CLOSED  # out of every node's lobby (`crib3.cluster.lobby`)
            with contextlib.suppress(Exception):
                await self.registry.update(table_id, json.dumps(data).encode(),
                                           last=int(entry.revision))
            return None
        stored = StoredTable(int(data["number"]), str(data["owner"]), Rules(**data["rules"]),
                             [Seat(**seat) for seat in data["seats"]], list(log_.events),
                             OPEN, 0.0, data.get("started_by"))
        table = HostedTable(self.room, stored.number, stored.owner, stored.rules,
                            stored.seats, self, log_)
        self.revisions[table_id] = int(entry.revision)
        self._host(table, lease)
        table._pick_up(stored)
        table.save()  # the registry says who hosts it now (and fences its former host there)
        self.adopted.append(table_id)
        log.info("node %s adopted table %s (%d events)", self.name, table_id,
                 len(log_.events))
        self._background(self._chat_back(table))
        self.room.changed()
        return table

    async def _chat_back(self, table: HostedTable) -> None:
        """An adopted table's chat where it stood (its last lines, from the
        cluster), before any said since."""
        lines = await read_lines(self.store.js, table.table_id)
        if lines:
            said_since = list(table.chat.lines)
            table.chat.lines.clear()
            table.chat.lines.extend([*lines, *said_since])
            notify(table.chat.listeners)

    def _host(self, table: HostedTable, lease: Lease) -> None:
        self.room.tables[table.number] = table
        self.keeper.keep(lease, lambda: table.game.fence() if isinstance(
            table.game, AckedGame) else self._moved(table))

    async def scan(self) -> list[str]:
        """Adopt every open table whose lease is free; their ids."""
        try:
            keys = await self.registry.keys()
        except nats.js.errors.NoKeysError:
            return []
        adopted = []
        for key in keys:
            if key.isdigit() and int(key) not in self.room.tables:
                try:
                    if await self.adopt(key) is not None:
                        adopted.append(key)
                except Exception as exc:
                    crash.report(log, exc, f"adopting table {key}")
        return adopted

    async def _scan_forever(self) -> None:
        while True:
            await asyncio.sleep(self.scan_every)
            if not self.keeper.paused:
                with contextlib.suppress(Exception):
                    await self.scan()

    # --- the registry -------------------------------------------------------------------

    def _publish(self, table: HostedTable) -> None:
        """The table's entry, to be written to the registry (the latest one
        only, in the background, in order)."""
        if not table.moved:
            self._dirty[table.table_id] = table
            self._writing.set()

    async def _write_registry(self) -> None:
        while True:
            await self._writing.wait()
            self._writing.clear()
            while self._dirty:
                key, table = next(iter(self._dirty.items()))
                del self._dirty[key]
                if table.moved:
                    continue
                value = json.dumps(table.entry()).encode()
                try:
                    self.revisions[key] = await patiently(
                        lambda key=key, value=value: self.registry.update(
                            key, value, last=self.revisions.get(key, 0)))
                except nats.js.errors.KeyWrongLastSequenceError:
                    # another node wrote it: it hosts the table now
                    if isinstance(table.game, AckedGame):
                        table.game.fence()
                    else:
                        self._moved(table)
                except Exception as exc:
                    crash.report(log, exc, f"the registry entry of table {key}")

    async def flushed(self) -> None:
        """Until every entry published so far is written."""
        while self._dirty or self._writing.is_set():
            await asyncio.sleep(0.01)

    def _background(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._letting_go.add(task)  # (waited for as the node stops)
        task.add_done_callback(self._letting_go.discard)

    # --- letting tables go ----------------------------------------------------------------

    def _moved(self, table: HostedTable) -> None:
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

    def _let_go(self, table: HostedTable) -> None:
        """This node gives `table` up (its game is over, it was closed or
        shelved, or the node stops): once its events and its entry are
        written, its lease is released (open, it may be adopted at once)."""
        task = asyncio.get_running_loop().create_task(self._release(table))
        self._letting_go.add(task)
        task.add_done_callback(self._letting_go.discard)

    async def _release(self, table: HostedTable) -> None:
        if isinstance(table.game, AckedGame):
            await table.game.settled()
        await self.flushed()
        lease = self.keeper.drop(table.table_id)
        if lease is not None and not table.moved:
            await self.store.release(lease)

    # --- stopping -------------------------------------------------------------------------

    def pause(self) -> None:
        """(Tests.) As if the node's process stopped: no renewal, no scan."""
        self.keeper.paused = True

    async def stop(self) -> None:
        """The node stops: its tables are let go (open ones to be adopted
        by the other nodes at once), then its connection closed."""
        for table in list(self.room.tables.values()):
            table.close()
        while self._letting_go:
            await asyncio.gather(*self._letting_go, return_exceptions=True)
        await self.close()

    async def close(self) -> None:
        """The connection closed, nothing released (a node that dies)."""
        for table in list(self.room.tables.values()):
            table.closed = True
            if table._driver is not None:
                table._driver.cancel()
        self.keeper.stop()
        for task in self._tasks:
            task.cancel()
        await self.store.close()


__all__ = ["AckedGame", "HostedTable", "LeaseKeeper", "Node", "NodeRoom"]
