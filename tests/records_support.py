"""A card room with a record: finished games on disk (in `closed/`, as the
room puts them away) and their results folded into the ratings, for the
tests of the lobby's "Players" and "My games" views."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from games import random_game

from crib3.engine import Rules
from crib3.engine.log import make_header, private_folder, write_log
from crib3.room import Room
from crib3.room.results import Result, Results, best_hands, game_id, log_digest
from crib3.room.seats import Seat
from crib3.room.storage import TableFiles, put_away_folder

ENDED = 1794859200.0  # 2026-11-17 22:00 UTC: the tables' games end a day apart from it


def finished_game(tables: Path, number: int, seats: Sequence[Seat], seed: int,
                  rated: bool = True) -> tuple[Path, tuple[int, ...]]:
    """A whole game of table `number`, put away as the room puts a finished
    one: its log and seat file in `closed/`. Its log, and its final scores."""
    game = random_game(seed, rules=Rules(target=61))
    files = TableFiles(put_away_folder(tables), number)
    private_folder(files.folder)
    write_log(files.log_path, game.events, make_header(source="crib3 serve", table=number))
    files.save_seats(seats[0].name or "host", Rules(target=61), seats, status="closed",
                     rated=rated)
    return files.log_path, tuple(game.state.scores)


def record(room: Room, log_path: Path, number: int, seats: Sequence[Seat],
           at: str) -> None:
    """The finished game's result, as the room writes it, dated `at`."""
    from crib3.engine.log import load_log

    assert room.results is not None
    state = load_log(log_path).state
    placings = room.placings(number, seats, state, best_hands(log_path))
    assert placings is not None
    room.results.record(Result(game_id(log_path), number, at, tuple(placings),
                               log_digest(log_path)))


def room_with_record(tmp_path: Path) -> Room:
    """Dan, with six finished games against Ann, Bob and the computer (five
    rated, one casual) in a room that rates; Ann, Bob and Cat too."""
    room = Room(tmp_path / "tables", think=3600, results=Results(tmp_path / "ratings"))
    people = {n: Seat(n, f"SHA256:{n.lower()}") for n in ("Dan", "Ann", "Bob", "Cat")}
    tables = [("Dan", "Ann", None), ("Dan", "Bob", "Ann"), ("Ann", "Dan", None),
              ("Dan", "Cat", "Bob"), ("Bob", "Dan", "Ann"), ("Dan", "Ann", "Cat")]
    for number, names in enumerate(tables, 1):
        seats = [people[n] if n else Seat(None, None, "standard") for n in names]
        log_path, _ = finished_game(room.folder, number, seats, seed=number, rated=number != 6)
        os.utime(log_path, (ENDED + number * 86400, ENDED + number * 86400))
        if number != 6:
            record(room, log_path, number, seats,
                   at=f"2026-11-{10 + 2 * number:02d}T20:00:00+00:00")
    return room


def rated_crowd(results: Results, names: Sequence[str], games: int, seed: int = 7,
                at: str = "2026-11-20T20:00:00+00:00",
                identities: Sequence[str] = ()) -> None:
    """`games` rated games among people called `names` (their identities
    `identities`, else "ssh crowd-N"), three a game, their scores drawn
    with `seed`: a board whose people have settled ratings."""
    import random

    from crib3.room.ratings import Placing

    draw = random.Random(seed)
    lines = []
    for n in range(games):
        who = draw.sample(range(len(names)), 3)
        scores = [121, draw.randrange(40, 120), draw.randrange(30, 120)]
        placings = tuple(Placing(identities[i] if i < len(identities) else f"ssh crowd-{i}",
                                 names[i], s, best=draw.randrange(0, 25))
                         for i, s in zip(who, scores))
        lines.append(Result(f"crowd-{seed}-{n}", 1000 + n, at, placings, "0" * 64).line())
    # Appended at once and folded in one go (a result a line, fsynced each,
    # took seconds): what a room's restart reads back.
    with results.log_path.open("a", encoding="utf-8") as f:
        f.write("".join(line + "\n" for line in lines))
    results.rebuild()
    results._lines += len(lines)  # (it counts the log's lines as it appends them)
