"""SVG snapshots of every screen, at 80x24 and at 120x36, from fixed seeds;
the pegging, the show and the result at 120x40, 160x50 and 200x60 as well
(the table grows with the terminal).

Update on purpose, after looking at the new pictures:
`python -m pytest tests/test_tui_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest
from textual.app import App

from crib3.engine.state import Phase
from crib3.tui.app import Crib3App
from crib3.tui.screens.dialogs import CoachScreen, HelpScreen
from crib3.tui.screens.game_over import GameOverScreen
from crib3.tui.screens.new_game import NewGameScreen
from crib3.tui.words import IDLE
from games import random_game
from snapshot_support import screen_svg
from tui_support import make_app, press_enter_until, settled, wait_for

SIZES = [(80, 24), (120, 36)]
GROWN = [*SIZES, (120, 40), (160, 50), (200, 60)]


def at_discard(t) -> bool:
    return t.mode in IDLE and t.view.phase == Phase.DISCARD and t.view.my_turn


def at_play(t) -> bool:
    return t.mode in IDLE and t.view.phase == Phase.PLAY and t.view.my_turn and bool(t.view.pile)


def at_show(t) -> bool:
    return t.waiting_for_enter and t.shown.phase == Phase.SHOW


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_new_game_screen(svg_snapshot, size):
    async def setup(pilot):
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, NewGameScreen))

    assert await screen_svg(lambda: Crib3App(think=0.0), size, setup=setup) == svg_snapshot


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_cut_for_deal(svg_snapshot, size):
    async def setup(pilot):
        await settled(pilot)

    assert await screen_svg(lambda: make_app(seed=7), size, setup=setup) == svg_snapshot


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_discard(svg_snapshot, size):
    async def setup(pilot):
        await press_enter_until(pilot, at_discard)

    assert await screen_svg(lambda: make_app(seed=7), size, setup=setup) == svg_snapshot


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_coach_on_the_discard(svg_snapshot, size):
    async def setup(pilot):
        await press_enter_until(pilot, at_discard)
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, CoachScreen))

    assert await screen_svg(lambda: make_app(seed=7), size, setup=setup) == svg_snapshot


@pytest.mark.parametrize("size", GROWN, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_pegging(svg_snapshot, size):
    async def setup(pilot):
        await press_enter_until(pilot, at_play)

    assert await screen_svg(lambda: make_app(seed=7), size, setup=setup) == svg_snapshot


@pytest.mark.parametrize("size", GROWN, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_show(svg_snapshot, size):
    async def setup(pilot):
        await press_enter_until(pilot, at_show)

    assert await screen_svg(lambda: make_app(seed=7), size, setup=setup) == svg_snapshot


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_help(svg_snapshot, size):
    async def setup(pilot):
        await settled(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))

    assert await screen_svg(lambda: make_app(seed=7), size, setup=setup) == svg_snapshot


class ResultApp(App[None]):
    """Only the result screen, for a finished game."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.state = random_game(seed, ("human", "standard", "expert")).state

    def on_mount(self) -> None:
        self.push_screen(GameOverScreen(self.state))


@pytest.mark.parametrize("size", GROWN, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_game_over(svg_snapshot, size):
    assert await screen_svg(lambda: ResultApp(4), size) == svg_snapshot
