"""`crib3 ratings`: the card room's ratings on this machine, as plain text
(the highest first, the computer levels among them as a yardstick);
`crib3 ratings rebuild`, which makes every rating anew from the results
log (`crib3.room.results`) and says whether the numbers came out the same
(with `--cluster`, from a cluster's results stream, beside the stores of
this machine's nodes);
and `crib3 ratings calibrate`, which plays games among the computer levels
and says what their fixed ratings would be from them.
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
    if args.cluster:
        return _rebuild_cluster(args.cluster)
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


def _rebuild_cluster(servers_text: str) -> int:
    """`crib3 ratings rebuild --cluster URL`: every result on the cluster's
    stream, checked against its table's stream as the nodes check it,
    folded into a store made for it alone (nothing on the cluster or in a
    node's store is written), and its numbers set beside those of each
    node's store on this machine (`crib3 serve --cluster --node NAME`
    keeps one in NODE's folder)."""
    import asyncio
    import os
    import tempfile
    from pathlib import Path

    from crib3.cli.cluster_urls import cluster_urls, shown
    from crib3.cli.failures import CannotRun
    from crib3.common.paths import data_dir
    from crib3.room.results import Results, stored_skills

    servers = cluster_urls(servers_text)
    try:
        from crib3.cluster import ClusterStore
        from crib3.cluster.results import fold_the_stream
        from crib3.cluster.retry import unanswered
        from crib3.cluster.verify import NotYet
    except ImportError:
        raise CannotRun("--cluster needs nats-py: pip install 'crib3[cluster]'") from None

    async def rebuild(book: Results) -> int:
        store = await ClusterStore.connect([server.url for server in servers],
                                           f"ratings-{os.getpid()}", make=False,
                                           allow_reconnect=False, connect_timeout=5,
                                           max_reconnect_attempts=1)
        try:
            return await fold_the_stream(store, book)
        finally:
            await store.close()

    with tempfile.TemporaryDirectory(prefix="crib3-ratings-") as folder:
        book = Results(Path(folder) / "ratings")
        try:
            refused = asyncio.run(rebuild(book))
            rebuilt, count = book.skills(), book.count()
        except NotYet as exc:
            raise CannotRun(f"the ratings could not be rebuilt: {exc}") from None
        except Exception as exc:  # nats-py's own: it cannot reach the cluster, or refused us
            if not unanswered(exc):
                raise
            raise CannotRun(f"cannot read the cluster at {shown(servers)}: "
                            f"{exc or type(exc).__name__}") from None
        finally:
            book.close()
    print(f"{count} result{'s' * (count != 1)} on the cluster folded into {len(rebuilt)} "
          f"rating{'s' * (len(rebuilt) != 1)}, {refused} refused")
    nodes = data_dir() / "node"
    for node in sorted(nodes.iterdir()) if nodes.is_dir() else ():
        stored = stored_skills(node / "ratings")
        if stored is None:
            continue
        same = "the same numbers" if stored == rebuilt else "numbers that differ"
        print(f"node {node.name}'s store on this machine: {same}")
    sys.stdout.flush()
    return EXIT_OK


# The two runs the levels' ratings come from: the player whose share is
# measured first, against two of the other.
CALIBRATION = (("expert", "standard", "standard"), ("standard", "easy", "easy"))


def cmd_ratings_calibrate(args: argparse.Namespace) -> int:
    from crib3.room.ratings import BOT_SKILLS, calibrated
    from crib3.study.sim import default_jobs, run

    seed = args.seed if args.seed is not None else 4301
    jobs = args.jobs or default_jobs(args.games)
    shares = []
    for levels in CALIBRATION:
        summary = run(levels, args.games, seed=seed, jobs=jobs)
        share, low, high = summary.win_share(0)
        shares.append(share)
        print(f"{levels[0]} against two {levels[1]}: {share:.1%} [{low:.1%}, {high:.1%}] "
              f"of {summary.games} games (seed {seed})")
    if not all(0 < share < 1 for share in shares):
        print("a level won every game or none: play more games to rate it")
        return EXIT_OK
    made = calibrated(shares[0], shares[1])
    for identity, skill in made.items():
        print(f"{identity}: {skill.shown} (in force: {BOT_SKILLS[identity].shown})")
    return EXIT_OK
