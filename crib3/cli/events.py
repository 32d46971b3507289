"""`crib3 event`: duplicate events against the computer. `new` deals an
event's boards and plays the computer's field on them, `play` deals a
person their next board at the table, `results` prints the ranking and
every board's field (or JSON), `list` names the events here."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import TYPE_CHECKING

from crib3.cli.failures import CannotRun, UsageError
from crib3.cli.levels import read_levels
from crib3.cli.output import ascii_wanted, full_screen_or_exit, run_app
from crib3.common.exits import EXIT_OK

if TYPE_CHECKING:
    from crib3.duplicate.events import DuplicateEvent


def _event(name: str) -> DuplicateEvent:
    from crib3.duplicate.events import EventError, load_event

    try:
        return load_event(name)
    except EventError as exc:
        raise UsageError(str(exc)) from None


def cmd_event_new(args: argparse.Namespace) -> int:
    from crib3.duplicate.events import EventError, new_event

    level = read_levels(args.level, 1, "the computer's level", "standard", option="--level")[0]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    name = args.name if args.name is not None else f"{level}-{seed}"
    try:
        event = new_event(name, seed, args.boards, level)
    except EventError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise CannotRun(f"cannot write the event: {exc}") from None
    print(f"event {event.name}: {len(event.boards)} boards against the computer ({level}), "
          f"seed {seed}; play it with: crib3 event play {event.name}")
    return EXIT_OK


def cmd_event_play(args: argparse.Namespace) -> int:
    from crib3.common.names import check_name
    from crib3.tui.settings import load_choices

    event = _event(args.event)
    choices = load_choices()
    try:
        person = check_name(args.name) if args.name is not None else choices.name
    except ValueError as exc:
        raise UsageError(f"--name: {exc}") from None
    full_screen_or_exit("crib3 event results prints an event's results without one")
    from crib3.tui.event_app import EventApp

    think = args.think if args.think is not None else choices.think
    return run_app(EventApp(event, person, ascii=ascii_wanted(args), think=think))


def cmd_event_results(args: argparse.Namespace) -> int:
    from crib3.duplicate.scoring import score_boards, standings
    from crib3.duplicate.sheet import results_json, sheet_lines

    event = _event(args.event)
    plays, problems = event.plays()
    for problem in problems:
        print(f"crib3 event results: {problem}; left out", file=sys.stderr)
    if args.name is not None:  # a player's view: no board they have still to play
        played = {b.number for b in event.boards if event.person_log(b.number, args.name).exists()}
        plays = [p for p in plays if p.board in played]
    results = score_boards(plays)
    table = standings(results)
    if args.json:
        print(json.dumps(results_json(event, results, table), ensure_ascii=False, indent=1))
    else:
        print("\n".join(sheet_lines(event, results, table, ascii_wanted(args))))
    return EXIT_OK


def cmd_event_list(args: argparse.Namespace) -> int:
    from crib3.duplicate.events import event_names

    names = list(event_names())
    if not names:
        print("no events here yet: crib3 event new makes one")
    for name in names:
        print(name)
    return EXIT_OK
