"""The table's parts apart from the screens: its words (pure functions, no
Textual), the seat placement, the phases as a `StrEnum`, and a table screen
that follows its game only while it is shown."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from logfiles import SAMPLES

from crib3.engine import Game, PlayerInfo, Rules, project
from crib3.engine import events as ev
from crib3.engine.log import load_log
from crib3.engine.state import Phase
from crib3.players import make_player
from crib3.tui.widgets.table_view import opponents
from crib3.tui.words import Mode, announcement, points, prompt, seat_line

PLAYERS = [PlayerInfo("Ann", "human"), PlayerInfo("[bold]Bea[/]", "easy"),
           PlayerInfo("Cal", "easy")]


def played_to(game: Game, phase: str, limit: int = 500) -> Game:
    """Play first legal moves until the game reaches `phase`."""
    for _ in range(limit):
        if game.state.phase == phase:
            return game
        seat = game.to_act()[0]
        game.dispatch(game.legal_moves(seat)[0])
    raise AssertionError(f"never reached {phase}")


def test_each_seat_sees_the_one_on_its_left_at_the_upper_left():
    assert [opponents(me) for me in range(3)] == [(1, 2), (2, 0), (0, 1)]


def test_the_phases_are_the_strings_they_always_were():
    assert issubclass(Phase, str) and Phase.PLAY == "play" and f"{Phase.SHOW}" == "show"
    assert json.dumps({"phase": Phase.CUT_STARTER}) == '{"phase": "cut_starter"}'
    assert {"play": 1}[Phase.PLAY] == 1                    # hashes as its string


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_saved_games_still_fold_to_a_phase(path):
    state = load_log(path).state
    assert isinstance(state.phase, Phase) and state.phase == Phase.OVER


def test_the_words_of_a_play_and_a_go_name_the_seat_literally():
    game = played_to(Game.new(PLAYERS, Rules(), seed=5), Phase.PLAY)
    view = project(game.state, 0)
    played = ev.CardPlayed(seat=1, card=view.hand[0], count=15, points=2, items=(),
                           scores=view.scores)
    said = announcement(played, game.state, view)
    assert said is not None and said.startswith("[bold]Bea[/]: 15")
    assert announcement(ev.GoSaid(seat=2, count=28), game.state, view) == "Cal: go"
    assert announcement(ev.CountReset(leader=1), game.state, view) is None


def test_the_bottom_line_is_the_viewing_seats_own():
    game = played_to(Game.new(PLAYERS, Rules(), seed=5), Phase.DISCARD)
    for seat in range(3):
        view = project(game.state, seat)
        line = seat_line(view).plain
        assert line.startswith(PLAYERS[seat].name) and points(view.scores[seat]) in line
        assert ("your deal and crib" in line) == (view.dealer == seat)
    assert seat_line(project(game.state, None)).plain == ""   # a spectator has no seat


def test_one_point_is_one_pt_not_one_pts():
    game = played_to(Game.new(PLAYERS, Rules(), seed=5), Phase.DISCARD)
    view = project(game.state, 0)._replace(scores=(1, 0, 12))
    assert seat_line(view).plain.startswith("Ann  1 pt ") or seat_line(view).plain.endswith("1 pt")
    assert "1 pts" not in seat_line(view).plain
    assert [points(n) for n in (0, 1, 2, 121)] == ["0 pts", "1 pt", "2 pts", "121 pts"]


def test_the_prompt_follows_the_mode():
    game = played_to(Game.new(PLAYERS, Rules(), seed=5), Phase.DISCARD)
    view = project(game.state, 0)
    assert prompt(Mode.YOUR_TURN, Phase.DISCARD, view).startswith("Throw one card to")
    assert prompt(Mode.PRESENTING, Phase.DISCARD, view) == ""
    assert prompt(Mode.OTHERS_TURN, Phase.DISCARD, view) == ""
    assert prompt(Mode.WAITING_FOR_ENTER, Phase.DISCARD, view) == "Enter: go on"
    assert prompt(Mode.COUNTING, Phase.SHOW, view) == \
        "Enter: go on   s: skip the rest of the show"
    assert prompt(Mode.WAITING_FOR_ENTER, Phase.OVER, view) == "Enter: the result"


async def test_a_table_follows_its_game_only_while_shown():
    """Built but never shown, a table screen does not hear the game (it
    subscribes on mount); taken off the screen, it stops hearing it."""
    from textual.app import App
    from tui_support import wait_for

    from crib3.tui.screens.table import TableScreen
    from crib3.tui.words import IDLE

    game = Game.new(PLAYERS, Rules(), seed=5)
    never_shown = TableScreen(game, 0)
    played_to(game, Phase.DISCARD)
    assert not never_shown.pending

    bots = {1: make_player("easy", random.Random(1)), 2: make_player("easy", random.Random(2))}
    from crib3.players.autoplay import BotDriver

    screen = TableScreen(game, 0, BotDriver(game, bots), think=0.0, resumed=True)
    app = App()
    async with app.run_test(size=(80, 24)) as pilot:
        await app.push_screen(screen)
        await wait_for(pilot, lambda: screen.mode in IDLE)
        assert screen.mode == Mode.YOUR_TURN and screen.view.phase == Phase.DISCARD
        await app.pop_screen()
        await pilot.pause()
        game.dispatch(game.legal_moves(0)[0])
        assert not screen.pending


def test_the_stylesheet_is_shipped_with_the_package():
    """A non-editable install has it only if pyproject names it."""
    import tomllib

    from crib3.tui.css import STYLESHEET

    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    shipped = project["tool"]["setuptools"]["package-data"]["crib3.tui"]
    assert STYLESHEET.is_file() and STYLESHEET.name in shipped
