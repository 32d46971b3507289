"""The two crib3 apps are siblings on one base: the local game and a card
room's session each have their own commands, and neither is the other with
parts switched off. What they share (the too-small notice) is the base's."""

from __future__ import annotations

import pytest
from tui_support import wait_for

from crib3.room import Room
from crib3.tui.app import Crib3App
from crib3.tui.base_app import BaseApp
from crib3.tui.room_app import CardRoomApp
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.new_game import NewGameScreen


def titles(app) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


async def test_the_local_app_offers_its_own_commands_and_textuals(crib3_home):
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        shown = titles(app)
    assert shown[:3] == ["New game", "Help", "Statistics"]
    assert "Screenshot" in shown and "Lobby" not in shown


async def test_the_card_room_app_is_a_sibling_not_a_local_app_switched_off(tmp_path):
    room = Room(tmp_path / "tables", think=0.0)
    app = CardRoomApp(room, room.sign_in("Ann", None, lambda reason: None))
    assert isinstance(app, BaseApp) and not isinstance(app, Crib3App)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        shown = titles(app)
    assert shown[:2] == ["Lobby", "Help"]
    assert "Statistics" not in shown and "New game" not in shown
    assert "Screenshot" not in shown  # it would write a file on the server
    assert not hasattr(app, "action_stats")  # no saved games at a card room


async def test_an_error_while_looking_for_the_too_small_notice_is_not_hidden(crib3_home):
    """Only "no notice yet" means mount one; any other error is a bug that
    ends the app in one line (`crash`), not a second notice."""
    app = Crib3App(think=0.0)
    with pytest.raises(RuntimeError, match="a bug"):
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
            screen = app.screen
            real = screen.query_one

            def query_one(selector, *args, **kwargs):
                if selector == "#too-small":
                    raise RuntimeError("a bug while looking for the notice")
                return real(selector, *args, **kwargs)

            screen.query_one = query_one
            await pilot.resize_terminal(60, 20)
            await pilot.pause()
    assert isinstance(app.crash, RuntimeError)


@pytest.mark.parametrize("size", [(30, 8), (50, 30), (79, 24)])
async def test_the_too_small_notice_is_all_there_is_on_the_screen(crib3_home, size):
    """Behind the notice the screen's own content overflows a small
    terminal, and its scrollbars were drawn at the notice's right edge
    (seen in tmux at 30x8: two bars, "▃▃" and "▅▅")."""
    from tui_support import screen_text

    app = Crib3App(think=0.0)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.pause()
        words = screen_text(app).split()
        assert "Make" in words, screen_text(app)
        notice = f"crib3 needs 80×24; this terminal is {size[0]}×{size[1]}. Make it larger."
        assert " ".join(words) == notice, screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert "Your name" in screen_text(app)
