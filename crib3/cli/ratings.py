"""`crib3 ratings`: the card room's ratings on this machine, as plain text
(the highest first, the computer levels among them as a yardstick), and
`crib3 ratings rebuild`, which makes every rating anew from the results
log (`crib3.room.results`) and says whether the numbers came out the same.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from crib3.common.exits import EXIT_OK

if TYPE_CHECKING:
    from crib3.room.results import Results


def _book() -> Results:
    """This machine's room's results and ratings (made empty if there are none)."""
    from crib3.common.paths import data_dir
    from crib3.room.results import Results

    return Results(data_dir() / "ratings")


def cmd_ratings(args: argparse.Namespace) -> int:
    from crib3.common.names import shown_name

    book = _book()
    try:
        rows = book.top(args.top, computers=not args.people)
    finally:
        book.close()
    if args.json:
        print(json.dumps([{"name": r.name, "rating": r.skill.shown,
                           "deviation": r.skill.deviation, "provisional": r.skill.provisional,
                           "games": r.skill.games, "computer": r.computer} for r in rows],
                         ensure_ascii=False, indent=1))
        return EXIT_OK
    if not any(not r.computer for r in rows):
        print("nobody is rated here yet: a rated table's finished game rates its players")
    for place, row in enumerate(rows, 1):
        games = "" if row.computer else f"  {row.skill.games} game{'s' * (row.skill.games != 1)}"
        print(f"{place:>3}. {row.skill.label:>5}  {shown_name(row.name)}{games}")
    sys.stdout.flush()
    return EXIT_OK


def cmd_ratings_rebuild(args: argparse.Namespace) -> int:
    book = _book()
    try:
        before = book.skills()
        count = book.rebuild()
        after = book.skills()
    finally:
        book.close()
    same = "the same numbers" if after == before else "numbers that differ from the store's"
    print(f"{count} result{'s' * (count != 1)} folded into {len(after)} rating"
          f"{'s' * (len(after) != 1)}: {same}")
    return EXIT_OK
