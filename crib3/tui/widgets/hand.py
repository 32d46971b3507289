"""Your hand: large cards, a cursor, the playable ones lit, the rest dimmed."""

from __future__ import annotations

from collections.abc import Hashable
from typing import NamedTuple

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from crib3.cards import Card
from crib3.engine import Discard, Play, SeatView
from crib3.engine.state import Phase
from crib3.tui.widgets.cards import (
    big_face_lines,
    card_style,
    face_lines,
    huge_face_lines,
    large_face_lines,
    row_of_faces,
)
from crib3.tui.widgets.shared_render import SharedRender
from crib3.tui.widgets.turn_marker import TurnMarked

BIG_FACES_FROM = 6  # rows of content from which the hand's cards are drawn big
LARGE_FACES_FROM = 7  # and larger still (the biggest terminals)
HUGE_FACES_FROM = 9  # and as large as the pile's on a table of 50 rows and more


class ShownCount(NamedTuple):
    """A hand being counted in the show: whose, its cards and the starter,
    the cards of the phrase being said (lit), the phrases said so far and,
    once the count is done, its total."""

    title: str
    cards: tuple[Card, ...]
    starter: Card
    lit: frozenset[Card]
    said: tuple[str, ...] = ()
    total: int | None = None


class HandView(TurnMarked, SharedRender, Widget):
    """Draws the human seat's cards from its view. The screen moves the
    cursor (arrows, digits) and reads `selected`; this widget never talks
    to the engine."""

    DEFAULT_CSS = """
    HandView { height: 4; width: 1fr; padding: 0 1; }
    """
    # Its turn's look (see TurnMarked), in the CSS of the box it is drawn in
    # (TableView's).
    COMPONENT_CLASSES = {"hand-view--to-act"}
    MARKED = "hand-view--to-act"

    # Repainted by `watch_view` only when what is drawn changed: a new view
    # comes with every event, and most leave the hand as it was.
    view: reactive[SeatView | None] = reactive(None, repaint=False)
    cursor: reactive[int] = reactive(0)
    showing: reactive[ShownCount | None] = reactive(None)

    def __init__(self, ascii: bool = False, interactive: bool = True, **kwargs) -> None:
        """`interactive=False` (replay): the cards are shown, never offered."""
        super().__init__(**kwargs)
        self.ascii = ascii
        self.interactive = interactive
        self._drawn: tuple[object, ...] | None = None  # what the last view drew

    class Picked(Message):
        """A card in the hand was clicked: its number (1 for the first), as
        the number keys give it."""

        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def on_click(self, event: events.Click) -> None:
        """A click on a card the seat may use now picks it, as its number
        key does (the screen decides what a pick does; a click between cards,
        or while a count is shown, does nothing)."""
        cards = self.cards()
        offset = event.get_content_offset(self)
        if offset is None or self.showing is not None or not cards or not self.choosable():
            return
        stride = self._face(cards[0], self.ascii)[0].cell_len + 1  # a face and the gap
        index, within = divmod(offset.x, stride)
        if index < len(cards) and within < stride - 1:
            event.stop()
            self.post_message(self.Picked(index + 1))

    def cards(self) -> tuple[Card, ...]:
        view = self.view
        if view is None:
            return ()
        if view.phase == Phase.SHOW or (view.phase == Phase.PLAY and not view.hand):
            return view.kept
        return view.hand

    def choosable(self) -> frozenset[Card]:
        """Cards the seat may use now (none when it is not its turn)."""
        view = self.view
        if view is None or not self.interactive:
            return frozenset()
        return frozenset(c.card for c in view.legal if isinstance(c, (Discard, Play)))

    @property
    def selected(self) -> Card | None:
        cards = self.cards()
        if not cards:
            return None
        return cards[min(self.cursor, len(cards) - 1)]

    def move(self, step: int) -> None:
        cards = self.cards()
        if cards:
            self.cursor = (min(self.cursor, len(cards) - 1) + step) % len(cards)

    def watch_view(self, old: SeatView | None, new: SeatView | None) -> None:
        drawn = (self.cards(), self.choosable(), new.phase if new is not None else None)
        if drawn != self._drawn:
            self._drawn = drawn
            self.refresh()
        cards = self.cards()
        if cards:
            self.cursor = min(self.cursor, len(cards) - 1)
            choosable = self.choosable()
            if choosable and self.selected not in choosable:
                self.cursor = next(i for i, c in enumerate(cards) if c in choosable)

    def render_key(self) -> Hashable:
        """What `render` draws (the size is the cache's): a class change
        (your turn) repaints the box, and its cards need not be drawn again."""
        view = self.view
        return (self.cards(), self.choosable(), view.phase if view is not None else None,
                self.cursor, self.showing, self.ascii)

    def render(self) -> Text:
        if self.showing is not None:
            return self._render_count(self.showing)
        cards = self.cards()
        view = self.view
        if view is None or not cards:
            return Text("\n  (no cards in hand)", style="dim")
        choosable = self.choosable()
        active = bool(choosable)
        in_play = view.phase == Phase.PLAY
        faces = []
        draw = self._face
        for i, c in enumerate(cards):
            faces.append(draw(
                c, self.ascii,
                selected=active and i == self.cursor,
                dim=active and in_play and c not in choosable,
            ))
        # Each card's number (its key) sits in its bottom edge: no row of
        # its own, so the box is a row shorter and the log under it a row longer.
        for i, face in enumerate(faces):
            style = "bold reverse" if active and i == self.cursor else "dim"
            face[-1] = _numbered(face[-1], str(i + 1), style)
        return Text("\n").join(row_of_faces(faces))

    @property
    def _face(self):
        """The cards' size: big when the box is tall enough (a taller
        terminal), larger when taller still, else the usual four lines."""
        rows = self.content_size.height
        if rows >= HUGE_FACES_FROM:
            return huge_face_lines
        if rows >= LARGE_FACES_FROM:
            return large_face_lines
        return big_face_lines if rows >= BIG_FACES_FROM else face_lines

    def _render_count(self, shown: ShownCount) -> Text:
        lit = shown.lit
        draw = self._face
        faces = [draw(c, self.ascii, selected=c in lit, dim=bool(lit) and c not in lit)
                 for c in shown.cards]
        starter = draw(shown.starter, self.ascii, selected=shown.starter in lit,
                             dim=bool(lit) and shown.starter not in lit)
        lines = row_of_faces([*faces, starter])
        # A wider gap before the starter, so it reads as apart from the hand.
        gap = (faces[0][0].cell_len + 1) * len(faces) if faces else 0
        lines = [line[:gap] + Text("  ") + line[gap:] for line in lines]
        # Beside the cards: whose count and the starter, the count a phrase
        # a line (packed when they are many, the latest kept), the total.
        title = Text(shown.title, style="bold")
        title.append(" · starter ", style="dim")
        title.append(shown.starter.label(self.ascii), style=card_style(shown.starter))
        left = max(line.cell_len for line in lines) + 3
        room = (self.content_size.width or 76) - left
        rows = _packed(shown.said, room, len(lines) - 2)
        rows += [Text()] * (len(lines) - 2 - len(rows))
        total = Text(f"total {shown.total}", style="bold") if shown.total is not None else Text()
        out = []
        for line, said in zip(lines, [title, *rows, total]):
            line = line.copy()
            if said:
                line.pad_right(left - line.cell_len)
                line.append_text(said)
            out.append(line)
        return Text("\n").join(out)


def _numbered(edge: Text, label: str, style: str) -> Text:
    """A card's bottom edge with its number in the middle: "└─2─┘"."""
    middle = (edge.cell_len - len(label)) // 2
    return edge[:middle] + Text(label, style=style) + edge[middle + len(label):]


def _packed(phrases: tuple[str, ...], width: int, rows: int) -> list[Text]:
    """The phrases of a count on at most `rows` lines of `width`: one a
    line while they fit, else as many to a line as fit; the latest win."""
    if len(phrases) <= rows:
        lines = list(phrases)
    else:
        lines = []
        before = ""
        for phrase in phrases:
            # As players say it: "fifteen two, four, six", "and a pair is
            # ten, twelve": a phrase like the one before it gives its total.
            head, _, total = phrase.rpartition(" ")
            short = total if head and before.rpartition(" ")[0] == head else phrase
            if lines and len(lines[-1]) + 2 + len(short) <= width:
                lines[-1] += ", " + short
            else:
                lines.append(phrase)
            before = phrase
    lines = lines[-rows:]
    last = len(lines) - 1
    return [Text(line[:max(0, width)], style="bold" if i == last else "")
            for i, line in enumerate(lines)]
