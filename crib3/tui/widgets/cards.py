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


def big_face_lines(card: Card, ascii: bool = False, selected: bool = False,
                   dim: bool = False, marked: bool = False) -> list[Text]:
    """A card six lines tall and seven wide, for a tall terminal: the small
    face's frame and corner, with room for the suit in the middle.

        ┌─────┐
        │10♥  │
        │     │
        │  ♥  │
        │    ♥│
        └─────┘
    """
    small = face_lines(card, ascii, selected, dim, marked)
    top, first, second, bottom = small
    h = top.plain[1]
    v = first.plain[0]
    frame = top.style
    style = card_style(card) + (" dim" if dim else "")
    suit = card.label(ascii)[-1]

    def edge(line: Text) -> Text:
        return line[:1] + Text(h, style=frame) + line[1:-1] + Text(h, style=frame) + line[-1:]

    def row(inner: Text) -> Text:
        return Text(v, style=frame) + inner + Text(v, style=frame)

    return [edge(top), row(first[1:-1] + Text("  ")), row(Text("     ")),
            row(Text("  ") + Text(suit, style=style) + Text("  ")),
            row(second[1:2] + Text("   ") + Text(suit, style=style)), edge(bottom)]


def large_face_lines(card: Card, ascii: bool = False, selected: bool = False,
                     dim: bool = False, marked: bool = False) -> list[Text]:
    """A card seven lines tall and nine wide, for the hand on the biggest
    terminals (60 rows and more): the big face, one column and row roomier.

        ┌───────┐
        │10♥    │
        │       │
        │   ♥   │
        │       │
        │      ♥│
        └───────┘
    """
    return _roomy_face(face_lines(card, ascii, selected, dim, marked), inside=7, air=1)


def row_of_faces(faces: Sequence[list[Text]], gap: int = 1) -> list[Text]:
    """Card faces side by side, as lines."""
    lines = []
    for row in range(len(faces[0]) if faces else FACE_HEIGHT):
        line = Text()
        for i, face in enumerate(faces):
            if i:
                line.append(" " * gap)
            line.append_text(face[row])
        lines.append(line)
    return lines


# --- the pile: small faces, fanned as on a table, and the count in large digits

SMALL_FACE_HEIGHT = 3
FAN_STRIDE = 4  # columns of an overlapped card that show: "│10♥"


def small_face_lines(card: Card, ascii: bool = False, mark: Text | None = None,
                     dim: bool = False) -> list[Text]:
    """A card three lines tall and five wide, for the pile; `mark` (who
    played it) sits in its bottom edge, where it stays visible when the next
    card overlaps this one:

        ┌───┐
        │10♥│
        └▼──┘
    """
    h, v, tl, tr, bl, br = ("-", "|", "+", "+", "+", "+") if ascii else \
        ("─", "│", "┌", "┐", "└", "┘")
    frame = "dim" if dim else ""
    style = card_style(card) + (" dim" if dim else "")
    top = Text(tl + h * 3 + tr, style=frame)
    middle = Text(v, style=frame) + Text(f"{card.label(ascii):<3}", style=style) + \
        Text(v, style=frame)
    bottom = Text(bl, style=frame) + (mark or Text(h, style=frame)) + Text(h * 2 + br, style=frame)
    return [top, middle, bottom]


def fanned(faces: Sequence[list[Text]], stride: int = FAN_STRIDE) -> list[Text]:
    """Faces overlapped left to right, each showing its first `stride`
    columns and the last one whole, as cards played onto a pile."""
    if not faces:
        return []
    lines = []
    for row in range(len(faces[0])):
        line = Text()
        for face in faces[:-1]:
            part = face[row][:stride]
            part.pad_right(stride - part.cell_len)  # side by side: a gap
            line.append_text(part)
        line.append_text(faces[-1][row])
        lines.append(line)
    return lines


def fanned_width(n: int, stride: int = FAN_STRIDE, face_width: int = FACE_WIDTH) -> int:
    return 0 if n == 0 else stride * (n - 1) + face_width


# Digits three lines tall and three wide, for the running count.
_BIG_DIGITS = {
    "0": ("┌─┐", "│ │", "└─┘"), "1": (" ╷ ", " │ ", " ╵ "), "2": ("╶─┐", "┌─┘", "└─╴"),
    "3": ("╶─┐", "╶─┤", "╶─┘"), "4": ("╷ ╷", "└─┤", "  ╵"), "5": ("┌─╴", "└─┐", "╶─┘"),
    "6": ("┌─╴", "├─┐", "└─┘"), "7": ("╶─┐", "  │", "  ╵"), "8": ("┌─┐", "├─┤", "└─┘"),
    "9": ("┌─┐", "└─┤", "╶─┘"),
}


def big_number(n: int) -> list[str]:
    """`n` in digits three lines tall (one column between digits)."""
    digits = [_BIG_DIGITS[d] for d in str(n)]
    return [" ".join(d[row] for d in digits) for row in range(3)]


def big_number_width(n: int) -> int:
    return 4 * len(str(n)) - 1


# Digits seven lines tall and seven wide, in heavy lines (the look of
# Textual's bold `Digits`, drawn larger), for the count on a big table: read
# from across the room, as the count said aloud at a real table is heard.
# Drawn here five by five; `_stretched` lengthens their strokes.
_LARGE_DIGITS = {
    "0": ("┏━━━┓", "┃   ┃", "┃   ┃", "┃   ┃", "┗━━━┛"),
    "2": ("╺━━━┓", "    ┃", "┏━━━┛", "┃    ", "┗━━━╸"),
    "3": ("╺━━━┓", "    ┃", " ━━━┫", "    ┃", "╺━━━┛"),
    "4": ("╻   ╻", "┃   ┃", "┗━━━┫", "    ┃", "    ╹"),
    "5": ("┏━━━╸", "┃    ", "┗━━━┓", "    ┃", "╺━━━┛"),
    "6": ("┏━━━╸", "┃    ", "┣━━━┓", "┃   ┃", "┗━━━┛"),
    "7": ("╺━━━┓", "    ┃", "    ┃", "    ┃", "    ╹"),
    "8": ("┏━━━┓", "┃   ┃", "┣━━━┫", "┃   ┃", "┗━━━┛"),
    "9": ("┏━━━┓", "┃   ┃", "┗━━━┫", "    ┃", "╺━━━┛"),
}
_LARGE_ONE = ("  ╺┓   ", *(["   ┃   "] * 5), "  ╺┻╸  ")
LARGE_DIGIT_HEIGHT = 7


def _stretched(digit: tuple[str, ...]) -> tuple[str, ...]:
    """A five-by-five digit seven by seven: its upright strokes (the second
    and fourth rows) twice as tall, its middle column three times as wide."""
    rows = (digit[0], digit[1], digit[1], digit[2], digit[3], digit[3], digit[4])
    return tuple(row[:2] + row[2] * 3 + row[3:] for row in rows)


_LARGE = {"1": _LARGE_ONE, **{d: _stretched(rows) for d, rows in _LARGE_DIGITS.items()}}


def large_number(n: int) -> list[str]:
    """`n` in digits seven lines tall (one column between digits)."""
    digits = [_LARGE[d] for d in str(n)]
    return [" ".join(d[row] for d in digits) for row in range(LARGE_DIGIT_HEIGHT)]


def large_number_width(n: int) -> int:
    return 8 * len(str(n)) - 1


def huge_face_lines(card: Card, ascii: bool = False, selected: bool = False,
                    dim: bool = False, marked: bool = False) -> list[Text]:
    """A card nine lines tall and eleven wide, for the pile on a table of
    50 rows and more: the large face, two columns and two rows roomier, so
    the cards of the count are the largest thing on the table.

        ┌─────────┐
        │10♥      │
        │         │
        │         │
        │    ♥    │
        │         │
        │         │
        │        ♥│
        └─────────┘
    """
    return _roomy_face(face_lines(card, ascii, selected, dim, marked), inside=9, air=2)


def _roomy_face(small: list[Text], inside: int, air: int) -> list[Text]:
    """The small face (`face_lines`) drawn larger: `inside` cells between
    its sides, the rank at the top left, the suit in the middle with `air`
    blank rows above and below it, and again at the bottom right."""
    top, first, second, bottom = small
    h, v, frame = top.plain[1], first.plain[0], top.style
    corner, suit = second[1:2], second[3:4]

    def edge(line: Text) -> Text:
        return line[:1] + Text(h * inside, style=frame) + line[-1:]

    def row(*inner: Text) -> Text:
        line = Text(v, style=frame)
        for part in inner:
            line.append_text(part)
        return line + Text(v, style=frame)

    def blanks() -> list[Text]:  # (each line its own: a caller may style one)
        return [row(Text(" " * inside)) for _ in range(air)]

    margin = " " * ((inside - 1) // 2)
    return [edge(top), row(first[1:-1], Text(" " * (inside - 3))), *blanks(),
            row(Text(margin), suit, Text(margin)), *blanks(),
            row(corner, Text(" " * (inside - 2)), suit), edge(bottom)]
