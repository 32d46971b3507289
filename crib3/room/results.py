"""The finished rated games' results, and the ratings they fold into.

Two files in one folder (`crib3 serve` keeps them in crib3's data folder,
under `ratings/`; both its owner's alone, 0600):

- `results.jsonl`, the truth: one line a finished rated game (its id, the
  table, when, each seat's identity, name, score, place, whether its
  person left, and a digest of the game's log), appended and fsynced,
  never rewritten. A game's line is written once: a game already there
  (a restart, a replayed result, a table resumed) is not written again.
- `ratings.sqlite3`, the query store beside it (WAL): every identity's
  rating, the latest name it played under, and which games are folded in.
  It is only a cache of the fold: `rebuild` makes it anew from the log and
  gives the same numbers, and a store behind its log (a crash between the
  two writes) catches up when it is opened.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from crib3.engine.events import GameStarted, HandCounted
from crib3.engine.log import LogError, load_log, open_private, private_folder
from crib3.room.ratings import (
    BOT_PREFIX,
    BOT_SKILLS,
    PROVISIONAL_SIGMA,
    Placing,
    Skill,
    places,
    rate,
)

log = logging.getLogger("crib3.serve")

RESULTS, STORE = "results.jsonl", "ratings.sqlite3"
FORMAT = "crib3-result"
MOST_A_HAND = 29  # the best count a hand can have
MATCH = "match-"  # a match's result's id begins so: its seats' scores are games won
# A duplicate event's result's id begins so (`crib3.room.event_ratings`): one
# result an event, its entries ranked by the event's score, in tenths of a
# percent of matchpoints (so 0 to 1000), however many they are.
EVENT = "event-"
EVENT_SCORE = 1000
MOST_ENTRIES = 1000  # an event's result ranks at most this many entries


@dataclass(frozen=True, slots=True)
class Result:
    """One finished rated game, as its line in the results log says it."""

    game: str  # the game's id (`game_id`): a result is applied once a game
    table: int
    at: str  # when it ended, ISO 8601 in UTC
    placings: tuple[Placing, ...]
    digest: str  # sha256 of the game's log: the game the result was folded from

    def line(self) -> str:
        """The result as its line in the log (without the newline)."""
        seats = [{"id": p.identity, "name": p.name, "score": p.score, "place": place,
                  "left": p.left, "best": p.best}
                 for p, place in zip(self.placings, places(self.placings))]
        return json.dumps({"format": FORMAT, "game": self.game, "table": self.table,
                           "at": self.at, "seats": seats, "log": self.digest},
                          ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def parse(cls, line: str) -> Result:
        """A result from its line; ValueError says what is wrong with it."""
        try:
            data: Any = json.loads(line)
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                raise ValueError("not a result line")
            placings = tuple(Placing(_text(s["id"]), _text(s["name"]), _number(s["score"]),
                                     bool(s.get("left", False)), _number(s.get("best", 0)))
                             for s in data["seats"])
            result = cls(_text(data["game"]), _number(data["table"]), _text(data["at"]),
                         placings, _text(data["log"]))
        except (KeyError, TypeError, json.JSONDecodeError) as exc:
            raise ValueError(f"a damaged result line ({exc})") from None
        event = result.game.startswith(EVENT)
        if not 2 <= len(placings) <= (MOST_ENTRIES if event else 3):
            raise ValueError(f"a result of {len(placings)} seats")
        people = [p.identity for p in placings if not p.identity.startswith(BOT_PREFIX)]
        if not people or len(set(people)) != len(people):
            raise ValueError("no person, or one person in two seats")
        most = EVENT_SCORE if event else 200
        if not all(0 <= p.score <= most and 0 <= p.best <= MOST_A_HAND for p in placings):
            raise ValueError("a score or a best hand no game gives")
        if [s.get("place") for s in data["seats"]] != places(placings):
            raise ValueError("places that its scores do not give")
        return result


def _text(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise TypeError(f"{value!r} is not a text")
    return value


def _number(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{value!r} is not a whole number")
    return value


def game_id(log_path: Path) -> str:
    """A game's id, from its log's first two lines (the header, with the
    table and the minute it was made, and the game's start, with its seed
    and players): the same game read back after a restart, or adopted, has
    the same id; two games never share one."""
    with log_path.open("rb") as f:
        head = f.readline() + f.readline()
    return hashlib.sha256(head).hexdigest()[:32]


def best_hands(log_path: Path) -> list[int]:
    """Each seat's best hand (not its crib) counted in a game's log: its
    players' profiles keep the best they ever had. A log that cannot be
    read gives none (zeros): a result is not lost over a profile's line."""
    seen = BestHands()
    try:
        load_log(log_path, keep_events=False, on_event=seen)
    except (LogError, OSError) as exc:
        log.warning("%s: no best hands read from it: %s", log_path, exc)
    return seen.best


class BestHands:
    """Each seat's best hand (not its crib), as a game's events go by."""

    def __init__(self) -> None:
        self.best: list[int] = []

    def __call__(self, event: object) -> None:
        if isinstance(event, GameStarted):
            self.best = [0] * len(event.players)
        elif isinstance(event, HandCounted) and not event.crib and event.seat < len(self.best):
            self.best[event.seat] = max(self.best[event.seat], event.points)


def lines_game_id(lines: Sequence[str]) -> str:
    """`game_id` of a log held as its lines (a cluster's table, on its
    stream: the same lines a file holds)."""
    return hashlib.sha256((lines[0] + "\n" + lines[1] + "\n").encode()).hexdigest()[:32]


def lines_digest(lines: Sequence[str]) -> str:
    """`log_digest` of a log held as its lines."""
    return hashlib.sha256("".join(line + "\n" for line in lines).encode()).hexdigest()


def log_digest(log_path: Path) -> str:
    """sha256 of a game's whole log."""
    return hashlib.sha256(log_path.read_bytes()).hexdigest()


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class Rated:
    """One line of a ratings list: an identity, the name it last played
    under, its skill, and whether it is a computer level's."""

    identity: str
    name: str
    skill: Skill

    @property
    def computer(self) -> bool:
        return self.identity.startswith(BOT_PREFIX)


# The store's shape; a store of another version is made anew from the log
# when it is opened (it is only a cache of the fold).
VERSION = 5
SCHEMA = f"""
CREATE TABLE IF NOT EXISTS folded (game TEXT PRIMARY KEY, line INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS ratings (identity TEXT PRIMARY KEY, name TEXT NOT NULL,
    mu REAL NOT NULL, sigma REAL NOT NULL, games INTEGER NOT NULL,
    first INTEGER NOT NULL DEFAULT 0, second INTEGER NOT NULL DEFAULT 0,
    third INTEGER NOT NULL DEFAULT 0, points INTEGER NOT NULL DEFAULT 0,
    best INTEGER NOT NULL DEFAULT 0, last TEXT NOT NULL DEFAULT '',
    scored INTEGER NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS ratings_by_mu ON ratings (mu DESC, identity);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (mu DESC, identity, last)
    WHERE sigma <= {PROVISIONAL_SIGMA!r};
CREATE TABLE IF NOT EXISTS history (identity TEXT NOT NULL, line INTEGER NOT NULL,
    game TEXT NOT NULL, at TEXT NOT NULL, tab INTEGER NOT NULL, place INTEGER NOT NULL,
    score INTEGER NOT NULL, mu REAL NOT NULL, sigma REAL NOT NULL,
    ranked INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (identity, line)) WITHOUT ROWID;
"""  # (the board's index holds the settled alone: see `crib3.room.records`)


class Results:
    """A room's results log and its query store (see the module's docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        private_folder(folder)
        self.log_path = folder / RESULTS
        self.store_path = folder / STORE
        if not self.store_path.exists():  # made its owner's alone before SQLite opens it
            open_private(self.store_path, "a").close()
        self.db = sqlite3.connect(self.store_path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self._end_cut_line()
        self._lines = self._lines_in_log()  # counted once: only this object appends
        if int(self.db.execute("PRAGMA user_version").fetchone()[0]) != VERSION:
            self._made_anew()
        else:
            self._catch_up()

    def _made_anew(self) -> None:
        """A store of another shape (or none) made anew from the log."""
        with self._transaction():
            for table in ("folded", "ratings", "history"):
                self.db.execute(f"DROP TABLE IF EXISTS {table}")
            for index in ("ratings_by_mu", "ratings_board"):
                self.db.execute(f"DROP INDEX IF EXISTS {index}")
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            self.db.execute(f"PRAGMA user_version = {VERSION}")
            for number, result in self.read():
                self._fold(result, number, alone=False)

    def close(self) -> None:
        self.db.close()

    # --- writing -----------------------------------------------------------------

    def has(self, game: str) -> bool:
        """The game's result is in (folded into the ratings)."""
        return self.db.execute("SELECT 1 FROM folded WHERE game = ?", (game,)).fetchone() \
            is not None

    def record(self, result: Result) -> bool:
        """Append a finished game's result and fold it in; False (and
        nothing written) when that game's result is in already."""
        if self.has(result.game):
            return False
        line = result.line()
        Result.parse(line)  # (what is written must read back)
        number = self._lines
        with open_private(self.log_path, "a") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
        self._lines += 1
        self._fold(result, number)
        return True

    def _end_cut_line(self) -> None:
        """A line a crash cut short is ended, so the next result is a line of
        its own (the cut one is then left out as damaged, see `read`)."""
        try:
            with self.log_path.open("rb") as f:
                f.seek(0, os.SEEK_END)
                if f.tell() == 0:
                    return
                f.seek(-1, os.SEEK_END)
                if f.read(1) == b"\n":
                    return
        except FileNotFoundError:
            return
        log.warning("%s: its last line was cut short; left out", self.log_path)
        with open_private(self.log_path, "a") as f:
            f.write("\n")
            f.flush()
            os.fsync(f.fileno())

    def _lines_in_log(self) -> int:
        if not self.log_path.exists():
            return 0
        with self.log_path.open("rb") as f:
            return sum(1 for _ in f)

    def _fold(self, result: Result, number: int, alone: bool = True) -> None:
        """Apply one result to the store (with its place in the log, so a
        store behind its log knows where to go on): in a transaction of its
        own, or (`alone` False) in the caller's."""
        identities = [p.identity for p in result.placings]
        marks = ",".join("?" * len(identities))
        skills = {row[0]: Skill(row[1], row[2], row[3]) for row in self.db.execute(
            f"SELECT identity, mu, sigma, games FROM ratings WHERE identity IN ({marks})",
            identities)}
        moved = rate(skills, result.placings)
        seats = {p.identity: (p, place) for p, place in zip(result.placings,
                                                               places(result.placings))}
        # A match's scores are games won: its line counts in the places, not
        # in the points a game (`points`, `scored`). An event's counts in
        # neither: its place is among a field, not at a table of three
        # (a profile lists it under its events, from `history`).
        game = 0 if result.game.startswith((MATCH, EVENT)) else 1
        at_table = 0 if result.game.startswith(EVENT) else 1
        with self._transaction() if alone else contextlib.nullcontext():
            self.db.execute("INSERT INTO folded (game, line) VALUES (?, ?)",
                            (result.game, number))
            self.db.executemany(
                "INSERT INTO ratings (identity, name, mu, sigma, games, first, second, third, "
                "points, best, last, scored) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (identity) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
                "sigma = excluded.sigma, games = excluded.games, "
                "first = first + excluded.first, second = second + excluded.second, "
                "third = third + excluded.third, points = points + excluded.points, "
                "best = MAX(best, excluded.best), last = excluded.last, "
                "scored = scored + excluded.scored",
                [(who, seats[who][0].name, s.mu, s.sigma, s.games,
                  at_table * (seats[who][1] == 1), at_table * (seats[who][1] == 2),
                  at_table * (seats[who][1] == 3),
                  seats[who][0].score * game,
                  seats[who][0].best, result.at, game) for who, s in moved.items()])
            self.db.executemany(
                "INSERT INTO history (identity, line, game, at, tab, place, score, mu, sigma, "
                "ranked) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                [(who, number, result.game, result.at, result.table, seats[who][1],
                  seats[who][0].score, s.mu, s.sigma, len(result.placings))
                 for who, s in moved.items()])

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # --- reading the log back ------------------------------------------------------

    def read(self) -> Iterator[tuple[int, Result]]:
        """Every result in the log with its line number (0 the first),
        each game's first only; a line that is not a result is left out,
        with one line in the server's log saying so."""
        if not self.log_path.exists():
            return
        seen: set[str] = set()
        with self.log_path.open(encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f):
                if not line.endswith("\n"):  # cut short by a crash: never written whole
                    log.warning("%s line %d: cut short; left out", self.log_path, number + 1)
                    return
                try:
                    result = Result.parse(line)
                except ValueError as exc:
                    log.warning("%s line %d: %s; left out", self.log_path, number + 1, exc)
                    continue
                if result.game in seen:
                    log.warning("%s line %d: game %s again; left out", self.log_path,
                                number + 1, result.game)
                    continue
                seen.add(result.game)
                yield number, result

    def _catch_up(self) -> None:
        """Fold the results the store has not yet (written just before a crash)."""
        row = self.db.execute("SELECT MAX(line) FROM folded").fetchone()
        last = -1 if row[0] is None else int(row[0])
        for number, result in self.read():
            if number > last and not self.has(result.game):
                self._fold(result, number)

    def folded_up_to(self) -> int:
        """The place of the last result folded in (its line in the log, or
        on a cluster its sequence on the results' stream); -1: none."""
        row = self.db.execute("SELECT MAX(line) FROM folded").fetchone()
        return -1 if row[0] is None else int(row[0])

    def fold_line(self, line: str, place: int) -> str | None:
        """A result line read from elsewhere (a cluster's results stream,
        `crib3.cluster.results`), at `place` there, folded in: None, or
        why it was refused (a line that is no result, or a game that is in
        already: a replayed result). Nothing is written to the log here:
        the stream is the log."""
        try:
            result = Result.parse(line)
        except ValueError as exc:
            return str(exc)
        if self.has(result.game):
            return f"game {result.game} is in already (a replayed result)"
        self._fold(result, place)
        return None

    def rebuild(self) -> int:
        """Every rating made anew from the results log; how many results."""
        count = 0
        with self._transaction():  # one commit: all of it, or the store as it was
            for table in ("folded", "ratings", "history"):
                self.db.execute(f"DELETE FROM {table}")
            for number, result in self.read():
                self._fold(result, number, alone=False)
                count += 1
        return count

    # --- questions ------------------------------------------------------------------

    def skill(self, identity: str) -> Skill | None:
        """`identity`'s rating (fixed for a computer level), None: never rated."""
        if identity in BOT_SKILLS:
            return BOT_SKILLS[identity]
        row = self.db.execute("SELECT mu, sigma, games FROM ratings WHERE identity = ?",
                              (identity,)).fetchone()
        return None if row is None else Skill(row[0], row[1], row[2])

    def skills(self) -> dict[str, Skill]:
        """Every rated identity's skill (the computer levels' fixed ones left out)."""
        return {row[0]: Skill(row[1], row[2], row[3]) for row in self.db.execute(
            "SELECT identity, mu, sigma, games FROM ratings")}

    def top(self, count: int, computers: bool = True) -> list[Rated]:
        """The `count` highest ratings, the highest first (ties by identity,
        so the order is the same every time); with `computers`, the
        computer levels among them, as a yardstick."""
        rows = [Rated(row[0], row[1], Skill(row[2], row[3], row[4])) for row in self.db.execute(
            "SELECT identity, name, mu, sigma, games FROM ratings "
            "ORDER BY mu DESC, identity LIMIT ?", (count,))]
        if computers:
            rows += [Rated(who, f"computer ({who.removeprefix(BOT_PREFIX)})", skill)
                     for who, skill in BOT_SKILLS.items()]
        rows.sort(key=lambda r: (-r.skill.mu, r.identity))
        return rows[:count]

    def count(self) -> int:
        """How many results are folded in."""
        return int(self.db.execute("SELECT COUNT(*) FROM folded").fetchone()[0])


def stored_skills(folder: Path) -> dict[str, Skill] | None:
    """Every rated identity's skill in the store in `folder`, read without
    writing anything (a node may be folding into it meanwhile: SQLite's
    WAL lets it); None: no store there."""
    path = folder / STORE
    if not path.is_file():
        return None
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return {row[0]: Skill(row[1], row[2], row[3]) for row in db.execute(
            "SELECT identity, mu, sigma, games FROM ratings")}
    finally:
        db.close()


def result_of(game: str, table: int, placings: Sequence[Placing], digest: str) -> Result:
    """A game's result as it ends now."""
    return Result(game, table, now(), tuple(placings), digest)


def match_result(table: int, placings: Sequence[Placing], logs: Sequence[Path]) -> Result:
    """A won match's one result, as it ends now (`crib3.room.match`): its
    id the first game's with `MATCH` before it (once a match, as a game's
    is once a game), its digest of every game's log in order, and each
    seat's score its games won, which ranks the seats as the match did."""
    digest = hashlib.sha256("".join(log_digest(path) for path in logs).encode()).hexdigest()
    return Result(MATCH + game_id(logs[0]), table, now(), tuple(placings), digest)
