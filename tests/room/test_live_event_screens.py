"""The lobby's live events screen (`e`): an event to enter, and an event's
results once its boards are over, as an SVG snapshot at 80x24."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime
from types import SimpleNamespace

from snapshot_support import screen_svg
from tui_support import room_app, room_with_tables, wait_for

from crib3.duplicate.boards import make_boards, seat_of
from crib3.duplicate.events import DuplicateEvent
from crib3.duplicate.play import play_with_bots
from crib3.engine.log import write_log
from crib3.room.live_event import OVER, LiveEvent
from crib3.tui.screens.live_event import LiveBoardScreen, LiveEventScreen
from crib3.tui.screens.lobby import LobbyScreen

LATER = datetime(2030, 1, 4, 20, 0, tzinfo=UTC).timestamp()  # a start still to come


def played_event(tmp_path) -> LiveEvent:
    """Event "club", over: Dan, Ann and Bob at one table played its three boards."""
    event = DuplicateEvent("club", 7, "easy", make_boards(7, 3), "2026-12-06T00:00:00+00:00")
    live = LiveEvent(event, "Ann", LATER)
    for name in ("Dan", "Ann", "Bob"):
        live.join(name, None, None)
    live.status, live.board, live.seating = OVER, 3, [["Dan", "Ann", "Bob"]]
    for board in event.boards:
        game = play_with_bots(board, seat_of(0, board.number), ("easy", "standard", "expert"),
                              salt="snap")
        path = tmp_path / f"board-{board.number}.jsonl"
        write_log(path, game.events, event.header(board.number, "Dan", "test"))
        live.logs[board.number, 0] = path
    return live


def seated_dan(tmp_path):
    """A room where event "friday" (3 boards) has begun: Dan and Eve entered,
    seated at its one table with the computer."""
    room = room_with_tables(tmp_path)
    event = DuplicateEvent("friday", 8, "easy", make_boards(8, 3), "")
    event.folder.mkdir(parents=True)
    room.events.add(LiveEvent(event, "Dan", LATER))
    eve = room.sign_in("Eve", None, lambda r: None)
    for presence in (room.people["dan"], eve):
        room.events.join("friday", presence)
    room.events.start("friday", eve.__class__("Dan", None, admin=True))
    return room


async def to_the_events(pilot) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))
    await pilot.press("e")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LiveEventScreen))


async def test_the_events_screen_shows_the_ranking_and_the_fields(svg_snapshot, tmp_path):
    room = room_with_tables(tmp_path)
    room.events.add(played_event(tmp_path))
    entering = LiveEvent(DuplicateEvent("friday", 8, "standard", make_boards(8, 3), ""),
                         "Cat", LATER)
    room.events.add(entering)
    assert await screen_svg(lambda: room_app(room, "Dan"), (80, 24),
                            setup=to_the_events) == svg_snapshot


async def test_dan_enters_from_the_screen_once(tmp_path):
    room = room_with_tables(tmp_path)
    event = DuplicateEvent("friday", 8, "standard", make_boards(8, 3), "")
    event.folder.mkdir(parents=True)
    live = LiveEvent(event, "Cat", LATER)
    room.events.add(live)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_events(pilot)
        await pilot.press("j")
        await wait_for(pilot, lambda: [e.name for e in live.entrants] == ["Dan"])
        await pilot.press("s")  # not Dan's to start
        await pilot.pause()
        assert live.board == 0 and "only Cat or an admin" in " ".join(
            str(n.message) for n in app._notifications)
        await pilot.press("j")  # taken back
        await wait_for(pilot, lambda: live.entrants == [])
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))


async def test_a_person_back_from_a_dropped_connection_is_seated_at_their_board(tmp_path):
    room = seated_dan(tmp_path)
    app = room_app(room, "Dan")  # (a new session: straight to the seat, as at any table)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LiveBoardScreen))
        assert pilot.app.screen.table is room.events.tables["friday"][0]


async def test_n_makes_a_rated_event_or_a_casual_one_where_the_room_rates(tmp_path,
                                                                          monkeypatch):
    """The dialog's choice, as a table is opened rated or casual; a room
    that rates nothing (--no-ratings) makes it unrated without asking."""
    from crib3.duplicate.events import load_event
    from crib3.room import live_event
    from crib3.room.event_ratings import is_rated
    from crib3.room.results import Results
    from crib3.room.room import Room
    from crib3.tui.screens import live_event as screen_module
    from crib3.tui.screens.new_event import NewEventScreen

    ticks = itertools.count(2_000_000_000, 10)  # (an event's name is the second it starts)
    monkeypatch.setattr(screen_module, "time", SimpleNamespace(time=lambda: float(next(ticks))))
    monkeypatch.setattr(live_event, "play_baseline", lambda event, folder: None)  # (quick)
    for rates in (True, False):
        monkeypatch.setenv("CRIB3_HOME", str(tmp_path / f"home-{rates}"))  # (its own events)
        room = Room(tmp_path / f"tables-{rates}", think=3600,
                    results=Results(tmp_path / "ratings") if rates else None)
        room.sign_in("Dan", None, lambda r: None)
        app = room_app(room, "Dan")
        async with app.run_test(size=(80, 24)) as pilot:
            await to_the_events(pilot)
            screen = pilot.app.screen
            for number, keys in enumerate((("enter",), ("right", "enter")), start=1):
                await pilot.press("n")
                if rates:
                    await wait_for(pilot, lambda: isinstance(pilot.app.screen, NewEventScreen))
                    await pilot.press(*keys)
                await wait_for(pilot, lambda number=number, room=room, screen=screen:
                               len(room.events.events) == number and not screen._making)
            made = [load_event(name) for name in sorted(room.events.events)]
            assert [is_rated(event) for event in made] == ([True, False] if rates else
                                                           [False, False])
            said = [str(n.message) for n in app._notifications]
            assert any(", rated, starts" in line for line in said) == rates, said
        room.close()


async def test_a_board_table_watched_is_called_by_its_board_not_hand_1(tmp_path):
    """Someone not in the event watches one of its tables: its heading and
    its words name the board, as its seats' do ("Hand 1" told nobody which
    of the event's boards they watched)."""
    from tui_support import screen_text

    from crib3.tui.screens.watch import BoardSpectatorScreen, SpectatorScreen

    room = seated_dan(tmp_path)
    board_table = room.events.tables["friday"][0]
    room.sign_in("Zed", None, lambda r: None)
    app = room_app(room, "Zed")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))
        app.spectate(board_table)
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, BoardSpectatorScreen))
        await wait_for(pilot, lambda: "Board 1 of 3" in screen_text(app), what="the board")
        assert "Hand 1" not in screen_text(app)
        await pilot.press("l")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))
        app.spectate(room.tables[1])  # an ordinary table: its hands, as ever
        await wait_for(pilot, lambda: type(pilot.app.screen) is SpectatorScreen)
        await wait_for(pilot, lambda: "Hand 1" in screen_text(app), what="the hand")
