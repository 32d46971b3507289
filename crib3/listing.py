"""What the list of saved games needs of one log, read from its first two
lines and its last few kilobytes, never the whole file.

`crib3 games`, `crib3 resume` and the new-game screen look at every saved
game; folding each log made the list as slow as the sum of the games (18.8 s
for 1,000 of them). A listing needs only who played (the GameStarted line),
when (the header), the scores (the last event that carries them, or the
GameWon line, always the last of a finished game) and the hand number (the
last DeckShuffled), so this reads those and nothing else: constant work per
file. Nothing is verified here (`crib3 verify` does that), and nothing is
written: there is no index to fall out of step with the logs.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from crib3.engine.codec import DecodeError, decode
from crib3.engine.events import DeckShuffled, Event, GameStarted, GameWon, PlayerInfo
from crib3.engine.lines import LineError, parse_json, read_lines
from crib3.engine.log import LogError, _check_header

TAIL = 8 * 1024  # the first look at the end (a hand is 4-6 KiB); grown while not enough
TAIL_MOST = 512 * 1024  # a hand never comes near this: stop looking further back
_SHUFFLE = re.compile(rb'"type"\s*:\s*"DeckShuffled"')


@dataclass(frozen=True)
class Glance:
    """One saved game as the list shows it. With a `problem` (one line,
    `FILE[:LINE]: reason`), the fields read before it are kept: a game whose
    players are known may still be resumed up to its last good line."""

    path: Path
    created: str = ""
    players: tuple[PlayerInfo, ...] = ()
    scores: tuple[int, ...] = (0, 0, 0)
    hand_number: int = 0
    winner: int | None = None
    problem: str = ""

    @property
    def finished(self) -> bool:
        return not self.problem and self.winner is not None

    def name(self, seat: int) -> str:
        return self.players[seat].name if seat < len(self.players) else f"seat {seat}"


class _Bad(Exception):
    """A bad line: its number, or (at the end of the file) its offset."""

    def __init__(self, line: int | None, reason: str, offset: int = 0) -> None:
        super().__init__(reason)
        self.line, self.reason, self.offset = line, reason, offset


def _event(text: str | bytes, line: int | None, offset: int = 0) -> Event:
    try:
        data = parse_json(text.decode("utf-8") if isinstance(text, bytes) else text)
        return decode(data)
    except (ValueError, DecodeError) as exc:  # UnicodeDecodeError is a ValueError
        raise _Bad(line, str(exc), offset) from None
    except RecursionError:
        raise _Bad(line, "an event nested too deeply to read", offset) from None


def glance(path: Path) -> Glance:
    """The listing of one log; a bad file gives a Glance with a problem,
    never an exception."""
    head: dict = {}
    try:
        lines = read_lines(path)
        try:
            for number, text, _ in lines:
                if number == 1:
                    header = _check_header(str(path), parse_json(text))
                    head["created"] = str(header.get("created", ""))
                elif text.strip():
                    started = _event(text, number)
                    if not isinstance(started, GameStarted):
                        raise _Bad(number, f"a game starts with GameStarted, not "
                                           f"{started.type}")
                    head["players"] = started.players
                    break
            else:
                raise _Bad(1, "the log holds no events")
        finally:
            lines.close()
        return Glance(path, **head, **_tail(path))
    except (LineError, LogError) as exc:
        return Glance(path, **head, problem=str(exc))
    except ValueError as exc:  # the header is not JSON
        return Glance(path, problem=f"{path}:1: {exc}")
    except _Bad as exc:
        line = exc.line if exc.line is not None else _line_at(path, exc.offset)
        return Glance(path, **head, problem=f"{path}:{line}: {exc.reason}")
    except OSError as exc:
        return Glance(path, **head, problem=f"{path}: cannot be read ({exc.strerror})")


def _line_at(path: Path, offset: int) -> int:
    """The number of the line starting at byte `offset` (only for a bad
    line found at the end: counting costs a read of the file, in C)."""
    newlines = 0
    with open(path, "rb") as f:
        while offset > 0:
            chunk = f.read(min(offset, 1 << 20))
            if not chunk:
                break
            newlines += chunk.count(b"\n")
            offset -= len(chunk)
    return newlines + 1


def _tail(path: Path) -> dict:
    """Scores, winner and hand number from the end of the file."""
    with open(path, "rb") as f:
        size = f.seek(0, os.SEEK_END)
        want = TAIL
        while True:
            start = max(0, size - want)
            f.seek(start)
            block = f.read(size - start)
            found, complete = _read_tail(block, start)
            if complete or start == 0 or want >= TAIL_MOST:
                return found  # what is missing is the fold's default (or out of reach)
            want *= 4


def _read_tail(block: bytes, start: int) -> tuple[dict, bool]:
    """What the end of the file says (`block` begins at byte `start`), and
    whether that is all the listing needs."""
    pieces = block.split(b"\n")
    offsets = []
    position = start
    for piece in pieces:
        offsets.append(position)
        position += len(piece) + 1
    first = 0 if start == 0 else 1  # the first piece may be the end of a longer line
    last = len(pieces) - 1  # after the last newline: "" or a line cut off by a crash
    found: dict = {}
    if start == 0 and last <= 2:
        return found, True  # the header and GameStarted only
    for index in range(last - 1, first - 1, -1):
        raw = pieces[index]
        if start == 0 and index < 2:
            break
        if not raw.strip():
            continue
        if index == last - 1:
            _event(raw, None, offsets[index])  # the last whole line must be an event
        if "scores" not in found and b'"scores"' in raw:
            event = _event(raw, None, offsets[index])
            scores = getattr(event, "scores", None)
            if scores is not None:
                found["scores"] = tuple(scores)
            if isinstance(event, GameWon):
                found["winner"] = event.seat
        if "hand_number" not in found and _SHUFFLE.search(raw):
            event = _event(raw, None, offsets[index])
            if isinstance(event, DeckShuffled):
                found["hand_number"] = event.hand
        if "scores" in found and "hand_number" in found:
            return found, True
    return found, False
