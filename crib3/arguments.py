"""The command line's grammar: a parser whose mistakes are one line, and
the argument types that check numbers (finite, in range) as they are read.
Shared by `crib3` and the developers' tools (`python -m crib3.players.cribtable`)."""

from __future__ import annotations

import argparse
import math
from typing import NoReturn

from crib3.cli import EXIT_USAGE  # noqa: E402  (the command's codes are its own)


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one line ("crib3
    play: argument --think: ...") instead of the usage and the error."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")


def seconds(text: str) -> float:
    """A number of seconds: finite and not negative (no inf, nan or -1)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds, 0 or more")
    return value


def at_least_one(text: str) -> int:
    """A whole number, 1 or more."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give 1 or more")
    return value


def zero_or_more(text: str) -> int:
    """A whole number, 0 or more (a limit where 0 means none)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 or more")
    return value
