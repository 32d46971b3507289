"""What a command-line program owes the people and the packagers who use it:
`crib3 paths` (where its files live), `crib3 completion SHELL` (the shell's
completion, shtab's, from the same parser), and `crib3 man` (its manual
page, argparse-manpage's, from the same parser): nothing to keep in step
by hand. (The parser is handed over as `args.whole_parser`: the grammar
imports these commands, not the other way round.)
"""

from __future__ import annotations

import argparse
from pathlib import Path

from crib3.common.exits import EXIT_OK

SHELLS = ("bash", "zsh", "tcsh")


def places() -> list[tuple[str, Path, str]]:
    """Each kind of file crib3 keeps: (what, where, a few words)."""
    from crib3.common.crash import ERRORS_LOG
    from crib3.common.paths import cache_dir, config_dir, data_dir, games_dir
    from crib3.tui.settings import settings_path

    config, data = config_dir(), data_dir()
    return [
        ("settings", settings_path(), "the choices on the new-game screen, the theme"),
        ("games", games_dir(), "every game, saved as it is played; crib3 games lists them"),
        ("errors", data / ERRORS_LOG, "an unexpected error's details"),
        ("cache", cache_dir(), "only to be faster: safe to delete"),
        ("host key", config / "ssh_host_ed25519_key", "crib3 serve's, made on its first start"),
        ("keys", config / "authorized_keys", "who may come into crib3 serve"),
        ("tables", data / "tables", "crib3 serve's tables, open and closed"),
        ("moderation", data / "tables" / "moderation.json", "crib3 serve's bans, mutes and "
         "message of the day"),
        ("audit", data / "tables" / "audit.jsonl", "every admin's action in crib3 serve"),
        ("ratings", data / "ratings", "the rated games' results and the ratings"),
        ("invites", data / "web", "crib3 serve --web's invite book"),
        ("events", data / "events", "duplicate events, their boards and every play of them; "
         "crib3 event list names them"),
    ]


def cmd_paths(args: argparse.Namespace) -> int:
    """`crib3 paths`: where crib3 keeps each kind of file (CRIB3_HOME, when
    set, holds them all)."""
    found = places()
    width = max(len(what) for what, _, _ in found)
    for what, where, words in found:
        if args.json:
            continue
        print(f"{what:<{width}}  {where}  ({words})")
    if args.json:
        import json

        print(json.dumps({what: str(where) for what, where, _ in found}, indent=2))
    return EXIT_OK


def cmd_completion(args: argparse.Namespace) -> int:
    """`crib3 completion SHELL`: the completion script for SHELL, from the
    parser every command reads."""
    import shtab

    print(shtab.complete(args.whole_parser(), shell=args.shell))
    return EXIT_OK


def cmd_man(args: argparse.Namespace) -> int:
    """`crib3 man`: crib3(1) in roff, from the parser every command reads
    (`crib3 man > crib3.1; man ./crib3.1`)."""
    from argparse_manpage.manpage import Manpage  # type: ignore[import-untyped]  # no stubs

    from crib3 import __version__

    page = Manpage(args.whole_parser(), format="single-commands-section")
    page.source = f"crib3 {__version__}"  # (its documented way: attributes, not _data)
    page.manual = "crib3 Manual"
    page.description = "three-player cribbage for the terminal"
    print(str(page), end="")
    return EXIT_OK
