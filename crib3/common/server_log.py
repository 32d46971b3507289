"""The card room's log as an operator reads it: every line dated, levelled
and named.

`crib3 serve` writes its log to standard error (a service manager keeps
it). Each line has the date and time in UTC, the level, a stable event name
and the words: `2026-12-06T11:13:14.123Z INFO crib3.serve.sign_in: ...`.
The event name is what a line is about, for a filter or an alert to hold
on to: the one a call gives (`extra={"event": ...}`), else its logger and
the function that wrote it, which stay the same from run to run. With
`--log-format json` each line is one JSON object of the same fields, for a
log shipper. The session workers write the same way: the main process
hands them the choice in their environment.

Secrets (invite tokens, reconnect codes, passwords) are never put in a
message by the code; `tests/room/test_log_lines.py` greps a room's whole
log for them.
"""

from __future__ import annotations

import json
import logging
import os
import time
from typing import IO

FORMATS = ("text", "json")
LEVELS = ("debug", "info", "warning", "error")
# How the main process tells its session workers (their argv is the
# worker's own protocol).
ENV_FORMAT = "CRIB3_LOG_FORMAT"
ENV_LEVEL = "CRIB3_LOG_LEVEL"


class EventFormatter(logging.Formatter):
    """One line a record: UTC time, level, event, words (or JSON of them)."""

    def __init__(self, style: str = "text", process: str | None = None) -> None:
        super().__init__()
        self.style = style
        self.process = process

    def format(self, record: logging.LogRecord) -> str:
        when = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) \
            + f".{int(record.msecs):03d}Z"
        event = getattr(record, "event", None) or f"{record.name}.{record.funcName}"
        message = record.getMessage()
        # (A library's traceback, such as asyncio's "exception was never
        # retrieved": crib3's own go to errors.log, a line here.)
        trace = self.formatException(record.exc_info) if record.exc_info else None
        if self.style == "json":
            fields = {"time": when, "level": record.levelname.lower(), "event": event,
                      "message": message}
            if self.process:
                fields["process"] = self.process
            if trace:
                fields["traceback"] = trace
            return json.dumps(fields, ensure_ascii=False)
        where = f" [{self.process}]" if self.process else ""
        line = f"{when} {record.levelname:<7} {event}{where}: {message}"
        if trace:  # each line of it marked as this record's
            line += "".join(f"\n    | {part}" for part in trace.splitlines())
        return line


def configure(style: str = "text", level: str = "info", stream: IO[str] | None = None,
              process: str | None = None) -> None:
    """The process's log as above, on `stream` (standard error), from
    `level` up; asyncssh's own chatter only from warnings."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(EventFormatter(style, process))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level.upper())
    logging.getLogger("asyncssh").setLevel(logging.WARNING)


def console_line(words: str, style: str = "text") -> str:
    """What the server tells the person at its console ("listening on
    ..."), as a line of the log: always written, whatever the level, with
    the event `crib3.serve.console` (a warning when it says one)."""
    level = logging.WARNING if words.startswith("warning:") else logging.INFO
    record = logging.makeLogRecord({"name": "crib3.serve", "levelno": level,
                                    "levelname": logging.getLevelName(level), "msg": words,
                                    "event": "crib3.serve.console"})
    return EventFormatter(style).format(record)


def hand_on(style: str, level: str) -> None:
    """The choice, for the session workers this process starts."""
    os.environ[ENV_FORMAT] = style
    os.environ[ENV_LEVEL] = level


def configure_worker(stream: IO[str] | None = None) -> None:
    """A session worker's log, as its main process's."""
    style = os.environ.get(ENV_FORMAT, "text")
    level = os.environ.get(ENV_LEVEL, "info")
    configure(style if style in FORMATS else "text", level if level in LEVELS else "info",
              stream, process=f"worker {os.getpid()}")
