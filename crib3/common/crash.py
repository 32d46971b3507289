"""What an unexpected error leaves behind: one line for the person at the
terminal, and the whole traceback in a log file for whoever fixes it.

A traceback on the screen helps nobody at the table (and Textual's, with
local variables, can run to a screenful); a traceback lost helps nobody
later. So every command, and every card-room session, reports an
unexpected error through `record` and `summary`.
"""

from __future__ import annotations

import logging
import os
import tempfile
import traceback
from datetime import UTC, datetime
from pathlib import Path

ERRORS_LOG = "errors.log"
KEEP_BYTES = 1 << 20  # past this the log starts again, so it never fills a disk


def record(exc: BaseException, context: str = "") -> Path | None:
    """Append `exc`'s traceback (with the time, crib3's version and
    `context`) to errors.log in the data folder, or in the temporary folder
    when the data folder cannot be written. Returns where it went, or None
    when it could be written nowhere."""
    from crib3 import __version__
    from crib3.common.paths import data_dir

    when = datetime.now(UTC).isoformat(timespec="seconds")
    text = (f"--- {when} crib3 {__version__} {context}".rstrip() + "\n"
            + "".join(traceback.format_exception(exc)) + "\n")
    for folder in (data_dir(), Path(tempfile.gettempdir()) / "crib3"):
        path = folder / ERRORS_LOG
        try:
            folder.mkdir(parents=True, exist_ok=True)
            if path.exists() and path.stat().st_size > KEEP_BYTES:
                path.unlink()
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
            with os.fdopen(fd, "a", encoding="utf-8") as f:
                f.write(text)
            return path
        except OSError:
            continue
    return None


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
