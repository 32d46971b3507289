"""Spectators, table chat and admins in the card room's model (issue 11,
point 6), without SSH or screens."""

from __future__ import annotations

import pytest

from crib3.common.rates import TokenBucket
from crib3.engine import Rules
from crib3.engine.log import load_log
from crib3.room import Room, RoomError
from crib3.room.chat import MAX_CHARS


def playing_room(tmp_path):
    """Ann's table, started (bots never move); Dan in the room, seat-less."""
    room = Room(tmp_path / "tables", think=3600)
    kicked: dict[str, list[str]] = {}
    people = {name: room.sign_in(name, None, kicked.setdefault(name, []).append)
              for name in ("Ann", "Dan")}
    table = room.open_table(people["Ann"], Rules(target=61), ("easy", "easy"))
    return room, table, people, kicked


async def test_a_spectator_watches_a_started_table_and_leaves(tmp_path):
    room, table, people, _ = playing_room(tmp_path)
    with pytest.raises(RoomError, match="nothing to watch"):
        table.watch(people["Dan"])  # not started yet
    table.start("Ann")
    with pytest.raises(RoomError, match="sit down instead"):
        table.watch(people["Ann"])
    table.watch(people["Dan"])
    table.watch(people["Dan"])  # twice is once
    assert table.watcher_names() == ["Dan"]
    assert table.feed(None).seat is None
    table.unwatch(people["Dan"])
    assert table.watcher_names() == []
    table.watch(people["Dan"])
    room.depart(people["Dan"])  # a dropped spectator stops watching
    assert table.watcher_names() == []
    room.close()


async def test_chat_is_for_the_table_limited_and_never_in_the_game_log(tmp_path):
    room, table, people, _ = playing_room(tmp_path)
    table.start("Ann")
    told = []
    table.chat.listeners.append(lambda: told.append(1))
    with pytest.raises(RoomError, match="not at table 1"):
        table.say(people["Dan"], "hello")
    table.watch(people["Dan"])
    table.say(people["Dan"], "  [/] [b]x  ")
    table.say(people["Ann"], "hi Dan")
    assert [(line.name, line.text) for line in table.chat.lines] == \
        [("Dan", "[/] [b]x"), ("Ann", "hi Dan")]
    assert told == [1, 1]
    for bad, why in [("\x1b[31mred", "printable"), ("a\nb", "printable"), ("   ", "say"),
                     ("x" * (MAX_CHARS + 1), f"at most {MAX_CHARS}")]:
        with pytest.raises(RoomError, match=why):
            table.say(people["Ann"], bad)
    assert len(table.chat.lines) == 2
    log = load_log(table.log_path)  # talk is not play
    assert all("hi Dan" not in repr(event) for event in log.events)
    room.close()


def test_a_session_may_say_a_line_a_second_after_a_small_burst():
    now = [0.0]
    allowance = TokenBucket(1.0, 3, clock=lambda: now[0])
    assert [allowance.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 1.0
    assert allowance.take() and not allowance.take()


async def test_chat_beyond_the_rate_is_refused_in_one_line(tmp_path):
    room, table, people, _ = playing_room(tmp_path)
    table.start("Ann")
    for n in range(3):
        table.say(people["Ann"], f"line {n}")
    with pytest.raises(RoomError, match="one chat line a second"):
        table.say(people["Ann"], "one too many")
    assert len(table.chat.lines) == 3
    room.close()


async def test_an_admin_closes_a_table_saved_and_removes_a_session(tmp_path):
    room, table, people, kicked = playing_room(tmp_path)
    table.start("Ann")
    events = len(table.game.events)
    with pytest.raises(RoomError, match="only an admin"):
        room.close_by_admin(table, people["Dan"])
    with pytest.raises(RoomError, match="only an admin"):
        room.remove("Ann", people["Dan"])
    people["Dan"].admin = True
    room.close_by_admin(table, people["Dan"])
    assert table.closed and room.lobby() == []
    assert len(load_log(table.log_path).events) == events  # saved as it stood
    again = Room(tmp_path / "tables", think=3600)
    assert again.restore() == [] and list(again.tables) == [1]  # and picked up on restart
    again.close()
    room.remove("ann", people["Dan"])
    assert kicked["Ann"] == ["an admin closed your session; your table is saved"]
    with pytest.raises(RoomError, match="yourself"):
        room.remove("Dan", people["Dan"])
    with pytest.raises(RoomError, match="not here"):
        room.remove("Zed", people["Dan"])
    room.close()
