"""The command line's grammar: a parser whose mistakes are one line, and
the argument types that check numbers (finite, in range) as they are read.
Shared by `crib3` and the developers' tools (`python -m crib3.players.cribtable`)."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from typing import NoReturn

from crib3.common.exits import EXIT_USAGE


class Parser(argparse.ArgumentParser):
    """argparse, but a mistake on the command line is one line ("crib3
    play: argument --think: ...") instead of the usage and the error."""

    #: Text for the end of the help that is worked out only when the help is
    #: shown (what is on this machine, such as `crib3 serve`'s host key),
    #: not each time the command line is read.
    late_epilog: Callable[[], str | None] | None = None

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (see {self.prog} --help)\n")

    def format_help(self) -> str:
        if self.late_epilog is not None:
            self.epilog = self.late_epilog()
        return super().format_help()

    def parse_args(self, args=None, namespace=None):
        """As argparse, but an argument no command takes is reported by the
        command it was given to ("crib3 sim: unrecognized arguments: x (see
        crib3 sim --help)"), not by `crib3`, whose help does not list the
        command's own options. (argparse hands a subcommand's leftovers up
        to the top parser, which would say "crib3: ...".)"""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            self.command_parser(parsed).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def add_parents(self, *parents: argparse.ArgumentParser) -> None:
        """argparse's `parents=`, here rather than first: the parents'
        options (and defaults) join this parser after the options it has so
        far. An option group shared by several commands is one parent
        parser, yet each command's help still lists its options in the order
        that reads best for it, which `parents=` alone cannot do (it puts
        every parent's options before the command's own)."""
        for parent in parents:
            self._add_container_actions(parent)  # what ArgumentParser(parents=...) does
            self._defaults.update(parent._defaults)

    def long_options(self) -> dict[str, argparse.Action]:
        """Each option by its long name without the dashes (`port`,
        `authorized-keys`)."""
        found: dict[str, argparse.Action] = {}
        for action in self._actions:  # argparse keeps no public list of a parser's options
            longs = [o for o in action.option_strings if o.startswith("--")]
            if longs:
                found[longs[0][2:]] = action
        return found

    def exclusive_options(self) -> list[list[str]]:
        """The long names of each set of options that may not be given
        together."""
        return [[o[2:] for action in group._group_actions  # argparse: no public way
                 for o in action.option_strings if o.startswith("--")]
                for group in self._mutually_exclusive_groups]

    def command_parser(self, parsed: argparse.Namespace) -> argparse.ArgumentParser:
        """The parser of the command `parsed` names, or this one."""
        for action in self._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = action.choices.get(getattr(parsed, action.dest, None) or "")
                if isinstance(chosen, argparse.ArgumentParser):
                    return chosen
        return self


def seconds(text: str) -> float:
    """A number of seconds: finite and not negative (no inf, nan or -1)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give seconds, 0 or more")
    return value


MOST_HOURS = 30 * 24  # an invite link is good for at most 30 days


def hours(text: str) -> float:
    """A number of hours for a link to stay good: more than 0, at most
    `MOST_HOURS` (no inf, nan, -1 or 1e9)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of hours") from None
    if not math.isfinite(value) or not 0 < value <= MOST_HOURS:
        raise argparse.ArgumentTypeError(f"{text!r}: give hours, more than 0 and at most "
                                         f"{MOST_HOURS} (30 days)")
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
