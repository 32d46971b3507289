"""The commands that read saved games: `games`, `export`, `stats`,
`verify`, `replay` and `review`. A log that cannot be used is told by each
in the same words and with the same exit status (`report_log_error`); a
damaged log is replayed and reviewed up to its last good line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from crib3.cli.failures import UsageError, report_log_error, warn
from crib3.cli.output import ascii_wanted, full_screen_or_exit, run_app
from crib3.common.exits import EXIT_OK

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence


def won_by(name: str, scores: Sequence[int], winner: int) -> str:
    """A finished game's result, in the one order every command says it:
    the winner's score first, by the winner's name (as it is said: "won by
    Bea 121-89-95"), then the others' in seat order."""
    from crib3.common.names import shown_name

    others = [score for seat, score in enumerate(scores) if seat != winner]
    return f"won by {shown_name(name)} " + "-".join(str(x) for x in [scores[winner], *others])


def cmd_games(args: argparse.Namespace) -> int:
    from crib3.common.names import shown_name
    from crib3.saved.games import list_games

    games = list_games()
    if not games:
        print("No saved games yet: play one with `crib3`.")
        return EXIT_OK
    width = len(str(len(games)))
    for number, saved in enumerate(games, 1):
        # The number and the name in brackets are what the other commands
        # take (see `crib3.saved.games.find_game`).
        name = f"{number:>{width}}  "
        if saved.problem:
            print(f"{name}{saved.path.name}  unreadable: {saved.problem}")
            continue
        if saved.winner is not None:
            outcome = won_by(saved.name(saved.winner), saved.scores, saved.winner)
        else:
            scores = "-".join(str(x) for x in saved.scores)
            outcome = f"unfinished, hand {saved.hand_number}, {scores}"
        when = saved.created.replace("T", " ")[:16]
        players = ", ".join(f"{shown_name(p.name)} ({shown_name(p.kind)})" for p in saved.players)
        print(f"{name}{when}  {players}  {outcome}  [{saved.path.name}]")
    return EXIT_OK


def _game(name: str) -> str:
    """A game as the command line names it (see `find_game`)."""
    from crib3.saved.games import find_game

    found = find_game(name)
    return name if found == Path(name) else str(found)  # a path as it was given


def cmd_export(args: argparse.Namespace) -> int:
    from crib3.engine.log import LogError, event_line, load_log
    from crib3.saved.games import transcript

    try:
        loaded = load_log(_game(args.log))
    except LogError as exc:
        return report_log_error(exc, "export")
    warn("export", loaded.warnings)
    if args.json:
        print(json.dumps(loaded.header, ensure_ascii=False))
        for event in loaded.events:
            print(event_line(event))
    else:
        sys.stdout.write(transcript(loaded.events, ascii=ascii_wanted(args)))
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    from crib3.engine.log import LogError, load_log
    from crib3.saved.replay import Replay

    try:
        events = load_log(_game(args.log)).events
    except LogError as exc:
        if not exc.line or not exc.valid:
            return report_log_error(exc, "replay")
        warn("replay", [f"{exc}; replaying the {len(exc.valid)} valid events before it"])
        events = list(exc.valid)
    full_screen_or_exit("crib3 export tells a game in words")
    from crib3.tui.app import Crib3App

    app = Crib3App(ascii=ascii_wanted(args), replay=Replay(events), autosave=False)
    app.replay_coach = args.coach
    return run_app(app)


def cmd_review(args: argparse.Namespace) -> int:
    """Every decision of a seat in a saved game against the coach's best
    (crib3.study.review). A log that cannot be used is told as replay tells it;
    a seat or name that is not at the table is bad usage (exit 2)."""
    from crib3.common.names import shown_name
    from crib3.engine.log import LogError, load_log
    from crib3.study.review import format_review, review_events, review_json, reviewed_seats

    try:
        loaded = load_log(_game(args.log))
        events = loaded.events
    except LogError as exc:  # as replay: a damaged game is reviewed up to its last good line
        if not exc.line or not exc.valid:
            return report_log_error(exc, "review")
        warn("review", [f"{exc}; reviewing the {len(exc.valid)} valid events before it"])
        events = list(exc.valid)
    else:
        warn("review", loaded.warnings)
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
    ascii_only = ascii_wanted(args)
    print("\n".join(format_review(review, names, ascii_only) for review in reviews), end="")
    return EXIT_OK


def cmd_stats(args: argparse.Namespace) -> int:
    """Statistics over the saved games (or the files named). A file that
    cannot be read is told in verify's words and left out; when it was
    named on the command line, the exit status says so as verify's does."""
    from crib3.cli.bars import progress_bar
    from crib3.saved.games import format_stats, saved_paths, stats_cache_file, stats_from_files
    from crib3.saved.progress import RECENT

    paths = [Path(_game(p)) for p in args.logs] if args.logs else saved_paths()
    # On a terminal a bar counts the games read (the first run over a
    # thousand games reads them all: some seconds), then the recent ones reviewed.
    with progress_bar(len(paths), "games read") as bar:
        stats, problems = stats_from_files(paths, cache=None if args.logs else stats_cache_file(),
                                           done=bar.advance)
    status = EXIT_OK
    for problem in problems:
        if args.logs:
            status = max(status, report_log_error(problem, "stats"))
        else:
            print(f"crib3 stats: {problem}; skipped", file=sys.stderr)
    from crib3.saved.progress import format_progress, progress_cache_file, progress_from_files

    with progress_bar(min(len(paths), RECENT) if stats else 0, "recent games reviewed") as bar:
        progress = progress_from_files(paths, cache=None if args.logs else progress_cache_file(),
                                       done=bar.advance)
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
        print(format_progress(progress, ascii_wanted(args)))
    return status


def cmd_verify(args: argparse.Namespace) -> int:
    from crib3.cli.bars import progress_bar

    status = EXIT_OK
    valid = failed = 0
    # On a terminal, a bar over many files (one is read in a moment) with
    # how many were valid so far; the lines go above it.
    with progress_bar(len(args.logs) if len(args.logs) > 1 else 0, "files") as bar:
        for given in args.logs:
            status, ok = _verify_one(given, status)
            valid, failed = valid + ok, failed + (not ok)
            bar.advance(1, f"{valid} valid" + (f", {failed} not" if failed else ""))
    return status


def _verify_one(given: str, status: int) -> tuple[int, bool]:
    """Verify one file and print its line: the exit status so far with it,
    and whether the file was valid."""
    from crib3.engine.events import ClaimRefused, Event
    from crib3.engine.log import LogError, load_log

    path = _game(given)
    refused = 0

    def count_refused(event: Event) -> None:  # (each checked against the rules by the replay)
        nonlocal refused
        refused += isinstance(event, ClaimRefused)

    try:
        loaded = load_log(path, keep_events=False, on_event=count_refused)
    except LogError as exc:
        return max(status, report_log_error(exc, "verify")), False
    warn("verify", loaded.warnings)
    state = loaded.state
    if state.winner is not None:
        outcome = won_by(state.name(state.winner), state.scores, state.winner)
    else:
        outcome = f"unfinished, hand {state.hand_number}"
    claims = f", {refused} claim{'s' * (refused != 1)} refused" if refused else ""
    print(f"{path}: valid, {loaded.count} events{claims}, {outcome}")
    return status, True
