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
    names, never markup.

    It can be read back (`read`: the table's PageUp, PageDown, ↑, ↓, Home
    and End): while a reader is back in it, new lines are added under
    where they read and do not pull the feed down; End (or paging down to
    the newest line) follows the game again, as does opening it again (f).
    A page key moves by the rows in view."""

    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, auto_scroll=True, min_width=1, **kwargs)
        self._said: list[str] = []
        self._width = 0
        self.reading = False  # scrolled back by the reader: new lines do not scroll
        self._pending: str | None = None  # a read asked for before the feed had a size
        self._hidden_lines = False  # lines said while it was hidden, not yet written

    def say(self, line: str) -> None:
        self._said.append(line)
        if self._width and not self.scrollable_content_region.width:
            # Hidden a while (f, or the coach in its column): a line written
            # now would be wrapped a letter a row. It is when shown again.
            self._hidden_lines = True
            return
        self.write(line, scroll_end=not self.reading)

    def on_show(self) -> None:
        if self._hidden_lines:
            self._hidden_lines = False
            self._rewrap()

    def _rewrap(self) -> None:
        self.clear()
        for line in self._said:
            self.write(line, scroll_end=not self.reading)

    def read(self, how: str) -> None:
        """Scroll by the reader's key: "up", "down", "page_up", "page_down",
        "home" or "end"."""
        if how == "end":
            self.reading = False
            self.scroll_end(animate=False, immediate=True, x_axis=False)
            return
        page = max(1, self.scrollable_content_region.height)  # what is in view: a page
        step = {"up": -1, "down": 1, "page_up": -page, "page_down": page,
                "home": -self.max_scroll_y - 1}[how]
        target = max(0, min(self.max_scroll_y, round(self.scroll_y) + step))
        self.scroll_to(y=target, animate=False, force=True, immediate=True)
        self.reading = target < self.max_scroll_y

    def show_newest(self) -> None:
        """Opened again (f): the newest lines, following the game, not
        where a reader left it (nothing said those lines were old)."""
        self.reading = False
        self._pending = None
        self.call_after_refresh(self.scroll_end, animate=False, immediate=True, x_axis=False)

    def read_back(self, how: str) -> None:
        """`read`, from the newest line, as soon as the feed has a size (a
        feed not yet shown holds its lines unwrapped until it has one)."""
        if not self._width:
            self._pending = how
            return
        self.scroll_end(animate=False, immediate=True, x_axis=False)
        self.read(how)

    def on_resize(self, event: events.Resize) -> None:
        """Wrap every line again at a new width (only then: a line costs
        nothing more while the width stays). RichLog's own handler (the
        lines written before the feed had a size) runs first, here, so
        that a read asked for before then starts from those lines' end."""
        event.prevent_default()
        super().on_resize(event)
        width = event.size.width
        if width and self._width and width != self._width:
            self._hidden_lines = False
            self._rewrap()
        self._width = width or self._width
        if width and self._pending is not None:
            how, self._pending = self._pending, None
            # after the scroll to the end those lines asked for (after a refresh)
            self.call_after_refresh(self.read_back, how)
