"""The middle of the table: the hand, the crib, the starter, the count and
the cards of the count."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from crib3.engine import SeatView
from crib3.engine.state import Phase
from crib3.names import shown_name
from crib3.narrate import Voice
from crib3.tui.widgets.cards import backs, card_label, cards_label
from crib3.tui.words import cut_rounds

# Who played each card of the count, as seen from your seat: you below, the
# opponent on your left at the upper left, the next one at the upper right.
SEAT_MARKS = ("▼", "◀", "▶")
SEAT_MARKS_ASCII = ("v", "<", ">")


class TableCenter(Static):
    DEFAULT_CSS = """
    TableCenter { height: 5; width: 1fr; padding: 0 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    view: reactive[SeatView | None] = reactive(None, repaint=False)  # `_draw` repaints

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
                self.update(body, layout=False)  # a fixed size: no layout

    def _body(self, view: SeatView) -> Text:
        names = [shown_name(p.name, 12) for p in view.players]
        top = self._header(view, names)
        if view.phase == Phase.CUT_FOR_DEAL or (view.deal_cuts and not view.hand_number):
            lines = self._cut_lines(view)
            if view.dealer is not None:
                deals = Voice(view).verb(view.dealer, "deals", "deal")
                lines.append(Text(f"{names[view.dealer]} {deals} first", style="bold"))
            return Text("\n").join([Text("Cut for deal", style="bold"), *lines[-4:]])
        starter = Text("starter ")
        if view.starter is not None:
            starter.append_text(card_label(view.starter, self.ascii))
        else:
            starter.append("—", style="dim")
        crib = Text("crib ")
        if view.crib is not None:
            crib.append_text(cards_label(view.crib, self.ascii))
        else:
            crib.append_text(backs(view.crib_size, self.ascii, compact=True) if view.crib_size
                             else Text("—"))
        # Face down the crib fits beside the starter; face up ("crib 3♠ 5♠
        # 9♥ 10♠") it gets a line of its own rather than wrap (five lines:
        # the header, starter, crib, count and pile at most).
        lines = [top, starter + Text("   ") + crib] if view.crib is None else [top, starter, crib]
        if view.phase == Phase.PLAY:  # the show starts with the table cleared
            count = Text("count ", style="dim")
            count.append(f"{view.count:>2}", style="bold reverse")
            lines += [count, self._pile(view)]
        return Text("\n").join(lines)

    def _pile(self, view: SeatView) -> Text:
        """The cards of this count, each after the mark of who played it, on
        one line: when they do not fit, the oldest give way to "…" (the
        latest card is the one that matters now)."""
        width = self.content_size.width or 26
        marks = SEAT_MARKS_ASCII if self.ascii else SEAT_MARKS
        me = view.seat if view.seat is not None else 0
        played: list[Text] = []
        for card, seat in zip(view.pile, view.pile_seats):
            one = Text(marks[(seat - me) % 3], style="dim")
            one.append_text(card_label(card, self.ascii))
            played.append(one)
        cut = False
        while played and sum(len(p) + 1 for p in played) - 1 + (2 if cut else 0) > width:
            played.pop(0)
            cut = True
        line = Text("… ", style="dim") if cut else Text()
        return line + Text(" ").join(played)

    def _header(self, view: SeatView, names: list[str]) -> Text:
        """ "Hand 2 · Bea deals"; between hands (the hand ended, the deal
        passed on, the next not yet shuffled) "Hand 2 over · Cal to deal",
        never the old hand under the new dealer's name."""
        width = self.content_size.width or 26
        top = Text()
        if not view.hand_number:
            if view.dealer is not None:
                deals = Voice(view).verb(view.dealer, "deals", "deal")
                top.append(f"{names[view.dealer]} {deals} first")
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
            top.append(f" · {names[view.dealer]} {Voice(view).verb(view.dealer, 'deals', 'deal')}")
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
