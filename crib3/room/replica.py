"""The card room as a session worker sees it: a replica of the main
process's `Room` (`crib3 serve --workers N`).

The screens read a room, its tables and their chat, and call a few
methods; they should not know whether the room is here or in another
process. So `ReplicaRoom` and `ReplicaTable` are what the contract says a
room and a table are (`crib3.room.contract`: `RoomView`, `TableView`), as
`Room` and `Table` are, kept up to date by the `RoomDelta`s the main process sends
(`crib3.room.host`), and their listeners are told as the real ones would
be. What changes the room (`sit`, `open_table`, `say`, a move, ...) is a
`Call` to the main process; its `Reply` is the result or the one line of
the `RoomError` (or `IllegalMove`) it raised.

Calls are synchronous: the screens call the room from key handlers and
use the answer at once (a seat number, a refusal to show), as they do
with a room in the same process. The link waits for the reply, and the
messages that arrive meanwhile are applied in order, so when a call
returns the replica already shows what it changed.

A move may be the exception (`ReplicaRoom.moves_wait` False; the session
worker's default is to wait, see `crib3.net.worker.MOVES_WAIT` for why):
`ReplicaFeed.send` checks the move against the seat's own latest view
(the screens offer only legal moves, so the room seldom refuses one),
sends it and returns at once: its events come back as another seat's do,
then its `Reply`, which calls the screen's `answered` (None, or the
refusal's one line). A move the view does not offer, or one made while
the seat's last move is still unanswered, goes the synchronous way
(`dispatch`), so the room's own words refuse it. Everything goes to the
main process over one ordered link and is carried out there in order: a
seat's moves stay in the order they were made.

A game reaches a screen only as `ReplicaFeed`: the events redacted to its
seat (public ones for a spectator) and the seat's view, as `SeatFeed`
hands them; the state is folded here from those redacted events. This
process never holds another seat's hidden cards.

Which session is calling is the context variable `CALLER`, which the
worker sets for each session's app (Textual runs each app's handlers in
tasks that inherit it).
"""

from __future__ import annotations

import itertools
import time
from collections import deque
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

from crib3.common.pace import SHOW_PACE
from crib3.common.rates import TokenBucket
from crib3.engine import Command, Event, IllegalMove, Rules, SeatView, State
from crib3.engine.state import apply
from crib3.room import wire
from crib3.room.basics import Listener, RoomError, notify
from crib3.room.chat import ChatLine
from crib3.room.match import Match
from crib3.room.matcher import WAIT
from crib3.room.records import Records
from crib3.room.seats import SEATS, Presence, Seat, SeatLookup

if TYPE_CHECKING:
    from crib3.room.contract import ClusterExtras, TableView, Wayfinding
    from crib3.room.moderation import Sanction

# A worker's people say nothing by their own allowance: the main process's
# room counts their chat (`Presence.chat`). One shared, never taken from.
NO_CHAT = TokenBucket(0, 0)
CALLER: ContextVar[int | None] = ContextVar("crib3_room_caller", default=None)
FeedItem = tuple[Event, State, SeatView]


class Link(Protocol):
    """How a replica reaches the main process (`crib3.net.workers` gives one)."""

    def call(self, call: wire.Call) -> wire.Reply:
        """Send `call`, and apply what arrives until its reply, which is returned."""

    def send(self, message: object) -> None:
        """Send a message that needs no answer."""


@dataclass(eq=False)
class ReplicaPresence(Presence):
    """A session's person in a worker, a `Presence` as the screens read
    one (name, key, admin, code); `session` is how the main process knows
    them. The room in the main process keeps the real one: it alone ends
    sessions (`kick` does nothing here) and counts their chat."""

    session: int = 0
    chat: TokenBucket = field(repr=False, default=NO_CHAT)  # (counted by the main process)

    # One per session, the same one whatever its fields say (as before it
    # was a `Presence`): compared and hashed as itself.
    __eq__ = object.__eq__
    __hash__ = object.__hash__


class ReplicaChat:
    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=50)
        self.listeners: list[Listener] = []


class ReplicaGame:
    """What the screens ask of a table's game directly: whether it is over."""

    def __init__(self, table: ReplicaTable) -> None:
        self._table = table

    @property
    def over(self) -> bool:
        return self._table.over


class ReplicaFeed:
    """A seat's (or a spectator's) side of a replica table's game: the
    same `follow` and `dispatch` as `SeatFeed`."""

    # What a move may meet here beyond an illegal move: the room's own
    # refusals (the table closed meanwhile, the seat given away), which the
    # table screen says in one line.
    room_errors = (RoomError,)

    def __init__(self, table: ReplicaTable, seat: int | None) -> None:
        self.table = table
        self.seat = seat
        self.game = table.game
        # The seat's latest view as the room sent it (None until followed):
        # what `send` checks a move against.
        self.view: SeatView | None = None
        self._unanswered = 0  # moves sent and not yet answered

    def follow(self, callback: Callable[[Event, State, SeatView], None]
               ) -> tuple[list[FeedItem], Callable[[], None]]:
        room = self.table.room
        sub, so_far = self.table._call("follow", self.seat)
        seen = State()
        history: list[FeedItem] = []
        for event, view in so_far:
            seen = apply(seen, event)
            history.append((event, seen, view))
        if history:
            self.view = history[-1][2]

        def on_items(items: tuple[tuple[Event, SeatView], ...]) -> None:
            nonlocal seen
            for event, view in items:
                seen = apply(seen, event)
                self.view = view
                callback(event, seen, view)

        room._follows[sub] = on_items

        def unsubscribe() -> None:
            if room._follows.pop(sub, None) is not None:
                room.link.send(wire.Unfollow(sub))

        return history, unsubscribe

    def dispatch(self, command: Command) -> None:
        """The move, waiting for the room's word (as `SeatFeed.dispatch`)."""
        if self.seat is None:
            raise IllegalMove("a spectator cannot move")
        if getattr(command, "seat", None) != self.seat:
            raise IllegalMove(f"seat {self.seat} may only move for itself")
        self.table._call("dispatch", self.seat, command)

    def send(self, command: Command, answered: Callable[[str | None], None]) -> bool:
        """The move, without waiting (see the module's docstring): True when
        it was sent, and `answered` is called once the room has carried it
        out (None, after its events) or refused it (the one line why).
        False when it was not sent, because the seat's latest view does not
        offer it or a move of this seat is still unanswered: then
        `dispatch` it, and the room says why it is refused, or takes it."""
        view = self.view
        if self.table.room.moves_wait or self.seat is None or view is None or self._unanswered or \
                getattr(command, "seat", None) != self.seat or command not in view.legal:
            return False

        def done(refused: str | None) -> None:
            self._unanswered -= 1
            answered(refused)

        self._unanswered += 1
        try:
            self.table.room._send(self.table.uid, "dispatch", (self.seat, command), done)
        except BaseException:
            self._unanswered -= 1
            raise
        return True


class ReplicaTable(SeatLookup):
    """A table as its screens read it (see the module's docstring)."""

    def __init__(self, room: ReplicaRoom, uid: int) -> None:
        self.room = room
        self.uid = uid
        self.number = 0
        self.owner = ""
        self.rules = Rules()
        self.seats: list[Seat] = [Seat() for _ in range(SEATS)]
        self.online: set[int] = set()
        self.away_since: dict[int, float] = {}
        self.started = False
        self._over = False
        self.closed = False
        self.closed_by: str | None = None
        self.passed_from: str | None = None
        self.close_asked: list[str] = []
        self.started_by: str | None = None
        self.rated = False
        self.match = Match()
        self.moved = False  # (a cluster's table only: a worker never has one)
        self.watchers: list[str] = []
        self.listeners: list[Listener] = []
        self.chat = ReplicaChat()
        self.state: wire.PublicStanding | None = None
        self.game: ReplicaGame | None = None

    def _take(self, snap: wire.TableSnap, offset: float) -> bool:
        """The table as the main process sent it; True if its chat changed."""
        self.number, self.owner, self.rules = snap.number, snap.owner, snap.rules
        self.seats = list(snap.seats)
        self.online = set(snap.online)
        self.started, self._over, self.closed = snap.started, snap.over, snap.closed
        self.closed_by, self.passed_from = snap.closed_by, snap.passed_from
        self.close_asked = list(snap.close_asked)
        self.started_by = snap.started_by
        self.rated = snap.rated
        self.match = snap.match
        self.state = snap.standing
        if self.started and self.game is None:
            self.game = ReplicaGame(self)
        if not snap.whole:  # the lobby's summary: nobody here sits at it or watches it
            return False
        self.away_since = {seat: since + offset for seat, since in snap.away_since}
        self.watchers = list(snap.watchers)
        chat_changed = tuple(self.chat.lines) != snap.chat
        if chat_changed:
            self.chat.lines.clear()
            self.chat.lines.extend(snap.chat)
        return chat_changed

    # --- how it stands (as `Table`) -------------------------------------------------

    @property
    def over(self) -> bool:
        return self._over

    def away(self, seat: int) -> float | None:
        if not self.seats[seat].person or seat in self.online:
            return None
        since = self.away_since.get(seat)
        return 0.0 if since is None else time.monotonic() - since

    def owner_seat(self) -> int | None:
        return self.seat_of(self.owner)

    def present(self, seat: int) -> bool:
        return seat in self.online and self.seats[seat].person

    def replaceable(self, seat: int) -> bool:
        gone = self.away(seat)
        return self.started and not self.over and gone is not None and \
            gone >= self.room.patience

    def watcher_names(self) -> list[str]:
        return list(self.watchers)

    def feed(self, seat: int | None) -> ReplicaFeed:
        return ReplicaFeed(self, seat)

    # --- what changes it (calls to the main process) ------------------------------------

    def _call(self, method: str, *args: Any) -> Any:
        return self.room._call(self.uid, method, *args)

    def sit(self, presence: Any) -> int:
        return int(self._call("sit", wire.ME))

    def leave(self, seat: int) -> None:
        if not self.closed:
            self._call("leave", seat)

    def start(self, by: str) -> None:
        self._call("start", by)

    def replace(self, seat: int, by: str) -> None:
        self._call("replace", seat, by)

    def close_by(self, by: str) -> bool:
        return bool(self._call("close_by", by))

    def watch(self, presence: Any) -> None:
        self._call("watch", wire.ME)

    def unwatch(self, presence: Any) -> None:
        self._call("unwatch", wire.ME)

    def say(self, presence: Any, text: str) -> ChatLine:
        line: ChatLine = self._call("say", wire.ME, text)
        return line


class ReplicaRoom:
    """The room as a worker's screens read it (see the module's docstring)."""

    def __init__(self, link: Link, think: float = 0.6) -> None:
        self.link = link
        self.think = think
        # True: every move waits for the room, as the other calls do
        # (`ReplicaFeed.send` sends none); a session worker sets it from
        # `CRIB3_MOVES_WAIT` (waiting unless "0", see crib3.net.worker).
        self.moves_wait = False
        self.patience = 60.0
        self.show_pace = SHOW_PACE
        self.rates = False
        self.motd = ""  # the lobby's message of the day, as the last delta said
        self.records = Records(None, None)  # read from the files the last delta named
        self.cluster: ClusterExtras | None = None  # (a cluster's node runs no workers yet)
        self.play_now: ReplicaPlayNow | None = ReplicaPlayNow(self)
        self.events: ReplicaEvents | None = ReplicaEvents(self)
        self.tables: dict[int, ReplicaTable] = {}
        self.shelved: dict[int, list[Seat]] = {}
        self.reopenable: dict[int, list[Seat]] = {}
        self.people: dict[str, ReplicaPresence] = {}
        self.listeners: list[Listener] = []
        self.version = 0
        self._by_uid: dict[int, ReplicaTable] = {}
        self._mine: dict[str, ReplicaPresence] = {}  # this process's sessions, by name
        self._follows: dict[int, Callable[[tuple[tuple[Event, SeatView], ...]], None]] = {}
        self._calls = itertools.count(1)
        # call -> who is told its answer: the moves sent without waiting (`send`)
        self._unanswered: dict[int, Callable[[str | None], None]] = {}

    # --- kept up to date ------------------------------------------------------------------

    def presence(self, name: str, key: str | None, admin: bool, session: int) -> ReplicaPresence:
        """A session of this process signs in: it is itself in `people`."""
        presence = ReplicaPresence(name, key, admin=admin, session=session)
        self._mine[name.lower()] = presence
        return presence

    def forget(self, presence: ReplicaPresence) -> None:
        if self._mine.get(presence.name.lower()) is presence:
            del self._mine[presence.name.lower()]

    def receive(self, message: object) -> bool:
        """Apply a message about the room; False if it is none."""
        if isinstance(message, wire.RoomDelta):
            self._apply(message)
        elif isinstance(message, wire.FeedItems):
            follower = self._follows.get(message.sub)
            if follower is not None:
                follower(message.items)
        elif isinstance(message, wire.Reply) and message.call in self._unanswered:
            self._unanswered.pop(message.call)(message.error)
        else:
            return False
        return True

    def _apply(self, delta: wire.RoomDelta) -> None:
        if delta.version <= self.version:
            return
        self.version = delta.version
        offset = time.monotonic() - delta.clock
        self.patience = delta.patience
        self.show_pace = delta.show_pace
        self.rates = delta.rates
        self.motd = delta.motd
        if delta.records != self.records.paths:
            self.records.close()
            self.records = Records.at(delta.records)
        people: dict[str, ReplicaPresence] = {}
        for person in delta.people:
            mine = self._mine.get(person.name.lower())
            people[person.name.lower()] = mine if mine is not None and mine.key == person.key \
                else ReplicaPresence(person.name, person.key, admin=person.admin)
        self.people = people
        self.shelved = {number: list(seats) for number, seats in delta.shelved}
        self.reopenable = {number: list(seats) for number, seats in delta.reopenable}
        if self.events is not None:
            self.events.told = delta.events
        told: list[ReplicaTable] = []
        chatted: list[ReplicaTable] = []
        for snap in delta.tables:
            table = self._by_uid.get(snap.uid)
            if table is None:
                table = self._by_uid[snap.uid] = ReplicaTable(self, snap.uid)
            if table._take(snap, offset):
                chatted.append(table)
            told.append(table)
            if snap.in_room:
                self.tables[snap.number] = table
            else:
                if self.tables.get(snap.number) is table:
                    del self.tables[snap.number]
                del self._by_uid[snap.uid]
        for table in told:
            notify(table.listeners)
        for table in chatted:
            notify(table.chat.listeners)
        notify(self.listeners)

    # --- how it stands (as `Room`) --------------------------------------------------------

    def lobby(self) -> list[ReplicaTable]:
        return [t for _, t in sorted(self.tables.items()) if not t.over]

    def place_of(self, presence: Any) -> tuple[ReplicaTable, int] | None:
        for table in self.tables.values():
            seat = table.seat_of(presence.name)
            if seat is not None and not table.over and table.seats[seat].person:
                return table, seat
        return None

    def shelved_for(self, presence: Any, closed: bool = True) -> int | None:
        for games in ([self.shelved, self.reopenable] if closed else [self.shelved]):
            for number, seats in sorted(games.items()):
                if any(s.person and s.name is not None
                       and s.name.lower() == presence.name.lower()
                       and s.key == presence.key for s in seats):
                    return number
        return None

    # --- what changes it ----------------------------------------------------------------

    def _call(self, target: int | str, method: str, *args: Any) -> Any:
        session = CALLER.get()
        if session is None:
            raise RoomError("no session is calling")
        reply = self.link.call(wire.Call(next(self._calls), session, target, method, args))
        if reply.error is not None:
            raise (IllegalMove if reply.illegal else RoomError)(reply.error)
        return reply.value

    def _send(self, target: int | str, method: str, args: tuple[Any, ...],
              answered: Callable[[str | None], None]) -> None:
        """A call whose `Reply` is not waited for: `answered` is given its
        error (None: done) when it comes (see `ReplicaFeed.send`)."""
        session = CALLER.get()
        if session is None:
            raise RoomError("no session is calling")
        number = next(self._calls)
        self._unanswered[number] = answered
        self.link.send(wire.Call(number, session, target, method, args))

    def _table(self, uid: int | None) -> ReplicaTable | None:
        return None if uid is None else self._by_uid.get(uid)

    def open_table(self, owner: Any, rules: Rules, levels: tuple[str, str],
                   rated: bool | None = None, best_of: int = 1) -> ReplicaTable:
        table = self._table(
            self._call("room", "open_table", wire.ME, rules, tuple(levels), rated)
            if best_of == 1 else
            self._call("room", "open_match", wire.ME, rules, tuple(levels), rated, best_of))
        if table is None:
            raise RoomError("the table closed as it opened")
        return table

    def bring_back(self, presence: Presence, *,
                   journey: Wayfinding | None = None) -> ReplicaTable | None:
        """(Back at once, or not at all: `journey` is never needed.)"""
        return self._table(self._call("room", "bring_back", wire.ME))

    def close_by_admin(self, table: TableView, by: Presence) -> None:
        if not isinstance(table, ReplicaTable):
            raise RoomError("that table is not one of this room's")
        self._call("room", "close_by_admin", table.uid, wire.ME)

    def remove(self, name: str, by: Any) -> None:
        self._call("room", "remove", name, wire.ME)

    def ban(self, name: str, by: Any, seconds: float | None) -> str:
        return str(self._call("room", "ban", name, wire.ME, seconds))

    def mute(self, name: str, by: Any, seconds: float | None) -> str:
        return str(self._call("room", "mute", name, wire.ME, seconds))

    def sanctions(self, by: Any) -> list[Sanction]:
        return cast("list[Sanction]", self._call("room", "sanctions", wire.ME))

    def lift(self, what: str, whom: str, by: Any) -> None:
        self._call("room", "lift", what, whom, wire.ME)

    def set_motd(self, text: str, by: Any) -> str:
        return str(self._call("room", "set_motd", text, wire.ME))

    def changed(self) -> None:
        notify(self.listeners)


class ReplicaPlayNow:
    """The main process's play-now queue (`crib3.room.playnow`), as a
    worker's lobby uses it: each a `Call` (`crib3.room.contract.PlayNowView`)."""

    wait = WAIT

    def __init__(self, room: ReplicaRoom) -> None:
        self.room = room

    def join(self, presence: Any) -> int:
        return int(self.room._call("room", "play_now_join", wire.ME))

    def leave(self, presence: Any) -> None:
        self.room._call("room", "play_now_leave", wire.ME)

    def queued(self, presence: Any) -> bool:
        """(A worker does not ask each second: seated, or left by its own lobby.)"""
        return True

    def computer(self, presence: Any) -> ReplicaTable:
        table = self.room._table(self.room._call("room", "play_now_computer", wire.ME))
        if table is None:
            raise RoomError("the table closed as it opened")
        return table


class ReplicaEvents:
    """The main process's live events (`crib3.room.live_tables.LiveEvents`),
    as a worker's events screen uses them (`crib3.room.contract.LiveEventsView`):
    read from the last delta (`wire.EventSnap`, never a board's cards),
    changed by a `Call` each."""

    def __init__(self, room: ReplicaRoom) -> None:
        self.room = room
        self.told: tuple[wire.EventSnap, ...] = ()

    def find(self) -> None:
        """(The main process reads the data folder: told with the next delta.)"""

    def may_make(self, presence: Any) -> None:
        self.room._call("room", "event_may_make", "", wire.ME)

    def made(self, name: str) -> None:
        self.room._call("room", "event_made", name, wire.ME)

    def listed(self) -> list[wire.EventSnap]:
        return sorted(self.told, key=lambda e: e.name)

    def join(self, name: str, presence: Any) -> None:
        self.room._call("room", "event_join", name, wire.ME)

    def withdraw(self, name: str, presence: Any) -> None:
        self.room._call("room", "event_withdraw", name, wire.ME)

    def start(self, name: str, by: Any) -> str:
        return str(self.room._call("room", "event_start", name, wire.ME))

    def table_of(self, presence: Any) -> ReplicaTable | None:
        for event in self.told:
            for number in event.tables:
                table = self.room.tables.get(number)
                if table is None or table.over:
                    continue
                seat = table.seat_of(presence.name)
                if seat is not None and table.seats[seat].person:
                    return table
        return None

    def board_of(self, table: Any) -> tuple[int, int] | None:
        """(An event's tables here are those of the board in play.)"""
        return next(((event.board, event.board_count) for event in self.told
                     if table.number in event.tables), None)

    def elsewhere(self, presence: Any) -> int | None:
        """(A worker's room is one machine's: every board table is there.)"""
        return None
