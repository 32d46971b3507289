"""ASCII mode: one switch for the whole app, for terminals that are not UTF-8.

A terminal in the C locale (or ISO-8859-1, or an SSH client that says so)
shows a UTF-8 "╭" as two or three wrong characters. In ASCII mode the app
draws nothing above 127, by three means, each for what it does best:

* `ASCII_CSS`, under the app's `ascii` class: every border in Textual's
  `ascii` style (`+-|`), including those of Textual's own widgets (the
  inputs' `tall`, the toasts' `outer`, the footer's `vkey`).
* `key_display`: footer keys by name ("Enter", "Left"), not as "⏎", "←".
* `AsciiFilter`, a Textual line filter on everything drawn: the glyphs the
  screens use in their text ("·", "—", "▶", the board's pegs, card backs)
  become their ASCII twins from `GLYPHS`, each in as many cells as before,
  so nothing moves. Anything not in the table (a name in another script, a
  character some Textual widget draws) still comes out 7-bit: accents are
  dropped ("é" -> "e"), the rest is "?", and the filter notes it in
  `unknown`, so a test can insist that the screens' own text is all known.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from textual.binding import Binding
from textual.color import Color
from textual.filter import LineFilter

# Every non-ASCII character the screens draw on purpose, and its twin.
GLYPHS: dict[str, str] = {
    # lines and corners (borders Textual draws in a style of its own)
    **dict.fromkeys("─━═┄┈╌", "-"),
    **dict.fromkeys("│┃║┆┊╎", "|"),
    **dict.fromkeys("┌┐└┘╭╮╰╯┏┓┗┛├┤┬┴┼╔╗╚╝┣┫┻", "+"),
    **dict.fromkeys("╷╵╻╹", "|"), **dict.fromkeys("╶╴╺╸", "-"),  # the count's large digits
    # punctuation in the text
    "·": "-", "•": "*", "—": "-", "–": "-", "…": ".", "×": "x", "‘": "'", "’": "'",
    "“": '"', "”": '"',
    # arrows and pointers
    "←": "<", "→": ">", "↑": "^", "↓": "v", "◀": "<", "▶": ">", "▼": "v", "▲": "^",
    "⏎": "<",
    # the suits, the board's pegs, card backs, the result chart
    "♠": "S", "♥": "H", "♦": "D", "♣": "C",
    "●": "O", "○": "o", "◎": "*", "▒": "#", "░": "#", "▓": "#",
    # the ends of Textual's scrollbar thumbs and its "key" borders: blank
    # (the thumb is its colour; the result chart has bars of its own)
    **dict.fromkeys("▁▂▃▄▅▆▇█▉▊▋▌▍▎▏▔", " "),
    # the command palette's search icon (two cells)
    "🔎": "> ",
}


def to_ascii(text: str, unknown: set[str] | None = None) -> str:
    """`text` in 7-bit characters, cell for cell. Characters that are not in
    `GLYPHS` are added to `unknown`."""
    if text.isascii():
        return text
    return "".join(_char(c, unknown) for c in text)


def _char(c: str, unknown: set[str] | None) -> str:
    if c.isascii():
        return c
    twin = GLYPHS.get(c)
    if twin is not None:
        return twin
    if unknown is not None:
        unknown.add(c)
    return _fallback(c)


@lru_cache(maxsize=4096)
def _fallback(c: str) -> str:
    """An accented letter without its accent; else "?" in every cell."""
    width = cell_len(c)
    if width == 0:
        return ""  # a combining mark: its letter is already there
    plain = "".join(x for x in unicodedata.normalize("NFKD", c)
                    if not unicodedata.combining(x))
    if len(plain) == 1 and plain.isascii() and plain.isprintable() and width == 1:
        return plain
    return "?" * width


class AsciiFilter(LineFilter):
    """Turns everything drawn into 7-bit characters (see the module)."""

    def __init__(self, enabled: bool = True) -> None:
        super().__init__(enabled)
        self.unknown: set[str] = set()

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        return [segment if segment.text.isascii() or segment.control
                else Segment(to_ascii(segment.text, self.unknown), segment.style)
                for segment in segments]


# Phrases whose glyphs read better as words than as their one-character
# twins ("</> or 1-5"); the words are longer, so the screens ask for them
# (`in_words`) rather than the filter, which must keep every cell in place.
WORDS = (
    ("←/→, Enter   ", "arrows, Enter"),  # the help's column keeps its place
    ("←/→", "Left/Right"),
    ("↑/↓", "Up/Down"),
    ("…", "..."),
)


def in_words(text: str, ascii: bool = True) -> str:
    """`text` with its arrows and ellipses in words, in ASCII mode."""
    if ascii:
        for glyphs, words in WORDS:
            text = text.replace(glyphs, words)
    return text


def app_is_ascii(node: object) -> bool:
    """Is the app of this screen or widget in ASCII mode? (False for an app
    that has no such mode, like the tests' small apps.)"""
    return bool(getattr(getattr(node, "app", None), "ascii", False))


# Keys by name, for the footer.
KEY_NAMES = {
    "enter": "Enter", "escape": "Esc", "left": "Left", "right": "Right", "up": "Up",
    "down": "Down", "backspace": "Bksp", "tab": "Tab", "space": "Space",
    "home": "Home", "end": "End", "pageup": "PgUp", "pagedown": "PgDn",
}


def key_display(binding: Binding, shown: str) -> str:
    """The key of `binding` in ASCII, where Textual's way (`shown`) is not:
    "⏎" -> "Enter", "→" -> "Right"."""
    if shown.isascii():
        return shown
    modifiers, key = binding.parse_key()
    return "+".join([*modifiers, KEY_NAMES.get(key, to_ascii(key))])


ASCII_CSS = """
.ascii {
    SeatPanel { border: ascii $secondary; }
    SeatPanel .seat-panel--to-act { border: ascii $accent; border-title-style: reverse; }
    TableView #hand { border: ascii $secondary; }
    TableView #hand .hand-view--to-act { border: ascii $accent; border-title-style: reverse; }
    NewGameScreen > Vertical, GameOverScreen > Vertical, WaitingScreen > Vertical {
        border: ascii $accent;
    }
    ModalScreen > Vertical, ModalScreen > VerticalScroll { border: ascii $accent; }
    GoTo > Input { border: ascii $accent; }
    Input { border: ascii $border-blurred; }
    Input:focus { border: ascii $border; }
    TableScreen #feed { border-left: ascii $secondary; }
    Toast.-information { border-left: ascii $success; }
    Toast.-warning { border-left: ascii $warning; }
    Toast.-error { border-left: ascii $error; }
    FooterKey.-command-palette { border-left: ascii $foreground 20%; }
}
"""
