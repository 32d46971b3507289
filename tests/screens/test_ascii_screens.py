"""ASCII mode draws nothing above 127, on every screen a person can reach.

A terminal that is not UTF-8 shows "╭" or "⏎" as garbage, so in ASCII mode
the whole screen (borders, footer keys, board, cards, dialogs, the result
chart) must be 7-bit. Each screen is checked as exported, which is what the
terminal is sent, and the app's ASCII filter must not have met a character
the screens draw that it has no twin for (that would show as "?").
"""

from __future__ import annotations

import pytest
from logfiles import ASSETS
from tui_support import assert_7bit, drawn, table, wait_for

from crib3.engine import Rules
from crib3.engine.log import load_log
from crib3.engine.state import Phase
from crib3.room import Room
from crib3.saved.replay import Replay
from crib3.tui.app import Crib3App
from crib3.tui.ascii import to_ascii
from crib3.tui.room_app import CardRoomApp
from crib3.tui.screens.dialogs import AskCount, AskMuggins, CoachScreen, ConfirmQuit, HelpScreen
from crib3.tui.screens.game_over import GameOverScreen
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.looking_back import ShowSummaryScreen
from crib3.tui.screens.new_game import NewGameScreen
from crib3.tui.screens.open_table import OpenTableScreen
from crib3.tui.screens.replay import GoTo, ReplayScreen
from crib3.tui.screens.room_table import RoomTableScreen
from crib3.tui.screens.stats import StatsScreen
from crib3.tui.screens.table import TableScreen
from crib3.tui.screens.waiting import WaitingScreen
from crib3.tui.words import IDLE

SIZE = (80, 24)


@pytest.mark.slow
async def test_a_whole_game_in_ascii_mode_is_7bit(crib3_home):
    """New game, the cut, discard, coach, play, show, own count (muggins),
    help, the feed, the quit dialog, the result, statistics: all 7-bit."""
    app = Crib3App(ascii=True, think=0.0)
    seen: set[tuple[object, ...]] = set()

    async def once(key: tuple[object, ...], where: str) -> None:
        if key not in seen:
            seen.add(key)
            await assert_7bit(pilot, where)

    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        rows = await assert_7bit(pilot, "new game")
        assert any("Enter" in row for row in rows[-1:])      # the footer names its keys
        await pilot.press("down", "down", "down", "down", "right")  # muggins on
        await pilot.press("down", "right")                     # the short game
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert table(app).game.state.rules.muggins and table(app).game.state.rules.target == 61
        for _ in range(3000):
            await wait_for(pilot, lambda: not isinstance(app.screen, TableScreen)
                           or app.screen.mode in IDLE or app.screen.waiting_for_enter)
            screen = app.screen
            if isinstance(screen, GameOverScreen):
                break
            if isinstance(screen, AskCount):
                await once(("count",), "your count")
                # always a legal claim (2 is not when the hand makes 1)
                await pilot.press("0", "enter")
                continue
            if isinstance(screen, AskMuggins):
                await once(("muggins",), "muggins")
                await pilot.press("n")
                continue
            if isinstance(screen, ShowSummaryScreen):
                await once(("show at a glance",), "the show at a glance")
                await pilot.press("enter")
                continue
            if not isinstance(screen, TableScreen):
                await pilot.pause(0.01)
                continue
            phase = screen.shown.phase
            await once((phase, screen.waiting_for_enter), f"the table, {phase}")
            if screen.mode in IDLE and screen.view.my_turn \
                    and phase in (Phase.DISCARD, Phase.PLAY) and ("coach", phase) not in seen:
                assert any("or Left/Right and Enter" in row for row in drawn(app))  # not "</>"
                await pilot.press("h")
                await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
                await once(("coach", phase), f"the coach, {phase}")
                await pilot.press("escape")
            if phase == Phase.PLAY and ("help",) not in seen:
                await pilot.press("question_mark")
                await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
                await once(("help",), "help")
                await pilot.press("escape")
                await pilot.press("q")
                await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit))
                await once(("quit",), "the quit dialog")
                await pilot.press("n")
                await pilot.press("f")
                await once(("feed",), "the feed")
                await pilot.press("f")
            await pilot.press("enter")
        else:
            raise AssertionError("the game did not end")
        assert {("coach", Phase.DISCARD), ("coach", Phase.PLAY), ("help",), ("quit",),
                ("count",), (Phase.SHOW, True), ("show at a glance",)} <= seen
        rows = await assert_7bit(pilot, "the result")
        chart = [row for row in rows if row.strip("| ").startswith(("You", "Bea", "Cal"))][-3:]
        assert all(any(bar in row for bar in "_.:-=+*#") for row in chart), rows  # not blank
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
        await wait_for(pilot, lambda: "counting" not in "".join(drawn(app)))
        await assert_7bit(pilot, "statistics")


async def test_replay_in_ascii_mode_is_7bit(crib3_home):
    sample = ASSETS / "short-61.jsonl"
    replay = Replay(load_log(sample).events)
    app = Crib3App(ascii=True, replay=replay, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await assert_7bit(pilot, "replay, the start")
        for keys in (["right_square_bracket"] * 2, ["right"] * 12, ["v"], ["end"]):
            await pilot.press(*keys)
            await assert_7bit(pilot, f"replay after {keys}")
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, GoTo))
        await assert_7bit(pilot, "replay, go to")


async def test_the_card_room_in_ascii_mode_is_7bit(tmp_path):
    room = Room(tmp_path / "tables", think=0.0)
    cat = room.sign_in("Cat", None, lambda r: None)
    room.sign_in("Dan", None, lambda r: None)
    room.open_table(cat, Rules(skunks=True), ("easy", "standard"))
    app = CardRoomApp(room, room.people["dan"], ascii=True, think=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await assert_7bit(pilot, "the lobby")
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenTableScreen))
        await assert_7bit(pilot, "opening a table")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("enter")                             # Cat's table
        await wait_for(pilot, lambda: isinstance(app.screen, WaitingScreen))
        await assert_7bit(pilot, "waiting for the owner")
        room.tables[1].start("Cat")
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen))
        await wait_for(pilot, lambda: table(app).mode in IDLE or table(app).waiting_for_enter)
        await assert_7bit(pilot, "the card room's table")


async def test_too_small_a_terminal_says_so_in_ascii(crib3_home):
    app = Crib3App(ascii=True, think=0.0)
    async with app.run_test(size=(60, 20)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        rows = await assert_7bit(pilot, "too small")
        assert any("needs 80x24" in row for row in rows)


def test_what_the_filter_does_not_know_still_comes_out_7bit_cell_for_cell():
    from rich.cells import cell_len

    for text in ("Zoë", "Łukasz", "王小明", "🂡 ok", "a\u0301"):
        out = to_ascii(text, set())
        assert out.isascii() and cell_len(out) == cell_len(text), (text, out)
    assert to_ascii("Zoë") == "Zoe"
    unknown: set[str] = set()
    assert to_ascii("Hand 1 · Ann deals — ♥ ▶", unknown) == "Hand 1 - Ann deals - H >"
    assert not unknown
