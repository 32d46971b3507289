"""Each person's own record, as the lobby's "Players" and "My games" views
read it: the leaderboard, a profile with its rating over time, and the
finished games a person sat in.

Read-only, and from files alone: the ratings' query store
(`crib3.room.results`, SQLite in WAL, which lets readers in other
processes read while the room writes) and the room's put-away tables
(`crib3.room.storage`). So a session worker's screens read them as the
room's own do, with nothing sent over the worker's link: `Records` is
opened from the two folders' paths.

Every question is one indexed query (the leaderboard walks the ratings'
index by rating, and a place is a count over it), so a page costs the same
with a hundred rated people or a hundred thousand.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from crib3.engine import redact
from crib3.engine.log import event_line, load_log
from crib3.room.identities import seat_identity
from crib3.room.ratings import NEWCOMER, PROVISIONAL_SIGMA, Skill
from crib3.room.results import EVENT, STORE
from crib3.room.seats import Seat
from crib3.room.storage import put_away_folder, seat_file_of

READ_BACK_MOST = 250_000  # bytes of a game's log read back (replayed, exported) at most

log = logging.getLogger("crib3.serve")

# The leaderboard lists the people who played a rated game this recently.
ACTIVE_DAYS = 30
PAGE = 10  # a leaderboard page's lines (a screen of 24 rows shows one whole)


@dataclass(frozen=True, slots=True)
class Ranked:
    """One line of the leaderboard."""

    place: int  # 1: the best
    identity: str
    name: str  # the name last played under: text from a person, never markup
    skill: Skill
    last: str  # when their last rated game ended (ISO 8601, UTC)


@dataclass(frozen=True, slots=True)
class Point:
    """The rating after one rated game: a point of the profile's chart."""

    at: str  # when the game ended (ISO 8601, UTC)
    skill: Skill


@dataclass(frozen=True, slots=True)
class EventPlace:
    """One rated duplicate event in a profile: where they finished in it
    and how it moved their rating."""

    event: str  # its name
    at: str  # when it ended (ISO 8601, UTC)
    place: int  # 1 the best
    of: int  # how many entries it ranked (the computer's among them)
    percent: float  # their score: mean matchpoints (0 when they left: ranked last)
    move: int  # their shown rating's change

    @property
    def words(self) -> str:
        """As a profile lists it: "friday 2026-12-06: 2nd of 9, 61.1%, +23"."""
        return (f"{self.event} {self.at[:10]}: {ordinal(self.place)} of {self.of}, "
                f"{self.percent:.1f}%, {self.move:+d}")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    end = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{end}"


@dataclass(frozen=True, slots=True)
class Profile:
    """One identity's record in rated games."""

    identity: str
    name: str
    skill: Skill
    places: tuple[int, int, int]  # games finished 1st, 2nd, 3rd
    points: int  # every rated single game's final score, added up
    best: int  # the best hand counted in a rated game
    last: str  # when their last rated game ended
    history: tuple[Point, ...]  # oldest first
    scored: int = 0  # the rated results whose scores are points (a match's are games won)
    events: tuple[EventPlace, ...] = ()  # the rated duplicate events, the latest first

    @property
    def average(self) -> float:
        """Average final score a rated single game."""
        return self.points / self.scored if self.scored else 0.0


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished game of the room one person sat in (rated or casual)."""

    number: int  # its table's
    seat: int  # theirs
    names: tuple[str, ...]  # every seat's, as it sat (text from people)
    scores: tuple[int, ...]  # every seat's at the end
    ended: float  # when its log was last written (the file's time, seconds)
    log_path: Path
    rated: bool

    @property
    def place(self) -> int:
        """Their place in it: 1 the best (equal scores share one)."""
        return 1 + sum(1 for score in self.scores if score > self.scores[self.seat])


class TooLong(ValueError):
    """A game's log longer than a room reads back (`READ_BACK_MOST`)."""


def check_read_back(log_path: Path) -> None:
    """TooLong unless `log_path` is short enough to read back in a room's
    process: a whole game is a few hundred events (35 to 60 kB), but
    friendly muggins refuses an over-claim as often as it is made, each a
    line of the log, so a game can be made as long as one likes. Reading
    one back loads and folds it whole on the loop every session of the
    process shares (about 0.2 ms a kB: 50 ms at the bound), and an export
    goes on a clipboard through the terminal."""
    size = log_path.stat().st_size
    if size > READ_BACK_MOST:
        raise TooLong(f"its log is too long to read back here ({size // 1000:,} kB, "
                      f"against {READ_BACK_MOST // 1000:,} kB at most)")


def seat_export(log_path: Path, seat: int) -> str:
    """A finished game's log as `seat` saw it while it was played, to take
    away: the header and every event as the seat was told it (the deck's
    order, the other hands as dealt and which cards the others threw to the
    crib stay hidden; every hand kept and the crib are in the counts).
    TooLong: see `check_read_back`."""
    check_read_back(log_path)
    loaded = load_log(log_path)
    header = {**loaded.header, "exported_for_seat": seat}
    lines = [json.dumps(header, ensure_ascii=False)]
    lines += [event_line(redact(event, seat)) for event in loaded.events]
    return "\n".join(lines) + "\n"


def utc_now() -> datetime:
    return datetime.now(UTC)


def cutoff(now: datetime) -> str:
    """The oldest last game that keeps a person on the leaderboard: the
    start of the day `ACTIVE_DAYS` before `now`'s (a day's board is the
    same all day)."""
    day = (now - timedelta(days=ACTIVE_DAYS)).date()
    return datetime(day.year, day.month, day.day, tzinfo=UTC).isoformat(timespec="seconds")


# The board's order is read whole (`Board`) and kept: read again in the
# background when the ratings changed and it is this old, or at once when
# the day changes (who played lately is counted by the day).
BOARD_STALE = 15.0  # seconds

# The board's people, as its index holds them: settled (a literal, so the
# query is seen to need only the partial index, see `results.SCHEMA`).
_SETTLED = f"sigma <= {PROVISIONAL_SIGMA!r}"


@dataclass(frozen=True, slots=True)
class Board:
    """The leaderboard's order at one time: every identity on it, the
    highest first. A page is a slice of it, a place a look-up, the size
    its length: none of them a count over a hundred thousand rows."""

    order: tuple[str, ...]
    places: dict[str, int]  # identity -> its place (1 the best)
    cutoff: str  # who played since then is on it
    read_at: float  # time.monotonic() as it was read


def read_board(db: sqlite3.Connection, since: str) -> Board:
    """The board's order from the store, by its index (rating, identity)."""
    order = tuple(row[0] for row in db.execute(
        f"SELECT identity FROM ratings INDEXED BY ratings_board WHERE {_SETTLED} "
        "AND last >= ? AND identity NOT LIKE 'computer %' ORDER BY mu DESC, identity",
        (since,)))
    return Board(order, {who: n for n, who in enumerate(order, 1)}, since, time.monotonic())


class Records:
    """The room's records, read-only (see the module's docstring)."""

    def __init__(self, ratings: Path | None, tables: Path | None) -> None:
        self.ratings = ratings
        self.tables = tables
        self._db: sqlite3.Connection | None = None
        self.clock: Callable[[], datetime] = utc_now  # what "recently" is counted from
        self._board: Board | None = None
        self._seen_version: int | None = None  # the store's data_version the board was read at
        self._reading: threading.Thread | None = None
        # A put-away table's log name -> (its time, the games read from it).
        self._seen: dict[str, tuple[float, tuple[tuple[str, Finished], ...]]] = {}
        # One look at a time: every session asks in a thread of its own, and
        # the second look waits to find the first's reads kept rather than
        # reading every file again beside it (and `_seen` is shared).
        self._looking = threading.Lock()

    @property
    def paths(self) -> tuple[str, str]:
        """The two folders, as a worker is sent them ("" for none)."""
        return (str(self.ratings or ""), str(self.tables or ""))

    @classmethod
    def at(cls, paths: tuple[str, str]) -> Records:
        """The records whose folders `paths` names (see `paths`)."""
        return cls(*(Path(p) if p else None for p in paths))

    def _connect(self) -> sqlite3.Connection | None:
        assert self.ratings is not None
        path = self.ratings / STORE
        if not path.exists():
            return None
        return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, check_same_thread=False)

    def _store(self) -> sqlite3.Connection | None:
        """The ratings' store, opened read-only at the first question (None:
        this room keeps none yet)."""
        if self._db is None and self.ratings is not None:
            self._db = self._connect()
        return self._db

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def _rows(self, query: str, parameters: tuple[object, ...]) -> list[tuple[Any, ...]]:
        db = self._store()
        if db is None:
            return []
        try:
            return list(db.execute(query, parameters))
        except sqlite3.Error as exc:  # (a store being made anew: asked again, it answers)
            log.warning("the ratings' store could not be read: %s", exc)
            return []

    # --- the leaderboard -------------------------------------------------------------

    def board(self) -> Board:
        """The board's order (see `Board`): kept, and read again as
        `BOARD_STALE` says."""
        since = cutoff(self.clock())
        db = self._store()
        if db is None:
            return Board((), {}, since, time.monotonic())
        try:
            version = int(db.execute("PRAGMA data_version").fetchone()[0])
            board = self._board
            if board is None or board.cutoff != since:
                self._board, self._seen_version = read_board(db, since), version
            elif version != self._seen_version and \
                    time.monotonic() - board.read_at > BOARD_STALE and self._reading is None:
                self._reading = threading.Thread(target=self._read_again, args=(since, version),
                                                 name="crib3-board", daemon=True)
                self._reading.start()
        except sqlite3.Error as exc:  # (a store being made anew: asked again, it answers)
            log.warning("the ratings' store could not be read: %s", exc)
        return self._board or Board((), {}, since, time.monotonic())

    def _read_again(self, since: str, version: int) -> None:
        """The board read again off the event loop, on a connection of its
        own, then put in place whole."""
        try:
            db = self._connect()
            if db is not None:
                try:
                    self._board, self._seen_version = read_board(db, since), version
                finally:
                    db.close()
        except sqlite3.Error as exc:
            log.warning("the leaderboard could not be read again: %s", exc)
        finally:
            self._reading = None

    def leaderboard(self, offset: int, count: int) -> list[Ranked]:
        """`count` lines of the leaderboard from place `offset` + 1: the
        people who played a rated game in the last `ACTIVE_DAYS` and are
        rated no longer provisionally, the highest first (equal ratings by
        identity, so the order is the same every time)."""
        order = self.board().order[max(0, offset):max(0, offset) + count]
        if not order:
            return []
        marks = ",".join("?" * len(order))
        rows = {r[0]: r for r in self._rows(
            f"SELECT identity, name, mu, sigma, games, last FROM ratings "
            f"WHERE identity IN ({marks})", order)}
        return [Ranked(offset + i + 1, who, str(r[1]), Skill(float(r[2]), float(r[3]), int(r[4])),
                       str(r[5]))
                for i, (who, r) in enumerate((who, rows.get(who)) for who in order)
                if r is not None]

    def size(self) -> int:
        """How many people the leaderboard lists."""
        return len(self.board().order)

    def place_of(self, identity: str | None) -> int | None:
        """`identity`'s place on the leaderboard; None: not on it."""
        return None if identity is None else self.board().places.get(identity)

    # --- a profile ---------------------------------------------------------------------

    def profile(self, identity: str | None) -> Profile | None:
        """`identity`'s record in rated games; None: never rated here."""
        if identity is None:
            return None
        rows = self._rows("SELECT name, mu, sigma, games, first, second, third, points, best, "
                          "last, scored FROM ratings WHERE identity = ?", (identity,))
        if not rows:
            return None
        r = rows[0]
        lines = self._rows("SELECT at, mu, sigma, game, place, score, ranked FROM history "
                           "WHERE identity = ? ORDER BY line", (identity,))
        history = tuple(Point(str(h[0]), Skill(float(h[1]), float(h[2]), i + 1))
                        for i, h in enumerate(lines))
        events = []
        before = NEWCOMER.shown
        for point, h in zip(history, lines):
            name = str(h[3]).removeprefix(EVENT).rsplit("-", 1)[0]
            if str(h[3]).startswith(EVENT):
                events.append(EventPlace(name, point.at, int(h[4]), int(h[6]), int(h[5]) / 10,
                                         point.skill.shown - before))
            before = point.skill.shown
        n = [int(x) for x in r[3:9]]
        return Profile(identity, str(r[0]), Skill(float(r[1]), float(r[2]), n[0]),
                       (n[1], n[2], n[3]), n[4], n[5], str(r[9]), history, int(r[10]),
                       tuple(reversed(events)))

    # --- finished games ------------------------------------------------------------------

    def finished(self, identity: str | None, count: int = 200) -> list[Finished]:
        """The finished games (rated or casual) `identity` sat in, the
        latest first, at most `count`: the room's put-away tables whose
        game is over (a table closed before its end is left out). Each
        table's files are read once a process (`_seen`): a room of ten
        thousand finished games costs a listing of its folder at each
        question, not ten thousand files (the first costs them all: its
        screen asks off the event loop)."""
        if identity is None or self.tables is None:
            return []
        with self._looking:
            return self._finished(identity, count)

    def _finished(self, identity: str, count: int) -> list[Finished]:
        assert self.tables is not None
        away = put_away_folder(self.tables)
        present: set[str] = set()
        games: list[Finished] = []
        try:
            with os.scandir(away) as entries:
                for entry in entries:
                    if not (entry.name.startswith("table-") and entry.name.endswith(".jsonl")):
                        continue
                    present.add(entry.name)
                    kept = self._seen.get(entry.name)
                    # A finished game never changes: asked no more. A table
                    # closed before its end may come back and end: looked at.
                    if kept is None or not kept[1] and entry.stat().st_mtime != kept[0]:
                        ended = entry.stat().st_mtime
                        kept = self._seen[entry.name] = (ended, _games_in(Path(entry.path),
                                                                          ended))
                    games += [game for who, game in kept[1] if who == identity]
        except OSError:
            return []
        for gone in set(self._seen) - present:
            del self._seen[gone]
        games.sort(key=lambda game: (game.ended, game.number), reverse=True)
        return games[:count]


def _games_in(log_path: Path, ended: float) -> tuple[tuple[str, Finished], ...]:
    """The finished game of `log_path`, once for each person who sat in it
    (their identity, and the game from their seat); none when it did not
    end with a win or its files cannot be read."""
    try:
        data = json.loads(seat_file_of(log_path).read_text(encoding="utf-8"))
        seats = [Seat(**seat) for seat in data["seats"]]
        number = int(data["number"])
        scores = _final_scores(log_path)
        if scores is None or len(scores) != len(seats):
            return ()
    except (OSError, ValueError, KeyError, TypeError):
        return ()
    names = tuple(s.name if s.name is not None else f"computer ({s.level})" for s in seats)
    rated = data.get("rated") is True
    found: dict[str, Finished] = {}
    for index, seat in enumerate(seats):
        who = seat_identity(seat) if seat.name is not None else None
        if who is not None and who not in found:
            found[who] = Finished(number, index, names, scores, ended, log_path, rated)
    return tuple(found.items())


def _final_scores(log_path: Path) -> tuple[int, ...] | None:
    """The scores of the game its log ends with the winning of (only its
    last line read); None: it did not end so (closed before its end)."""
    with log_path.open("rb") as f:
        f.seek(0, 2)
        f.seek(max(0, f.tell() - 4096))
        last = f.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    if b'"GameWon"' not in last:
        return None
    event = json.loads(last)
    if event.get("type") != "GameWon":
        return None
    return tuple(int(score) for score in event["scores"])
