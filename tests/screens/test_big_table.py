"""The big screen used: from 50 rows the count is large, the board roomy
(every fifth hole numbered, a bar to each front peg), the pile's and the
hand's cards larger, and the opponents' boxes no taller than what they
hold. Met as a player meets it at 200x60, the screen read back as text;
the board's drawing checked on its own."""

from __future__ import annotations

from functools import partial

import pytest
from tui_support import assert_7bit, make_app, press_enter_until, screen_text, wait_for

from crib3.engine.state import Phase
from crib3.tui.ascii import to_ascii
from crib3.tui.screens.table import TableScreen
from crib3.tui.widgets.board import peg_columns, roomy_board_height, roomy_board_lines
from crib3.tui.widgets.cards import big_number, large_number
from crib3.tui.words import Mode

BIG = (200, 60)
until = partial(press_enter_until, presses=600)


def a_count_on_the_table(screen) -> bool:
    return screen.mode == Mode.YOUR_TURN and screen.view.phase == Phase.PLAY \
        and len(screen.view.pile) >= 2


async def seeded(pilot) -> None:
    """The table's cut for the starter (Ann's, from the second hand) at the
    same depth in every run, so that each run meets the same game."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, TableScreen))
    pilot.app.screen.rng.seed(7)


def region_rows(rows: list[str], region) -> list[str]:
    return [row[region.x:region.right].ljust(region.width)
            for row in rows[region.y:region.bottom]]


async def test_at_200x60_the_count_is_large_the_pile_huge_the_boxes_fit_what_they_hold():
    app = make_app(7)
    async with app.run_test(size=BIG) as pilot:
        await seeded(pilot)
        screen = await until(pilot, a_count_on_the_table)
        await pilot.pause()
        view = screen.view
        rows = screen_text(app).splitlines()
        center = screen.query_one("#center")
        middle = "\n".join(region_rows(rows, center.region))
        # The count in digits seven rows tall, each row of them at the right.
        digits = large_number(view.count)
        assert len(digits) == 7 and all(d.strip() in middle for d in digits), middle
        assert "\n".join(big_number(view.count)) not in middle
        # The pile's cards eleven columns wide, nine rows tall.
        assert middle.count("┌─────────┐") >= 1, middle
        # Each opponent's box: as tall as its lines, shorter than its row.
        top = screen.query_one("#top")
        for panel in screen.table_view.panels():
            held = len(panel._last_body.split())
            assert panel.outer_size.height == held + 2, (panel, held)
            assert panel.outer_size.height < top.size.height
        # Your cards as large as the pile's.
        hand = region_rows(rows, screen.table_view.hand.region)
        assert sum(row.count("┌─────────┐") + row.count("┏━━━━━━━━━┓") for row in hand) \
            == len(screen.table_view.hand.cards()), hand


async def test_at_200x60_the_board_numbers_every_fifth_hole_and_bars_the_scores():
    app = make_app(7)
    async with app.run_test(size=BIG) as pilot:
        screen = await until(pilot, lambda s: s.shown.phase == Phase.SHOW
                             and s.waiting_for_enter and any(s.view.scores))
        await pilot.pause()
        board = screen.query_one("#board")
        drawn = region_rows(screen_text(app).splitlines(), board.region)
        assert len(drawn) == 9, drawn                      # the scale, and a track and bar each
        where = peg_columns(121, board.size.width)
        scale = drawn[0]
        for hole in range(5, 121, 5):
            column = where[hole][1]
            assert scale[:column + 1].endswith(str(hole)), (hole, scale)
        tracks = [i for i, row in enumerate(drawn) if row.rstrip().endswith("◎")
                  or row.rstrip().endswith("●")]
        assert len(tracks) == 3, drawn
        for seat, i in enumerate(tracks):
            bar = drawn[i + 1].rstrip()
            score = screen.view.scores[seat]
            if score:
                assert bar.lstrip() == "━" * (where[score][1] - where[1][1] + 1), (seat, bar)
                assert drawn[i][len(bar) - 1] == "●", (drawn[i], bar)  # ends at the front peg
            else:
                assert not bar


async def test_the_big_table_in_ascii_mode_is_7bit():
    app = make_app(7, ascii=True)
    async with app.run_test(size=BIG) as pilot:
        await seeded(pilot)
        screen = await until(pilot, lambda s: a_count_on_the_table(s) and any(s.view.scores))
        rows = await assert_7bit(pilot, "the count on a big table")
        text = "\n".join(rows)
        assert all(to_ascii(d).strip() in text for d in large_number(screen.view.count))
        assert any(row.strip().startswith("==") for row in rows)       # a bar, drawn


def test_a_roomy_board_in_one_line_and_in_two_streets():
    names, scores, backs = ["Ann", "Bea", "Cal"], [12, 67, 0], [5, 60, 0]
    one = [line.plain for line in roomy_board_lines(names, scores, backs, width=160)]
    assert len(one) == roomy_board_height(width=160) == 9
    assert one[0].split() == [str(n) for n in range(5, 121, 5)]
    assert one[2].lstrip() == "━" * (peg_columns(121, 160)[12][1] - peg_columns(121, 160)[1][1]
                                      + 1)
    assert one[8] == "" and one[3] == "" and one[6] == ""    # Cal at the start: no bar
    # Two streets: holes 1-60 under their scale, then 61-120 under theirs.
    two = [line.plain for line in roomy_board_lines(names, scores, backs, width=126)]
    assert len(two) == roomy_board_height(width=126) == 9
    assert two[0].split() == [str(n) for n in range(5, 61, 5)]
    assert two[5].split() == [str(n) for n in range(65, 121, 5)]
    assert [row.split()[0] for row in two[1:4]] == names and two[4] == ""
    assert "●" in two[7] and "●" not in two[2]               # Bea's front peg on 67
    # More rows: the tracks apart (two blank lines at most), the board centred.
    tall = [line.plain for line in roomy_board_lines(names, scores, backs, width=160,
                                                       height=16)]
    assert len(tall) == 13 and tall[:2] == ["", ""] and tall[2] == one[0]
    assert tall[5:7] == ["", ""] and tall[7].startswith("Bea")


def test_a_roomy_board_in_ascii_mode():
    lines = roomy_board_lines(["Ann", "Bea", "Cal"], [121, 3, 0], [100, 1, 0], width=160,
                              ascii=True)
    assert all(line.plain.isascii() for line in lines)
    assert lines[2].plain.strip() == "=" * (peg_columns(121, 160)[121][1]
                                            - peg_columns(121, 160)[1][1] + 1)


def blank_band(screen, rows: list[str]) -> int:
    """The most rows in a row that are empty across the whole table (the
    feed beside it aside), between its top and your hand's box."""
    table = screen.table_view.region
    longest = run = 0
    for row in rows[table.y:screen.table_view.hand.region.y]:
        run = run + 1 if not row[table.x:table.right].strip() else 0
        longest = max(longest, run)
    return longest


@pytest.mark.slow
async def test_a_big_table_opens_no_band_of_empty_rows_in_any_phase():
    """From the first deal the opponents' boxes keep the rows of what they
    will hold (the play's cards, the hand-by-hand chart), so the table
    leaves no band of empty rows across it between the boxes and the board,
    at 200x60 and at 160x50, in the discard, the play and the show of the
    first hand (where the boxes held least; the later hands' are the
    snapshots')."""
    phases = {
        "the discard": lambda s: s.mode == Mode.YOUR_TURN and s.view.phase == Phase.DISCARD,
        "the play": a_count_on_the_table,
        "the show": lambda s: s.shown.phase == Phase.SHOW and s.waiting_for_enter,
    }
    app = make_app(7)
    async with app.run_test(size=BIG) as pilot:
        await seeded(pilot)
        bands = {}
        for phase, reached in phases.items():
            screen = await until(pilot, reached)
            for size in ((160, 50), BIG):  # the same moment at both sizes
                await pilot.resize_terminal(*size)
                await pilot.pause()
                await pilot.pause()
                bands[phase, size] = blank_band(screen, screen_text(app).splitlines())
        # The blank line around the board, and the last word's when unsaid.
        assert max(bands.values()) <= 3, bands
