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
the board is over.

The results are read from the tables' streams: each play's events are
written as an ordinary game log in this node's copy of the event's folder
(`events/NAME/cluster/`), and scored as on one machine. The computer's
yardstick plays are the same on every node (drawn from the event's name
and seed), played again where they are missing.

Not yet here: the lobby's events screen on a node (`e` says in one line
that a cluster has no live events yet); an event is made, entered and
started through this module's methods.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any, TypeVar

import nats.js.errors

from crib3.cluster.board_tables import HostedBoardTable
from crib3.cluster.node import Node
from crib3.cluster.store import TableLog, kv_bucket, patiently
from crib3.duplicate.events import DuplicateEvent, events_dir
from crib3.duplicate.play import BOARD_RULES
from crib3.engine.log import write_log
from crib3.room.live_event import (
    PLAYING,
    FieldResult,
    LiveEvent,
    baseline_folder,
    fill_name,
    play_baseline,
)
from crib3.room.seats import Presence, Seat
from crib3.room.storage import OPEN, StoredTable

BUCKET = "crib3-events"
log = logging.getLogger("crib3.cluster")
T = TypeVar("T")


class ClusterEvents:
    """One node's way to the cluster's live events (see the module's docstring)."""

    def __init__(self, node: Node, kv: Any) -> None:
        self.node = node
        self.kv = kv
        self.tables: dict[str, list[HostedBoardTable]] = {}  # event -> its tables hosted here
        node.boards = self.board_table

    @classmethod
    async def start(cls, node: Node) -> ClusterEvents:
        return cls(node, await kv_bucket(node.store.js, BUCKET, node.store.replicas))

    # --- the events in the bucket -----------------------------------------------------

    async def put(self, live: LiveEvent) -> None:
        """A new event (made by `new_live_event` on this node) in the cluster."""
        await self.kv.create(live.name, json.dumps(
            {"event": live.event.to_json(), "live": live.to_json()}).encode())

    async def read(self, name: str) -> tuple[LiveEvent, int]:
        """Event `name` as the cluster holds it, and its revision.
        (A read: safe to send again.)"""
        entry = await patiently(lambda: self.kv.get(name))
        data = json.loads(entry.value or b"{}")
        event = DuplicateEvent.from_json(data["event"])
        return LiveEvent.from_json(event, data["live"]), int(entry.revision)

    async def change(self, name: str, how: Callable[[LiveEvent], T]) -> tuple[LiveEvent, T]:
        """`how(live)` done to event `name` and written back at the revision
        read; read and done again while another node wrote it meanwhile.
        `how`'s RoomError goes to the caller, nothing written."""
        while True:
            live, revision = await self.read(name)
            out = how(live)
            data = {"event": live.event.to_json(), "live": live.to_json()}
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
            number, lease, table_log = await self.node.prepare_table(entry)
            table = HostedBoardTable(self.node.room, number, owner, seats, self.node, table_log,
                                     live.name, board, index, self.board_over)
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

    @staticmethod
    def _key(live: LiveEvent, name: str) -> str | None:
        entrant = live.entrant(name)
        return entrant.key if entrant is not None else None

    def board_over(self, table: HostedBoardTable) -> None:
        """Table `table`'s board is over here (hosted here, or adopted)."""
        self.node.background(self._through(table))

    async def _through(self, table: HostedBoardTable) -> None:
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

    async def board_table(self, made: tuple[str, int, int], stored: StoredTable,
                          log_: TableLog) -> HostedBoardTable:
        """A board's table to adopt (`Node.adopt`): the board's game, rebuilt
        from its stream by the event's own board."""
        name, number, index = made
        live, _ = await self.read(name)
        table = HostedBoardTable(self.node.room, stored.number, stored.owner, stored.seats,
                                 self.node, log_, name, live.boards[number - 1], index,
                                 self.board_over)
        self.tables.setdefault(name, []).append(table)
        return table

    # --- results ------------------------------------------------------------------------

    async def results(self, name: str) -> tuple[LiveEvent, list[FieldResult], list[Any],
                                                list[str]]:
        """Event `name`'s results from the tables' streams (see the module's
        docstring): the event, its fields, its ranking, the logs left out."""
        live, _ = await self.read(name)
        folder = events_dir() / name / "cluster"
        folder.mkdir(parents=True, exist_ok=True)
        (folder.parent / "event.json").write_text(json.dumps(live.event.to_json()) + "\n",
                                                  encoding="utf-8")
        for key, table_id in list(live.logs.items()):
            record = await self.node.store.read(str(table_id))
            path = folder / f"table-{table_id}.jsonl"
            header = record.header if record.header is not None else {}
            write_log(path, record.events, header)
            live.logs[key] = path
        if not baseline_folder(live.event).is_dir():
            await asyncio.to_thread(play_baseline, live.event, baseline_folder(live.event))
        fields, ranking, problems = live.results()
        return live, fields, list(ranking), problems


__all__ = ["BUCKET", "ClusterEvents"]
