"""An opponent's place at the table: name, level, score, role, cards.

In a short box (an 80x24 screen) three lines: the cards, the role, what it
played in this count. A tall box (a bigger terminal) fills its height with
what a player at a real table would look at, as rows allow, most useful
first: the cards as card faces (backs until the show), the role, every card
it has played this hand (this count's bright, the earlier counts' faint),
then its points this hand and this game by source, and hand by hand. From
50 rows a box is as tall as what it holds, and holds the same rows from
the first deal to the last: the play's and the chart's are kept before
they fill, so the table does not open a band of empty rows in the first
hand, nor move as the game goes on."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from crib3.cards import Card
from crib3.common.names import shown_name
from crib3.engine import SeatView
from crib3.engine.state import SOURCES, Phase
from crib3.tui.widgets.cards import (
    FACE_WIDTH,
    backs,
    card_label,
    cards_label,
    face_lines,
    fanned,
    fanned_width,
    small_face_lines,
)
from crib3.tui.widgets.shared_render import SharedStatic
from crib3.tui.widgets.turn_marker import TurnMarked
from crib3.tui.words import points

# Content rows from which the box is drawn tall (faces, the hand's plays,
# the points); an 80x24 screen's box has four.
TALL_FROM = 8
# The hand-by-hand chart's rows at most: in a box that fills its height,
# and in one as tall as what it holds (a table of 50 rows and more), where
# the chart is what takes the rows the box's row of the table has to spare.
CHART, ROOMY_CHART = 8, 12


class SeatPanel(TurnMarked, SharedStatic, Static):
    """One opponent, drawn from the human seat's view: face-down cards until
    the show, the cards it has played in this count, and its go."""

    DEFAULT_CSS = """
    SeatPanel {
        height: 1fr; width: 1fr; border: round $secondary; padding: 0 1;
        border-title-color: $text; border-subtitle-color: $text;
    }
    /* Its turn (see TurnMarked). */
    SeatPanel .seat-panel--to-act { border: heavy $accent; }
    """
    COMPONENT_CLASSES = {"seat-panel--to-act"}
    MARKED = "seat-panel--to-act"

    # No repaint of their own: `_redraw` repaints what changed (a new view
    # comes with every event, most of them change nothing of this seat's).
    view: reactive[SeatView | None] = reactive(None, repaint=False)
    thinking: reactive[bool] = reactive(False, repaint=False)
    # Replay with every hand face up: the cards this seat holds.
    revealed: reactive[tuple[Card, ...] | None] = reactive(None, repaint=False)

    def __init__(self, seat: int, ascii: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.seat = seat
        self.ascii = ascii
        self._last_body: Text | None = None
        self._last_titles: tuple[Text, int] | None = None
        # Who plays this seat now, where the game's player kind no longer
        # says it: a card-room seat given to a computer player (the game
        # still lists the person who sat there).
        self.played_by: str | None = None

    def watch_view(self) -> None:
        self._redraw()

    def watch_thinking(self) -> None:
        self._redraw()

    def watch_revealed(self) -> None:
        self._redraw()

    def on_resize(self) -> None:
        """A taller or wider box shows more (see `_tall_body`)."""
        self._redraw()

    def _redraw(self) -> None:
        view = self.view
        if view is None or not view.players:
            return
        seat = self.seat
        player = view.players[seat]
        # A Text: the title is literal, whatever the name holds ("[/]").
        kind = self.played_by or player.kind
        title = Text(f"{shown_name(player.name, 14)} · {shown_name(kind, 8)}")
        if (title, view.scores[seat]) != self._last_titles:  # a title set is a repaint
            self._last_titles = (title, view.scores[seat])
            self.border_title = title
            self.border_subtitle = points(view.scores[seat], view.rules.target, counted=False)
        self.mark(seat in view.to_act)
        body = self._body(view)
        if body != self._last_body:  # unchanged text: no redraw
            # A fixed size: no layout, unless the box is as tall as what it
            # holds and that is more or fewer lines now.
            lines = len(body.split())
            grown = self._is_auto_height() and (
                self._last_body is None or len(self._last_body.split()) != lines)
            self._last_body = body
            self.update(body, layout=grown)

    def _rows(self) -> int:
        """The rows the box may fill: its own, or where it is as tall as what
        it holds (`height: auto`, on a table of 50 rows and more), those of
        the row of the table it stands in, less its border and padding."""
        if self._is_auto_height() and isinstance(self.parent, Widget):
            return max(0, self.parent.content_size.height - self.styles.gutter.height)
        return self.content_size.height

    def _is_auto_height(self) -> bool:
        height = self.styles.height
        return height is not None and height.is_auto

    def _body(self, view: SeatView) -> Text:
        rows = self._rows()
        if rows >= TALL_FROM:
            return self._tall_body(view, rows, self.content_size.width)
        seat = self.seat
        roles = self._role_words(view)
        line1 = Text()
        shown = view.shown[seat] if view.phase == Phase.SHOW else None
        if shown:
            line1.append_text(cards_label(shown, self.ascii))
        elif self.revealed is not None:
            line1.append_text(cards_label(self.revealed, self.ascii))
        elif view.phase == Phase.DISCARD:
            line1.append_text(backs(view.held[seat], self.ascii))
            line1.append("  threw" if view.discarded[seat] else "", style="dim")
        else:
            line1.append_text(backs(view.held[seat], self.ascii))
        line2 = Text(" · ".join(roles), style="italic")
        # The cards of the count belong to the play: gone when the show starts.
        played = [c for c, s in zip(view.pile, view.pile_seats) if s == seat] \
            if view.phase == Phase.PLAY else []
        line3 = Text()
        if played:
            line3.append("played ", style="dim")
            for i, c in enumerate(played):
                if i:
                    line3.append(" ")
                line3.append_text(card_label(c, self.ascii))
        if view.phase == Phase.PLAY and view.gone[seat]:
            line3.append("  go", style="bold yellow")
        return Text("\n").join([line1, line2, line3])

    def _role_words(self, view: SeatView) -> list[str]:
        """What the seat is now: the dealer, to play, thinking. On one line
        of the box: "dealer · crib · to play" wrapped in a 26-column box and
        pushed the lines under it down, so the crib (the dealer's anyway)
        goes unsaid where the line would not fit."""
        seat = self.seat
        roles = []
        if view.dealer == seat:
            roles.append("dealer · crib")
        if view.phase == Phase.PLAY and view.turn == seat:
            roles.append("to play")
        if self.thinking:
            roles.append("thinking…")
        width = self.content_size.width
        if width and len(" · ".join(roles)) + 8 > width and "dealer · crib" in roles:
            roles[0] = "dealer"  # (+8: room for " · threw" in the discard)
        return roles

    def _roles(self, view: SeatView) -> Text:
        seat = self.seat
        roles = self._role_words(view)
        line = Text(" · ".join(roles), style="italic")
        if view.phase == Phase.DISCARD and view.discarded[seat]:
            line.append(" · " if roles else "")
            line.append("threw", style="dim")
        return line

    def _tall_body(self, view: SeatView, rows: int, width: int) -> Text:
        """The box's `rows` lines: sections in order of use, each drawn only
        when it fits whole, at places that do not move as the hand goes on
        (the plays' rows are kept while the play lasts)."""
        seat = self.seat
        shown = view.shown[seat] if view.phase == Phase.SHOW else None
        cards = shown or self.revealed
        cut = [c for s, c in view.deal_cuts if s == seat][-1:] if not view.hand_number else []
        if cards or cut:  # the cards shown, or before the first deal its cut for deal
            faces = [face_lines(c, self.ascii) for c in (cards or cut)]
        else:
            faces = [face_lines(None, self.ascii) for _ in range(view.held[seat])]
        out = _fit(faces, width) if faces else [Text() for _ in range(4)]
        out.append(self._roles(view))
        # As tall as what it holds (a table of 50 rows and more), the box
        # keeps the rows of what it will hold from the first deal: the
        # play's in every phase, the chart's before the first hand is
        # counted. So it neither grows nor shrinks as the game goes on,
        # and no band of empty rows opens beside it while it is young.
        keeping = self._is_auto_height() and view.hand_number > 0
        if rows - len(out) >= 5:
            if view.phase == Phase.PLAY or (keeping and view.phase == Phase.SHOW
                                            and view.played[seat]):
                out += [Text(), *self._plays(view, width)]
            elif keeping:
                out += [Text() for _ in range(5)]
        # Each section in the first of its forms that fits (roomy, then packed).
        for forms_for in (lambda left: self._points(view),
                          lambda left: self._hands(view, left, keeping)):
            left = rows - len(out) - 1  # after a blank line
            section = next((f for f in forms_for(left) if f and len(f) <= left), None)
            if section:
                out += [Text(), *section]
        return Text("\n").join(out[:rows])

    def _plays(self, view: SeatView, width: int) -> list[Text]:
        """The cards this seat has played this hand as small faces, this
        count's bright and the earlier counts' faint, and its go (in the
        show, where a roomy box keeps them, all faint)."""
        seat = self.seat
        now = {c for c, s in zip(view.pile, view.pile_seats) if s == seat}
        title = Text("played", style="dim")
        if view.gone[seat] and view.phase == Phase.PLAY:
            title.append("  go", style="bold yellow")
        faces = [small_face_lines(c, self.ascii, dim=c not in now) for c in view.played[seat]]
        return [title, *(_fit(faces, width) if faces else [Text() for _ in range(3)])]

    def _points(self, view: SeatView) -> list[list[Text]]:
        """Points this hand, and this game by where they came from: as a
        column of figures (a line a source), or packed on fewer lines."""
        seat = self.seat
        if not view.hand_number:
            return []
        width = self.content_size.width
        before = view.hand_scores[-1][seat] if view.hand_scores else 0
        gained = f"+{view.scores[seat] - before}"
        parts = [(name, view.sources[seat][i]) for i, name in enumerate(SOURCES)
                 if view.sources[seat][i] or name in ("pegging", "hand", "crib")]

        def figure(label: str, value: str, style: str = "") -> Text:
            line = Text(label, style="dim")
            line.append(" " * max(1, width - len(label) - len(value)))
            line.append(value, style=style)
            return line

        column = [figure("this hand", gained, "bold"),
                  *[figure(f"  {name}" if i else f"game: {name}", str(points))
                    for i, (name, points) in enumerate(parts)]]
        packed = [Text.assemble(("this hand ", "dim"), (gained, "bold")),
                  *_packed("this game", [f"{n} {p}" for n, p in parts], width)]
        return [column, packed]

    def _hands(self, view: SeatView, rows: int, roomy: bool = False) -> list[list[Text]]:
        """Points hand by hand, the latest last: as a bar chart `rows` tall
        at most (a bar a hand, its points under it) where there is room,
        else packed on lines. `roomy` (a box as tall as what it holds): the
        bars up to `ROOMY_CHART` rows tall, and before the first hand is
        counted the chart's rows kept under its title, where it will stand."""
        seat = self.seat
        width = self.content_size.width
        totals = [0, *(scores[seat] for scores in view.hand_scores)]
        gains = [after - before for before, after in zip(totals, totals[1:])]
        # The title and the figures' line besides.
        height = min(ROOMY_CHART if roomy else CHART, rows - 2)
        if not gains:
            if not roomy or height < 3:
                return []
            return [[Text("hand by hand", style="dim"), *(Text() for _ in range(height)),
                     Text("after the first show", style="dim")]]
        packed = _packed("hand by hand", [f"{g:+d}" for g in gains], width, sep=" ")
        if height < 3:
            return [packed]
        shown = gains[-max(1, (width + 1) // 3):]
        # One scale for both opponents' charts (the most anyone made in a
        # hand), so their bars compare.
        everyone = [0, *(b - a for old, new in zip(((0, 0, 0), *view.hand_scores),
                                                    view.hand_scores) for a, b in zip(old, new))]
        top = max(max(everyone), 1)
        ramp = _ASCII_RAMP if self.ascii else _RAMP
        chart = [Text("hand by hand", style="dim")]
        for row in range(height - 1, -1, -1):  # the top line first
            line = Text()
            for i, gain in enumerate(shown):
                part = round(gain * height * 8 / top) - row * 8
                glyph = " " if part <= 0 else ramp[min(part, 8) - 1]
                line.append(("" if not i else " ") + glyph * 2,
                            style="bold" if i == len(shown) - 1 else "")
            chart.append(line)
        chart.append(Text(" ".join(f"{min(g, 99):>2}" for g in shown), style="dim"))
        return [chart, packed]


_RAMP = "▁▂▃▄▅▆▇█"  # an eighth of a line to a whole one
_ASCII_RAMP = "__..::##"


def _fit(faces: list[list[Text]], width: int) -> list[Text]:
    """Faces side by side when they fit in `width`, else overlapped (each
    showing its corner, the last whole), else as many of the last as fit."""
    stride = FACE_WIDTH + 1
    if fanned_width(len(faces), stride) > width:
        stride = 4
    while len(faces) > 1 and fanned_width(len(faces), stride) > width:
        faces = faces[1:]
    return fanned(faces, stride)


def _packed(title: str, parts: list[str], width: int, sep: str = " · ",
            rows: int = 3) -> list[Text]:
    """`title` (faint) and `parts` on lines of `width`, never cut within a
    part: at most `rows` lines, the last parts kept."""
    lines = [Text(title, style="dim")]
    for part in parts:
        line = lines[-1]
        joint = sep if line.plain != title else " "
        if line.cell_len + len(joint) + len(part) > width:
            lines.append(Text(part))
        else:
            line.append(joint + part if line.plain != title or joint else part)
    return lines[-rows:]
