"""Redrawing a line of text cheaply.

`Static.update` asks Textual for a layout of the whole screen by default,
which then repaints every cell: at a card room, where every event is drawn
once per seat, that was most of an update's cost and of the bytes sent
(assets/measurements/card-room.md).
The table's lines of text have a fixed size in the CSS, so they need no
layout; and a line that says what it said already needs no redraw at all.
"""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


def redraw_line(widget: Static, content: VisualType) -> None:
    """Show `content` in `widget`, a Static whose size the CSS fixes (its
    height does not follow its text): no layout, and nothing at all when
    the content is the same as before."""
    if widget.content == content:
        return
    widget.update(content, layout=False)
