"""The game log: JSON Lines, one event a line, after a header line.

This is the only engine module that touches files. Writing appends a line
and flushes it to the operating system before returning, so whatever the
screen shows survives the program's crash (even `kill -9`). What the
machine losing power spares depends on the fsync: `LogWriter` fsyncs each
line before returning too (a local game: whatever the screen shows is on
the disk itself), or, with `sync=LATER` (the card room, whose event loop
relays every key of every table and must never wait on the disk), in a
thread of its own just after the write, one fsync covering every line
written since the last (`GroupSync`): a power cut may then lose the last
lines the screen showed, a crash of the program none.

Reading is strict: every event is re-run through the rules (`replay`), so
a log that was cut, hand-edited or written by something else gives one
`LogError` naming the file and line, never a traceback. The format is
documented field by field in assets/log-format.md.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import threading
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any, Literal

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
    TakeBack,
)
from crib3.engine.events import (
    CardCutForDeal,
    CardDiscarded,
    CardPlayed,
    ClaimRefused,
    DeckShuffled,
    Event,
    GameStarted,
    HandCounted,
    MugginsCalled,
    MugginsDeclined,
    StarterCut,
    TakenBack,
)
from crib3.engine.lines import LineError, parse_json, read_lines
from crib3.engine.rules import IllegalMove, begin, next_automatic, root_event
from crib3.engine.state import Phase, State, apply

FORMAT = "crib3-log"
# 2 added the `TakenBack` event (a version-1 log cannot hold one); a
# version-1 log is read as it always was. 3 added the muggins rules and
# pegging claims (`Rules.muggins_rule`, `Rules.pegging_claims`,
# `CardPlayed.missed`, whose defaults are what older logs meant) and the
# `ClaimRefused` event: an older crib3 then says "update crib3" rather
# than failing on a line it does not know. (An older log may hold one too:
# a game resumed by this crib3 goes on in its own file, under its header.)
VERSION = 3
TAKEBACKS_SINCE = 2
# The header's `source` of games played at one's own keyboard: the only logs
# in which a take-back (`TakenBack`) may stand (`crib3 serve` writes the card
# room's, `crib3 sim` the simulator's).
LOCAL_SOURCES = frozenset({"crib3 play", "crib3 resume"})


NOT_LOCAL = ("a take-back in a game that was not played at your own keyboard against the "
             "computer (take-backs are for those alone)")


def takebacks_refused(header: dict[str, Any]) -> str | None:
    """Why a log with this header cannot hold a take-back, or None when it
    can: a game at one's own keyboard, written since the format had them."""
    source = header.get("source")
    if not isinstance(source, str) or source not in LOCAL_SOURCES:  # (a damaged header's list)
        return NOT_LOCAL
    if header["version"] < TAKEBACKS_SINCE:
        return f"a take-back in a version-{header['version']} log (they came with version 2)"
    return None


class LogError(Exception):
    """A log that cannot be read or does not follow the rules.

    `line` is 1-based (the header is line 1); 0 when the file itself cannot
    be read (str() is then `FILE: reason`, else `FILE:LINE: reason`).
    `valid` holds the events before the bad line, which a replay may still
    offer."""

    def __init__(self, path: str, line: int, reason: str, valid: Sequence[Event] = ()):
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")
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
    count: int = -1  # how many events (`events` is empty when they were not kept)

    def __post_init__(self) -> None:
        if self.count < 0:
            self.count = len(self.events)


def make_header(**extra: Any) -> dict[str, Any]:
    from crib3 import __version__

    return {
        "format": FORMAT,
        "version": VERSION,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "crib3": __version__,
        **extra,
    }


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False)


def event_line(event: Event) -> str:
    """One event as its log line, without the newline."""
    return _dumps(encode(event))


# A log holds the whole deck of every hand, so while a game is on it tells
# every hidden card: its file is its owner's alone (0600), in a folder that
# only its owner may list (0700), as OpenSSH keeps its keys.
PRIVATE_FILE, PRIVATE_FOLDER = 0o600, 0o700


def private_folder(folder: Path) -> None:
    """Make `folder` (and any missing parents) and keep it its owner's alone."""
    folder.mkdir(parents=True, exist_ok=True, mode=PRIVATE_FOLDER)
    if folder.stat().st_mode & 0o077:
        os.chmod(folder, PRIVATE_FOLDER)


def open_private(path: Path, mode: str = "a") -> IO[str]:
    """Open a text file for writing ("a" or "w"), its owner's alone (0600),
    whether it is new or was written by an older crib3 with looser modes."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "a" else os.O_TRUNC)
    fd = os.open(path, flags, PRIVATE_FILE)
    if os.fstat(fd).st_mode & 0o077:
        os.fchmod(fd, PRIVATE_FILE)
    return os.fdopen(fd, mode, encoding="utf-8")


log = logging.getLogger("crib3.log")

# When a written line is fsynced: NOW before `append` returns, LATER in a
# thread just after it (`GroupSync`), NEVER (the written line reaches the
# operating system only: a simulator's or a test's log).
Sync = Literal["now", "later", "never"]
NOW: Sync = "now"
LATER: Sync = "later"
NEVER: Sync = "never"

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _sync_pool() -> ThreadPoolExecutor:
    """The threads every `GroupSync` fsyncs in: a few for a whole process
    (a room of many tables needs no thread a table: each log has at most
    one fsync under way). Made at the first use, so a program that never
    syncs later starts none."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="crib3-fsync")
        return _pool


def _forget_pool() -> None:
    """A forked child has none of its parent's threads: its own pool, if it
    ever needs one."""
    global _pool
    _pool = None


os.register_at_fork(after_in_child=_forget_pool)


class GroupSync:
    """One open file's fsyncs, off the caller's thread, as a group commit:
    `ask` after a write starts an fsync at once, unless one is under way,
    in which case one more follows it, covering every line written
    meanwhile. So a burst of events costs one or two fsyncs, and the
    caller (the card room's event loop) never waits on the disk.

    A failed fsync (EIO, ENOSPC...) is logged once, as it happens, and is
    not retried: after a failed fsync the kernel may have dropped the
    unwritten pages, so a retry that succeeds proves nothing. The file is
    then as good as unwritable: `check` (before each write) raises that
    error, so the writer's next event fails as a full disk's write does."""

    def __init__(self, fd: int, where: str) -> None:
        self.fd = fd
        self.where = where  # the file's name, for the error log
        self._lock = threading.Lock()
        self._running = False
        self._again = False
        self._idle = threading.Event()
        self._idle.set()
        self.failed: OSError | None = None

    def check(self) -> None:
        """Raise the failed fsync's error, if one failed."""
        if self.failed is not None:
            raise self.failed

    def ask(self) -> None:
        """Everything written so far is to be fsynced, soon."""
        with self._lock:
            if self.failed is not None:
                return
            if self._running:
                self._again = True
                return
            self._running = True
            self._idle.clear()
        try:
            _sync_pool().submit(self._run)
        except RuntimeError:  # the interpreter is shutting down: sync here
            self._run()

    def _run(self) -> None:
        while True:
            try:
                os.fsync(self.fd)
            except OSError as exc:
                log.error("%s: the game log could not be put on disk (fsync: %s); "
                          "its table stops at its next event, as on a full disk",
                          self.where, exc)
                with self._lock:
                    self.failed = exc
                    self._running = self._again = False
                    self._idle.set()
                return
            with self._lock:
                if not self._again:
                    self._running = False
                    self._idle.set()
                    return
                self._again = False

    def wait(self, timeout: float | None = None) -> bool:
        """Until every line asked for is fsynced, or the fsync failed; at
        most `timeout` seconds, if given (False: it was not done by then)."""
        return self._idle.wait(timeout)


class LogWriter:
    """Appends events to a log file, each one flushed to the operating
    system before `append` returns, and fsynced as `sync` says (see the
    module's docstring): NOW, before `append` returns; LATER, just after,
    in another thread; NEVER."""

    def __init__(self, path: str | os.PathLike[str], header: dict[str, Any] | None = None,
                 sync: Sync = NOW) -> None:
        self.path = Path(path)
        self.sync = sync
        private_folder(self.path.parent)
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        if not fresh:
            _prepare_for_append(self.path)
        self._file: IO[str] | None = open_private(self.path)
        self._group = (GroupSync(self._file.fileno(), str(self.path))
                       if sync == LATER else None)
        if fresh:
            self._write(_dumps(header or make_header()))

    def _write(self, line: str) -> None:
        assert self._file is not None, "the log is closed"
        if self._group is not None:
            self._group.check()
        self._file.write(line + "\n")
        self._file.flush()
        if self._group is not None:
            self._group.ask()
        elif self.sync == NOW:
            os.fsync(self._file.fileno())

    def append(self, event: Event) -> None:
        self._write(event_line(event))

    def close(self) -> None:
        """Close the file, once its last fsync is done (a failed one was
        logged as it failed)."""
        if self._file is not None:
            if self._group is not None:
                self._group.wait()
            self._file.close()
            self._file = None

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _prepare_for_append(path: Path) -> None:
    """Before going on with an existing log: it must be a crib3 log, and a
    line cut off by a crash is removed, so the next event starts a line of
    its own instead of gluing onto the fragment. Reads the header and the
    end of the file only."""
    try:
        _, stream, _ = read_log(path)
    except LogError:
        raise LogError(str(path), 1, "not a crib3 game log: will not append to it") from None
    stream.close()
    with open(path, "r+b") as f:
        end = f.seek(0, os.SEEK_END)
        position = end
        while position > 0:
            start = max(0, position - 65536)
            f.seek(start)
            chunk = f.read(position - start)
            newline = chunk.rfind(b"\n")
            if newline >= 0:
                keep = start + newline + 1
                break
            position = start
        else:
            keep = 0
        if keep != end:
            f.truncate(keep)


def write_log(path: str | os.PathLike[str], events: Iterable[Event],
              header: dict[str, Any] | None = None) -> None:
    """Write a whole game at once (the simulator's logs): one write, no fsync."""
    lines = [_dumps(header or make_header())]
    lines.extend(event_line(e) for e in events)
    with open_private(Path(path), "w") as f:
        f.write("\n".join(lines) + "\n")


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


# An open log's events with their line numbers: a generator, so that a reader
# that stops early can close the file (`close()`).
EventStream = Generator[tuple[int, Event], None, None]


def read_log(path: str | os.PathLike[str]) -> tuple[dict[str, Any], EventStream, list[str]]:
    """Open a log as a stream: its header (read and checked at once), then
    its events with their line numbers, decoded but not checked against the
    rules, one line in memory at a time. The stream raises LogError at the
    first bad line; a cut-off last line instead adds a warning to the list
    returned (filled in as the stream reaches it) and ends the stream."""
    name = str(path)
    lines = read_lines(path)
    warnings: list[str] = []
    header: dict[str, Any] | None = None
    try:
        for number, text, complete in lines:
            if not text.strip():
                continue
            try:
                data = parse_json(text)
            except ValueError as exc:
                if not complete:
                    raise LogError(name, number, "not a crib3 game log (the first line is "
                                                 "cut off)") from None
                raise LogError(name, number, str(exc)) from None
            header = _check_header(name, data)
            break
    except LineError as exc:
        raise LogError(exc.path, exc.line, exc.reason) from None
    if header is None:
        lines.close()
        raise LogError(name, 1, "the file is empty: not a crib3 game log")
    return header, _events(name, lines, warnings), warnings


def _events(name: str, lines: Iterator[tuple[int, str, bool]],
            warnings: list[str]) -> EventStream:
    count = 0
    try:
        for number, text, complete in lines:
            if not text.strip():
                continue
            try:
                data = parse_json(text)
            except ValueError as exc:
                if not complete:
                    warnings.append(f"{name}:{number}: the last line is cut off (the game was "
                                    f"interrupted while writing); the {count} events before "
                                    "it are loaded")
                    return
                raise LogError(name, number, str(exc)) from None
            try:
                event = decode(data)
            except DecodeError as exc:
                raise LogError(name, number, str(exc)) from None
            except RecursionError:
                raise LogError(name, number, "an event nested too deeply to read") from None
            count += 1
            yield number, event
    except LineError as exc:
        raise LogError(exc.path, exc.line, exc.reason) from None


def parse_log(path: str | os.PathLike[str]) -> tuple[dict[str, Any], list[tuple[int, Event]],
                                                        list[str]]:
    """Read and decode a whole log without checking the rules: the header,
    each event with its line number, and warnings. Raises LogError."""
    header, stream, warnings = read_log(path)
    events: list[tuple[int, Event]] = []
    try:
        for item in stream:
            events.append(item)
    except LogError as exc:
        raise LogError(exc.path, exc.line, exc.reason, [e for _, e in events]) from None
    return header, events, warnings


def command_for(event: Event) -> Command | None:
    """The command that causes a root event (None for automatic events)."""
    if isinstance(event, CardPlayed):  # (a claim, which the rules read only when claims are on)
        return Play(event.seat, event.card, event.points)
    if isinstance(event, ClaimRefused):
        if event.card is not None:
            return Play(event.seat, event.card, event.claimed)
        return Count(event.seat, event.claimed)
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
    if isinstance(event, TakenBack):
        return TakeBack(event.seat)
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


def replay(numbered: Iterable[tuple[int, Event]], path: str = "<events>",
           takebacks: bool = False) -> State:
    """Re-run every event through the rules and return the final state, or
    raise LogError at the first event that could not have happened.
    `takebacks`: the game was one where take-backs are allowed."""
    return _replay(numbered, path, keep=True, on_event=None,
                   refused=None if takebacks else NOT_LOCAL)[0]


def _replay(numbered: Iterable[tuple[int, Event]], path: str, keep: bool,
            on_event: Callable[[Event], None] | None,
            refused: str | None = NOT_LOCAL) -> tuple[State, list[Event], int]:
    """The replay, over a stream: the state, the events (when `keep`: a
    LogError then carries the valid ones too), and how many there were.
    Nothing else is held, so a log of any length is checked in the memory of
    its state. A take-back stands only in a game that allowed them
    (`refused` None; else it says why not), and only as the rules give it
    (`TakeBack`)."""
    state = State()
    valid: list[Event] = []
    count = 0

    def fail(line: int, reason: str) -> LogError:
        return LogError(path, line, reason, valid)

    stream = iter(numbered)
    while True:
        try:
            item = next(stream, None)
        except LogError as exc:  # a bad line: the events before it are still valid
            raise fail(exc.line, exc.reason) from None
        if item is None:
            break
        line, event = item
        if count == 0:
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
        elif isinstance(event, TakenBack) and refused is not None:
            raise fail(line, refused)
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
        count += 1
        if keep:
            valid.append(event)
        if on_event is not None:
            on_event(event)
    return state, valid, count


def load_log(path: str | os.PathLike[str], keep_events: bool = True,
             on_event: Callable[[Event], None] | None = None) -> LoadedLog:
    """Read, decode and verify a log, as a stream that stops at the first
    bad line. Raises LogError; a cut-off last line is a warning, not an
    error (a crash mid-write loses only that line). Without `keep_events`
    the events are not kept (`events` is empty, `count` says how many),
    so checking a huge log costs the memory of its state; `on_event` sees
    each valid event as it passes."""
    header, numbered, warnings = read_log(path)
    state, events, count = _replay(numbered, str(path), keep_events, on_event,
                                   takebacks_refused(header))
    if not count:
        raise LogError(str(path), 1, "the log holds no events")
    return LoadedLog(str(path), header, events, state, warnings, count)
