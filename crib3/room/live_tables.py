"""A room's live duplicate events, played at its tables.

`LiveEvents` holds the room's live events (`crib3.room.live_event`, the
model): it enters people, starts an event at its time (or when its host
says), and for each board opens one `BoardTable` per event table, its
seats taken already (people sit down by name, as at any table of theirs).
When every table is through with a board it opens the next board's. A
person whose session ends mid-event is replaced by the computer at once:
an event does not wait for anyone.

A `BoardTable` is a room table whose game is one board (`BoardGame`): it
is never shelved (the event goes on without whoever is gone), it is
rated never (an event's result is its own), and nobody entered in the
event may watch it: they would see cards of a board they may not have
played.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from crib3.common.names import shown_name
from crib3.duplicate.boards import Board, seat_of
from crib3.duplicate.events import EventError, events_dir, load_event
from crib3.duplicate.play import BOARD_RULES, BoardGame
from crib3.engine import Game, PlayerInfo
from crib3.room.basics import RoomError
from crib3.room.event_ratings import rate_finished
from crib3.room.live_event import (
    ENTERING,
    OVER,
    PLAYING,
    LiveEvent,
    fill_name,
    load_live,
)
from crib3.room.seats import Presence, Seat
from crib3.room.storage import CLOSED, OPEN
from crib3.room.table import Table

if TYPE_CHECKING:
    from crib3.room.room import Room

log = logging.getLogger("crib3.serve")


class BoardTable(Table):
    """One event table's play of one board (see the module's docstring)."""

    def __init__(self, room: Room, number: int, owner: str, seats: list[Seat],
                 live: LiveEvent, index: int, board: Board) -> None:
        super().__init__(room, number, owner, BOARD_RULES, seats)
        self.live = live
        self.index = index  # the event's table, from 0
        self.board = board

    def _new_game(self, players: list[PlayerInfo], seed: int) -> Game:
        self.files.start_log()
        # Slot p sits in the game's seat p: the game's seat 0 holds slot 0's board seat.
        return BoardGame.start(self.board, seat_of(0, self.board.number), players,
                               subscribers=[self._record])

    def save(self, status: str = OPEN) -> None:
        """Kept as closed: a restarted room must not take a board's hand
        for a game's first and deal on. The event's own file resumes it
        (`LiveEvents.find`); the log stays, for the record and the results."""
        super().save(CLOSED)

    def _nobody_here(self) -> None:
        """Never shelved: the event goes on (the computer plays whoever left)."""

    def watch(self, presence: Presence) -> None:
        if self.live.entrant(presence.name) is not None and self.live.status == PLAYING:
            raise RoomError(f"table {self.number} plays board {self.board.number} of event "
                            f"{self.live.name}: you may not see its cards")
        super().watch(presence)

    async def _drive(self) -> None:
        await super()._drive()
        game = self.game
        if game is not None and game.over and not self.closed:
            try:
                self.room.events.board_done(self)
            except Exception:
                log.exception("event %s: board %d is over at table %d, but the next board "
                              "could not be dealt; the event stops here", self.live.name,
                              self.board.number, self.number)


class LiveEvents:
    """The room's live events (see the module's docstring)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self.events: dict[str, LiveEvent] = {}
        self.tables: dict[str, list[BoardTable]] = {}  # event -> its tables for the board now
        self._timers: dict[str, asyncio.TimerHandle] = {}
        # Events found over (never to enter again) and unreadable ones said
        # once: every `e` looks in the data folder, and events are kept for good.
        self._passed: set[str] = set()
        self._unread: set[str] = set()
        # The events the data folder holds are found at the room's first
        # change (someone signs in), once its loop runs to start their clocks.
        room.listeners.append(self._first_change)

    def _first_change(self) -> None:
        self.room.listeners.remove(self._first_change)
        if self.room.cluster is None:  # (a cluster's node hears of its events otherwise:
            # `crib3.cluster.live_events.ClusterLiveEvents` is its room's `events`)
            self.find()

    def find(self) -> None:
        """Pick up the live events made in the data folder (`crib3 event new
        --live`) that are still to start; read again whenever the lobby's
        event screen opens, so an event made while the room runs is found."""
        folder = events_dir()
        if not folder.is_dir():
            return
        for path in sorted(folder.glob("*/live.json")):
            name = path.parent.name
            if name in self.events or name in self._passed:
                continue
            try:
                live = load_live(load_event(name))
            except (EventError, RoomError) as exc:
                if name not in self._unread:  # (looked at again: it may be being written)
                    self._unread.add(name)
                    log.warning("a live event could not be read: %s", exc)
                continue
            if live is not None and live.status in (ENTERING, PLAYING):
                self.add(live)
            elif live is not None and live.status == OVER:  # (its result, once)
                rate_finished(self.room, live)
                self._passed.add(name)
            else:
                self._passed.add(name)
        for name, live in self.events.items():  # (found before the room's loop ran)
            if live.status == ENTERING and name not in self._timers:
                self._schedule(live)

    def add(self, live: LiveEvent) -> None:
        """A live event in this room, started at its time (or, one under way
        when the room last stopped, resumed)."""
        self.events[live.name] = live
        if live.status == PLAYING:
            self._resume(live)
        else:
            self._schedule(live)

    def _resume(self, live: LiveEvent) -> None:
        """Go on with an event the room was playing when it stopped: the
        boards played stay played (their logs are the results); each table
        not through with the board in play plays it again from its deal (a
        board is one hand: replayed whole, nobody holds a half-played one
        they have seen the other half of from the old deal's screen, which
        was the same cards anyway); people are seated again as they come
        back, and whoever is not back within the room's patience is
        replaced by the computer, as one who left."""
        if live.board == 0 or len(live.done) == len(live.seating):
            self._deal(live)  # (stopped between two boards)
        else:
            board = live.boards[live.board - 1]
            waiting = [i for i in range(len(live.seating)) if i not in live.done]
            log.info("event %s resumed at board %d: %d table(s) play it again from its deal",
                     live.name, board.number, len(waiting))
            self.tables[live.name] = self._open(live, board, waiting)
            self._saved(live)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (a test of the model alone)
            return
        loop.call_later(self.room.patience, self._not_back, live.name)

    def _not_back(self, name: str) -> None:
        """The room's patience after a resume: who has not come back left."""
        live = self.events.get(name)
        if live is None or live.status != PLAYING:
            return
        for slots in live.seating:
            for who in slots:
                if who is not None and who.lower() not in self.room.people:
                    self._replace(live, who)

    def _schedule(self, live: LiveEvent) -> None:
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (a test of the model alone: started by hand)
            return
        wait = max(0.0, live.start_at - time.time())
        self._timers[live.name] = loop.call_later(wait, self._start_in_time, live.name)

    def created(self, live: LiveEvent) -> None:
        """A live event just made (`new_live_event`) is this room's."""
        self.add(live)
        self.room.changed()

    def may_make(self, presence: Presence) -> None:
        """RoomError unless `presence` may make a live event now: its boards,
        the computer's nine yardstick games and a folder kept for good cost
        more than a table, so making one is paced as opening a table is."""
        self.room._may_open(presence, asked="made", again="make another", what="events")

    def made(self, name: str) -> None:
        """Event `name` was just made in the data folder (by a screen, in
        this process or a session worker's): it is this room's now."""
        self.find()
        if name not in self.events:
            raise RoomError(f"there is no live event named {name!r} to be found here")
        self.room.changed()

    def board_of(self, table: object) -> tuple[int, int] | None:
        if not isinstance(table, BoardTable):
            return None
        return table.board.number, table.live.board_count

    def elsewhere(self, presence: Presence) -> int | None:
        """(One machine: every board table is here.)"""
        return None

    def listed(self) -> list[LiveEvent]:
        return [self.events[name] for name in sorted(self.events)]

    def join(self, name: str, presence: Presence) -> None:
        live = self._event(name)
        live.join(presence.name, presence.key, presence.holder)
        self._saved(live)

    def withdraw(self, name: str, presence: Presence) -> None:
        live = self._event(name)
        live.withdraw(presence.name)
        self._saved(live)

    def start(self, name: str, by: Presence | None) -> str:
        """Start event `name` (its time came, or its host or an admin says
        so now). Returns the line to say (too few people), or ""."""
        live = self._event(name)
        if by is not None and not (by.admin or by.name.lower() == live.host.lower()):
            raise RoomError(f"only {shown_name(live.host)} or an admin can start event {name}")
        timer = self._timers.pop(name, None)
        if timer is not None:
            timer.cancel()
        line = live.begin()
        if line:
            log.info("%s", line)
        self._deal(live)
        return line

    def _start_in_time(self, name: str) -> None:
        self._timers.pop(name, None)
        live = self.events.get(name)
        if live is None or live.status != ENTERING:
            return
        try:
            self.start(name, None)
        except RoomError as exc:  # (started by hand meanwhile)
            log.warning("event %s could not start: %s", name, exc)

    def _deal(self, live: LiveEvent) -> None:
        """The next board at every event table (or the event's end)."""
        board = live.next_board()
        if board is None:
            self.tables.pop(live.name, None)
            self._saved(live)
            rate_finished(self.room, live)
            return
        self.tables[live.name] = self._open(live, board, range(len(live.seating)))
        self._saved(live)

    def _open(self, live: LiveEvent, board: Board, indexes: Iterable[int]) -> list[BoardTable]:
        """Board `board` dealt at the event's tables `indexes`."""
        tables = []
        for index in indexes:
            slots = live.seating[index]
            seats = []
            for who in slots:
                entrant = live.entrant(who) if who is not None else None
                if entrant is None:
                    seats.append(Seat(level=live.event.level))
                else:
                    seats.append(Seat(entrant.name, entrant.key, live.event.level,
                                      replaced=not live.playing(entrant.name, board.number)))
            owner = next((s.name for s in seats if s.person and s.name is not None),
                         seats[0].name or fill_name(index, 0))
            table = BoardTable(self.room, self.room._next_number(), owner, seats, live, index,
                               board)
            self.room.tables[table.number] = table
            table.start(owner)
            live.started_at(index, table.log_path)
            tables.append(table)
        return tables

    def board_done(self, table: BoardTable) -> None:
        live = table.live
        if live.status != PLAYING or live.board != table.board.number:
            return
        if live.finished(table.index, table.log_path):
            self._deal(live)
        else:
            self._saved(live)

    def departed(self, presence: Presence) -> None:
        """`presence`'s session ended: in an event under way, the computer
        plays their seat from now on (their boards so marked)."""
        for live in self.events.values():
            if live.status == ENTERING:
                entrant = live.entrant(presence.name)
                if entrant is not None and entrant.key == presence.key:
                    live.withdraw(presence.name)
                    self._saved(live)
                continue
            self._replace(live, presence.name)

    def _replace(self, live: LiveEvent, name: str) -> None:
        """`name` left event `live` under way: the computer plays their seat."""
        if not live.leaves(name):
            return
        log.info("event %s: %s left; the computer plays their seat", live.name, name)
        for table in self.tables.get(live.name, []):
            seat = table.seat_of(name)
            if seat is not None and not table.over and not table.closed:
                table._to_computer(seat, None)
        self._saved(live)

    def table_of(self, presence: Presence) -> BoardTable | None:
        """The board table where `presence` plays now, if any."""
        for tables in self.tables.values():
            for table in tables:
                seat = table.seat_of(presence.name)
                if seat is not None and table.seats[seat].person and not table.over:
                    return table
        return None

    def _event(self, name: str) -> LiveEvent:
        live = self.events.get(name)
        if live is None:
            raise RoomError(f"there is no live event named {name!r} here")
        return live

    def _saved(self, live: LiveEvent) -> None:
        try:
            live.save()
        except OSError as exc:
            log.error("event %s could not be saved (it goes on, in memory): %s", live.name, exc)
        self.room.changed()
