"""A sketch, for measuring only: the table's block (`TableView`: the two
opponents' boxes, the middle, the big line, the board and your box) drawn
as the lines of one widget, as a renderer of the table's own would draw
it, instead of by six Textual widgets and the compositor.

It answers one question: how much of a card-room key would such a
renderer save (issue 46, point 3)? So it is as cheap as it can be, and
no cheaper than a real one would be:

- The six parts are still Textual widgets, laid out by Textual once (the
  geometry is read from the compositor's map, a private part: a sketch's
  licence), then hidden. A hidden widget is not in that map, and Textual
  gives a widget its size from there, so each part keeps the place it was
  given (`Widget.region`, patched). Their refreshes are kept from Textual:
  they do what `Widget.refresh` does (the content to be drawn again, the
  visual Textual kept of it dropped) but ask for no idle turn, so no
  message reaches the screen; the block is asked to draw instead.
- What they would show is still worked out by their own code (their
  watchers, their `render`), since a renderer of its own would have to
  work it out too.
- Their lines are made from that content with Rich (`Text.render`), the
  boxes drawn by hand, kept per part under the part's shared key (the
  next seat takes them) and put together into the block's rows; only the
  rows that changed are repainted.
- It draws less than the real table: no subtitles, no padding, one box
  style. Cheaper than a faithful renderer, so what it saves is a ceiling.

`sketch_the_table(exact=True)` makes each part's lines with Textual's own
styles cache instead (`StylesCache.render`, a private part: the boxes,
titles, padding and colours exactly as Textual draws them today, the
content through Textual's content pipeline and the parts' shared lines):
a block that composes the lines Textual would have drawn, rather than
drawing them itself, at the price of Textual's drawing of each part when
it changes. (Measured: it saves nothing; see the measurements.)

Installed for a process by `sketch_the_table()`; nothing in `crib3` is
changed on disk.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual.geometry import Region, Size
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

PARTS = ("seat-left", "center", "seat-right", "announce", "board", "hand")
HIDDEN = (*PARTS, "top")  # the top row's container too: it would paint over the block
BOX = RichStyle(color="grey50")
KEPT = 2048  # parts' lines kept for every seat in the process

_kept: dict[Hashable, list[Strip]] = {}


def _keep(key: Hashable, lines: list[Strip]) -> None:
    """Keep a part's lines for every seat (emptied when full)."""
    if len(_kept) >= KEPT:
        _kept.clear()
    _kept[key] = lines


def _plain_text(content: object) -> Text:
    if isinstance(content, Text):
        return content
    return Text(getattr(content, "plain", None) or str(content or ""))


def _part_lines(part: Widget, region: Region, console: Any) -> list[Strip]:
    """The lines `part` would show in `region` (its box, if it has one),
    kept under its shared key when it has one."""
    shared = getattr(part, "shared_lines_key", None)
    key: Hashable = (shared() if shared else None,
                     str(part.content) if isinstance(part, Static) else None,
                     str(part.border_title), region.size)
    if key[0] is not None or key[1] is not None:
        found = _kept.get(key)
        if found is not None:
            return found
    text = _plain_text(part.content if isinstance(part, Static) else part.render())
    boxed = part.styles.border_top[0] not in ("", "none")
    width, height = region.size
    inner_width, inner_height = (width - 4, height - 2) if boxed else (width, height)
    base = part.rich_style
    lines = [Strip(list(Segment.apply_style(line.render(console), base)))
             .crop_extend(0, inner_width, base)
             for line in text.split("\n", allow_blank=True)[:inner_height]]
    lines += [Strip.blank(inner_width, base)] * (inner_height - len(lines))
    if boxed:
        title = Text("─ ") + _plain_text(part.border_title) + Text(" ")
        top = Strip([Segment("╭", BOX), *title.render(console),
                     Segment("─" * max(0, width - 2 - title.cell_len) + "╮", BOX)])
        lines = [top.crop_extend(0, width, None),
                 *(Strip([Segment("│ ", BOX), *line, Segment(" │", BOX)]) for line in lines),
                 Strip([Segment("╰" + "─" * (width - 2) + "╯", BOX)])]
    _keep(key, lines)
    return lines


def _exact_part_lines(part: Any, region: Region) -> list[Strip]:
    """The lines Textual's styles cache makes of `part` at `region`'s size,
    kept (for every seat) under its shared key, classes and titles."""
    shared = getattr(part, "shared_lines_key", None)
    shared_key = shared() if shared else None
    key: Hashable = (type(part), shared_key,
                     repr(part.content) if isinstance(part, Static) and shared_key is None
                     else None,
                     str(part.border_title), str(part.border_subtitle),
                     frozenset(part.classes), region.size, part.app.theme)
    known = key[1] is not None or key[2] is not None
    if known and not part._dirty_regions:
        found = _kept.get(key)
        if found is not None:
            return found
    from textual._styles_cache import StylesCache

    styles, app = part.styles, part.app
    base_background, background = part.background_colors
    title, subtitle = part._border_title, part._border_subtitle
    gutter = styles.gutter
    lines = StylesCache().render(
        styles, region.size, base_background, background, part.render_line,
        part.get_line_filters(),
        None if title is None else (title, *part._get_title_style_information(base_background)),
        None if subtitle is None
        else (subtitle, *part._get_subtitle_style_information(base_background)),
        content_size=Size(region.width - gutter.width, region.height - gutter.height),
        padding=styles.padding, crop=Region(0, 0, *region.size), opacity=part.opacity,
        ansi_theme=app.ansi_theme, native_ansi=app.native_ansi_color)
    if known:
        _keep(key, lines)
    return lines


class _Block:
    """What the sketch keeps on a `TableView`: its parts' places, the lines
    each part last gave, and the rows drawn."""

    def __init__(self, places: dict[str, Region]) -> None:
        self.places = places
        self.lines: dict[str, list[Strip]] = {}
        self.rows: list[Strip] = []
        self.pending = False


def _draw(view: Any, exact: bool = False) -> None:
    """Draw the block's rows whose parts gave new lines; repaint the rows
    that changed."""
    block: _Block | None = getattr(view, "_sketch", None)
    if block is None:
        full = view.screen._compositor.full_map
        parts = {name: view.query_one(f"#{name}") for name in PARTS}
        if not all(part in full for part in parts.values()):
            return  # not laid out yet: drawn by Textual until it is
        ox, oy = view.content_region.offset
        block = view._sketch = _Block({name: full[part].region.translate((-ox, -oy))
                                       for name, part in parts.items()})
        for part in parts.values():  # their places as when Textual laid them out
            part._sketch_place = full[part].region
        for name in HIDDEN:
            view.query_one(f"#{name}").styles.visibility = "hidden"
    width, height = view.content_size
    if len(block.rows) != height:
        block.rows = [Strip.blank(width)] * height
        block.lines.clear()
    console = view.app.console
    changed: set[int] = set()
    for name, place in block.places.items():
        part = view.query_one(f"#{name}")
        lines = (_exact_part_lines(part, place) if exact
                 else _part_lines(part, place, console))
        if block.lines.get(name) is not lines:
            block.lines[name] = lines
            changed.update(range(max(0, place.y), min(height, place.y + place.height)))
    for row in sorted(changed):
        pieces = sorted((place.x, block.lines[name][row - place.y])
                        for name, place in block.places.items()
                        if place.y <= row < place.y + place.height)
        segments: list[Segment] = []
        at = 0
        for x, line in pieces:
            if x > at:
                segments.append(Segment(" " * (x - at)))
            segments.extend(line)
            at = x + line.cell_length
        strip = Strip(segments).crop_extend(0, width, None)
        if strip.text != block.rows[row].text or list(strip) != list(block.rows[row]):
            block.rows[row] = strip
            view.refresh(Region(0, row, width, 1))


def sketch_the_table(exact: bool = False) -> None:
    """Install the sketch for every `TableView` of this process (`exact`:
    the parts' lines made by Textual's styles cache)."""
    from crib3.tui.widgets import table_view

    cls = table_view.TableView
    show = cls.show

    def draw_soon(view: Any) -> None:  # once for all a move's parts
        block = getattr(view, "_sketch", None)
        if block is not None and block.pending:
            return
        if block is not None:
            block.pending = True

        def now() -> None:
            if getattr(view, "_sketch", None) is not None:
                view._sketch.pending = False
            _draw(view, exact)

        view.call_later(now)

    def sketched_show(view: Any, *args: Any, **kwargs: Any) -> None:
        show(view, *args, **kwargs)
        draw_soon(view)  # the first: the block is made (later, its parts' refreshes ask)

    def render_line(view: Any, y: int) -> Strip:
        block = getattr(view, "_sketch", None)
        if block is not None and y < len(block.rows):
            return block.rows[y]
        return Strip.blank(view.size.width)

    refresh = Widget.refresh
    region = Widget.region

    def placed(widget: Widget) -> Region:  # a hidden part keeps its place (and size)
        place = widget.__dict__.get("_sketch_place")
        return place if place is not None else region.fget(widget)  # type: ignore[attr-defined]

    def quiet_parts(widget: Widget, *args: Any, **kwargs: Any) -> Widget:
        view = widget.parent if widget.id in HIDDEN else None
        if view is not None and not isinstance(view, cls):
            view = view.parent
        if view is not None and getattr(view, "_sketch", None) is not None:
            if widget.id in PARTS and kwargs.get("repaint", True):
                # What Widget.refresh does but ask for an idle turn: its content
                # to be drawn again (not the visual it kept), when the block asks.
                widget._layout_cache.clear()
                widget._set_dirty()
                widget.clear_cached_dimensions()
                widget._rich_style_cache.clear()
                draw_soon(view)
            return widget  # hidden, drawn by the block
        return refresh(widget, *args, **kwargs)

    cls.show = sketched_show  # type: ignore[method-assign]  # a sketch (see above)
    cls.render_line = render_line  # type: ignore[method-assign]  # (a sketch)
    Widget.refresh = quiet_parts  # type: ignore[method-assign]  # (a sketch)
    Widget.region = property(placed)  # type: ignore[method-assign, assignment]  # (a sketch)
