"""One drawing of what many screens draw alike, shared by every app in the
process.

At a card room each event of a table is drawn once per seat (and once per
spectator), each in an app of its own on the server's one event loop. Most
of what those screens draw is the same: the board, the middle of the table,
an opponent's panel (public facts), the footer's keys. Drawing it (turning
text into `Strip`s of styled segments) was most of an update's cost, paid
again by every seat. A widget that mixes in `SharedRender` and says what it
draws (`render_key`) has its lines drawn once per process: the next seat, or
the same screen after a class change that repaints it unchanged, takes them
from a bounded cache.

Only the widget's content is shared: its border, padding and background are
still drawn by each widget (Textual's own per-widget cache), and so are the
line filters that fit the lines to each client's terminal (colours, ASCII,
dimming). The key holds everything the content's lines depend on: the
widget's class and `render_key`, its size and content size, its style (the
colours and text style its CSS gives it), the text rules its CSS sets, and
the app's theme (which styles named in the content may refer to).
Strips are immutable, and `crib3.tui.textual_compat` makes sharing them
between terminals of different colour systems safe.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import TYPE_CHECKING, Any

from textual.content import Content
from textual.strip import Strip

from crib3.tui.textual_compat import RenderContentHook

if TYPE_CHECKING:
    from textual.widget import Widget

# An entry is wanted again within one event (the other seats drawing it):
# some six a table (its board, centre, panels), and the footer's keys all
# the time. An entry is many small objects, which every full garbage
# collection walks, so the cache is no larger than some forty tables'
# events at once (measured: assets/measurements/card-room.md).
MAX_ENTRIES = 256


class StripCache:
    """A bounded map from what is drawn to its lines, least recently used
    dropped first. Counts its hits and misses (the tests read them)."""

    def __init__(self, size: int = MAX_ENTRIES) -> None:
        self.size = size
        self._lines: OrderedDict[Hashable, list[Strip]] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def get(self, key: Hashable) -> list[Strip] | None:
        lines = self._lines.get(key)
        if lines is None:
            self.misses += 1
            return None
        self._lines.move_to_end(key)
        self.hits += 1
        return lines

    def put(self, key: Hashable, lines: list[Strip]) -> None:
        self._lines[key] = lines
        self._lines.move_to_end(key)
        while len(self._lines) > self.size:
            self._lines.popitem(last=False)

    def clear(self) -> None:
        self._lines.clear()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._lines)


SHARED = StripCache()


def content_key(content: object) -> Hashable | None:
    """What a `Content` draws, as a key (its own equality compares only its
    plain text, so it cannot be the key itself); None for anything else."""
    if isinstance(content, Content):
        return (content.plain, tuple(content.spans))
    return None


def _text_rules(widget: Widget) -> Hashable:
    """The CSS rules Textual reads while turning content into lines."""
    styles = widget.styles
    return (styles.text_align, styles.text_overflow, styles.text_wrap, styles.line_pad,
            tuple(styles.content_align), widget.auto_links, styles.link_style,
            styles.link_color, styles.link_background)


class SharedRender(RenderContentHook):
    """Mix into a `Widget` (before it) whose lines are a function of what
    `render_key` returns; None draws as usual (nothing shared). Textual's
    drawing of a widget's content is reached through
    `crib3.tui.textual_compat.RenderContentHook`: on a Textual without the
    shape it relies on, each widget draws its own lines."""

    def render_key(self) -> Hashable | None:
        return None

    def shared_lines_key(self) -> Hashable | None:
        key = self.render_key()
        if key is None:
            return None
        return (type(self), key, self.size, self.content_size, self.visual_style,
                _text_rules(self), self.app.theme)

    def lines_for(self, key: Any) -> list[Strip] | None:
        return SHARED.get(key)

    def keep_lines(self, key: Any, lines: list[Strip]) -> None:
        SHARED.put(key, lines)


class SharedStatic(SharedRender):
    """For a `Static`: its lines are a function of its content."""

    def render_key(self) -> Hashable | None:
        widget: Any = self  # (mixed into a Static)
        return content_key(widget.visual)
