"""Replay: stepping forwards and back draws the same screens; jumps and autoplay."""

from __future__ import annotations

import re

import pytest
import textual._wait as textual_wait
from logfiles import ASSETS
from tui_support import screen_text, wait_for

from crib3.engine.log import load_log
from crib3.saved.replay import Replay
from crib3.tui.app import Crib3App
from crib3.tui.screens.replay import ReplayScreen

SAMPLE = ASSETS / "short-61.jsonl"


@pytest.fixture
def replay() -> Replay:
    return Replay(load_log(SAMPLE).events)


def test_hands_and_boundaries(replay):
    assert replay.hand_of(0) == 0
    first = replay.hand_starts[1]
    assert replay.events[first].type == "DeckShuffled" and replay.hand_of(first) == 1
    assert replay.next_hand(0) == first
    assert replay.previous_hand(first + 5) == first
    assert replay.previous_hand(first) == 0
    assert replay.states[-1].winner is not None


@pytest.mark.slow
async def test_forwards_and_back_draw_the_same_screens(replay, monkeypatch):
    # 310 key presses: Pilot waits for the app to go idle after each, looking
    # every 20 ms, which was most of this test's 20 s. It looks every 4 ms
    # here (the same test of idleness: under a twentieth of the time busy),
    # and each screen is read only once its status line names its event.
    monkeypatch.setattr(textual_wait, "SLEEP_GRANULARITY", 1 / 250)
    monkeypatch.setattr(textual_wait, "SLEEP_IDLE", 1 / 250 / 20)
    app = Crib3App(replay=replay, autosave=False)

    def at(index: int) -> bool:
        return f"event {index + 1}/" in screen_text(app)

    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.pause()
        forwards = {}
        for _ in range(len(replay) - 1):
            forwards[app.screen.index] = screen_text(app)
            await pilot.press("right")
            await wait_for(pilot, lambda: at(app.screen.index))
        forwards[app.screen.index] = screen_text(app)
        assert app.screen.index == len(replay) - 1
        await wait_for(pilot, lambda: "wins" in screen_text(app))
        for _ in range(len(replay) - 1):
            await pilot.press("left")
            await wait_for(pilot, lambda: at(app.screen.index))
            assert screen_text(app) == forwards[app.screen.index]
        assert app.screen.index == 0


async def test_jumps_land_on_the_right_hand(replay):
    app = Crib3App(replay=replay, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        await pilot.press("right_square_bracket", "right_square_bracket")
        assert screen.index == replay.hand_starts[2]
        await wait_for(pilot, lambda: "hand 2 of" in screen_text(app))
        await pilot.press("left_square_bracket")
        assert screen.index == replay.hand_starts[1]
        await pilot.press("end")
        assert screen.index == len(replay) - 1
        await pilot.press("home")
        assert screen.index == 0
        await pilot.press("g")
        await pilot.press(*"25", "enter")
        await wait_for(pilot, lambda: app.screen is screen)
        assert screen.index == 24 and "event 25/" in screen_text(app)


async def test_views_hide_what_that_seat_could_not_see(replay):
    app = Crib3App(replay=replay, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        play = next(i for i, e in enumerate(replay.events) if e.type == "CardPlayed")
        screen.show(play)
        await pilot.pause()
        hidden = replay.states[play].hands[1]
        assert all(c.label() in screen_text(app) for c in hidden)      # all face up
        await pilot.press("v", "v")                                    # seat 0's view... seat 1's
        await pilot.press("v")                                         # seat 2's view
        await pilot.pause()
        await wait_for(pilot, lambda: "P2's view" in screen_text(app))
        line = screen_text(app).splitlines()[1]
        assert not any(c.label() in line for c in hidden)              # seat 1's cards hidden


async def test_autoplay_stops_at_the_end(replay):
    app = Crib3App(replay=replay, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        screen.show(len(replay) - 4)
        for _ in range(4):
            await pilot.press("plus")
        await pilot.press("space")
        assert screen.autoplaying
        await wait_for(pilot, lambda: not screen.autoplaying, timeout=10)
        assert screen.index == len(replay) - 1


async def test_each_seats_view_is_what_that_seat_saw(replay):
    """Replay from each seat: that seat at the bottom with its own cards in
    its hand, the two others above in the order they sit to its left, and
    not one card it could not see (the others' hands, the crib) anywhere on
    the screen."""
    from crib3.engine.rules import left_of
    from crib3.engine.state import Phase
    from crib3.tui.widgets.table_view import TableView

    during = [i for i, s in enumerate(replay.states)
              if s.phase in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY)]
    sample = during[:: max(1, len(during) // 12)]
    app = Crib3App(replay=replay, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        screen = app.screen
        table = screen.query_one(TableView)
        await pilot.press("v")                                         # seat 0's view
        for seat in range(3):
            await wait_for(pilot, lambda seat=seat: f"P{seat}'s view" in screen_text(app))
            for index in sample:
                screen.show(index)
                await pilot.pause()
                state = replay.states[index]
                text = screen_text(app)
                mine = state.hands[seat] or state.kept[seat]  # all played: the four kept
                assert set(table.hand.cards()) == set(mine)
                assert all(c.label() in text for c in mine), (seat, index)
                # The seat's line: the top edge of its box at the bottom.
                assert any(re.match(rf"[╭┏+][─━-] P{seat}  \d+ pts?", line)
                           for line in text.splitlines()), (seat, index)
                top = text.splitlines()[0]
                left, right = left_of(seat), left_of(left_of(seat))
                assert top.index(f"P{left}") < top.index(f"P{right}"), (seat, index)
                mine_thrown = {state.discards[seat]}
                hidden = {c for s in range(3) if s != seat for c in state.hands[s]} | \
                    (set(state.crib) - mine_thrown)
                assert not [c for c in hidden if c.label() in text], (seat, index)
            await pilot.press("v")                                     # the next seat


async def test_q_says_what_it_does_quit_alone_back_over_another_screen(replay):
    """A replay opened on its own offers q Quit (and quits); one opened
    from another screen (My games, the result screen) offers q Close, and
    q takes the person back to that screen, not out of the game."""
    app = Crib3App(replay=replay, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        alone = app.screen
        footer = screen_text(app).splitlines()[-1]
        assert "q Quit" in footer and "Close" not in footer, footer
        over = ReplayScreen(replay, leave_back=True)
        app.push_screen(over)
        await wait_for(pilot, lambda: app.screen is over)
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        assert "q Close" in footer and "Quit" not in footer, footer
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen is alone)
        assert app.is_running
        await pilot.press("q")
        await wait_for(pilot, lambda: not app.is_running)
