"""How a command fails: the failures a command raises, and the one line on
stderr each of them ends in (never a traceback). `crib3.cli.main` turns
them into exit codes; the commands share these words so that every command
says the same thing the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from crib3.common.exits import EXIT_INVALID, EXIT_USAGE

if TYPE_CHECKING:
    from crib3.engine.log import LogError


class UsageError(Exception):
    """Bad input from the command line: printed as one line, exit 2."""


class CannotRun(Exception):
    """The command is understood but cannot do its job here (a folder it
    cannot write, a save that failed): printed as one line, exit 1."""


class Crashed(Exception):
    """An unexpected error inside the game; `saved` is the game's file,
    which holds every move up to the error."""

    def __init__(self, error: BaseException, saved: object | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.saved = saved


def report_log_error(exc: LogError, command: str) -> int:
    """One line for a log that cannot be used, in the style every command
    that reads logs shares: `crib3 CMD: FILE:LINE: reason` for a bad log
    (exit 1), `crib3 CMD: FILE: reason` for one that cannot be opened, such
    as a missing file (exit 2)."""
    print(f"crib3 {command}: {exc}", file=sys.stderr)
    return EXIT_INVALID if exc.line else EXIT_USAGE


def warn(command: str, warnings: Sequence[str]) -> None:
    """Each warning on a line of its own: the command goes on."""
    for warning in warnings:
        print(f"crib3 {command}: warning: {warning}", file=sys.stderr)


def report_crash(command: str, exc: Exception) -> int:
    """One line for an error nothing expected: what it was, where the game
    is saved and how to go on, and where the whole traceback was written."""
    from crib3.common import crash

    error, saved = (exc.error, exc.saved) if isinstance(exc, Crashed) else (exc, None)
    log = crash.record(error, f"crib3 {command}")
    words = [f"crib3 {command}: unexpected error ({crash.summary(error)})"]
    if saved is not None:
        from crib3.common.invocation import as_typed

        words.append(f"your game is saved in {saved}: `{as_typed()} resume` goes on from there")
    words.append(f"details in {log}" if log else "the details could not be written anywhere")
    print("; ".join(words), file=sys.stderr)
    return EXIT_INVALID
