"""The card room's own screens (lobby, opening a table, waiting for the
start), as SVG snapshots at 80x24 and 120x36, on a room without SSH."""

from __future__ import annotations

import pytest

from crib3.engine import Rules
from crib3.room import Room
from crib3.tui.room_app import CardRoomApp
from crib3.tui.screens.room import LobbyScreen, OpenTableScreen, WaitingScreen
from snapshot_support import screen_svg
from tui_support import wait_for

SIZES = [(80, 24), (120, 36)]


def room_with_tables(tmp_path) -> Room:
    """Two tables: Ann's, playing with Bob and an expert; Cat's, waiting."""
    room = Room(tmp_path / "tables", think=3600)  # the computer players never get to move
    ann, bob, cat = (room.sign_in(n, None, lambda r: None) for n in ("Ann", "Bob", "Cat"))
    playing = room.open_table(ann, Rules(target=61, muggins=True), ("standard", "expert"))
    playing.sit(bob)
    playing.start("Ann")
    room.depart(bob)
    room.open_table(cat, Rules(skunks=True), ("easy", "standard"))
    room.sign_in("Dan", None, lambda r: None)
    return room


def app_for(room: Room, name: str) -> CardRoomApp:
    return CardRoomApp(room, room.people[name.lower()], think=0.0)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_lobby(svg_snapshot, size, tmp_path):
    room = room_with_tables(tmp_path)

    async def setup(pilot):
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))

    assert await screen_svg(lambda: app_for(room, "Dan"), size, setup=setup) == svg_snapshot


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_open_a_table(svg_snapshot, size, tmp_path):
    room = room_with_tables(tmp_path)

    async def setup(pilot):
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, OpenTableScreen))

    assert await screen_svg(lambda: app_for(room, "Dan"), size, setup=setup) == svg_snapshot


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_waiting_for_the_owner(svg_snapshot, size, tmp_path):
    room = room_with_tables(tmp_path)

    async def setup(pilot):
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))
        await pilot.press("down", "enter")  # Cat's table
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, WaitingScreen))

    assert await screen_svg(lambda: app_for(room, "Dan"), size, setup=setup) == svg_snapshot


async def test_the_owner_starts_and_a_guest_follows(tmp_path):
    """Cat (the owner) and Dan in one room, each in their own app: Dan sits
    down, Cat starts, and both screens go to the table, each from its seat."""
    room = room_with_tables(tmp_path)
    table = room.tables[2]
    cat_app, dan_app = app_for(room, "Cat"), app_for(room, "Dan")
    async with cat_app.run_test(size=(80, 24)) as cat, dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(cat, lambda: isinstance(cat_app.screen, WaitingScreen))
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        await dan.press("down", "enter")
        await wait_for(cat, lambda: "Dan" in str(cat_app.screen.query_one("#seats").render()))
        assert not dan_app.screen.check_action("start", ())  # only the owner starts
        await cat.press("enter")
        await wait_for(cat, lambda: getattr(cat_app.screen, "me", None) == 0)
        await wait_for(dan, lambda: getattr(dan_app.screen, "me", None) == 1)
        assert table.started and [p.kind for p in table.game.state.players] == \
            ["human", "human", "standard"]
