"""The cribbage board widget: where the pegs go, how wide it is, and that it
draws in an app."""

from __future__ import annotations

import pytest
from rich.text import Text

from crib3.tui.widgets.board import (
    ASCII_GLYPHS,
    UNICODE_GLYPHS,
    CribBoard,
    board_height,
    board_lines,
    board_width,
    peg_columns,
    short_names,
)

NAMES = ["Ann", "Kit", "Cy"]  # no letter that is also a peg or a hole
SCORES = [0, 1, 5, 6, 60, 61, 100, 120, 121, 125]
PEG_CHARS = set("●○Oo")


def _holes_width(holes: int, group: int = 1, hole: int = 0) -> int:
    """`group` spaces between groups of five, `hole` between two holes."""
    return holes + hole * (holes - 1) + group * ((holes - 1) // 5)


def expected_place(position: int, target: int, width: int) -> tuple[int, int]:
    """(line of the track, column) of a position, written out from the layout
    the module promises (not from its code): label, start cell, then holes in
    groups of five with spaces between groups, then the game hole. The
    first layout that fits is used: one line a track ("Name   D 121 " label,
    13 columns), the groups three, two or one column apart, then one apart
    with the start and game cells against the holes; then two lines ("Name   "
    label, 7 columns): the holes a column apart and their groups three, then
    the groups four, three, two or one column apart, then the start and game
    cells against the holes."""
    position = max(0, min(position, target))
    layouts = []  # (width, label, start and game gap, street, group gap, hole gap)
    for rows, label, spacings in ((1, 13, [(3, 0, 1), (2, 0, 1), (1, 0, 1), (1, 0, 0)]),
                                  (2, 7, [(2, 1, 1), (4, 0, 1), (3, 0, 1), (2, 0, 1),
                                          (1, 0, 1), (1, 0, 0)])):
        street = (target - 1) // rows
        for group, hole, gap in spacings:
            layouts.append((label + 1 + gap + _holes_width(street, group, hole) + gap + 1,
                            label, gap, street, group, hole))
    fitting = [layout for layout in layouts if layout[0] <= width]
    assert fitting, f"no written-out layout for width {width}"
    _, label, gap, street, group, hole = fitting[0]
    first = label + 1 + gap
    if position == 0:
        return 0, label
    if position == target:
        row = 0 if street == target - 1 else 1
        return row, first + _holes_width(street, group, hole) + gap
    row, index = divmod(position - 1, street)
    return row, first + index * (1 + hole) + group * (index // 5)


def track(lines: list[Text], seat: int, rows: int) -> list[str]:
    return [line.plain for line in lines[seat * rows:(seat + 1) * rows]]


def pegs_in(rows: list[str], glyph: str) -> list[tuple[int, int]]:
    return [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == glyph]


@pytest.mark.parametrize("width", [80, 82, 93, 104, 115, 140, 152, 170, 183, 206, 300])
@pytest.mark.parametrize("target", [121, 61])
@pytest.mark.parametrize("ascii", [False, True])
def test_front_peg_at_the_score(width, target, ascii):
    glyphs = ASCII_GLYPHS if ascii else UNICODE_GLYPHS
    rows = board_height(target, width) // 3
    for score in SCORES:
        # The same score for all three players, the back peg where the front is.
        lines = board_lines(NAMES, [score] * 3, [score] * 3, target, width, ascii)
        for seat in range(3):
            rows_text = track(lines, seat, rows)
            assert pegs_in(rows_text, glyphs.front) == [expected_place(score, target, width)], (
                f"score {score}, seat {seat}, width {width}:\n" + "\n".join(rows_text))
            # Pegs in the same hole: only the front one shows.
            assert pegs_in(rows_text, glyphs.back) == []


@pytest.mark.parametrize("width", [80, 82, 93, 104, 115, 140, 152, 170, 183, 206, 300])
@pytest.mark.parametrize("target", [121, 61])
def test_back_peg_at_the_previous_score(width, target):
    rows = board_height(target, width) // 3
    for back in SCORES:
        front = back + 4
        lines = board_lines(NAMES, [front, 0, 0], [back, 0, 0], target, width)
        rows_text = track(lines, 0, rows)
        if min(back, target) == min(front, target):  # both in the game hole
            assert pegs_in(rows_text, "○") == []
        else:
            assert pegs_in(rows_text, "○") == [expected_place(back, target, width)]
        assert pegs_in(rows_text, "●") == [expected_place(front, target, width)]
        # The other players' tracks are untouched: both pegs at the start.
        for seat in (1, 2):
            other = track(lines, seat, rows)
            assert pegs_in(other, "●") == [expected_place(0, target, width)]
            assert pegs_in(other, "○") == []


def test_the_named_holes_at_80_columns():
    """Spot checks, read straight off the drawing at 80 columns."""
    lines = board_lines(NAMES, [5, 61, 121], [0, 60, 120], 121, 80)
    plain = [line.plain for line in lines]
    # Ann: back peg at the start, front in the fifth hole (end of the first group).
    assert plain[0][7:14] == "○····● "
    # Bob: 60 is the last hole of the first street, 61 the first of the second.
    assert plain[2].endswith("····○")
    assert plain[3][7:14] == " ●···· "
    # Cy: 120 and the game hole at the end of the second street.
    assert plain[5].endswith("····○●")
    assert plain[1].endswith("·◎")  # the empty game hole


def test_negative_scores_are_at_the_start():
    lines = board_lines(NAMES, [-3, 0, 0], [-8, 0, 0], 121, 80)
    assert pegs_in(track(lines, 0, 2), "●") == [(0, 7)]


@pytest.mark.parametrize("target", [121, 61])
@pytest.mark.parametrize("ascii", [False, True])
def test_lines_fit_the_width(target, ascii):
    names = ["Alexandra", "standard-2", "expert-3"]
    for width in [80, 140, *range(40, 200, 7)]:
        lines = board_lines(names, [37, 121, 125], [29, 110, 100], target, width, ascii,
                            dealer=1)
        assert len(lines) == board_height(target, width)
        for line in lines:
            assert line.cell_len <= width, (width, line.plain)


def test_heights():
    assert len(board_lines(NAMES, [0] * 3, [0] * 3, 121, 80)) == 6
    assert len(board_lines(NAMES, [0] * 3, [0] * 3, 121, 140)) == 6
    assert len(board_lines(NAMES, [0] * 3, [0] * 3, 121, 170)) == 3
    assert len(board_lines(NAMES, [0] * 3, [0] * 3, 61, 80)) == 6
    assert len(board_lines(NAMES, [0] * 3, [0] * 3, 61, 100)) == 3


def test_the_board_grows_with_the_width():
    """Issue 12 pt 17: the board is scaled to the width, not 82 columns from
    86 to 159. Wherever it is not yet one line a track, it leaves at most a
    group of holes' worth of width unused up to 120 columns, and grows at
    every step of about ten columns."""
    widths = {width: board_width(121, width) for width in range(82, 300)}
    for width, used in widths.items():
        assert used <= width
        if width < 126:
            assert width - used <= 11, (width, used)
    assert len({widths[w] for w in range(82, 160)}) >= 5
    assert widths[126] > 110 and widths[158] >= 152 and widths[200] > 180


def test_every_width_has_the_front_peg_where_peg_columns_says():
    for width in range(60, 200, 3):
        for target in (121, 61):
            rows = board_height(target, width) // 3
            where = peg_columns(target, width)
            for score in (0, 1, 30, 31, 60, 61, 90, 120, 121):
                lines = board_lines(NAMES, [score] * 3, [score] * 3, target, width)
                place = where[min(score, target)]
                row, col = place
                if col < width:  # a very narrow board is cropped at the right
                    assert track(lines, 0, rows)[row][col] == "●", (width, target, score)


def test_ascii_mode_is_plain_ascii():
    names = ["Alexandra", "standard-2", "expert-3"]
    for width in (80, 140, 170):
        for target in (121, 61):
            lines = board_lines(names, [37, 0, 121], [29, 0, 100], target, width, True,
                                dealer=2)
            for line in lines:
                assert line.plain.isascii(), line.plain
            text = "".join(line.plain for line in lines)
            assert "O" in text and "o" in text and "." in text
    # Names the players typed are made plain too.
    lines = board_lines(["Zoë", "李小龙", "Ann"], [1, 2, 3], [0, 0, 0], 121, 80, True)
    assert lines[0].plain.startswith("Zoe ")
    assert all(line.plain.isascii() for line in lines)


def test_labels_show_names_scores_and_dealer():
    lines = board_lines(["Alexandra", "Bob", "Cy"], [37, 0, 121], [29, 0, 100], 121, 80,
                        dealer=0)
    plain = [line.plain for line in lines]
    assert plain[0].startswith("Alexa… ")
    assert plain[1].startswith("  D 37 ")
    assert plain[2].startswith("Bob    ")
    assert plain[3].startswith("     0 ")
    assert plain[5].startswith("   121 ")
    wide = [line.plain for line in board_lines(["Alexandra", "Bob", "Cy"], [37, 0, 121],
                                               [29, 0, 100], 121, 170, dealer=0)]
    assert wide[0].startswith("Alexa…  D 37 ")
    assert wide[2].startswith("Cy       121 ")


def test_short_names_are_told_apart():
    assert short_names(["expert-1", "expert-2", "You"]) == ["expe…1", "expe…2", "You"]
    assert short_names(["Alexandra", "Bob", "Cy"]) == ["Alexa…", "Bob", "Cy"]
    assert short_names(["standard-1", "standard-2"], 4, "~") == ["st~1", "st~2"]


def test_pegs_have_the_seat_styles():
    lines = board_lines(NAMES, [10, 10, 10], [5, 5, 5], 121, 80)
    for seat, colour in enumerate(["green", "cyan", "magenta"]):
        line = lines[seat * 2]
        for glyph in "●○":
            col = line.plain.index(glyph)
            styles = [span.style for span in line.spans if span.start <= col < span.end]
            assert any(colour in str(style) for style in styles), (seat, glyph, styles)


# --- the widget in an app --------------------------------------------------------


def _app(board: CribBoard):
    from textual.app import App, ComposeResult

    class BoardApp(App):
        def compose(self) -> ComposeResult:
            yield board

    return BoardApp()


@pytest.mark.asyncio
async def test_widget_renders_at_80_columns_and_adapts_to_the_width():
    board = CribBoard()
    app = _app(board)
    async with app.run_test(size=(80, 24)) as pilot:
        board.set_scores(["Ann", "Bob", "Cy"], [37, 12, 121], [29, 0, 110], dealer=1)
        await pilot.pause()
        assert board.region.height == 6
        assert board.region.width == 80
        rendered = board.render()
        assert isinstance(rendered, Text)
        plain = rendered.plain.split("\n")
        assert len(plain) == 6
        assert all(len(line) <= 80 for line in plain)
        assert plain[3].startswith("  D 12")
        # The screen shows the board (the compositor drew it without error).
        assert "●" in app.export_screenshot()

        await pilot.resize_terminal(170, 24)
        await pilot.pause()
        assert board.region.height == 3
        assert len(board.render().plain.split("\n")) == 3

        # Wider than its board: the board grows, and what is left over is
        # shared either side (centred), not all at the right.
        await pilot.resize_terminal(126, 24)
        await pilot.pause()
        rows = board.render().plain.split("\n")
        drawn = [len(row) - len(row.lstrip()) for row in rows[::2]]
        right = 126 - max(len(row) for row in rows)
        assert max(len(row.strip()) for row in rows) > 100
        assert min(drawn) >= 3 and abs(min(drawn) - right) <= 1, (drawn, right)

        board.set_scores(["Ann", "Bob", "Cy"], [37, 12, 61], [29, 0, 55], target=61)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert board.region.height == 6


@pytest.mark.asyncio
async def test_widget_ascii_and_themes():
    board = CribBoard(ascii=True)
    app = _app(board)
    async with app.run_test(size=(80, 24)) as pilot:
        board.set_scores(["Ann", "Bob", "Cy"], [5, 0, 0], [0, 0, 0])
        await pilot.pause()
        assert board.render().plain.isascii()
        dark = board.get_component_rich_style("crib-board--seat-0")
        app.theme = "textual-light"
        await pilot.pause()
        light = board.get_component_rich_style("crib-board--seat-0")
        assert dark.color != light.color  # darker pegs on a light background
