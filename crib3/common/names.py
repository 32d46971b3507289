"""What a player's name may be, and how any name is shown.

Names come from people (`crib3 play --name`, the new-game screen, the name
an SSH user connects as) and from files (a saved game's players, the
settings file, a card room's tables on disk). Two rules keep them harmless:

- At the edges where a person types one (the command line, the new-game
  screen, the settings, the name an SSH user connects as), `check_name`
  takes it or refuses it with a one-line reason: 1 to `MAX_LENGTH`
  characters once the spaces around it are trimmed, every one printable
  (letters, digits, punctuation, symbols, emoji, plain spaces; no control
  or formatting characters, which could move the cursor, recolour the
  terminal or reverse the text), none invisible (U+3164 HANGUL FILLER,
  variation selectors: a name could be blank, or two names differ unseen),
  none that terminals draw at different widths (skin-tone modifiers,
  regional indicators: Rich would count other cells than the terminal
  draws, and every row after the name would be off), and in one script, or
  Latin with Chinese, Japanese or Korean (so "аlice" with a Cyrillic а is
  no name; see `crib3.common.lookalikes`); it shows something (not only
  blank-looking characters such as U+2800 BRAILLE PATTERN BLANK), and has at
  most one combining mark on a letter besides those Unicode composes into
  it (Vietnamese "ễ" is one character; a letter under a stack of marks
  draws as the letter, or as a smear over the row above). Square brackets and backslashes
  are allowed: a name is never Rich markup, so `[b]Bea[/]` is shown as
  those nine characters. The name is kept in NFC.
- Everywhere a name is shown, `shown_name` makes it safe whatever its
  origin: a log written elsewhere may hold any string, and the engine loads
  it as it is (the log is the record). Control and formatting characters
  become visible escapes (`\\x1b`), and where space is tight a long name is
  cut, by terminal cells, with an ellipsis. Show the result as plain text
  (a `rich.text.Text`, or a widget with `markup=False`), never as markup.
"""

from __future__ import annotations

MAX_LENGTH = 20  # characters: the board, the seats and the lobby have room for that

# Printable characters drawn as an empty cell, though not spaces (nor all
# default-ignorable): a name of them is a blank on every screen.
BLANKS = frozenset("\u2800\u3164\u115f\u1160\uffa0\u2000\u3000\u00a0\u202f\u205f")


def check_name(text: str) -> str:
    """The name a person typed, trimmed, or ValueError saying in one line
    why it cannot be a name."""
    name = text.strip()
    rule = f"a name is 1 to {MAX_LENGTH} printable characters"
    if not name:
        raise ValueError(f"{rule} (this one is empty)")
    if len(name) > MAX_LENGTH:
        raise ValueError(f"{rule} (this one has {len(name)})")
    if name.isascii() and name.isprintable():
        # Plain ASCII meets every rule below (one script, no mark, nothing
        # invisible or of unsteady width; trimmed, it shows something):
        # taken without loading regex and compiling Unicode's patterns,
        # which the name in the settings, checked at every start, would
        # otherwise cost the first screen.
        return name
    return _checked(name, rule)


def _checked(name: str, rule: str) -> str:
    """`check_name`'s rules beyond plain ASCII, on a trimmed name of the
    right length."""
    import unicodedata

    from crib3.common import lookalikes

    for char in name:
        if not lookalikes.printable(char):
            raise ValueError(f"{rule} (this one has {_escaped(char)}, which is not)")
    name = unicodedata.normalize("NFC", name)

    for char in name:
        if lookalikes.is_ignorable(char):
            raise ValueError(f"{rule} (this one has {_escaped(char)}, which is invisible)")
        if lookalikes.is_unsteady(char):
            raise ValueError(f"{rule} (this one has {_escaped(char)}, which terminals "
                             "draw at different widths)")
    if not any(_visible(char) for char in name):
        raise ValueError(f"{rule} (this one shows nothing)")
    marks = 0
    for char in name:
        marks = marks + 1 if lookalikes.is_mark(char) else 0
        if marks > 1:
            raise ValueError("a name has at most one accent or mark on a letter "
                             "(this one has more)")
    mixed = lookalikes.mixed_scripts(name)
    if mixed is not None:
        raise ValueError("a name is in one script, or Latin with Chinese, Japanese or "
                         f"Korean (this one mixes {mixed[0]} and {mixed[1]})")
    return name


def _visible(char: str) -> bool:
    """A character that leaves a mark on the screen by itself."""
    from crib3.common import lookalikes

    return not char.isspace() and char not in BLANKS \
        and not lookalikes.draws_nothing_alone(char)


def _escaped(char: str) -> str:
    """One unprintable character as text a person can read: \\x1b, \\u202e."""
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 \
        else f"\\U{code:08x}"


def shown_name(name: object, width: int | None = None, ellipsis: str = "…") -> str:
    """`name` as it may be put on a terminal: every unprintable character
    written as its escape, and, given a `width` (terminal cells), cut to fit
    it with `ellipsis` at the end. Plain text, to be shown literally."""
    text = str(name)
    if not text.isascii() or not text.isprintable():
        from crib3.common.lookalikes import printable

        if not printable(text):
            text = "".join(c if printable(c) else _escaped(c) for c in text)
    if width is None:
        return text
    if width <= 0:
        return ""
    from rich.cells import cell_len  # here: `crib3 --help` need not load Rich

    if cell_len(text) > width:
        room = max(0, width - cell_len(ellipsis))
        kept: list[str] = []
        used = 0
        for char in text:
            used += cell_len(char)
            if used > room:
                break
            kept.append(char)
        text = "".join(kept) + ellipsis
    return text



def name_column(name: object, width: int) -> str:
    """`shown_name(name, width)` padded with spaces to `width` terminal
    cells: a column of names lines up when they are drawn at other widths
    than their length (wide letters take two cells, a combining mark none),
    which a format's `:<width` (counting characters) does not do."""
    from rich.cells import cell_len

    text = shown_name(name, width)
    return text + " " * max(0, width - cell_len(text))
