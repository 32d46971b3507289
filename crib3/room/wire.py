"""The messages between a card room's main process and its session workers.

`crib3 serve --workers N` keeps the SSH server and the one authoritative
`Room` in the main process and runs the sessions' apps in N worker
processes (`crib3.net.workers`). This module is the whole vocabulary they
speak, and nothing else: small frozen dataclasses, one message a frame.

Frames are a 4-byte big-endian length and a pickle. **Pickle is used only
between the server's own processes** (a socket pair made by the main
process and handed to the workers it spawns): it is never read from the
network, a file or another user. Across machines (see README, "Scaling
the card room") the same messages would be written in a neutral format
(the engine's codec already writes events and commands as JSON).

What crosses is deliberately narrow. A worker is told the room as the
lobby shows it (`RoomDelta`: seats, owners, who is away, chat, a public
summary of each game's standing), and a game only as the seat-redacted
events (with that seat's view) that `SeatFeed` hands a table screen
(`FeedItems`); a spectator's are the public ones. So a worker never holds
another seat's hidden cards. `VERSION` changes whenever a message does:
a worker of another version is refused at its `Hello`.
"""

from __future__ import annotations

import pickle
import struct
from dataclasses import dataclass, field
from typing import Any

from crib3.engine import Event, Rules, SeatView
from crib3.room.chat import ChatLine
from crib3.room.seats import Seat

VERSION = 3
HEADER = struct.Struct("!I")
MAX_FRAME = 64 * 1024 * 1024  # a resumed game's history is the largest: far below this


def frame(message: object) -> bytes:
    """One message as the bytes that carry it."""
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return HEADER.pack(len(body)) + body


class Frames:
    """Bytes in, whole messages out: `feed(data)` returns the messages the
    bytes so far complete (a frame may arrive in pieces)."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[object]:
        self._buffer += data
        messages: list[object] = []
        while len(self._buffer) >= HEADER.size:
            (size,) = HEADER.unpack_from(self._buffer)
            if size > MAX_FRAME:
                raise ValueError(f"a frame of {size} bytes: not one of ours")
            if len(self._buffer) < HEADER.size + size:
                break
            body = bytes(self._buffer[HEADER.size:HEADER.size + size])
            del self._buffer[:HEADER.size + size]
            messages.append(pickle.loads(body))  # our own process's (see the docstring)
        return messages


# --- the room, as a worker's screens read it ------------------------------------


@dataclass(frozen=True)
class PublicStanding:
    """What the lobby shows of a game (`lobby_words.standing` and
    `seats_line` read it as they read a `State`): names, scores, the hand,
    the winner. Nothing hidden."""

    players: tuple[Any, ...]  # PlayerInfo: name and level
    scores: tuple[int, ...]
    hand_number: int
    winner: int | None

    def name(self, seat: int) -> str:
        return str(self.players[seat].name)


@dataclass(frozen=True)
class TableSnap:
    """One table as its screens read it. `uid` tells two tables apart that
    had the same number (a table that never started frees its number)."""

    uid: int
    number: int
    owner: str
    rules: Rules
    seats: tuple[Seat, ...]
    online: frozenset[int]
    away_since: tuple[tuple[int, float], ...]  # seat -> when they left (`clock` of the delta)
    started: bool
    over: bool
    closed: bool
    closed_by: str | None
    passed_from: str | None
    watchers: tuple[str, ...]
    chat: tuple[ChatLine, ...]
    standing: PublicStanding | None
    in_room: bool  # False: it has left the room (closed, over, shelved); the last word on it
    # False: the lobby's summary (a worker with nobody at the table): chat,
    # watchers and away_since are left out, and the worker keeps what it had.
    whole: bool = True
    close_asked: tuple[str, ...] = ()  # who asked (or agreed) to close its game


@dataclass(frozen=True)
class Person:
    name: str
    key: str | None
    admin: bool


@dataclass(frozen=True)
class RoomDelta:
    """What changed in the room since the last delta: the tables that
    changed (all of them in the first), and the room's own lists whole
    (they are short). `version` only grows."""

    version: int
    clock: float  # the main process's time.monotonic() as it was sent
    patience: float
    people: tuple[Person, ...]
    shelved: tuple[tuple[int, tuple[Seat, ...]], ...]
    tables: tuple[TableSnap, ...]
    # Closed games some of their people may bring back (`Room.reopenable`).
    reopenable: tuple[tuple[int, tuple[Seat, ...]], ...] = ()


@dataclass(frozen=True)
class FeedItems:
    """Events of one subscription (a screen following a table from a seat,
    or as a spectator): each redacted to that seat, with the seat's view."""

    sub: int
    items: tuple[tuple[Event, SeatView], ...]


# --- calls from a worker's screens to the room ------------------------------------

ME = "<the caller>"  # stands for the calling session's own presence in `Call.args`


@dataclass(frozen=True)
class Call:
    """A screen asks the room to do something: `target` is "room" or a
    table's uid; the worker waits for the `Reply`, but for a move, whose
    reply comes after its events (see `crib3.room.replica`)."""

    call: int
    session: int
    target: int | str
    method: str
    args: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Reply:
    """The result of a `Call`: a value (a table as its uid), or the one
    line of the RoomError (or IllegalMove) it raised."""

    call: int
    value: Any = None
    error: str | None = None
    illegal: bool = False  # the error is the game's (IllegalMove), not the room's


@dataclass(frozen=True)
class Unfollow:
    sub: int


# --- sessions: a terminal relayed between the SSH channel and the app ------------


@dataclass(frozen=True)
class Hello:
    """A worker is up (its first message)."""

    version: int
    pid: int


@dataclass(frozen=True)
class OpenSession:
    session: int
    name: str
    key: str | None
    admin: bool
    ascii: bool
    think: float
    term: str
    env: dict[str, str] = field(default_factory=dict)  # COLORTERM, NO_COLOR: the client's
    size: tuple[int, int] = (80, 24)
    # A session moved here to join its table's other sessions, as a spectator
    # of this table (its uid): the app opens watching it (a seat needs no
    # word: the room's `place_of` says where the person sits).
    watching: int | None = None
    # Moved as it waited for its table's game to start: it shows the game
    # from its first event (it may have started meanwhile), as the others do.
    from_start: bool = False
    code: str | None = None  # a reconnect code just given (under --open): the lobby shows it


@dataclass(frozen=True)
class Input:
    session: int
    data: bytes


@dataclass(frozen=True)
class Resize:
    session: int
    width: int
    height: int


@dataclass(frozen=True)
class Flow:
    """The client stopped reading (`paused`) or caught up."""

    session: int
    paused: bool


@dataclass(frozen=True)
class End:
    """End the session's app: `hang_up` when the connection is gone."""

    session: int
    hang_up: bool


@dataclass(frozen=True)
class Leave:
    """End the session's app, which moves to another worker (its table's):
    keys it has been given are handled first (so a move typed just before
    is carried out, not lost), and the main process drops its output from
    now on, so the terminal is not touched. Answered by `Ended`."""

    session: int


@dataclass(frozen=True)
class Output:
    session: int
    data: bytes


@dataclass(frozen=True)
class Ended:
    """A session's app has stopped; `failure`: why, when it failed."""

    session: int
    failure: str | None = None
