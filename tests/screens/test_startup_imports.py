"""The first screen comes up without what it does not show (issue 12, point
18): the dialogs' module brings the engine and the coach's tables, and it
was imported on the first resize, before the first frame."""

from __future__ import annotations

import subprocess
import sys

# What is loaded is read when the first screen is up, or when the warm-up
# (which loads the table's modules on purpose, half a second after the
# screen is up) starts, whichever comes first: on a loaded machine the
# warm-up could start before the loop below saw the screen.
FIRST_SCREEN = '''
import asyncio, sys
import crib3.tui.app as app_module
from crib3.tui.app import Crib3App

WATCHED = ("crib3.tui.screens.dialogs", "crib3.players.coach")
loaded_first = []
warm_up = app_module._warm_up

def watched_warm_up():
    loaded_first.append([m for m in WATCHED if m in sys.modules])
    warm_up()

app_module._warm_up = watched_warm_up

async def main():
    app = Crib3App()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):  # pushed once the app's start is done
            await pilot.pause()
            if type(app.screen).__name__ == "NewGameScreen":
                break
        assert type(app.screen).__name__ == "NewGameScreen", app.screen
        loaded = loaded_first[0] if loaded_first else [m for m in WATCHED if m in sys.modules]
        print(" ".join(loaded))

asyncio.run(main())
'''


def test_the_new_game_screen_comes_up_without_the_dialogs_and_the_coach(tmp_path):
    env = {"CRIB3_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
    done = subprocess.run([sys.executable, "-c", FIRST_SCREEN], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "", f"imported before they were needed: {done.stdout}"


async def test_the_new_game_screen_starts_with_no_widget_it_does_not_show(crib3_home):
    """Each widget on the first screen costs about half a millisecond to
    start (issue 12, point 18): the title and the name's label are one, and
    the offer to resume is mounted only when there is a game to resume."""
    from tui_support import wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen

    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        form = app.screen.query_one("Vertical")
        assert not app.screen.query("#unfinished")
        assert len(form.children) == 13, [w.id or type(w).__name__ for w in form.children]
        assert "crib3 · three-handed cribbage" in str(app.screen.query_one("#title").render())


async def test_the_new_game_screen_is_the_first_screen_and_a_new_game_gets_a_fresh_one(crib3_home):
    """No empty screen under the first one (it was styled and laid out for
    nothing); starting from it works, and "New game" later opens a new one
    over it, not the first one again with what was typed then."""
    from tui_support import wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen
    from crib3.tui.screens.table import TableScreen

    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        first = app.screen
        assert app.screen_stack == [first]
        await pilot.press(*"Ann", "enter")  # the name is selected: typing replaces it
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        app._restart()
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen)
                       and app.screen is not first and bool(app.screen.query("#name")))
        assert app.game is None
        assert app.screen.query_one("#name").value == "Ann"  # as saved


RETURNING_PLAYER = '''
import asyncio, sys
from crib3.tui.app import Crib3App

async def main():
    app = Crib3App()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(100):
            await pilot.pause()
            if type(app.screen).__name__ == "NewGameScreen":
                break
        assert app.screen.query_one("#name").value == "Ann", app.screen
        print(" ".join(m for m in ("regex", "crib3.common.lookalikes") if m in sys.modules))

asyncio.run(main())
'''


def test_a_returning_players_first_screen_loads_no_unicode_tables(tmp_path):
    """The name in the settings is checked as a typed one is, at every
    start: a plain one without regex and the scripts' patterns."""
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "settings.json").write_text('{"name": "Ann", "left": "expert"}')
    env = {"CRIB3_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
    done = subprocess.run([sys.executable, "-c", RETURNING_PLAYER], capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "", f"loaded for a plain name: {done.stdout}"


def test_a_plain_ascii_name_is_taken_as_the_full_rules_take_it():
    from crib3.common import names

    rule = f"a name is 1 to {names.MAX_LENGTH} printable characters"
    plain = [chr(c) for c in range(0x21, 0x7F)]
    plain += ["Ann", "  Bo b  ", "[b]Bea[/]", "x" * names.MAX_LENGTH, "O'Neil-Smith, Jr.", "~~"]
    for name in plain:
        assert names.check_name(name) == names._checked(name.strip(), rule), name
