"""What an unexpected error leaves behind: one line for the person at the
terminal, and the whole traceback in a log file for whoever fixes it.

A traceback on the screen helps nobody at the table (and Textual's, with
local variables, can run to a screenful); a traceback lost helps nobody
later. So every command, and every card-room session, reports an
unexpected error through `record` and `summary`.
"""

from __future__ import annotations

import functools
import logging
import os
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from logging.handlers import RotatingFileHandler

ERRORS_LOG = "errors.log"
KEEP_BYTES = 1 << 20  # past this the log moves to errors.log.1, so it never fills a disk
KEEP_FILES = 3  # errors.log.1 to .3: a flood of one kind does not erase the first reports


def record(exc: BaseException, context: str = "") -> Path | None:
    """Append `exc`'s traceback (with the time, crib3's version and
    `context`) to errors.log in the data folder, or in the temporary folder
    when the data folder cannot be written. Returns where it went, or None
    when it could be written nowhere."""
    return record_text("".join(traceback.format_exception(exc)), context)


def record_text(text: str, context: str = "") -> Path | None:
    """As `record`, for a report that is not an exception's (a stack)."""
    from crib3 import __version__
    from crib3.common.paths import data_dir

    when = datetime.now(UTC).isoformat(timespec="seconds")
    text = f"--- {when} crib3 {__version__} {context}".rstrip() + "\n" + text + "\n"
    for folder in (data_dir(), Path(tempfile.gettempdir()) / "crib3"):
        path = folder / ERRORS_LOG
        try:
            folder.mkdir(parents=True, exist_ok=True)
            _write_rotating(path, text)
            return path
        except OSError:
            continue
    return None


def _write_rotating(path: Path, text: str) -> None:
    """Append `text` to `path` through the standard library's rotating
    handler (past KEEP_BYTES the file becomes errors.log.1, and so on to
    KEEP_FILES), every file owner-only: a traceback may hold a player's
    words. OSError when it cannot be written."""
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
    handler = _owner_only_rotation()(path, maxBytes=KEEP_BYTES, backupCount=KEEP_FILES,
                                 encoding="utf-8", delay=True)
    try:
        handler.emit(logging.makeLogRecord({"msg": text.rstrip("\n") + "\n",
                                            "levelno": logging.ERROR}))
    finally:
        handler.close()


@functools.cache
def _owner_only_rotation() -> type[RotatingFileHandler]:
    """The rotating handler, leaving an owner-only file behind each move
    (it then appends to that file, keeping its mode), and raising what it
    cannot write rather than printing it: `record` tries the next folder.
    (Made on the first error: logging.handlers is not for every start.)"""
    from logging.handlers import RotatingFileHandler

    class OwnerOnlyRotation(RotatingFileHandler):
        def rotate(self, source: str, dest: str) -> None:
            os.replace(source, dest)
            os.close(os.open(source, os.O_WRONLY | os.O_CREAT, 0o600))

        def handleError(self, record: logging.LogRecord) -> None:
            raise  # (the OSError being handled: emit calls this inside its except)

    return OwnerOnlyRotation


def printable(text: str) -> str:
    """`text` safe for one line of a terminal or a log: white space folded,
    and control characters written out as names are (an escape sequence in
    a name must not reach the host's terminal)."""
    from crib3.common.names import shown_name

    return shown_name(" ".join(text.split()))


def summary(exc: BaseException, width: int = 120) -> str:
    """The error in a few words for one line: "RuntimeError: boom"."""
    message = printable(str(exc))
    text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return text if len(text) <= width else text[: width - 1] + "…"


def report(log: logging.Logger, exc: BaseException, what: str) -> None:
    """For a server: one line in its log for an unexpected error in `what`
    (a session, a table), the traceback in errors.log; never a traceback
    with local variables on the host's terminal."""
    where = record(exc, what)
    log.error("%s: unexpected error (%s); details in %s", printable(what), summary(exc),
              where or "nowhere (no folder could be written)")
