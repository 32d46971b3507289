"""`crib3 serve`: the card room, from the command line.

This module checks the arguments and says in one line what is wrong, before
anything listens; what makes a keys file usable, and the host key, is the
SSH side's (`crib3.net.keys`), and the server itself is `crib3.net.server`,
handed the lobby's app (`CardRoomApp`) as the app each session runs. Only
`crib3.net` speaks SSH: nothing here imports asyncssh.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from crib3.cli.failures import CannotRun, UsageError
from crib3.common.exits import EXIT_OK

if TYPE_CHECKING:
    import argparse


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    from crib3.common.paths import data_dir
    from crib3.net import keys

    if args.port < 0 or args.port > 65535:
        raise UsageError(f"--port {args.port}: a port is 0 to 65535")
    authorized = None
    if not args.open:
        authorized = Path(args.authorized_keys) if args.authorized_keys else \
            keys.default_authorized_keys()
        if not authorized.is_file():
            raise UsageError(f"no authorized keys at {authorized}: put your friends' public "
                             "keys there (one per line), give --authorized-keys FILE, or --open")
        loose = keys.keys_file_too_open(authorized)
        if loose:
            raise CannotRun(f"will not trust the authorized keys: {loose}")
        problem = keys.authorized_keys_problem(authorized)
        if problem:  # it is read again for every connection: it may be mended live
            print(f"warning: nobody can sign in: {authorized} {problem}", file=sys.stderr)
    admins = _admins_file(args.admins, args.open) if args.admins else None
    from crib3.net.server import CannotServe, ServeOptions, default_workers, serve
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp

    from crib3.net.gate import Limits, parse_startups

    try:
        start, rate, full = parse_startups(args.max_startups)
    except ValueError as exc:
        raise UsageError(f"--max-startups {args.max_startups}: {exc}") from None
    limits = Limits(start=start, rate=rate, full=full, per_address=args.per_address,
                    auth_tries=args.auth_tries, login_grace=args.login_grace)
    options = ServeOptions(host=args.host, port=args.port, authorized_keys=authorized,
                           open_door=args.open, think=args.think, admins=admins,
                           workers=args.workers or default_workers(),
                           limits=limits, lobby_idle=args.lobby_idle,
                           host_key=Path(args.host_key) if args.host_key else
                           keys.default_host_key())
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                        datefmt="%H:%M:%S", stream=sys.stderr)
    try:
        host_key = keys.host_key_at(options.host_key)  # type: ignore[arg-type]
    except (ValueError, OSError) as exc:
        raise UsageError(f"cannot use the host key {options.host_key}: {exc}") from None

    def say(line: str) -> None:
        try:
            print(line, file=sys.stderr, flush=True)
        except OSError:  # the console is gone: players still get their farewells
            _console_gone()

    room = Room(data_dir() / "tables", think=args.think, patience=args.patience,
                idle_close=args.idle_close, tables_per_key=args.tables_per_key,
                names_per_key=args.names_per_key)
    try:
        asyncio.run(serve(options, room, host_key, CardRoomApp, say))
    except CannotServe as exc:
        raise CannotRun(str(exc)) from None
    return EXIT_OK


def _admins_file(name: str, open_door: bool) -> Path:
    """The --admins file, checked before the server starts: it must hold
    keys and be readable (else exit 2), and nobody but its owner may write
    it (StrictModes, as for the authorized keys). It is read again for
    every connection, like the authorized keys."""
    from crib3.net import keys

    if open_door:
        raise UsageError("--admins needs keys, and --open asks for none: "
                         "give --authorized-keys FILE instead of --open")
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"--admins {path}: no such file")
    loose = keys.keys_file_too_open(path)
    if loose:
        raise CannotRun(f"will not trust the admins' keys: {loose}")
    problem = keys.authorized_keys_problem(path)
    if problem:
        raise UsageError(f"--admins {path} {problem}")
    return path


def _console_gone() -> None:
    """The server's console can no longer be written to (`crib3 serve 2>&1 |
    tee log`, then Ctrl-C: the shell's SIGINT ends tee too). From now on what
    the server would say, its log lines included, goes nowhere, rather than
    raising in the middle of saying goodbye to every player."""
    nowhere = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(nowhere, sys.stderr.fileno())
    finally:
        os.close(nowhere)
