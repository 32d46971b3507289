"""The `crib3` command and its subcommands.

Heavy modules (the engine's simulator, Rich, later Textual) are imported
inside the subcommand that needs them, so `crib3 --help` and `crib3 score`
start fast. Every failure a user can cause ends in one line on stderr and a
non-zero exit code, never a traceback.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crib3 import __version__
from crib3.common import startup_gc
from crib3.common.exits import EXIT_INVALID, EXIT_OK, EXIT_USAGE

if TYPE_CHECKING:
    import argparse

    from crib3.engine.log import LogError
    from crib3.tui.app import Crib3App

# argparse is imported where parsers are built: `crib3` alone, the usual
# start, needs none (importing it and building play's parser took ~9 ms of
# the time to the first screen, issue 12 point 18).


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


def _check_can_save(folder: Path, file: Path | None = None) -> None:
    """Refuse to start a game that could not be saved, before it starts: a
    new game in `folder`, or (with `file`) one that goes on in that file
    (tried for appending when it is there, never made empty when not)."""
    from crib3.common.paths import unwritable

    reason = unwritable(folder, file if file is not None and file.exists() else None)
    if reason:
        where, go = (f"the game in {file}", "play on") if file else (f"games in {folder}", "play")
        raise CannotRun(f"cannot save {where}: {reason}; use --no-save to {go} without saving")


def _run_app(app: Crib3App) -> int:
    """Run a full-screen app, and turn the way it ended into an exit code:
    a save that failed and an unexpected error each end in one line."""
    app.run()
    if app.save_failed is not None:
        failed = app.save_failed
        raise CannotRun(f"cannot save to {failed.path}: {failed.error.strerror or failed.error}; "
                        "the game is saved up to the last move: `crib3 resume` goes on once "
                        "that is mended (free some space)")
    if app.crash is not None:
        raise Crashed(app.crash, app.log_path if app.autosave and app.game is not None else None)
    if app.left_saved:
        from crib3.tui.app import SAVED_LINE

        print(SAVED_LINE)
    return EXIT_OK


def _ascii_wanted(args: argparse.Namespace) -> bool:
    """--ascii, or a terminal whose locale is not UTF-8 (decided from the
    locale the shell set, not from Python's stream encoding: with LANG=C
    Python itself writes UTF-8, which such a terminal cannot show)."""
    from crib3.common.terminal import speaks_utf8, startup_environ

    return bool(getattr(args, "ascii", False)) or not speaks_utf8(startup_environ())


def _full_screen_or_exit(instead: str = "") -> None:
    """Before a command opens a screen: with no terminal to draw on (stdin,
    stdout or stderr not a tty, TERM unset or dumb) say so in one line
    ("crib3 play: needs a full-screen terminal (TERM is dumb)") and exit 1,
    drawing nothing. `instead`: what to use without one."""
    import os

    from crib3.common.terminal import full_screen_problem

    problem = full_screen_problem(os.environ, sys.stdin, sys.stdout, sys.stderr)
    if problem is not None:
        raise CannotRun(f"needs a full-screen terminal ({problem})"
                        + (f"; {instead}" if instead else ""))


def _report_log_error(exc: LogError, command: str) -> int:
    """One line for a log that cannot be used, in the style every command
    that reads logs shares: `crib3 CMD: FILE:LINE: reason` for a bad log
    (exit 1), `crib3 CMD: FILE: reason` for one that cannot be opened, such
    as a missing file (exit 2)."""
    print(f"crib3 {command}: {exc}", file=sys.stderr)
    return EXIT_INVALID if exc.line else EXIT_USAGE


def _warn(command: str, warnings: Sequence[str]) -> None:
    for warning in warnings:
        print(f"crib3 {command}: warning: {warning}", file=sys.stderr)


# --- crib3 score -----------------------------------------------------------------


def cmd_score(args: argparse.Namespace) -> int:
    from crib3.cards import format_cards, parse_cards
    from crib3.scoring import score_hand
    from crib3.words.speech import say_hand_line

    try:
        cards = parse_cards(" ".join(args.cards))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if len(cards) != 5:
        raise UsageError(f"give four cards and the starter (five in all), not {len(cards)}")
    if len(set(cards)) != 5:
        twice = next(c for c in cards if cards.count(c) > 1)
        raise UsageError(f"{twice} is there twice: a deck has one of each card")
    hand, starter = cards[:4], cards[4]
    score = score_hand(hand, starter, crib=args.crib)
    said = say_hand_line(score)
    if args.json:
        from crib3.engine.codec import encode_value

        print(json.dumps({
            "hand": [str(c) for c in hand],
            "starter": str(starter),
            "crib": args.crib,
            "total": score.total,
            "items": [encode_value(item) for item in score.items],
            "said": said,
        }))
        return EXIT_OK
    ascii_only = _ascii_wanted(args)
    what = "crib" if args.crib else "hand"
    print(f"{format_cards(hand, ascii_only)} with {starter.label(ascii_only)} ({what})")
    for item in score.items:
        print(f"  {item.kind:<8} {format_cards(item.cards, ascii_only):<18} {item.points:>2}")
    print(said)
    print(f"total {score.total}")
    return EXIT_OK


# --- crib3 sim ---------------------------------------------------------------------


def _levels(text: str, count: int, who: str, example: str, hidden: bool = False,
            option: str = "--players") -> list[str]:
    """Bot levels from "a,b,c", checked: `count` of them, each one we have
    (with `hidden`, also the levels kept for `crib3 sim` alone)."""
    from crib3.common.levels import BOT_LEVELS, SIM_ONLY_LEVELS

    known = (*BOT_LEVELS, *SIM_ONLY_LEVELS) if hidden else BOT_LEVELS
    levels = [p.strip().lower() for p in text.split(",") if p.strip()]
    if len(levels) != count:
        raise UsageError(f"{option} names {who}, like {example} (got {text!r})")
    for level in levels:
        if hidden and level.startswith("expert:"):  # a variant of the expert, for sim alone
            from crib3.players.expert import variant_style

            try:
                variant_style(level)
            except ValueError as error:
                raise UsageError(str(error)) from None
            continue
        if level not in known:
            raise UsageError(f"unknown player level {level!r} (choose from "
                             + ", ".join(known) + ")")
    return levels


def cmd_sim(args: argparse.Namespace) -> int:
    from crib3.engine import Rules
    from crib3.study import sim

    if args.log_dir is not None and Path(args.log_dir).exists() \
            and not Path(args.log_dir).is_dir():
        raise UsageError(f"--log-dir {args.log_dir}: that is a file; give a folder")
    rules = Rules(target=61 if args.short else 121, skunks=args.skunks)
    show_progress = sys.stderr.isatty() and not args.quiet
    if args.duplicate is not None:
        return _sim_duplicate(args, rules, show_progress)
    levels = _levels(args.players, 3, "three levels", "easy,easy,easy", hidden=True)
    jobs = args.jobs if args.jobs else sim.default_jobs(args.games)
    timing = {"max_seconds": args.max_seconds, "report_every": args.progress_every}
    if show_progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("playing", total=args.games)
            summary = sim.run(levels, args.games, args.seed, rules, args.log_dir, jobs,
                              progress=lambda n: bar.advance(task, n),
                              report=_progress_line(sim.format_progress, bar.console), **timing)
    else:
        summary = sim.run(levels, args.games, args.seed, rules, args.log_dir, jobs,
                          report=None if args.quiet else _progress_line(sim.format_progress),
                          **timing)
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(sim.format_summary(summary))
    return EXIT_OK


def _progress_line(say: Callable[[Any], str], console: Any = None) -> Callable[[Any], None]:
    """A `report` for a sim run: how it stands in one line on stderr (above
    the progress bar when there is one), so a long run in the background
    can be watched, and stopped, knowing where it stood."""
    def report(summary: Any) -> None:
        if console is not None:
            console.print(say(summary), markup=False, highlight=False)
        else:
            print(say(summary), file=sys.stderr, flush=True)
    return report


def _sim_duplicate(args: argparse.Namespace, rules: object, show_progress: bool) -> int:
    """`crib3 sim --duplicate A,B`: --games deal sets, each played in six seatings."""
    from crib3.study import duplicate, sim

    a, b = _levels(args.duplicate, 2, "two levels", "expert,expert-2026-12", hidden=True,
                   option="--duplicate")
    jobs = args.jobs if args.jobs else sim.default_jobs(args.games * len(duplicate.SEATINGS))
    timing = {"max_seconds": args.max_seconds, "report_every": args.progress_every}
    if show_progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress("[progress.description]{task.description}", BarColumn(),
                      MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("playing", total=args.games * len(duplicate.SEATINGS))
            summary = duplicate.run(a, b, args.games, args.seed, rules, args.log_dir,  # type: ignore[arg-type]
                                    jobs, progress=lambda n: bar.advance(task, n),
                                    report=_progress_line(duplicate.format_progress, bar.console),
                                    **timing)
    else:
        summary = duplicate.run(a, b, args.games, args.seed, rules, args.log_dir, jobs,  # type: ignore[arg-type]
                                report=None if args.quiet
                                else _progress_line(duplicate.format_progress), **timing)
    if args.json:
        print(json.dumps(summary.to_json()))
    else:
        print(duplicate.format_summary(summary))
    return EXIT_OK


# --- crib3 play ---------------------------------------------------------------------


def cmd_play(args: argparse.Namespace) -> int:
    from crib3.tui.settings import load_choices

    choices = load_choices()
    skip_screen = any(x is not None for x in (args.players, args.seed, args.name)) or any(
        (args.skunks, args.muggins, args.short))
    if args.players is not None:
        choices.left, choices.right = _levels(args.players, 2, "your two opponents",
                                              "standard,expert")
    if args.name is not None:
        from crib3.common.names import check_name

        try:
            choices.name = check_name(args.name)
        except ValueError as exc:
            raise UsageError(f"--name: {exc}") from None
    choices.seed = args.seed
    choices.skunks = choices.skunks or args.skunks
    choices.muggins = choices.muggins or args.muggins
    choices.short = choices.short or args.short
    _full_screen_or_exit("crib3 sim plays without one")
    if not args.no_save:
        from crib3.common.paths import games_dir

        _check_can_save(games_dir())
    from crib3.tui.app import Crib3App

    if args.think is not None:  # one setting: this run's pace is also the new-game screen's
        choices.think = args.think
    return _run_app(Crib3App(choices if skip_screen else None, ascii=_ascii_wanted(args),
                             think=choices.think, autosave=not args.no_save))


# --- saved games: games, resume, export, stats ---------------------------------------


def cmd_games(args: argparse.Namespace) -> int:
    from crib3.common.names import shown_name
    from crib3.saved.games import list_games

    games = list_games()
    if not games:
        print("No saved games yet: play one with `crib3`.")
        return EXIT_OK
    for saved in games:
        name = saved.path.name
        if saved.problem:
            print(f"{name}  unreadable: {saved.problem}")
            continue
        scores = "-".join(str(x) for x in saved.scores)
        if saved.winner is not None:
            outcome = f"won by {shown_name(saved.name(saved.winner))} {scores}"
        else:
            outcome = f"unfinished, hand {saved.hand_number}, {scores}"
        when = saved.created.replace("T", " ")[:16]
        players = ", ".join(f"{shown_name(p.name)} ({shown_name(p.kind)})" for p in saved.players)
        print(f"{when}  {players}  {outcome}  [{name}]")
    return EXIT_OK


def cmd_resume(args: argparse.Namespace) -> int:
    from pathlib import Path

    from crib3.common.names import shown_name
    from crib3.engine.log import LogError
    from crib3.saved.games import find_unfinished, open_for_resume

    if args.log:
        path: Path | None = Path(args.log)
    else:
        path, passed = find_unfinished()
        _warn("resume", [f"{problem}; skipped" for problem in passed])
    if path is None:
        raise UsageError("there is no unfinished game to resume")
    try:
        game = open_for_resume(path)
    except LogError as exc:
        return _report_log_error(exc, "resume")
    if game.problem:
        _warn("resume", [game.problem])
    state = game.state
    if state.winner is not None:
        raise UsageError(f"{path}: the game is finished: "
                         f"{shown_name(state.name(state.winner))} won")
    if not state.players or not state.players[0].is_human:
        raise UsageError(f"{path}: no person in the first seat to play it")
    _full_screen_or_exit()
    if not args.no_save:
        _check_can_save(game.path.parent, game.path)
        game.keep()
    _warn("resume", game.notes)
    from crib3.engine import Game
    from crib3.tui.app import Crib3App
    from crib3.tui.settings import load_choices

    think = args.think if args.think is not None else load_choices().think
    return _run_app(Crib3App(ascii=_ascii_wanted(args), think=think,
                             game=Game.from_events(game.events), resume_path=game.path,
                             autosave=not args.no_save))


def cmd_export(args: argparse.Namespace) -> int:
    from crib3.engine.log import LogError, event_line, load_log
    from crib3.saved.games import transcript

    try:
        loaded = load_log(args.log)
    except LogError as exc:
        return _report_log_error(exc, "export")
    _warn("export", loaded.warnings)
    if args.json:
        print(json.dumps(loaded.header, ensure_ascii=False))
        for event in loaded.events:
            print(event_line(event))
    else:
        sys.stdout.write(transcript(loaded.events, ascii=_ascii_wanted(args)))
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    from crib3.engine.log import LogError, load_log
    from crib3.saved.replay import Replay

    try:
        events = load_log(args.log).events
    except LogError as exc:
        if not exc.line or not exc.valid:
            return _report_log_error(exc, "replay")
        _warn("replay", [f"{exc}; replaying the {len(exc.valid)} valid events before it"])
        events = list(exc.valid)
    _full_screen_or_exit("crib3 export tells a game in words")
    from crib3.tui.app import Crib3App

    app = Crib3App(ascii=_ascii_wanted(args), replay=Replay(events), autosave=False)
    app.replay_coach = args.coach
    return _run_app(app)


def cmd_review(args: argparse.Namespace) -> int:
    """Every decision of a seat in a saved game against the coach's best
    (crib3.study.review). A log that cannot be used is told as replay tells it;
    a seat or name that is not at the table is bad usage (exit 2)."""
    from crib3.common.names import shown_name
    from crib3.engine.log import LogError, load_log
    from crib3.study.review import format_review, review_events, review_json, reviewed_seats

    try:
        loaded = load_log(args.log)
        events = loaded.events
    except LogError as exc:  # as replay: a damaged game is reviewed up to its last good line
        if not exc.line or not exc.valid:
            return _report_log_error(exc, "review")
        _warn("review", [f"{exc}; reviewing the {len(exc.valid)} valid events before it"])
        events = list(exc.valid)
    else:
        _warn("review", loaded.warnings)
    from crib3.engine import fold

    players = fold(events).players
    names = [shown_name(p.name) for p in players]
    if args.seat is not None:
        if not 0 <= args.seat < len(players):
            raise UsageError(f"--seat {args.seat}: the seats are 0, 1 and 2 "
                             f"({', '.join(f'{s} {n}' for s, n in enumerate(names))})")
        seats = [args.seat]
    elif args.name is not None:
        seats = [s for s, p in enumerate(players) if p.name.casefold() == args.name.casefold()]
        if not seats:
            raise UsageError(f"--name {shown_name(args.name)}: nobody of that name at the "
                             f"table ({', '.join(names)})")
    else:
        seats = reviewed_seats(players)
    reviews = [review_events(events, seat) for seat in seats]
    if args.json:  # one object a seat, one a line
        for review in reviews:
            print(json.dumps(review_json(review), ensure_ascii=False))
        return EXIT_OK
    ascii_only = _ascii_wanted(args)
    print("\n".join(format_review(review, names, ascii_only) for review in reviews), end="")
    return EXIT_OK


def cmd_practice(args: argparse.Namespace) -> int:
    """A discard or pegging trainer (crib3.study.practice): positions dealt from
    --seed, or the player's own costliest decisions in their saved games."""
    from crib3.study.practice import dealt_positions, own_positions

    kind = "play" if args.pegging else "discard"
    if args.from_games:
        from crib3.saved.games import saved_paths

        positions = own_positions(saved_paths(), kind)
        if not positions:
            raise UsageError("no costly " + ("plays" if args.pegging else "discards")
                             + " of yours in your saved games yet: play a game first, "
                               "or practise on dealt positions")
        chosen = iter(positions)
    else:
        chosen = dealt_positions(kind, args.seed)
    _full_screen_or_exit("crib3 review tells a saved game's decisions in words")
    from crib3.tui.practice_app import PracticeApp

    app = PracticeApp(kind, chosen, ascii=_ascii_wanted(args))
    app.run()
    if app.crash is not None:
        raise Crashed(app.crash)
    return EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    """Statistics over the saved games (or the files named). A file that
    cannot be read is told in verify's words and left out; when it was
    named on the command line, the exit status says so as verify's does."""
    from pathlib import Path

    from crib3.saved.games import format_stats, saved_paths, stats_cache_file, stats_from_files

    paths = [Path(p) for p in args.logs] if args.logs else saved_paths()
    stats, problems = stats_from_files(paths, cache=None if args.logs else stats_cache_file())
    status = EXIT_OK
    for problem in problems:
        if args.logs:
            status = max(status, _report_log_error(problem, "stats"))
        else:
            print(f"crib3 stats: {problem}; skipped", file=sys.stderr)
    from crib3.saved.progress import format_progress, progress_cache_file, progress_from_files

    progress = progress_from_files(paths, cache=None if args.logs else progress_cache_file())
    if args.json:
        from dataclasses import asdict

        from crib3.saved.progress import progress_json

        print(json.dumps({"players": [asdict(s) for s in stats],
                          "progress": progress_json(progress)}, ensure_ascii=False))
        return status
    if stats or not args.logs:
        print(format_stats(stats))
    if stats:
        print()
        print(format_progress(progress, _ascii_wanted(args)))
    return status


# --- crib3 verify ------------------------------------------------------------------


def cmd_verify(args: argparse.Namespace) -> int:
    from crib3.common.names import shown_name
    from crib3.engine.log import LogError, load_log

    status = EXIT_OK
    for path in args.logs:
        try:
            loaded = load_log(path, keep_events=False)
        except LogError as exc:
            status = max(status, _report_log_error(exc, "verify"))
            continue
        _warn("verify", loaded.warnings)
        state = loaded.state
        if state.winner is not None:
            scores = "-".join(str(s) for s in state.scores)
            outcome = f"won by {shown_name(state.name(state.winner))} {scores}"
        else:
            outcome = f"unfinished, hand {state.hand_number}"
        print(f"{path}: valid, {loaded.count} events, {outcome}")
    return status


def _admins_file(name: str, open_door: bool) -> Path:
    """The --admins file, checked before the server starts: it must hold
    keys and be readable (else exit 2), and nobody but its owner may write
    it (StrictModes, as for the authorized keys). It is read again for
    every connection, like the authorized keys."""
    from crib3.net.keys import authorized_keys_problem, keys_file_too_open

    if open_door:
        raise UsageError("--admins needs keys, and --open asks for none: "
                         "give --authorized-keys FILE instead of --open")
    path = Path(name)
    if not path.is_file():
        raise UsageError(f"--admins {path}: no such file")
    loose = keys_file_too_open(path)
    if loose:
        raise CannotRun(f"will not trust the admins' keys: {loose}")
    problem = authorized_keys_problem(path)
    if problem:
        raise UsageError(f"--admins {path} {problem}")
    return path


def cmd_serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging
    from pathlib import Path

    from crib3.common.paths import data_dir
    from crib3.net import keys as door

    if args.port < 0 or args.port > 65535:
        raise UsageError(f"--port {args.port}: a port is 0 to 65535")
    keys = None
    if not args.open:
        keys = Path(args.authorized_keys) if args.authorized_keys else \
            door.default_authorized_keys()
        if not keys.is_file():
            raise UsageError(f"no authorized keys at {keys}: put your friends' public keys "
                             "there (one per line), give --authorized-keys FILE, or --open")
        loose = door.keys_file_too_open(keys)
        if loose:
            raise CannotRun(f"will not trust the authorized keys: {loose}")
        problem = door.authorized_keys_problem(keys)
        if problem:  # it is read again for every connection: it may be mended live
            print(f"warning: nobody can sign in: {keys} {problem}", file=sys.stderr)
    admins = _admins_file(args.admins, args.open) if args.admins else None
    from crib3.net.server import CannotServe, ServeOptions, default_workers, serve
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp

    options = ServeOptions(host=args.host, port=args.port, authorized_keys=keys,
                           open_door=args.open, think=args.think, admins=admins,
                           workers=args.workers or default_workers(),
                           host_key=Path(args.host_key) if args.host_key else
                           door.default_host_key())
    logging.getLogger("asyncssh").setLevel(logging.WARNING)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s",
                        datefmt="%H:%M:%S", stream=sys.stderr)
    try:
        host_key = door.host_key_at(options.host_key)  # type: ignore[arg-type]
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


# --- the parser --------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    from crib3.common.arguments import Parser, at_least_one, seconds, zero_or_more

    parser = Parser(
        prog="crib3",
        description="Three-player cribbage. With no command, opens the game (crib3 play).",
    )
    parser.add_argument("--version", action="version", version=f"crib3 {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    score = commands.add_parser(
        "score", help="count a hand: four cards, then the starter",
        description="Count a hand as a player says it. The last card is the starter.",
        epilog="example: crib3 score 5H 5C 5S JD 5D   (the 29 hand)")
    score.add_argument("cards", nargs="+", metavar="CARD",
                       help="ranks A 2-10 T J Q K, suits S H D C or ♠ ♥ ♦ ♣, like 10H")
    score.add_argument("--crib", action="store_true", help="count as a crib (five-card flush only)")
    score.add_argument("--json", action="store_true", help="print JSON for programs")
    score.add_argument("--ascii", action="store_true", help="suits as letters, not symbols")
    score.set_defaults(run=cmd_score)

    sim = commands.add_parser(
        "sim", help="play games between computer players and summarize them",
        description="Headless games between computer players. Seats rotate from game to "
                    "game; the same --seed gives the same games.")
    sim.add_argument("--games", type=at_least_one, default=100, metavar="N", help="how many (100)")
    sim.add_argument("--seed", type=int, default=None, metavar="S", help="for repeatable games")
    sim.add_argument("--players", default="easy,easy,easy", metavar="A,B,C",
                     help="three levels, comma-separated (easy,easy,easy)")
    sim.add_argument("--log-dir", default=None, metavar="DIR", help="write each game's log here")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument("--jobs", type=at_least_one, default=None, metavar="J",
                     help="worker processes (default: one per core for large runs)")
    sim.add_argument("--short", action="store_true", help="play to 61, not 121")
    sim.add_argument("--skunks", action="store_true", help="record skunks in the game logs")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("--max-seconds", type=float, default=None, metavar="S",
                     help="start no game after S seconds; report the games played")
    sim.add_argument("--progress-every", type=float, default=30.0, metavar="S",
                     help="say how the run stands on stderr every S seconds (30)")
    sim.add_argument("--duplicate", default=None, metavar="A,B",
                     help="head-to-head of two levels: each of --games deal sets is played "
                          "in all six seatings of A and B on the same shuffles")
    sim.set_defaults(run=cmd_sim)

    play = commands.add_parser(
        "play", help="play at the table against two computer players (the default)",
        description="Open the game. With any of the options below the new-game screen is "
                    "skipped; other choices are those you made last time.")
    add_play_options(play)
    play.set_defaults(run=cmd_play)

    games = commands.add_parser("games", help="list saved games",
                                description="Every saved game: when, who, and how it ended.")
    games.set_defaults(run=cmd_games)

    resume = commands.add_parser(
        "resume", help="go on with the most recent unfinished game",
        description="Continue an unfinished game exactly where it stood.")
    resume.add_argument("log", nargs="?", help="a saved game (default: the latest unfinished)")
    resume.add_argument("--ascii", action="store_true", help="suits as S H D C")
    resume.add_argument("--think", type=seconds, default=None, metavar="SECONDS",
                        help="how long computer players take over a move (your "
                        "setting from the new-game screen; 0.6 at first)")
    resume.add_argument("--no-save", action="store_true",
                        help="play on without saving (the file keeps the game as it was)")
    resume.set_defaults(run=cmd_resume)

    replay = commands.add_parser(
        "replay", help="step through a saved game, every hand face up",
        description="Open a saved game in the table's screens. Keys: → ← an event, ] [ a "
                    "hand, Home End, g go to an event, space autoplay (+ - speed), v whose "
                    "view, c the coach (n p costly decisions, t threshold), q quit.")
    replay.add_argument("log", metavar="LOG")
    replay.add_argument("--coach", action="store_true",
                        help="open with the coach on: each decision's cost and ranking")
    replay.add_argument("--ascii", action="store_true", help="suits as S H D C")
    replay.set_defaults(run=cmd_replay)

    review = commands.add_parser(
        "review", help="where the points went: a saved game's decisions against the coach",
        description="Every decision a seat made in a saved game (discards, plays, counts "
                    "and muggins calls), the coach's ranking of each from what that seat "
                    "could see then, and the points given up against the coach's best. "
                    "By default the people at the table (every seat when all three are "
                    "computer players). --json prints one object a seat, one a line.")
    review.add_argument("log", metavar="LOG")
    who = review.add_mutually_exclusive_group()
    who.add_argument("--seat", type=int, default=None, metavar="N",
                     help="the seat to review: 0, 1 or 2 (as in the log)")
    who.add_argument("--name", default=None, help="the player to review, by name")
    review.add_argument("--json", action="store_true", help="print JSON for programs")
    review.add_argument("--ascii", action="store_true", help="suits as S H D C")
    review.set_defaults(run=cmd_review)

    practice = commands.add_parser(
        "practice", help="a discard or pegging trainer: choose, and the coach answers",
        description="Positions from real deals (or, with --from-games, your own costliest "
                    "decisions in your saved games). Choose a card by its number; the "
                    "coach answers with its ranking and why, and keeps a running score "
                    "of the points you gave up. Enter: the next position; q: quit.")
    practice.add_argument("--pegging", action="store_true",
                          help="practise the play (default: the discard)")
    practice.add_argument("--seed", type=int, default=None, metavar="S",
                          help="for the same positions again")
    practice.add_argument("--from-games", action="store_true",
                          help="your own costliest decisions in your last ten saved games")
    practice.add_argument("--ascii", action="store_true", help="suits as S H D C")
    practice.set_defaults(run=cmd_practice)

    export = commands.add_parser(
        "export", help="a saved game as a readable transcript, or as its log",
        description="Write a saved game to standard output: --text (the default) tells it "
                    "in words, hand by hand; --json re-emits the log.")
    export.add_argument("log", metavar="LOG")
    fmt = export.add_mutually_exclusive_group()
    fmt.add_argument("--text", action="store_true", help="a transcript in words (default)")
    fmt.add_argument("--json", action="store_true", help="the log, as JSON Lines")
    export.add_argument("--ascii", action="store_true", help="suits as S H D C")
    export.set_defaults(run=cmd_export)

    stats = commands.add_parser(
        "stats", help="statistics over saved games",
        description="For each player name and level: games, wins, win share, skunks, "
                    "average hand and crib, pegging per hand, best hand, longest streak; "
                    "then, for the people, the points given up to the coach per hand over "
                    "their last 20 games (crib3 review tells one game).")
    stats.add_argument("logs", nargs="*", metavar="LOG",
                       help="saved games (default: all of yours)")
    stats.add_argument("--json", action="store_true",
                       help="print JSON for programs (with the points given up, game by game)")
    stats.add_argument("--ascii", action="store_true", help="plain ASCII bars")
    stats.set_defaults(run=cmd_stats)

    verify = commands.add_parser(
        "verify", help="check saved game logs against the rules",
        description="Re-run every event of each log through the rules. Exit 0 when all "
                    "are valid, 1 with FILE:LINE: reason for a bad log, 2 for bad usage "
                    "(such as a missing file).")
    verify.add_argument("logs", nargs="+", metavar="LOG", help="game log files (.jsonl)")
    verify.set_defaults(run=cmd_verify)

    serve = commands.add_parser(
        "serve", help="host a card room that friends join with ssh",
        description="An SSH server where each connection plays crib3: a lobby of tables, "
                    "three seats each, computer players for empty seats. Players connect "
                    "with: ssh -p PORT NAME@HOST.")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (127.0.0.1; 0.0.0.0 for every network)")
    serve.add_argument("--port", type=int, default=2222, help="port to listen on (2222)")
    serve.add_argument("--host-key", metavar="FILE",
                       help="the server's private key (made on first start if not given)")
    door = serve.add_mutually_exclusive_group()
    door.add_argument("--authorized-keys", metavar="FILE",
                      help="public keys allowed in, OpenSSH format (default: "
                           "authorized_keys in crib3's config folder)")
    door.add_argument("--open", action="store_true",
                      help="let anyone in under any name, with no key (a warning is printed)")
    serve.add_argument("--admins", metavar="FILE",
                       help="public keys (authorized_keys format) of the people who may close "
                            "any table and remove a session; they may also sign in")
    serve.add_argument("--think", type=seconds, default=0.6, metavar="SECONDS",
                       help="how long computer players take over a move (0.6)")
    serve.add_argument("--patience", type=seconds, default=120, metavar="SECONDS",
                       help="how long a player may be gone before anyone at their table "
                            "may give their seat to a computer player (120)")
    serve.add_argument("--idle-close", type=seconds, default=600, metavar="SECONDS",
                       help="a started table with nobody connected this long is saved and "
                            "leaves the lobby; it comes back when one of its players signs in "
                            "again (600)")
    serve.add_argument("--tables-per-key", type=zero_or_more, default=2, metavar="N",
                       help="how many tables one person may own at once: one key, or under "
                            "--open one client address, loopback not counted "
                            "(2; 0: no limit)")
    serve.add_argument("--names-per-key", type=zero_or_more, default=3, metavar="N",
                       help="how many names one person may be signed in under at once: one "
                            "key, or under --open one client address, loopback not counted "
                            "(3; 0: no limit)")
    serve.add_argument("--workers", type=at_least_one, default=None, metavar="N",
                       help="processes the sessions' screens run in, beside the one that "
                            "holds the room (default: one per core; 1: everything in one "
                            "process)")
    serve.set_defaults(run=cmd_serve)
    return parser


def add_play_options(parser: argparse.ArgumentParser) -> None:
    from crib3.common.arguments import seconds

    parser.add_argument("--players", default=None, metavar="L,R",
                        help="your opponents' levels: easy, standard or expert")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="for a repeatable game")
    parser.add_argument("--name", default=None, help="your name at the table")
    parser.add_argument("--skunks", action="store_true", help="play with skunks")
    parser.add_argument("--muggins", action="store_true",
                        help="count your own hands; a short count can be claimed")
    parser.add_argument("--short", action="store_true", help="play to 61")
    parser.add_argument("--ascii", action="store_true",
                        help="suits as S H D C and plain ASCII drawing")
    parser.add_argument("--think", type=seconds, default=None, metavar="SECONDS",
                        help="how long computer players take over a move (your "
                        "setting from the new-game screen; 0.6 at first)")
    parser.add_argument("--no-save", action="store_true", help="do not save this game")


def play_alone_parser() -> argparse.ArgumentParser:
    """`crib3 play`'s options alone, read as the whole parser reads them:
    `crib3` with nothing after it, the usual start, is parsed by this
    (building every command's parser took milliseconds of the time to the
    first screen, issue 12 point 18)."""
    from crib3.common.arguments import Parser

    parser = Parser(prog="crib3 play")
    add_play_options(parser)
    parser.set_defaults(run=cmd_play, command="play")
    return parser


def play_defaults() -> argparse.Namespace:
    """What `play_alone_parser().parse_args([])` gives, without argparse
    (a test holds the two equal): `crib3` alone needs no parsing."""
    from types import SimpleNamespace

    return SimpleNamespace(players=None, seed=None, name=None, skunks=False,  # type: ignore[return-value]
                           muggins=False, short=False, ascii=False, think=None,
                           no_save=False, run=cmd_play, command="play")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        startup_gc.pause()  # until the first screen is drawn (crib3/common/startup_gc.py)
        args = play_defaults()
    else:
        parser = build_parser()
        if argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"):
            argv = ["play", *argv]
        args = parser.parse_args(argv)
        if getattr(args, "command", None) in startup_gc.FULL_SCREEN_COMMANDS:
            startup_gc.pause()
        if not getattr(args, "run", None):
            parser.print_help()
            return EXIT_OK
    try:
        return int(args.run(args))
    except UsageError as exc:
        print(f"crib3 {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("crib3: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except CannotRun as exc:
        print(f"crib3 {args.command}: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except OSError as exc:
        print(f"crib3 {args.command}: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "),
              file=sys.stderr)
        return EXIT_INVALID
    except Exception as exc:  # a bug: one line here, the traceback in a file
        return _report_crash(args.command, exc)


def _report_crash(command: str, exc: Exception) -> int:
    """One line for an error nothing expected: what it was, where the game
    is saved and how to go on, and where the whole traceback was written."""
    from crib3.common import crash

    error, saved = (exc.error, exc.saved) if isinstance(exc, Crashed) else (exc, None)
    log = crash.record(error, f"crib3 {command}")
    words = [f"crib3 {command}: unexpected error ({crash.summary(error)})"]
    if saved is not None:
        words.append(f"your game is saved in {saved}: `crib3 resume` goes on from there")
    words.append(f"details in {log}" if log else "the details could not be written anywhere")
    print("; ".join(words), file=sys.stderr)
    return EXIT_INVALID
