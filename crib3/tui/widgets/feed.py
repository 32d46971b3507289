"""The event feed: the game in words, every line wrapped to the width.

A `RichLog` wraps a line when it is written, at the width it has then, and
never again; at its default `min_width` (78) a line written into a
34-column column is cut, not wrapped. This one keeps its lines as text and
wraps them again when its width changes (a resize, the feed opened in
another place), so no line is ever cut.
"""

from __future__ import annotations

from textual import events
from textual.widgets import RichLog


class Feed(RichLog):
    """The feed beside (or under) the table. Plain text: the lines hold
    names, never markup."""

    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, auto_scroll=True, min_width=1, **kwargs)
        self._said: list[str] = []
        self._width = 0

    def say(self, line: str) -> None:
        self._said.append(line)
        self.write(line)

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again at a new width (only then: a line costs
        nothing more while the width stays)."""
        width = event.size.width
        if width and self._width and width != self._width:
            self.clear()
            for line in self._said:
                self.write(line)
        self._width = width or self._width
