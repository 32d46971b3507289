"""The middle of the table: the hand, the crib, the starter, the count and
the cards of the count."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from crib3.engine import SeatView
from crib3.engine.state import Phase
from crib3.names import shown_name
from crib3.tui.widgets.cards import backs, card_label, cards_label
from crib3.tui.words import cut_rounds

# Who played each card of the count, as seen from your seat: you below, the
# opponent on your left at the upper left, the next one at the upper right.
SEAT_MARKS = ("▼", "◀", "▶")
SEAT_MARKS_ASCII = ("v", "<", ">")


class TableCenter(Static):
    DEFAULT_CSS = """
    TableCenter { height: 5; width: 1fr; padding: 0 1; }
    """

    view: reactive[SeatView | None] = reactive(None)

    def __init__(self, ascii: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.ascii = ascii
        self._last_body: Text | None = None

    def watch_view(self, view: SeatView | None) -> None:
        self._draw(view)

    def on_resize(self) -> None:
        """The cut's names are cut to the width: a wider table says more."""
        self._draw(self.view)

    def _draw(self, view: SeatView | None) -> None:
        if view is not None and view.players:
            body = self._body(view)
            if body != self._last_body:  # unchanged text: no redraw
                self._last_body = body
                self.update(body)

    def _body(self, view: SeatView) -> Text:
        names = [shown_name(p.name, 12) for p in view.players]
        top = self._header(view, names)
        crib = Text("crib ")
        if view.crib is not None:
            crib.append_text(cards_label(view.crib, self.ascii))
        else:
            crib.append_text(backs(view.crib_size, self.ascii, compact=True) if view.crib_size
                             else Text("—"))
        starter = Text("starter ")
        if view.starter is not None:
            starter.append_text(card_label(view.starter, self.ascii))
        else:
            starter.append("—", style="dim")
        line2 = starter + Text("   ") + crib
        line3 = Text()
        line4 = Text()
        if view.phase == Phase.PLAY:  # the show starts with the table cleared
            line3.append("count ", style="dim")
            line3.append(f"{view.count:>2}", style="bold reverse")
            marks = SEAT_MARKS_ASCII if self.ascii else SEAT_MARKS
            for c, s in zip(view.pile, view.pile_seats):
                me = view.seat if view.seat is not None else 0
                line4.append(marks[(s - me) % 3], style="dim")
                line4.append_text(card_label(c, self.ascii))
                line4.append(" ")
        elif view.phase == Phase.CUT_FOR_DEAL or (view.deal_cuts and not view.hand_number):
            lines = self._cut_lines(view)
            if view.dealer is not None:
                lines.append(Text(f"{names[view.dealer]} deals first", style="bold"))
            return Text("\n").join([Text("Cut for deal", style="bold"), *lines[-4:]])
        return Text("\n").join([top, line2, line3, line4])

    def _header(self, view: SeatView, names: list[str]) -> Text:
        """ "Hand 2 · Bea deals"; between hands (the hand ended, the deal
        passed on, the next not yet shuffled) "Hand 2 over · Cal to deal",
        never the old hand under the new dealer's name."""
        width = self.content_size.width or 26
        top = Text()
        if not view.hand_number:
            if view.dealer is not None:
                top.append(f"{names[view.dealer]} deals first")
            return top
        if view.phase == Phase.SHUFFLE:
            top.append(f"Hand {view.hand_number} over", style="bold")
            if view.dealer is not None:
                room = width - len(f"Hand {view.hand_number} over ·  to deal")
                top.append(f" · {shown_name(view.players[view.dealer].name, max(3, room))}"
                           " to deal")
            return top
        top.append(f"Hand {view.hand_number}", style="bold")
        if view.dealer is not None:
            top.append(f" · {names[view.dealer]} deals")
        return top

    def _cut_lines(self, view: SeatView) -> list[Text]:
        """Each round of the cut for deal on a line of its own ("Ann A♥  Bea
        5♣  Cal A♦"), "tie: cut again" between rounds. The names are cut to
        fit the width, so a round never wraps into the next."""
        width = self.content_size.width or 26
        lines: list[Text] = []
        for number, round_ in enumerate(cut_rounds(view.deal_cuts)):
            if number:
                lines.append(Text("tie: cut again", style="bold"))
            room = max(3, (width - 2 * (len(round_) - 1)) // len(round_) - 4)
            line = Text()
            for i, (seat, card) in enumerate(round_):
                if i:
                    line.append("  ")
                line.append(f"{shown_name(view.players[seat].name, room)} ")
                line.append_text(card_label(card, self.ascii))
            lines.append(line)
        return lines
