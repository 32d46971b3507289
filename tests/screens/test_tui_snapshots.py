"""SVG snapshots of every screen, at 80x24 and at 120x36, from fixed seeds;
the pegging, the show and the result at 120x40, 160x50 and 200x60 as well
(the table grows with the terminal), and a count of three cards or more at
200x60 (its labels and the count in large digits).

Update on purpose, after looking at the new pictures:
`python -m pytest tests/screens/test_tui_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest
from games import random_game
from snapshot_support import at_sizes, screen_svg
from textual.app import App
from tui_support import make_app, press_enter_until, settled, wait_for

from crib3.engine.state import Phase
from crib3.tui.app import Crib3App
from crib3.tui.screens.dialogs import CoachScreen, HelpScreen
from crib3.tui.screens.game_over import GameOverScreen
from crib3.tui.screens.new_game import NewGameScreen
from crib3.tui.screens.table import TableScreen
from crib3.tui.words import IDLE

SIZES = [(80, 24), (120, 36)]
GROWN = [*SIZES, (120, 40), (160, 50), (200, 60)]


def at_discard(t) -> bool:
    return t.mode in IDLE and t.view.phase == Phase.DISCARD and t.view.my_turn


def at_play(t) -> bool:
    return t.mode in IDLE and t.view.phase == Phase.PLAY and t.view.my_turn and bool(t.view.pile)


def at_show(t) -> bool:
    return t.waiting_for_enter and t.shown.phase == Phase.SHOW


class ResultApp(App[None]):
    """Only the result screen, for a finished game."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.state = random_game(seed, ("human", "standard", "expert")).state

    def on_mount(self) -> None:
        self.push_screen(GameOverScreen(self.state))


# The apps: the new-game screen, Ann's game at seed 7, the result of a game.

def new_game() -> Crib3App:
    return Crib3App(think=0.0)


def game() -> Crib3App:
    return make_app(seed=7)


def result() -> App[None]:
    return ResultApp(4)


# How each screen is reached from its app's first screen.

async def the_new_game_screen(pilot) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, NewGameScreen))


async def the_cut_for_deal(pilot) -> None:
    await settled(pilot)


async def the_discard(pilot) -> None:
    await press_enter_until(pilot, at_discard)


async def the_coach_on_the_discard(pilot) -> None:
    await press_enter_until(pilot, at_discard)
    await pilot.press("h")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, CoachScreen))


async def the_pegging(pilot) -> None:
    await press_enter_until(pilot, at_play)


async def a_longer_count(pilot) -> None:
    # In the second hand: Ann cuts the starter, at a depth the table picks
    # at random; the same one in every run.
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, TableScreen))
    pilot.app.screen.rng.seed(7)
    await press_enter_until(pilot, lambda t: at_play(t) and len(t.view.pile) >= 3)


async def the_show(pilot) -> None:
    await press_enter_until(pilot, at_show)


async def the_help(pilot) -> None:
    await settled(pilot)
    await pilot.press("question_mark")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, HelpScreen))


@pytest.mark.parametrize("app, setup, size", [
    *at_sizes("new-game-screen", SIZES, new_game, the_new_game_screen),
    *at_sizes("cut-for-deal", SIZES, game, the_cut_for_deal),
    *at_sizes("discard", SIZES, game, the_discard),
    *at_sizes("coach-on-the-discard", SIZES, game, the_coach_on_the_discard),
    *at_sizes("pegging", GROWN, game, the_pegging),
    *at_sizes("show", GROWN, game, the_show),
    *at_sizes("a-longer-count", [(200, 60)], game, a_longer_count),
    *at_sizes("help", SIZES, game, the_help),
    *at_sizes("game-over", GROWN, result, None),
])
async def test_screen(svg_snapshot, app, setup, size):
    assert await screen_svg(app, size, setup=setup) == svg_snapshot
