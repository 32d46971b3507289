"""What a screen update costs a card-room session (issue 11, capacity).

Each event of a table is drawn once per seat, on the server's one event
loop, so these are checked at the level a client meets them: the bytes a
session's SSH channel is sent, and the widgets Textual has to build.
"""

from __future__ import annotations

import asyncio
import statistics

from benchmarks.test_screen_update import OneTable, finished_game, measure
from helpers import finished
from textual.css.stylesheet import Stylesheet
from textual.widgets._footer import FooterKey
from tui_support import screen_text

from crib3.tui.screens.table import TableScreen
from crib3.tui.textual_compat import many_terminals_in_one_process
from crib3.tui.widgets.footer import KeyLine
from crib3.tui.words import Mode


def test_an_event_redraws_what_changed_not_the_whole_screen():
    """Before: a mode change repainted the screen, and the footer's keys
    were rebuilt and laid out again, so nearly every event sent the whole
    80x24 screen (~16 KB) to every seat."""
    _, sizes, whole = asyncio.run(measure(events=40))
    # A frame that repaints only what changed: about half the whole screen's
    # bytes at the median (before: more than the whole screen, ~16 KB).
    assert statistics.median(sizes) < whole * 0.75, (statistics.median(sizes), whole)


async def test_the_footer_tells_its_keys_what_they_say_now():
    """Enter goes from "Go on" to "Throw": the footer says what Textual's own
    footer would say (one key per action, in its order), by the same widget
    (no rebuild), and at once: the frame that shows the new mode shows its
    keys (before, they came a frame or two later)."""
    app = OneTable(finished_game())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen)

        def footer() -> str:
            return screen_text(app).splitlines()[-1]

        def textual_says() -> list[str]:  # Footer.compose's keys: the first binding per action
            shown = {b.action: b.description for _, b, _, _ in screen.active_bindings.values()
                     if b.show and b.action != app.COMMAND_PALETTE_BINDING}
            return [d for d in shown.values() if d != "palette"]

        screen.mode = Mode.WAITING_FOR_ENTER
        await pilot.pause()
        line = screen.query_one(KeyLine)
        said = [k.description for k in line.keys]
        assert said[0] == "Go on" and said == textual_says()
        assert footer().startswith(" ⏎ Go on  f Feed ") and footer().endswith("▏^p palette")
        screen.mode = Mode.OTHERS_TURN  # no Enter: one key fewer, told with no pause
        assert [k.description for k in line.keys] == said[1:] == textual_says()
        assert footer().startswith(" f Feed ")
        screen.mode = Mode.WAITING_FOR_ENTER
        assert [k.description for k in line.keys] == said
        assert footer().startswith(" ⏎ Go on ")
        await pilot.pause()
        assert screen.query_one(KeyLine) is line


async def test_a_click_on_the_footer_presses_the_key_drawn_there():
    """The keys are one line now: a click is mapped from its x to the key
    drawn there, as a click on Textual's own key widget was."""
    app = OneTable(finished_game())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        screen.mode = Mode.WAITING_FOR_ENTER
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert not screen.has_class("feed-on")
        await pilot.click(KeyLine, offset=(footer.index("Feed") + 2, 0))  # its last letters
        await pilot.pause()
        assert screen.has_class("feed-on")
        await pilot.click(KeyLine, offset=(footer.index("f Feed"), 0))  # its key
        await pilot.pause()
        assert not screen.has_class("feed-on")
        await pilot.click(KeyLine, offset=(len(footer.split("▏")[0].rstrip()) + 3, 0))  # no key
        await pilot.pause()
        assert not screen.has_class("feed-on") and not screen._continue.is_set()
        await pilot.click(KeyLine, offset=(footer.index("Go on"), 0))
        await pilot.pause()
        assert screen._continue.is_set()  # Enter, as the key says
        line = screen.query_one(KeyLine)
        await pilot.hover(KeyLine, offset=(footer.index("? Help"), 0))  # lit, as on hover
        await pilot.pause()
        assert line.keys[line.hover or 0].description == "Help"
        await pilot.hover(KeyLine, offset=(len(footer.split("▏")[0].rstrip()) + 3, 0))
        await pilot.pause()
        assert line.hover is None


async def test_an_ordinary_event_of_the_play_lays_out_no_screen():
    """Before: the footer's keys changed in number or width with the turn
    ("⏎ Play", "1-4 Play", "h Coach" on your turn, none of them on
    another's), and each change laid out the whole screen again: three
    events in four, at every seat."""
    from benchmarks.test_screen_update import LayoutCount

    from crib3.engine import SeatFeed
    from crib3.engine import events as ev

    game = finished_game()
    history, _ = SeatFeed(game, 0).follow(lambda *_: None)
    first_play = next(i for i, (e, _, _) in enumerate(history) if isinstance(e, ev.CardPlayed))
    app = OneTable(game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen)

        def show(event: ev.Event, state: object, view: object) -> None:  # as the table does
            screen.mode = Mode.PRESENTING
            screen._present(event, state, view)  # type: ignore[arg-type]
            screen.mode = Mode.YOUR_TURN if view.my_turn else Mode.OTHERS_TURN  # type: ignore[attr-defined]

        for moment in history[:first_play]:
            show(*moment)
        await pilot.pause()
        turns = []
        with LayoutCount() as layouts:
            for moment in history[first_play:first_play + 8]:
                show(*moment)
                turns.append(screen.mode)
                await pilot.pause()
                await pilot.pause()
        assert {Mode.YOUR_TURN, Mode.OTHERS_TURN} <= set(turns)  # the keys did change
        assert layouts.calls == 0


def test_apps_in_one_process_share_the_parsed_css():
    """Before: every session's app parsed all of the CSS again (most of a
    session's start)."""
    many_terminals_in_one_process()
    css = "Screen { background: $background; } Static { height: 1; }"
    first, second = Stylesheet(variables={"background": "black"}), \
        Stylesheet(variables={"background": "black"})
    for sheet in (first, second):
        sheet.add_source(css, read_from=("test", "css"))
        sheet.parse()
    assert first.rules and first.rules[0] is second.rules[0]
    other = Stylesheet(variables={"background": "white"})  # another theme: parsed anew
    other.add_source(css, read_from=("test", "css"))
    other.parse()
    assert other.rules[0] is not first.rules[0]


def test_a_hand_is_drawn_again_only_when_it_changed(monkeypatch):
    """Before: every event's new view redrew the hand (six large cards),
    though most events leave it as it was."""
    from crib3.tui.widgets.hand import HandView

    drawn = []
    render = HandView.render
    monkeypatch.setattr(HandView, "render", lambda self: drawn.append(1) or render(self))
    costs, _, _ = asyncio.run(measure(events=60))
    assert len(drawn) < 0.75 * len(costs), (len(drawn), len(costs))


async def test_a_lobby_redraws_the_one_table_that_changed(tmp_path, monkeypatch):
    """Before: every change in the room rebuilt every lobby's whole list of
    tables (time growing with the square of the room as it filled)."""
    from textual.widgets import DataTable
    from tui_support import wait_for

    from crib3.engine import Rules
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.screens.lobby import LobbyScreen

    room = Room(tmp_path / "tables", think=3600)
    owners = [room.sign_in(n, None, lambda r: None) for n in ("Ann", "Bob", "Cat")]
    tables = [room.open_table(p, Rules(), ("easy", "standard")) for p in owners]
    room.sign_in("Dan", None, lambda r: None)
    eve = room.sign_in("Eve", None, lambda r: None)
    app = CardRoomApp(room, room.people["dan"], think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        grid = app.screen.query_one(DataTable)
        await wait_for(pilot, lambda: grid.row_count == 3)
        work: list[str] = []
        for name in ("clear", "add_row", "remove_row", "update_cell"):
            real = getattr(DataTable, name)
            monkeypatch.setattr(DataTable, name, lambda self, *a, _n=name, _r=real, **k:
                                work.append(_n) or _r(self, *a, **k))
        tables[1].sit(eve)  # one table changes: Eve at Bob's
        await wait_for(pilot, lambda: "Eve" in str(grid.get_row_at(1)))
        assert work == ["update_cell"], work  # that row's seats, nothing else
        assert "Eve" not in str(grid.get_row_at(0)) + str(grid.get_row_at(2))


async def test_a_seated_session_keeps_no_lobby_and_gets_a_new_one_when_it_stands_up(tmp_path):
    """Before: the lobby stayed under the table screen for the whole game,
    with its list of every table (some 0.45 MB a session at 12 tables,
    growing with the room), and was told of every change in the room."""
    from textual.widgets import DataTable
    from tui_support import wait_for

    from crib3.engine import Rules
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.screens.lobby import LobbyScreen
    from crib3.tui.screens.room_table import RoomTableScreen
    from crib3.tui.screens.waiting import WaitingScreen
    from crib3.tui.screens.watch import SpectatorScreen

    room = Room(tmp_path / "tables", think=3600)
    ann, bob = (room.sign_in(n, None, lambda r: None) for n in ("Ann", "Bob"))
    playing = room.open_table(ann, Rules(), ("standard", "standard"))
    playing.start("Ann")
    room.open_table(bob, Rules(), ("easy", "standard"))
    room.sign_in("Dan", None, lambda r: None)
    app = CardRoomApp(room, room.people["dan"], think=0.0)

    def lobbies() -> int:
        return sum(isinstance(s, LobbyScreen) for s in app.screen_stack)

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        listening = len(room.listeners)
        await pilot.press("w")  # watch Ann's table: the lobby goes
        await wait_for(pilot, lambda: isinstance(app.screen, SpectatorScreen))
        assert lobbies() == 0 and len(room.listeners) == listening - 1
        await pilot.press("l")  # back: a new lobby, listening again
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert lobbies() == 1 and len(room.listeners) == listening
        await pilot.press("down", "enter")  # sit at Bob's table
        await wait_for(pilot, lambda: isinstance(app.screen, WaitingScreen))
        assert lobbies() == 0
        room.tables[2].start("Bob")
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen))
        assert lobbies() == 0 and len(app.screen_stack) == 2  # Textual's own, and the table
        await pilot.press("l")  # stand up: the lobby lists the tables as they are now
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        grid = app.screen.query_one(DataTable)
        await wait_for(pilot, lambda: grid.row_count == 2)
        assert lobbies() == 1 and len(room.listeners) == listening
        assert "Dan" in str(grid.get_row_at(1))  # his seat waits for him


async def test_a_lobby_keeps_a_few_drawings_of_its_list_not_every_one(tmp_path):
    """Before: the lobby's DataTable kept every drawing of its list (its
    caches, keyed by the table's update, hold 10,000 cells and 1,000 rows
    and lines): seating 20 tables, some 500,000 objects a session worker,
    and a lobby left behind kept them until the collector came."""
    from textual.widgets import DataTable
    from tui_support import wait_for

    from crib3.engine import Rules
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.screens.lobby import LobbyScreen
    from crib3.tui.widgets.table_list import TableList

    room = Room(tmp_path / "tables", think=3600)
    owners = [room.sign_in(f"p{n}", None, lambda r: None) for n in range(12)]
    tables = [room.open_table(p, Rules(), ("easy", "standard")) for p in owners]
    guest = room.sign_in("Guest", None, lambda r: None)
    room.sign_in("Dan", None, lambda r: None)
    app = CardRoomApp(room, room.people["dan"], think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        grid = app.screen.query_one(DataTable)
        await wait_for(pilot, lambda: grid.row_count == 12)
        for table in tables * 3:  # the guest sits at every table in turn, and leaves
            table.sit(guest)
            await pilot.pause()
            table.leave(table.seat_of("Guest"))
            await pilot.pause()
        await wait_for(pilot, lambda: "Guest" not in str(grid.get_row_at(11)))
        rows = 16 * TableList.DRAWINGS_KEPT
        assert len(grid._cell_render_cache) <= rows * 4, len(grid._cell_render_cache)
        assert len(grid._row_render_cache) <= rows and len(grid._line_cache) <= rows
        await pilot.press("enter")  # sits down: the lobby left behind lets its drawings go
        await wait_for(pilot, lambda: not isinstance(app.screen, LobbyScreen))
        assert len(grid._cell_render_cache) == len(grid._line_cache) == 0


async def test_many_changes_in_the_room_are_one_redraw_of_a_lobby(tmp_path, monkeypatch):
    """Changes that come before a lobby has redrawn are drawn by one redraw
    (seating a busy room: one per session per turn of the loop)."""
    from tui_support import wait_for

    from crib3.engine import Rules
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.screens.lobby import LobbyScreen

    room = Room(tmp_path / "tables", think=3600)
    room.sign_in("Dan", None, lambda r: None)
    app = CardRoomApp(room, room.people["dan"], think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.pause()
        redraws: list[int] = []
        real = LobbyScreen.refresh_tables
        monkeypatch.setattr(LobbyScreen, "refresh_tables",
                            lambda self: redraws.append(1) or real(self))
        for name in ("Ann", "Bob", "Cat", "Eve"):  # eight changes at once
            room.open_table(room.sign_in(name, None, lambda r: None), Rules(),
                            ("easy", "standard"))
        await wait_for(pilot, lambda: len(app.screen._numbers) == 4)
        await pilot.pause()
        assert len(redraws) == 1, redraws


async def test_the_seats_of_a_table_draw_the_board_once(monkeypatch):
    """Before: each seat's app drew the same board (and centre, and keys)
    again, one drawing per seat per event; now the second seat's board is
    the first one's lines, and a board of another size is drawn anew."""
    from crib3.tui.widgets.board import CribBoard
    from crib3.tui.widgets.shared_render import SHARED

    SHARED.clear()
    game = finished_game()
    drawn: list[tuple[int, int]] = []
    render = CribBoard.render
    monkeypatch.setattr(CribBoard, "render",
                        lambda self: drawn.append(tuple(self.size)) or render(self))
    async with OneTable(game, 0).run_test(size=(80, 24)) as first:
        await first.pause()
        assert drawn, "the first seat draws the board"
        before = len(drawn)
        async with OneTable(game, 1).run_test(size=(80, 24)) as second:
            await second.pause()
            assert isinstance(second.app.screen, TableScreen)
            assert len(drawn) == before, drawn
        async with OneTable(game, 2).run_test(size=(120, 36)) as wider:
            await wider.pause()
            assert len(drawn) > before  # another width: another drawing


def test_the_shared_lines_are_bounded():
    from crib3.tui.widgets.shared_render import StripCache

    cache = StripCache(size=2)
    for key in "abc":
        cache.put(key, [])
    assert len(cache) == 2 and cache.get("a") is None and cache.get("c") == []


async def test_a_footer_key_is_not_restyled_as_it_comes(monkeypatch):
    """Before: each key was mounted compact and then told it was not, two
    recomputations of its styles (at a session's start, more of its CPU
    than anything else), and again for every key added as the keys changed."""
    from textual.dom import DOMNode

    restyled: list[str] = []
    real = DOMNode.update_node_styles

    def counted(self, animate: bool = True) -> None:
        if isinstance(self, FooterKey):
            restyled.append(self.description)
        real(self, animate)

    monkeypatch.setattr(DOMNode, "update_node_styles", counted)
    app = OneTable(finished_game())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        for mode in (Mode.WAITING_FOR_ENTER, Mode.OTHERS_TURN, Mode.WAITING_FOR_ENTER):
            screen.mode = mode
            await pilot.pause()
        assert screen.query(FooterKey) and screen.query(KeyLine)
        assert restyled == []


async def test_a_session_draws_its_first_screen_once(tmp_path):
    """Before: the driver told the app its size again as it started, though
    the app had started at that very size, and the app laid out and sent
    its whole screen a second time (a fifth of a session's start)."""
    from benchmarks.test_session_start import FirstFrame

    from crib3.net.console import client_console
    from crib3.net.driver import ChannelDriver
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp

    many_terminals_in_one_process()
    room = Room(tmp_path / "tables", think=0)
    presence = room.sign_in("Ann", None, lambda reason: None)
    channel = FirstFrame()
    app = CardRoomApp(room, presence, think=0)
    client_console(app, "xterm-256color", {})
    app.driver_class = ChannelDriver.for_channel(channel)
    task = asyncio.get_running_loop().create_task(app.run_async(size=(80, 24)))
    try:
        await asyncio.wait_for(channel.seen.wait(), 30)
        assert app.size == (80, 24)
        assert app._driver.count.resizes == 0  # type: ignore[union-attr]
    finally:
        app.exit()
        await finished(task, 30, "the app's run, after it was told to exit")
        room.close()


async def test_a_board_draws_again_only_the_track_whose_pegs_moved(monkeypatch):
    """Before: every move of a peg drew all three tracks again (some 150
    runs of text a line); the tracks that did not move are kept."""
    from textual.app import App, ComposeResult

    from crib3.tui.widgets import board
    from crib3.tui.widgets.board import CribBoard

    board._merged_track.cache_clear()
    drawn: list[int] = []
    real = board._track_rows
    monkeypatch.setattr(board, "_track_rows", lambda *a: drawn.append(a[2]) or real(*a))

    class OneBoard(App):
        def compose(self) -> ComposeResult:
            yield CribBoard()

    app = OneBoard()
    async with app.run_test(size=(80, 24)) as pilot:
        widget = app.query_one(CribBoard)
        await pilot.pause()
        drawn.clear()  # (the board before the game: all at the start)
        widget.set_scores(["Ann", "Bob", "Cat"], [5, 9, 2], [0, 4, 0], 121, dealer=0)
        await pilot.pause()
        assert sorted(drawn) == [2, 5, 9]  # the first drawing: every track
        text = screen_text(app)
        widget.set_scores(["Ann", "Bob", "Cat"], [5, 11, 2], [0, 9, 0], 121, dealer=0)
        await pilot.pause()
        assert drawn[3:] == [11]  # Bob's pegs moved: his track alone
        assert screen_text(app) != text


async def test_the_table_is_driven_without_a_textual_worker(monkeypatch):
    """Before: every start of the table's driver (at a card room, nearly
    every event at every seat: a move from another seat wakes it) was a
    Textual `Worker`, with its manager's bookkeeping and its state changes
    sent as messages through the screen: more CPU than what it presented."""
    from textual.dom import DOMNode

    started: list[object] = []
    real = DOMNode.run_worker
    monkeypatch.setattr(DOMNode, "run_worker",
                        lambda self, *a, **k: started.append(self) or real(self, *a, **k))
    app = OneTable(finished_game())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        await pilot.pause()
        assert screen.mode == Mode.OVER  # driven: the game's end reached
        screen._start_driver()  # as a move from another seat wakes it
        screen._start_driver()  # ... at once again: the first one gives way
        assert screen.mode == Mode.PRESENTING
        await pilot.pause()
        assert screen.mode == Mode.OVER
        assert not [node for node in started if isinstance(node, TableScreen)]


async def test_a_driver_that_fails_ends_the_app_with_its_error(monkeypatch):
    """As a Textual worker's failure did: the app ends and keeps the cause
    (the command says it in one line)."""
    import pytest
    from textual.worker import WorkerFailed

    class Broken(Exception):
        pass

    async def fails(self: TableScreen) -> None:
        raise Broken("the driver broke")

    app = OneTable(finished_game())
    with pytest.raises(WorkerFailed):  # the app's failure, as Textual's run_test raises it
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            monkeypatch.setattr(TableScreen, "_drive", fails)
            app.screen._start_driver()  # type: ignore[attr-defined]
            await pilot.pause()
            await pilot.pause()
    assert isinstance(app.crash, Broken)


async def test_a_turn_change_recomputes_no_styles(monkeypatch):
    """Before: the turn's marks (the heavy border of the seat to play, of
    your hand's box, the prompt reversed) were CSS classes toggled as the
    turn moved, and each toggle had Textual match the whole stylesheet
    against the widget again: some four times an event at every seat. The
    marks still come and go, looking as before."""
    from textual.dom import DOMNode

    from crib3.engine import SeatFeed

    game = finished_game()
    history, _ = SeatFeed(game, 0).follow(lambda *_: None)
    app = OneTable(game)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        restyled: list[object] = []
        real = DOMNode.update_node_styles
        monkeypatch.setattr(DOMNode, "update_node_styles",
                            lambda self, animate=True: restyled.append(self) or real(self, animate))
        hand, prompt = screen.table_view.hand, screen.query_one("#prompt")
        marks = set()
        for event, state, view in history[:40]:
            screen.mode = Mode.PRESENTING
            screen._present(event, state, view)
            screen.mode = Mode.YOUR_TURN if view.my_turn else Mode.OTHERS_TURN
            await pilot.pause()
            marks.add((hand.has_class("to-act"), prompt.has_class("yours"),
                       bool(prompt.rich_style.reverse), hand.styles.border_top[0]))
        assert restyled == []
        assert {(True, True, True, "heavy"), (False, False, False, "round")} <= marks, marks


async def test_a_table_change_that_shows_nothing_new_redraws_no_chat_nor_keys(
        tmp_path, monkeypatch):
    """Before: every change of the table (at a session worker, a score
    among them) set the chat panel's text again, which laid out the whole
    screen, and told the footer to work out its keys again."""
    from tui_support import room_app, room_with_tables, wait_for

    from crib3.tui.screens.room_table import RoomTableScreen
    from crib3.tui.widgets.chat import ChatPanel

    room = room_with_tables(tmp_path)
    table = room.tables[1]
    app = room_app(room, "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen))
        await pilot.pause()
        chat: list[object] = []
        keys: list[object] = []
        real_update, real_keys = ChatPanel.update, RoomTableScreen.keys_may_have_changed
        monkeypatch.setattr(ChatPanel, "update",
                            lambda self, *a, **k: chat.append(a) or real_update(self, *a, **k))
        monkeypatch.setattr(RoomTableScreen, "keys_may_have_changed",
                            lambda self: keys.append(1) or real_keys(self))
        for _ in range(3):
            table._changed()  # as a move or a score tells the table's screens
            await pilot.pause()
        assert chat == [] and keys == []
        table.watch(room.people["dan"])  # something to show: shown
        await wait_for(pilot, lambda: "watching: Dan" in screen_text(app))
        assert len(chat) == 1


async def test_the_seats_of_a_table_draw_through_one_filter_of_each_kind():
    """Before: each session's app had its own line filters (Textual's ANSI
    to truecolor), so the lines its seats draw alike were filtered again
    at every seat, and each seat's results pushed the others' out of the
    filters' small caches."""
    from benchmarks.test_screen_update import CountingChannel, _settle

    from crib3.net.console import client_console
    from crib3.net.driver import ChannelDriver
    from crib3.tui.widgets.board import CribBoard

    many_terminals_in_one_process()
    game = finished_game()
    apps = [OneTable(game, seat) for seat in range(3)]
    channels = [CountingChannel() for _ in apps]
    tasks = []
    for app, channel, env in zip(apps, channels, ({}, {}, {"NO_COLOR": "1"})):
        client_console(app, "xterm-256color", env)
        app.driver_class = ChannelDriver.for_channel(channel)
        tasks.append(asyncio.get_running_loop().create_task(app.run_async(size=(80, 24))))
    try:
        for channel in channels:
            await _settle(channel)
        filters = [app.screen.query_one(CribBoard).get_line_filters() for app in apps]
        assert filters[0] and [type(f) for f in filters[0]] == [type(f) for f in filters[1]]
        assert all(a is b for a, b in zip(filters[0], filters[1]))
        assert len(filters[2]) == len(filters[0]) + 1  # NO_COLOR: colour dropped too
        assert filters[2][0] is filters[0][0]
        # What it made of a line is every seat's: each seat's widget has
        # strips of its own, of the same segments.
        from rich.segment import Segment
        from rich.style import Style
        from textual.color import Color
        from textual.strip import Strip

        line = [Segment("15 for 2", Style(color="red", bold=True)), Segment(" and a pair")]
        seen = [Strip(list(line)).apply_filter(filters[n][0], Color(18, 18, 18)) for n in (0, 1)]
        assert seen[0] is seen[1] and seen[0].text == "15 for 2 and a pair"
    finally:
        for app in apps:
            app.exit()
        await finished(asyncio.gather(*tasks), 60, "the apps' runs, after they were told to exit")


def test_a_strip_makes_its_caches_as_it_uses_them():
    """Before: every strip made seven small caches as it was made (about a
    kilobyte; a session holds thousands of strips), most never used. In the
    server a strip makes a cache when it first uses it, and still caches."""
    from rich.segment import Segment
    from textual.strip import Strip

    many_terminals_in_one_process()
    strip = Strip([Segment("fifteen two"), Segment(" and a pair")])
    assert strip._crop_cache is None and strip._style_cache is None
    first = strip.crop(2, 9)
    assert first.text == "fteen t" and strip.crop(2, 9) is first  # cached
    assert strip._style_cache is None  # only the cache used
    assert [s.text for s in strip.divide([7, 22])] == ["fifteen", " two and a pair"]
    assert strip.crop_extend(0, 25, None).cell_length == 25
    assert strip.adjust_cell_length(5).text == "fifte"


async def test_a_line_filtered_again_is_not_looked_up_by_its_segments(monkeypatch):
    """Before: a widget's lines went through the shared filter at every
    frame that repainted any line beside them, each time keyed anew by
    its segments (a hash of every style), though most were the very strips
    filtered the frame before. Now a strip keeps what a shared filter
    made of it, and a line the widget kept is found at once."""
    from rich.segment import Segment
    from rich.style import Style
    from textual.app import App
    from textual.color import Color
    from textual.strip import Strip
    from textual.widgets import Static

    many_terminals_in_one_process()
    app = App()
    async with app.run_test(size=(40, 5)):
        await app.mount(Static("x"))
        shared = app.query_one(Static).get_line_filters()
        assert shared
        line = Strip([Segment("fifteen two", Style(color="red", bold=True)),
                      Segment(" and a pair")])
        first = line.apply_filter(shared[0], Color(18, 18, 18))
        hashed = []
        real_hash = Style.__hash__

        def counted(style: Style) -> int:
            hashed.append(style)
            return real_hash(style)

        monkeypatch.setattr(Style, "__hash__", counted)
        again = line.apply_filter(shared[0], Color(18, 18, 18))
        monkeypatch.undo()
        assert again is first and again.text == "fifteen two and a pair"
        assert hashed == []  # found on the strip, not by its segments
        # Another strip of the same segments still finds the shared line.
        assert Strip(list(line)).apply_filter(shared[0], Color(18, 18, 18)) is first


def test_a_move_shown_at_once_is_drawn_in_the_mode_it_ends_in(monkeypatch):
    """Before: every move at a card-room table set each seat's screen to
    presenting, which drew its prompt and keys at once, then drew them
    again for the turn the move ended in: at the mover's screen the
    cleared prompt went out in a frame of its own, before the move's.
    Presenting that waits for nothing (think 0) is drawn no more; the
    table still shows presenting where it waits (a count said, Enter)."""
    from benchmarks.test_screen_update import measure_keys

    drawn: list[Mode] = []
    real = TableScreen.watch_mode

    def watch_mode(self: TableScreen) -> None:
        drawn.append(self.mode)
        real(self)

    monkeypatch.setattr(TableScreen, "watch_mode", watch_mode)
    found = asyncio.run(measure_keys(tables=1, keys=12))
    assert found["keys"] == 12
    assert {Mode.YOUR_TURN, Mode.OTHERS_TURN} <= set(drawn)
    assert Mode.PRESENTING not in drawn, drawn.count(Mode.PRESENTING)


def test_a_dialogs_backdrop_is_tinted_once_a_style(monkeypatch):
    """Before: the screen under a dialog (the show's summary, after every
    hand at every seat) was tinted segment by segment at every frame while
    the dialog was open, each a few colour conversions. A style is tinted
    once now; the segments are those Textual makes (its own code, written
    out here as the check)."""
    from rich.segment import Segment
    from rich.style import Style
    from textual.color import Color
    from textual.renderables.background_screen import BackgroundScreen

    many_terminals_in_one_process()
    tint = Color(0, 0, 0, 0.6)
    styles = [None, Style(bold=True), Style(color="#ff0000", bgcolor="#0000ff", italic=True),
              *[Style(color="#00ff00", bgcolor="#101010", meta={"offset": (x, 3)})
                for x in range(40)],
              Style(color="#00ff00", link="https://example.org")]
    line = [Segment(f"c{i}", style) for i, style in enumerate(styles)]
    line.insert(2, Segment("\x1b[0m", None, [(1,)]))  # a control segment passes as it is

    def tinted_colour(colour: object) -> object:
        return None if colour is None else (Color.from_rich_color(colour) + tint).rich_color

    def textuals(style: Style | None) -> Style:
        style = Style() if style is None else style.clear_meta_and_links()
        return style + Style.from_color(tinted_colour(style.color), tinted_colour(style.bgcolor))

    tinted = list(BackgroundScreen.process_segments(line, tint))
    assert [s.text for s in tinted] == [s.text for s in line]
    assert tinted[2] is line[2]
    for was, now in zip(line, tinted):
        if not was.control:
            assert now.style == textuals(was.style), (was, now)
    conversions: list[object] = []
    real = Color.from_rich_color.__func__  # type: ignore[attr-defined]  # (a classmethod's function)
    monkeypatch.setattr(Color, "from_rich_color",
                        classmethod(lambda cls, c: conversions.append(c) or real(cls, c)))
    again = list(BackgroundScreen.process_segments(line, tint))
    assert again == tinted
    assert conversions == []  # every style tinted before: none worked out again


async def test_a_seat_taken_redraws_the_lobbys_changed_cells_and_draws_them_as_anew(
        tmp_path, monkeypatch):
    """Before: any change to a lobby's list (a seat taken at one table,
    widening its column) drew every cell of every row again, in every
    lobby: most of the CPU of seating a busy room. Now the cells whose
    value and width are as they were are kept; the list looks exactly as
    one drawn afresh."""
    import functools

    from textual.widgets import DataTable
    from tui_support import wait_for

    from crib3.engine import Rules
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.screens.lobby import LobbyScreen

    room = Room(tmp_path / "tables", think=3600)
    owners = [room.sign_in(f"p{n}", None, lambda r: None) for n in range(6)]
    tables = [room.open_table(p, Rules(), ("easy", "standard")) for p in owners]
    guest = room.sign_in("Guestwithalongname", None, lambda r: None)
    dan = room.sign_in("Dan", None, lambda r: None)
    cells: list[tuple[int, int]] = []
    render_cell = DataTable._render_cell

    @functools.wraps(render_cell)
    def counted(table: DataTable, row: int, column: int, *args: object,
                **kwargs: object) -> object:
        cells.append((row, column))
        return render_cell(table, row, column, *args, **kwargs)

    monkeypatch.setattr(DataTable, "_render_cell", counted)

    def lines(grid: DataTable) -> list[list[tuple[str, object]]]:
        return [[(s.text, s.style) for s in grid.render_line(y)]
                for y in range(grid.size.height)]

    app = CardRoomApp(room, dan, think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        grid = app.screen.query_one(DataTable)
        await wait_for(pilot, lambda: grid.row_count == 6)
        await pilot.pause(0.1)
        width = [c.content_width for c in grid.columns.values()]
        cells.clear()
        tables[3].sit(guest)  # the seats' column widens: its six cells change width
        await wait_for(pilot, lambda: "Guestwithalongname" in str(grid.get_row_at(3)))
        await wait_for(pilot, lambda: len(cells) > 0)  # (drawn at the screen's next refresh)
        await pilot.pause(0.1)
        seats = [c.content_width for c in grid.columns.values()]
        assert seats[1] > width[1] and seats[0] == width[0], (width, seats)
        drawn_again = [cell for cell in cells if cell[0] >= 0]  # (the header is cheap)
        assert sorted(drawn_again) == [(row, 1) for row in range(6)], cells  # before: all 24
        drawn = lines(grid)
    fresh = CardRoomApp(room, dan, think=0.0)
    async with fresh.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(fresh.screen, LobbyScreen))
        grid = fresh.screen.query_one(DataTable)
        await wait_for(pilot, lambda: "Guestwithalongname" in str(grid.get_row_at(3)))
        await pilot.pause(0.1)
        assert lines(grid) == drawn
