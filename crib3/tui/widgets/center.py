"""The middle of the table: the hand, the crib, the starter, and the pile:
the cards of the count as small faces in a row, who played each (a mark in
its edge), each score labelled under the card that made it ("pair +2"),
and the running count in large digits beside them.

A count that ends (31, or a go) stays on screen, with its last label,
until the next card is played: a player must have time to read it. What is
drawn is a function of the view alone (the view keeps the count that just
ended), so replay, forwards or back, draws each moment as it was."""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from crib3.cards import Card
from crib3.common.names import shown_name
from crib3.engine import SeatView
from crib3.engine.rules import left_of
from crib3.engine.state import Phase
from crib3.scoring import hand_points, score_play
from crib3.tui.widgets.cards import (
    FACE_HEIGHT,
    FACE_WIDTH,
    backs,
    big_face_lines,
    big_number,
    big_number_width,
    card_label,
    cards_label,
    face_lines,
    fanned,
    fanned_width,
    huge_face_lines,
    large_face_lines,
    large_number,
    large_number_width,
    small_face_lines,
)
from crib3.tui.widgets.shared_render import SharedStatic
from crib3.tui.words import cut_rounds, go_label, pile_labels
from crib3.words.narrate import Voice

# Who played each card of the count, as seen from your seat: you below, the
# opponent on your left at the upper left, the next one at the upper right.
SEAT_MARKS = ("▼", "◀", "▶")
SEAT_MARKS_ASCII = ("v", "<", ">")
LABEL_STYLE = "bold yellow"
# Rows the pile needs below the header and starter lines for full-size faces
# (four rows, the labels' row, and a blank one above); fewer: small faces.
_ROWS_FOR_FULL_FACES = 6
_ROWS_FOR_BIG_FACES = 9  # and for big ones (six rows), on a tall terminal
# And for large ones (seven rows, nine columns) in a wide middle (a big
# terminal's), where eight of them side by side still leave the count room.
_ROWS_FOR_LARGE_FACES = 10
_WIDTH_FOR_LARGE_FACES = 60
# Rows from which the starter and the crib are drawn as cards on the table
# too (five rows in the place of one), the pile's big faces still fitting.
_ROWS_FOR_TABLE_FACES = 15
# On a roomy table (50 rows and more): the pile's huge faces (nine rows,
# eleven columns) and the count in digits five rows tall, where the rows
# under the starter allow them and their labels.
_ROWS_FOR_HUGE_FACES = 13
# The show's hands and crib, counted one after another on the table.
_SHOWN_HANDS = 4
# The rows and columns of a face of each size: small, full, big, large, huge.
_FACE_ROWS = (3, 4, 6, 7, 9)
_FACE_COLUMNS = (FACE_WIDTH, FACE_WIDTH, FACE_WIDTH + 2, FACE_WIDTH + 4, FACE_WIDTH + 6)


class Pile(NamedTuple):
    """The cards of a count as drawn: who played each, the count, and a
    label for the go (or "") under the last card."""

    cards: tuple[Card, ...]
    seats: tuple[int, ...]
    total: int  # the count (not `count`: a tuple's method)
    go: str = ""


def _pile_on_table(view: SeatView) -> Pile:
    """The count on the table: the one being played, or, from its reset
    until the next card, the one that just ended (with its go)."""
    if not view.pile and view.ended:
        cards = tuple(c for c, _ in view.ended)
        count = sum(c.value for c in cards)
        return Pile(cards, tuple(s for _, s in view.ended), count,
                    go_label(1) if count < 31 else "")
    go = go_label(1) if view.count_over and view.pile and view.count < 31 else ""
    return Pile(view.pile, view.pile_seats, view.count, go)


class TableCenter(SharedStatic, Static):
    DEFAULT_CSS = """
    TableCenter { height: 1fr; width: 1fr; padding: 0 1;
                  text-wrap: nowrap; text-overflow: ellipsis; }
    """

    view: reactive[SeatView | None] = reactive(None, repaint=False)  # `_draw` repaints
    # A table of 50 rows and more (set by the table): the pile and the count
    # drawn larger, the rows there are being the table's to use.
    roomy: reactive[bool] = reactive(False, repaint=False)

    def __init__(self, ascii: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.ascii = ascii
        self._last_body: Text | None = None
        # What the hand is called in the heading: None, "Hand 2"; a duplicate
        # board's table names its board instead ("Board 2 of 6"): its game
        # is that one hand, and "Hand 1" would tell nobody where they are.
        self.hand_title: str | None = None

    def watch_view(self, view: SeatView | None) -> None:
        self._draw(view)

    def watch_roomy(self) -> None:
        self._draw(self.view)

    def on_resize(self) -> None:
        """The cut's names are cut to the width: a wider table says more."""
        self._draw(self.view)

    def _draw(self, view: SeatView | None) -> None:
        if view is not None and view.players:
            body = self._body(view)
            if body != self._last_body:  # unchanged text: no redraw
                self._last_body = body
                self.update(body, layout=False)  # a fixed size: no layout

    @property
    def drawn_rows(self) -> int:
        """The rows its lines take from the top: the rest is free (the coach
        may sit there)."""
        return len(self._last_body.split()) if self._last_body is not None else 0

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
        if (self.content_size.height or 6) >= _ROWS_FOR_TABLE_FACES:
            lines = [top, *self._starter_and_crib(view)]
        if view.phase == Phase.SHOW and (self.content_size.height or 6) >= _ROWS_FOR_TABLE_FACES:
            lines += self._counted(view, (self.content_size.height or 6) - len(lines))
        if view.phase == Phase.PLAY:  # the show starts with the table cleared
            rows = (self.content_size.height or 6) - len(lines)
            pile = _pile_on_table(view)
            size = 2 if rows >= _ROWS_FOR_BIG_FACES else 1 if rows >= _ROWS_FOR_FULL_FACES else 0
            if rows >= _ROWS_FOR_LARGE_FACES and self.content_size.width >= _WIDTH_FOR_LARGE_FACES:
                size = 3
                if self.roomy and rows >= _ROWS_FOR_HUGE_FACES:
                    size = 4
            if size:
                lines.append(Text())
            # The labels' rows: one, and those under it the table has to spare
            # (where two scores side by side may then both be said in full).
            spare = rows - (1 if size else 0) - _FACE_ROWS[size] - 1
            lines += self._pile(view, pile, size, labelled=rows >= 4,
                                label_rows=1 + min(2, max(0, spare)))
        return Text("\n").join(lines)

    def _counted(self, view: SeatView, rows: int) -> list[Text]:
        """On a tall table, the hands counted so far in this show, in the
        order they were counted, each what it is worth with the starter:
        as small faces under its name where the rows allow, else a line
        each. So a count said a moment ago can still be read."""
        if view.starter is None or view.dealer is None:
            return []
        left = left_of(view.dealer)
        voice = Voice(view)

        def whose(seat: int) -> str:  # "Your" for a player called You, as the lines say
            return voice.whose(seat, start=True) if seat in voice.you \
                else f"{shown_name(view.players[seat].name, 12)}'s"

        hands = [(f"{whose(seat)} hand", cards, False)
                 for seat in (left, left_of(left), view.dealer)
                 if (cards := view.shown[seat])]
        if view.crib is not None:
            hands.append((f"{whose(view.dealer)} crib", view.crib, True))
        out: list[Text] = []
        faces = rows - 1 >= 4 * len(hands)
        # A roomy table has the rows for the whole show's hands and crib as
        # full cards, a blank line between two (decided for all four, so the
        # cards keep their size as the show goes on).
        full = self.roomy and rows - 1 >= _SHOWN_HANDS * (FACE_HEIGHT + 2)
        for number, (title, cards, crib) in enumerate(hands):
            line = Text(title, style="bold")
            line.append(f"  {hand_points(cards, view.starter, crib)}", style=LABEL_STYLE)
            if full:
                out += [Text()] if number else []
                out.append(line)
                out += fanned([face_lines(c, self.ascii) for c in cards], FACE_WIDTH + 1)
            elif faces:
                out.append(line)
                out += fanned([small_face_lines(c, self.ascii) for c in cards], FACE_WIDTH + 1)
            else:
                line.append("  ")
                line.append_text(cards_label(cards, self.ascii))
                out.append(line)
        return [Text(), *out] if out and len(out) < rows else out[:rows]

    def _starter_and_crib(self, view: SeatView) -> list[Text]:
        """The starter (the deck's back until it is cut) and the crib (its
        backs, fanned, or its cards once turned up) as cards, each named
        above it."""
        starter = face_lines(view.starter, self.ascii)
        if view.crib is not None:
            crib = [face_lines(c, self.ascii) for c in view.crib]
        else:
            crib = [face_lines(None, self.ascii) for _ in range(view.crib_size)]
        stride = FACE_WIDTH + 1 if view.crib is not None else 2
        crib_rows = fanned(crib, stride) if crib else [Text() for _ in starter]
        names = Text("starter" if view.starter is not None else "deck", style="dim")
        names.pad_right(FACE_WIDTH + 3 - names.cell_len)
        names.append("crib", style="dim")
        return [names, *[a + Text("   ") + b for a, b in zip(starter, crib_rows)]]

    def _pile(self, view: SeatView, pile: Pile, size: int, labelled: bool,
              label_rows: int = 1) -> list[Text]:
        """The pile's rows: the faces (`size` 0 small, 1 full, 2 big, 3 large,
        4 huge) side by side when they fit, else fanned (the latest whole;
        the oldest give way to "…"), the count large at the right (larger
        still beside huge faces), the scores labelled under their cards."""
        width = self.content_size.width or 26
        me = view.seat if view.seat is not None else 0
        marks = SEAT_MARKS_ASCII if self.ascii else SEAT_MARKS
        huge = size == 4
        count_width = max(len("count"), (large_number_width if huge else big_number_width)(
            pile.total))
        room = width - count_width - 1
        face_width = _FACE_COLUMNS[size]
        stride = face_width + 1
        if fanned_width(len(pile.cards), stride, face_width) > room:
            stride = 4
        shown = len(pile.cards)
        while shown > 1 and fanned_width(shown, stride, face_width) + \
                (1 if shown < len(pile.cards) else 0) > room:
            shown -= 1
        first = len(pile.cards) - shown
        cut = 1 if first else 0
        # The count stands where eight cards side by side would end (a
        # place of its own that does not move as cards come), or at the edge.
        room = min(room, fanned_width(8, face_width + 1, face_width))
        faces = []
        for card, seat in zip(pile.cards[first:], pile.seats[first:]):
            mark = Text(marks[(seat - me) % 3], style="bold")
            if size:
                face = (face_lines, face_lines, big_face_lines, large_face_lines,
                        huge_face_lines)[size](card, self.ascii)
                edge = face[-1]
                face[-1] = edge[:1] + mark + edge[2:]
            else:
                face = small_face_lines(card, self.ascii, mark)
            faces.append(face)
        rows = fanned(faces, stride) if faces else [Text() for _ in range(_FACE_ROWS[size])]
        if cut:
            middle = len(rows) // 2
            rows = [(Text("…", style="dim") if i == middle else Text(" ")) + r
                    for i, r in enumerate(rows)]
        # The count: its name, then its digits, beside the faces.
        digits = (large_number if huge else big_number)(pile.total)
        beside = [Text("count", style="dim"),
                  *[Text(d, style="bold" if view.pile else "dim") for d in digits]]
        # The labels' rows beside the count's digits end before them; those
        # under the digits may go on under them.
        face_rows = len(rows)
        rooms = [room if face_rows + r < len(beside) else width for r in range(label_rows)]
        labels = self._labels(pile, first, stride, cut, rooms) if labelled else []
        body = [*rows, *labels]
        if len(body) < len(beside):  # no row to spare: the digits alone
            beside = beside[1:]
        out = []
        for i, row in enumerate(body):
            line = row.copy()
            line.pad_right(room + 1 - line.cell_len)
            if i < len(beside):
                line.append_text(beside[i])
            out.append(line)
        return out

    @staticmethod
    def _labels(pile: Pile, first: int, stride: int, cut: int,
                rooms: list[int]) -> list[Text]:
        """The scores made in this count, each under the card that made it:
        starting at that card's left edge, in the first of the rows (each
        `rooms[i]` columns wide) where it fits before the labels right of it (the latest are placed
        first, so the newest score is the one said most fully), as long a
        form as fits there ("run of 4 +4", "run +4", "run+4", "+4": the
        points alone fit under a card that others overlap). None is moved
        under another card, and none is left out."""
        placed: list[list[tuple[int, str]]] = [[] for _ in rooms]
        starts = [room + 2 for room in rooms]  # where each row's labels so far begin
        for i in range(len(pile.cards) - 1, first - 1, -1):
            go = pile.go if i == len(pile.cards) - 1 else ""
            forms = pile_labels(score_play(pile.cards[:i + 1]), go)
            if not forms:
                continue
            x = cut + (i - first) * stride
            # Two columns between labels, so that two never read as one ("pair
            # +2 go +1"); one where the points alone would not fit otherwise.
            chosen = next(((row, form) for gap in (2, 1) for form in forms
                           for row in range(len(placed))
                           if x + len(form) + gap <= starts[row]), None)
            row, form = chosen if chosen is not None else \
                (0, forms[-1][:max(1, starts[0] - 1 - x)])
            placed[row].insert(0, (x, form))
            starts[row] = x
        lines = []
        for labels in placed:
            line = Text()
            for x, label in labels:
                line.pad_right(x - line.cell_len)
                line.append(label, style=LABEL_STYLE)
            lines.append(line)
        while len(lines) > 1 and not lines[-1]:  # no row left blank under the labels
            lines.pop()
        return lines

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
        if view.phase == Phase.SHUFFLE and self.hand_title is not None:
            top.append(f"{self.hand_title} over", style="bold")  # (no deal after a board)
            return top
        if view.phase == Phase.SHUFFLE:
            top.append(f"Hand {view.hand_number} over", style="bold")
            if view.dealer is not None:
                room = width - len(f"Hand {view.hand_number} over ·  to deal")
                top.append(f" · {shown_name(view.players[view.dealer].name, max(3, room))}"
                           " to deal")
            return top
        top.append(self.hand_title or f"Hand {view.hand_number}", style="bold")
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
            cards = [card_label(card, self.ascii) for _, card in round_]
            room = width - 2 * (len(round_) - 1) - sum(c.cell_len + 1 for c in cards)
            fits = _names_in(room, [shown_name(view.players[seat].name) for seat, _ in round_])
            line = Text()
            for i, ((seat, _), card) in enumerate(zip(round_, cards)):
                if i:
                    line.append("  ")
                line.append(f"{shown_name(view.players[seat].name, fits[i])} ")
                line.append_text(card)
            lines.append(line)
        return lines


def _names_in(room: int, names: list[str]) -> list[int]:
    """How long each name may be for all of them to fit in `room` cells: a
    name is cut only when they do not all fit, the longest first, never
    below three cells (so a five-letter name is whole beside two short
    ones, where an equal share each cut it to "Ni…")."""
    sizes = [cell_len(name) for name in names]
    while sum(sizes) > room and max(sizes) > 3:
        longest = sizes.index(max(sizes))
        sizes[longest] -= 1
    return sizes
