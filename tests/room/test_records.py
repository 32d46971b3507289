"""Each person's own record read back (crib3.room.records): the leaderboard
(settled and recent people only, a place that agrees with the pages), a
profile (places, points, best hand, the rating after each game), the
finished games one sat in, and a game exported as their seat saw it."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime, timedelta

import pytest
from records_support import rated_crowd, room_with_record

from crib3.room.ratings import Placing
from crib3.room.records import ACTIVE_DAYS, Records, seat_export
from crib3.room.results import MATCH, STORE, Result, Results

DAN = "ssh SHA256:dan"
AFTER = datetime(2026, 12, 1, tzinfo=UTC)  # ten days after the crowd's games


def crowd(tmp_path, people: int = 12, games: int = 100) -> Records:
    results = Results(tmp_path / "ratings")
    rated_crowd(results, [f"P{i}" for i in range(people)], games)
    results.close()
    records = Records(tmp_path / "ratings", None)
    records.clock = lambda: AFTER
    return records


def test_the_board_lists_settled_people_who_played_lately_highest_first(tmp_path):
    records = crowd(tmp_path)
    board = records.leaderboard(0, 100)
    assert board and len(board) == records.size()
    assert [r.place for r in board] == list(range(1, len(board) + 1))
    assert [r.skill.mu for r in board] == sorted((r.skill.mu for r in board), reverse=True)
    assert not any(r.skill.provisional for r in board)
    # Pages follow each other, and each one's place is what place_of says.
    pages = [r for offset in range(0, len(board), 7) for r in records.leaderboard(offset, 7)]
    assert pages == board
    assert all(records.place_of(r.identity) == r.place for r in board)
    # A month and more without a rated game: off the board.
    records.clock = lambda: AFTER + timedelta(days=ACTIVE_DAYS)
    assert records.size() == 0 and records.leaderboard(0, 10) == []
    assert records.place_of(board[0].identity) is None


def test_a_provisional_person_is_off_the_board_but_has_a_profile(tmp_path):
    records = crowd(tmp_path)
    results = Results(tmp_path / "ratings")
    results.record(Result("newcomer", 1, "2026-11-30T10:00:00+00:00",
                          (Placing("ssh new", "Neo", 121, best=12), Placing("ssh P0", "P0", 90)),
                          "0" * 64))
    profile = records.profile("ssh new")
    assert profile is not None and profile.skill.provisional
    assert records.place_of("ssh new") is None
    assert "ssh new" not in {r.identity for r in records.leaderboard(0, 1000)}
    assert profile.places == (1, 0, 0) and profile.best == 12 and profile.average == 121
    assert records.profile("ssh nobody") is None and records.profile(None) is None


def test_a_profile_adds_up_and_its_chart_ends_at_the_rating(tmp_path):
    room = room_with_record(tmp_path)
    profile = room.records.profile(DAN)
    assert profile is not None and profile.name == "Dan"
    assert sum(profile.places) == profile.skill.games == len(profile.history) == 5
    assert profile.history[-1].skill.shown == profile.skill.shown
    assert [p.at for p in profile.history] == sorted(p.at for p in profile.history)
    # Its figures are the results log's: points, and the best hand of any game.
    assert room.results is not None
    lines = [r for _, r in room.results.read()]
    mine = [p for r in lines for p in r.placings if p.identity == DAN]
    assert profile.points == sum(p.score for p in mine)
    assert profile.best == max(p.best for p in mine) > 0


def test_a_rebuilt_store_gives_the_same_profiles(tmp_path):
    room = room_with_record(tmp_path)
    assert room.results is not None
    people = [DAN, "ssh SHA256:ann", "ssh SHA256:bob", "ssh SHA256:cat"]
    before = [room.records.profile(who) for who in people]
    room.results.rebuild()
    assert [room.records.profile(who) for who in people] == before


def test_a_store_of_the_older_shape_is_made_anew_from_its_log(tmp_path):
    room = room_with_record(tmp_path)
    assert room.results is not None
    before = room.records.profile(DAN)
    room.results.close()
    room.records.close()
    db = sqlite3.connect(tmp_path / "ratings" / STORE)
    db.execute("DROP TABLE history")
    db.execute("PRAGMA user_version = 1")
    db.commit()
    db.close()
    again = Results(tmp_path / "ratings")
    assert again.count() == 5
    assert Records(tmp_path / "ratings", None).profile(DAN) == before


@pytest.mark.parametrize("best", [30, -1, True])
def test_a_result_line_with_a_best_hand_no_game_gives_is_refused(best):
    line = json.loads(Result("g", 1, "2026-11-30T10:00:00+00:00",
                             (Placing("ssh a", "A", 121), Placing("ssh b", "B", 90)),
                             "0" * 64).line())
    line["seats"][0]["best"] = best
    with pytest.raises(ValueError):
        Result.parse(json.dumps(line))


def test_my_finished_games_are_the_latest_first_rated_or_casual(tmp_path):
    room = room_with_record(tmp_path)
    games = room.records.finished(DAN)
    assert [g.number for g in games] == [6, 5, 4, 3, 2, 1]
    assert [g.rated for g in games] == [False] + [True] * 5
    assert games[1].names == ("Bob", "Dan", "Ann") and games[1].seat == 1
    assert [g.number for g in room.records.finished("ssh SHA256:cat")] == [6, 4]
    assert room.records.finished("ssh stranger") == [] and room.records.finished(None) == []


def test_a_game_exported_for_a_seat_hides_what_that_seat_never_saw(tmp_path):
    room = room_with_record(tmp_path)
    game = room.records.finished(DAN)[1]  # Dan in the second seat
    lines = [json.loads(line) for line in seat_export(game.log_path, game.seat).splitlines()]
    header, events = lines[0], lines[1:]
    assert header["exported_for_seat"] == 1
    dealt = [e for e in events if e["type"] == "CardsDealt"]
    assert dealt and all(len(e["hands"][1]) > 0 for e in dealt)
    assert all(e["hands"][0] == [] and e["hands"][2] == [] and e["crib_card"] is None
               for e in dealt)
    assert all(e["deck"] is None for e in events if e["type"] == "DeckShuffled")
    thrown = [e for e in events if e["type"] == "CardDiscarded"]
    assert all(e["card"] is None for e in thrown if e["seat"] != 1)
    assert any(e["card"] is not None for e in thrown if e["seat"] == 1)
    # Every hand kept, and the crib, are in the counts.
    assert any(e["type"] == "HandCounted" and e["crib"] for e in events)


def test_each_put_away_tables_files_are_read_once_and_a_new_one_is_found(tmp_path,
                                                                          monkeypatch):
    from records_support import finished_game

    from crib3.room import records as records_module
    from crib3.room.seats import Seat

    room = room_with_record(tmp_path)
    read: list[str] = []
    real = records_module._games_in
    monkeypatch.setattr(records_module, "_games_in",
                        lambda path, ended: read.append(path.name) or real(path, ended))
    assert len(room.records.finished(DAN)) == 6 and len(read) == 6
    assert len(room.records.finished("ssh SHA256:ann")) == 5 and len(read) == 6
    finished_game(room.folder, 7, [Seat("Dan", "SHA256:dan"), Seat(None), Seat(None)], seed=7)
    assert [g.number for g in room.records.finished(DAN)][:1] == [7] and read[6:] == \
        ["table-7.jsonl"]


def test_a_matchs_games_won_count_in_the_places_not_in_the_average_points(tmp_path):
    """A match's result scores each seat by its games won (`MATCH`): the
    profile's average points a game leaves it out."""
    results = Results(tmp_path / "ratings")
    results.record(Result("one-game", 1, "2026-11-30T10:00:00+00:00",
                          (Placing("ssh new", "Neo", 121), Placing("ssh P0", "P0", 90)),
                          "0" * 64))
    results.record(Result(MATCH + "first-game", 2, "2026-11-30T11:00:00+00:00",
                          (Placing("ssh new", "Neo", 2), Placing("ssh P0", "P0", 1)), "1" * 64))
    results.close()
    profile = Records(tmp_path / "ratings", None).profile("ssh new")
    assert profile is not None and profile.places == (2, 0, 0) and profile.skill.games == 2
    assert profile.average == 121
