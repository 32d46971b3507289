"""A card-room table's chat, under the table: who is watching, and the
last lines said.

Everything here was typed by people (names and lines), so it is built as
`rich.text.Text`, never markup: "[/]" or "[b]x" is shown as typed. The
room refuses control characters before a line is kept
(`crib3.room.chat`); names are shown through `shown_name` like everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.widgets import Static

from crib3.common.names import shown_name

if TYPE_CHECKING:
    from crib3.room.chat import ChatLine


WATCHING = "watching: "
MAX_ROWS = 4  # the panel's rows at most (its CSS max-height): the newest are kept


def chat_parts(lines: Sequence[ChatLine], watchers: Sequence[str],
               rows: int) -> list[tuple[Text, int]]:
    """At most `rows` lines: who is watching (when anyone is), then the
    newest chat lines, oldest first; each with the cells its wrapped rows
    are indented by (under the text, past the speaker's name). Literal
    text throughout."""
    shown: list[tuple[Text, int]] = []
    if watchers:
        shown.append((Text.assemble((WATCHING, "dim"),
                                    ", ".join(shown_name(n, 20) for n in watchers)),
                      len(WATCHING)))
    room = max(rows - len(shown), 1 if lines else 0)
    for line in list(lines)[-room:] if room else []:
        name = shown_name(line.name, 20)
        shown.append((Text.assemble((name, "bold"), ": ", line.text), cell_len(name) + 2))
    return shown[-rows:]


def chat_text(lines: Sequence[ChatLine], watchers: Sequence[str], rows: int) -> Text:
    """The lines of `chat_parts`, one a row as they are before wrapping."""
    parts = chat_parts(lines, watchers, rows)
    return Text("\n").join(text for text, _ in parts) if parts else Text()


@dataclass(frozen=True)
class HangingLines:
    """Lines wrapped to the width they are drawn at, each one's second and
    later rows indented by its own amount (so a wrapped row never starts
    where a speaker's name does, and cannot pass for another person's
    line); only the last `max_rows` rows are drawn, the newest (the
    panel's height is kept: the table above it has the rest)."""

    parts: tuple[tuple[Text, int], ...]
    max_rows: int = MAX_ROWS

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = max(options.max_width, 1)
        rows: list[Text] = []
        for text, indent in self.parts:
            rows.extend(hanging_rows(console, text, indent, width))
        yield Text("\n").join(rows[-self.max_rows:])


def hanging_rows(console: Console, text: Text, indent: int, width: int) -> list[Text]:
    """`text` wrapped at `width` cells, its rows after the first indented
    by `indent` cells (at most half the width)."""
    indent = min(indent, width // 2)
    first = text.wrap(console, width)[0] if text.plain else Text()
    rest = text[len(first.plain):]
    rest = rest[len(rest.plain) - len(rest.plain.lstrip(" ")):]
    rows = [first]
    if rest.plain:
        for row in rest.wrap(console, width - indent):
            rows.append(Text(" " * indent) + row)
    return rows


class ChatPanel(Static):
    """The chat lines under the table: two rows on a small screen, four on
    a tall one, hidden while nobody has said anything or is watching (so
    the game's recent lines keep the room)."""

    DEFAULT_CSS = """
    ChatPanel { height: auto; max-height: 4; padding: 0 1; display: none; }
    ChatPanel.some { display: block; }
    """

    _said: HangingLines | None = None  # what the panel shows now

    def show(self, lines: Sequence[ChatLine], watchers: Sequence[str]) -> None:
        """Show these lines; nothing at all when they are what it shows
        (the table tells its screens of every change, a score among them,
        and an update of this panel, its height set by its text, lays out
        the whole screen)."""
        rows = 2 if self.app.size.height < 30 else 4
        said = HangingLines(tuple(chat_parts(lines, watchers, rows)), rows)
        if said == self._said:
            return
        self._said = said
        self.set_class(bool(said.parts), "some")
        self.update(said)
