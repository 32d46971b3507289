"""The latest lines of the game in words, under the table."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from textual.widgets import Static

from crib3.tui.widgets.redraw import redraw_line
from crib3.tui.widgets.shared_render import SharedStatic


class RecentLines(SharedStatic, Static):
    """As many of the last lines as fit (three, or more where the screen
    gives this more rows), newest last, and the newest always whole (a long
    count wraps, and a cut-off line would hide what just happened). Plain
    text: the lines hold names, never markup."""

    def __init__(self, **kwargs) -> None:
        super().__init__("", markup=False, **kwargs)

    def show(self, lines: Sequence[str]) -> None:
        width = self.content_region.width or max(20, self.app.size.width - 2)
        rows = self.content_region.height or 2
        shown: list[str] = []
        used = 0
        for line in reversed(lines[-max(3, rows):]):
            needs = len(textwrap.wrap(line, width)) or 1
            if shown and used + needs > rows:
                break
            shown.insert(0, line)
            used += needs
        redraw_line(self, "\n".join(shown))
