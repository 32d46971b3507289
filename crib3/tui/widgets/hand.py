"""Your hand: large cards, a cursor, the playable ones lit, the rest dimmed."""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from crib3.cards import Card
from crib3.engine import Discard, Play, SeatView
from crib3.engine.state import Phase
from crib3.tui.widgets.cards import FACE_WIDTH, face_lines, row_of_faces


class ShownCount(NamedTuple):
    """A hand being counted in the show: whose, its cards and the starter,
    and the cards of the phrase being said (lit)."""

    title: str
    cards: tuple[Card, ...]
    starter: Card
    lit: frozenset[Card]


class HandView(Widget):
    """Draws the human seat's cards from its view. The screen moves the
    cursor (arrows, digits) and reads `selected`; this widget never talks
    to the engine."""

    DEFAULT_CSS = """
    HandView { height: 6; width: 1fr; padding: 0 1; }
    """

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
        for i, c in enumerate(cards):
            faces.append(face_lines(
                c, self.ascii,
                selected=active and i == self.cursor,
                dim=active and in_play and c not in choosable,
            ))
        lines = row_of_faces(faces)
        numbers = Text()
        for i in range(len(cards)):
            label = str(i + 1)
            style = "bold reverse" if active and i == self.cursor else "dim"
            numbers.append(f"{label:^{FACE_WIDTH}}", style=style)
            numbers.append(" ")
        return Text("\n").join([*lines, numbers])

    def _render_count(self, shown: ShownCount) -> Text:
        lit = shown.lit
        faces = [face_lines(c, self.ascii, selected=c in lit, dim=bool(lit) and c not in lit)
                 for c in shown.cards]
        starter = face_lines(shown.starter, self.ascii, selected=shown.starter in lit,
                             dim=bool(lit) and shown.starter not in lit)
        lines = row_of_faces([*faces, starter])
        # A wider gap before the starter, so it reads as apart from the hand.
        gap = (FACE_WIDTH + 1) * len(faces)
        lines = [line[:gap] + Text("  ") + line[gap:] for line in lines]
        caption = Text(f"{shown.title}", style="bold")
        caption.append(" " * max(1, gap - len(shown.title) + 1))
        caption.append("starter", style="dim")
        return Text("\n").join([*lines, caption])
