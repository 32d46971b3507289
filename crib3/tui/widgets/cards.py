"""Drawing cards as text: inline labels and the large faces of a hand.

The suit glyph (or letter, in ASCII mode) always carries the suit, so the
cards read the same without colour (NO_COLOR) as with it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from crib3.cards import Card

RED = "bold #e0443e"
BLACK = "bold"
BACK = "#5a7bb5"


def card_style(card: Card) -> str:
    return RED if card.is_red else BLACK


def card_label(card: Card, ascii: bool = False) -> Text:
    """An inline card: "10♥" in red, "5♠" in the text colour."""
    return Text(card.label(ascii), style=card_style(card))


def cards_label(cards: Sequence[Card], ascii: bool = False, sep: str = " ") -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_label(c, ascii))
    return out


def backs(n: int, ascii: bool = False, compact: bool = False) -> Text:
    """`n` face-down cards, small (two columns each, or one when `compact`)."""
    glyph = "#" if ascii else "▒"
    if compact:
        return Text(glyph * n, style=BACK)
    return Text(" ".join([glyph * 2] * n), style=BACK)


FACE_WIDTH = 5
FACE_HEIGHT = 4


def face_lines(card: Card | None, ascii: bool = False, selected: bool = False,
               dim: bool = False, marked: bool = False) -> list[Text]:
    """A card four lines tall and five wide; None draws its back.

        ┌───┐    a selected card has a heavy frame, a dimmed one (not
        │10♥│    playable) is faint, a marked one (chosen to throw) shows
        │  ♥│    an × in its corner
        └───┘
    """
    if ascii:
        tl, tr, bl, br, h, v = "+", "+", "+", "+", "-", "|"
        if selected:
            tl = tr = bl = br = "#"
            h, v = "=", "#"
    elif selected:
        tl, tr, bl, br, h, v = "┏", "┓", "┗", "┛", "━", "┃"
    else:
        tl, tr, bl, br, h, v = "┌", "┐", "└", "┘", "─", "│"
    frame = "bold" if selected else ("dim" if dim else "")
    top = Text(tl + h * 3 + tr, style=frame)
    bottom = Text(bl + h * 3 + br, style=frame)
    if card is None:
        fill = "###" if ascii else "▒▒▒"
        middle = [Text(v, style=frame) + Text(fill, style=BACK) + Text(v, style=frame)
                  for _ in range(2)]
        return [top, *middle, bottom]
    style = card_style(card) + (" dim" if dim else "")
    label = card.label(ascii)
    suit = label[-1]
    first = Text(v, style=frame) + Text(f"{label:<3}", style=style) + Text(v, style=frame)
    corner = ("x" if ascii else "×") if marked else " "
    second = (Text(v, style=frame) + Text(corner, style="bold yellow") + Text(" ")
              + Text(suit, style=style) + Text(v, style=frame))
    return [top, first, second, bottom]


def row_of_faces(faces: Sequence[list[Text]], gap: int = 1) -> list[Text]:
    """Card faces side by side, as lines."""
    lines = []
    for row in range(FACE_HEIGHT):
        line = Text()
        for i, face in enumerate(faces):
            if i:
                line.append(" " * gap)
            line.append_text(face[row])
        lines.append(line)
    return lines
