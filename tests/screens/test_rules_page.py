"""Issue 32, point 12: "How to play", the three-handed rules in plain words
for someone who knows the two-handed game, reached from the new-game screen
and from the help, at 80x24; and the page says what crib3 does (rules.md)."""

from __future__ import annotations

import re

from tui_support import assert_7bit, make_app, screen_text, settled, wait_for

from crib3.tui.app import Crib3App
from crib3.tui.screens.dialogs import HelpScreen
from crib3.tui.screens.new_game import NewGameScreen
from crib3.tui.screens.rules import RULES_TEXT, RulesScreen


async def _read_the_whole_page(pilot) -> str:
    """Every line of the page, scrolled through from the top with PgDn."""
    app = pilot.app
    seen: list[str] = []
    for _ in range(30):
        for line in screen_text(app).splitlines():
            if line not in seen:
                seen.append(line)
        page = app.screen.query_one("#rules")
        if page.scroll_y >= page.max_scroll_y:
            break
        await pilot.press("pagedown")
        await pilot.pause()
    return "\n".join(seen)


async def test_the_new_game_screen_opens_how_to_play_and_esc_comes_back(crib3_home):
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        assert "How to play" in screen_text(app)  # the footer offers it
        await pilot.press("ctrl+g")  # in the name field, which is focused
        await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen))
        first = screen_text(app)
        assert "How to play: three-handed cribbage" in first
        assert "If you know the two-handed game" in first
        whole = await _read_the_whole_page(pilot)
        for heading in ("Who deals first", "The deal and the crib", "The starter", "The play",
                        "The show", "Winning", "The optional rules"):
            assert heading in whole, heading
        assert "is skunked; there is no double skunk." in whole  # the last line, reached
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen))


async def test_the_help_at_the_table_opens_how_to_play(crib3_home):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "r: how to play" in screen_text(app)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen))
        assert "The player left of the dealer" in await _read_the_whole_page(pilot)
        await pilot.press("r")  # already here: nothing more opens
        await pilot.pause()
        assert sum(isinstance(s, RulesScreen) for s in app.screen_stack) == 1
        await pilot.press("escape")  # back to the help, then to the table
        await wait_for(pilot, lambda: type(app.screen) is HelpScreen)
        await pilot.press("escape")
        await settled(pilot)


async def test_the_palette_offers_how_to_play(crib3_home):
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        titles = [c.title for c in app.get_system_commands(app.screen)]
    assert "How to play" in titles


def _said() -> str:
    return re.sub(r"\s+", " ", RULES_TEXT)


def test_the_page_says_what_crib3_does():
    """Each settled rule a two-handed player could get wrong, as rules.md
    has it (R1-R8): the page is held to the engine's rules."""
    said = _said()
    for rule in [
        "the lowest deals (ace is low, suits do not count)",  # R1.1
        "only those players cut again",  # R1.2
        "Five cards each, one at a time, starting left of the dealer, then one card face down "
        "to the crib",  # R2.2
        "Everyone throws one card to the crib at the same time",  # R3.1
        "the player left of the dealer cuts",  # R4.1
        "A jack is 2 for the dealer at once (his heels), and that can win",  # R4.2
        "the last player to have played keeps playing alone while they can",  # R5.3
        "The count ends only when nobody can play",  # R5.3
        "Exactly 31 scores 2, and nothing more for the go",  # R5.4
        "led by the first player to the left of the one who played last who still has cards",
        "The very last card of the play scores 1 (nothing more if it made 31)",  # R5.4
        "Q K A is no run",  # R5.6
        "the player left of the dealer, the next player, the dealer, then the dealer's crib",
        "the crib scores only a five-card flush",  # R6.2
        "a starter jack is never nobs",  # R6.3
        "hands not yet counted are not counted",  # R7.1
        "a loser below 91 is skunked (the loss counts double), below 61 double-skunked",  # R8.1
        "the opponent on your left may call muggins",  # R8.2
        "to 61 instead of 121. With skunks on, a loser below 31 is skunked",  # R8.3
    ]:
        assert rule in said, rule


async def test_the_page_in_ascii_mode_is_7bit(crib3_home):
    app = Crib3App(think=0.0, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("ctrl+g")
        await wait_for(pilot, lambda: isinstance(app.screen, RulesScreen))
        rows = await assert_7bit(pilot, "how to play")
        assert any("Up/Down PgUp/PgDn: scroll" in row for row in rows)
