"""Live duplicate events across a cluster's nodes: the event's definition
(its boards), its entries, its seating, the board in play and its tables
in the `crib3-events` key-value bucket, one key an event; the boards'
plays on the tables' streams (`crib3.cluster.board_tables`).

Every change is a read, the model's own change (`crib3.room.live_event`:
the same checks as on one machine), and an update at the revision read;
a node that loses the race reads again and does it again. So two nodes
entering people at once both get in, and only one node advances the
event to the next board: the one whose update of "table N is through"
made every table through, and then dealt the next board, is the one that
opens its tables (hosted there; people on other nodes visit them). A
node that dies mid-board loses no board played: its board tables are
adopted as any cluster table is (`Node.adopt` asks `board_table` here to
rebuild the board's game), and the adopting node tells the event when
the board is over; whoever of its people has not signed in again on any
node within the room's patience has left (the computer plays their seat).

The results are read from the tables' streams
(`crib3.cluster.event_bucket.event_results`): each play's events are
written as an ordinary game log in this node's copy of the event's folder
(`events/NAME/cluster/`), and scored as on one machine. The computer's
yardstick plays are the same on every node (drawn from the event's name
and seed), played again where they are missing.

A rated event (its host's choice, kept in its entry) moves ratings once:
every node that rates and hears it end puts its one result
(`crib3.room.event_ratings.event_result`, its id the event's) on the
cluster's results stream, which keeps one; every node folds it once it
has made it again from the bucket and the streams
(`crib3.cluster.verify`), and `crib3 ratings rebuild --cluster` alike.

`ClusterLiveEvents` is a node's room's `events`, what the lobby's events
screen reads and asks on any node.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Coroutine
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

import nats.js.errors

from crib3.cluster.board_tables import HostedBoardTable
from crib3.cluster.event_bucket import (
    BUCKET,
    event_results,
    live_of,
    put_event,
    read_entry,
    read_event,
)
from crib3.cluster.node import Node
from crib3.cluster.results import ClusterResults
from crib3.cluster.retry import Backoff
from crib3.cluster.store import Lease, TableLog, kv_bucket
from crib3.cluster.watched import WatchedBucket
from crib3.common.names import shown_name
from crib3.duplicate.events import DuplicateEvent, load_event
from crib3.duplicate.play import BOARD_RULES
from crib3.room.basics import RoomError
from crib3.room.event_ratings import event_id, event_result, is_rated
from crib3.room.live_event import (
    ENTERING,
    OVER,
    PLAYING,
    FieldResult,
    LiveEvent,
    fill_name,
    load_live,
)
from crib3.room.live_tables import LiveEvents
from crib3.room.room import Room
from crib3.room.seats import Presence, Seat
from crib3.room.storage import OPEN, StoredTable

log = logging.getLogger("crib3.cluster")
RATE_TRIES = 4  # a finished event's result put on the cluster: tries before it is left
T = TypeVar("T")


class ClusterEvents:
    """One node's way to the cluster's live events (see the module's docstring)."""

    def __init__(self, node: Node, kv: Any, results: ClusterResults | None = None) -> None:
        self.node = node
        self.kv = kv
        self.rated_results = results  # the cluster's rated results (None: this node rates none)
        self.tables: dict[str, list[HostedBoardTable]] = {}  # event -> its tables hosted here
        node.boards = self.board_table

    @classmethod
    async def start(cls, node: Node, results: ClusterResults | None = None) -> ClusterEvents:
        return cls(node, await kv_bucket(node.store.js, BUCKET, node.store.replicas), results)

    # --- the events in the bucket -----------------------------------------------------

    async def put(self, live: LiveEvent) -> None:
        """A new event (made by `new_live_event` on this node) in the
        cluster, rated if its host made it so."""
        await put_event(self.kv, live, is_rated(live.event))

    async def read(self, name: str) -> tuple[LiveEvent, int]:
        """Event `name` as the cluster holds it, and its revision."""
        return await read_event(self.kv, name)

    async def change(self, name: str, how: Callable[[LiveEvent], T]) -> tuple[LiveEvent, T]:
        """`how(live)` done to event `name` and written back at the revision
        read; read and done again while another node wrote it meanwhile.
        `how`'s RoomError goes to the caller, nothing written."""
        while True:
            data, revision = await read_entry(self.kv, name)
            live = live_of(data)
            out = how(live)
            data = {**data, "event": live.event.to_json(), "live": live.to_json()}
            try:
                await self.kv.update(name, json.dumps(data).encode(), last=revision)
            except nats.js.errors.KeyWrongLastSequenceError:
                continue  # another node's change came first: again, on top of it
            return live, out

    async def join(self, name: str, presence: Presence) -> None:
        await self.change(name, lambda live: live.join(presence.name, presence.key,
                                                       presence.holder))

    async def start_event(self, name: str) -> str:
        """Seat the entrants and deal board 1 (at tables hosted here)."""
        def begin(live: LiveEvent) -> str:
            line = live.begin()
            live.next_board()
            return line
        live, line = await self.change(name, begin)
        if live.status == PLAYING:
            await self._deal(live)
        return line

    # --- the boards at the cluster's tables ----------------------------------------------

    async def _deal(self, live: LiveEvent) -> None:
        """The board in play opened at every event table, hosted here, each
        table's id written into the event (`logs`)."""
        board = live.boards[live.board - 1]
        opened: list[HostedBoardTable] = []
        for index, slots in enumerate(live.seating):
            seats = [Seat(level=live.event.level) if who is None else
                     Seat(who, self._key(live, who), live.event.level,
                          replaced=not live.playing(who, board.number))
                     for who in slots]
            owner = next((s.name for s in seats if s.person and s.name is not None),
                         fill_name(index, 0))
            entry = {"number": 0, "owner": owner, "rules": asdict(BOARD_RULES),
                     "seats": [asdict(s) for s in seats], "status": OPEN, "started_by": None,
                     "node": self.node.name,
                     "board": {"event": live.name, "board": board.number, "index": index}}
            number, lease, table_log = await self._prepared(entry, live.name)
            table = HostedBoardTable(self.node.room, number, owner, seats, self.node, table_log,
                                     live.name, board, index, self.board_over, live.entered)
            self.node.host(table, lease)
            table.save()
            table.start(owner)
            opened.append(table)
        self.tables[live.name] = opened

        def started(fresh: LiveEvent) -> None:
            for table in opened:
                fresh.logs[board.number, table.index] = Path(table.table_id)
        await self.change(live.name, started)
        self.node.room.changed()

    async def _prepared(self, entry: dict[str, Any], name: str) -> tuple[int, Lease, TableLog]:
        """A board's table made ready (`Node.prepare_table`), tried again
        with backoff while the cluster refuses (the board is in play: the
        event waits for its tables); the first failure is logged."""
        backoff = Backoff(0.25, 5.0)
        while True:
            try:
                return await self.node.prepare_table(dict(entry))
            except Exception as exc:
                if backoff.failures == 0:
                    log.warning("event %s: a board's table could not be made ready (%s); "
                                "tried again until it is, the event waiting for it", name, exc)
                await asyncio.sleep(backoff.failed())

    @staticmethod
    def _key(live: LiveEvent, name: str) -> str | None:
        entrant = live.entrant(name)
        return entrant.key if entrant is not None else None

    def board_over(self, table: HostedBoardTable) -> None:
        """Table `table`'s board is over here (hosted here, or adopted)."""
        self.node.background(self._through(table))

    async def _through(self, table: HostedBoardTable) -> None:
        try:
            await self._through_once(table)
        except Exception:
            log.exception("event %s: board %d is over at table %d, but the event could not "
                          "be told or the next board dealt; it waits here", table.event,
                          table.board.number, table.number)

    async def _through_once(self, table: HostedBoardTable) -> None:
        def through(live: LiveEvent) -> bool:
            if live.status != PLAYING or live.board != table.board.number:
                return False
            if not live.finished(table.index, Path(table.table_id)):
                return False
            return live.next_board() is not None
        live, deal = await self.change(table.event, through)
        if deal:  # this node's update made every table through: it deals the next
            await self._deal(live)
        self.node.room.changed()
        if live.status == OVER:  # (every node's watch asks too: whoever is first writes it)
            await self.rate_logged(live.name)

    # --- ratings ------------------------------------------------------------------------

    async def rate(self, name: str) -> bool:
        """Event `name`'s result on the cluster's results stream, once, if
        it is over, its host made it rated and this node rates: True when
        this call wrote it. Every node that hears the event end asks (the
        one that ended it might die first); the stream keeps one
        (`ClusterResults.record`), and every node folds it once its check
        made it again from the tables' streams (`check_event_result`)."""
        results = self.rated_results
        if results is None:
            return False
        data, _ = await read_entry(self.kv, name)
        live = live_of(data)
        if data.get("rated") is not True or live.status != OVER \
                or results.book.has(event_id(live)):
            return False
        live, _, _, problems = await event_results(self.node.store, self.kv, name)
        if problems:
            raise ValueError(f"its tables cannot all be read: {problems[0]}")
        result = event_result(live)
        if result is None:
            return False
        recorded = await results.record(result)
        if recorded:
            log.info("event %s: its result is on the cluster (%d entries ranked)", name,
                     len(result.placings))
        return recorded

    async def rate_logged(self, name: str) -> None:
        """`rate`, tried again with backoff a few times while it fails (the
        first failure logged); then left to the other nodes, which ask too,
        and to this one's next start, which hears the event over again."""
        backoff = Backoff(1.0, 8.0)
        while True:
            try:
                await self.rate(name)
                return
            except Exception as exc:
                if backoff.failures == 0:
                    log.warning("event %s: its result could not be put on the cluster (%s); "
                                "tried again, no rating moved by this node until it is",
                                name, exc or type(exc).__name__)
                if backoff.failures >= RATE_TRIES - 1:
                    log.error("event %s: its result is still not on the cluster after %d "
                              "tries; left to the other nodes and to this one's next start",
                              name, RATE_TRIES)
                    return
                await asyncio.sleep(backoff.failed())

    async def board_table(self, made: tuple[str, int, int], stored: StoredTable,
                          log_: TableLog) -> HostedBoardTable:
        """A board's table to adopt (`Node.adopt`): the board's game, rebuilt
        from its stream by the event's own board."""
        name, number, index = made
        live, _ = await self.read(name)
        table = HostedBoardTable(self.node.room, stored.number, stored.owner, stored.seats,
                                 self.node, log_, name, live.boards[number - 1], index,
                                 self.board_over, live.entered)
        self.tables.setdefault(name, []).append(table)
        asyncio.get_running_loop().call_later(
            self.node.room.patience, lambda: self.node.background(self._not_back(table)))
        return table

    async def _not_back(self, table: HostedBoardTable) -> None:
        """The room's patience after adopting `table`: its people whose node
        died with it and who have not signed in again anywhere left (the
        event does not wait for them), as on one machine after a restart."""
        room = self.node.room
        here = {n.lower() for n in (room.cluster.names_here() if room.cluster is not None
                                    else room.people)}
        for held in list(table.seats):
            name = held.name
            if name is None or not held.person or name.lower() in here:
                continue
            def gone(live: LiveEvent, name: str = name) -> bool:
                return live.leaves(name)
            try:
                await self.change(table.event, gone)
            except Exception:
                log.exception("event %s: %s is not back after their node died, but the event "
                              "could not be told; their seat waits for them", table.event, name)
                continue
            seat = table.seat_of(name)
            if seat is not None and not table.over and not table.closed:
                table._to_computer(seat, None)

    # --- results ------------------------------------------------------------------------

    async def results(self, name: str) -> tuple[LiveEvent, list[FieldResult], list[Any],
                                                list[str]]:
        """Event `name`'s results from the tables' streams (`event_results`)."""
        return await event_results(self.node.store, self.kv, name)

class ClusterLiveEvents(LiveEvents):
    """A node's room's live events as its screens use them (the room's
    `events`, `crib3.room.contract.LiveEventsView`), every node's alike:
    the events bucket as this node's watch last heard it (`watched`), each
    change the screens ask for checked at once on that copy (its one line
    why not, as on one machine) and written to the cluster in the
    background (`ClusterEvents.change`). A board's table is where its
    node hosts it: here (`table_of`), or on another node, which a person's
    session visits (`elsewhere`). The results are read from the tables'
    streams once a board is over at every table, in the background, and
    shown from then on."""

    def __init__(self, room: Room, cluster: ClusterEvents, watched: WatchedBucket) -> None:
        super().__init__(room)
        self.cluster = cluster
        self.watched = watched
        self._revisions: dict[str, int] = {}
        self._sheets: dict[str, tuple[Any, tuple[str, ...]]] = {}  # event -> (over at, lines)
        self._reading: set[str] = set()
        self._rated: set[str] = set()  # events over, their result asked for
        watched.listeners.append(self._heard)
        for key, entry in list(watched.entries.items()):
            self._heard(key, entry)

    @classmethod
    async def connect(cls, room: Room, node: Node,
                      results: ClusterResults | None = None) -> ClusterLiveEvents:
        """`results`: the cluster's rated results, where a finished rated
        event's result goes (None: this node rates no event)."""
        cluster = await ClusterEvents.start(node, results)
        watched = WatchedBucket(cluster.kv, f"node {node.name}: the live events' watch",
                                "no node hears of an event's entries or boards until it "
                                "works again")
        await watched.start()
        return cls(room, cluster, watched)

    async def stop(self) -> None:
        await self.watched.stop()

    # --- what the watch heard ---------------------------------------------------------------

    def _heard(self, key: str, entry: Any) -> None:
        if entry is None:
            self.events.pop(key, None)
            self._revisions.pop(key, None)
            self.room.changed()
            return
        if self._revisions.get(key) == int(entry.revision):
            return
        try:
            data = json.loads(entry.value or b"{}")
            live = LiveEvent.from_json(DuplicateEvent.from_json(data["event"]), data["live"])
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("live event %r in the cluster cannot be read: %s", key[:40], exc)
            return
        self._revisions[key] = int(entry.revision)
        self.events[key] = live
        if live.status == OVER and key not in self._rated:  # (its result, once)
            self._rated.add(key)
            self.cluster.node.background(self.cluster.rate_logged(key))
        if live.status == ENTERING and key not in self._timers:
            self._schedule(live)
        if live.status == PLAYING:
            self._stand_ins(live)
        self._read_again(key)
        self.room.changed()

    def _read_again(self, name: str) -> None:
        """The results read from the streams once more, if a board has been
        over everywhere (or someone left) since they were last read."""
        live = self.events.get(name)
        if live is None or name in self._reading or live.status not in (PLAYING, OVER):
            return
        if live.sheet_at() != self._sheets.get(name, (None, ()))[0]:
            self._reading.add(name)
            self.cluster.node.background(self._read_results(name))

    def _stand_ins(self, live: LiveEvent) -> None:
        """Who left (on any node): the computer plays their seat at the
        board tables hosted here."""
        for table in self._here(live.name):
            for seat, held in enumerate(table.seats):
                if held.name is not None and held.person and not table.over \
                        and not live.playing(held.name, table.board.number):
                    table._to_computer(seat, None)

    def _here(self, name: str) -> list[HostedBoardTable]:
        return [t for t in self.room.tables.values()
                if isinstance(t, HostedBoardTable) and t.event == name and not t.closed]

    async def _read_results(self, name: str) -> None:
        try:
            live, _, _, problems = await self.cluster.results(name)
            lines = live.sheet()
            self._sheets[name] = (live.sheet_at(), tuple(lines))
            for problem in problems:
                log.warning("event %s: a log is left out of its results: %s", name, problem)
        except Exception:
            log.exception("event %s: its results could not be read from the cluster; read "
                          "again at its next change", name)
        finally:
            self._reading.discard(name)
        self.room.changed()
        self._read_again(name)  # (changed while they were read)

    # --- what the screens read and ask ------------------------------------------------------

    def find(self) -> None:
        """(Every node hears of every event through its watch.)"""

    def listed(self) -> list[LiveEvent]:
        out = []
        for name in sorted(self.events):
            live = self.events[name]
            live.show_sheet(self._sheets.get(name, (None, ()))[1])  # (never its own logs' ids)
            out.append(live)
        return out

    def made(self, name: str) -> None:
        live = load_live(load_event(name))
        if live is None:
            raise RoomError(f"{name} is no live event")
        self.events.setdefault(name, live)
        self._later(self.cluster.put(live), f"event {name} could not be put in the cluster")
        self.room.changed()

    def join(self, name: str, presence: Presence) -> None:
        self._checked(name, lambda live: live.join(presence.name, presence.key,
                                                   presence.holder))

    def withdraw(self, name: str, presence: Presence) -> None:
        self._checked(name, lambda live: live.withdraw(presence.name))

    def _checked(self, name: str, how: Callable[[LiveEvent], object]) -> None:
        """`how` done to the copy here (its RoomError raised at once), and
        then to the cluster's event."""
        how(self._event(name))
        self._later(self.cluster.change(name, how), f"event {name} could not be changed")
        self.room.changed()

    def start(self, name: str, by: Presence | None) -> str:
        live = self._event(name)
        if by is not None and not (by.admin or by.name.lower() == live.host.lower()):
            raise RoomError(f"only {shown_name(live.host)} or an admin can start event {name}")
        if live.status != ENTERING:
            raise RoomError(f"event {name} has started already")
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()
        self._later(self.cluster.start_event(name), f"event {name} could not start")
        return ""

    def table_of(self, presence: Presence) -> HostedBoardTable | None:  # type: ignore[override]  # a node's board tables are hosted ones
        for live in self.events.values():
            for table in self._here(live.name):
                seat = table.seat_of(presence.name)
                if seat is not None and table.seats[seat].person and not table.over:
                    return table
        return None

    def board_of(self, table: object) -> tuple[int, int] | None:
        if not isinstance(table, HostedBoardTable):
            return None
        live = self.events.get(table.event)
        return table.board.number, live.board_count if live is not None else 0

    def elsewhere(self, presence: Presence) -> int | None:
        """The board table another node hosts where `presence` plays now."""
        for live in self.events.values():
            place = live.place(presence.name) if live.status == PLAYING else None
            if place is None or not live.playing(presence.name, live.board):
                continue
            table_id = live.logs.get((live.board, place[0]))
            if table_id is None or int(str(table_id)) in self.room.tables:
                continue
            cluster = self.room.cluster
            if cluster is not None and any(t.number == int(str(table_id)) and not t.over
                                           for t in cluster.elsewhere()):
                return int(str(table_id))
        return None

    def departed(self, presence: Presence) -> None:
        for live in list(self.events.values()):
            if live.status == ENTERING:
                entrant = live.entrant(presence.name)
                if entrant is not None and entrant.key == presence.key:
                    self.withdraw(live.name, presence)
            elif live.status == PLAYING and live.place(presence.name) is not None \
                    and presence.name.lower() not in live.left:
                self._later(self.cluster.change(live.name, lambda it: it.leaves(presence.name)),
                            f"event {live.name}: {presence.name}'s leaving is not kept")

    def _later(self, work: Coroutine[Any, Any, object], failed: str) -> None:
        async def run() -> None:
            try:
                await work
            except RoomError as exc:  # (another node's change came first)
                log.info("%s: %s", failed, exc)
            except Exception:
                log.exception("%s (the cluster did not answer); it is not tried again", failed)
        self.cluster.node.background(run())


__all__ = ["BUCKET", "ClusterEvents", "ClusterLiveEvents"]
