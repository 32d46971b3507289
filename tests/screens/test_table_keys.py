"""The table's keys as a player presses them: Ctrl+C says how to quit, the
muggins prompt asks for what the dialog asks, the feed is read back by its
keys while the card keys still play, `p` shows the last count, and each
score on the pile is labelled under the card that made it; keys pressed in
Textual's Pilot and the screen read."""

from __future__ import annotations

import pytest

SIZE = (80, 24)


async def test_ctrl_c_at_the_table_says_how_to_quit(crib3_home):
    from tui_support import make_app, screen_text, settled, wait_for

    app = make_app(seed=1)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settled(pilot)
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: "Ctrl+C does not quit" in screen_text(app))
        toast = [line.split("▌", 1)[1] for line in screen_text(app).splitlines() if "▌" in line]
        words = " ".join(" ".join(toast).split())
        assert "Ctrl+C does not quit crib3: q or Ctrl+Q quits" in words and app.is_running


async def test_ctrl_c_on_the_too_small_notice_says_how_to_quit(crib3_home):
    from tui_support import make_app, screen_text, settled, wait_for

    app = make_app(seed=1)
    async with app.run_test(size=(60, 20)) as pilot:
        await settled(pilot)
        await wait_for(pilot, lambda: "needs 80×24" in screen_text(app))
        await pilot.press("ctrl+c")
        await wait_for(pilot, lambda: "Ctrl+C does not quit" in screen_text(app))
        assert "Ctrl+Q quits" in " ".join(screen_text(app).split())
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not app.too_small)
        await pilot.resize_terminal(60, 20)             # said once, not for ever
        await wait_for(pilot, lambda: "needs 80×24" in screen_text(app))
        assert "Ctrl+C" not in screen_text(app)


async def test_with_muggins_the_prompt_asks_for_the_crib_when_the_dialog_does(crib3_home):
    """Count your own crib: the prompt under the dialog says the crib too
    (it said "Count your hand" while the dialog asked for the crib)."""
    from tui_support import make_app, screen_text, settled, table, wait_for

    from crib3.tui.screens.dialogs import AskCount

    app = make_app(seed=2, muggins=True)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3000):
            if isinstance(app.screen, AskCount):
                if app.screen.what == "crib":
                    break
                true = max(c.points for c in app.game.legal_moves(0))
                await pilot.press(*str(true), "enter")
                await wait_for(pilot, lambda: not isinstance(app.screen, AskCount)
                               or app.screen.what == "crib")
                continue
            await settled(pilot)
            if not isinstance(app.screen, AskCount):
                await pilot.press("enter")
        else:
            raise AssertionError("never asked to count a crib")
        await pilot.pause()
        assert "Count your crib" in screen_text(app)
        prompt = str(table(app).query_one("#prompt").render())
        assert prompt.endswith("Count your crib (muggins is on)"), prompt


async def test_a_five_letter_name_is_whole_in_the_cut_for_deal(crib3_home):
    from tui_support import screen_text, settled

    from crib3.tui.app import Crib3App
    from crib3.tui.settings import GameChoices

    app = Crib3App(GameChoices(name="Nina", left="expert", right="standard", seed=7),
                   think=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        text = screen_text(app)
        assert "Nina 6♠" in text and "Ni…" not in text, text


def _centre(app) -> list[str]:
    """The middle of the table (between the seat boxes) as text rows."""
    from tui_support import screen_text

    from crib3.tui.widgets.center import TableCenter

    centre = app.screen.query_one(TableCenter).content_region
    rows = screen_text(app).splitlines()[centre.y:centre.y + centre.height]
    return [row[centre.x:centre.x + centre.width].ljust(centre.width) for row in rows]


PILES = [("10S AS 3C 4D 2H 5H", False),    # runs of 4 and 5 on overlapped cards
         ("5S 5H 5D 6C", True),            # a pair, fifteen and pair royal, a go
         ("5S 5H 5D 5C", False),           # pair, pair royal, double pair royal
         ("3C 7S 5H 6D", False)]           # a fifteen, then a run (the cards of hand 4)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_each_score_on_the_pile_is_labelled_under_the_card_that_made_it(size):
    """Every card of the pile on screen that scored has its label (in
    full, or as short as the room under it needs: "run +4", "+4")
    starting at its own left edge; no label starts anywhere else, none
    is missing."""
    from tui_support import make_app, press_enter_until

    from crib3.cards import parse_cards
    from crib3.engine.state import Phase
    from crib3.scoring import score_play
    from crib3.tui.words import go_label, pile_labels

    app = make_app(7, autosave=False)
    async with app.run_test(size=size) as pilot:
        screen = await press_enter_until(pilot, lambda s: s.view.phase == Phase.PLAY)
        for pile, go in PILES:
            cards = tuple(parse_cards(pile))
            view = screen.view._replace(pile=cards, pile_seats=tuple(i % 3 for i in
                                                                     range(len(cards))),
                                        count=sum(c.value for c in cards), count_over=go)
            screen.table_view.show(view)
            await pilot.pause()
            rows = _centre(app)
            top = next(i for i, row in enumerate(rows) if "count" in row)   # the faces' top
            bottom = next(i for i in range(top, len(rows)) if "└" in rows[i][:3] or
                          "└" in rows[i][:2])                            # their bottom edge
            labels = [list(row) for row in rows[bottom + 1:]]
            assert labels, rows
            ranks = rows[top + 1]
            seen = 0
            for i, card in enumerate(cards):
                x = ranks.find(f"│{card.label()}")
                forms = pile_labels(score_play(cards[:i + 1]),
                                    go_label(1) if go and i == len(cards) - 1 else "")
                if x < 0:   # a card given way to "…": its label with it
                    continue
                if not forms:
                    continue
                found = [(r, form) for r, row in enumerate(labels) for form in forms
                         if "".join(row[x:]).startswith(form) and
                         "".join(row[x + len(form):x + len(form) + 1]) in (" ", "")]
                assert found, (pile, card, forms, "\n".join(rows))
                r, form = found[0]
                labels[r][x:x + len(form)] = " " * len(form)
                seen += 1
            assert seen >= 2, (pile, "\n".join(rows))
            left = "".join("".join(row) for row in labels)
            assert not left.strip(" ┌┐└┘─│╶╴╷╵├┤"), (pile, "\n".join(rows))  # nothing else


def _at_my_play_after_a_count(screen) -> bool:
    from crib3.engine.state import Phase
    from crib3.tui.words import Mode

    view = screen.view
    return screen.mode == Mode.YOUR_TURN and view.phase == Phase.PLAY and bool(view.pile) \
        and bool(view.hand_plays) and view.hand_plays[-1][2] >= 1


async def test_at_80x24_the_feed_is_read_back_by_its_keys_and_the_card_keys_still_play():
    from tui_support import make_app, press_enter_until, screen_text, wait_for

    from crib3.tui.widgets.feed import Feed

    app = make_app(7, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, _at_my_play_after_a_count, presses=600)
        feed = screen.query_one("#feed", Feed)
        said = screen.narration
        assert not feed.display                                    # the three last lines
        await pilot.press("pageup")                                # opens it, a page back
        await wait_for(pilot, lambda: feed.display and feed.reading)
        await pilot.pause()
        text = screen_text(app)
        assert said[-1] not in text and any(line in text for line in said[-6:-3]), text
        await pilot.press("up", "up")
        await pilot.pause()
        assert screen_text(app) != text                            # a line at a time
        await pilot.press("home")
        await pilot.pause()
        assert "A new game to 121: Ann, Bea and Cal." in screen_text(app)  # the whole game
        before = len(app.game.events)
        await pilot.press("1")                                     # the card keys play on
        await wait_for(pilot, lambda: any(e.type == "CardPlayed" and e.seat == 0
                                          for e in app.game.events[before:]))
        await pilot.pause()
        assert feed.reading and "A new game to 121" in screen_text(app)  # not pulled down
        await pilot.press("end")
        await pilot.pause()
        assert not feed.reading and said[-1][:60] in screen_text(app)


async def test_p_shows_the_last_counts_cards_until_any_key():
    from tui_support import make_app, press_enter_until, screen_text, wait_for

    from crib3.cards import Card
    from crib3.scoring import score_play
    from crib3.tui.screens.looking_back import LastCountScreen
    from crib3.tui.screens.table import TableScreen
    from crib3.tui.words import pile_label

    app = make_app(7, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, _at_my_play_after_a_count, presses=600)
        plays = screen.view.hand_plays
        number = plays[-1][2] - 1                                  # the count cleared
        cards: list[Card] = [card for _, card, n in plays if n == number]
        assert len(cards) >= 2 and all(c not in screen.view.pile for c in cards)
        await pilot.press("p")
        await wait_for(pilot, lambda: isinstance(app.screen, LastCountScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "The last count" in text, text
        running = 0
        for i, card in enumerate(cards):
            running += card.value
            row = next(row for row in text.splitlines() if f" {card.label()} " in row)
            assert f" {running} " in row + " ", row                  # the count after it
            said = pile_label(score_play(cards[:i + 1]))
            assert said in row, (said, row)                          # what it scored
        assert "31 +2" in text or "go +1" in text                    # how it ended
        held = len(screen.view.hand)
        await pilot.press("3")                                       # any key: back
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert len(screen.view.hand) == held                         # and nothing played


@pytest.mark.parametrize("seed, ended", [(35, "go"), (7, "pair")])
def test_p_says_a_game_ending_go_as_the_log_says_it(seed, ended):
    """`p` after a game won on a go at 30 with cards still held called it
    "last card +1", where the feed and the log say go; a game won on a pair
    in mid-count was given a go nobody scored."""
    from crib3.engine.events import CardPlayed, GoScored
    from crib3.engine.rules import Rules
    from crib3.engine.views import project
    from crib3.study.sim import _play_seated
    from crib3.tui.screens.looking_back import last_count, last_count_lines
    from crib3.words.narrate import Voice

    game = _play_seated(["Ann", "Bea", "Cal"], ["easy"] * 3, Rules(), seed)
    winning = game.events[-2]
    assert any(game.state.held)                       # the play was not over
    assert isinstance(winning, GoScored if ended == "go" else CardPlayed)
    view = project(game.state, 0)
    text = "\n".join(line.plain for line in last_count_lines(view, view.hand_plays, True))
    assert "last card" not in text, text
    assert not last_count(view, view.hand_plays, True)[1]   # not the play's last count
    if ended == "go":
        assert text.splitlines()[-1].endswith(f"go +1 to {Voice(view).object(winning.seat)}")
    else:
        assert "go" not in text.splitlines()[-1], text


async def test_at_80x24_the_feed_opened_again_shows_the_newest_lines_and_a_page_is_a_page():
    """The feed closed (f) while read back, and opened again, showed where
    the reader had been, with nothing to say those lines were old; and
    PgUp moved 2 of its 3 lines. Opened again it shows the newest lines;
    a page key moves by the rows in view."""
    from tui_support import make_app, press_enter_until, screen_text, wait_for

    from crib3.tui.widgets.feed import Feed

    app = make_app(7, autosave=False)
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_enter_until(pilot, _at_my_play_after_a_count, presses=600)
        feed = screen.query_one("#feed", Feed)
        await pilot.press("f")                                     # opened: the newest lines
        await wait_for(pilot, lambda: feed.display and feed.max_scroll_y > 0)
        await pilot.pause()
        rows = feed.scrollable_content_region.height
        newest = feed.max_scroll_y
        assert round(feed.scroll_y) == newest and rows >= 2
        await pilot.press("pageup")                                # a page: every row in view
        await pilot.pause()
        assert round(feed.scroll_y) == newest - rows and feed.reading
        await pilot.press("pageup", "pageup")
        await pilot.pause()
        await pilot.press("pagedown")
        await pilot.pause()
        assert round(feed.scroll_y) == newest - 2 * rows
        await pilot.press("f")                                     # closed while read back
        await wait_for(pilot, lambda: not feed.display)
        await pilot.press("f")                                     # and opened again
        await wait_for(pilot, lambda: feed.display)
        await pilot.pause()
        await pilot.pause()
        assert not feed.reading and round(feed.scroll_y) == feed.max_scroll_y
        assert screen.narration[-1][:40] in " ".join(screen_text(app).split()), screen_text(app)


@pytest.mark.parametrize("size", [(200, 60), (80, 24)], ids=["200x60", "80x24"])
async def test_your_count_is_asked_by_its_prompt_with_your_hand_in_the_hand_panel(crib3_home,
                                                                                   size):
    """At 200x60 the count's dialog sat 25 rows above its prompt, in the
    middle, while the hand panel still showed the hand counted before
    yours: it sits right above its prompt, at the table's right, clear of
    your cards, and the hand panel shows the cards you count. At 80x24 it
    stays in the middle (there is no room beside the cards)."""
    from tui_support import make_app, settled, table

    from crib3.tui.screens.dialogs import AskCount

    app = make_app(seed=7, muggins=True, autosave=False)
    async with app.run_test(size=size) as pilot:
        for _ in range(400):
            if isinstance(app.screen, AskCount):
                break
            await settled(pilot)
            if not isinstance(app.screen, AskCount):
                await pilot.press("enter")
        else:
            raise AssertionError("never asked to count")
        await pilot.pause()
        await pilot.pause()
        dialog = app.screen.query_one("Vertical").region
        screen = table(app)
        view = screen.view
        hand = screen.table_view.hand
        assert hand.showing is not None and hand.showing.cards == view.counting_cards
        assert hand.showing.total is None and not hand.showing.said   # (not counted yet)
        prompt = screen.query_one("#prompt").region
        if size == (200, 60):
            assert dialog.bottom == prompt.y, (dialog, prompt)          # right above it
            drawn = hand.content_region
            cards = len(view.counting_cards) + 1                          # and the starter
            assert dialog.x > drawn.x + cards * 12, (dialog, drawn)      # clear of the cards
            assert dialog.right <= screen.table_view.region.right        # clear of the feed
        else:
            middle = (size[1] - dialog.height) // 2
            assert abs(dialog.y - middle) <= 1, dialog                  # as before
