"""The results log and its query store (crib3.room.results), and the room
writing a rated table's result once its game is over."""

from __future__ import annotations

import asyncio
import json
import stat

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from room.test_room import arrive, play_people

from crib3.engine import Rules
from crib3.room import Room
from crib3.room.ratings import Placing, bot_identity, fold
from crib3.room.results import Result, Results
from crib3.room.seats import FIRST_USE

PEOPLE = ["ssh a", "ssh b", "ssh c", "web d", "code e"]


def result(n: int, who=("ssh a", "ssh b", "ssh c"), scores=(121, 100, 90), left=()) -> Result:
    placings = tuple(Placing(i, i.upper(), s, i in left) for i, s in zip(who, scores))
    return Result(f"game{n}", n, "2026-12-06T12:00:00+00:00", placings, "d" * 64)


def test_a_result_is_written_once_and_read_back_the_same(tmp_path):
    book = Results(tmp_path / "ratings")
    assert book.record(result(1))
    assert not book.record(result(1))  # the same game again: nothing written
    assert book.log_path.read_text().count("\n") == 1
    assert [r for _, r in book.read()] == [result(1)]
    assert book.count() == 1 and book.skill("ssh a").shown > 1500 > book.skill("ssh c").shown
    book.close()
    again = Results(tmp_path / "ratings")  # a restart: nothing folded twice
    assert not again.record(result(1)) and again.count() == 1


def test_the_files_are_their_owners_alone(tmp_path):
    book = Results(tmp_path / "ratings")
    book.record(result(1))
    for path in (book.log_path, book.store_path):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    assert book.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_a_line_that_is_no_result_is_left_out_with_one_line_in_the_log(tmp_path, caplog):
    book = Results(tmp_path / "ratings")
    book.record(result(1))
    line = json.loads(result(2).line())
    line["seats"][2]["place"] = 1  # a place its scores do not give
    with book.log_path.open("a") as f:
        f.write(json.dumps(line) + "\n")
        f.write("{not json\n")
        f.write(result(1).line() + "\n")  # a replayed result
        twice = json.loads(result(3).line())
        twice["seats"][1]["id"] = "ssh a"  # one person in two seats
        f.write(json.dumps(twice) + "\n")
    assert book.rebuild() == 1
    assert book.count() == 1
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert len(warnings) == 4 and "places that its scores do not give" in warnings[0]


def test_rebuild_gives_the_same_numbers(tmp_path):
    book = Results(tmp_path / "ratings")
    for n in range(8):
        who = PEOPLE[n % 5:] + PEOPLE[:n % 5]
        book.record(result(n, tuple(who[:3]), (121, 90 + n, 95)))
    before = book.skills()
    assert book.rebuild() == 8
    assert book.skills() == before
    assert before == fold([r.placings for _, r in book.read()])


def test_a_store_behind_its_log_catches_up_when_opened(tmp_path):
    """A crash between the log's line and the store's commit."""
    book = Results(tmp_path / "ratings")
    book.record(result(1))
    with book.log_path.open("a") as f:
        f.write(result(2, scores=(90, 121, 100)).line() + "\n")
    book.close()
    again = Results(tmp_path / "ratings")
    assert again.count() == 2 and again.has("game2")
    assert again.skills() == fold([result(1).placings, result(2, scores=(90, 121, 100)).placings])


def test_the_top_list_has_the_computer_levels_as_a_yardstick(tmp_path):
    book = Results(tmp_path / "ratings")
    book.record(result(1, ("ssh a", bot_identity("expert"), bot_identity("expert")),
                       (80, 121, 100)))
    top = book.top(10)
    assert [r.identity for r in top][:1] == [bot_identity("expert")]
    assert {r.identity for r in top} == {"ssh a", *(bot_identity(level) for level in
                                                    ("easy", "standard", "expert"))}
    assert [r.identity for r in book.top(10, computers=False)] == ["ssh a"]


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.permutations(PEOPLE), st.booleans(), st.booleans()),
                min_size=1, max_size=10))
def test_ratings_rebuilt_equal_the_stored_ones_whatever_the_restarts(tmp_path_factory, games):
    """Results recorded with restarts (and replays of results already in)
    anywhere between them: the store holds the fold of the log, and a
    rebuild gives the same numbers."""
    folder = tmp_path_factory.mktemp("ratings")
    book = Results(folder)
    for n, (who, restart, replay) in enumerate(games):
        book.record(result(n, tuple(who[:3]), (121, 80 + 7 * n % 40, 100)))
        if replay:
            assert not book.record(result(max(0, n - 1), tuple(who[:3])))
        if restart:
            book.close()
            book = Results(folder)
    stored = book.skills()
    assert stored == fold([r.placings for _, r in book.read()])
    book.rebuild()
    assert book.skills() == stored


# --- the room --------------------------------------------------------------------------


def rating_room(tmp_path, rates: bool = True) -> Room:
    results = Results(tmp_path / "ratings") if rates else None
    return Room(tmp_path / "tables", think=0, results=results)


async def test_a_rated_tables_finished_game_moves_its_peoples_ratings_once(tmp_path):
    room = rating_room(tmp_path)
    ann, bob = arrive(room, "Ann", "SHA256:ann"), arrive(room, "Bob", FIRST_USE + "code 99")
    table = room.open_table(ann, Rules(target=61), ("easy", "standard"))
    assert table.rated
    table.sit(bob)
    table.start("Ann")
    await play_people(table, (0, 1))
    assert room.results is not None
    [(_, line)] = list(room.results.read())
    assert [p.identity for p in line.placings] == ["ssh SHA256:ann", "code 99",
                                                   bot_identity("standard")]
    assert [p.score for p in line.placings] == list(table.game.state.scores)
    assert room.results.skill("ssh SHA256:ann").games == 1
    room.game_over(table, table.game.state)  # told again (a replay): nothing moves twice
    assert room.results.count() == 1 and room.results.skill("code 99").games == 1


async def test_a_casual_table_and_a_room_without_ratings_move_nothing(tmp_path):
    room = rating_room(tmp_path / "rated")
    ann = arrive(room, "Ann", "SHA256:ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"), rated=False)
    assert not table.rated
    table.start("Ann")
    await play_people(table, (0,))
    assert room.results is not None and room.results.count() == 0
    plain = rating_room(tmp_path / "plain", rates=False)
    cat = arrive(plain, "Cat", "SHA256:cat")
    assert not plain.open_table(cat, Rules(), ("easy", "easy"), rated=True).rated


async def test_a_seat_its_person_left_is_ranked_last_for_them(tmp_path):
    room = rating_room(tmp_path)
    room.patience = 0
    ann, bob = arrive(room, "Ann", "SHA256:ann"), arrive(room, "Bob", "SHA256:bob")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"))
    table.sit(bob)
    table.start("Ann")
    table.leave(1)  # Bob goes; Ann gives his seat to the computer
    table.replace(1, "Ann")
    await play_people(table, (0,))
    [(_, line)] = list(room.results.read())
    bob_line = json.loads(line.line())["seats"][1]
    assert bob_line["id"] == "ssh SHA256:bob" and bob_line["left"] and bob_line["place"] == 3


async def test_one_key_in_two_seats_rates_nothing(tmp_path, caplog):
    room = rating_room(tmp_path)
    ann, alt = arrive(room, "Ann", "SHA256:ann"), arrive(room, "Alt", "SHA256:ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"))
    table.sit(alt)
    table.start("Ann")
    await play_people(table, (0, 1))
    assert room.results.count() == 0
    assert "one key played two seats" in caplog.text


async def test_a_rated_table_stays_rated_across_a_restart(tmp_path):
    room = rating_room(tmp_path)
    ann = arrive(room, "Ann", "SHA256:ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"))
    table.start("Ann")
    await play_people(table, (0,), until=lambda game: game.state.hand_number >= 1)
    table.close()
    again = Room(tmp_path / "tables", think=0, results=Results(tmp_path / "ratings2"))
    again.restore()
    [back] = again.lobby()
    assert back.rated


@pytest.mark.parametrize("rated", [True, False])
def test_the_seat_file_says_whether_the_table_is_rated(tmp_path, rated):
    from crib3.room.storage import TableFiles

    TableFiles(tmp_path, 1).save_seats("Ann", Rules(), [], rated=rated)
    assert json.loads((tmp_path / "table-1.json").read_text())["rated"] is rated


async def wait_until(condition, timeout: float = 10.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "it never happened"
        await asyncio.sleep(0.01)


async def test_leaving_a_rated_game_saves_no_rating_the_computer_finishes_it(tmp_path):
    room = rating_room(tmp_path)
    room.forfeit = 0.05
    ann, bob = arrive(room, "Ann", "SHA256:ann"), arrive(room, "Bob", "SHA256:bob")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"))
    table.sit(bob)
    table.start("Ann")
    table.leave(1)  # Bob goes, and nobody gives his seat away
    await wait_until(lambda: table.seats[1].replaced)
    await play_people(table, (0,))
    [(_, line)] = list(room.results.read())
    assert json.loads(line.line())["seats"][1]["place"] == 3


async def test_coming_back_in_time_or_a_casual_table_keeps_the_seat(tmp_path):
    room = rating_room(tmp_path)
    room.forfeit = 3600
    ann, bob = arrive(room, "Ann", "SHA256:ann"), arrive(room, "Bob", "SHA256:bob")
    rated = room.open_table(ann, Rules(target=61), ("easy", "easy"))
    rated.sit(bob)
    rated.start("Ann")
    rated.leave(1)
    assert 1 in rated._forfeits  # his time runs ...
    rated.sit(bob)  # ... and stops: he is back before it is up
    cat, dan = arrive(room, "Cat", "SHA256:cat"), arrive(room, "Dan", "SHA256:dan")
    casual = room.open_table(cat, Rules(target=61), ("easy", "easy"), rated=False)
    casual.sit(dan)
    casual.start("Cat")
    casual.leave(1)
    assert rated._forfeits == {} and casual._forfeits == {}  # (nothing left to run out)
    assert not rated.seats[1].replaced and not casual.seats[1].replaced
    rated.close(), casual.close()


async def test_a_rated_game_over_without_its_result_gets_it_at_the_next_start_once(tmp_path):
    """The server stopped between a game's last event and its result."""
    import os

    from crib3.room.storage import put_away_folder

    room = Room(tmp_path / "tables", think=0)  # (it records nothing: as if it stopped)
    ann = arrive(room, "Ann", "SHA256:ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "expert"))
    table.rated = True
    table.start("Ann")
    await play_people(table, (0,))
    await wait_until(lambda: table.files.folder == put_away_folder(tmp_path / "tables"))
    for path in (table.meta_path, table.log_path):  # where the stop left them
        os.replace(path, tmp_path / "tables" / path.name)
    for _ in range(2):  # a start, and another
        again = Room(tmp_path / "tables", think=0, results=Results(tmp_path / "ratings"))
        again.restore()
        assert again.lobby() == [] and again.results.count() == 1
        [(_, line)] = list(again.results.read())
        assert [p.score for p in line.placings] == list(table.game.state.scores)
        again.results.close()


def test_a_line_cut_by_a_crash_is_left_out_and_the_next_result_is_whole(tmp_path):
    book = Results(tmp_path / "ratings")
    book.record(result(1))
    book.close()
    with (tmp_path / "ratings" / "results.jsonl").open("a") as f:
        f.write(result(2).line()[:40])  # the stop came mid-line
    again = Results(tmp_path / "ratings")
    assert again.record(result(3))
    assert [r.game for _, r in again.read()] == ["game1", "game3"]
    assert again.count() == 2
    assert again.rebuild() == 2
