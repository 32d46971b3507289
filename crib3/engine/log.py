"""The game log: JSON Lines, one event a line, after a header line.

This is the only engine module that touches files. Writing appends a line,
flushes and fsyncs it before returning, so whatever the screen shows is on
disk. Reading is strict: every event is re-run through the rules
(`replay`), so a log that was cut, hand-edited or written by something else
gives one `LogError` naming the file and line, never a traceback. The format
is documented field by field in assets/log-format.md.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from crib3.engine.codec import DecodeError, decode, encode, encode_value
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
from crib3.engine.events import (
    CardCutForDeal,
    CardDiscarded,
    CardPlayed,
    DeckShuffled,
    Event,
    GameStarted,
    HandCounted,
    MugginsCalled,
    MugginsDeclined,
    StarterCut,
)
from crib3.engine.rules import IllegalMove, begin, next_automatic, root_event
from crib3.engine.state import Phase, State, apply

FORMAT = "crib3-log"
VERSION = 1


class LogError(Exception):
    """A log that cannot be read or does not follow the rules.

    `line` is 1-based (the header is line 1). `valid` holds the events before
    the bad line, which a replay may still offer."""

    def __init__(self, path: str, line: int, reason: str, valid: Sequence[Event] = ()):
        super().__init__(f"{path}:{line}: {reason}")
        self.path = path
        self.line = line
        self.reason = reason
        self.valid = tuple(valid)


@dataclass
class LoadedLog:
    """A log that was read and replayed: its header, its events, the state
    they fold to, and any warnings (such as a cut-off last line)."""

    path: str
    header: dict[str, Any]
    events: list[Event]
    state: State
    warnings: list[str] = field(default_factory=list)


def make_header(**extra: Any) -> dict[str, Any]:
    from crib3 import __version__

    return {
        "format": FORMAT,
        "version": VERSION,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "crib3": __version__,
        **extra,
    }


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def event_line(event: Event) -> str:
    """One event as its log line, without the newline."""
    return _dumps(encode(event))


class LogWriter:
    """Appends events to a log file, each one on disk before `append` returns."""

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any] | None = None,
                 durable: bool = True) -> None:
        self.path = Path(path)
        self.durable = durable
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if not fresh:
            _prepare_for_append(self.path)
        self._file: IO[str] | None = open(self.path, "a", encoding="utf-8")
        if fresh:
            self._write(_dumps(header or make_header()))

    def _write(self, line: str) -> None:
        assert self._file is not None, "the log is closed"
        self._file.write(line + "\n")
        self._file.flush()
        if self.durable:
            os.fsync(self._file.fileno())

    def append(self, event: Event) -> None:
        self._write(event_line(event))

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _prepare_for_append(path: Path) -> None:
    """Before going on with an existing log: it must be a crib3 log, and a
    line cut off by a crash is removed, so the next event starts a line of
    its own instead of gluing onto the fragment."""
    with open(path, "rb") as f:
        first = f.readline()
    try:
        _check_header(str(path), json.loads(first))
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise LogError(str(path), 1, "not a crib3 game log: will not append to it") from None
    data = path.read_bytes()
    if not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1
        with open(path, "r+b") as f:
            f.truncate(keep)


def write_log(path: str | os.PathLike[str], events: Iterable[Event],
              header: dict[str, Any] | None = None) -> None:
    """Write a whole game at once (the simulator's logs): one write, no fsync."""
    lines = [_dumps(header or make_header())]
    lines.extend(event_line(e) for e in events)
    Path(path).write_text("\n".join(lines) + "\n", encoding="utf-8")


# --- reading -------------------------------------------------------------------------


def _check_header(path: str, data: Any) -> dict[str, Any]:
    if type(data) is not dict or data.get("format") != FORMAT:
        raise LogError(path, 1, "not a crib3 game log (the first line does not name the "
                                f"{FORMAT!r} format)")
    version = data.get("version")
    if type(version) is not int:
        raise LogError(path, 1, "the header has no version number")
    if version > VERSION:
        raise LogError(path, 1, f"log version {version} is newer than this crib3 reads "
                                f"({VERSION}): update crib3")
    if version < 1:
        raise LogError(path, 1, f"unknown log version {version}")
    return data


def parse_log(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[tuple[int, Event]],
                                                        list[str]]:
    """Read and decode a log without checking the rules: the header, each
    event with its line number, and warnings. Raises LogError."""
    name = str(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise LogError(name, 0, "no such file") from None
    except IsADirectoryError:
        raise LogError(name, 0, "is a folder, not a log") from None
    except OSError as exc:
        raise LogError(name, 0, f"cannot be read ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise LogError(name, line, "not UTF-8 text: not a crib3 game log") from None
    if not text.strip():
        raise LogError(name, 1, "the file is empty: not a crib3 game log")
    lines = text.split("\n")
    ends_cleanly = lines[-1] == ""
    if ends_cleanly:
        lines.pop()
    warnings: list[str] = []
    header: dict[str, Any] | None = None
    events: list[tuple[int, Event]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        last = number == len(lines)
        try:
            data = json.loads(line)
        except json.JSONDecodeError as exc:
            if last and not ends_cleanly and header is not None:
                warnings.append(f"{name}:{number}: the last line is cut off (the game was "
                                f"interrupted while writing); the {len(events)} events before "
                                "it are loaded")
                break
            raise LogError(name, number, f"not JSON ({exc.msg})",
                           [e for _, e in events]) from None
        if header is None:
            header = _check_header(name, data)
            continue
        try:
            events.append((number, decode(data)))
        except DecodeError as exc:
            raise LogError(name, number, str(exc), [e for _, e in events]) from None
    if header is None:
        raise LogError(name, 1, "not a crib3 game log (no header line)")
    return header, events, warnings


def command_for(event: Event) -> Command | None:
    """The command that causes a root event (None for automatic events)."""
    if isinstance(event, CardPlayed):
        return Play(event.seat, event.card)
    if isinstance(event, CardDiscarded):
        return Discard(event.seat, event.card) if event.card is not None else None
    if isinstance(event, StarterCut):
        return CutStarter(event.seat, event.depth)
    if isinstance(event, DeckShuffled):
        return Shuffle(event.deck) if event.deck is not None else None
    if isinstance(event, CardCutForDeal):
        return DrawCutCard(event.seat, event.card)
    if isinstance(event, HandCounted):
        return Count(event.seat, event.points)
    if isinstance(event, MugginsCalled):
        return Muggins(event.seat, True)
    if isinstance(event, MugginsDeclined):
        return Muggins(event.seat, False)
    return None


def _difference(logged: Event, expected: Event) -> str:
    if type(logged) is not type(expected):
        return f"the rules give {expected.type} here, not {logged.type}"
    for f in dataclasses.fields(expected):
        a, b = getattr(logged, f.name), getattr(expected, f.name)
        if a != b:
            return (f"{logged.type} has {f.name} {_dumps(encode_value(a))}, "
                    f"but the rules give {_dumps(encode_value(b))}")
    return f"{logged.type} differs from what the rules give"


def replay(numbered: Sequence[tuple[int, Event]], path: str = "<events>") -> State:
    """Re-run every event through the rules and return the final state, or
    raise LogError at the first event that could not have happened."""
    state = State()
    valid: list[Event] = []

    def fail(line: int, reason: str) -> LogError:
        return LogError(path, line, reason, valid)

    for index, (line, event) in enumerate(numbered):
        if index == 0:
            if not isinstance(event, GameStarted):
                raise fail(line, f"a game starts with GameStarted, not {event.type}")
            try:
                begin(event.players, event.rules, event.seed)
            except IllegalMove as exc:
                raise fail(line, str(exc)) from None
        elif isinstance(event, GameStarted):
            raise fail(line, "a second GameStarted: one game per log")
        elif state.phase == Phase.OVER:
            raise fail(line, f"{event.type} after the game was won")
        else:
            expected = next_automatic(state)
            if expected is None:
                command = command_for(event)
                if command is None and isinstance(event, (DeckShuffled, CardDiscarded)):
                    raise fail(line, f"{event.type} hides its cards (a seat's redacted copy): "
                                     "only a full log can be verified")
                if command is None:
                    raise fail(line, f"{event.type} cannot happen here: a choice is due")
                try:
                    expected = root_event(state, command)
                except IllegalMove as exc:
                    raise fail(line, str(exc)) from None
            if expected != event:
                raise fail(line, _difference(event, expected))
        state = apply(state, event)
        valid.append(event)
    return state


def load_log(path: str | os.PathLike[str]) -> LoadedLog:
    """Read, decode and verify a log. Raises LogError; a cut-off last line
    is a warning, not an error (a crash mid-write loses only that line)."""
    header, numbered, warnings = parse_log(path)
    if not numbered:
        raise LogError(str(path), 1, "the log holds no events")
    state = replay(numbered, str(path))
    return LoadedLog(str(path), header, [e for _, e in numbered], state, warnings)
