"""A card-room table's chat, under the table: who is watching, and the
last lines said.

Everything here was typed by people (names and lines), so it is built as
`rich.text.Text`, never markup: "[/]" or "[b]x" is shown as typed. The
room refuses control characters before a line is kept
(`crib3.room.chat`); names are shown through `shown_name` like everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from crib3.common.names import shown_name

if TYPE_CHECKING:
    from crib3.room.chat import ChatLine


def chat_text(lines: Sequence[ChatLine], watchers: Sequence[str], rows: int) -> Text:
    """At most `rows` lines: who is watching (when anyone is), then the
    newest chat lines, oldest first. Literal text throughout."""
    shown: list[Text] = []
    if watchers:
        shown.append(Text.assemble(("watching: ", "dim"),
                                   ", ".join(shown_name(n, 20) for n in watchers)))
    room = max(rows - len(shown), 1 if lines else 0)
    for line in list(lines)[-room:] if room else []:
        shown.append(Text.assemble((shown_name(line.name, 20), "bold"), ": ", line.text))
    return Text("\n").join(shown[-rows:]) if shown else Text()


class ChatPanel(Static):
    """The chat lines under the table: two rows on a small screen, four on
    a tall one, hidden while nobody has said anything or is watching (so
    the game's recent lines keep the room)."""

    DEFAULT_CSS = """
    ChatPanel { height: auto; max-height: 4; padding: 0 1; display: none; }
    ChatPanel.some { display: block; }
    """

    _said: Text | None = None  # what the panel shows now

    def show(self, lines: Sequence[ChatLine], watchers: Sequence[str]) -> None:
        """Show these lines; nothing at all when they are what it shows
        (the table tells its screens of every change, a score among them,
        and an update of this panel, its height set by its text, lays out
        the whole screen)."""
        rows = 2 if self.app.size.height < 30 else 4
        text = chat_text(lines, watchers, rows)
        if text == self._said:
            return
        self._said = text
        self.set_class(bool(text.plain), "some")
        self.update(text)
