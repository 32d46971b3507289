"""The card room without SSH: tables, seats, the owner's rights, people who
drop and come back, computer players, and a restart."""

from __future__ import annotations

import asyncio
import random

import pytest

from crib3.engine import Rules
from crib3.engine.log import load_log
from crib3.room import Room, RoomError
from crib3.tui.screens.lobby_words import seats_line
from crib3.players.easy import EasyPlayer


def room_at(tmp_path, patience: float = 60.0) -> Room:
    return Room(tmp_path / "tables", think=0, patience=patience)


def arrive(room: Room, name: str, key: str | None = None, kicked: list | None = None):
    return room.sign_in(name, key, (kicked.append if kicked is not None else lambda r: None))


async def play_people(table, seats, until=lambda game: game.over, limit: float = 30.0):
    """Play `seats` (people, through their feeds) with random legal moves
    while the table plays its computer players, until `until(game)`."""
    feeds = {seat: table.feed(seat) for seat in seats}
    pick = EasyPlayer(random.Random(1))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    game = table.game
    while not until(game):
        assert loop.time() < deadline, "the game stopped moving"
        mine = [s for s in game.to_act() if s in feeds]
        if mine:
            feeds[mine[0]].dispatch(pick.choose(game.view(mine[0])))
        else:
            await asyncio.sleep(0.001)


async def test_a_table_fills_starts_and_plays_to_the_end_with_a_bot(tmp_path):
    room = room_at(tmp_path)
    ann, bob = arrive(room, "Ann"), arrive(room, "Bob")
    table = room.open_table(ann, Rules(target=61), ("easy", "expert"))
    assert table.sit(bob) == 1
    with pytest.raises(RoomError, match="only Ann can start"):
        table.start("Bob")
    table.start("Ann")
    names = [p.name for p in table.game.state.players]
    kinds = [p.kind for p in table.game.state.players]
    assert names[:2] == ["Ann", "Bob"] and kinds == ["human", "human", "expert"]
    await play_people(table, (0, 1))
    loaded = load_log(table.log_path)
    assert loaded.events == table.game.events  # the whole game is on disk
    assert table not in room.lobby()  # a finished game leaves the lobby


async def test_seats_before_the_start_come_and_go(tmp_path):
    room = room_at(tmp_path)
    ann, bob, cat, dan = (arrive(room, n) for n in ("Ann", "Bob", "Cat", "Dan"))
    table = room.open_table(ann, Rules(), ("standard", "standard"))
    with pytest.raises(RoomError, match="already"):
        room.open_table(ann, Rules(), ("standard", "standard"))
    table.sit(bob), table.sit(cat)
    with pytest.raises(RoomError, match="full"):
        table.sit(dan)
    table.leave(1)  # Bob stands up: his chair is free again
    assert table.sit(dan) == 1
    table.leave(0)  # the owner goes before the start: the table is put away
    assert table.closed and room.lobby() == []


async def test_a_dropped_person_gets_their_seat_back_with_the_same_name_and_key(tmp_path):
    room = room_at(tmp_path)
    ann = arrive(room, "Ann", "SHA256:ann")
    bob = arrive(room, "Bob", "SHA256:bob")
    table = room.open_table(ann, Rules(), ("easy", "easy"))
    table.sit(bob)
    table.start("Ann")
    room.depart(bob)  # his connection drops
    assert table.away(1) is not None and "Bob (away)" in seats_line(table)
    with pytest.raises(RoomError, match="another key"):
        arrive(room, "Bob", "SHA256:mallory")
    bob_again = arrive(room, "Bob", "SHA256:bob")
    assert room.place_of(bob_again) == (table, 1)
    assert table.sit(bob_again) == 1 and table.away(1) is None


async def test_signing_in_again_takes_over_the_older_session(tmp_path):
    room = room_at(tmp_path)
    kicked: list[str] = []
    first = arrive(room, "Ann", "k", kicked)
    table = room.open_table(first, Rules(), ("easy", "easy"))
    table.start("Ann")
    second = arrive(room, "Ann", "k")
    assert kicked == ["you signed in again from elsewhere"]
    room.depart(first)  # the old session ending must not mark the new one away
    assert room.place_of(second) == (table, 0) and 0 in table.online


async def test_the_owner_may_seat_a_bot_for_a_person_gone_too_long(tmp_path):
    room = room_at(tmp_path, patience=0.05)
    ann, bob = arrive(room, "Ann"), arrive(room, "Bob")
    table = room.open_table(ann, Rules(target=61), ("easy", "standard"))
    table.sit(bob)
    table.start("Ann")
    room.depart(bob)
    with pytest.raises(RoomError, match="not been gone long enough"):
        table.replace(1, "Ann")
    await asyncio.sleep(0.06)
    with pytest.raises(RoomError, match="only Ann"):
        table.replace(1, "Bob")
    table.replace(1, "Ann")
    assert "Bob (easy)" in seats_line(table)
    await play_people(table, (0,))  # the bot plays Bob's seat to the end
    assert table.game.over


async def test_a_restarted_room_resumes_its_games_where_they_stood(tmp_path):
    room = room_at(tmp_path)
    ann, bob = arrive(room, "Ann", "a"), arrive(room, "Bob", "b")
    table = room.open_table(ann, Rules(), ("easy", "easy"))
    table.sit(bob)
    table.start("Ann")
    await play_people(table, (0, 1), until=lambda game: game.state.hand_number >= 2)
    events = list(table.game.events)
    waiting = room.open_table(arrive(room, "Cat"), Rules(), ("easy", "easy"))
    room.close()

    again = room_at(tmp_path)
    assert again.restore() == []
    assert list(again.tables) == [table.number]  # the table that never started is gone
    resumed = again.tables[table.number]
    assert resumed.game.events == events
    assert resumed.away(0) is not None and resumed.away(1) is not None
    ann_again = arrive(again, "Ann", "a")
    assert again.place_of(ann_again) == (resumed, 0)
    assert waiting.number not in again.tables
    bob_again = arrive(again, "Bob", "b")
    resumed.sit(ann_again), resumed.sit(bob_again)
    await play_people(resumed, (0, 1))
    assert load_log(resumed.log_path).events == resumed.game.events


async def test_a_damaged_table_file_is_reported_and_the_others_resume(tmp_path):
    room = room_at(tmp_path)
    for name in ("Ann", "Bob"):
        table = room.open_table(arrive(room, name), Rules(), ("easy", "easy"))
        table.start(name)
    room.close()
    (tmp_path / "tables" / "table-1.jsonl").write_text("not a log\n")
    again = room_at(tmp_path)
    problems = again.restore()
    assert len(problems) == 1 and "table-1.jsonl" in problems[0]
    assert list(again.tables) == [2]


def test_names_must_be_printable_and_short(tmp_path):
    room = room_at(tmp_path)
    for bad in ("", "   ", "x" * 21, "bell\x07"):
        with pytest.raises(RoomError, match="printable"):
            arrive(room, bad)


async def test_a_bot_that_raises_does_not_end_a_card_room_table(tmp_path, monkeypatch, caplog):
    """The table's computer player has a bug: it is logged, its seat plays
    a legal move each time, and the game goes on to its end, on disk."""
    import crib3.room.table as tables

    class Broken:
        level = "easy"

        def choose(self, view):
            raise RuntimeError("a bug in the bot")

    made = tables.make_player
    monkeypatch.setattr(tables, "make_player",
                        lambda level, rng=None: Broken() if level == "expert" else made(level, rng))
    room = room_at(tmp_path)
    ann = arrive(room, "Ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "expert"))
    table.start("Ann")
    await play_people(table, (0,))
    assert table.game.over and table not in room.lobby()
    assert load_log(table.log_path).events == table.game.events
    assert any(f"table {table.number}: the bot of seat 2" in r.getMessage()
               for r in caplog.records if r.levelname == "ERROR")
