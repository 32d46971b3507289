"""A daylong duplicate event: five people play one event's boards at
different times of the day, each against the event's computer level, and
each is compared with everyone who held the same cards, whenever they
played. At every point of the day the results (`crib3 event results
--json`, as a person runs it) are a recomputation from the plays' logs
alone: each play's points folded from its log, its matchpoints against
the board's whole field so far, a person's score their boards' mean."""

from __future__ import annotations

import json
from pathlib import Path

from commands import crib3

from crib3.duplicate.events import load_event
from crib3.duplicate.play import play_with_bots
from crib3.engine.log import load_log, write_log

# Who plays their next boards in each sitting of the day, in order, and how
# well (the computer level standing in for the person's play).
DAY = [
    [("Ann", 1)],
    [("Bob", 2)],
    [("Ann", 1), ("Cat", 1)],
    [("Dan", 3), ("Eve", 1)],
    [("Ann", 1), ("Bob", 1), ("Cat", 2), ("Eve", 2)],
]
SKILL = {"Ann": "expert", "Bob": "standard", "Cat": "easy", "Dan": "expert", "Eve": "standard"}


def folded_points(log: Path) -> list[int]:
    """What each seat made on the board (the entry's seat first), from the
    log alone."""
    return list(load_log(log).state.scores)


def percents(nets: list[float]) -> list[float]:
    """Matchpoints as a percentage: a point for each lower net in the field,
    half for each equal one, out of the others."""
    return [100 * sum(1 if a > b else 0.5 if a == b else 0
                      for j, b in enumerate(nets) if j != i) / (len(nets) - 1)
            for i, a in enumerate(nets)]


def test_five_people_play_a_daylong_event_at_different_times(tmp_path, monkeypatch):
    assert crib3("event", "new", "--boards", "3", "--seed", "21", "--level", "easy",
                 "--name", "day", home=tmp_path).returncode == 0
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    played: dict[str, list[int]] = {name: [] for name in SKILL}
    for sitting in DAY:
        for name, boards in sitting:
            for _ in range(boards):
                event = load_event("day")
                board = event.next_board(name)
                assert board is not None and board.number == len(played[name]) + 1
                game = play_with_bots(board, event.seat(board.number),
                                      (SKILL[name], "easy", "easy"), (name, "L", "R"),
                                      salt=name)
                write_log(event.person_log(board.number, name), game.events,
                          event.header(board.number, name, "test"))
                played[name].append(board.number)
        data = json.loads(crib3("event", "results", "day", "--json", home=tmp_path).stdout)
        mine: dict[str, list[float]] = {name: [] for name in SKILL}
        for result in data["results"]:
            number = result["board"]
            people = {p["who"] for p in result["plays"] if p["person"]}
            assert people == {n for n, boards in played.items() if number in boards}
            assert len(result["plays"]) == len(people) + 3  # and the computer's three levels
            nets = []
            for play in result["plays"]:
                points = folded_points(Path(play["log"]))
                assert play["points"] == points, play
                nets.append(points[0] - (points[1] + points[2]) / 2)
            for play, percent in zip(result["plays"], percents(nets)):
                assert abs(play["matchpoints_percent"] - percent) < 0.01, (number, play)
                if play["person"]:
                    mine[play["who"]].append(percent)
        ranked = {r["who"]: r for r in data["ranking"] if r["person"]}
        assert set(ranked) == {name for name, boards in played.items() if boards}
        for name, row in ranked.items():
            assert row["boards"] == len(played[name])
            assert abs(row["percent"] - sum(mine[name]) / len(mine[name])) < 0.01, row
    event = load_event("day")
    assert all(event.next_board(name) is None for name in SKILL)  # nobody's board twice
    ann = json.loads(crib3("event", "results", "day", "--json", "--name", "Ann",
                           home=tmp_path).stdout)
    assert [b["board"] for b in ann["results"]] == [1, 2, 3]
