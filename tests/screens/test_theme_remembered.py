"""The theme chosen is remembered like the new-game screen's choices: the
next start opens in it (and a theme no longer there is let go)."""

from __future__ import annotations

import json

from crib3.tui.app import Crib3App
from crib3.tui.settings import load_choices, settings_path


async def test_a_theme_chosen_is_the_next_starts(crib3_home):
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert not settings_path().exists()  # a start alone writes nothing
        app.theme = "textual-light"
        await pilot.pause()
    assert load_choices().theme == "textual-light"
    again = Crib3App(think=0.0)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert again.theme == "textual-light"


async def test_a_theme_that_is_no_longer_one_is_let_go(crib3_home):
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(json.dumps({"theme": "no-such-theme"}))
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert app.theme != "no-such-theme"
