"""A hostile stranger against play now (`crib3.room.playnow`): the queue
is a way to new tables, so it is paced as opening one is, and churning in
and out of it costs the room a bounded amount of work and memory."""

from __future__ import annotations

import pytest

from crib3.common.rates import TokenBucket
from crib3.room import Room, RoomError
from crib3.room.results import Results


def rated_room(tmp_path, monkeypatch, now: list[float]) -> Room:
    from crib3.room import room as room_module

    monkeypatch.setattr(room_module, "TokenBucket",
                        lambda rate, burst: TokenBucket(rate, burst, clock=lambda: now[0]))
    return Room(tmp_path / "tables", think=3600, results=Results(tmp_path / "ratings"))


def strangers(room: Room, *names: str, address: str = "10.0.0.9"):
    """People under `--open`: keyless, so one address is one person."""
    return [room.sign_in(name, None, lambda r: None, address=address) for name in names]


async def test_the_queue_opens_no_more_tables_than_opening_them_would(tmp_path, monkeypatch):
    # One stranger with three names at one address queues them together,
    # is seated at a new table, closes it at once (its owner, who started
    # it), and queues again: each round leaves a game's files on disk.
    from crib3.room import room as room_module

    now = [1000.0]
    room = rated_room(tmp_path, monkeypatch, now)
    play_now = room.play_now
    assert play_now is not None
    ann, bob, cat = strangers(room, "Ann", "Bob", "Cat")
    made = 0
    for _ in range(10):
        try:
            for person in (ann, bob, cat):
                play_now.join(person)
        except RoomError as exc:
            assert str(exc).startswith(f"you asked for {room_module.OPENS_AT_ONCE} tables just "
                                       "now: you may queue again in "), exc
            break
        [table] = room.lobby()
        made += 1
        assert table.close_by(table.owner)
    assert made == 1  # three joins: the address's three tables in a row
    assert room.lobby() == []
    for person in (ann, bob, cat):
        play_now.leave(person)
    # Someone else is not held up by them, and they may come back in time.
    dan, eve, hal = strangers(room, "Dan", "Eve", "Hal", address="10.0.0.10")
    for person in (dan, eve):
        play_now.join(person)
    now[0] += 3 * room_module.OPEN_EVERY
    for person in (ann, bob, hal):
        play_now.join(person)
    assert len(room.lobby()) == 1 and len(play_now.matcher) == 2
    room.close()


async def test_opening_a_table_after_the_queue_is_paced_as_one(tmp_path, monkeypatch):
    # The queue and the open-table dialog draw on the same allowance: a
    # stranger cannot use up one and then the other.
    from crib3.engine import Rules
    from crib3.room import room as room_module

    now = [1000.0]
    room = rated_room(tmp_path, monkeypatch, now)
    play_now = room.play_now
    assert play_now is not None
    [ann] = strangers(room, "Ann")
    for _ in range(room_module.OPENS_AT_ONCE):
        play_now.join(ann)
        play_now.leave(ann)
    with pytest.raises(RoomError, match="you may open another in 20 s"):
        room.open_table(ann, Rules(), ("easy", "easy"))
    room.close()


async def test_over_ssh_a_p_esc_flood_is_three_places_and_leaves_none(tmp_path, caplog):
    """The real SSH door under `--open`: a stranger presses p and Esc as
    fast as the door lets them. They take three places in a row, the next
    p is refused in one line (and the Esc after it quits, as Esc does
    outside the queue), no place is left behind, and nothing fails."""
    import asyncio
    import logging

    from ssh_support import Client, serving, until

    caplog.set_level(logging.INFO, logger="crib3.serve")
    async with serving(tmp_path, results=Results(tmp_path / "ratings")) as server:
        mal = await Client.connect(server.port, "mal", source="127.0.0.5")
        await mal.shows("Play now")
        for _ in range(8):  # (an Esc is one once nothing follows it for 0.1 s)
            if mal.chan.is_closing():
                break
            mal.press("p")
            await asyncio.sleep(0.02)
            if mal.chan.is_closing():
                break
            mal.press("\x1b")
            await asyncio.sleep(0.15)
        await mal.shows("you asked for 3")
        play_now = server.room.play_now
        assert play_now is not None
        joins = [r.getMessage() for r in caplog.records if "joins the queue" in r.getMessage()]
        assert len(joins) == 3, joins
        await until(lambda: len(play_now.matcher) == 0, what="no place left")
        failed = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert failed == []
        mal.close()
