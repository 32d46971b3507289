"""`crib3 ratings` and `crib3 ratings rebuild`: the room's ratings as plain
text, and every rating made anew from the results log, the same."""

from __future__ import annotations

import json

from crib3.cli import main
from crib3.common.paths import data_dir
from crib3.room.ratings import Placing, bot_identity
from crib3.room.results import Result, Results

# Names as people type them, each shown literally (never as markup) and
# escaped where it could move the terminal.
ANN, BOB = "[bold]Ann[/]", "Bob\x1b[2J"


def some_results() -> Results:
    book = Results(data_dir() / "ratings")
    for n in range(4):
        seats = (("ssh ann", ANN, 121 - n), ("web bob", BOB, 110 + n),
                 (bot_identity("easy"), "Ezra", 60))
        book.record(Result(f"g{n}", n, "2026-12-06T12:00:00+00:00",
                           tuple(Placing(*seat) for seat in seats), "0" * 64))
    return book


def test_ratings_lists_the_highest_first_with_the_levels_and_the_names_as_typed(capsys):
    some_results().close()
    assert main(["ratings"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) == 5
    assert "[bold]Ann[/]" in lines[0]  # four wins
    assert any("computer (expert)" in line and " 1669 " in line for line in lines)
    assert "[bold]Ann[/]" in out and "4 games" in out and "?" in out
    assert "\x1b" not in out  # the escape is shown, not sent
    assert main(["ratings", "--people", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in rows] == [ANN, BOB] or [r["name"] for r in rows] == [BOB, ANN]
    assert all(r["provisional"] and r["games"] == 4 and not r["computer"] for r in rows)


def test_ratings_with_nobody_rated_says_so(capsys):
    assert main(["ratings", "--people"]) == 0
    assert "nobody is rated here yet" in capsys.readouterr().out


def test_rebuild_gives_the_same_numbers(capsys):
    book = some_results()
    before = book.skills()
    book.close()
    assert main(["ratings", "rebuild"]) == 0
    assert capsys.readouterr().out == "4 results folded into 2 ratings: the same numbers\n"
    again = Results(data_dir() / "ratings")
    assert again.skills() == before


def test_rebuild_mends_a_store_that_differs_from_its_log(capsys):
    book = some_results()
    before = book.skills()
    book.db.execute("UPDATE ratings SET mu = 99 WHERE identity = 'ssh ann'")
    book.close()
    assert main(["ratings", "rebuild"]) == 0
    assert "numbers that differ from the store's" in capsys.readouterr().out
    assert Results(data_dir() / "ratings").skills() == before


def test_calibrate_plays_the_levels_and_says_their_ratings(capsys, monkeypatch):
    """The games are crib3 sim's (tested there): here, what is made of them."""
    from crib3.study import sim

    played = []

    class Summary:
        games = 600

        def __init__(self, levels):
            self.levels = levels

        def win_share(self, entry):
            share = {"expert": 0.459, "standard": 0.875}[self.levels[0]]
            return share, share - 0.03, share + 0.03

    def run(levels, games, seed=None, jobs=1):
        played.append((levels, games, seed))
        return Summary(levels)

    monkeypatch.setattr(sim, "run", run)
    assert main(["ratings", "calibrate", "--games", "600", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert played == [(("expert", "standard", "standard"), 600, 4301),
                      (("standard", "easy", "easy"), 600, 4301)]
    assert "expert against two standard: 45.9%" in out
    # The shares in force give the ratings in force.
    for level, shown in (("easy", 654), ("standard", 1500), ("expert", 1669)):
        assert f"computer {level}: {shown} (in force: {shown})" in out
