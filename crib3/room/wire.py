"""The messages between a card room's main process and its session workers.

(The same messages carry a *visit* between the nodes of a cluster, a
person's terminal relayed to the node that hosts their table: `Visit`,
`Welcome`, `VisitEnded`, below, and `crib3.cluster.visits`.)

`crib3 serve --workers N` keeps the SSH server and the one authoritative
`Room` in the main process and runs the sessions' apps in N worker
processes (`crib3.net.workers`). This module is the whole vocabulary they
speak, and nothing else: small frozen dataclasses, one message a frame.
It is written so that it may cross machines (a card room over several
servers, see docs/cluster.md): no pickle, nothing a reader
builds but these messages.

A frame is a 4-byte big-endian length and a body of at most `MAX_FRAME`
bytes, one of:

- a JSON object (UTF-8; the body's first byte is "{"): the message's type
  name and its fields, `{"type": "Hello", "version": 4, "pid": 12}`.
  Events, commands, rules and seat views are written by the engine's codec
  (`crib3.engine.codec`, which the game logs use too); chat lines, seats and
  people as their plain fields; a `Call`'s arguments by the schema of its
  method (`CALLS`), a `Reply`'s value as one of the few things a call
  returns (`Followed`, `ChatLine` and `Sanctions` named by a one-key
  object);
- terminal bytes, which are most of the traffic (every key in, every
  screen out): a kind byte (1 `Output`, 2 `Input`), the session's number
  (4 bytes, big-endian) and the bytes as they are. A screen is not
  escaped, copied into text or base64'd on its hot path.

Decoding is strict: an unknown type, a field missing or extra, a value of
the wrong type, a call to a method not in `CALLS`, bytes that are not
UTF-8 or JSON (NaN included) is a `WireError` with one line saying what,
and the link that sent it is closed. Nothing is looked up by a name the
frame gives but the classes listed here and the engine's codec's own.

What crosses is deliberately narrow. A worker is told the room as the
lobby shows it (`RoomDelta`: seats, owners, who is away, chat, a public
summary of each game's standing), and a game only as the seat-redacted
events (with that seat's view) that `SeatFeed` hands a table screen
(`FeedItems`); a spectator's are the public ones. So a worker never holds
another seat's hidden cards. `VERSION` changes whenever a message does:
a worker of another version is refused at its `Hello` (a worker that
still spoke pickle, version 3, is refused at its first frame).

(The local game's bot processes, `crib3.players.workers`, still pickle the
bots they are handed: that is one process and its own children on one
machine, never this wire, never another machine.)
"""

from __future__ import annotations

import dataclasses
import json
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from crib3.common.pace import SHOW_PACE
from crib3.engine import Command, Event, PlayerInfo, Rules, SeatView, codec
from crib3.room.chat import ChatLine
from crib3.room.match import Match
from crib3.room.moderation import Sanction
from crib3.room.seats import Seat

VERSION = 6  # 6: live events (5: a visit to another node; 4: JSON and raw bytes frames;
#   3 and before: pickle)
HEADER = struct.Struct("!I")
MAX_FRAME = 64 * 1024 * 1024  # a resumed game's history is the largest: far below this
OUTPUT, INPUT = 1, 2  # the kind byte of a terminal bytes frame
_BYTES_HEAD = struct.Struct("!IBI")  # length, kind, session
_SESSION = struct.Struct("!I")


class WireError(ValueError):
    """A frame that is not one of ours: the message says why. The link
    that sent it is closed."""


# --- the room, as a worker's screens read it ------------------------------------


@dataclass(frozen=True)
class PublicStanding:
    """What the lobby shows of a game (`lobby_words.standing` and
    `seats_line` read it as they read a `State`): names, scores, the hand,
    the winner. Nothing hidden."""

    players: tuple[PlayerInfo, ...]  # name and level
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
    started_by: str | None = None  # the owner as its game started (their x closes it at once)
    rated: bool = False  # its finished game moves ratings
    match: Match = Match()  # the match it plays (one game: best of 1) and its games won


@dataclass(frozen=True)
class EventSnap:
    """A live duplicate event as the events screen reads it
    (`crib3.room.contract.LiveEventView`): who entered, how they sit, the
    board in play and the room's tables that play it now, and the result
    sheet's lines of the boards over at every table. Never a board's cards:
    a worker's screens learn those only from a seat's feed, as they play."""

    name: str
    host: str
    status: str
    start_at: float
    board_count: int
    entered: tuple[str, ...]
    board: int
    seating: tuple[tuple[str | None, ...], ...]
    note: str
    tables: tuple[int, ...]  # the room's tables of the board in play
    lines: tuple[str, ...]  # the results so far (`LiveEvent.sheet`)

    def entrant(self, name: str) -> str | None:
        return next((n for n in self.entered if n.lower() == name.lower()), None)

    def starts_words(self) -> str:
        return datetime.fromtimestamp(self.start_at, UTC).strftime("%H:%M UTC")

    def sheet(self) -> tuple[str, ...]:
        return self.lines


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
    rates: bool = False  # the room rates games (`Room.rates`)
    show_pace: float = SHOW_PACE  # seconds a show's count stays (`Room.show_pace`)
    motd: str = ""  # the lobby's message of the day (`Room.motd`)
    # Where the room's records are (`Room.records`: its ratings' folder, ""
    # none, and its tables'): a worker's screens read them from the files.
    records: tuple[str, str] = ("", "")
    events: tuple[EventSnap, ...] = ()  # the room's live events (`Room.events`), whole


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


class Followed(NamedTuple):
    """What a "follow" call returns: the subscription's number and the
    events so far, each with the seat's view (as `FeedItems` carries them)."""

    sub: int
    items: tuple[tuple[Event, SeatView], ...]


@dataclass(frozen=True)
class Reply:
    """The result of a `Call`: a value (a table as its uid: None, true or
    false, a whole number, a string, a `ChatLine`, `Followed`, or a list of
    `Sanction`, the bans and mutes an admin is shown), or the
    one line of the RoomError (or IllegalMove) it raised."""

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


# --- a visit: a session whose app runs on another node of a cluster ----------------
#
# A card room over several servers (`crib3 serve --cluster`) runs a table's
# sessions on the node that hosts the table: a person connected to another
# node (their door) visits it. The door relays the terminal as it does for a
# session worker (`Input`, `Resize`, `Flow`, `End` one way, `Output` the
# other, session 0); the node asked answers the `Visit` with a `Welcome`,
# and says how the visit ended with `VisitEnded`. See `crib3.cluster.visits`.


@dataclass(frozen=True)
class Visit:
    """A door asks a node to run a person's app: sitting at (or watching)
    table `table`, which that node hosts. The person signed in at the door,
    which holds their name in the cluster; `visit` names the relay."""

    version: int
    door: str  # the node the person is connected to
    visit: str
    name: str
    key: str | None
    admin: bool
    address: str | None
    ascii: bool
    think: float
    term: str
    env: dict[str, str]
    size: tuple[int, int]
    table: int
    watch: bool


@dataclass(frozen=True)
class Welcome:
    """The answer to a `Visit`: taken (`error` None), or the one line why not.
    `version` is the answering node's."""

    version: int
    error: str | None = None


@dataclass(frozen=True)
class VisitEnded:
    """The visitor's app has ended: with a `farewell` to show as the
    connection closes; or going on to table `table` (sitting, or watching)
    hosted by another node; or, `moved`, because this node stopped (its
    tables go to another node: the door takes the person back to its lobby
    and to their seat once it is adopted). Nothing of these: they quit."""

    farewell: str | None = None
    table: int | None = None
    watch: bool = False
    moved: bool = False


# --- the encoding ---------------------------------------------------------------------

_ME_ARG = object()  # in `CALLS`: the caller's own presence (`ME`)

# Each method a screen may call, with its arguments' types: a `Call` to any
# other method, or with other arguments, is no frame of ours. The room's
# ("room" as the target), then a table's (its uid).
CALLS: dict[str, tuple[Any, ...]] = {
    "open_table": (_ME_ARG, Rules, tuple[str, str], bool | None),
    "open_match": (_ME_ARG, Rules, tuple[str, str], bool | None, int),  # best of 3 or 5
    "bring_back": (_ME_ARG,),
    "close_by_admin": (int, _ME_ARG),
    "remove": (str, _ME_ARG),
    "ban": (str, _ME_ARG, float | None),
    "mute": (str, _ME_ARG, float | None),
    "sanctions": (_ME_ARG,),
    "lift": (str, str, _ME_ARG),
    "set_motd": (str, _ME_ARG),
    "play_now_join": (_ME_ARG,),  # the play-now queue (`crib3.room.playnow`)
    "play_now_leave": (_ME_ARG,),
    "play_now_computer": (_ME_ARG,),
    "event_may_make": (str, _ME_ARG),  # live events (`crib3.room.live_tables`)
    "event_made": (str, _ME_ARG),
    "event_join": (str, _ME_ARG),
    "event_withdraw": (str, _ME_ARG),
    "event_start": (str, _ME_ARG),
    "sit": (_ME_ARG,),
    "watch": (_ME_ARG,),
    "unwatch": (_ME_ARG,),
    "say": (_ME_ARG, str),
    "leave": (int,),
    "start": (str,),
    "replace": (int, str),
    "close_by": (str,),
    "follow": (int | None,),
    "dispatch": (int | None, Command),
}

Decoder = Callable[[Any, str], Any]


def _me(value: Any, where: str) -> str:
    if value != ME:
        raise codec.DecodeError(f"{where} should be the caller, not {value!r:.40}")
    return ME


_ARG_DECODERS: dict[str, tuple[Decoder, ...]] = {
    method: tuple(_me if hint is _ME_ARG else codec.decoder_for(hint) for hint in hints)
    for method, hints in CALLS.items()}

_ITEMS = codec.decoder_for(tuple[tuple[Event, SeatView], ...])
_CHAT_LINE = codec.decoder_for(ChatLine)
_SANCTIONS = codec.decoder_for(tuple[Sanction, ...])
_INT = codec.decoder_for(int)
_STR = codec.decoder_for(str)
_OPTIONAL_STR = codec.decoder_for(str | None)
_BOOL = codec.decoder_for(bool)


def _encode_items(items: tuple[tuple[Event, SeatView], ...]) -> list[Any]:
    return [[codec.encode(event), codec.encode_view(view)] for event, view in items]


def _encode_value(value: Any) -> Any:
    """A `Reply`'s value (see `Reply`)."""
    if value is None or type(value) in (bool, int, str):
        return value
    if isinstance(value, ChatLine):
        return {"ChatLine": {"name": value.name, "text": value.text}}
    if isinstance(value, Followed):
        return {"Followed": {"sub": value.sub, "items": _encode_items(value.items)}}
    if isinstance(value, list) and all(isinstance(s, Sanction) for s in value):
        return {"Sanctions": codec.encode_value(tuple(value))}
    raise TypeError(f"a reply cannot carry {type(value).__name__}")


def _decode_value(value: Any, where: str) -> Any:
    if value is None or type(value) in (bool, int, str):
        return value
    if type(value) is dict and len(value) == 1:
        ((kind, inner),) = value.items()
        if kind == "ChatLine":
            return _CHAT_LINE(inner, f"{where}.ChatLine")
        if kind == "Sanctions":
            return list(_SANCTIONS(inner, f"{where}.Sanctions"))
        if kind == "Followed" and type(inner) is dict and set(inner) == {"sub", "items"}:
            return Followed(_INT(inner["sub"], f"{where}.Followed.sub"),
                            _ITEMS(inner["items"], f"{where}.Followed.items"))
    raise codec.DecodeError(f"{where} should be a value a call returns, not {value!r:.40}")


def _encode_call(call: Call) -> dict[str, Any]:
    return {"type": "Call", "call": call.call, "session": call.session, "target": call.target,
            "method": call.method, "args": [codec.encode_value(a) for a in call.args]}


def _decode_call(data: dict[str, Any]) -> Call:
    _exactly(data, ("type", "call", "session", "target", "method", "args"), "Call")
    target = data["target"]
    if target != "room" and type(target) is not int:
        raise codec.DecodeError(f"Call.target should be \"room\" or a table's number, "
                                f"not {target!r:.40}")
    method = data["method"]
    decoders = _ARG_DECODERS.get(method) if type(method) is str else None
    if decoders is None:
        raise codec.DecodeError(f"Call.method {method!r:.40} is no call of ours")
    args = data["args"]
    if type(args) is not list or len(args) != len(decoders):
        raise codec.DecodeError(f"Call.args of {method} should be a list of {len(decoders)}")
    return Call(_INT(data["call"], "Call.call"), _INT(data["session"], "Call.session"),
                target, method,
                tuple(dec(a, f"Call.args[{i}]") for i, (dec, a) in enumerate(zip(decoders, args))))


def _encode_reply(reply: Reply) -> dict[str, Any]:
    return {"type": "Reply", "call": reply.call, "value": _encode_value(reply.value),
            "error": reply.error, "illegal": reply.illegal}


def _decode_reply(data: dict[str, Any]) -> Reply:
    _exactly(data, ("type", "call", "value", "error", "illegal"), "Reply")
    return Reply(_INT(data["call"], "Reply.call"), _decode_value(data["value"], "Reply.value"),
                 _OPTIONAL_STR(data["error"], "Reply.error"),
                 _BOOL(data["illegal"], "Reply.illegal"))


def _exactly(data: dict[str, Any], names: tuple[str, ...], where: str) -> None:
    if len(data) != len(names) or any(n not in data for n in names):
        extra = sorted(set(data) - set(names))
        if extra:
            raise codec.DecodeError(f"{where} has an unknown field {extra[0]!r:.40}")
        raise codec.DecodeError(f"{where} lacks the field {sorted(set(names) - set(data))[0]!r}")


def _encoder(cls: type) -> Callable[[Any], dict[str, Any]]:
    names = tuple(f.name for f in dataclasses.fields(cls))
    kind = cls.__name__
    encode_value = codec.encode_value

    def encode(message: Any) -> dict[str, Any]:
        out: dict[str, Any] = {"type": kind}
        for name in names:
            out[name] = encode_value(getattr(message, name))
        return out

    return encode


def _decoder(cls: type) -> Callable[[dict[str, Any]], Any]:
    decode = codec.decoder_for(cls)
    kind = cls.__name__

    def decode_message(data: dict[str, Any]) -> Any:
        return decode({k: v for k, v in data.items() if k != "type"}, kind)

    return decode_message


def _encode_feed(message: FeedItems) -> dict[str, Any]:
    return {"type": "FeedItems", "sub": message.sub, "items": _encode_items(message.items)}


# The messages a JSON frame may hold, by the name it gives ("type").
# (`Input` and `Output` go in a terminal bytes frame, never as JSON.)
_JSON_MESSAGES = (RoomDelta, FeedItems, Call, Reply, Unfollow, Hello, OpenSession, Resize,
                  Flow, End, Leave, Ended, Visit, Welcome, VisitEnded)
_ENCODERS: dict[type, Callable[[Any], dict[str, Any]]] = {
    cls: _encoder(cls) for cls in _JSON_MESSAGES}
_ENCODERS.update({Call: _encode_call, Reply: _encode_reply, FeedItems: _encode_feed})
# (Built now: a field without a decoder fails at import, not mid-game.)
_DECODERS: dict[str, Callable[[dict[str, Any]], Any]] = {
    cls.__name__: _decoder(cls) for cls in _JSON_MESSAGES if cls not in (Call, Reply)}
_DECODERS.update({"Call": _decode_call, "Reply": _decode_reply})


def _no_constant(name: str) -> None:
    raise codec.DecodeError(f"{name} is not a number a frame holds")


def encode(message: object) -> bytes:
    """The body of `message`'s frame (see the module's docstring)."""
    kind = type(message)
    if kind is Output or kind is Input:
        assert isinstance(message, (Output, Input))
        return bytes((OUTPUT if kind is Output else INPUT,)) \
            + _SESSION.pack(message.session) + message.data
    encoder = _ENCODERS.get(kind)
    if encoder is None:
        raise TypeError(f"{kind.__name__} is not a message of the card room's wire")
    return json.dumps(encoder(message), separators=(",", ":"), allow_nan=False).encode()


def decode(body: bytes) -> object:
    """The message of a frame's body, or WireError saying why it is none."""
    if not body:
        raise WireError("an empty frame: not one of ours")
    kind = body[0]
    if kind == OUTPUT or kind == INPUT:
        if len(body) < 1 + _SESSION.size:
            raise WireError("a terminal bytes frame without its session: not one of ours")
        (session,) = _SESSION.unpack_from(body, 1)
        return (Output if kind == OUTPUT else Input)(session, bytes(body[1 + _SESSION.size:]))
    if kind != ord("{"):
        raise WireError(f"a frame that begins with byte {kind}: not one of ours "
                        f"(a worker of another version?)")
    try:
        data = json.loads(body.decode("utf-8"), parse_constant=_no_constant)
        if type(data) is not dict:
            raise codec.DecodeError("a message is a JSON object")
        name = data.get("type")
        decoder = _DECODERS.get(name) if type(name) is str else None
        if decoder is None:
            raise codec.DecodeError(f"unknown message type {name!r:.40}")
        return decoder(data)
    except (codec.DecodeError, UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise WireError(f"a frame that is not one of ours: {str(exc)[:200]}") from None


def frame(message: object) -> bytes:
    """One message as the bytes that carry it."""
    kind = type(message)
    if kind is Output:
        assert isinstance(message, Output)
        return _BYTES_HEAD.pack(1 + _SESSION.size + len(message.data), OUTPUT,
                                message.session) + message.data
    body = encode(message)
    if len(body) > MAX_FRAME:
        raise ValueError(f"a {kind.__name__} of {len(body)} bytes is too large to send")
    return HEADER.pack(len(body)) + body


class Frames:
    """Bytes in, whole messages out: `feed(data)` returns the messages the
    bytes so far complete (a frame may arrive in pieces); WireError for a
    frame that is not one of ours (the caller closes the link)."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[object]:
        self._buffer += data
        messages: list[object] = []
        while len(self._buffer) >= HEADER.size:
            (size,) = HEADER.unpack_from(self._buffer)
            if size > MAX_FRAME:
                raise WireError(f"a frame of {size} bytes: not one of ours")
            if len(self._buffer) < HEADER.size + size:
                break
            body = bytes(self._buffer[HEADER.size:HEADER.size + size])
            del self._buffer[:HEADER.size + size]
            messages.append(decode(body))
        return messages
