"""`crib3 serve --config FILE`: the room's settings in a TOML file.

A public room has some twenty-five settings; a host keeps them in a file
rather than a shell line. The file's keys are the options' own names
without their dashes (`port = 2222`, `authorized-keys = "/etc/crib3/keys"`,
`open = true`), each value checked by the very type the command line
checks it with, so a file can say nothing the command line could not. The
command line wins over the file, and the file over the defaults. A key
that is no option, or a value of the wrong kind, is refused in one line
naming the key. `--print-config` shows what is in force, in the same form:
a file to start from.
"""

from __future__ import annotations

import argparse
import difflib
import json
import math
import tomllib
from collections.abc import Sequence
from pathlib import Path

from crib3.common.arguments import Parser

# The options that say what to do with a config, not what the room is.
NOT_SETTINGS = frozenset({"help", "config", "print-config"})


def settings(parser: Parser) -> dict[str, argparse.Action]:
    """Each setting a file may hold, by its key (the long option without
    its dashes)."""
    return {key: action for key, action in parser.long_options().items()
            if key not in NOT_SETTINGS}


def settled(parser: Parser, argv: Sequence[str],
            args: argparse.Namespace) -> argparse.Namespace | None:
    """`crib3 serve`'s arguments with its config file under them; None
    once `--print-config` has printed them (nothing to serve)."""
    serve = parser.command_parser(args)
    assert isinstance(serve, Parser)
    if args.config is not None:
        args = with_config(parser, serve, argv, args)
    if args.print_config:
        print(printed(serve, args))
        return None
    return args


def with_config(parser: Parser, serve: Parser, argv: Sequence[str],
                args: argparse.Namespace) -> argparse.Namespace:
    """`args` again, with the file `args.config` as the defaults under the
    command line. The serve parser's `error` (one line, exit 2) for a file
    that cannot be read or holds what is not a setting."""
    path = Path(args.config)
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        serve.error(f"--config {path}: {exc.strerror or exc}")
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        serve.error(f"--config {path}: not TOML: {exc}")
    known = settings(serve)
    defaults: dict[str, object] = {}
    for key, value in table.items():
        action = known.get(key)
        if action is None:
            near = difflib.get_close_matches(key, list(known), n=1)
            serve.error(f"--config {path}: no setting is called {key!r}"
                        + (f" (did you mean {near[0]!r}?)" if near else ""))
        try:
            defaults[action.dest] = _checked(action, value)
        except (argparse.ArgumentTypeError, TypeError, ValueError) as exc:
            serve.error(f"--config {path}: {key}: {exc}")
    _check_exclusive(serve, path, table)
    for group in serve.exclusive_options():  # the command line wins here too:
        given = [key for key in group           # --authorized-keys over the file's open
                 if getattr(args, known[key].dest) != serve.get_default(known[key].dest)]
        if given:
            for key in group:
                if key not in given:
                    defaults.pop(known[key].dest, None)
    serve.set_defaults(**defaults)
    return parser.parse_args(list(argv))


def _checked(action: argparse.Action, value: object) -> object:
    """`value` from the file, as the command line would have made it."""
    if action.nargs == 0:  # a switch: --open
        if not isinstance(value, bool):
            raise TypeError("give true or false")
        return value if action.const is True else not value
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise TypeError(f"give a number or a string, not {_kind(value)}")
    text = str(value)
    if action.type in (int, float):  # their own words name Python, not the setting
        try:
            return action.type(text)
        except ValueError:
            raise ValueError(f"{text!r} is not "
                             f"{'a whole number' if action.type is int else 'a number'}"
                             ) from None
    result: object = action.type(text) if callable(action.type) else text
    if action.choices is not None and result not in action.choices:
        raise ValueError(f"{text!r} is not one of {', '.join(map(str, action.choices))}")
    return result


def _kind(value: object) -> str:
    return {bool: "true or false", list: "a list", dict: "a table"}.get(type(value),
                                                                       type(value).__name__)


def _check_exclusive(serve: Parser, path: Path, table: dict[str, object]) -> None:
    """What the command line refuses together (--open with
    --authorized-keys), the file refuses too."""
    for group in serve.exclusive_options():
        named = [key for key in group if key in table]
        if len(named) > 1:
            serve.error(f"--config {path}: {named[0]} and {named[1]} cannot both be set")


def printed(serve: Parser, args: argparse.Namespace) -> str:
    """The settings in force, as a config file says them; those with no
    value written as comments."""
    lines = ["# crib3 serve's settings in force (crib3 serve --config FILE reads this)"]
    for key, action in settings(serve).items():
        value = getattr(args, action.dest, None)
        if action.nargs == 0:
            value = bool(value) if action.const is True else not value
        if value is None:
            lines.append(f"# {key} =")
        else:
            lines.append(f"{key} = {_toml(value)}")
    return "\n".join(lines)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):  # 120, not 120.0: as the help writes it
        if not math.isfinite(value):
            return json.dumps(str(value))
        return str(int(value)) if value.is_integer() else repr(value)
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string
