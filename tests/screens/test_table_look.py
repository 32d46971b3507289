"""The table's look (issue 12, points 11, 12, 14 and 17), met as a player
meets it: keys pressed in Textual's Pilot, the screen read back as text."""

from __future__ import annotations

import re
from functools import partial

import pytest
from tui_support import make_app, press_enter_until, screen_text, settled, wait_for

from crib3.engine.state import Phase
from crib3.scoring import score_play
from crib3.tui.app import Crib3App
from crib3.tui.words import Mode

SIZE = (80, 24)

# Enter at most 600 times to reach a point (these tests go further into a game).
until = partial(press_enter_until, presses=600)


def my_play(screen) -> bool:
    return screen.mode == Mode.YOUR_TURN and screen.view.phase == Phase.PLAY


def my_box_top(app) -> str:
    """The top edge of your box: the row under the board with your name."""
    rows = screen_text(app).splitlines()
    return next(row for row in rows[6:] if "Ann" in row and " pt" in row)


# --- 11: your turn is unmistakable -----------------------------------------------

@pytest.mark.parametrize("ascii", [False, True])
async def test_your_seat_is_boxed_and_lit_on_your_turn_like_a_bots(ascii):
    app = make_app(7, ascii=ascii)
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(pilot, my_play)
        hand = screen.table_view.hand
        assert hand.has_class("to-act")
        top = my_box_top(app)
        assert top.lstrip().startswith("+" if ascii else "┏"), top    # heavy, as a bot's
        assert "Ann  " in top and " pt" in top
        await until(pilot, lambda s: s.mode == Mode.WAITING_FOR_ENTER)
        assert not hand.has_class("to-act")
        top = my_box_top(app)
        assert top.lstrip().startswith("+" if ascii else "╭"), top    # not your turn: plain


@pytest.mark.parametrize("no_color", [False, True])
async def test_the_prompt_on_your_turn_stands_out_from_the_log(monkeypatch, no_color):
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(pilot, my_play)
        prompt = screen.query_one("#prompt")
        recent = screen.query_one("#recent")
        lines = screen_text(app).splitlines()
        said = next(line for line in lines if "Your play" in line)
        assert said.lstrip().startswith("▶ Your play"), said               # a marker
        style, log = prompt.rich_style, recent.rich_style
        assert style.bold and style.reverse and not (log.bold or log.reverse)
        await until(pilot, lambda s: s.mode == Mode.WAITING_FOR_ENTER)
        assert not prompt.has_class("yours") and not prompt.rich_style.reverse


# --- 12: the pile is the centre of the table -------------------------------------

def centre_rows(app, width: int = 28) -> list[str]:
    """The centre column between the two seat boxes at 80x24."""
    return [row[26:26 + width] for row in screen_text(app).splitlines()[:6]]


async def test_the_pile_is_small_faces_with_who_played_them_and_the_count_large():
    from crib3.tui.widgets.cards import big_number

    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(pilot, lambda s: my_play(s) and len(s.view.pile) >= 2)
        view = screen.view
        rows = centre_rows(app)
        pile = "\n".join(rows[2:5])
        for card in view.pile[-3:]:
            assert f"│{card.label()}" in pile, rows                       # faces, in a row
        marks = re.findall(r"└([▼◀▶])", rows[4])
        expected = ["▼◀▶"[(s - view.seat) % 3] for s in view.pile_seats]
        assert marks == expected[-len(marks):] and marks, rows            # who played each
        digits = big_number(view.count)
        assert all(digits[i].strip() in rows[3 + i] for i in range(3)), rows
        assert "count" in rows[2]


async def test_a_score_is_labelled_under_the_card_that_made_it():
    from crib3.tui.words import pile_label, pile_labels

    def scored(screen) -> bool:
        pile = screen.view.pile
        return screen.view.phase == Phase.PLAY and bool(pile) \
            and score_play(pile).total > 0 and screen.mode in (Mode.YOUR_TURN,)

    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(pilot, scored)
        label = pile_label(score_play(screen.view.pile))
        assert re.fullmatch(r"(\w[\w ]* \+\d+ ?)+", label), label       # "fifteen +2"
        # Under the card that made it, as long as the room under that card
        # allows (issue 32, point 8: in full it went under the card before).
        rows = centre_rows(app)
        column = rows[3].index(f"│{screen.view.pile[-1].label()}")
        under = rows[5][column:] + " "
        assert any(under.startswith(f"{form} ")
                   for form in pile_labels(score_play(screen.view.pile))), rows


async def test_a_31_or_a_go_stays_on_screen_until_the_next_card():
    def leading_after_a_count(screen) -> bool:
        view = screen.view
        return my_play(screen) and not view.pile and any(view.played)

    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, leading_after_a_count)
        rows = centre_rows(app)
        labels = rows[5]
        assert "go +1" in labels or "31 +2" in labels, rows                # how it ended
        assert "│" in rows[3], rows                                       # its cards
        await pilot.press("1")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "go +1" not in centre_rows(app)[5]
                       and "31 +2" not in centre_rows(app)[5])


async def test_help_explains_the_pile_marks():
    from crib3.tui.screens.dialogs import HelpScreen

    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        await settled(pilot)
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
        assert re.search(r"▼.*you", text) and "◀" in text and "▶" in text, text


# --- 14: the show ------------------------------------------------------------------

def at_a_count(screen) -> bool:
    return screen.waiting_for_enter and screen.shown.phase == Phase.SHOW


async def test_each_count_in_the_show_fits_with_its_total_and_is_said_once():
    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, at_a_count)
        rows = screen_text(app).splitlines()
        headline = rows[6].strip()
        assert re.fullmatch(r"\w+'s (hand|crib): \d+ · \w+ has \d+", headline), headline
        assert sum(headline in row for row in rows) == 1                   # said once
        hand = "\n".join(rows[15:22])
        assert re.search(r"total \d+", hand), hand                         # the total
        assert "fifteen two" in hand or "nineteen" in hand or " is " in hand
        assert not re.search(r"\(\d+\)", "\n".join(rows)), rows           # no bare "(19)"
        recent = "\n".join(rows[22:])
        assert "plays" not in recent and "last card" not in recent, recent  # play's leftovers


# --- 17: a layout that grows with the terminal -----------------------------------

async def test_the_feed_wraps_its_lines_instead_of_cutting_them():
    app = make_app(7)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda s: s.shown.phase == Phase.DISCARD)
        feed = [row[87:].strip() for row in screen_text(app).splitlines()[:10]]
        said = " ".join(feed)
        assert "A new game to 121: Ann, Bea and Cal." in said, feed
        assert "Five cards each, and one to Bea's crib." in said, feed


async def test_at_80x24_the_feed_opens_without_hiding_the_table():
    app = make_app(7)
    async with app.run_test(size=SIZE) as pilot:
        screen = await until(pilot, my_play)
        before = screen_text(app).splitlines()
        await pilot.press("f")
        await wait_for(pilot, lambda: screen.query_one("#feed").display)
        await pilot.pause()
        after = screen_text(app).splitlines()
        prompt = next(i for i, row in enumerate(before) if "Your play" in row)
        assert after[:prompt + 1] == before[:prompt + 1]   # the table and the prompt, whole
        assert screen.narration[-1] in "\n".join(after[prompt + 1:23])     # the feed, under


@pytest.mark.parametrize("size, face, seat", [((80, 24), 5, 26), ((120, 40), 7, 26),
                                              ((160, 50), 11, 26), ((200, 60), 11, 36)])
async def test_bigger_terminals_get_bigger_cards_and_seats(size, face, seat):
    app = make_app(7)
    async with app.run_test(size=size) as pilot:
        screen = await until(pilot, lambda s: my_play(s) and bool(s.view.pile))
        rows = screen_text(app).splitlines()
        card = screen.view.hand[-1].label()
        row = next(i for i, r in enumerate(rows) if re.search(f"[│┃]{card}", r) and i > 8)
        top = rows[row - 1]
        column = re.search(f"[│┃]{card}", rows[row]).start()
        edge = top[column:column + face]
        assert edge[0] in "┌┏" and edge[-1] in "┐┓" and len(edge.strip()) == face, top
        assert screen.table_view.panels()[0].outer_size.width == seat
        if size[0] >= 200:
            # One line a track (the game hole at its end), a bar under each,
            # the holes' numbers over them, a blank line between two tracks.
            board = screen.query_one("#board")
            assert board.size.height == 9
            drawn = [r[:board.region.right] for r in rows[board.region.y:board.region.bottom]]
            tracks = [r for r in drawn if "◎" in r or "●" in r]
            assert len(tracks) == 3 and all(r.rstrip().endswith("◎") for r in tracks), drawn


@pytest.mark.parametrize("size", [(120, 40), (160, 50), (200, 60)])
async def test_a_tall_table_leaves_no_blank_rows_under_it(size):
    """The table grows into the rows the terminal gives: under your box
    only the prompt and the game's last lines, no band of blank rows."""
    app = make_app(7)
    async with app.run_test(size=size) as pilot:
        screen = await until(pilot, lambda s: my_play(s) and bool(s.view.pile))
        await pilot.pause()
        rows = screen_text(app).splitlines()
        below = rows[screen.table_view.hand.region.bottom:size[1] - 1]   # above the footer
        table_width = screen.table_view.region.width
        blank = [i for i, row in enumerate(below) if not row[:table_width].strip()]
        # A spacer line at most, and the last lines' rows the game has not yet
        # said enough to fill (a big screen gives them more rows).
        unsaid = max(0, screen.query_one("#recent").content_size.height - len(screen.narration))
        assert len(blank) <= 1 + unsaid, below


async def test_a_tall_opponents_box_holds_its_plays_and_points():
    """At 120x40 an opponent's box is drawn tall: its cards as faces (backs),
    the cards it has played this hand, its points this hand and this game."""
    app = make_app(7)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await until(pilot, lambda s: my_play(s) and bool(s.view.pile))
        await pilot.pause()
        view = screen.view
        rows = screen_text(app).splitlines()
        for panel in screen.table_view.panels():
            region = panel.region
            box = [row[region.x:region.right] for row in rows[region.y:region.bottom]]
            inside = "\n".join(box)
            assert panel.size.height >= 15, panel.size
            assert "▒▒▒" in inside                                         # backs, as cards
            assert "this hand" in inside and "game" in inside, inside
            assert "pegging" in inside and "crib" in inside
            for card in view.played[panel.seat]:
                assert f"│{card.label()}" in inside, (card, inside)        # as faces
        assert any(view.played[p.seat] for p in screen.table_view.panels())


async def test_the_result_is_scaled_to_a_big_screen():
    """At 200x60 the result is no 76-column box: wider, its chart's bars
    filling it and several lines tall; at 80x24 as it was."""
    from games import random_game
    from textual.app import App
    from textual.containers import Vertical

    from crib3.tui.screens.game_over import GameOverScreen

    state = random_game(4, ("human", "standard", "expert")).state

    class Result(App[None]):
        def on_mount(self) -> None:
            self.push_screen(GameOverScreen(state))

    for size, wide in (((80, 24), False), ((200, 60), True)):
        app = Result()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            box = app.screen.query_one(Vertical)
            chart = app.screen.query_one("#chart").render().plain.split("\n")
            if wide:
                assert box.outer_size.width >= 150, box.outer_size
                assert len(chart) >= 3 * 4                        # bars four lines tall at least
                assert max(len(line) for line in chart) >= 100
            else:
                assert box.outer_size.width == 76 and len(chart) == 3


async def test_a_tall_table_keeps_the_counted_hands_in_the_middle():
    """In the show at 120x40, the middle (cleared of the play) holds the
    starter and the crib as cards, and each hand counted so far with what
    it is worth, so a count said a moment ago can still be read."""
    from crib3.scoring import hand_points

    app = make_app(7)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await until(pilot, lambda s: s.waiting_for_enter and s.shown.phase == Phase.SHOW
                             and any(s.view.shown))
        await pilot.pause()
        view = screen.view
        center = screen.table_view.query_one("#center")
        rows = screen_text(app).splitlines()
        inside = "\n".join(row[center.region.x:center.region.right]
                           for row in rows[center.region.y:center.region.bottom])
        assert "starter" in inside and "crib" in inside and "▒▒▒" in inside, inside
        for seat, cards in enumerate(view.shown):
            if cards:
                worth = hand_points(cards, view.starter)
                assert f"{view.players[seat].name}'s hand  {worth}" in inside, inside
                assert all(f"│{c.label()}" in inside for c in cards), inside


@pytest.mark.slow
async def test_a_tall_opponents_box_charts_its_points_hand_by_hand():
    """Later in a game, a tall box's last rows chart what the opponent made
    in each hand, on one scale for both opponents, the points under the bars."""
    app = make_app(7)
    async with app.run_test(size=(200, 60)) as pilot:
        screen = await until(pilot, lambda s: my_play(s) and s.view.hand_number >= 3,
                             presses=3000)
        await pilot.pause()
        view = screen.view
        rows = screen_text(app).splitlines()
        for panel in screen.table_view.panels():
            region = panel.region
            box = [row[region.x:region.right] for row in rows[region.y:region.bottom]]
            title = next(i for i, row in enumerate(box) if "hand by hand" in row)
            totals = [0, *(scores[panel.seat] for scores in view.hand_scores)]
            gains = [b - a for a, b in zip(totals, totals[1:])]
            figures = next(row for row in box[title + 1:] if re.search(r"\d", row))
            assert [int(n) for n in re.findall(r"\d+", figures)] == gains, (figures, gains)
            assert any(c in "".join(box[title + 1:]) for c in "▁▂▃▄▅▆▇█"), box


@pytest.mark.parametrize("size", [(160, 50), (200, 60)])
async def test_from_50_rows_the_lines_under_the_table_do_not_repeat_the_feed_beside_it(size):
    """With the feed beside the table, lines under it would say again what
    the feed says (a dozen of them from 50 rows): the table takes the rows."""
    app = make_app(7)
    async with app.run_test(size=size) as pilot:
        screen = await until(pilot, lambda s: my_play(s) and bool(s.view.pile))
        await pilot.pause()
        rows = screen_text(app).splitlines()
        feed = screen.query_one("#feed")
        under = rows[screen.table_view.region.bottom:size[1] - 1]
        said = {line.strip() for line in screen.narration}
        repeated = [row[:feed.region.x].strip() for row in under
                    if row[:feed.region.x].strip() in said]
        assert not repeated, under
        assert screen.table_view.hand.region.bottom >= size[1] - 3   # the table takes the rows


def blank_rows_under(app, table) -> list[int]:
    rows = screen_text(app).splitlines()
    return [i for i, row in enumerate(rows[table.region.bottom:len(rows) - 1]) if not row.strip()]


@pytest.mark.parametrize("size", [(120, 40), (200, 60)])
async def test_the_replay_grows_its_table_as_the_table_screen_does(size):
    """The replay at 120x40 left 13 blank rows under a table drawn as at
    80x24: its table takes the rows, its lines under it a few."""
    from logfiles import ASSETS

    from crib3.engine.log import load_log
    from crib3.saved.replay import Replay
    from crib3.tui.screens.replay import ReplayScreen

    app = Crib3App(replay=Replay(load_log(ASSETS / "short-61.jsonl").events), autosave=False)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        for _ in range(30):
            await pilot.press("right")
        await pilot.pause()
        table = app.screen.query_one("TableView")
        assert table.region.height >= size[1] * 2 // 3
        # under it: the status line, a spacer, the last lines (and their unfilled rows)
        recent = app.screen.query_one("#recent")
        assert len(blank_rows_under(app, table)) <= 1 + recent.region.height - 2


async def test_practice_grows_its_table_as_the_table_screen_does():
    from crib3.study.practice import dealt_positions
    from crib3.tui.practice_app import PracticeApp

    app = PracticeApp("play", dealt_positions("play", 5))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: bool(app.screen.query("TableView")))
        await pilot.pause(0.2)
        table = app.screen.query_one("TableView")
        assert blank_rows_under(app, table) == []
        assert table.region.bottom >= 40 - 4


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_dealer_to_play_is_said_on_one_line_of_the_box(size):
    """"dealer · crib · to play" wrapped in a 26-column box ("to" / "play"),
    pushing what is under it down (out of the short box at 80x24)."""
    from logfiles import ASSETS

    from crib3.engine.log import load_log
    from crib3.saved.replay import Replay
    from crib3.tui.screens.replay import ReplayScreen

    app = Crib3App(replay=Replay(load_log(ASSETS / "short-61.jsonl").events), autosave=False)
    async with app.run_test(size=size) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        for _ in range(150):
            await pilot.press("right")
            await pilot.pause()
            panels = app.screen.query_one("TableView").panels()
            acting = [p for p in panels if "to play" in str(p.render())
                      and "dealer" in str(p.render())]
            if acting:
                break
        else:
            raise AssertionError("no dealer to play")
        lines = str(acting[0].render()).splitlines()
        role = next(line for line in lines if "to play" in line)
        assert role.strip().startswith("dealer") and len(role) <= acting[0].content_size.width
        assert not any(line.strip() == "play" for line in lines)


# --- the feed's newest line is never under the footer ----------------------

@pytest.mark.parametrize("size,open_feed", [((120, 36), False), ((200, 60), False),
                                            ((80, 24), True)])
async def test_the_feeds_newest_line_is_above_the_footer(size, open_feed):
    """Docked beside the table the feed was the screen's height, so its
    last row, where the newest line ends, was under the footer (seen in
    tmux at 120x36: "Cal's crib A♠ 7♠ 9♥ J♣ with 2♣:" and no "nobs is
    one; Cal has 14."). At 80 columns, opened under the table, the same."""
    from crib3.tui.widgets.feed import Feed
    from crib3.tui.widgets.footer import TidyFooter

    app = make_app(5)
    async with app.run_test(size=size) as pilot:
        screen = await until(pilot, lambda s: s.shown.phase == Phase.SHOW)
        if open_feed:
            await pilot.press("f")
            screen = await settled(pilot)
        feed, footer = screen.query_one(Feed), screen.query_one(TidyFooter)
        assert feed.region.width > 0 and feed.scroll_y == feed.max_scroll_y
        assert feed.scrollable_content_region.bottom <= footer.region.y
        last = feed.lines[-1].text.strip()
        assert last in screen_text(app), (last, screen_text(app))
