"""What a screen or a session may ask of a card room, written down once.

Three rooms serve the same screens: `Room` (one machine), `ReplicaRoom` (a
session worker's copy of it, `--workers`) and a cluster node's room
(`crib3.cluster.room.ClusterRoom`). None is a subclass of another's shape
the screens could rely on, so the shape is declared here, as protocols the
type checker holds each of them to: `RoomView` for a room, `TableView` for
one of its tables (a `Table` or a `ReplicaTable`), `ListedTable` for a line
of the lobby (any of those, or a table another node hosts); `SessionRoom`
is a room as a door's session also sees it (sign-in and departure: the
main process's rooms only).

What only a cluster's node can do (tables hosted elsewhere, everyone's
names, visits to other nodes, a seat elsewhere) is one declared capability,
`RoomView.cluster`: None on a one-machine room and in a worker, an object
with the `ClusterExtras` methods on a node. A screen asks `room.cluster`
once, never probes a room's attributes.

A session's way between the lobby, its tables and other nodes (where to go
as its app ends, which table to open on, a line to say first, a table to be
taken back to) is not the room's business: it is the session's `Wayfinding`,
one per session, which the doors in `crib3.net` make and hand to the app.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from crib3.engine import Rules
    from crib3.room.basics import Listener
    from crib3.room.chat import ChatLine
    from crib3.room.match import Match
    from crib3.room.moderation import Sanction
    from crib3.room.records import Records
    from crib3.room.seats import Presence, Seat
    from crib3.room.wire import Visit

__all__ = ["ClusterExtras", "ElsewhereTable", "ListedSeat", "ListedTable", "LiveEventView",
           "LiveEventsView", "PlayNowView", "RoomView", "SessionRoom", "Standing", "TableChatView",
           "TableView", "VisitLink", "Wayfinding"]


class ListedSeat(Protocol):
    """A seat as the lobby lists it (a `Seat`, or a cluster lobby's)."""

    @property
    def name(self) -> str | None: ...  # the person; None: a computer player
    @property
    def level(self) -> str: ...
    @property
    def replaced(self) -> bool: ...


class _Player(Protocol):
    @property
    def name(self) -> str: ...


class Standing(Protocol):
    """How a game stands, as the lobby's words read it: a `State`, or the
    public summary a worker or another node is sent (`wire.PublicStanding`)."""

    @property
    def players(self) -> Sequence[_Player]: ...
    @property
    def scores(self) -> Sequence[int]: ...
    @property
    def hand_number(self) -> int: ...
    @property
    def winner(self) -> int | None: ...

    def name(self, seat: int) -> str: ...


class ListedTable(Protocol):
    """A table as a line of the lobby: here, in a worker, or on another node."""

    @property
    def number(self) -> int: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def seats(self) -> Sequence[ListedSeat]: ...
    @property
    def online(self) -> Collection[int]: ...
    @property
    def started(self) -> bool: ...
    @property
    def over(self) -> bool: ...
    @property
    def state(self) -> Standing | None: ...
    @property
    def rated(self) -> bool: ...  # its finished game moves ratings
    @property
    def match(self) -> Match: ...  # the match it plays (one game: best of 1)

    def seat_of(self, name: str) -> int | None: ...


class ElsewhereTable(ListedTable, Protocol):
    """A table another node of the cluster hosts, as the lobby lists it."""

    @property
    def node(self) -> str: ...  # the node that hosts it


class TableChatView(Protocol):
    """A table's talk, as its screens read it."""

    @property
    def lines(self) -> Sequence[ChatLine]: ...
    @property
    def listeners(self) -> list[Listener]: ...


class _Over(Protocol):
    @property
    def over(self) -> bool: ...


class _TableRoom(Protocol):
    """What a table's screens read of its room."""

    @property
    def patience(self) -> float: ...
    @property
    def people(self) -> Mapping[str, Presence]: ...
    @property
    def cluster(self) -> ClusterExtras | None: ...


class TableView(ListedTable, Protocol):
    """A table of this room as its screens see it: a `Table`, or a worker's
    `ReplicaTable`. Reads, then the few things a person does at it (each
    raises `RoomError` with the one line why not)."""

    @property
    def owner(self) -> str: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def closed(self) -> bool: ...
    @property
    def closed_by(self) -> str | None: ...
    @property
    def started_by(self) -> str | None: ...
    @property
    def passed_from(self) -> str | None: ...
    @property
    def close_asked(self) -> Sequence[str]: ...
    @property
    def listeners(self) -> list[Listener]: ...
    @property
    def chat(self) -> TableChatView: ...
    @property
    def game(self) -> _Over | None: ...  # None until it starts
    @property
    def room(self) -> _TableRoom: ...
    # A cluster's table only: another node hosts it now (it closed here).
    @property
    def moved(self) -> bool: ...

    def away(self, seat: int) -> float | None: ...
    def owner_seat(self) -> int | None: ...
    def present(self, seat: int) -> bool: ...
    def replaceable(self, seat: int) -> bool: ...
    def watcher_names(self) -> list[str]: ...
    def free_seats(self) -> list[int]: ...
    def feed(self, seat: int | None) -> Any: ...  # a `SeatFeed` or a worker's `ReplicaFeed`

    def sit(self, presence: Presence) -> int: ...
    def leave(self, seat: int) -> None: ...
    def start(self, by: str) -> None: ...
    def replace(self, seat: int, by: str) -> None: ...
    def close_by(self, by: str) -> bool: ...
    def watch(self, presence: Presence) -> None: ...
    def unwatch(self, presence: Presence) -> None: ...
    def say(self, presence: Presence, text: str) -> ChatLine: ...


class VisitLink(Protocol):
    """A visit's two-way line between a door and the node that hosts the
    table (`crib3.cluster.visits.VisitLink`): the wire's messages each way,
    relayed by `crib3.net.visiting` at both ends."""

    peer: str  # the node at the other end
    queued: int  # bytes waiting to be sent

    def attach(self, receive: Callable[[object], None], lost: Callable[[], None]) -> None: ...

    def send(self, message: object) -> None: ...

    def close(self) -> None: ...

    @property
    def closed(self) -> bool: ...

    async def drained(self) -> None: ...


class ClusterExtras(Protocol):
    """What only a cluster's node adds to a room (`crib3 serve --cluster`):
    other nodes' tables and people, and visits to them."""

    @property
    def node_name(self) -> str: ...  # this node's
    # A shelved table comes back in the background (`bring_back` returns
    # None): the lobby says so, and its person is seated once it is here.
    @property
    def brings_back_soon(self) -> bool: ...

    def names_here(self) -> list[str]: ...  # everyone signed in, on every node
    def elsewhere(self) -> Sequence[ElsewhereTable]: ...  # the tables other nodes host
    def seat_elsewhere(self, presence: Presence) -> int | None: ...
    def answering(self, node: str) -> bool: ...  # not given up (or back since)
    def on_answer(self, node: str, then: Callable[[], None]) -> None: ...  # once it is back
    def may_visit(self, presence: Presence, number: int, watch: bool) -> str | None: ...
    def visit_elsewhere(self, presence: Presence, number: int, watch: bool,
                        **session: Any) -> Awaitable[VisitLink | None]: ...
    def visit_in(self, name: str, key: str | None, kick: Callable[[str], None],
                 address: str | None, admin: bool = False,
                 journey: Wayfinding | None = None) -> Presence: ...
    def admit_visits(self, admit: Callable[[Visit, VisitLink], None]) -> None: ...
    # For the host's metrics: the tables whose lease this node holds now,
    # how many it has adopted from nodes that died or stopped, and how many
    # lines of the results stream it refused (`crib3.cluster.results`).
    def leases_held(self) -> int: ...
    def adoptions(self) -> int: ...
    def results_refused(self) -> int: ...


class PlayNowView(Protocol):
    """A room's play-now queue as the lobby uses it (`crib3.room.playnow`):
    join it (your shown rating back), leave it, or, after `wait` seconds
    in it, take a rated table with the computer at your level instead.
    Being seated by it is seen in the room (`RoomView.place_of`)."""

    @property
    def wait(self) -> float: ...  # seconds before the computer is offered

    def join(self, presence: Presence) -> int: ...
    def leave(self, presence: Presence) -> None: ...
    # Still in it (False: dropped, e.g. queued from elsewhere meanwhile).
    def queued(self, presence: Presence) -> bool: ...
    def computer(self, presence: Presence) -> TableView: ...


class LiveEventView(Protocol):
    """A live duplicate event as the events screen reads it: a
    `crib3.room.live_event.LiveEvent`, or a worker's `wire.EventSnap`."""

    @property
    def name(self) -> str: ...
    @property
    def host(self) -> str: ...
    @property
    def status(self) -> str: ...  # `live_event`'s ENTERING, PLAYING, OVER, CALLED_OFF
    @property
    def note(self) -> str: ...  # the line said at the start (too few people), or ""
    @property
    def board(self) -> int: ...  # the board in play (from 1); 0 before the first
    @property
    def board_count(self) -> int: ...
    @property
    def entered(self) -> Sequence[str]: ...  # who entered, in order
    @property
    def seating(self) -> Sequence[Sequence[str | None]]: ...  # table -> slot -> name

    def entrant(self, name: str) -> object | None: ...  # None: not entered
    def starts_words(self) -> str: ...
    # The results so far, line by line: only boards over at every table.
    def sheet(self) -> Sequence[str]: ...


class LiveEventsView(Protocol):
    """A room's live duplicate events (`crib3.room.live_tables.LiveEvents`),
    as the events screen uses them. Changes raise `RoomError` (one line)."""

    def find(self) -> None: ...  # read the events the data folder holds again
    # RoomError unless `presence` may make an event now (paced as opening a table).
    def may_make(self, presence: Presence) -> None: ...
    def made(self, name: str) -> None: ...  # event `name` was just made there
    def listed(self) -> Sequence[LiveEventView]: ...
    def join(self, name: str, presence: Presence) -> None: ...
    def withdraw(self, name: str, presence: Presence) -> None: ...
    def start(self, name: str, by: Presence | None) -> str: ...  # the line to say, or ""
    # The board table where `presence` plays now, if any.
    def table_of(self, presence: Presence) -> TableView | None: ...
    # The board `table` plays and how many the event has (2, 3: "Board 2
    # of 3"; the count 0 where unknown); None: not one of an event's tables.
    def board_of(self, table: ListedTable) -> tuple[int, int] | None: ...
    # The board table another node of a cluster hosts where `presence`
    # plays now (its number, to visit), if any.
    def elsewhere(self, presence: Presence) -> int | None: ...


class RoomView(Protocol):
    """A card room as its screens and sessions see it (see the module's
    docstring). What changes it raises `RoomError` with the one line why not."""

    @property
    def tables(self) -> Mapping[int, TableView]: ...
    @property
    def people(self) -> Mapping[str, Presence]: ...
    @property
    def shelved(self) -> Mapping[int, Sequence[ListedSeat]]: ...
    @property
    def listeners(self) -> list[Listener]: ...
    @property
    def patience(self) -> float: ...
    @property
    def show_pace(self) -> float: ...  # seconds a show's count stays (0: until Enter)
    @property
    def cluster(self) -> ClusterExtras | None: ...  # None: one machine (or a worker)
    @property
    def rates(self) -> bool: ...  # a table may be rated (not `--no-ratings`)
    @property
    def records(self) -> Records: ...  # each person's own record (`crib3.room.records`)
    @property
    def play_now(self) -> PlayNowView | None: ...  # None: this room has no queue
    @property
    def events(self) -> LiveEventsView | None: ...  # None: no live events here

    def lobby(self) -> Sequence[TableView]: ...
    def place_of(self, presence: Presence) -> tuple[TableView, int] | None: ...
    def shelved_for(self, presence: Presence, closed: bool = True) -> int | None: ...
    def bring_back(self, presence: Presence, *,
                   journey: Wayfinding | None = None) -> TableView | None: ...
    def open_table(self, owner: Presence, rules: Rules, levels: tuple[str, str],
                   rated: bool | None = None, best_of: int = 1) -> TableView: ...
    def close_by_admin(self, table: TableView, by: Presence) -> None: ...
    def remove(self, name: str, by: Presence) -> None: ...
    # An admin's moderation (`crib3.room.moderation`): a ban or a mute for
    # so many seconds (None: for good), how long in words; the lobby's
    # message of the day, text (never markup), "" for none.
    def ban(self, name: str, by: Presence, seconds: float | None) -> str: ...
    def mute(self, name: str, by: Presence, seconds: float | None) -> str: ...
    def sanctions(self, by: Presence) -> Sequence[Sanction]: ...  # in force
    def lift(self, what: str, whom: str, by: Presence) -> None: ...
    def set_motd(self, text: str, by: Presence) -> str: ...  # as kept ("": none)
    @property
    def motd(self) -> str: ...


class SessionRoom(RoomView, Protocol):
    """A room as a door's session sees it besides its screens: who comes
    and goes. Only the main process's rooms (`Room`, a cluster node's)
    are one; a worker's sessions are signed in there."""

    async def enter(self, name: str, key: str | None, kick: Callable[[str], None],
                    address: str | None = None, admin: bool = False,
                    journey: Wayfinding | None = None) -> Presence:
        """A person signs in (RoomError: why not); `journey` is their
        session's, told where to go when the room knows it only later."""
        ...

    def depart(self, presence: Presence) -> None:
        """Their session ended: their seat waits."""
        ...


class Wayfinding(Protocol):
    """One session's way between the lobby, the tables here and those of
    other nodes: what its app reads as it opens and writes as it ends
    (`crib3.net.journey.Journey` is the doors' one).

    - `go_to`: a table another node hosts (its number, and whether to
      watch it), set by the app as it ends to go there;
    - `joining`: a table here to sit at or watch as the next app opens,
      with `notice`, a line it says first;
    - `rejoin`: the table (and the node it was on: "" for none) the session
      was taken away from when that node stopped, or that comes back in the
      background: the lobby takes them to it once it is hosted again;
    - `rewatch`: the same for a table the session watched: the lobby goes
      on watching it once it is hosted again;
    - `watching`, `from_start`: a session moved to another worker process
      (`crib3.net.placement`) opens watching that table, or at its seat from
      its game's first event (it started as the session moved).
    """

    go_to: tuple[int, bool] | None
    joining: tuple[int, bool] | None
    notice: str | None
    rejoin: tuple[int, str] | None
    rewatch: tuple[int, str] | None
    watching: TableView | None
    from_start: bool
