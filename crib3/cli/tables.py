"""`crib3 tables`: the card room's tables, from the command line.

`crib3 tables export TABLE` writes a table's game log as the JSON Lines that
`replay`, `verify`, `review` and `stats` read: a table of this machine's
room (`crib3 serve`'s folder of tables, its closed ones too) by its number,
or, with `--cluster nats://...`, a table of a cluster's room by its id, read
from its stream (`crib3.cluster`, which needs nats-py: the extra
`crib3[cluster]`). Nothing else of crib3 is needed for it: a fresh machine
with the cluster's address exports any table. A table that was opened
and never started has no game to export: it says so in one line.

A match's table holds one log a game (`verify` and `replay` read one game
at a time): `--game K` exports its game K, and without it the last (or
the one under way), with a line on standard error that says which.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

from crib3.cli.cluster_urls import ServerURL, cluster_urls, shown
from crib3.cli.failures import CannotRun, UsageError, report_log_error
from crib3.common.exits import EXIT_OK

if TYPE_CHECKING:
    import argparse


def cmd_tables_export(args: argparse.Namespace) -> int:
    if args.cluster:
        games = _cluster_games(cluster_urls(args.cluster), args.table)
    else:
        from crib3.engine.log import LogError

        try:
            games = _local_games(args.table)
        except LogError as exc:
            return report_log_error(exc, "tables export")
    lines = _the_game(games, args.table, args.game)
    text = "".join(line + "\n" for line in lines)
    if args.output:
        from crib3.engine.log import open_private

        with open_private(Path(args.output), "w") as f:  # it tells every hidden card
            f.write(text)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    return EXIT_OK


def _the_game(games: list[list[str]], table: str, game: int | None) -> list[str]:
    """Game `game` (1 the first; None: the last) of a table's `games` (each
    its lines, header first); CannotRun when it has no such game."""
    if game is None:
        if len(games) > 1:
            print(f"crib3 tables export: table {table} is a match; its game {len(games)} of "
                  f"{len(games)} so far is exported (--game K for another)", file=sys.stderr)
        return games[-1]
    if game > len(games):
        played = "one game" if len(games) == 1 else f"{len(games)} games"
        raise CannotRun(f"table {table} has no game {game}: it has {played}")
    return games[game - 1]


def _local_games(table: str) -> list[list[str]]:
    """The games of table N of this machine's room, open or closed, in the
    order played, each its lines (a line cut off by a crash left out, as a
    restart leaves it out): a match's finished games, then the one under
    way (or its last)."""
    from crib3.common.paths import data_dir
    from crib3.room.storage import TableFiles, put_away_folder

    try:
        number = int(table)
    except ValueError:
        raise UsageError(f"{table!r}: a table of this machine's room is a number "
                         "(a cluster's table: give --cluster URL)") from None
    folder = data_dir() / "tables"
    for place in (folder, put_away_folder(folder)):
        files = TableFiles(place, number)
        games = [lines for path in (*files.game_logs(), files.log_path)
                 if path.is_file() and len(lines := _lines_of(path)) > 1]
        if games:
            return games
        if files.log_path.is_file():  # its log, and no event in it
            raise CannotRun(never_started(table))
    raise CannotRun(f"no table {number} with a game in {folder}")


def _lines_of(path: Path) -> list[str]:
    """A game log's lines as a restart reads them: its header, then its
    events (a line cut off by a crash left out)."""
    import json

    from crib3.engine.log import event_line, parse_log

    header, events, _ = parse_log(path)
    return [json.dumps(header, ensure_ascii=False), *(event_line(event) for _, event in events)]


def _cluster_games(servers: list[ServerURL], table: str) -> list[list[str]]:
    import asyncio
    import os

    try:
        from crib3.cluster import ClusterStore
        from crib3.cluster.retry import unanswered
        from crib3.cluster.store import check_table_id
    except ImportError:
        raise CannotRun("--cluster needs nats-py: pip install 'crib3[cluster]'") from None
    try:
        check_table_id(table)
    except ValueError as exc:
        raise UsageError(str(exc)) from None

    async def read() -> list[list[str]]:
        store = await ClusterStore.connect([server.url for server in servers],
                                           f"export-{os.getpid()}", make=False,
                                           allow_reconnect=False, connect_timeout=5,
                                           max_reconnect_attempts=1)
        try:
            return [game.lines for game in (await store.read(table)).all_games()]
        finally:
            await store.close()

    try:
        games = asyncio.run(read())
    except Exception as exc:  # nats-py's own: it cannot reach the cluster, or it refused us
        if not unanswered(exc):
            raise
        raise CannotRun(f"cannot read the cluster at {shown(servers)}: "
                        f"{exc or type(exc).__name__}") from None
    if not games:
        raise CannotRun(f"no table {table} with a game in the cluster at {shown(servers)}")
    if len(games[-1]) == 1:  # a header alone: a table waiting for its start (or one left so)
        if len(games) == 1:
            raise CannotRun(never_started(table))
        games.pop()  # (a match's next game, its header written and nothing played yet)
    return games


def never_started(table: str) -> str:
    """What an export of a table with no game says (`crib3 verify` would
    refuse its log: it holds no events)."""
    return f"table {table} was opened and never started: nothing to export"
