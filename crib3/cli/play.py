"""`crib3 play` and `crib3 resume`: a game at the table, new or saved.

`crib3` with nothing after it, the usual start, is `crib3 play` with its
defaults (`play_defaults`), read without argparse: this module imports only
what that start needs, and the game's own modules (Textual, the engine)
inside the commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from crib3.cli.failures import CannotRun, UsageError, report_log_error, warn
from crib3.cli.levels import read_levels
from crib3.cli.output import ascii_wanted, full_screen_or_exit, run_app

if TYPE_CHECKING:
    import argparse


def cmd_play(args: argparse.Namespace) -> int:
    from crib3.tui.settings import load_choices

    choices = load_choices()
    skip_screen = any(x is not None for x in (args.players, args.seed, args.name)) or any(
        (args.skunks, args.muggins, args.pegging_claims, args.short))
    if args.players is not None:
        choices.left, choices.right = read_levels(args.players, 2, "your two opponents",
                                                  "standard,expert")
    if args.name is not None:
        from crib3.common.names import check_name

        try:
            choices.name = check_name(args.name)
        except ValueError as exc:
            raise UsageError(f"--name: {exc}") from None
    choices.seed = args.seed
    choices.skunks = choices.skunks or args.skunks
    choices.muggins = choices.muggins or args.muggins is not None or args.pegging_claims
    if args.muggins is not None:  # (`--muggins` alone: the friendly rule, as it always was)
        choices.muggins_rule = args.muggins
    choices.pegging_claims = choices.pegging_claims or args.pegging_claims
    choices.short = choices.short or args.short
    full_screen_or_exit("crib3 sim plays without one")
    if not args.no_save:
        from crib3.common.paths import games_dir

        check_can_save(games_dir())
    from crib3.tui.app import Crib3App

    if args.think is not None:  # one setting: this run's pace is also the new-game screen's
        choices.think = args.think
    return run_app(Crib3App(choices if skip_screen else None, ascii=ascii_wanted(args),
                            think=choices.think, autosave=not args.no_save))


def cmd_resume(args: argparse.Namespace) -> int:
    from crib3.common.names import shown_name
    from crib3.engine.log import LogError
    from crib3.saved.games import find_unfinished, open_for_resume

    if args.log:
        from crib3.saved.games import find_game

        path: Path | None = find_game(args.log)
    else:
        path, passed = find_unfinished()
        warn("resume", [f"{problem}; skipped" for problem in passed])
    if path is None:
        raise UsageError("there is no unfinished game to resume")
    try:
        game = open_for_resume(path)
    except LogError as exc:
        return report_log_error(exc, "resume")
    if game.problem:
        warn("resume", [game.problem])
    state = game.state
    if state.winner is not None:
        raise UsageError(f"{path}: the game is finished: "
                         f"{shown_name(state.name(state.winner))} won")
    if not state.players or not state.players[0].is_human:
        raise UsageError(f"{path}: no person in the first seat to play it")
    full_screen_or_exit()
    if not args.no_save:
        check_can_save(game.path.parent, game.path)
        game.keep()
    warn("resume", game.notes)
    from crib3.engine import Game
    from crib3.tui.app import Crib3App
    from crib3.tui.settings import load_choices

    think = args.think if args.think is not None else load_choices().think
    return run_app(Crib3App(ascii=ascii_wanted(args), think=think,
                            game=Game.from_events(game.events, takebacks=True),
                            resume_path=game.path,
                            autosave=not args.no_save))


def check_can_save(folder: Path, file: Path | None = None) -> None:
    """Refuse to start a game that could not be saved, before it starts: a
    new game in `folder`, or (with `file`) one that goes on in that file
    (tried for appending when it is there, never made empty when not)."""
    from crib3.common.paths import unwritable

    reason = unwritable(folder, file if file is not None and file.exists() else None)
    if reason:
        where, go = (f"the game in {file}", "play on") if file else (f"games in {folder}", "play")
        raise CannotRun(f"cannot save {where}: {reason}; use --no-save to {go} without saving")


def play_defaults() -> argparse.Namespace:
    """What `crib3.cli.parser.play_alone_parser().parse_args([])` gives,
    without argparse (a test holds the two equal): `crib3` alone needs no
    parsing, and importing argparse and building a parser would delay the
    first screen (assets/measurements/command-line.md)."""
    from types import SimpleNamespace

    defaults = SimpleNamespace(players=None, seed=None, name=None, skunks=False,
                               muggins=None, pegging_claims=False, short=False, ascii=False,
                               think=None, no_save=False, run=cmd_play, command="play")
    return defaults  # type: ignore[return-value]  # a SimpleNamespace, not argparse's
