"""Names are shown literally, never as markup or terminal codes:
what a name may be at the edges where a person
types one, and every name from a file shown safely in the game, the replay,
the result and the commands that print games."""

from __future__ import annotations

import random
import shlex
import time
import unicodedata

import pytest
from commands import POLL, Tmux, crib3, needs_tmux
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from tui_support import screen_text, settled, wait_for

from crib3.common.lookalikes import printable
from crib3.common.names import MAX_LENGTH, check_name, shown_name
from crib3.engine import Game, PlayerInfo, Rules
from crib3.engine.log import load_log, make_header, write_log
from crib3.engine.state import Phase
from crib3.players.easy import EasyPlayer

LONG = "Long" + "o" * 192 + "name"  # 200 characters
NAME_SETS = {
    "markup": ("[bold]x[/", "[/]", "\x1b[31mred"),
    "wide": ("🃏 Joker", LONG, "[b]Bea\\"),
}


# --- what a name may be ----------------------------------------------------------


@pytest.mark.parametrize("name", ["[bold]x[/", "[/]", "[b]BOLD", "[@click=app.quit]zz",
                                  "🃏 Joker", "Bea\\", "x" * MAX_LENGTH, "  Ann  "])
def test_names_a_person_may_take(name):
    assert check_name(name) == name.strip()


@pytest.mark.parametrize("name, reason", [
    ("", "empty"), ("   ", "empty"),
    ("x" * (MAX_LENGTH + 1), "has 21"), (LONG, "has 200"),
    ("\x1b[31mred", "\\x1b"), ("a\tb", "\\x09"), ("evil\u202eoops", "\\u202e"),
    ("nul\x00", "\\x00"), ("bell\x07", "\\x07"),
])
def test_names_refused_with_one_line_that_says_why(name, reason):
    with pytest.raises(ValueError) as caught:
        check_name(name)
    message = str(caught.value)
    assert message.startswith("a name is 1 to 20 printable characters")
    assert reason in message and "\n" not in message and message.isprintable()


def terminal_safe(text: str) -> bool:
    """Printable by the names' own Unicode (regex's, the same on every
    Python: tests/room/test_names_unicode.py), so no control, format or
    unassigned character reaches a terminal."""
    return printable(text) and not any(
        unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Zl", "Zp") for c in text)


@given(st.text(), st.one_of(st.none(), st.integers(1, 40)))
def test_a_shown_name_is_printable_and_fits(name, width):
    shown = shown_name(name, width)
    assert terminal_safe(shown)
    if width is not None:
        assert cell_len(shown) <= width
    if printable(name) and (width is None or cell_len(name) <= width):
        assert shown == name  # nothing changes a name that is fine as it is


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=60).filter(str.strip), min_size=3, max_size=3,
                unique=True))
def test_any_names_in_a_log_print_no_control_character(names):
    """Whatever a log names its players: the words, the board and the
    result's chart are printable (no escape reaches the terminal)."""
    from crib3.tui.screens.game_over import score_chart
    from crib3.tui.widgets.board import board_lines
    from crib3.words.narrate import describe

    game = named_game(tuple(names), 1)
    state = game.state
    for event in game.events[:12]:
        line = describe(event, state) or ""
        assert terminal_safe(line), line
    for ascii in (False, True):
        for row in board_lines(names, state.scores, state.back_pegs, ascii=ascii):
            assert terminal_safe(row.plain), row.plain
    assert all(terminal_safe(row) for row in score_chart(state).plain.split("\n"))


def test_a_shown_name_writes_control_characters_as_text():
    assert shown_name("\x1b[31mred") == "\\x1b[31mred"
    assert shown_name(LONG, 10) == "Longooooo…"
    assert shown_name("🃏🃏🃏🃏", 5) == "🃏🃏…"


# --- the command line ------------------------------------------------------------


@pytest.mark.parametrize("name", ["\x1b[31mred", LONG, "tab\there", "   "])
def test_play_refuses_a_bad_name_in_one_line(tmp_path, name):
    result = crib3("play", "--name", name, "--think", "0", home=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("crib3 play: --name: a name "), result.stderr
    assert "Traceback" not in result.stderr and "\x1b" not in result.stderr


# --- the new-game screen and the settings file --------------------------------------


async def test_the_new_game_screen_takes_a_markup_name_and_refuses_a_control_one(home):
    import json

    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen

    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        name = app.screen.query_one("#name")
        name.value = "Bea\x1b[2J"  # pasted, say
        app.screen.query_one("#left").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen) and app.game is None  # not started
        toasts = [str(n.message) for n in app._notifications]
        assert any("a name is 1 to 20 printable characters" in t and "\\x1b" in t
                   for t in toasts), toasts
        name.value = "[bold]x[/"
        app.screen.query_one("#left").focus()
        await pilot.press("enter")
        await settled(pilot)
        for _ in range(4):  # play: the cut, throws, cards
            await pilot.press("1", "enter")
            await settled(pilot)
        assert "[bold]x[/" in screen_text(app)
        assert app.game.state.players[0].name == "[bold]x[/"
        path = app.log_path
    assert load_log(path).state.players[0].name == "[bold]x[/"  # saved as typed
    saved = json.loads((home / "config" / "settings.json").read_text())
    assert saved["name"] == "[bold]x[/"


def test_a_bad_name_in_the_settings_file_is_not_taken(home):
    import json

    from crib3.tui.settings import load_choices

    (home / "config").mkdir()
    for bad, good in (("\x1b[31mred", "You"), ("x" * 50, "You"), (" [/] ", "[/]")):
        (home / "config" / "settings.json").write_text(json.dumps({"name": bad}))
        assert load_choices().name == good


# --- names from files: play, save, resume, replay, export ---------------------------


def named_game(names: tuple[str, str, str], seed: int, finished: bool = False) -> Game:
    """A game among `names` (you first), played by random moves into the
    play of the first hand, or to the end."""
    infos = [PlayerInfo(names[0], "human"), PlayerInfo(names[1], "standard"),
             PlayerInfo(names[2], "easy")]
    game = Game.new(infos, Rules(), seed=seed)
    pickers = [EasyPlayer(random.Random(seed + i)) for i in range(3)]
    while not game.over:
        if not finished and game.state.phase == Phase.PLAY and game.state.pile:
            break
        seat = game.to_act()[0]
        game.dispatch(pickers[seat].choose(game.view(seat)))
    return game


def literal(name: str, width: int = 6) -> str:
    """What of `name` must be on screen: its start, as `shown_name` writes it."""
    return shown_name(name)[:width]


@pytest.fixture
def home(crib3_home):
    (crib3_home / "data" / "games").mkdir(parents=True)
    return crib3_home


@pytest.mark.parametrize("which", NAME_SETS)
async def test_named_game_resumes_and_plays_on_with_every_name_literal(home, which):
    from crib3.tui.app import Crib3App

    names = NAME_SETS[which]
    path = home / "data" / "games" / "2026-01-02-100000-000000.jsonl"
    write_log(path, named_game(names, 3).events, make_header())
    game = Game.from_events(load_log(path).events)
    app = Crib3App(think=0.0, game=game, resume_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        text = screen_text(app)
        for name in names:
            assert literal(name) in text, (name, text)
        assert "\x1b" not in text
        before = len(game.events)
        for _ in range(6):  # play on: cards, gos, Enter to go on
            await pilot.press("1", "enter")
            await settled(pilot)
        assert len(game.events) > before
        assert "\x1b" not in screen_text(app)
    assert load_log(path).events == game.events  # saved as played, names as they were
    assert [p.name for p in load_log(path).state.players] == list(names)


@pytest.mark.parametrize("which", NAME_SETS)
async def test_named_game_replays_with_every_name_literal(which):
    from crib3.saved.replay import Replay
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.replay import ReplayScreen

    names = NAME_SETS[which]
    replay = Replay(named_game(names, 5, finished=True).events)
    app = Crib3App(replay=replay, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        seen = ""
        for key in ["right"] * 12 + ["v", "v", "end"]:
            await pilot.press(key)
            seen += screen_text(app)
        for name in names:
            assert literal(name) in seen, name
        assert "\x1b" not in seen


@pytest.mark.parametrize("which", NAME_SETS)
async def test_the_result_shows_every_name_literally(which):
    from textual.app import App

    from crib3.tui.screens.game_over import GameOverScreen

    names = NAME_SETS[which]
    state = named_game(names, 11, finished=True).state

    class Result(App[None]):
        def on_mount(self) -> None:
            self.push_screen(GameOverScreen(state, me=state.winner or 0))

    app = Result()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        for name in names:
            assert literal(name) in text, (name, text)
        assert "\x1b" not in text


@pytest.mark.parametrize("which", NAME_SETS)
def test_export_games_and_stats_print_every_name_literally(home, which):
    names = NAME_SETS[which]
    folder = home / "data" / "games"
    path = folder / "2026-01-01-100000-000000.jsonl"
    write_log(path, named_game(names, 5, finished=True).events, make_header())
    write_log(folder / "2026-01-02-100000-000000.jsonl", named_game(names, 6).events,
              make_header())
    for args in (("export", str(path)), ("games",), ("stats",)):
        result = crib3(*args, home=home)
        assert result.returncode == 0, (args, result.stderr)
        assert "\x1b" not in result.stdout and "Traceback" not in result.stderr
        for name in names:
            assert shown_name(name)[:12] in result.stdout, (args, name)


# --- the real command in a real terminal --------------------------------------------


@needs_tmux
def test_a_markup_name_plays_saves_resumes_and_replays_in_a_real_terminal(tmp_path):
    """The issue's own steps: `crib3 play --name '[bold red]x[/'` crashed,
    and so did every resume of the game it saved."""
    from commands import crib3_command

    name = "[bold red]x[/"
    crib3 = crib3_command()
    tmux = Tmux(tmp_path)
    script = tmp_path / "steps.sh"  # one shell: play, then resume, then replay the game
    script.write_text(
        f"{crib3} play --seed 3 --name {shlex.quote(name)} --players easy,easy --think 0.05\n"
        f"echo played=$?\n{crib3} resume --think 0.05\necho resumed=$?\n"
        f"{crib3} replay \"$CRIB3_HOME\"/data/games/*.jsonl\necho replayed=$?\nsleep 30\n")
    try:
        tmux.start(f"sh {script}")
        tmux.wait_for("deals first")
        tmux.keys("Enter")
        tmux.wait_for("Throw one card")
        tmux.wait_for(name)  # (the prompt can be drawn a moment before the table)
        tmux.keys("q")
        tmux.wait_for("Quit this game?")
        tmux.keys("y")
        deadline = time.monotonic() + 30  # the table shows around the dialog: wait it out
        while "Quit this game?" in tmux.screen() and time.monotonic() < deadline:
            time.sleep(POLL)
        tmux.wait_for("Throw one card")  # resumed where it stood
        screen = tmux.wait_for(name)  # (the prompt can be drawn a moment before the table)
        assert "Traceback" not in screen
        tmux.keys("q")
        tmux.wait_for("Quit this game?")
        tmux.keys("y")
        tmux.wait_for("event 1/")
        tmux.keys("End")
        tmux.wait_for(f"{name}  0 pts")
        tmux.keys("q")
        screen = tmux.wait_for("replayed=")
        assert "played=0" in screen and "resumed=0" in screen and "replayed=0" in screen
        assert "Traceback" not in screen
    finally:
        tmux.kill()
