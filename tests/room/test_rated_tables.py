"""Rated or casual, chosen as a table opens (the lobby's dialog), shown in
the lobby's line, and carried to a session worker's replica of the room."""

from __future__ import annotations

from tui_support import room_app, screen_text, wait_for

from crib3.engine import Rules
from crib3.room import Room
from crib3.room.results import Results
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.lobby_words import rules_line
from crib3.tui.screens.open_table import OpenTableScreen
from crib3.tui.screens.waiting import WaitingScreen


def rating_room(tmp_path, rates: bool = True) -> Room:
    room = Room(tmp_path / "tables", think=3600,
                results=Results(tmp_path / "ratings") if rates else None)
    room.sign_in("Dan", "SHA256:dan", lambda r: None)
    return room


async def open_one(tmp_path, *keys: str, rates: bool = True):
    """Dan opens a table from the lobby, pressing `keys` in the dialog first."""
    room = rating_room(tmp_path, rates)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenTableScreen))
        shown = screen_text(app)
        await pilot.press(*keys, "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, WaitingScreen))
    [table] = room.lobby()
    return table, shown


async def test_a_table_is_rated_by_default_where_the_room_rates(tmp_path):
    table, shown = await open_one(tmp_path)
    assert "Rating" in shown and "rated" in shown
    assert table.rated


async def test_the_owner_may_open_a_casual_table(tmp_path):
    # Down to the Rating row (the dialog's last), then → to "casual".
    table, _ = await open_one(tmp_path, *["down"] * 5, "right")
    assert not table.rated


async def test_a_room_without_ratings_asks_nothing_and_rates_nothing(tmp_path):
    table, shown = await open_one(tmp_path, rates=False)
    assert "Rating" not in shown and not table.rated


async def test_the_lobby_says_which_tables_are_rated(tmp_path):
    room = rating_room(tmp_path)
    ann = room.sign_in("Ann", "SHA256:ann", lambda r: None)
    bob = room.sign_in("Bob", "SHA256:bob", lambda r: None)
    room.open_table(ann, Rules(muggins=True), ("easy", "easy"))
    room.open_table(bob, Rules(), ("easy", "easy"), rated=False)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await wait_for(pilot, lambda: "121 muggins rated" in screen_text(app))
        lines = screen_text(app).splitlines()
    bob_line = next(line for line in lines if "Bob" in line)
    assert "rated" not in bob_line
    assert rules_line(Rules(), True) == "121 rated" and rules_line(Rules()) == "121"


async def test_a_workers_replica_knows_the_room_rates_and_opens_rated_or_casual(tmp_path):
    from test_room_replica import as_caller, joined, session

    room, host, pipes = joined(tmp_path)
    room.results = Results(tmp_path / "ratings")
    pipe = pipes["w1"]
    _, ann = session(room, host, pipe, "Ann", 1)
    _, bob = session(room, host, pipe, "Bob", 2)
    assert pipe.replica.rates
    with as_caller(1):
        rated = pipe.replica.open_table(ann, Rules(), ("easy", "easy"))
    with as_caller(2):
        casual = pipe.replica.open_table(bob, Rules(), ("easy", "easy"), False)
    assert rated.rated and not casual.rated
    assert room.tables[rated.number].rated and not room.tables[casual.number].rated


async def test_over_ssh_a_seat_is_rated_by_its_key_or_its_reconnect_code(tmp_path):
    """Under --open: Ann's seat carries her key, whatever name she chose;
    Bob, with no key, carries his reconnect code's digest: the identities
    a rating follows (crib3.room.identities)."""
    import asyncssh
    from ssh_support import Client, serving, until

    from crib3.room.identities import seat_identity

    key = asyncssh.generate_private_key("ssh-ed25519")
    async with serving(tmp_path, results=Results(tmp_path / "ratings")) as server:
        ann = await Client.connect(server.port, "ann", key=key)
        await ann.shows("Open a table")
        ann.press("o")
        await ann.shows("Rating")
        ann.press("\r")
        bob = await Client.connect(server.port, "bob")
        await bob.shows("Open a table")
        await until(lambda: server.room.lobby(), what="ann's table")
        [table] = server.room.lobby()
        bob.press("\r")  # sits at the highlighted table: Ann's
        await until(lambda: table.seats[1].name == "bob", what="bob seated")
        assert table.rated
        assert seat_identity(table.seats[0]) == "ssh " + key.get_fingerprint()
        assert seat_identity(table.seats[1]).startswith("code ")
        for client in (ann, bob):
            client.close()
