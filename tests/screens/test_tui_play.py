"""Whole games played by key presses alone, in Textual's Pilot at 80x24."""

from __future__ import annotations

import json

import pytest
from tui_support import make_app, screen_text, settled, table, table_app, wait_for

from crib3.engine import Game
from crib3.engine.log import load_log
from crib3.engine.state import Phase
from crib3.tui.app import Crib3App
from crib3.tui.screens.dialogs import AskCount, AskMuggins, CoachScreen, ConfirmQuit, HelpScreen
from crib3.tui.screens.game_over import GameOverScreen
from crib3.tui.screens.new_game import NewGameScreen
from crib3.tui.words import IDLE


async def play_to_the_end(pilot, max_keys: int = 3000) -> None:
    """Enter, again and again: throw and play the highlighted card, go on."""
    app = pilot.app
    for _ in range(max_keys):
        if isinstance(app.screen, GameOverScreen):
            return
        if isinstance(app.screen, (AskCount, AskMuggins)):
            return
        await settled(pilot)
        if isinstance(app.screen, GameOverScreen):
            return
        await pilot.press("enter")
    raise AssertionError("the game did not end")


@pytest.mark.slow
async def test_a_whole_game_by_enter_alone(crib3_home):
    app = make_app(seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        text = screen_text(app)
        assert "Cut for deal" in text and "deals first" in text      # the cut, three cards
        await pilot.press("enter")
        await settled(pilot)
        text = screen_text(app)
        assert "Throw one card to" in text and "crib" in text        # the discard
        assert table(app).view.phase == Phase.DISCARD
        await play_to_the_end(pilot)
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        assert "win" in text and "Scores after each hand" in text
        assert "pegging" in text and "hand" in text and "crib" in text
        game = app.game
        assert game is not None and game.over
    logs = list((crib3_home / "data" / "games").glob("*.jsonl"))
    assert len(logs) == 1
    assert load_log(logs[0]).state == game.state                   # autosaved, verified


async def test_discard_by_digit_with_the_coach(crib3_home):
    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("enter")                                  # past the cut
        screen = await settled(pilot)
        hand = screen.view.hand
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
        text = screen_text(app)
        assert "Coach: which card to throw" in text and text.count("throw ") >= 5
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, CoachScreen))
        await pilot.press("3", "enter")
        await settled(pilot)
        assert app.game.state.discards[0] == hand[2]
        text = screen_text(app)
        assert "▒▒" in text                                          # their cards face down
        feed = "\n".join(table(app).narration)
        for seat in (1, 2):                                          # and their throws hidden
            thrown = app.game.state.discards[seat]
            assert f"throws {thrown.label()}" not in feed + text
            assert f"{app.game.state.name(seat)} throws a card" in feed
        assert f"Ann throws {hand[2].label()}" in feed


async def test_help_and_quit_ask_first(crib3_home):
    app = make_app(seed=5)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        await wait_for(pilot, lambda: "Three-handed cribbage" in screen_text(app))
        await pilot.press("escape")
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit))
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmQuit))
        assert app.is_running
        await pilot.press("ctrl+q")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit))
        await pilot.press("y")
        await wait_for(pilot, lambda: not app.is_running)


async def test_pegging_screen_shows_the_count_and_lights_legal_cards(crib3_home):
    app = make_app(seed=11)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            screen = await settled(pilot)
            view = screen.view
            if view.phase == Phase.PLAY and view.my_turn and view.pile:
                break
            await pilot.press("enter")
        text = screen_text(app)
        assert f"count {view.count:>2}" in text
        assert "Your play" in text
        legal = {c.card for c in view.legal}
        assert legal and legal <= set(view.hand)
        await pilot.press("h")
        await wait_for(pilot, lambda: isinstance(app.screen, CoachScreen))
        await wait_for(pilot, lambda: "which card to play" in screen_text(app))


async def test_muggins_you_count_and_a_short_claim_is_taken(crib3_home):
    app = make_app(seed=2, muggins=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_end(pilot)
        assert isinstance(app.screen, AskCount)
        await wait_for(pilot, lambda: "Count your" in screen_text(app))
        game = app.game
        true_score = max(c.points for c in game.legal_moves(0))
        await pilot.press("9", "9", "enter")                    # too much: count again
        await wait_for(pilot, lambda: isinstance(app.screen, AskCount))
        if true_score > 0:
            await pilot.press(*"0", "enter")                    # short on purpose
            await wait_for(pilot, lambda: not isinstance(app.screen, AskCount))
            await wait_for(pilot, lambda: any(e.type == "MugginsCalled" for e in game.events))
            called = [e for e in game.events if e.type == "MugginsCalled"][-1]
            assert called.victim == 0 and called.points == true_score


@pytest.mark.slow
async def test_a_game_won_in_the_middle_of_the_show(crib3_home):
    """The first hand counted reaches the target: the later hands are never
    counted, and the result follows at once."""
    from games import random_game

    for seed in range(200):
        finished = random_game(seed, ("human", "standard", "standard"))
        last = finished.events
        before = last[-2]
        if before.type == "HandCounted" and not before.crib and \
                before.seat == (finished.state.dealer + 1) % 3:
            break
    else:
        pytest.skip("no seed wins on the first count")
    # Sit down after your last choice of the game: the standard players
    # (who choose the same way every time) finish the play as they did.
    cut = max(i for i, e in enumerate(last) if getattr(e, "seat", None) == 0
              and e.type in ("CardPlayed", "CardDiscarded"))
    game = Game.from_events(last[: cut + 1])
    app = Crib3App(game=game, think=0.0, autosave=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await play_to_the_end(pilot)
        assert isinstance(app.screen, GameOverScreen)
        assert game.events == last
        show = [e for e in game.events[cut:] if e.type == "HandCounted"]
        assert [e.seat for e in show] == [before.seat]       # nobody else was counted
        await wait_for(pilot, lambda: "win" in screen_text(app))


async def test_new_game_screen_remembers_the_choices(crib3_home):
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        text = screen_text(app)
        assert "Left opponent" in text and "Muggins" in text and "Seed" in text
        name = app.screen.query_one("#name")
        name.value = "Zed"
        app.screen.query_one("#left").focus()
        await pilot.press("right")                     # standard -> expert
        await pilot.press("down", "right")             # right opponent: standard -> expert
        await pilot.press("down", "space")             # skunks on
        await pilot.press("enter")
        await settled(pilot)
        players = app.game.state.players
        assert players[0].name == "Zed" and players[1].kind == "expert"
        assert players[2].kind == "expert" and app.game.state.rules.skunks
    saved = json.loads((crib3_home / "config" / "settings.json").read_text())
    assert saved["name"] == "Zed" and saved["left"] == "expert" and saved["skunks"] is True
    again = Crib3App(think=0.0)
    async with again.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(again.screen, NewGameScreen))
        assert again.screen.query_one("#name").value == "Zed"


async def test_too_small_a_terminal_says_so(crib3_home):
    app = make_app(seed=1)
    async with app.run_test(size=(60, 20)) as pilot:
        await settled(pilot)
        await pilot.pause()
        await wait_for(pilot, lambda: "needs 80×24" in screen_text(app))


async def test_ascii_mode_draws_suits_as_letters(crib3_home):
    from crib3.tui.app import Crib3App
    from crib3.tui.settings import GameChoices

    app = Crib3App(GameChoices(name="Ann", seed=7), think=0.0, ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("enter")
        screen = await settled(pilot)
        text = screen_text(app)
        body = text.splitlines()[:-1]                # the footer is Textual's own
        assert not any(ch in line for line in body for ch in "♠♥♦♣")
        for card in screen.view.hand:
            assert card.code in text                 # "10H", "QS"...
        assert all(ord(ch) < 128 for line in body[6:12] for ch in line)   # the board


async def test_no_color_keeps_the_suits_readable(crib3_home, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(seed=7)
    assert app.no_color
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("enter")
        screen = await settled(pilot)
        text = screen_text(app)
        for card in screen.view.hand:
            assert card.label() in text              # the glyph carries the suit


async def test_any_seat_can_be_yours(crib3_home):
    """Sitting in seat 1: your left-hand opponent (seat 2) is at the upper
    left, the next (seat 0) at the upper right, and the game plays on."""
    import random as rnd

    from crib3.engine import PlayerInfo, Rules
    from crib3.players import make_player
    from crib3.tui.screens.table import TableScreen

    game = Game.new([PlayerInfo("Bea", "standard"), PlayerInfo("Ann", "human"),
                     PlayerInfo("Cal", "easy")], Rules(), seed=4)
    bots = {0: make_player("standard", rnd.Random(1)), 2: make_player("easy", rnd.Random(2))}

    app = table_app(game, 1, bots)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        await wait_for(pilot, lambda: screen.mode in IDLE or screen.waiting_for_enter)
        top = screen_text(app).splitlines()[0]
        assert top.index("Cal") < top.index("Bea")
        for _ in range(40):
            await wait_for(pilot, lambda: screen.mode in IDLE or screen.waiting_for_enter)
            if screen.view.phase == Phase.PLAY and screen.view.my_turn:
                break
            await pilot.press("enter")
        assert screen.view.seat == 1 and set(screen.view.hand) <= set(game.state.hands[1])
        await pilot.press("enter")
        await wait_for(pilot, lambda: any(e.type == "CardPlayed" and e.seat == 1
                                          for e in game.events))


async def test_moves_made_elsewhere_at_a_shared_table_are_shown(crib3_home):
    """Seat 1 is a person at another terminal (no bot here plays it): the
    screen waits for their moves, shows them when they are dispatched to the
    shared game, and goes on."""
    import random as rnd

    from crib3.engine import PlayerInfo, Rules
    from crib3.players import make_player
    from crib3.tui.screens.table import TableScreen

    game = Game.new([PlayerInfo("Ann", "human"), PlayerInfo("Bea", "human"),
                     PlayerInfo("Cal", "standard")], Rules(), seed=6)
    bots = {2: make_player("standard", rnd.Random(2))}
    elsewhere = make_player("easy", rnd.Random(3))          # stands in for Bea's keys

    app = table_app(game, 0, bots)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        screen = app.screen
        moves_by_bea = 0
        for _ in range(120):
            await wait_for(pilot, lambda: screen.mode in IDLE or screen.waiting_for_enter)
            if moves_by_bea >= 6:
                break
            if screen.waiting_for_enter or 0 in game.to_act():
                await pilot.press("enter")
            elif 1 in game.to_act():
                game.dispatch(elsewhere.choose(game.view(1)))
                moves_by_bea += 1
                await pilot.pause(0.05)
            else:
                await pilot.pause(0.05)
        assert moves_by_bea >= 6
        await wait_for(pilot, lambda: screen.mode in IDLE or screen.waiting_for_enter)
        shown = [line for line in screen.narration if line.startswith("Bea ")]
        assert shown, screen.narration                      # her moves reached this screen


async def test_a_click_on_a_card_throws_it_and_plays_it(crib3_home):
    """A click on a card in your hand does what its number key does: at the
    discard it is thrown, in the play it is played; a click between two
    cards, or on a card you may not use, does nothing."""
    from crib3.tui.widgets.hand import HandView

    app = make_app(seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settled(pilot)
        await pilot.press("enter")                                  # past the cut
        screen = await settled(pilot)
        hand_view = screen.table_view.hand
        hand = screen.view.hand
        faces = str(hand_view.render()).split("\n")[0]
        width = faces.index(" ") if " " in faces else len(faces)  # one face: "┌───┐"
        left = hand_view.content_region.x - hand_view.region.x     # its border and padding
        top = hand_view.content_region.y - hand_view.region.y + 1
        await pilot.click(HandView, offset=(left + width, top))     # the gap: nothing
        await pilot.pause(0.1)
        assert app.game.state.discards[0] is None
        await pilot.click(HandView, offset=(left + (width + 1) + 1, top))  # the second card
        await settled(pilot)
        assert app.game.state.discards[0] == hand[1]
        screen = await settled(pilot)
        for _ in range(40):                                          # to your first play
            if screen.check_action("pick", (1,)) and screen.view.phase == Phase.PLAY:
                break
            await pilot.press("enter")
            screen = await settled(pilot)
        assert screen.view.phase == Phase.PLAY
        cards = hand_view.cards()
        playable = hand_view.choosable()
        target = next(i for i, c in enumerate(cards) if c in playable)
        played_before = len(app.game.state.played[0])
        await pilot.click(HandView, offset=(left + target * (width + 1) + 1, top))
        await settled(pilot)
        assert len(app.game.state.played[0]) == played_before + 1
        assert cards[target] in app.game.state.played[0]
