"""What the list of saved games needs of one log, read from its first two
lines and its last few kilobytes, never the whole file.

`crib3 games`, `crib3 resume` and the new-game screen look at every saved
game; folding each log made the list as slow as the sum of the games (18.8 s
for 1,000 of them). A listing needs only who played (the GameStarted line),
when (the header), the scores (the last event that carries them, or the
GameWon line, always the last of a finished game; not one that a later
take-back undid) and the hand number (the last DeckShuffled), so this reads
those and nothing else: constant work per file. Nothing is verified here
(`crib3 verify` does that), and nothing is written: there is no index to
fall out of step with the logs.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crib3.engine.events import PlayerInfo
from crib3.engine.lines import LineError, parse_json, read_lines
from crib3.engine.log import LogError, _check_header

TAIL = 8 * 1024  # the first look at the end (a hand is 4-6 KiB); grown while not enough
TAIL_MOST = 512 * 1024  # a hand never comes near this: stop looking further back


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


# The few fields the list needs are checked by hand, not by the codec: the
# codec builds every card of a shuffle, and that was most of the listing's time.


def _object(text: str | bytes, line: int | None, offset: int = 0) -> dict[str, Any]:
    try:
        data = parse_json(text.decode("utf-8") if isinstance(text, bytes) else text)
    except ValueError as exc:  # UnicodeDecodeError is a ValueError
        raise _Bad(line, str(exc), offset) from None
    if type(data) is not dict:
        raise _Bad(line, "an event is a JSON object, not " + type(data).__name__, offset)
    return data


def _whole(value: Any) -> bool:
    return type(value) is int


def _players(data: dict[str, Any], line: int) -> tuple[PlayerInfo, ...]:
    if data.get("type") != "GameStarted":
        raise _Bad(line, f"a game starts with GameStarted, not {data.get('type')!r}")
    players = data.get("players")
    if type(players) is not list or len(players) != 3 or not all(
            type(p) is dict and type(p.get("name")) is str and type(p.get("kind")) is str
            for p in players):
        raise _Bad(line, "GameStarted.players should be three players with a name and a kind")
    return tuple(PlayerInfo(p["name"], p["kind"]) for p in players)


def glance(path: Path) -> Glance:
    """The listing of one log; a bad file gives a Glance with a problem,
    never an exception."""
    head: dict[str, Any] = {}
    try:
        lines = read_lines(path)
        try:
            for number, text, _ in lines:
                if not text.strip():
                    continue
                if not head:
                    header = _check_header(str(path), parse_json(text))
                    head["created"] = str(header.get("created", ""))
                else:
                    head["players"] = _players(_object(text, number), number)
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


def _tail(path: Path) -> dict[str, Any]:
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


def _lines_backwards(block: bytes, start: int) -> Iterator[tuple[int, bytes]]:
    """The whole lines of `block` (which begins at byte `start` of the file),
    last first, with their offsets in the file: not the piece after the last
    newline (a line cut off by a crash, left out as on loading), nor the
    first piece of a block that does not begin the file."""
    end = block.rfind(b"\n")  # where the last whole line ends
    floor = 0 if start == 0 else block.find(b"\n") + 1  # where the first one begins
    while end >= floor:
        newline = block.rfind(b"\n", floor, end)
        begin = newline + 1 if newline >= 0 else floor
        yield start + begin, block[begin:end]
        end = begin - 1


def _line_around(block: bytes, index: int, floor: int) -> tuple[int, bytes]:
    begin = block.rfind(b"\n", floor, index) + 1 or floor
    end = block.find(b"\n", index)
    return begin, block[begin:end]


def _read_tail(block: bytes, start: int) -> tuple[dict[str, Any], bool]:
    """What the end of the file says, and whether that is all the listing
    needs (the scores and the hand number)."""
    found: dict[str, Any] = {}
    last = block.rfind(b"\n")  # the piece after it is cut off (or nothing)
    floor = 0 if start == 0 else block.find(b"\n") + 1  # the first whole line
    lines = _lines_backwards(block, start)
    for offset, raw in lines:  # the last whole line must be a JSON object
        if raw.strip():
            data = _object(raw, None, offset)
            if "format" in data or data.get("type") == "GameStarted":
                return found, True  # no events after GameStarted yet
            break
    else:
        return found, start == 0
    undoing: list[Any] = []  # take-backs met going back, still to reach their decision
    for offset, raw in _lines_backwards(block, start):
        if b'"TakenBack"' in raw or undoing:
            data = _object(raw, None, offset)
            if data.get("type") == "TakenBack":
                undoing.append(data.get("seat"))
                continue
            if undoing:  # undone: the scores it carries never stood
                if data.get("type") in ("CardDiscarded", "CardPlayed") \
                        and data.get("seat") == undoing[-1]:
                    undoing.pop()
                continue
        if b'"scores"' in raw:
            data = _object(raw, None, offset)
            scores = data.get("scores")
            if type(scores) is not list or len(scores) != 3 or not all(map(_whole, scores)):
                raise _Bad(None, f"{data.get('type')}.scores should be three whole numbers",
                           offset)
            found["scores"] = tuple(scores)
            if data.get("type") == "GameWon":
                if not _whole(data.get("seat")) or not 0 <= data["seat"] <= 2:
                    raise _Bad(None, "GameWon.seat should be a seat, 0 to 2", offset)
                found["winner"] = data["seat"]
            break
    index = last
    while index > floor:
        index = block.rfind(b"DeckShuffled", floor, index)
        if index < 0:
            break
        begin, raw = _line_around(block, index, floor)
        data = _object(raw, None, start + begin)
        if data.get("type") == "DeckShuffled":
            if not _whole(data.get("hand")):
                raise _Bad(None, "DeckShuffled.hand should be a whole number", start + begin)
            found["hand_number"] = data["hand"]
            break
        index = begin
    return found, start == 0 or ("scores" in found and "hand_number" in found)
