"""The card room's own screens (lobby, opening a table, waiting for the
start), as SVG snapshots at 80x24 and 120x36, on a room without SSH."""

from __future__ import annotations

import pytest
from snapshot_support import at_sizes, screen_svg
from tui_support import room_app, room_with_tables, screen_text, wait_for

from crib3.engine import Rules
from crib3.room import Room
from crib3.tui.room_app import CardRoomApp
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.open_table import OpenTableScreen
from crib3.tui.screens.waiting import WaitingScreen

SIZES = [(80, 24), (120, 36)]


# How Dan, in the lobby, reaches each screen.

async def the_lobby(pilot) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))


async def opening_a_table(pilot) -> None:
    await the_lobby(pilot)
    await pilot.press("o")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, OpenTableScreen))


async def waiting_for_the_owner(pilot) -> None:
    await the_lobby(pilot)
    await pilot.press("down", "enter")  # Cat's table
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, WaitingScreen))


@pytest.mark.parametrize("setup, size", [
    *at_sizes("lobby", SIZES, the_lobby),
    *at_sizes("open-a-table", SIZES, opening_a_table),
    *at_sizes("waiting-for-the-owner", SIZES, waiting_for_the_owner),
])
async def test_room_screen(svg_snapshot, setup, size, tmp_path):
    room = room_with_tables(tmp_path)
    assert await screen_svg(lambda: room_app(room, "Dan"), size, setup=setup) == svg_snapshot


async def test_the_owner_starts_and_a_guest_follows(tmp_path):
    """Cat (the owner) and Dan in one room, each in their own app: Dan sits
    down, Cat starts, and both screens go to the table, each from its seat."""
    room = room_with_tables(tmp_path)
    table = room.tables[2]
    cat_app, dan_app = room_app(room, "Cat"), room_app(room, "Dan")
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


# --- tables that never strand (issue 11 point 5) ------------------------------------


def toasts(app) -> str:
    """What the app's toasts said (run_test draws none: read them here)."""
    return " | ".join(str(n.message) for n in app._notifications)


def started_room(tmp_path, patience: float = 60.0) -> tuple[Room, object]:
    """Ann (the owner), Bob and Cat at a started table; its computer players
    never get to move. Nobody has an app yet: each test opens the ones it needs."""
    room = Room(tmp_path / "tables", think=3600, patience=patience)
    ann, bob, cat = (room.sign_in(n, None, lambda r: None) for n in ("Ann", "Bob", "Cat"))
    table = room.open_table(ann, Rules(target=61), ("standard", "standard"))
    table.sit(bob), table.sit(cat)
    table.start("Ann")
    return room, table


async def test_the_next_person_waiting_is_told_they_own_the_table_and_starts_it(tmp_path):
    room = room_with_tables(tmp_path)
    table = room.tables[2]
    cat_app, dan_app = room_app(room, "Cat"), room_app(room, "Dan")
    async with cat_app.run_test(size=(80, 24)) as cat, dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(cat, lambda: isinstance(cat_app.screen, WaitingScreen))
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        await dan.press("down", "enter")
        await wait_for(dan, lambda: isinstance(dan_app.screen, WaitingScreen))
        assert not dan_app.screen.check_action("start", ())
        await cat.press("l")  # the owner leaves before the start
        await wait_for(dan, lambda: "you own table 2 now" in toasts(dan_app))
        assert "Cat left: you own table 2 now (Enter starts the game)." in toasts(dan_app)
        await wait_for(dan, lambda: "owner  (you)" in str(
            dan_app.screen.query_one("#seats").render()))
        await dan.press("enter")
        await wait_for(dan, lambda: getattr(dan_app.screen, "me", None) == 1)
        assert table.started and table.owner == "Dan"


async def test_anyone_at_the_table_is_told_when_they_may_seat_a_bot_and_does(tmp_path):
    from crib3.tui.screens.room_table import RoomTableScreen

    room, table = started_room(tmp_path, patience=0.2)
    room.depart(room.people["bob"])
    cat_app = room_app(room, "Cat")  # not the owner
    async with cat_app.run_test(size=(80, 24)) as cat:
        await wait_for(cat, lambda: isinstance(cat_app.screen, RoomTableScreen))
        await wait_for(cat, lambda: "press b" in toasts(cat_app))
        assert ("Bob has been away a while: anyone at the table may press b to give their "
                "seat to the standard computer player.") in toasts(cat_app)
        assert cat_app.screen.check_action("replace", ())
        await cat.press("b")
        await wait_for(cat, lambda: table.seats[1].replaced)
        await wait_for(cat, lambda: "now plays for Bob" in toasts(cat_app))


async def test_a_table_with_everyone_there_keeps_no_clock_ticking(tmp_path):
    """The patience check ticks only while someone's seat waits for them:
    an idle session wakes its server process for nothing otherwise (it
    ticked every second in every session at a table)."""
    from crib3.tui.screens.room_table import RoomTableScreen

    room, table = started_room(tmp_path, patience=0.2)
    cat_app = room_app(room, "Cat")
    async with cat_app.run_test(size=(80, 24)) as cat:
        await wait_for(cat, lambda: isinstance(cat_app.screen, RoomTableScreen))
        screen = cat_app.screen
        ticks = []
        original = screen._patience_check
        screen._patience._callback = lambda: (ticks.append(1), original())
        await cat.pause(0.5)
        assert ticks == [] and not screen._patience._active.is_set()
        room.depart(room.people["bob"])
        await wait_for(cat, lambda: "press b" in toasts(cat_app))
        assert ticks
        bob = room.sign_in("Bob", None, lambda r: None)
        table.sit(bob)  # back at his seat
        await wait_for(cat, lambda: "Bob is back" in toasts(cat_app))
        assert not screen._patience._active.is_set()


async def test_the_owner_leaving_a_started_table_passes_it_on_and_the_seat_waits(tmp_path):
    from crib3.tui.screens.room_table import RoomTableScreen

    room, table = started_room(tmp_path)
    ann_app, bob_app = room_app(room, "Ann"), room_app(room, "Bob")
    async with ann_app.run_test(size=(80, 24)) as ann, bob_app.run_test(size=(80, 24)) as bob:
        for pilot in (ann, bob):
            await wait_for(pilot, lambda pilot=pilot: isinstance(pilot.app.screen, RoomTableScreen))
        room.depart(room.people["cat"])  # Cat has no app: she is not here
        assert not bob_app.screen.check_action("close_table", ())
        await ann.press("l")
        await wait_for(ann, lambda: isinstance(ann_app.screen, LobbyScreen))
        assert table.away(0) is not None and table.owner == "Bob"
        assert "your seat waits for you" in toasts(ann_app)
        assert "Ann has left the table" not in toasts(ann_app)  # told once, in her words
        await wait_for(bob, lambda: "Ann left: you own table 1 now (x closes it for everyone)."
                       in toasts(bob_app))
        # Bob is told who went back to the lobby and whose session ended.
        await wait_for(bob, lambda: "Ann has left the table; their seat waits." in toasts(bob_app))
        assert "Cat has left the room; their seat waits." \
            in toasts(bob_app)
        assert "Ann has left the room" not in toasts(bob_app)
        assert bob_app.screen.check_action("close_table", ())


async def test_the_owner_closes_a_started_table_after_saying_yes(tmp_path):
    from crib3.tui.screens.room_table import ConfirmCloseTable, RoomTableScreen

    room, table = started_room(tmp_path)
    ann_app, bob_app = room_app(room, "Ann"), room_app(room, "Bob")
    async with ann_app.run_test(size=(80, 24)) as ann, bob_app.run_test(size=(80, 24)) as bob:
        for pilot in (ann, bob):
            await wait_for(pilot, lambda pilot=pilot: isinstance(pilot.app.screen, RoomTableScreen))
        assert not bob_app.screen.check_action("close_table", ())  # only the owner
        await ann.press("x")
        await wait_for(ann, lambda: isinstance(ann_app.screen, ConfirmCloseTable))
        await ann.press("n")  # not after all
        await wait_for(ann, lambda: isinstance(ann_app.screen, RoomTableScreen))
        assert not table.closed
        await ann.press("x")
        await wait_for(ann, lambda: isinstance(ann_app.screen, ConfirmCloseTable))
        await ann.press("y")
        await wait_for(ann, lambda: isinstance(ann_app.screen, LobbyScreen))
        await wait_for(bob, lambda: isinstance(bob_app.screen, LobbyScreen))
        assert table.closed and room.lobby() == [] and table.log_path.exists()
        assert "Ann closed table 1; its game is saved." in toasts(bob_app)


async def test_someone_still_in_the_lobby_brings_their_shelved_table_back(tmp_path):
    from crib3.tui.screens.room_table import RoomTableScreen

    room, table = started_room(tmp_path)
    room.idle_close = 0.05
    for name in ("ann", "bob", "cat"):
        room.depart(room.people[name])
    bob = room.sign_in("Bob", None, lambda r: None)  # in before it is shelved
    await wait_for_shelved(room, table)
    bob_app = CardRoomApp(room, bob, think=0.0)
    async with bob_app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(bob_app.screen, LobbyScreen))
        await wait_for(pilot, lambda: "Your table 1 was put away while nobody was at it: r "
                       "brings it back." in str(bob_app.screen.query_one("#who").render()))
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(bob_app.screen, RoomTableScreen))
        back = room.tables[1]
        assert bob_app.screen.me == 1 and back.present(1) and room.shelved == {}


async def wait_for_shelved(room, table) -> None:
    import asyncio

    for _ in range(100):
        if table.closed:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("the table was never shelved")


async def test_a_seat_given_to_a_computer_player_is_titled_with_its_level(tmp_path):
    """Before: the box still said "Bob · human" while the computer played."""
    from crib3.tui.screens.room_table import RoomTableScreen

    room, table = started_room(tmp_path, patience=0.2)
    room.depart(room.people["bob"])
    cat_app = room_app(room, "Cat")
    async with cat_app.run_test(size=(80, 24)) as cat:
        await wait_for(cat, lambda: isinstance(cat_app.screen, RoomTableScreen))
        panel = cat_app.screen.table_view.panel(1)
        assert "Bob · human" in str(panel.border_title)
        await wait_for(cat, lambda: cat_app.screen.check_action("replace", ()))
        await cat.press("b")
        await wait_for(cat, lambda: table.seats[1].replaced)
        await wait_for(cat, lambda: "Bob · standard" in str(panel.border_title))
    ann_app = room_app(room, "Ann")  # Ann, arriving after, sees it too
    async with ann_app.run_test(size=(80, 24)) as ann:
        await wait_for(ann, lambda: isinstance(ann_app.screen, RoomTableScreen))
        panel = ann_app.screen.table_view.panel(1)
        await wait_for(ann, lambda: "Bob · standard" in str(panel.border_title))


# --- opening tables, a few in a row (issue 33 point 14) ------------------------------------


async def test_a_fourth_table_in_a_row_is_refused_in_one_line_on_the_lobby(tmp_path):
    from crib3.room.room import OPENS_AT_ONCE

    room = room_with_tables(tmp_path)
    dan = room.people["dan"]
    for _ in range(OPENS_AT_ONCE):  # opened, and left before anyone came
        table = room.open_table(dan, Rules(), ("easy", "easy"))
        table.leave(0)
    # time stands still: a busy machine's second is not the test's
    for bucket in room.opened.values():
        bucket.clock = (lambda frozen: lambda: frozen)(bucket.when)
    dan_app = room_app(room, "Dan")
    async with dan_app.run_test(size=(80, 24)) as pilot:
        await opening_a_table(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: "tables just now" in toasts(dan_app))
        assert toasts(dan_app) == ("you opened 3 tables just now: you may open another "
                                   "in 20 s")
        assert isinstance(dan_app.screen, LobbyScreen)
        assert room.place_of(dan) is None and len(room.lobby()) == 2


# --- who may end a game for everyone (issue 33 point 12) -------------------------------------


async def test_after_a_restart_the_new_owners_x_asks_the_others_and_they_agree(tmp_path):
    from crib3.tui.screens.room_table import ConfirmCloseTable, RoomTableScreen

    room, table = started_room(tmp_path)
    room.close()
    again = Room(tmp_path / "tables", think=3600)  # the restart
    assert again.restore() == []
    table = again.tables[1]
    people = {n: again.sign_in(n, None, lambda r: None) for n in ("Bob", "Cat")}
    apps = {n: CardRoomApp(again, p, think=0.0) for n, p in people.items()}
    async with apps["Bob"].run_test(size=(80, 24)) as bob, \
            apps["Cat"].run_test(size=(80, 24)) as cat:
        for pilot in (bob, cat):
            await wait_for(pilot, lambda p=pilot: isinstance(p.app.screen, RoomTableScreen))
        assert table.owner == "Bob" and apps["Bob"].screen.check_action("close_table", ())
        assert not apps["Cat"].screen.check_action("close_table", ())
        await bob.press("x")
        await wait_for(bob, lambda: isinstance(apps["Bob"].screen, ConfirmCloseTable))
        assert "Ann started this game: the others here are asked to agree first." in \
            screen_text(apps["Bob"])
        await bob.press("y")
        await wait_for(bob, lambda: "are asked to agree" in toasts(apps["Bob"]))
        assert not table.closed and table.close_asked == ["Bob"]
        await wait_for(cat, lambda: "asks to close" in toasts(apps["Cat"]))
        assert ("Bob asks to close table 1 for good: x agrees (it closes when everyone "
                "here has).") in toasts(apps["Cat"])
        await wait_for(cat, lambda: apps["Cat"].screen.check_action("close_table", ()))
        await cat.press("x")
        await wait_for(cat, lambda: isinstance(apps["Cat"].screen, ConfirmCloseTable))
        await cat.press("y")
        await wait_for(cat, lambda: table.close_asked == ["Bob", "Cat"])
        assert not table.closed  # Ann's seat waits for her: she is asked too
        ann = again.sign_in("Ann", None, lambda r: None)
        ann_app = CardRoomApp(again, ann, think=0.0)
        async with ann_app.run_test(size=(80, 24)) as ann_pilot:
            await wait_for(ann_pilot, lambda: isinstance(ann_app.screen, RoomTableScreen))
            await ann_pilot.press("x")
            await wait_for(ann_pilot, lambda: isinstance(ann_app.screen, ConfirmCloseTable))
            await ann_pilot.press("y")
            await wait_for(ann_pilot, lambda: isinstance(ann_app.screen, LobbyScreen))
        for pilot in (bob, cat):
            await wait_for(pilot, lambda p=pilot: isinstance(p.app.screen, LobbyScreen))
        assert table.closed and again.lobby() == []
        assert "Everyone agreed: table 1 is closed; its game is saved." in toasts(apps["Cat"])


async def test_the_others_bring_back_a_game_its_first_owner_closed(tmp_path):
    from crib3.tui.screens.room_table import RoomTableScreen

    room, table = started_room(tmp_path)
    table.close_by("Ann")
    bob_app = room_app(room, "Bob")
    async with bob_app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(bob_app.screen, LobbyScreen))
        await wait_for(pilot, lambda: "Your game at table 1 was closed: r brings it back." in
                       str(bob_app.screen.query_one("#who").render()))
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(bob_app.screen, RoomTableScreen))
        back = room.tables[1]
        assert back is not table and bob_app.screen.me == 1 and back.present(1)
        assert back.game.events[:len(table.game.events)] == table.game.events


async def test_a_table_lost_by_its_server_before_the_start_is_not_said_to_be_closed(tmp_path):
    """(crib3 serve --cluster) A table whose server lost hold of it before
    its game started is gone (no node adopts a table with no event): the
    person waiting at it is back in the lobby, told so, not that its owner
    closed it."""
    room = room_with_tables(tmp_path)
    table = room.tables[2]  # Cat's, waiting
    dan_app = room_app(room, "Dan")
    async with dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        await dan.press("down", "enter")
        await wait_for(dan, lambda: isinstance(dan_app.screen, WaitingScreen))
        table.moved = True  # (as `Node.moved_elsewhere` does)
        table.close()
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen)
                       and "Table 2 is gone: its server lost hold of it" in toasts(dan_app))
        assert "closed table" not in toasts(dan_app)
