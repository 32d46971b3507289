"""Events, commands, rules and seat views to JSON objects and back,
exactly and strictly.

Encoding is by value (cards become "10H", tuples lists, dataclasses objects).
Decoding is by the class's type hints, so a hand-edited or foreign line
fails with a sentence that names the field, never a traceback, and an event
survives `decode(encode(e)) == e` (a property test checks every type); so do
a command (`encode_command`), the rules (`encode_rules`) and a seat's view
(`encode_view`). Events and commands carry their class's name as "type";
decoding builds only the classes named here (`EVENT_TYPES`,
`COMMAND_TYPES`), never one a line names otherwise.

`decoder_for(hint)` gives the strict decoder of a type hint, for the
messages that carry these (`crib3.room.wire`): it knows whole numbers, true
or false, strings, numbers (float), cards, optional values, tuples (of one
type or fixed), frozensets, dicts keyed by strings, dataclasses by their
fields, and `Event`, `Command` and `SeatView` by their codecs here.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from crib3.cards import CARDS_BY_CODE, Card
from crib3.engine.commands import (
    Command,
    Count,
    CutStarter,
    Discard,
    DrawCutCard,
    Muggins,
    Play,
    Shuffle,
)
from crib3.engine.events import EVENT_TYPES, FRIENDLY, CardPlayed, Event, PlayerInfo, Rules
from crib3.engine.state import Phase
from crib3.engine.trail import Trail
from crib3.engine.views import SeatView
from crib3.scoring import ScoreItem

COMMAND_TYPES: dict[str, type[Command]] = {
    cls.__name__: cls for cls in (Discard, CutStarter, Play, Count, Muggins, DrawCutCard, Shuffle)}


class DecodeError(ValueError):
    """A JSON object that is not a valid event; the message says why."""


_PLAIN = frozenset({int, str, bool, float, type(None)})
# Fields written only when they differ from their default: those added with
# the muggins rules and pegging claims, so that a game without them writes
# the very lines (and sends the very messages) it did before they existed,
# which older readers of the wire still take. Reading fills in the default.
_LEFT_OUT_AT_DEFAULT: dict[type, tuple[tuple[str, Any], ...]] = {
    Play: (("claimed", None),),
    CardPlayed: (("missed", 0),),
    Rules: (("muggins_rule", FRIENDLY), ("pegging_claims", False)),
}


def _leave_out_defaults(out: dict[str, Any], kind: type) -> dict[str, Any]:
    for name, default in _LEFT_OUT_AT_DEFAULT[kind]:
        if out.get(name, default) == default and type(out.get(name)) is type(default):
            del out[name]
    return out
_DATACLASS_NAMES: dict[type, tuple[str, ...]] = {}  # (not events or commands: they name their type)


def encode_value(value: Any) -> Any:
    kind = type(value)  # (the common kinds first, by their exact type: this is a hot path)
    if kind in _PLAIN:
        return value
    if kind is Card:
        return value.code
    if kind is tuple:
        return [v if type(v) in _PLAIN else encode_value(v) for v in value]
    if kind is Phase:
        return value.value
    if kind is SeatView:
        return encode_view(value)
    names = _DATACLASS_NAMES.get(kind)
    if names is not None:  # (a dataclass met before: PlayerInfo, Rules, ScoreItem ...)
        out = {n: encode_value(getattr(value, n)) for n in names}
        return _leave_out_defaults(out, kind) if kind in _LEFT_OUT_AT_DEFAULT else out
    if kind is Trail:
        return [encode_value(v) for v in value]
    if isinstance(value, Card):
        return value.code
    if isinstance(value, Phase):
        return value.value
    if isinstance(value, SeatView):
        return encode_view(value)
    if isinstance(value, (tuple, Trail)):
        return [encode_value(v) for v in value]
    if isinstance(value, (Event, Command)):
        return encode(value)  # (its type named: the decoder needs it)
    if dataclasses.is_dataclass(value):
        names = _DATACLASS_NAMES[kind] = tuple(f.name for f in dataclasses.fields(value))
        out = {n: encode_value(getattr(value, n)) for n in names}
        return _leave_out_defaults(out, kind) if kind in _LEFT_OUT_AT_DEFAULT else out
    if isinstance(value, frozenset):
        return [encode_value(v) for v in sorted(value)]
    if isinstance(value, dict):
        return {k: encode_value(v) for k, v in value.items()}
    return value


def encode(event: Event | Command) -> dict[str, Any]:
    """The JSON object of an event: {"type": "CardPlayed", "seat": 1, ...}
    (or of a command: {"type": "Play", "seat": 1, "card": "5H"})."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for f in dataclasses.fields(event):
        out[f.name] = encode_value(getattr(event, f.name))
    kind = type(event)
    return _leave_out_defaults(out, kind) if kind in _LEFT_OUT_AT_DEFAULT else out


def encode_command(command: Command) -> dict[str, Any]:
    """The JSON object of a command: {"type": "Play", "seat": 1, "card": "5H"}."""
    if type(command).__name__ not in COMMAND_TYPES:
        raise TypeError(f"{command!r} is not a command a seat or chance sends")
    return encode(command)


def encode_rules(rules: Rules) -> dict[str, Any]:
    """The JSON object of a game's rules: {"target": 121, "skunks": false, ...}."""
    return _leave_out_defaults({f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)},
                               Rules)


def encode_view(view: SeatView) -> dict[str, Any]:
    """The JSON object of a seat's view: its fields by name (a NamedTuple
    written as a list would be read back by position, which breaks the
    day a field is added)."""
    return {name: value if type(value) in _PLAIN else encode_value(value)
            for name, value in zip(_VIEW_NAMES, view)}


Decoder = Callable[[Any, str], Any]
T = TypeVar("T")


def _fail(where: str, what: str, value: Any) -> DecodeError:
    shown = repr(value)
    if len(shown) > 40:
        shown = shown[:37] + "..."
    return DecodeError(f"{where} should be {what}, not {shown}")


def _int(value: Any, where: str) -> int:
    if type(value) is not int:
        raise _fail(where, "a whole number", value)
    return value


def _bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        raise _fail(where, "true or false", value)
    return value


def _str(value: Any, where: str) -> str:
    if type(value) is not str:
        raise _fail(where, "a string", value)
    return value


def _float(value: Any, where: str) -> float:
    # A whole number is a number too (another writer may write 60 for 60.0);
    # true and false are not, nor NaN or an infinity (JSON has neither).
    if type(value) is float and value - value == 0:
        return value
    if type(value) is int:
        return float(value)
    raise _fail(where, "a number", value)


def _card(value: Any, where: str) -> Card:
    # Strict: only the form the writer writes ("10H", never "th" or "T♥").
    found = CARDS_BY_CODE.get(value) if type(value) is str else None
    if found is None:
        raise _fail(where, "a card like \"10H\"", value)
    return found


def _optional(inner: Decoder) -> Decoder:
    def decode(value: Any, where: str) -> Any:
        return None if value is None else inner(value, where)

    return decode


def _tuple_of(inner: Decoder, length: int | None = None) -> Decoder:
    def decode(value: Any, where: str) -> tuple[Any, ...]:
        if type(value) is not list or (length is not None and len(value) != length):
            raise _fail(where, f"a list of {length}" if length else "a list", value)
        try:  # (where each item is, only when one is wrong: this is a hot path)
            return tuple([inner(v, where) for v in value])
        except DecodeError:
            for i, v in enumerate(value):
                inner(v, f"{where}[{i}]")
            raise

    plains: dict[Decoder, type] = {_int: int, _bool: bool, _str: str}
    plain = plains.get(inner)
    if plain is not None:  # numbers (most of a view): checked at once, no call each
        def decode_plain(value: Any, where: str) -> tuple[Any, ...]:
            if type(value) is list and (length is None or len(value) == length) \
                    and all(type(v) is plain for v in value):
                return tuple(value)
            return decode(value, where)  # (which says what is wrong)

        return decode_plain
    if inner is _card:
        get = CARDS_BY_CODE.get

        def decode_cards(value: Any, where: str) -> tuple[Any, ...]:
            if type(value) is list and (length is None or len(value) == length) \
                    and all(type(v) is str for v in value):
                cards = tuple([get(v) for v in value])
                if None not in cards:
                    return cards
            return decode(value, where)

        return decode_cards
    return decode


def _fixed_tuple(inner: tuple[Decoder, ...]) -> Decoder:
    length = len(inner)

    def decode(value: Any, where: str) -> tuple[Any, ...]:
        if type(value) is not list or len(value) != length:
            raise _fail(where, f"a list of {length}", value)
        try:
            return tuple([dec(v, where) for dec, v in zip(inner, value)])
        except DecodeError:
            for i, (dec, v) in enumerate(zip(inner, value)):
                dec(v, f"{where}[{i}]")
            raise

    return decode


def _frozenset_of(inner: Decoder) -> Decoder:
    def decode(value: Any, where: str) -> frozenset[Any]:
        if type(value) is not list:
            raise _fail(where, "a list", value)
        return frozenset(inner(v, f"{where}[{i}]") for i, v in enumerate(value))

    return decode


def _dict_of(inner: Decoder) -> Decoder:
    def decode(value: Any, where: str) -> dict[str, Any]:
        if type(value) is not dict:
            raise _fail(where, "an object", value)
        return {k: inner(v, f"{where}.{k}") for k, v in value.items()}

    return decode


def _dataclass_decoder(cls: type) -> Decoder:
    decoders = _field_decoders(cls)
    required = {
        f.name for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }

    def decode(value: Any, where: str) -> Any:
        if type(value) is not dict:
            raise _fail(where, "an object", value)
        return _build(cls, decoders, required, value, where, skip=())

    return decode


_PHASES = {p.value: p for p in Phase}


def _phase(value: Any, where: str) -> Phase:
    found = _PHASES.get(value) if type(value) is str else None
    if found is None:
        raise _fail(where, "a phase of the game", value)
    return found


def _event(value: Any, where: str) -> Event:
    try:
        return decode(value)
    except DecodeError as exc:
        raise DecodeError(f"{where}: {exc}") from None


def _command(value: Any, where: str) -> Command:
    try:
        return decode_command(value)
    except DecodeError as exc:
        raise DecodeError(f"{where}: {exc}") from None


def _view(value: Any, where: str) -> SeatView:
    if type(value) is not dict:
        raise _fail(where, "an object", value)
    return _build(SeatView, _VIEW_DECODERS, _VIEW_FIELDS, value, where, skip=())


_SIMPLE: dict[Any, Decoder] = {int: _int, bool: _bool, str: _str, float: _float, Card: _card,
                               Event: _event, Command: _command, SeatView: _view}


def decoder_for(hint: Any) -> Decoder:
    """The strict decoder of values of type `hint` (see the module's
    docstring): `decoder_for(hint)(value, where)` is the value, or
    DecodeError naming `where`; TypeError for a hint it does not know."""
    if hint in _SIMPLE:
        return _SIMPLE[hint]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1 and len(args) == 2:
            return _optional(decoder_for(inner[0]))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple_of(decoder_for(args[0]))
        if args and all(a == args[0] for a in args):
            return _tuple_of(decoder_for(args[0]), len(args))
        if args:
            return _fixed_tuple(tuple(decoder_for(a) for a in args))
    if origin is collections.abc.Sequence and len(args) == 1:  # read back as a tuple
        return _tuple_of(decoder_for(args[0]))
    if origin is frozenset and len(args) == 1:
        return _frozenset_of(decoder_for(args[0]))
    if origin is dict and len(args) == 2 and args[0] is str:
        return _dict_of(decoder_for(args[1]))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint not in (Event, Command):
        return _dataclass_decoder(hint)
    raise TypeError(f"no JSON decoder for {hint!r}")


_FIELD_DECODERS: dict[type, dict[str, Decoder]] = {}


def _field_decoders(cls: type) -> dict[str, Decoder]:
    found = _FIELD_DECODERS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = {f.name: decoder_for(hints[f.name]) for f in dataclasses.fields(cls)}
        _FIELD_DECODERS[cls] = found
    return found


def _build(cls: type[T], decoders: dict[str, Decoder], required: set[str],
           data: dict[str, Any], where: str, skip: tuple[str, ...]) -> T:
    extra = [k for k in data if k not in decoders and k not in skip]
    if extra:
        raise DecodeError(f"{where} has an unknown field {extra[0]!r}")
    missing = [k for k in required if k not in data]
    if missing:
        raise DecodeError(f"{where} lacks the field {sorted(missing)[0]!r}")
    try:  # (which field, only when one is wrong: this is a hot path)
        kwargs = {k: dec(data[k], where) for k, dec in decoders.items() if k in data}
    except DecodeError:
        for k, dec in decoders.items():
            if k in data:
                dec(data[k], f"{where}.{k}")
        raise
    return cls(**kwargs)


def decode(data: Any) -> Event:
    """The event of a JSON object, or DecodeError saying what is wrong."""
    if type(data) is not dict:
        raise DecodeError("an event is a JSON object, not " + type(data).__name__)
    name = data.get("type")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None or not isinstance(name, str):
        raise DecodeError(f"unknown event type {name!r}")
    decoders = _field_decoders(cls)
    required = {
        f.name for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    return _build(cls, decoders, required, data, name, skip=("type",))


def decode_command(data: Any) -> Command:
    """The command of a JSON object, or DecodeError saying what is wrong."""
    if type(data) is not dict:
        raise DecodeError("a command is a JSON object, not " + type(data).__name__)
    name = data.get("type")
    cls = COMMAND_TYPES.get(name) if isinstance(name, str) else None
    if cls is None or not isinstance(name, str):
        raise DecodeError(f"unknown command type {name!r}")
    return _build(cls, _field_decoders(cls), _required(cls), data, name, skip=("type",))


def decode_rules(data: Any) -> Rules:
    """The rules of a JSON object, or DecodeError saying what is wrong."""
    rules: Rules = _dataclass_decoder(Rules)(data, "rules")
    return rules


def decode_view(data: Any) -> SeatView:
    """The seat's view of a JSON object, or DecodeError saying what is wrong."""
    return _view(data, "view")


def _required(cls: type) -> set[str]:
    return {
        f.name for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }


# A view has every field (no defaults): all are required.
_VIEW_DECODERS: dict[str, Decoder] = {}
_VIEW_FIELDS = set(SeatView._fields)
_VIEW_NAMES = SeatView._fields

# Warm the per-class decoders so a bad type hint fails at import, not mid-game.
for _cls in (*EVENT_TYPES.values(), *COMMAND_TYPES.values(), PlayerInfo, Rules, ScoreItem):
    _field_decoders(_cls)
_VIEW_DECODERS.update(
    (name, decoder_for(hint)) for name, hint in typing.get_type_hints(SeatView).items())
_VIEW_DECODERS["phase"] = _phase  # (typed str: a Phase is one, and the view holds a Phase)
