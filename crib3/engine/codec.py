"""Events to JSON objects and back, exactly and strictly.

Encoding is by value (cards become "10H", tuples lists, dataclasses objects).
Decoding is by the event class's type hints, so a hand-edited or foreign line
fails with a sentence that names the field, never a traceback, and an event
survives `decode(encode(e)) == e` (a property test checks every type).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any

from crib3.cards import CARDS_BY_CODE, Card
from crib3.engine.events import EVENT_TYPES, Event, PlayerInfo, Rules
from crib3.scoring import ScoreItem


class DecodeError(ValueError):
    """A JSON object that is not a valid event; the message says why."""


def encode_value(value: Any) -> Any:
    if isinstance(value, Card):
        return value.code
    if isinstance(value, tuple):
        return [encode_value(v) for v in value]
    if dataclasses.is_dataclass(value):
        return {f.name: encode_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def encode(event: Event) -> dict[str, Any]:
    """The JSON object of an event: {"type": "CardPlayed", "seat": 1, ...}."""
    out: dict[str, Any] = {"type": event.type}
    for f in dataclasses.fields(event):
        out[f.name] = encode_value(getattr(event, f.name))
    return out


Decoder = Callable[[Any, str], Any]


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
    def decode(value: Any, where: str) -> tuple:
        if type(value) is not list or (length is not None and len(value) != length):
            raise _fail(where, f"a list of {length}" if length else "a list", value)
        return tuple(inner(v, f"{where}[{i}]") for i, v in enumerate(value))

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


_SIMPLE: dict[Any, Decoder] = {int: _int, bool: _bool, str: _str, Card: _card}


def _decoder_for(hint: Any) -> Decoder:
    if hint in _SIMPLE:
        return _SIMPLE[hint]
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        if len(inner) == 1 and len(args) == 2:
            return _optional(_decoder_for(inner[0]))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return _tuple_of(_decoder_for(args[0]))
        if args and all(a == args[0] for a in args):
            return _tuple_of(_decoder_for(args[0]), len(args))
    if dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    raise TypeError(f"no JSON decoder for {hint!r}")


_FIELD_DECODERS: dict[type, dict[str, Decoder]] = {}


def _field_decoders(cls: type) -> dict[str, Decoder]:
    found = _FIELD_DECODERS.get(cls)
    if found is None:
        hints = typing.get_type_hints(cls)
        found = {f.name: _decoder_for(hints[f.name]) for f in dataclasses.fields(cls)}
        _FIELD_DECODERS[cls] = found
    return found


def _build(cls: type, decoders: dict[str, Decoder], required: set[str],
           data: dict[str, Any], where: str, skip: tuple[str, ...]) -> Any:
    extra = [k for k in data if k not in decoders and k not in skip]
    if extra:
        raise DecodeError(f"{where} has an unknown field {extra[0]!r}")
    missing = [k for k in required if k not in data]
    if missing:
        raise DecodeError(f"{where} lacks the field {sorted(missing)[0]!r}")
    kwargs = {k: dec(data[k], f"{where}.{k}") for k, dec in decoders.items() if k in data}
    return cls(**kwargs)


def decode(data: Any) -> Event:
    """The event of a JSON object, or DecodeError saying what is wrong."""
    if type(data) is not dict:
        raise DecodeError("an event is a JSON object, not " + type(data).__name__)
    name = data.get("type")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise DecodeError(f"unknown event type {name!r}")
    decoders = _field_decoders(cls)
    required = {
        f.name for f in dataclasses.fields(cls)
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    }
    return _build(cls, decoders, required, data, name, skip=("type",))


# Warm the per-class decoders so a bad type hint fails at import, not mid-game.
for _cls in (*EVENT_TYPES.values(), PlayerInfo, Rules, ScoreItem):
    _field_decoders(_cls)
