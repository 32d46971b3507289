"""`crib3 event`: duplicate events against the computer. `new` deals an
event's boards and plays the computer's field on them, `play` deals a
person their next board at the table, `results` prints the ranking and
every board's field (or JSON), `list` names the events here. A live
event's `new` and `results` reach a cluster with `--cluster`
(`crib3.cli.cluster_events`)."""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from crib3.cli.failures import CannotRun, UsageError
from crib3.cli.levels import read_levels
from crib3.cli.output import ascii_wanted, full_screen_or_exit, run_app
from crib3.common.exits import EXIT_OK
from crib3.common.invocation import as_typed

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
    if args.live:
        return _new_live(args, name, seed, level)
    if args.start is not None:
        raise UsageError("--start is for a live event: add --live")
    if args.cluster is not None:
        raise UsageError("--cluster is for a live event: add --live (an event against the "
                         "computer is played on this machine)")
    if args.rated:
        raise UsageError("--rated is for a live event: add --live (an event against the "
                         "computer moves no rating)")
    try:
        event = new_event(name, seed, args.boards, level)
    except EventError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise CannotRun(f"cannot write the event: {exc}") from None
    print(f"event {event.name}: {len(event.boards)} boards against the computer ({level}), "
          f"seed {seed}; play it with: {as_typed()} event play {event.name}")
    return EXIT_OK


def start_time(text: str | None, now: datetime) -> float:
    """`--start HH:MM` (UTC) as seconds since the epoch: the next such time."""
    if text is None:
        raise UsageError("--live needs --start HH:MM (UTC): when people are seated")
    match = re.fullmatch(r"(\d{1,2}):(\d{2})", text)
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise UsageError(f"--start: a time as HH:MM (UTC), not {text!r}")
    at = now.replace(hour=int(match[1]), minute=int(match[2]), second=0, microsecond=0)
    if at <= now:
        at += timedelta(days=1)
    return at.timestamp()


def _new_live(args: argparse.Namespace, name: str, seed: int, level: str) -> int:
    from crib3.duplicate.events import EventError
    from crib3.room.event_ratings import mark_rated
    from crib3.room.live_event import CALL_OFF, WITH_COMPUTER, new_live_event
    from crib3.tui.settings import load_choices

    start = start_time(args.start, datetime.now(UTC))
    if args.cluster is not None:
        from crib3.cli.cluster_urls import cluster_urls

        cluster_urls(args.cluster)  # (a bad address refused before the event is written)
    host = args.host if args.host is not None else load_choices().name
    short = CALL_OFF if args.short == "call-off" else WITH_COMPUTER
    try:
        live = new_live_event(name, seed, args.boards, level, host, start, short)
        if args.rated:
            mark_rated(live.event)
    except EventError as exc:
        raise UsageError(str(exc)) from None
    except OSError as exc:
        raise CannotRun(f"cannot write the event: {exc}") from None
    where = "the card room (crib3 serve)"
    if args.cluster is not None:
        from crib3.cli.cluster_events import put_live

        try:
            put_live(args.cluster, live)
        except (UsageError, CannotRun):  # (not the cluster's: not this machine's either)
            import shutil

            shutil.rmtree(live.event.folder, ignore_errors=True)
            raise
        where = "the cluster's card room (every node's)"
    print(f"live event {live.name}: {len(live.boards)} boards, starts {live.starts_words()} "
          f"in {where}; people enter it from the lobby's e; "
          f"host {host}{'; rated' * args.rated}")
    return EXIT_OK


def cmd_event_play(args: argparse.Namespace) -> int:
    from crib3.common.names import check_name
    from crib3.tui.settings import load_choices

    event = _event(args.event)
    from crib3.room.basics import RoomError
    from crib3.room.live_event import load_live

    try:
        live = load_live(event)
    except RoomError as exc:
        raise CannotRun(str(exc)) from None
    if live is not None:  # its boards are dealt at the room's tables, to nobody before
        raise UsageError(f"{event.name} is a live event: it is played in the card room "
                         "(crib3 serve, the lobby's e)")
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
    from crib3.room.basics import RoomError
    from crib3.room.live_event import LiveEvent, load_live
    from crib3.room.live_event import results_json as live_json
    from crib3.room.live_event import sheet_lines as live_sheet

    live: LiveEvent | None
    if args.cluster is not None:  # a cluster's live event: its bucket and tables' streams
        from crib3.cli.cluster_events import cluster_results

        if args.name is not None:
            raise UsageError("--name is for an event against the computer: a live event's "
                             "results show only boards over at every table")
        live, fields, ranking, problems = cluster_results(args.cluster, args.event)
        event = live.event
    else:
        event = _event(args.event)
        try:
            live = load_live(event)
        except RoomError as exc:
            raise CannotRun(str(exc)) from None
        if live is not None:
            fields, ranking, problems = live.results()
    if live is not None:  # only boards over at every table: nobody sees one still to play
        for problem in problems:
            print(f"crib3 event results: {problem}; left out", file=sys.stderr)
        if args.json:
            print(json.dumps(live_json(live, fields, ranking), ensure_ascii=False, indent=1))
        else:
            print("\n".join(live_sheet(live, fields, ranking)))
        return EXIT_OK
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
        print(f"no events here yet: {as_typed()} event new makes one")
    for name in names:
        print(name)
    return EXIT_OK
