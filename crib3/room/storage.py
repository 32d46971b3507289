"""A card-room table on disk, and reading the tables back after a restart.

Each table is saved as it goes, under the room's folder: `table-N.json`
(who sits where, written whole and replaced atomically) and `table-N.jsonl`
(the game's log, one event a line, each written to the operating system
before it is shown, and fsynced just after in a thread of its own: see
`crib3.engine.log`; the room's event loop never waits on the disk). A
restarted server reads them with `stored_tables` and picks its games up
where they stood.

A table's seat file also says how it stands in the room (`status`):
`OPEN` (in the lobby, or to be picked up at a restart), `SHELVED` (put
away because nobody was at it for the room's idle time: it comes back
when one of its people signs in again) or `CLOSED` (its owner closed it:
its log stays, for the record, and the room leaves it be). Files written
before there was a status are `OPEN`. Nothing here knows about seating rules or bots: this
module only keeps and reads files.

A table opened for a match (`crib3.room.match`) keeps each finished game's
log beside it as `table-N-game-K.jsonl` (K from 1, in the order played),
and `table-N.jsonl` is the game under way: the match's standing is read
back from those logs after a restart (`match_games`), nothing else. Between
two games (the last one filed, the next not begun) a table has game logs
and no `table-N.jsonl`: it comes back to begin its next game.

A table that can never come back (closed, or its game over) is moved to a
folder of its own, `closed/` (`TableFiles.put_away`), so that a start
reads only the tables that can: a room where people open and close tables
all day would otherwise read every one of them at each start. Closed
tables found at the top (written before there was a `closed/`) are moved
there as a start meets them, without reading their logs.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from crib3.engine import Event, Rules, State
from crib3.engine.log import (
    LATER,
    LogError,
    LogWriter,
    load_log,
    make_header,
    open_private,
    private_folder,
)
from crib3.room.match import Match, Played
from crib3.room.seats import Seat

OPEN, SHELVED, CLOSED = "open", "shelved", "closed"
PUT_AWAY = "closed"  # the folder, under the room's, of tables that cannot come back


def put_away_folder(folder: Path) -> Path:
    return folder / PUT_AWAY


def seat_file_of(log_path: Path) -> Path:
    """The seat file of a table's game log: `table-N.json` for its
    `table-N.jsonl`, and for a match's finished games' `table-N-game-K.jsonl`."""
    table, _, game = log_path.stem.partition("-game-")
    return log_path.with_name(f"{table if game.isdigit() else log_path.stem}.json")

def write_whole(path: Path, text: str) -> None:
    """`path` replaced in one step (a crash leaves the old file or the new
    one, never half of one)."""
    private_folder(path.parent)
    partial = path.with_name(path.name + ".part")
    with open_private(partial, "w") as f:
        f.write(text)
    os.replace(partial, path)


class TableFiles:
    """The two files of one table, and the open log while it plays."""

    def __init__(self, folder: Path, number: int) -> None:
        self.folder = folder
        self.number = number
        self._writer: LogWriter | None = None

    @property
    def meta_path(self) -> Path:
        return self.folder / f"table-{self.number}.json"

    @property
    def log_path(self) -> Path:
        return self.folder / f"table-{self.number}.jsonl"

    def save_seats(self, owner: str, rules: Rules, seats: Sequence[Seat],
                   status: str = OPEN, started_by: str | None = None,
                   rated: bool = False, best_of: int = 1) -> None:
        """Who sits where, replacing the last copy in one step (a crash
        leaves the old file or the new one, never half of one)."""
        data = {"number": self.number, "owner": owner, "rules": asdict(rules),
                "seats": [asdict(seat) for seat in seats], "status": status,
                "started_by": started_by, "rated": rated}
        if best_of > 1:  # (a single game's file is as it always was)
            data["best_of"] = best_of
        write_whole(self.meta_path, json.dumps(data, indent=1))

    def put_away(self) -> None:
        """The table cannot come back (closed, or its game is over): its
        files go to `closed/`, for the record, where a start does not read
        them. From now on this object names them there."""
        self.close_log()
        away = put_away_folder(self.folder)
        private_folder(away)
        for path in (self.meta_path, self.log_path, *self.game_logs()):
            with contextlib.suppress(FileNotFoundError):
                os.replace(path, away / path.name)
        self.folder = away

    def forget(self) -> None:
        """A table that never started is put away: nothing in it to keep."""
        with contextlib.suppress(OSError):
            self.meta_path.unlink()

    def game_log_path(self, game: int) -> Path:
        """Where a match's finished game number `game` (1 the first) is kept."""
        return self.folder / f"table-{self.number}-game-{game}.jsonl"

    def game_logs(self) -> list[Path]:
        """A match's finished games' logs, in the order they were played."""
        logs: list[Path] = []
        while (path := self.game_log_path(len(logs) + 1)).exists():
            logs.append(path)
        return logs

    def file_game(self) -> Path:
        """The game just finished at a match's table: its log closed and
        kept as the match's next game log (the next game's begins anew)."""
        self.close_log()
        path = self.game_log_path(len(self.game_logs()) + 1)
        os.replace(self.log_path, path)
        return path

    def start_log(self) -> None:
        """A new game's log, with its header."""
        self._writer = LogWriter(self.log_path, make_header(source="crib3 serve",
                                                             table=self.number), sync=LATER)

    def reopen_log(self) -> None:
        """Go on writing the log of a game picked up after a restart."""
        self._writer = LogWriter(self.log_path, sync=LATER)

    def record(self, event: Event) -> None:
        """The event written to the log before it is shown (a crash of the
        server loses nothing shown), fsynced just after, off the event loop
        (a power cut may lose the last few). OSError when the disk fails,
        its fsync's failure included (at the next event)."""
        assert self._writer is not None, "the table's log is not open"
        self._writer.append(event)

    def close_log(self) -> None:
        if self._writer is not None:
            self._writer.close()


@dataclass(frozen=True)
class StoredTable:
    """A table as its files left it: a game under way, to go on with."""

    number: int
    owner: str
    rules: Rules
    seats: list[Seat]
    events: list[Event]
    status: str = OPEN
    played_at: float = 0.0  # when its log was last written (the file's time)
    started_by: str | None = None  # the owner as the game started (None: not known)
    rated: bool = False  # its game moves ratings (files from before ratings: casual)
    match: Match = Match()  # the match it plays, and its finished games (a game: best of 1)


class UnreadableTable(Exception):
    """A table's files cannot be read back: one line saying which and why."""


# Told of a rated game found over at a start (the server stopped between
# its last event and its result): its table, and the game as it ended (a
# match's: the table's `match` over, and the state its last game ended in).
FoundOver = Callable[[StoredTable, State], None]


def read_table(folder: Path, number: int, over: FoundOver | None = None) -> StoredTable | None:
    """One table's files read back, or None when it never started (its seat
    file is then removed: nothing in it to keep) or its game is over (a
    rated one told to `over` first, its files still where they were).
    UnreadableTable when the files are damaged (they are left on disk)."""
    meta_path = folder / f"table-{number}.json"
    try:
        data = json.loads(meta_path.read_text(encoding="utf-8"))
        number = int(data["number"])
        rules = Rules(**data["rules"])
        seats = [Seat(**seat) for seat in data["seats"]]
        owner = str(data["owner"])
        status = str(data.get("status", OPEN))
        started_by = data.get("started_by")
        started_by = None if started_by is None else str(started_by)
        rated = data.get("rated") is True
        files = TableFiles(folder, number)
        if status == CLOSED:  # it never comes back: kept, unread, with the others
            if files.log_path.exists() or files.game_logs():
                files.put_away()
            else:
                meta_path.unlink()
            return None
        match, last = match_games(files, int(data.get("best_of", 1)))
        if not files.log_path.exists():
            if not match.games:
                meta_path.unlink()  # it never started: nothing to lose
                return None
            # A match between two games: the next one begins as it comes back.
            stored = StoredTable(number, owner, rules, seats, [], status,
                                 files.game_logs()[-1].stat().st_mtime, started_by, rated,
                                 match)
            if not match.over:
                return stored
            if over is not None and rated and last is not None:
                over(stored, last)
            files.put_away()
            return None
        loaded = load_log(files.log_path)
        played_at = files.log_path.stat().st_mtime
    except LogError as exc:
        raise UnreadableTable(str(exc)) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UnreadableTable(f"{meta_path}: {exc}") from None
    if loaded.state.winner is not None and not match.is_match:
        if over is not None and rated:
            over(StoredTable(number, owner, rules, seats, list(loaded.events), status,
                             played_at, started_by, rated), loaded.state)
        files.put_away()  # (a game over, from before there was `closed/`)
        return None
    if loaded.state.winner is not None:  # a match's game, over before it was filed
        try:
            files.file_game()
        except OSError as exc:
            raise UnreadableTable(f"{files.log_path}: {exc}") from None
        return read_table(folder, number, over)
    return StoredTable(number, owner, rules, seats, list(loaded.events), status, played_at,
                       started_by, rated, match)


def match_games(files: TableFiles, best_of: int) -> tuple[Match, State | None]:
    """A match's standing, read back from its finished games' logs, and the
    state its last game ended in (None: no game finished yet). LogError or
    ValueError when one cannot be read, or is not a finished game."""
    match, last = Match(best_of), None
    for path in files.game_logs():
        state = load_log(path, keep_events=False).state
        if state.winner is None:
            raise ValueError(f"{path}: a match's game that did not finish")
        match = match.add(Played(state.winner, tuple(state.scores)))
        last = state
    return match, last


def take_out(folder: Path, number: int) -> None:
    """A closed table's files back from `closed/`, marked open (one of its
    people brings its game back: `Room.bring_back`). UnreadableTable when
    they are not there or cannot be read."""
    away = put_away_folder(folder)
    meta = away / f"table-{number}.json"
    try:
        data = json.loads(meta.read_text(encoding="utf-8"))
        data["status"] = OPEN
        games = TableFiles(away, number).game_logs()  # a match's finished games
        for path in games:
            os.replace(path, folder / path.name)
        if games:
            with contextlib.suppress(FileNotFoundError):  # (closed between two games)
                os.replace(away / f"table-{number}.jsonl", folder / f"table-{number}.jsonl")
        else:
            os.replace(away / f"table-{number}.jsonl", folder / f"table-{number}.jsonl")
        write_whole(folder / meta.name, json.dumps(data, indent=1))
        meta.unlink()
    except (OSError, ValueError, TypeError) as exc:
        raise UnreadableTable(f"{meta}: {exc}") from None


REOPENABLE = "reopenable.json"  # in `closed/`: closed games their other people may bring back


def read_reopenable(folder: Path) -> dict[int, list[Seat]]:
    """The closed games that some of their people may bring back (see
    `Room.close_table`): table number -> its seats, the people who may
    bring it back as persons (the others marked `replaced`). A damaged
    file is nobody's way back: empty."""
    try:
        data = json.loads((put_away_folder(folder) / REOPENABLE).read_text(encoding="utf-8"))
        return {int(number): [Seat(**seat) for seat in seats]
                for number, seats in data.items()}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, TypeError, AttributeError):
        return {}


def write_reopenable(folder: Path, games: dict[int, list[Seat]]) -> None:
    data = {str(number): [asdict(seat) for seat in seats]
            for number, seats in sorted(games.items())}
    write_whole(put_away_folder(folder) / REOPENABLE, json.dumps(data, indent=1))


def stored_tables(folder: Path,
                  over: FoundOver | None = None) -> tuple[list[StoredTable], list[str]]:
    """The games under way in `folder` (open and shelved: the room decides
    what to do with each), and a line for each table that could not be
    read (its files are left on disk, for a person to look at). Tables
    that never started are dropped (their seat file is removed); closed
    tables and finished games are skipped, and moved to `closed/` if they
    were not there yet (their files stay, for the record). What is in
    `closed/` is not read at all."""
    tables: list[StoredTable] = []
    problems: list[str] = []
    for number in sorted(numbers_on_disk(folder)):
        try:
            stored = read_table(folder, number, over)
        except UnreadableTable as exc:
            problems.append(str(exc))
            continue
        if stored is not None:
            tables.append(stored)
    return tables, problems


def numbers_on_disk(folder: Path) -> list[int]:
    """The numbers of the tables `folder` holds files for, `closed/` but
    for its own (a new table takes the next one, so a finished game's files
    are never written over: see `last_number`)."""
    return _numbers_in(folder)


def last_number(folder: Path) -> int:
    """The highest table number `folder` (and its `closed/`) has files of:
    only the names are read."""
    return max([0, *_numbers_in(folder), *_numbers_in(put_away_folder(folder))])


def _numbers_in(folder: Path) -> list[int]:
    numbers = []
    with contextlib.suppress(FileNotFoundError):
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if name.startswith("table-") and name.endswith(".json"):
                    with contextlib.suppress(ValueError):
                        numbers.append(int(name[6:-5]))
    return numbers
