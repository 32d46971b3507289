"""The card room without SSH: tables, seats, the owner's rights, people who
drop and come back, computer players, and a restart."""

from __future__ import annotations

import asyncio
import random

import pytest

from crib3.common.rates import TokenBucket
from crib3.engine import Rules
from crib3.engine.log import load_log
from crib3.players.easy import EasyPlayer
from crib3.room import Room, RoomError
from crib3.tui.screens.lobby_words import seats_line


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
    table.leave(0)  # the owner goes before the start: the next person owns it
    assert table.owner == "Dan" and not table.closed and room.lobby() == [table]
    table.leave(1), table.leave(2)  # the last person goes: the table is put away
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
    with pytest.raises(RoomError, match="only the people at table 1"):
        table.replace(1, "Bob")  # Bob himself is away: he cannot
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


# --- tables that never strand (issue 11 point 5) ------------------------------------


async def test_before_the_start_ownership_passes_to_the_next_person_in_seat_order(tmp_path):
    room = room_at(tmp_path)
    ann, bob, cat = (arrive(room, n) for n in ("Ann", "Bob", "Cat"))
    table = room.open_table(ann, Rules(), ("easy", "easy"))
    table.sit(bob), table.sit(cat)
    table.leave(1)  # Bob stands up first: Cat (seat 3) is next after Ann
    table.leave(0)
    assert table.owner == "Cat" and table.passed_from == "Ann"
    with pytest.raises(RoomError, match="only Cat can start"):
        table.start("Ann")
    table.start("Cat")
    assert table.started


async def test_after_the_start_ownership_passes_and_comes_back_to_whoever_is_here(tmp_path):
    room = room_at(tmp_path)
    ann, bob, cat = (arrive(room, n) for n in ("Ann", "Bob", "Cat"))
    table = room.open_table(ann, Rules(), ("easy", "easy"))
    table.sit(bob), table.sit(cat)
    table.start("Ann")
    room.depart(ann)
    assert table.owner == "Bob"  # the next person after Ann's seat
    room.depart(bob), room.depart(cat)
    assert table.owner == "Cat"  # the last one here keeps it while nobody is
    ann = arrive(room, "Ann")
    room.place_of(ann)[0].sit(ann)
    assert table.owner == "Ann"  # the owner was away: whoever comes back owns it


async def test_any_person_at_the_table_may_seat_a_bot_for_one_gone_too_long(tmp_path):
    room = room_at(tmp_path, patience=0.05)
    ann, bob, cat = (arrive(room, n) for n in ("Ann", "Bob", "Cat"))
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"))
    table.sit(bob), table.sit(cat)
    table.start("Ann")
    room.depart(ann)  # the owner herself goes: Bob owns it now
    await asyncio.sleep(0.06)
    table.replace(0, "Cat")  # not the owner, but here
    assert table.seats[0].replaced and table.owner == "Bob"
    assert "Ann (standard)" in seats_line(table)


async def test_the_owners_seat_given_to_a_bot_passes_the_table_on(tmp_path):
    room = room_at(tmp_path, patience=0.05)
    ann, bob = arrive(room, "Ann"), arrive(room, "Bob")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"))
    table.sit(bob)
    table.start("Ann")
    room.depart(ann), room.depart(bob)  # nobody here: Ann's seat keeps the table
    bob = arrive(room, "Bob")
    table.sit(bob)
    assert table.owner == "Bob"


async def test_a_table_nobody_is_at_is_shelved_and_comes_back_with_its_people(tmp_path):
    room = Room(tmp_path / "tables", think=0, patience=60, idle_close=0.05)
    ann, bob = arrive(room, "Ann", "a"), arrive(room, "Bob", "b")
    table = room.open_table(ann, Rules(), ("easy", "easy"))
    table.sit(bob)
    table.start("Ann")
    await play_people(table, (0, 1), until=lambda game: game.state.hand_number >= 2)
    room.depart(ann)
    await asyncio.sleep(0.1)
    assert room.lobby() == [table]  # Bob is still here
    room.depart(bob)
    await asyncio.sleep(0.1)
    assert table.closed and room.lobby() == [] and table.log_path.exists()
    assert list(room.shelved) == [table.number]
    # A restart keeps it shelved: the lobby does not fill with it.
    again = Room(tmp_path / "tables", think=0, idle_close=0.05)
    assert again.restore() == [] and again.lobby() == [] and list(again.shelved) == [1]
    # Someone else cannot take it; one of its people brings it back.
    with pytest.raises(RoomError, match="another key"):
        arrive(again, "Bob", "mallory")
    cat = arrive(again, "Cat", "c")
    assert again.lobby() == []
    bob_again = arrive(again, "Bob", "b")
    back = again.tables[1]
    shelved = list(table.game.events)  # where it stood when it was put away
    assert again.place_of(bob_again) == (back, 1)
    assert back.game.events[:len(shelved)] == shelved
    back.sit(bob_again)
    await asyncio.sleep(0.1)
    assert again.lobby() == [back] and not back.closed  # somebody is here: it stays
    assert cat.name == "Cat"


async def test_the_owner_closes_a_started_table_for_good(tmp_path):
    room = room_at(tmp_path)
    ann, bob = arrive(room, "Ann", "a"), arrive(room, "Bob", "b")
    table = room.open_table(ann, Rules(), ("easy", "easy"))
    table.sit(bob)
    table.start("Ann")
    with pytest.raises(RoomError, match="only Ann can close"):
        table.close_by("Bob")
    table.close_by("Ann")
    assert table.closed and table.closed_by == "Ann" and room.lobby() == []
    assert load_log(table.log_path).events == table.game.events  # saved
    again = room_at(tmp_path)
    assert again.restore() == [] and again.tables == {} and again.shelved == {}
    assert again.place_of(arrive(again, "Ann", "a")) is None


async def test_one_key_may_own_so_many_tables_and_use_so_many_names(tmp_path):
    room = Room(tmp_path / "tables", think=0, tables_per_key=2, names_per_key=3)
    ann1, ann2, ann3 = (arrive(room, n, "SHA256:ann") for n in ("Ann1", "Ann2", "Ann3"))
    with pytest.raises(RoomError, match="your key has 3 names signed in already"):
        arrive(room, "Ann4", "SHA256:ann")
    arrive(room, "Ann1", "SHA256:ann")  # the same name again takes over: not one more
    arrive(room, "Bob", "SHA256:bob")  # another key has its own count
    room.open_table(ann1, Rules(), ("easy", "easy"))
    room.open_table(ann2, Rules(), ("easy", "easy"))
    with pytest.raises(RoomError, match="you own 2 open tables already"):
        room.open_table(ann3, Rules(), ("easy", "easy"))


async def test_without_keys_the_limits_count_by_address(tmp_path):
    room = Room(tmp_path / "tables", think=0, tables_per_key=1, names_per_key=2)
    here = [room.sign_in(n, None, lambda r: None, address="10.0.0.1") for n in ("a", "b")]
    with pytest.raises(RoomError, match="your address has 2 names signed in already"):
        room.sign_in("c", None, lambda r: None, address="10.0.0.1")
    elsewhere = room.sign_in("c", None, lambda r: None, address="10.0.0.2")
    room.open_table(here[0], Rules(), ("easy", "easy"))
    with pytest.raises(RoomError, match="you own 1 open table already"):
        room.open_table(here[1], Rules(), ("easy", "easy"))
    room.open_table(elsewhere, Rules(), ("easy", "easy"))
    # Loopback is an address like any other (issue 33, point 10): behind a
    # jump host everyone shares its limits, rather than nobody having any.
    for name in ("d", "e"):
        room.sign_in(name, None, lambda r: None, address="127.0.0.1")
    with pytest.raises(RoomError, match="your address has 2 names signed in already"):
        room.sign_in("f", None, lambda r: None, address="127.0.0.1")


async def test_one_person_has_one_seat_across_an_admin_close_and_a_restart(tmp_path):
    """Before: an admin closed Ann's game mid-hand (saved, to be picked up
    at a restart); she sat down at another table; after the restart she
    had a seat at both, and "Ann (away)" stayed at the first for ever."""
    import os

    room = room_at(tmp_path)
    ann, bob, dan = arrive(room, "Ann", "a"), arrive(room, "Bob", "b"), arrive(room, "Dan", "d")
    waiting = room.open_table(dan, Rules(), ("easy", "easy"))
    playing = room.open_table(ann, Rules(), ("easy", "easy"))
    playing.sit(bob)
    playing.start("Ann")
    root = arrive(room, "Root", "r")
    root.admin = True
    room.close_by_admin(playing, root)
    assert room.lobby() == [waiting] and list(room.shelved) == [playing.number]
    room.depart(bob)
    bob = arrive(room, "Bob", "b")  # signing in again does not undo the admin's close
    assert room.lobby() == [waiting] and room.shelved_for(bob) == playing.number
    waiting.sit(ann)
    waiting.start("Dan")
    old = playing.log_path.stat().st_mtime - 60  # (the closed game was played before)
    os.utime(playing.log_path, (old, old))
    room.close()

    again = room_at(tmp_path)
    assert again.restore() == []
    assert list(again.tables) == [waiting.number]
    assert list(again.shelved) == [playing.number]  # it waits, for Bob too
    ann_again = arrive(again, "Ann", "a")
    assert again.place_of(ann_again)[0].number == waiting.number
    assert [t.number for t in again.lobby() if t.seat_of("Ann") is not None] == [waiting.number]
    # Bob brings his game back; Ann's seat there waits as anyone's does.
    bob_again = arrive(again, "Bob", "b")
    assert again.place_of(bob_again)[0].number == playing.number
    # And a third start finds the same: nobody at two tables.
    again.close()
    third = room_at(tmp_path)
    third.restore()
    seats = [t.number for t in third.tables.values() if t.seat_of("Ann") is not None]
    assert len(seats) == 1, seats
    third.close()


async def test_a_person_whose_seat_waits_cannot_sit_at_a_second_table(tmp_path):
    room = room_at(tmp_path)
    ann, bob, cat = arrive(room, "Ann", "a"), arrive(room, "Bob", "b"), arrive(room, "Cat", "c")
    first = room.open_table(ann, Rules(), ("easy", "easy"))
    first.sit(bob)
    first.start("Ann")
    first.leave(1)  # Bob goes back to the lobby: his seat waits
    other = room.open_table(cat, Rules(), ("easy", "easy"))
    with pytest.raises(RoomError, match="your seat at table 1 waits for you"):
        other.sit(bob)
    assert other.seat_of("Bob") is None
    room.close()


# --- closed tables and opening them (a room where people open and close all day) -----------


def count_log_reads(monkeypatch) -> list[str]:
    """The logs a start reads (`load_log`, as the room's storage calls it)."""
    from crib3.room import storage

    read: list[str] = []
    real = storage.load_log

    def counting(path, *args, **kwargs):
        read.append(path.name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(storage, "load_log", counting)
    return read


async def test_closed_and_finished_tables_are_kept_apart_and_a_start_reads_none(
        tmp_path, monkeypatch):
    room = room_at(tmp_path)
    ann, bob = arrive(room, "Ann", "a"), arrive(room, "Bob", "b")
    closed = []
    for _ in range(3):
        table = room.open_table(ann, Rules(), ("easy", "easy"))
        table.start("Ann")
        table.close_by("Ann")
        closed.append(table)
    playing = room.open_table(bob, Rules(), ("easy", "easy"))
    playing.start("Bob")
    folder = tmp_path / "tables"
    assert sorted(p.name for p in (folder / "closed").iterdir()) == sorted(
        f"table-{t.number}.{ext}" for t in closed for ext in ("json", "jsonl"))
    assert all(t.log_path.exists() and t.log_path.parent.name == "closed" for t in closed)
    assert load_log(closed[0].log_path).events == closed[0].game.events  # kept, for the record
    room.close()

    read = count_log_reads(monkeypatch)
    again = room_at(tmp_path)
    assert again.restore() == [] and list(again.tables) == [playing.number]
    assert read == [f"table-{playing.number}.jsonl"]  # before: every closed table's log too
    # A new table's number is still above every closed one's.
    table = again.open_table(arrive(again, "Cat", "c"), Rules(), ("easy", "easy"))
    assert table.number == playing.number + 1
    again.close()


async def test_a_closed_table_from_before_its_folder_is_moved_unread(tmp_path, monkeypatch):
    """Folders written before `closed/`: a start moves their closed tables
    there (reading no log) and never meets them again."""
    import json

    room = room_at(tmp_path)
    ann = arrive(room, "Ann", "a")
    table = room.open_table(ann, Rules(), ("easy", "easy"))
    table.start("Ann")
    table.close_by("Ann")
    room.close()
    folder = tmp_path / "tables"
    for path in (folder / "closed").iterdir():  # as an older crib3 left it
        path.rename(folder / path.name)
    assert json.loads((folder / "table-1.json").read_text())["status"] == "closed"
    read = count_log_reads(monkeypatch)
    again = room_at(tmp_path)
    assert again.restore() == [] and again.tables == {} and read == []
    assert (folder / "closed" / "table-1.jsonl").exists()
    assert not (folder / "table-1.json").exists()


async def test_one_person_opens_a_few_tables_in_a_row_then_one_now_and_then(tmp_path,
                                                                            monkeypatch):
    from crib3.room import room as room_module

    now = [1000.0]
    monkeypatch.setattr(room_module, "TokenBucket",
                        lambda rate, burst: TokenBucket(rate, burst, clock=lambda: now[0]))
    room = room_at(tmp_path)
    ann, bob = arrive(room, "Ann", "a"), arrive(room, "Bob", "b")
    for _ in range(room_module.OPENS_AT_ONCE):
        table = room.open_table(ann, Rules(), ("easy", "easy"))
        room.depart(ann)  # she goes: the table, never started, is put away
        ann = arrive(room, "Ann", "a")
    with pytest.raises(RoomError, match=r"^you opened 3 tables just now: you may open "
                                        r"another in 20 s$"):
        room.open_table(ann, Rules(), ("easy", "easy"))
    room.open_table(bob, Rules(), ("easy", "easy"))  # someone else may
    now[0] += room_module.OPEN_EVERY
    table = room.open_table(ann, Rules(), ("easy", "easy"))
    assert table.owner == "Ann"
    # Under --open, one address is one person, whatever the names.
    here = [room.sign_in(n, None, lambda r: None, address="10.0.0.9") for n in "cdef"]
    for person in here[:3]:
        room.open_table(person, Rules(), ("easy", "easy"))
    with pytest.raises(RoomError, match="you opened 3 tables just now"):
        room.open_table(here[3], Rules(), ("easy", "easy"))
    room.close()


# --- who may end a game for everyone (issue 33 point 12) -------------------------------------


async def test_an_owner_who_inherited_a_game_only_asks_and_it_closes_when_all_agree(tmp_path):
    """Before: after a restart Bob came back first, owned the table, pressed
    x, and a three-person game at hand 4 could never go on."""
    room = room_at(tmp_path)
    people = {n: arrive(room, n, n.lower()) for n in ("Ann", "Bob", "Cat")}
    table = room.open_table(people["Ann"], Rules(), ("easy", "easy"))
    table.sit(people["Bob"]), table.sit(people["Cat"])
    table.start("Ann")
    await play_people(table, (0, 1, 2), until=lambda game: game.state.hand_number >= 2)
    room.close()

    again = room_at(tmp_path)
    assert again.restore() == [] and again.tables[1].started_by == "Ann"
    table = again.tables[1]
    bob = arrive(again, "Bob", "bob")
    table.sit(bob)
    assert table.owner == "Bob"
    assert table.close_by("Bob") is False  # asked, not closed
    assert not table.closed and table.close_asked == ["Bob"] and again.lobby() == [table]
    with pytest.raises(RoomError, match="only Bob can close"):
        table.close_by("Cat")  # not here: cannot agree
    cat = arrive(again, "Cat", "cat")
    table.sit(cat)
    assert table.close_by("Cat") is False  # Ann's seat waits for her: she is asked too
    ann = arrive(again, "Ann", "ann")
    table.sit(ann)
    assert table.close_by("Ann") is True  # everyone seated agreed
    assert table.closed and again.lobby() == [] and table.closed_by == "Bob"
    assert again.reopenable == {}  # all of them asked: nobody's way back to keep
    again.close()


async def test_a_game_closed_by_its_first_owner_can_be_brought_back_by_the_others(tmp_path):
    room = room_at(tmp_path)
    people = {n: arrive(room, n, n.lower()) for n in ("Ann", "Bob", "Cat")}
    table = room.open_table(people["Ann"], Rules(), ("easy", "easy"))
    table.sit(people["Bob"]), table.sit(people["Cat"])
    table.start("Ann")
    await play_people(table, (0, 1, 2), until=lambda game: game.state.hand_number >= 2)
    assert table.close_by("Ann") is True  # she started it: at once
    events = list(table.game.events)
    assert room.shelved_for(people["Bob"]) == 1 and room.shelved_for(people["Ann"]) is None
    room.close()

    again = room_at(tmp_path)  # a restart keeps the way back, and brings nothing by itself
    assert again.restore() == [] and again.tables == {} and list(again.reopenable) == [1]
    bob = arrive(again, "Bob", "bob")
    assert again.place_of(bob) is None and again.shelved_for(bob) == 1
    back = again.bring_back(bob)
    assert back is not None and back.number == 1 and back.game.events[:len(events)] == events
    assert again.reopenable == {} and (tmp_path / "tables" / "table-1.jsonl").exists()
    back.sit(bob)
    assert back.owner == "Bob" and back.away(0) is not None  # Ann's seat waits (or a bot)
    again.close()
    third = room_at(tmp_path)
    third.restore()
    assert list(third.tables) == [1] and third.reopenable == {}
    third.close()


async def test_an_owner_alone_with_computer_players_closes_at_once(tmp_path):
    room = room_at(tmp_path, patience=0)
    ann, bob = arrive(room, "Ann", "a"), arrive(room, "Bob", "b")
    table = room.open_table(ann, Rules(), ("easy", "easy"))
    table.sit(bob)
    table.start("Ann")
    room.depart(ann)  # Bob owns it now
    table.replace(0, "Bob")  # and a computer plays Ann's seat
    assert table.close_by("Bob") is True and table.closed and room.reopenable == {}
    room.close()
