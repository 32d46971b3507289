"""Play now in a room (`crib3.room.playnow`) and from its lobby: the
queue seats three people at a new rated table, started; nobody is seated
twice; leaving the room leaves the queue; after the wait, the computer at
one's level."""

from __future__ import annotations

import pytest
from tui_support import room_app, screen_text, wait_for

from crib3.engine import Rules
from crib3.room import Room, RoomError
from crib3.room.results import Results
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.table import TableScreen


def rated_room(tmp_path) -> Room:
    return Room(tmp_path / "tables", think=3600, results=Results(tmp_path / "ratings"))


def people(room: Room, *names: str):
    return [room.sign_in(name, f"SHA256:{name.lower()}", lambda r: None) for name in names]


async def test_three_in_the_queue_sit_at_one_new_rated_table_started(tmp_path):
    room = rated_room(tmp_path)
    ann, bob, cat = people(room, "Ann", "Bob", "Cat")
    assert room.play_now is not None
    assert room.play_now.join(ann) == 1500
    room.play_now.join(bob)
    assert room.lobby() == []
    room.play_now.join(cat)
    [table] = room.lobby()
    assert table.started and table.rated
    assert [s.name for s in table.seats] == ["Ann", "Bob", "Cat"]
    assert all(s.person for s in table.seats)
    assert len(room.play_now.matcher) == 0 and room.play_now.seated == 3
    room.close()


async def test_nobody_queues_twice_nor_from_a_seat(tmp_path):
    room = rated_room(tmp_path)
    ann, bob = people(room, "Ann", "Bob")
    ann2 = room.sign_in("Ann2", "SHA256:ann", lambda r: None)  # Ann's key, another name
    play_now = room.play_now
    assert play_now is not None
    play_now.join(ann)
    with pytest.raises(RoomError, match="in the queue already"):
        play_now.join(ann)
    with pytest.raises(RoomError, match="in the queue already"):
        play_now.join(ann2)
    room.open_table(bob, Rules(), ("easy", "easy"))
    with pytest.raises(RoomError, match="sit at a table already"):
        play_now.join(bob)
    room.close()


async def test_leaving_the_room_leaves_the_queue(tmp_path):
    room = rated_room(tmp_path)
    ann, bob, cat = people(room, "Ann", "Bob", "Cat")
    assert room.play_now is not None
    room.play_now.join(ann)
    room.play_now.join(bob)
    room.depart(ann)
    assert not room.play_now.queued(ann) and len(room.play_now.matcher) == 1
    room.play_now.join(cat)
    assert room.lobby() == []  # two are no table
    room.close()


async def test_one_who_sat_down_elsewhere_meanwhile_is_not_seated_again(tmp_path):
    room = rated_room(tmp_path)
    ann, bob, cat, dan = people(room, "Ann", "Bob", "Cat", "Dan")
    play_now = room.play_now
    assert play_now is not None
    play_now.join(ann)
    play_now.join(bob)
    room.open_table(ann, Rules(), ("easy", "easy"))  # Ann opened a table meanwhile
    play_now.join(cat)
    assert [t.owner for t in room.lobby()] == ["Ann"]  # no table of Ann, Bob and Cat
    play_now.join(dan)
    [_, table] = room.lobby()
    assert [s.name for s in table.seats] == ["Bob", "Cat", "Dan"]
    room.close()


async def test_the_computer_at_ones_level_after_the_wait(tmp_path):
    room = rated_room(tmp_path)
    [ann] = people(room, "Ann")
    assert room.play_now is not None
    room.play_now.join(ann)
    table = room.play_now.computer(ann)
    assert table.started and table.rated
    assert [s.level for s in table.seats[1:]] == ["standard", "standard"]
    assert not room.play_now.queued(ann)
    room.close()


async def test_the_lobbys_key_queues_counts_and_esc_leaves_the_queue(tmp_path):
    room = rated_room(tmp_path)
    people(room, "Ann")
    app = room_app(room, "Ann")
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("p")
        await wait_for(pilot, lambda: "Looking for two players near 1500… 0:0" in screen_text(app))
        await wait_for(pilot, lambda: "0:01" in screen_text(app))
        assert "Esc to leave" in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Looking for" not in screen_text(app))
        assert isinstance(app.screen, LobbyScreen) and app.is_running  # Esc left the queue only
        assert room.play_now is not None and len(room.play_now.matcher) == 0
        await pilot.press("escape")  # and out of the queue, Esc quits as ever
        await wait_for(pilot, lambda: not app.is_running)
    room.close()


async def test_the_lobby_takes_a_matched_person_to_the_new_table(tmp_path):
    room = rated_room(tmp_path)
    _, bob, cat = people(room, "Ann", "Bob", "Cat")
    app = room_app(room, "Ann")
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("p")
        await wait_for(pilot, lambda: "Looking for" in screen_text(app))
        assert room.play_now is not None
        room.play_now.join(bob)
        room.play_now.join(cat)
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        [table] = room.lobby()
        assert 0 in table.online and table.seats[0].name == "Ann"
    room.close()


async def test_after_the_wait_the_lobby_offers_the_computer_on_c(tmp_path):
    room = rated_room(tmp_path)
    people(room, "Ann")
    assert room.play_now is not None
    room.play_now.matcher.wait = 1.0
    app = room_app(room, "Ann")
    async with app.run_test(size=(120, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("c")  # nothing before the wait
        await pilot.press("p")
        await wait_for(pilot, lambda: "c plays the computer (standard, 1500)" in screen_text(app))
        await pilot.press("c")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        [table] = room.lobby()
        assert table.rated and [s.level for s in table.seats[1:]] == ["standard", "standard"]
    room.close()


async def test_a_workers_replica_queues_and_is_seated_by_the_main_room(tmp_path):
    from test_room_replica import as_caller, joined, session

    room, host, pipes = joined(tmp_path)
    pipe = pipes["w1"]
    mine = [session(room, host, pipe, name, n) for n, name in enumerate(("Ann", "Bob", "Cat"), 1)]
    replica = pipe.replica
    assert replica.play_now is not None
    for number, (_, presence) in enumerate(mine[:2], 1):
        with as_caller(number):
            assert replica.play_now.join(presence) == 1500
    with as_caller(1), pytest.raises(RoomError, match="in the queue already"):
        replica.play_now.join(mine[0][1])
    with as_caller(2):
        replica.play_now.leave(mine[1][1])
        replica.play_now.join(mine[1][1])
    with as_caller(3):
        replica.play_now.join(mine[2][1])
    pipe.pump()
    [table] = replica.lobby()
    assert table.started and [s.name for s in table.seats] == ["Ann", "Bob", "Cat"]
    assert replica.place_of(mine[2][1]) == (table, 2)
    room.close()


async def test_over_ssh_three_people_press_p_and_play_together(tmp_path):
    """The real SSH door, with the sessions in a worker process as
    `crib3 serve` runs them: three strangers press p and are at one table."""
    from ssh_support import Client, serving, until

    async with serving(tmp_path, workers=2, results=Results(tmp_path / "ratings")) as server:
        clients = [await Client.connect(server.port, name) for name in ("ann", "bob", "cat")]
        for client in clients:
            await client.shows("Play now")
        for client in clients[:2]:
            client.press("p")
            await client.shows("Looking for two players near 1500")
        clients[2].press("p")
        await until(lambda: len(server.room.lobby()) == 1, what="a table for the three")
        [table] = server.room.lobby()
        await until(lambda: table.online == {0, 1, 2}, what="all three at it")
        assert table.started and table.rated
        assert sorted(s.name for s in table.seats) == ["ann", "bob", "cat"]
        for client in clients:
            client.close()


async def test_sitting_down_from_the_lobby_leaves_the_queue(tmp_path):
    room = rated_room(tmp_path)
    [bob] = people(room, "Bob")
    people(room, "Ann")
    room.open_table(bob, Rules(), ("easy", "easy"))
    app = room_app(room, "Ann")
    async with app.run_test(size=(100, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("p")
        await wait_for(pilot, lambda: "Looking for" in screen_text(app))
        await pilot.press("enter")  # at Bob's table
        await wait_for(pilot, lambda: not isinstance(app.screen, LobbyScreen))
        assert room.play_now is not None and len(room.play_now.matcher) == 0
    room.close()


async def test_a_look_that_fails_is_logged_once_and_the_queue_goes_on(tmp_path, caplog):
    import asyncio
    import logging

    from crib3.room.playnow import PlayNow

    room = rated_room(tmp_path)
    [ann] = people(room, "Ann")
    room.play_now = play_now = PlayNow(room, every=0.01)
    play_now.join(ann)
    real, failures = play_now.step, [RuntimeError("a bug"), RuntimeError("a bug")]
    looked = []
    fourth = asyncio.Event()

    def step():
        looked.append(1)
        if len(looked) == 4:
            fourth.set()
        if failures:
            raise failures.pop()
        return real()

    play_now.step = step
    with caplog.at_level(logging.WARNING, logger="crib3.serve"):
        await asyncio.wait_for(fourth.wait(), 10)
    said = [r.getMessage() for r in caplog.records if "play now" in r.getMessage()]
    assert len(said) == 2 and "failed" in said[0] and "work again (after 2" in said[1], said
    room.close()
