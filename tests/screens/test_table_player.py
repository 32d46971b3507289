"""The way a player meets the table (issue 12, points 2, 10, 13, 15 and 16),
each met as a player meets it: keys pressed in Textual's Pilot at 80x24, the
screen read."""

from __future__ import annotations

import os
import shutil

import pytest
from commands import needs_tmux
from textual.widgets import Input
from tui_support import make_app, press_enter_until, press_until, screen_text, wait_for

from crib3.tui.app import Crib3App

SIZE = (80, 24)


# --- 10: the new-game screen keeps your name -----------------------------------

async def test_typing_on_the_new_game_screen_replaces_the_name_and_runs_no_command():
    from crib3.tui.screens.new_game import NewGameScreen
    from crib3.tui.screens.table import TableScreen

    app = Crib3App(think=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.pause()
        name = app.screen.query_one("#name", Input)
        assert app.screen.focused is name
        # the focused field is drawn apart without colour: another border
        seed_field = app.screen.query_one("#seed", Input)
        assert name.styles.border_top[0] != seed_field.styles.border_top[0]
        await pilot.press(*"Tarq")                 # t, r and q are commands elsewhere
        assert isinstance(app.screen, NewGameScreen) and app.is_running
        assert name.value == "Tarq"                 # "You" was replaced, not added to
        await pilot.press("ctrl+t")                 # the footer's key for statistics
        await wait_for(pilot, lambda: type(app.screen).__name__ == "StatsScreen")
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        assert name.value == "Tarq"
        seed = app.screen.query_one("#seed", Input)
        await press_until(pilot, "down", lambda: app.screen.focused is seed,  # past the rows
                          "the seed's field focused")
        await pilot.press(*"qtr42")
        assert isinstance(app.screen, NewGameScreen) and app.is_running
        assert seed.value == "42"
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.game.state.players[0].name == "Tarq"


async def test_a_name_typed_fast_and_enter_start_the_game_under_that_name():
    """Typed (or pasted) in one burst with Enter, as tmux's send-keys does:
    Enter was taken before the name field had read the letters, and the
    game started as "You"."""
    from textual import events

    from crib3.tui.screens.new_game import NewGameScreen
    from crib3.tui.screens.table import TableScreen

    app = Crib3App(think=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.pause()
        for key, char in [("Z", "Z"), ("o", "o"), ("e", "e"), ("enter", "\r")]:
            app.post_message(events.Key(key, char))      # no pause between keys
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.game.state.players[0].name == "Zoe"


async def test_the_focused_row_of_the_new_game_screen_is_marked_not_only_coloured():
    from crib3.tui.screens.new_game import NewGameScreen, OptionRow

    app = Crib3App(think=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("down")
        row = app.screen.query_one("#left", OptionRow)
        assert app.screen.focused is row
        lines = screen_text(app).splitlines()
        left = next(line for line in lines if "Left opponent" in line)
        right = next(line for line in lines if "Right opponent" in line)
        assert "▶ Left opponent" in left and "▶" not in right.split("Right")[0]
        # Reverse video, which NO_COLOR keeps (it drops colours, not styles).
        drawn = row.render()
        assert all(style.reverse for style in
                   (drawn.get_style_at_offset(app.console, i) for i in range(len(drawn))))
        other = app.screen.query_one("#right", OptionRow).render()
        assert not any(drawn_style.reverse for drawn_style in
                       (other.get_style_at_offset(app.console, i) for i in range(len(other))))


# --- 2: replay face up shows the discards and the crib --------------------------

async def test_replay_face_up_names_the_discards_and_shows_the_crib():
    from logfiles import ASSETS

    from crib3.engine import events as ev
    from crib3.engine.log import load_log
    from crib3.saved.replay import Replay
    from crib3.tui.screens.replay import ReplayScreen

    sample = ASSETS / "short-61.jsonl"
    replay = Replay(load_log(sample).events)
    # The last discard of the first hand: every card of the crib is known.
    last = max(i for i, e in enumerate(replay.events[:replay.hand_starts[2]])
               if isinstance(e, ev.CardDiscarded))
    thrown = replay.events[last]
    state = replay.states[last]
    name = state.players[thrown.seat].name
    app = Crib3App(replay=replay, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        app.screen.show(last)
        await pilot.pause()
        text = screen_text(app)
        said = f"{name} throws {thrown.card.label()} to the crib"
        assert said in text and "a card to the crib" not in text
        crib_row = next(line for line in text.splitlines()[:5] if "crib " in line)
        crib = crib_row.split("crib ")[1].split("│")[0].split()
        assert crib == [c.label() for c in state.crib], crib_row     # face up, all four
        await press_until(pilot, "v", lambda: app.screen.viewpoint == thrown.seat,  # its view
                          "the view from the seat that threw")
        await pilot.pause()
        assert said in screen_text(app)
        other = (thrown.seat + 1) % 3                                  # another seat's
        await press_until(pilot, "v", lambda: app.screen.viewpoint == other,
                          "the view from another seat")
        await pilot.pause()
        seen = screen_text(app)
        assert said not in seen and "throws a card to the crib" in seen
        assert "▒" in next(line for line in seen.splitlines()[:5] if "crib " in line)


# --- 16: pace ----------------------------------------------------------------

async def test_you_throw_before_the_bots_and_a_number_throws_at_once():
    from tui_support import settled

    from crib3.engine.state import Phase
    from crib3.tui.words import Mode

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                         and s.view.phase == Phase.DISCARD)
        assert app.game.state.discarded == (0, 0, 0)        # nobody waited on the bots
        assert "1-5 Throw" in screen_text(app).splitlines()[-1]   # the footer offers it
        hand = screen.view.hand
        await pilot.press("2")                               # no Enter
        await settled(pilot)
        assert app.game.state.discards[0] == hand[1]


async def test_a_number_plays_that_card_at_once_and_enter_the_highlighted_one():
    from crib3.engine.state import Phase
    from crib3.tui.words import Mode

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                         and s.view.phase == Phase.PLAY and len(s.view.hand) == 4)
        assert "1-4 Play" in screen_text(app).splitlines()[-1]   # the footer offers it, at once
        hand = screen.table_view.hand.cards()
        playable = [i for i, c in enumerate(hand, 1) if screen.view.count + c.value <= 31]
        number = playable[-1]
        await pilot.press(str(number))                       # no Enter
        await wait_for(pilot, lambda: hand[number - 1] in app.game.state.pile
                       or hand[number - 1] in app.game.state.played[0])
        screen = await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                         and s.view.phase == Phase.PLAY)
        held = screen.table_view.hand.cards()
        fits = [c for c in held if screen.view.count + c.value <= 31]
        await press_until(pilot, "right", lambda: screen.table_view.hand.selected == fits[0],
                          "the card that fits highlighted")
        await pilot.press("enter")                           # Enter plays the highlighted card
        await wait_for(pilot, lambda: fits[0] in app.game.state.played[0])


async def test_the_pace_of_the_computer_players_is_one_setting(crib3_home):
    import json

    from crib3.tui.screens.new_game import NewGameScreen
    from crib3.tui.screens.table import TableScreen
    from crib3.tui.settings import load_choices

    app = Crib3App(think=0.6)                     # this run's --think (or the setting)
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.pause()
        pace = next(line for line in screen_text(app).splitlines() if "Computer pace" in line)
        assert "0.6 s" in pace and "steady" in pace
        await press_until(pilot, "down", lambda: app.screen.focused.id == "think",
                          "the think time's row focused")
        await pilot.press("left", "left")          # 0.6 -> 0.3 -> at once
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.think == 0.0 and app.screen.think == 0.0
        assert app.screen.bots.think == 0.0
    saved = json.loads((crib3_home / "config" / "settings.json").read_text())
    assert saved["think"] == 0.0 and load_choices().think == 0.0
    again = Crib3App(think=load_choices().think)   # what `crib3` does with no --think
    async with again.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, NewGameScreen))
        await pilot.pause()
        pace = next(line for line in screen_text(again).splitlines() if "Computer pace" in line)
        assert "0 s" in pace and "at once" in pace


def test_a_pace_from_a_damaged_settings_file_is_not_taken(crib3_home):
    from crib3.tui.settings import load_choices, settings_path

    for bad in ('"fast"', "-1", "1e9", "true", "null"):
        settings_path().parent.mkdir(parents=True, exist_ok=True)
        settings_path().write_text(f'{{"think": {bad}}}')
        assert load_choices().think == 0.6, bad


# --- 13: dialogs keep the table in sight -----------------------------------------

async def test_the_coach_help_and_quit_leave_the_count_pile_and_hand_in_view():
    from test_coach_screen import highlight_the_coachs_best

    from crib3.engine.state import Phase
    from crib3.tui.screens.dialogs import CoachScreen, ConfirmQuit, HelpScreen
    from crib3.tui.words import Mode

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                         and s.view.phase == Phase.PLAY and s.view.pile)
        await highlight_the_coachs_best(pilot, screen)     # (where the coach opens)
        await pilot.pause()
        table = screen_text(app).splitlines()
        count_row = next(i for i, line in enumerate(table[:5]) if "count" in line)
        hand_rows = [i for i, line in enumerate(table) if "┃" in line[:8] and i > 5]
        kept = [count_row, count_row + 1, *hand_rows]   # the count, the pile, your hand
        for key, dialog in (("h", CoachScreen), ("question_mark", HelpScreen),
                            ("q", ConfirmQuit)):
            await pilot.press(key)
            await wait_for(pilot, lambda dialog=dialog: isinstance(app.screen, dialog))
            await pilot.pause()
            shown = screen_text(app).splitlines()
            if dialog is not ConfirmQuit:                   # beside the table: all of its top
                assert shown[count_row] == table[count_row]
                assert shown[count_row + 1] == table[count_row + 1]
            for row in kept:                                # left of a panel, around a box
                assert shown[row][:26].rstrip() == table[row][:26].rstrip(), (dialog, row)
            if dialog is CoachScreen:
                assert "Coach: which card to play" in "\n".join(shown)
            if dialog is ConfirmQuit:
                said = "\n".join(shown)
                assert "The game is saved:" in said and "crib3 resume" in said
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is screen)


async def test_a_quit_without_saving_says_the_game_is_not_saved():
    from crib3.tui.screens.dialogs import ConfirmQuit

    app = make_app(autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await press_enter_until(pilot, lambda s: True)
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit))
        said = screen_text(app)
        assert "not being saved" in said and "crib3 resume" not in said
        await pilot.press("y")
    assert not app.left_saved


async def test_quitting_after_the_game_is_over_says_nothing_of_saving():
    from games import random_game

    game = random_game(1)
    assert game.over
    app = Crib3App(think=0.0, game=game)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
    assert not app.left_saved


@needs_tmux
@pytest.mark.parametrize("save", [True, False])
def test_quitting_a_saved_game_leaves_one_line_on_the_terminal(tmp_path, save):
    from commands import crib3_command, ended, terminal

    options = "" if save else " --no-save"
    with terminal(tmp_path, f"{crib3_command()} play --seed 3 --name Ann --think 0"
                            f"{options}") as tmux:
        tmux.wait_for("deals first")
        tmux.keys("q")
        tmux.wait_for("Quit this game?")
        tmux.keys("y")
        status, lines = ended(tmux)
    assert status == 0
    # The command as the person must type it: the path it was started by,
    # unless `crib3` on PATH is that very program.
    found = shutil.which("crib3")
    typed = "crib3" if found and os.path.realpath(found) == os.path.realpath(crib3_command()) \
        else crib3_command()
    assert lines == ([f"Saved. `{typed} resume` goes on where you left off."] if save else [])


# --- 15: the coach's reasons ---------------------------------------------------------

def _decisions(seeds: range):
    """Seat 0's views wherever it had to throw or play, over whole games."""
    from games import random_game

    from crib3.engine import State, apply, project
    from crib3.engine.state import Phase

    for seed in seeds:
        state = State()
        for event in random_game(seed).events:
            state = apply(state, event)
            view = project(state, 0)
            if view.my_turn and view.phase in (Phase.DISCARD, Phase.PLAY):
                yield view


def test_every_option_has_its_main_reason_then_its_risk():
    import re

    from crib3.players.coach import advise

    main_play = re.compile(r"^(no points now|reaches \d+: wins the game|.+ for \w+)$")
    seen = {"discard": 0, "play": 0}
    for view in _decisions(range(6)):
        advice = advise(view)
        seen[advice.kind] += 1
        for _numbers, why in advice.rows():
            main, _, risk = why.partition("; ")
            assert main and risk, why                              # both, in that order
            if advice.kind == "discard":
                assert main.startswith("keeps "), why              # what the four kept are sure of
                assert "crib" in risk, why                         # what the card does there
            else:
                assert main_play.match(main), why
                assert "crib" not in why
    assert seen["discard"] > 10 and seen["play"] > 20


async def test_the_coach_gives_the_top_discard_a_reason_like_the_others():
    from crib3.engine.state import Phase
    from crib3.tui.screens.dialogs import CoachScreen
    from crib3.tui.words import Mode

    app = make_app(3)
    async with app.run_test(size=SIZE) as pilot:
        await press_enter_until(pilot, lambda s: s.mode == Mode.YOUR_TURN
                                and s.view.phase == Phase.DISCARD)
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
        await pilot.pause()
        lines = [line.split("█")[-2].strip() for line in screen_text(app).splitlines()
                 if line.count("█") >= 2]
        options = [i for i, line in enumerate(lines) if "throw " in line and " net " in line]
        assert len(options) == 5 and lines[options[0]].startswith("▶ throw")
        for i in options:                                          # the top one too
            assert lines[i + 1].startswith("keeps "), lines
