"""Defects seen at the table (issue 12, points 3 to 9), each met as a
player meets it: keys pressed in Textual's Pilot at 80x24, the screen read."""

from __future__ import annotations

import re

import pytest
from tui_support import make_app, press_enter_until, screen_text, settled, wait_for

from crib3.engine.state import Phase
from crib3.tui.app import Crib3App
from crib3.tui.widgets.cards import big_number
from crib3.tui.words import Mode

SIZE = (80, 24)


def _too_high(screen) -> int | None:
    """The number key of a card of ours that would take the count past 31."""
    view = screen.view
    if screen.mode != Mode.YOUR_TURN or view.phase != Phase.PLAY:
        return None
    for number, card in enumerate(screen.table_view.hand.cards(), start=1):
        if view.count + card.value > 31:
            return number
    return None


# --- 3: an illegal key is refused in a player's words ------------------------

@pytest.mark.parametrize("ascii", [False, True])
async def test_a_card_past_31_is_refused_in_a_players_words(ascii):
    app = make_app(3, ascii=ascii)  # seed 3: a card past 31 in hand early on
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, lambda s: _too_high(s) is not None)
        number = _too_high(screen)
        card = screen.table_view.hand.cards()[number - 1]
        count = screen.view.count
        await pilot.press(str(number), "enter")
        # run_test shows no toasts (tooltips and notifications are off):
        # what the toast says is read from the app's notifications.
        await wait_for(pilot, lambda: bool(app._notifications), timeout=5)
        text = " ".join(str(n.message) for n in app._notifications)
        room = 31 - count
        fits = "an ace" if room == 1 else f"a card of {room} or less"
        said = f"{card.label(ascii)} would make {count + card.value}: play {fits}"
        assert said in text
        assert "seat 0" not in text and "cannot play" not in text
        assert text.isascii() or not ascii


# --- 4: the play prompt's keys follow the cards left ---------------------------

async def test_the_play_prompt_offers_the_cards_that_are_left():
    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        said: dict[int, str] = {}
        def note(screen) -> bool:
            if screen.mode == Mode.YOUR_TURN and screen.view.phase == Phase.PLAY:
                prompt_line = next(line for line in screen_text(app).splitlines()
                                   if "Your play" in line)
                said[len(screen.view.hand)] = prompt_line
            return len(said) == 4
        await press_enter_until(pilot, note)
        assert "1-4, or ←/→ and Enter" in said[4]
        assert "1-3, or ←/→ and Enter" in said[3] and "1-4" not in said[3]
        assert "1-2, or ←/→ and Enter" in said[2] and "1-4" not in said[2]
        assert ": 1 or Enter" in said[1] and "1-" not in said[1]


async def test_the_footer_offers_the_number_keys_of_the_cards_that_are_left():
    """The footer's card keys follow the hand as the prompt does: "1-5" to
    throw from five, "1-3" to play from three, "1" from one, as soon as
    the turn comes (before, a frame or two after it: each was waited for)."""
    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        def footer() -> str:
            return screen_text(app).splitlines()[-1]
        seen: set[tuple[Phase, int]] = set()
        for _ in range(400):
            screen = await settled(pilot)
            phase, held = screen.view.phase, len(screen.view.hand)
            if screen.mode == Mode.YOUR_TURN and phase in (Phase.DISCARD, Phase.PLAY):
                keys = "1" if held == 1 else f"1-{held}"
                said = f" {keys} {'Throw' if phase == Phase.DISCARD else 'Play'} "
                assert said in footer(), footer()
                assert "1-5" not in footer() or held == 5
                seen.add((phase, held))
            if {(Phase.PLAY, n) for n in (1, 2, 3, 4)} <= seen:
                break
            await pilot.press("enter")
        assert (Phase.DISCARD, 5) in seen
        assert {(Phase.PLAY, n) for n in (1, 2, 3, 4)} <= seen


# --- 5: a tied cut for deal, round by round --------------------------------------

async def test_a_tied_cut_for_deal_is_shown_round_by_round():
    app = make_app(640302948)  # Ann and Cal both cut an ace, and cut again
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        rows = [line[26:54].strip() for line in screen_text(app).splitlines()[:5]]
        assert rows == ["Cut for deal", "Ann A♥  Bea 5♣  Cal A♦", "tie: cut again",
                        "Ann A♣  Cal 7♠", "Ann deals first"]


# --- 6: the header at the end of a hand; the play cleared for the show -----------

def _top_rows(app) -> str:
    return "\n".join(screen_text(app).splitlines()[:5])


async def test_the_show_starts_cleared_and_the_header_follows_the_deal():
    app = make_app(7)  # Bea deals hand 1, Cal hand 2
    async with app.run_test(size=SIZE) as pilot:
        await press_enter_until(pilot, lambda s: s.shown.phase == Phase.SHOW)
        top = _top_rows(app)
        assert "count" not in top and "played" not in top          # the play is over
        assert not any(mark in top for mark in ("▼", "◀", "▶"))      # no pile left
        await press_enter_until(pilot, lambda s: s.shown.phase == Phase.SHUFFLE
                                and s.shown.hand_number == 1)
        top = _top_rows(app)
        assert "Hand 1 over · Cal to deal" in top
        assert "Hand 1 · Cal deals" not in top
        assert "End of hand 1" in screen_text(app)


# --- 7: the command palette's Quit, New game and Keys -----------------------------

async def _from_the_palette(pilot, title: str) -> None:
    """Open the palette, type a command's title and choose it."""
    from textual.command import CommandPalette

    app = pilot.app
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*title.lower())
    await wait_for(pilot, lambda: title in screen_text(app))
    await pilot.pause(0.2)  # the search settles on its best match
    await pilot.press("enter")
    await wait_for(pilot, lambda: not isinstance(app.screen, CommandPalette))


async def test_the_palettes_quit_asks_first_and_new_game_says_what_it_does():
    from crib3.tui.screens.dialogs import ConfirmQuit

    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await _from_the_palette(pilot, "Quit")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit))
        assert app.is_running and "Quit this game?" in screen_text(app)
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmQuit))
        await _from_the_palette(pilot, "New game")
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit))
        text = screen_text(app)
        assert "Quit this game?" not in text and "new" in text.lower()
        await pilot.press("n")
        await wait_for(pilot, lambda: not isinstance(app.screen, ConfirmQuit))
        assert app.game is not None and not app.game.over        # still playing


async def test_the_palettes_keys_panel_closes_with_escape():
    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        screen = await settled(pilot)
        await _from_the_palette(pilot, "Keys")
        await wait_for(pilot, lambda: bool(app.screen.query("HelpPanel")))
        await pilot.press("escape")
        await wait_for(pilot, lambda: not app.screen.query("HelpPanel"), timeout=5)
        assert app.screen is screen and app.is_running


# --- 8: no skunk counted in a game played without skunks --------------------------

@pytest.mark.parametrize("skunks", [False, True])
async def test_statistics_count_a_skunk_only_where_skunks_were_played(crib3_home, skunks):
    from games import random_game

    from crib3.engine import Rules
    from crib3.engine.log import write_log
    from crib3.tui.screens.stats import StatsScreen

    game = random_game(1, rules=Rules(skunks=skunks))       # P0 ends on 85 of 122
    assert game.state.scores[0] < 91 and game.state.winner != 0
    folder = crib3_home / "data" / "games"
    folder.mkdir(parents=True, exist_ok=True)
    write_log(folder / "g1.jsonl", game.events)
    for _ in range(2):  # read from the logs, then again from the statistics' cache
        app = Crib3App(think=0.0)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("ctrl+t")
            await wait_for(pilot, lambda app=app: isinstance(app.screen, StatsScreen)
                           and "P0 (easy)" in screen_text(app))
            row = re.search(r"P0 \(easy\)\s+(\d+)\s+(\d+)\s+\d+%\s+(\d+)", screen_text(app))
            assert row is not None
            assert row.groups() == ("1", "0", "1" if skunks else "0")


# --- 9: a four-card crib and a long pile stay in the centre's six rows ------------

async def test_a_four_card_crib_shown_after_the_hand_does_not_wrap():
    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        await press_enter_until(pilot, lambda s: s.shown.phase == Phase.SHUFFLE
                                and s.shown.hand_number == 1)
        rows = [line[26:54] for line in screen_text(app).splitlines()[:5]]
        crib = [row for row in rows if "crib" in row]
        assert len(crib) == 1 and len(crib[0].split()) == 5, rows     # "crib" and 4 cards


def _a_long_count():
    """Seat 0's view of a count of seven or more cards, with the crib's four
    cards face up (as replay's face-up view shows them)."""
    from games import random_game

    from crib3.engine import State, apply, project

    for seed in range(60):
        game = random_game(seed)
        state = State()
        for event in game.events:
            state = apply(state, event)
            if state.phase == Phase.PLAY and len(state.pile) >= 7:
                return project(state, 0)._replace(crib=tuple(state.crib))
    raise AssertionError("no long count found")


async def test_a_long_pile_and_a_face_up_crib_stay_inside_the_centre():
    from textual.app import App

    from crib3.tui.widgets.table_view import TableView

    view = _a_long_count()

    class OneView(App[None]):
        def compose(self):
            yield TableView(0)

        def on_mount(self) -> None:
            self.query_one(TableView).show(view)

    app = OneView()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        lines = screen_text(app).splitlines()
        centre = [line[26:54].strip() for line in lines[:6]]
        # The boxes are six rows tall (the pile is three rows of small faces).
        assert lines[5].startswith("╰") and lines[5].rstrip().endswith("╯")   # the boxes' border
        assert centre[2].startswith("crib ") and len(centre[2].split()) == 5, centre
        digits = big_number(view.count)                                  # the count, large
        assert all(centre[3 + row].endswith(digits[row].strip()) for row in range(3)), centre
        last = view.pile[-1].label()
        labels = [c.label() for c in view.pile]
        faces = [x for x in re.findall(r"│(\S+)", centre[4]) if x in labels]
        assert centre[4].startswith("…") and faces == labels[-len(faces):], centre
        assert faces[-1] == last and f"│{last} │" in centre[4], centre   # the latest, whole
        assert "count" not in lines[6] and last not in lines[6]


@pytest.mark.parametrize("ascii", [False, True])
async def test_the_result_chart_sets_the_winner_apart_from_a_close_second(ascii):
    from games import random_game
    from textual.app import App

    from crib3.tui.screens.game_over import GameOverScreen

    state = random_game(1).state
    winner = state.winner
    second = (winner + 1) % 3
    final = tuple(121 if s == winner else 120 if s == second else 80 for s in range(3))
    state = state._replace(scores=final, hand_scores=(*state.hand_scores[:-1], final))

    class Result(App[None]):
        def on_mount(self) -> None:
            if ascii:
                self.ascii = True
            self.push_screen(GameOverScreen(state))

    app = Result()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        lines = [line.strip(" │|") for line in screen_text(app).splitlines()]
        rows = {s: [line for line in lines if line.startswith(state.players[s].name + " ")][-1]
                for s in (winner, second)}                          # the chart's rows, last
        won, close = rows[winner], rows[second]
        assert won.endswith("121 won") and close.endswith("120")
        assert won.split()[-3][-2:] != close.split()[-2][-2:], rows   # the last bars differ


# --- a driver that loses its widgets as its screen goes ----------------------

async def test_a_driver_that_finds_no_widget_on_a_screen_being_closed_is_not_an_error():
    """The driver may be between two awaits when its session ends and look
    for a seat panel already taken down (seen as "unexpected error:
    NoMatches '#seat-left'" in a card room's log as it closed). On a screen
    going away that is no failure; on the screen in use it still ends the
    app, as any failure of the driver does."""
    import asyncio

    from textual.css.query import NoMatches
    from textual.worker import WorkerFailed

    from crib3.tui.screens.table import TableScreen, _failed

    async def lost() -> None:
        raise NoMatches("No nodes match '#seat-left'")

    app = make_app(3)
    with pytest.raises(WorkerFailed, match="seat-left"):  # (the second call's)
        async with app.run_test(size=SIZE) as pilot:
            screen = await press_enter_until(pilot, lambda s: isinstance(s, TableScreen))
            task = asyncio.get_running_loop().create_task(lost())
            await asyncio.wait([task])
            screen._pruning = True  # as Textual marks a screen it is taking down
            _failed(app, task, screen)
            await pilot.pause()
            assert app._exception is None and app.is_running
            screen._pruning = False
            _failed(app, task, screen)  # the screen in use: a real failure
            await pilot.pause()
