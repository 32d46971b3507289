"""The cribbage board: one track of holes per player, each with two pegs.

The front peg stands at the player's score and the back peg at the score
before, so the last move shows, as on a wooden board. Holes run from 1 to
the target (121, or 61 for a short game); the target itself is the *game
hole* at the end of the track, and score 0 is the *start*, a place before
hole 1 where the pegs wait off the board.

Holes are grouped in fives with a gap between groups so they can be counted.
On a narrow screen (under about 160 columns) each track takes two lines,
like the two streets of a real board: holes 1-60 on the first line and
61-120 on the second, with the game hole at the end of the second line. At
80 columns the name is cut to six characters, the start cell sits right
before hole 1 and the game hole right after hole 120 (they have their own
marks, so they are not taken for holes of the groups). On a wide screen each
track is one line. Between those, a wider screen gets a wider board: the
groups of five move apart, then the holes (a column between two holes), so
the board fills the width it has; the widget centres what is left over.

A roomy board (a table of 50 rows and more, `roomy_board_lines`) is read at
a glance from across the table: a scale over the holes numbers every fifth
one, and on one line a track each, a bar in the player's colour under each
track runs to its front peg, so who leads and by how much is seen without
counting holes. On two lines it is laid out in two streets, as a wooden
board is: everyone's holes 1-60 under a scale, then everyone's 61-120.

Front and back pegs differ by shape, not only colour: ``●`` front, ``○``
back, ``·`` an empty hole, ``◎`` the empty game hole; with ``ascii=True``
``O``, ``o``, ``.`` and ``*``.

`board_lines` is the pure drawing (no app needed); `CribBoard` is the
widget, which takes its styles from component classes so a theme can
restyle it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.reactive import reactive
from textual.widget import Widget

from crib3.common.names import shown_name
from crib3.tui.widgets.shared_render import SharedRender

__all__ = [
    "ASCII_GLYPHS",
    "DEFAULT_STYLES",
    "UNICODE_GLYPHS",
    "CribBoard",
    "Glyphs",
    "board_height",
    "board_lines",
    "board_width",
    "peg_columns",
    "roomy_board_height",
    "roomy_board_lines",
    "short_names",
]

GROUP = 5  # holes in a group, between two gaps
NAME_WIDTH = 6  # the most characters of a name the board shows


@dataclass(frozen=True)
class Glyphs:
    """The characters the board is drawn with."""

    front: str
    back: str
    hole: str
    game: str  # the empty game hole
    start: str  # the empty start cell
    ellipsis: str  # ends a shortened name


UNICODE_GLYPHS = Glyphs(front="●", back="○", hole="·", game="◎", start=" ", ellipsis="…")
ASCII_GLYPHS = Glyphs(front="O", back="o", hole=".", game="*", start=" ", ellipsis="~")
# The roomy board's bar under a track, to the front peg.
BAR, ASCII_BAR = "━", "="

# Styles by role, for `board_lines` used without the widget. The widget
# replaces them with its component-class styles. Plain ANSI colours follow the
# terminal's palette, so they read on dark and light backgrounds alike.
DEFAULT_STYLES: dict[str, Style] = {
    "seat-0": Style(color="green", bold=True),
    "seat-1": Style(color="cyan", bold=True),
    "seat-2": Style(color="magenta", bold=True),
    "hole": Style(dim=True),
    "game": Style(bold=True),
    "score": Style(bold=True),
    "dealer": Style(color="yellow", bold=True),
    "scale": Style(dim=True),
}


@dataclass(frozen=True)
class _Layout:
    """How the tracks are laid out at one width."""

    rows: int  # lines per track: 1 or 2
    name_width: int  # characters of the name
    start_gap: int  # spaces between the start cell and hole 1
    game_gap: int  # spaces between the last hole and the game hole
    group_gap: int  # spaces between groups of five holes (besides `hole_gap`)
    hole_gap: int = 0  # spaces between two holes


# Layouts from the most to the least roomy; the first that fits is used. A
# wider terminal gets a wider board: the groups, then the
# holes themselves, move apart, so the board fills the width it has instead
# of staying 82 columns from 86 to 159. The widths are for a 121 board.
_ONE_LINE = [
    _Layout(1, NAME_WIDTH, 1, 1, 3),  # 206
    _Layout(1, NAME_WIDTH, 1, 1, 2),  # 183
    _Layout(1, NAME_WIDTH, 1, 1, 1),  # 160
    _Layout(1, NAME_WIDTH, 0, 0, 1),  # 158
]
_TWO_LINES = [
    _Layout(2, NAME_WIDTH, 1, 1, 2, 1),  # 152: holes a column apart
    _Layout(2, NAME_WIDTH, 1, 1, 4),  # 115
    _Layout(2, NAME_WIDTH, 1, 1, 3),  # 104
    _Layout(2, NAME_WIDTH, 1, 1, 2),  # 93
    _Layout(2, NAME_WIDTH, 1, 1, 1),  # 82 columns for a 121 board
    _Layout(2, NAME_WIDTH, 0, 1, 1),  # 81
    _Layout(2, NAME_WIDTH, 0, 0, 1),  # 80
    _Layout(2, 5, 0, 0, 1),  # 79
    _Layout(2, 4, 0, 0, 1),  # 78 (a bordered panel on an 80-column screen)
    _Layout(2, NAME_WIDTH, 1, 1, 0),  # 71: no gaps between groups
    _Layout(2, 4, 0, 0, 0),  # 67, the last resort (narrower is cropped)
]
_SCORE_WIDTH = 5  # "D 121": the dealer mark and the score
_MIN_SCORE_WIDTH = 4  # "D121"


def _street(target: int, rows: int) -> int:
    """Holes on the first line of a track (the others follow on the second)."""
    holes = max(target - 1, 1)
    return -(-holes // rows)


def _holes_width(count: int, group_gap: int, hole_gap: int = 0) -> int:
    if count <= 0:
        return 0
    return count + hole_gap * (count - 1) + group_gap * ((count - 1) // GROUP)


def _hole_offset(index: int, layout: _Layout) -> int:
    """Columns from the street's first hole to its hole number `index` (0-based)."""
    return index * (1 + layout.hole_gap) + layout.group_gap * (index // GROUP)


def _label_width(layout: _Layout) -> int:
    """Columns before the start cell, the separating space included."""
    if layout.rows == 1:
        # "Claire D 121 ": name, dealer mark, score, space.
        return layout.name_width + 1 + _SCORE_WIDTH + 1
    return max(layout.name_width, _MIN_SCORE_WIDTH) + 1


def _layout_width(layout: _Layout, target: int) -> int:
    street = _street(target, layout.rows)
    return (
        _label_width(layout)
        + 1 + layout.start_gap
        + _holes_width(street, layout.group_gap, layout.hole_gap)
        + layout.game_gap + 1
    )


def _choose_layout(target: int, width: int) -> _Layout:
    for layout in (*_ONE_LINE, *_TWO_LINES):
        if _layout_width(layout, target) <= width:
            return layout
    return _TWO_LINES[-1]


def board_height(target: int = 121, width: int = 80, players: int = 3) -> int:
    """Lines the board takes at this width: two a player, or one when wide."""
    return _choose_layout(target, width).rows * players


def board_width(target: int = 121, width: int = 80) -> int:
    """Columns the board's lines take at most when `width` are available."""
    return min(_layout_width(_choose_layout(target, width), target), max(width, 0))


def short_names(names: Sequence[str], width: int = NAME_WIDTH, ellipsis: str = "…") -> list[str]:
    """Names cut to `width` characters, still told apart where the whole
    names differ only at the end ("expert-1", "expert-3" -> "exper…1"...)."""
    names = [" ".join(str(n).split()) for n in names]
    if width <= 0:
        return ["" for _ in names]
    for tail in range(width - 1):
        cut = [
            n if len(n) <= width
            else n[: width - 1 - tail] + ellipsis + (n[len(n) - tail:] if tail else "")
            for n in names
        ]
        if len(set(cut)) == len(set(names)):
            return cut
    return [n[:width] for n in names]


def _ascii_only(name: str) -> str:
    """A name for ASCII mode: accents dropped, other letters as "?"."""
    decomposed = unicodedata.normalize("NFKD", str(name))
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(c if c.isascii() else "?" for c in plain)


def _clamp(score: int, target: int) -> int:
    return max(0, min(int(score), target))


def peg_columns(target: int, width: int) -> dict[int, tuple[int, int]]:
    """Where each position 0..target is drawn: position -> (line of the
    track, column). 0 is the start cell and `target` the game hole. Used by
    the tests, and handy for a mouse tooltip."""
    layout = _choose_layout(target, width)
    street = _street(target, layout.rows)
    label = _label_width(layout)
    first = label + 1 + layout.start_gap  # column of hole 1 (and 61)
    where = {0: (0, label)}
    for hole in range(1, target):
        row, index = divmod(hole - 1, street)
        where[hole] = (row, first + _hole_offset(index, layout))
    last_row = (target - 2) // street if target > 1 else 0
    last_count = target - 1 - last_row * street
    where[target] = (
        last_row,
        first + _holes_width(last_count, layout.group_gap, layout.hole_gap) + layout.game_gap,
    )
    return where


def _score_label(score: int, dealer: bool, width: int, style_of: Mapping[str, Style]) -> Text:
    """The score right-aligned in `width` columns, after "D" for the dealer."""
    label = Text()
    if dealer:
        label.append("D", style_of.get("dealer", Style()))
        if len(str(score)) + 2 <= width:
            label.append(" ")
    label.append(str(score), style_of.get("score", Style()))
    label.pad_left(max(width - label.cell_len, 0))
    return label


def board_lines(
    names: Sequence[str],
    scores: Sequence[int],
    back_pegs: Sequence[int],
    target: int = 121,
    width: int = 80,
    ascii: bool = False,
    *,
    dealer: int | None = None,
    styles: Mapping[str, Style] | None = None,
) -> list[Text]:
    """The board as lines of text, no longer than `width` (a narrower
    width than the most compact layout is cropped).

    One track a player, in seat order; two lines a track (holes 1 to 60 and
    61 to 120 and the game hole) or one on a wide screen. The front peg is at
    the score, the back peg at `back_pegs`; both are clamped to 0..target
    (the start and the game hole). Where the pegs share a hole the front peg
    shows. `styles` maps "seat-0".."seat-2", "hole", "game", "score" and
    "dealer" to Rich styles (missing ones come from DEFAULT_STYLES).
    """
    return [row for track in _tracks(names, scores, back_pegs, target, width, ascii, dealer,
                                     styles, _track_rows)
            for row in track]


def roomy_board_height(target: int = 121, width: int = 80, players: int = 3) -> int:
    """Lines a roomy board takes at this width: on one line a scale and
    two lines a player (the track, its bar), a blank line between two
    players; on two, a scale and a line a player for each street, a blank
    line between the streets."""
    if _choose_layout(max(int(target), 2), width).rows == 1:
        return 1 + 2 * players + max(0, players - 1)
    return 2 * (1 + players) + 1


def roomy_board_lines(
    names: Sequence[str],
    scores: Sequence[int],
    back_pegs: Sequence[int],
    target: int = 121,
    width: int = 80,
    ascii: bool = False,
    *,
    dealer: int | None = None,
    styles: Mapping[str, Style] | None = None,
    draw_track: Callable[..., Sequence[Text]] | None = None,
    height: int | None = None,
) -> list[Text]:
    """The board for a table with rows to spare (see the module's words):
    `board_lines`' tracks, with the scale over them and, on one line, the
    bars under them. Same arguments as `board_lines`, and the `height` to
    draw in (`roomy_board_height` unless said: on one line a blank line
    between two players); given more rows, the players' tracks move apart
    (two blank lines between two at most) and the board stands in the
    middle of the rows."""
    target = max(int(target), 2)
    width = max(int(width), 0)
    style_of = dict(DEFAULT_STYLES)
    if styles:
        style_of.update(styles)
    tracks = _tracks(names, scores, back_pegs, target, width, ascii, dealer, styles,
                     draw_track or _track_rows)
    where = peg_columns(target, width)
    streets = _choose_layout(target, width).rows
    # Groups of lines kept together: a street's scale, then each player's
    # track (and bar); the rows to spare go between two players' tracks.
    groups: list[tuple[bool, list[Text]]] = []  # (a track?, its lines)
    for street in range(streets):
        scale = _scale(where, target, street, width, style_of["scale"])
        groups.append((False, [Text(), scale] if street else [scale]))
        for seat, track in enumerate(tracks):
            group = [track[street]]
            if streets == 1:
                front = _clamp(scores[seat] if seat < len(scores) else 0, target)
                group.append(_bar(where, front, width, ascii,
                                  style_of.get(f"seat-{seat % 3}", Style())))
            groups.append((True, group))
    return _spread(groups, roomy_board_height(target, width, len(tracks)) if height is None
                   else height)


def _spread(groups: list[tuple[bool, list[Text]]], height: int) -> list[Text]:
    """The groups' lines in `height` rows: up to two blank lines between
    two players' tracks, the rest shared above and below."""
    needed = sum(len(lines) for _, lines in groups)
    gaps = [i for i in range(1, len(groups)) if groups[i - 1][0] and groups[i][0]]
    each = min(2, max(0, height - needed) // len(gaps)) if gaps else 0
    out: list[Text] = []
    for i, (_, lines) in enumerate(groups):
        if i in gaps:
            out += [Text() for _ in range(each)]
        out += lines
    above = max(0, height - len(out)) // 2
    return [*(Text() for _ in range(above)), *out]


def _scale(where: Mapping[int, tuple[int, int]], target: int, street: int, width: int,
           style: Style) -> Text:
    """The numbers of every fifth hole of a street, each ending over its
    hole (a number that would run into the one before is left out)."""
    line = Text(no_wrap=True, overflow="crop")
    for hole in range(GROUP, target, GROUP):
        row, column = where[hole]
        number = str(hole)
        start = column - len(number) + 1
        if row != street or start <= line.cell_len:  # (a space before each number)
            continue
        line.pad_right(start - line.cell_len)
        line.append(number, style)
    line.truncate(width)
    return line


def _bar(where: Mapping[int, tuple[int, int]], front: int, width: int, ascii: bool,
         style: Style) -> Text:
    """Under a one-line track: a bar in the player's colour from hole 1 to
    the front peg (none at the start)."""
    line = Text(no_wrap=True, overflow="crop")
    if front:
        first, last = where[1][1], where[front][1]
        line.append(" " * first)
        line.append((ASCII_BAR if ascii else BAR) * (last - first + 1), style)
    line.truncate(width)
    return line


def _tracks(names: Sequence[str], scores: Sequence[int], back_pegs: Sequence[int],
            target: int, width: int, ascii: bool, dealer: int | None,
            styles: Mapping[str, Style] | None, draw_track: Callable[..., Sequence[Text]],
            ) -> list[Sequence[Text]]:
    """Each player's track, as `draw_track` draws it from `_track_rows`'
    arguments (all hashable: a track can be drawn once and kept)."""
    target = max(int(target), 2)
    width = max(int(width), 0)
    glyphs = ASCII_GLYPHS if ascii else UNICODE_GLYPHS
    style_of = dict(DEFAULT_STYLES)
    if styles:
        style_of.update(styles)
    layout = _choose_layout(target, width)
    names = [shown_name(name) for name in names]  # a log's "\x1b[31m" as text, not a colour
    if ascii:
        names = [_ascii_only(name) for name in names]
    shown = short_names(names, layout.name_width, glyphs.ellipsis)
    roles = tuple(sorted(style_of.items()))
    return [draw_track(seat % 3, name,
                       _clamp(scores[seat] if seat < len(scores) else 0, target),
                       _clamp(back_pegs[seat] if seat < len(back_pegs)
                              else (scores[seat] if seat < len(scores) else 0), target),
                       dealer == seat, target, width, layout, glyphs, roles)
            for seat, name in enumerate(shown)]


def _track_rows(colour: int, name: str, front: int, back: int, dealing: bool, target: int,
                width: int, layout: _Layout, glyphs: Glyphs,
                roles: tuple[tuple[str, Style], ...]) -> list[Text]:
    """One player's track: its name in seat colour `colour`, its pegs at
    `front` and `back` (clamped already), the dealer's mark if `dealing`."""
    style_of = dict(roles)
    street = _street(target, layout.rows)
    label_width = _label_width(layout)
    seat_style = style_of.get(f"seat-{colour}", Style())

    def cell(position: int, empty: str, empty_style: str) -> tuple[str, Style]:
        """The glyph and style of one place on this track."""
        if position == front:
            return glyphs.front, seat_style
        if position == back:
            return glyphs.back, seat_style
        return empty, style_of.get(empty_style, Style())

    score_text = _score_label(
        front, dealing, _SCORE_WIDTH if layout.rows == 1 else label_width - 1, style_of,
    )

    name_text = Text(name, seat_style)
    name_text.truncate(layout.name_width, pad=True)  # by cells: wide letters too
    rows = [Text() for _ in range(layout.rows)]
    rows[0].append_text(name_text)
    rows[0].append(" ")
    if layout.rows == 1:
        rows[0].append_text(score_text)
        rows[0].append(" ")
    else:
        rows[0].append(" " * (label_width - 1 - layout.name_width))
        rows[1].append_text(score_text)
        rows[1].append(" ")
    rows[0].append(*cell(0, glyphs.start, "hole"))
    rows[0].append(" " * layout.start_gap)
    for row in rows[1:]:
        row.append(" " * (1 + layout.start_gap))
    for hole in range(1, target):
        line, index = divmod(hole - 1, street)
        if index:
            rows[line].append(" " * (layout.hole_gap
                                     + (layout.group_gap if index % GROUP == 0 else 0)))
        rows[line].append(*cell(hole, glyphs.hole, "hole"))
    rows[-1].append(" " * layout.game_gap)
    rows[-1].append(*cell(target, glyphs.game, "game"))
    for row in rows:
        row.no_wrap = True
        row.overflow = "crop"
        row.truncate(width)
    return rows


# A track drawn for the screen (its runs merged) is kept: at a table most
# events move at most one player's pegs, so the other tracks are taken from
# here (a track's drawing was most of a board's, some 150 runs a line).
# These are shared by every board in the process and never changed (a
# board's lines are joined into a new Text). Some three a table.
TRACKS_KEPT = 128


@lru_cache(maxsize=TRACKS_KEPT)
def _merged_track(colour: int, name: str, front: int, back: int, dealing: bool, target: int,
                  width: int, layout: _Layout, glyphs: Glyphs,
                  roles: tuple[tuple[str, Style], ...]) -> tuple[Text, ...]:
    """`_track_rows`, its runs merged (see `_merged`)."""
    return tuple(_merged(row) for row in _track_rows(colour, name, front, back, dealing, target,
                                                     width, layout, glyphs, roles))


class CribBoard(SharedRender, Widget):
    """The board for three players; call `set_scores` after every score.

    Component classes (restyle them in the app's CSS):

    | class | what |
    | :- | :- |
    | `crib-board--seat-0` .. `--seat-2` | a player's pegs and name |
    | `crib-board--hole` | an empty hole |
    | `crib-board--game` | the empty game hole |
    | `crib-board--score` | the scores |
    | `crib-board--dealer` | the dealer's mark |
    | `crib-board--scale` | the roomy board's numbers over the holes |

    `roomy` (set by the table from 50 rows) draws `roomy_board_lines`.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "crib-board--seat-0",
        "crib-board--seat-1",
        "crib-board--seat-2",
        "crib-board--hole",
        "crib-board--game",
        "crib-board--score",
        "crib-board--dealer",
        "crib-board--scale",
    }

    DEFAULT_CSS = """
    CribBoard {
        height: auto;
        & > .crib-board--seat-0 { color: #5fd787; text-style: bold; }
        & > .crib-board--seat-1 { color: #5fd7ff; text-style: bold; }
        & > .crib-board--seat-2 { color: #ff87d7; text-style: bold; }
        & > .crib-board--hole { color: $foreground-muted; }
        & > .crib-board--game { color: $foreground; text-style: bold; }
        & > .crib-board--score { color: $foreground; text-style: bold; }
        & > .crib-board--dealer { color: $text-warning; text-style: bold; }
        & > .crib-board--scale { color: $foreground-muted; }
        &:light {
            & > .crib-board--seat-0 { color: #1a7f37; }
            & > .crib-board--seat-1 { color: #0969da; }
            & > .crib-board--seat-2 { color: #bf3989; }
        }
        &:ansi {
            & > .crib-board--seat-0 { color: ansi_green; }
            & > .crib-board--seat-1 { color: ansi_cyan; }
            & > .crib-board--seat-2 { color: ansi_magenta; }
        }
    }
    """

    roomy: reactive[bool] = reactive(False, layout=True)

    def __init__(self, ascii: bool = False, **widget_kwargs) -> None:
        super().__init__(**widget_kwargs)
        self.ascii = ascii
        self.names: tuple[str, ...] = ("P1", "P2", "P3")
        self.scores: tuple[int, ...] = (0, 0, 0)
        self.back_pegs: tuple[int, ...] = (0, 0, 0)
        self.target = 121
        self.dealer: int | None = None

    def set_scores(
        self,
        names: Sequence[str],
        scores: Sequence[int],
        back_pegs: Sequence[int],
        target: int = 121,
        dealer: int | None = None,
    ) -> None:
        """Put the pegs where the scores say, and redraw (only if they moved:
        most events move no peg, and a redraw of the board is not free)."""
        if (tuple(names), tuple(scores), tuple(back_pegs), target, dealer) == (
                self.names, self.scores, self.back_pegs, self.target, self.dealer):
            return
        relayout = target != self.target or len(names) != len(self.names)
        self.names = tuple(names)
        self.scores = tuple(scores)
        self.back_pegs = tuple(back_pegs)
        self.target = target
        self.dealer = dealer
        self.refresh(layout=relayout)

    def render_key(self) -> Hashable:
        """What `render` draws (the size is the cache's): every seat of a
        table draws the same board, so it is drawn once (see shared_render)."""
        return (self.names, self.scores, self.back_pegs, self.target, self.dealer, self.ascii,
                self.roomy, tuple(self._styles().items()))

    def _styles(self) -> dict[str, Style]:
        return {
            role: self.get_component_rich_style(f"crib-board--{role}")
            for role in DEFAULT_STYLES
        }

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """With `width: auto`, as wide as the board drawn in the room there is."""
        return board_width(self.target, container.width)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if self.roomy:
            return roomy_board_height(self.target, width, len(self.names))
        return board_height(self.target, width, len(self.names))

    def render(self) -> Text:
        width = self.size.width
        if self.roomy:
            lines = roomy_board_lines(self.names, self.scores, self.back_pegs, self.target, width,
                                      self.ascii, dealer=self.dealer, styles=self._styles(),
                                      draw_track=_merged_track, height=self.size.height)
        else:
            lines = [row for track in _tracks(self.names, self.scores, self.back_pegs,
                                              self.target, width, self.ascii, self.dealer,
                                              self._styles(), _merged_track)
                     for row in track]
        # Centred in the width: the columns no layout uses, shared either side.
        margin = " " * max(0, (width - board_width(self.target, width)) // 2)
        text = Text("\n").join([Text(margin) + line if margin else line for line in lines])
        text.no_wrap = True
        text.overflow = "crop"
        return text


def _merged(line: Text) -> Text:
    """The same line with neighbouring characters of one style in one span:
    a track is some 150 one-character spans, and every span costs Textual
    a style conversion on every frame."""
    styles: list[str | Style | None] = [None] * len(line.plain)
    for span in line.spans:
        for i in range(span.start, min(span.end, len(styles))):
            styles[i] = span.style
    out = Text(style=line.style)
    plain = line.plain
    start = 0
    for i in range(1, len(plain) + 1):
        if i == len(plain) or styles[i] != styles[start]:
            out.append(plain[start:i], styles[start] or "")
            start = i
    return out
