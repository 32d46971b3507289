"""A saved game's lines, read as a stream: one line in memory at a time.

Every reader of logs (verify, export, replay, resume, stats, the list of
games) goes through here, so a file is judged the same way and in the same
words everywhere: a file that cannot be opened is `FILE: reason` (line 0),
a bad line is `FILE:LINE: reason`. Reading stops at the first bad line, and
a line longer than `MAX_LINE` is refused before it is held whole, so a
200 MB file costs no more than its first bad line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from typing import Any

# A real event line is under 1 KiB (a shuffle, the longest, is about 300
# bytes); 64 KiB leaves room for long names and future fields.
MAX_LINE = 64 * 1024

BOM = b"\xef\xbb\xbf"


class LineError(Exception):
    """A file or one of its lines cannot be read; `line` 0 is the file itself.
    (The engine's LogError is built from this.)"""

    def __init__(self, path: str, line: int, reason: str) -> None:
        super().__init__(f"{path}:{line}: {reason}" if line else f"{path}: {reason}")
        self.path, self.line, self.reason = path, line, reason


def open_error(path: str, exc: OSError) -> LineError:
    """The one-line reason for a file that cannot be opened."""
    if isinstance(exc, FileNotFoundError):
        return LineError(path, 0, "no such file")
    if isinstance(exc, IsADirectoryError):
        return LineError(path, 0, "is a folder, not a log")
    if isinstance(exc, PermissionError):
        return LineError(path, 0, "cannot be read (permission denied)")
    return LineError(path, 0, f"cannot be read ({exc.strerror or exc})")


def read_lines(
    path: str | os.PathLike[str],
) -> Generator[tuple[int, str, bool], None, None]:
    """Each line of the file as (number, text, complete), 1-based; `complete`
    is False only for a last line with no newline (cut off by a crash).
    A byte-order mark before the first line is skipped. Raises LineError
    lazily: for the file when it is first read, for a line when it is
    reached."""
    name = str(path)
    try:
        f = open(path, "rb")  # noqa: SIM115 (closed below; a generator)
    except OSError as exc:
        raise open_error(name, exc) from None
    with f:
        number = 0
        while True:
            try:
                raw = f.readline(MAX_LINE + 1)
            except OSError as exc:
                raise open_error(name, exc) from None
            if not raw:
                return
            number += 1
            if number == 1 and raw.startswith(BOM):
                raw = raw[len(BOM):]
            complete = raw.endswith(b"\n")
            if len(raw) > MAX_LINE and not (complete and len(raw) == MAX_LINE + 1):
                raise LineError(name, number, f"line too long (over {MAX_LINE // 1024} KiB): "
                                              "not a crib3 game log line")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise LineError(name, number, "not UTF-8 text: not a crib3 game log") from None
            yield number, text, complete


def parse_json(text: str) -> Any:
    """One line's JSON, or ValueError with a short reason (a line nested too
    deeply for the parser is bad JSON like any other, not a RecursionError)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg})") from None
    except RecursionError:
        raise ValueError("not JSON (nested too deeply)") from None
