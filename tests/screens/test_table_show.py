"""The show as a player meets it at the table: a game opened mid-show presents
that show, the counts said as players say them (your hand, a score past the
target, a long count in the hand panel's two rows), and the panel that lists
every hand and the crib after the show; keys pressed in Textual's Pilot at
80x24 and the screen read."""

from __future__ import annotations

import pytest
from games import random_game

from crib3.engine import events as ev
from crib3.tui.screens.table import show_left_unseen

SIZE = (80, 24)


def _past(events: list) -> list:
    """Events as a table screen's `so_far` (only the events are read)."""
    return [(event, None, None) for event in events]


def test_a_game_opened_mid_show_presents_that_show_from_its_first_count():
    events = random_game(11).events
    first_count = next(i for i, e in enumerate(events) if isinstance(e, ev.HandCounted))
    dealt = next(i for i, e in enumerate(events)
                 if isinstance(e, ev.CardsDealt) and e.hand == 2)
    throws = [e for e in events[dealt:] if isinstance(e, ev.CardDiscarded)]
    mine = next(e for e in throws if e.seat == 0)
    others = next(e for e in throws if e.seat == 1)
    # left after its second count, at its end, or at the next hand's deal:
    for cut in (first_count + 1, first_count + 2, dealt + 1):
        assert show_left_unseen(_past(events[:cut]), 0) == first_count
    # another seat (a card room's) has thrown since: still unseen by seat 0
    assert show_left_unseen(_past(events[:dealt + 1] + [others]), 0) == first_count
    # seat 0 has thrown in the next hand: it has seen the show
    assert show_left_unseen(_past(events[:dealt + 1] + [mine]), 0) == dealt + 2
    # left in the play: all at once
    assert show_left_unseen(_past(events[:first_count - 1]), 0) == first_count - 1


async def test_the_tall_show_says_your_hand_to_a_player_called_you(crib3_home):
    from tui_support import press_enter_until, screen_text

    from crib3.engine.state import Phase
    from crib3.tui.app import Crib3App
    from crib3.tui.settings import GameChoices

    app = Crib3App(GameChoices(name="You", left="standard", right="standard", seed=7),
                   think=0.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await press_enter_until(pilot, lambda s: s.waiting_for_enter and s.shown.phase
                                == Phase.SHOW and bool(s.view.shown[0]), presses=600)
        await pilot.pause()
        text = screen_text(app)
        assert "Your hand" in text and "You's" not in text, text


@pytest.mark.slow
async def test_a_score_past_the_target_is_said_as_players_say_it(crib3_home):
    """P2 wins on his crib with 122: the board stops at 121, and so do the
    words: "121 pts" in his box, "121 (122 counted)" in the lines and the
    result (the log keeps 122)."""
    from tui_support import press_enter_until, screen_text, wait_for

    from crib3.engine import Game
    from crib3.engine.state import Phase
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.game_over import GameOverScreen

    finished = random_game(1, ("human", "standard", "standard"))
    assert finished.state.scores == (85, 92, 122)
    cut = max(i for i, e in enumerate(finished.events) if getattr(e, "seat", None) == 0
              and e.type in ("CardPlayed", "CardDiscarded"))
    game = Game.from_events(finished.events[: cut + 1])
    app = Crib3App(game=game, think=0.0, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        await press_enter_until(pilot, lambda s: s.waiting_for_enter
                                and s.shown.phase == Phase.OVER, presses=900)
        await pilot.pause()
        assert game.state.scores == (85, 92, 122)                  # the log's truth
        text = screen_text(app)
        assert "122 pts" not in text and "with 122" not in text, text
        assert "─ 121 pts ─" in text                  # his box, as far as the board goes
        assert "P2 has 121 (122 counted)" in text and "wins with 121 (122 counted)" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "121 (122 counted) to 85 and 92" in text, text


def test_your_own_line_says_both_the_board_and_the_count():
    from crib3.tui.words import points

    assert points(125, 121) == "121 pts (125 counted)"
    assert points(125, 121, counted=False) == "121 pts"
    assert points(121, 121) == "121 pts" and points(1) == "1 pt"


def test_a_long_count_keeps_every_phrase_in_the_show_panels_two_rows():
    """5♥ 10♦ J♥ J♦ with 10♠ at 80x24: two rows of 37 beside the cards kept
    only the last two lines, losing "fifteen two, four, six"."""
    from crib3.cards import parse_card, parse_cards
    from crib3.scoring import score_hand
    from crib3.tui.widgets.hand import _packed
    from crib3.words.speech import hand_phrases

    score = score_hand(parse_cards("5H 10D JH JD"), parse_card("10S"))
    said = tuple(phrase for phrase, _ in hand_phrases(score))
    rows = [row.plain for row in _packed(said, 37, 2)]
    assert rows == ["fifteen two, four, six, eight", "and a pair is ten, twelve"]
    assert [row.plain for row in _packed(said[:2], 37, 2)] == ["fifteen two", "fifteen four"]


async def _the_shows_panel(pilot, skip: bool = False):
    from tui_support import settled

    from crib3.engine.state import Phase
    from crib3.tui.screens.looking_back import ShowSummaryScreen

    app = pilot.app
    skipped = False
    for _ in range(800):
        if isinstance(app.screen, ShowSummaryScreen):
            return app.screen
        screen = await settled(pilot)
        if isinstance(app.screen, ShowSummaryScreen):
            return app.screen
        if skip and not skipped and screen.waiting_for_enter and screen.shown.phase == Phase.SHOW:
            await pilot.press("s")
            skipped = True
            continue
        await pilot.press("enter")
    raise AssertionError("no show panel")


def _shown_in_panel(app, counts) -> None:
    """Every count of the show in the panel, its cards, total and what made
    it, whole (a breakdown wrapped over lines is read back joined)."""
    from tui_support import screen_text

    from crib3.tui.screens.looking_back import breakdown

    text = screen_text(app)
    inside = [row.split("█")[1].strip() for row in text.splitlines() if row.count("█") >= 2]
    joined = " ".join(inside)
    assert len(counts) == 4, counts                                  # three hands and the crib
    for count in counts:
        cards = " ".join(c.label() for c in count.cards)
        row = next((row for row in inside if cards in row), None)
        assert row is not None, (cards, inside)
        assert row.split(cards)[1].split()[0] == str(count.points + count.missed), row
        assert ("crib" if count.crib else "hand") in row.split(cards)[0], row
        for part in breakdown(count.items):
            assert part in joined, (part, inside)                   # nothing cut
    assert "fifteen" in joined


@pytest.mark.parametrize("skip", [False, True])
async def test_after_the_show_one_panel_lists_every_hand_and_the_crib_until_enter(skip):
    from tui_support import make_app, wait_for

    from crib3.engine import events as ev
    from crib3.tui.screens.looking_back import ShowSummaryScreen

    app = make_app(7, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        panel = await _the_shows_panel(pilot, skip)
        await pilot.pause()
        counts = [e for e in app.game.events if isinstance(e, ev.HandCounted) and
                  e.starter == panel.counts[0].starter]
        _shown_in_panel(app, counts)
        assert [c.seat for c in panel.counts] == [c.seat for c in counts]   # show order
        # Its lines are one widget: the panel opens at every seat after every
        # hand, and a widget a line was most of what opening it cost.
        assert len(panel.query("*")) == 2, list(panel.query("*"))
        await pilot.pause(0.05)
        assert isinstance(app.screen, ShowSummaryScreen)            # until Enter
        await pilot.press("enter")
        await wait_for(pilot, lambda: not isinstance(app.screen, ShowSummaryScreen))
        await wait_for(pilot, lambda: any(isinstance(e, ev.CardsDealt) and e.hand == 2
                                          for e in app.game.events))  # the next deal


def test_a_hands_breakdown_is_said_as_players_sum_it_up():
    from crib3.cards import parse_card, parse_cards
    from crib3.scoring import score_hand
    from crib3.tui.screens.looking_back import breakdown

    score = score_hand(parse_cards("5H 5C 6D 4S"), parse_card("JH"))
    assert breakdown(score.items) == ["fifteens 4 for 8", "pair 2", "2 runs of 3 for 6"]
    score = score_hand(parse_cards("5H 6H 7H JH"), parse_card("8C"))
    assert breakdown(score.items) == ["fifteens 2 for 4", "run of 4 for 4", "flush 4"]
    score = score_hand(parse_cards("2H 4C 8D QS"), parse_card("KH"))
    assert breakdown(score.items) == []


async def test_the_show_panel_at_a_card_room_seat(tmp_path, monkeypatch):
    import random

    from tui_support import room_app, wait_for

    import crib3.room.table
    from crib3.engine import Rules
    from crib3.engine import events as ev
    from crib3.room import Room
    from crib3.tui.screens.room_table import RoomTableScreen

    # A table's deal is drawn from the system's randomness: held to one
    # whose first show has a fifteen, which the panel is checked for.
    monkeypatch.setattr(crib3.room.table.random, "SystemRandom", lambda: random.Random(7))
    room = Room(tmp_path / "tables", think=0.0)
    ann = room.sign_in("Ann", None, lambda r: None)
    table = room.open_table(ann, Rules(), ("standard", "standard"))
    table.start("Ann")
    app = room_app(room, "Ann")
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen))
        panel = await _the_shows_panel(pilot)
        await pilot.pause()
        counts = [e for e in table.game.events if isinstance(e, ev.HandCounted) and
                  e.starter == panel.counts[0].starter]
        _shown_in_panel(app, counts)


async def test_a_game_resumed_mid_show_goes_on_from_the_hand_being_counted(crib3_home):
    """Quit while asked to count your hand (muggins on), after another's
    count was said: resumed, the show started again from its first count
    (the pegs went back, each count said again). It goes on from the hand
    being counted: yours is asked at once, the pegs where they stood."""
    from tui_support import make_app, settled, table

    from crib3.engine import Game
    from crib3.engine.log import load_log
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.dialogs import AskCount
    from crib3.tui.shown import recall_shown
    from crib3.tui.words import Mode

    app = make_app(seed=7, muggins=True)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(400):
            if isinstance(app.screen, AskCount):
                break
            await settled(pilot)
            if not isinstance(app.screen, AskCount):
                await pilot.press("enter")
        else:
            raise AssertionError("never asked to count")
        path, scores = app.log_path, table(app).view.scores
        counted = [e for e in app.game.events if isinstance(e, ev.HandCounted)]
        assert counted                                    # another's count was said
        app.quit_confirmed()                              # q, y
    events = load_log(path).events
    again = Crib3App(game=Game.from_events(events, takebacks=True), resume_path=path,
                     think=0.0)
    async with again.run_test(size=SIZE) as pilot:
        await settled(pilot)                              # no key pressed
        screen = table(again)
        assert isinstance(again.screen, AskCount), again.screen   # yours, at once
        assert screen.presented == len(events) and screen.mode != Mode.COUNTING
        assert screen.view.scores == scores               # the pegs where they stood
    assert recall_shown(path) is None                     # (read once)
