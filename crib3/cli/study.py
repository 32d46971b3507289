"""The commands for studying the game rather than playing one: `score` (a
hand counted as a player says it), `sim` (computer players against each
other, or two levels head to head on the same deals) and `practice` (a
trainer the coach answers).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crib3.cli.failures import Crashed, UsageError
from crib3.cli.levels import read_levels
from crib3.cli.output import ascii_wanted, full_screen_or_exit
from crib3.common.exits import EXIT_OK

if TYPE_CHECKING:
    import argparse

    from crib3.engine import Rules


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
    ascii_only = ascii_wanted(args)
    what = "crib" if args.crib else "hand"
    print(f"{format_cards(hand, ascii_only)} with {starter.label(ascii_only)} ({what})")
    for item in score.items:
        print(f"  {item.kind:<8} {format_cards(item.cards, ascii_only):<18} {item.points:>2}")
    print(said)
    print(f"total {score.total}")
    return EXIT_OK


def cmd_sim(args: argparse.Namespace) -> int:
    from crib3.engine import Rules
    from crib3.study import sim

    if args.log_dir is not None and Path(args.log_dir).exists() \
            and not Path(args.log_dir).is_dir():
        raise UsageError(f"--log-dir {args.log_dir}: that is a file; give a folder")
    rules = Rules(target=61 if args.short else 121, skunks=args.skunks)
    if args.duplicate is not None:
        return _sim_duplicate(args, rules)
    levels = read_levels(args.players, 3, "three levels", "easy,easy,easy", hidden=True)
    jobs = args.jobs if args.jobs else sim.default_jobs(args.games)
    summary = _played(args, args.games, sim.format_progress, sim.format_standing,
                      lambda **watch: sim.run(levels, args.games, args.seed, rules,
                                              args.log_dir, jobs, **watch))
    print(json.dumps(summary.to_json()) if args.json else sim.format_summary(summary))
    return EXIT_OK


def _sim_duplicate(args: argparse.Namespace, rules: Rules) -> int:
    """`crib3 sim --duplicate A,B`: --games deal sets, each played in six seatings."""
    from crib3.study import duplicate, sim

    a, b = read_levels(args.duplicate, 2, "two levels", "expert,expert-2026-12", hidden=True,
                       option="--duplicate")
    games = args.games * len(duplicate.SEATINGS)
    jobs = args.jobs if args.jobs else sim.default_jobs(games)
    summary = _played(args, games, duplicate.format_progress, duplicate.format_standing,
                      lambda **watch: duplicate.run(a, b, args.games, args.seed,
                                                    rules, args.log_dir, jobs,
                                                    **watch))
    print(json.dumps(summary.to_json()) if args.json else duplicate.format_summary(summary))
    return EXIT_OK


def _played(args: argparse.Namespace, games: int, say: Callable[[Any], str],
            standing: Callable[[Any], str], run: Callable[..., Any]) -> Any:
    """What `run` returns, a sim's summary, watched as the command line asks:
    on a terminal (unless --quiet) a progress bar with the games so far, the
    running share (`standing`) and the time left, and how the run stands
    above it; without one that line alone on stderr (none with --quiet),
    every --progress-every seconds. No game starts after --max-seconds."""
    from crib3.cli.bars import progress_bar, wanted

    timing = {"max_seconds": args.max_seconds, "report_every": args.progress_every}
    if wanted(args.quiet):
        with progress_bar(games, "games") as bar:
            return run(progress=lambda n, summary: bar.advance(n, standing(summary)),
                       report=_progress_line(say, bar.console), **timing)
    return run(report=None if args.quiet else _progress_line(say), **timing)


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


def cmd_practice(args: argparse.Namespace) -> int:
    """A discard or pegging trainer (crib3.study.practice): positions dealt from
    --seed, or the player's own costliest decisions in their saved games."""
    from crib3.study.practice import dealt_positions, own_positions

    kind = "play" if args.pegging else "discard"
    if args.from_games:
        from crib3.saved.games import saved_paths

        paths = saved_paths()
        positions = own_positions(paths, kind)
        if not positions:
            other = "discard" if args.pegging else "play"
            said = f"no costly {kind}s of yours in your saved games yet"
            if own_positions(paths, other, limit=1):  # the other trainer has some
                switch = "crib3 practice --from-games" + ("" if args.pegging else " --pegging")
                raise UsageError(f"{said}, but there are costly {other}s: try `{switch}`")
            raise UsageError(f"{said}: play a game first, or practise on dealt positions")
        chosen = iter(positions)
    else:
        chosen = dealt_positions(kind, args.seed)
    full_screen_or_exit("crib3 review tells a saved game's decisions in words")
    from crib3.tui.practice_app import PracticeApp

    app = PracticeApp(kind, chosen, ascii=ascii_wanted(args))
    app.run()
    if app.crash is not None:
        raise Crashed(app.crash)
    return EXIT_OK
