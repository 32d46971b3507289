"""Making Textual fit for many apps, each with its own terminal, in one process.

Textual assumes one app per process, with one terminal. A card room runs an
app per SSH session on one event loop, and three process-wide habits of
Textual get in the way. `many_terminals_in_one_process()` changes them; it
touches private names, which is one reason the project pins Textual's
version for its tests (`tests/test_ssh.py` checks the result).

- Textual redirects the process's stdout and stderr into the running app;
  with apps coming and going they would end up pointing at an app that is
  gone. The server prints nothing through them: the redirection is off.
- A `Strip` caches its rendered text whatever the terminal, and some strips
  (blank lines) are shared between apps; a Rich `Style` caches its escape
  codes on itself, and styles are shared too. So a 256-colour client would
  be sent another client's 24-bit colours (or the other way round). Both
  caches are kept for 24-bit terminals only; any other colour system gets
  its codes from a cache of its own.
- Every app parses the same CSS (Textual's defaults, every widget's, the
  app's) into a stylesheet of its own, and each parse was most of what a
  session's start cost. The parsed rules are shared instead: one parse per
  process for each piece of CSS and set of theme variables (a stylesheet
  reads its rules, never changes them).
- A `Strip` divided at its own end, or cropped and extended to exactly
  itself, keeps itself in its own cache: a reference cycle, so when the
  screen drops it, only the cyclic garbage collector frees it (with its
  segments and seven small caches). A card room draws thousands of lines a
  second, and those cycles were most of what each full collection had to
  free; a collection that stops every session of the process for a tenth
  of a second and more. Those two calls return the strip itself without
  caching it (`_strips_without_cycles`).
- Every app has line filters of its own (Textual's ANSI-to-truecolor one,
  and colour dropping for a NO_COLOR client), and a strip keeps what a
  filter made of it under that filter, as do the filters' own caches: so
  the lines that the seats of a table share were filtered again at every
  seat, each seat's results pushing the others' out of those small caches.
  Filters that do the same to a line (the same kind and settings: the same
  terminal theme, ...) are one filter for every app in the process
  (`_shared_line_filters`), and what such a filter made of a line is kept
  for every app, by the line's segments (each seat's widget makes strips
  of its own of the same segments), in a bounded cache: the second and
  third seats find the first one's results. A filter that keeps state of
  its own (crib3's ASCII filter notes the glyphs it could not spell) stays
  the app's, and is applied as before. A strip also keeps what a shared
  filter made of it, as Textual's own cache does: a widget's unchanged
  lines are filtered again at many frames, found so without a key.
- A `Strip` makes seven small caches as it is made (for its crops, its
  divisions, its styles, its filters, ...), some 130 bytes each, though
  most strips never use most of them, and a session holds thousands of
  strips (its widgets' lines, the compositor's cuts). Here a strip makes
  each cache the first time it uses it (`_strips_with_lazy_caches`).
"""

from __future__ import annotations

import contextlib
import copy
from collections import OrderedDict
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

_DONE = False


def many_terminals_in_one_process() -> None:
    global _DONE
    if _DONE:
        return
    import textual.app
    from rich.color import ColorSystem
    from rich.style import Style
    from textual.strip import Strip

    textual.app.redirect_stdout = contextlib.nullcontext  # type: ignore[assignment]
    textual.app.redirect_stderr = contextlib.nullcontext  # type: ignore[assignment]

    codes_for = Strip.render_ansi.__func__.__wrapped__  # type: ignore[attr-defined]
    cached_render = Strip.render
    truecolor = ColorSystem.TRUECOLOR

    @lru_cache(maxsize=16384)
    def ansi(style: Style, system: ColorSystem) -> str:
        kept = style._ansi
        codes: str = codes_for(Strip, style, system)
        style._ansi = codes if system == truecolor else kept  # the style's cache: 24-bit
        return codes

    def render_style(cls: type[Strip], style: Style, text: str, color_system: ColorSystem) -> str:
        codes = ansi(style, color_system)
        output = f"\x1b[{codes}m{text}\x1b[0m" if codes else text
        if style._link:
            output = f"\x1b]8;id={style._link_id};{style._link}\x1b\\{output}\x1b]8;;\x1b\\"
        return output

    def render(self: Strip, console: Any) -> str:
        system = console._color_system or truecolor
        if system == truecolor:
            return cached_render(self, console)
        return "".join([text if style is None else render_style(Strip, style, text, system)
                        for text, style, _ in self._segments])

    Strip.render_style = classmethod(render_style)  # type: ignore[assignment]
    Strip.render = render  # type: ignore[method-assign]
    _share_parsed_css()
    _strips_without_cycles()
    _strips_with_lazy_caches()
    _shared_line_filters()  # (after: a line a shared filter made needs no cache of its own)
    _DONE = True


def _share_parsed_css() -> None:
    """One parse of each piece of CSS per process, whichever app asks (see
    the module's docstring). Textual keeps a cache per stylesheet; this puts
    a process-wide one in front of it, keyed as Textual keys its own plus
    the theme's variables (which the parse substitutes)."""
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules
    parsed: dict[tuple[object, ...], list[Any]] = {}

    def shared(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
               tie_breaker: int = 0, scope: str = "") -> list[Any]:
        key = (css, read_from, is_default_rules, tie_breaker, scope,
               tuple(sorted(self._variables.items())))
        rules = parsed.get(key)
        if rules is None:
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            if len(parsed) < 1024:  # the app's CSS is fixed: a few hundred pieces at most
                parsed[key] = rules
        return rules

    Stylesheet._parse_rules = shared  # type: ignore[method-assign]


def _strips_without_cycles() -> None:
    """`Strip.divide` and `Strip.crop_extend` as Textual has them, except
    that a result that is the strip itself is not cached on it (see the
    module's docstring): the answer is the same, found as fast."""
    from textual.strip import Strip

    divide, crop_extend = Strip.divide, Strip.crop_extend

    def divide_once(self: Strip, cuts: Any) -> Any:
        cuts = list(cuts)
        length = self.cell_length
        if [cut for cut in cuts if cut <= length] == [length]:
            return [self]
        return divide(self, cuts)

    def crop_extend_once(self: Strip, start: int, end: int, style: Any) -> Strip:
        if start <= 0 and end == self.cell_length:
            return self  # (what it computes: extended to its own length, cropped to all)
        return crop_extend(self, start, end, style)

    Strip.divide = divide_once  # type: ignore[method-assign]
    Strip.crop_extend = crop_extend_once  # type: ignore[method-assign]


def _shared_line_filters() -> None:
    """Each widget is drawn through the process's one filter of each kind
    (see the module's docstring). The shared filters are as many as the
    kinds of terminal seen (a handful: one per terminal theme)."""
    from textual.filter import ANSIToTruecolor, DimFilter, LineFilter, Monochrome, NoColor
    from textual.widget import Widget

    shared: dict[tuple[object, ...], LineFilter] = {}

    def kind(line_filter: LineFilter) -> tuple[object, ...] | None:
        """What a filter does, as a key; None for one that is not shared."""
        made = type(line_filter)
        if made is ANSIToTruecolor:
            return (made, line_filter._terminal_theme)  # type: ignore[attr-defined]
        if made in (NoColor, Monochrome):
            return (made,)
        if made is DimFilter:
            return (made, line_filter.dim_factor)  # type: ignore[attr-defined]
        return None

    def one_of_its_kind(line_filter: LineFilter) -> LineFilter:
        key = kind(line_filter)
        if key is None:
            return line_filter
        found = shared.get(key)
        if found is None:
            if len(shared) >= 64:  # (terminal themes are a handful: never, in use)
                return line_filter
            # Its own copy, always on: the app may switch its own on and off.
            found = shared[key] = copy.copy(line_filter)
            found.enabled = True
        return found

    def get_line_filters(self: Widget) -> Sequence[LineFilter]:
        return [one_of_its_kind(f) for f in self.app.get_line_filters()]

    Widget.get_line_filters = get_line_filters  # type: ignore[method-assign]
    _shared_filtering(shared)


# What a shared filter made of a line, for every app (see the module's
# docstring). A table's event filters some 70 lines (its three seats); 2048
# hold some thirty tables' lines at once.
FILTERED_LINES = 2048
# An entry holds the line's segments twice (as its key, and filtered), and
# each widget's drawing makes Rich styles of its own, equal to the last
# drawing's: the 2048 lines held some 13,000 styles (2-3 MB a worker,
# filled by the first sessions and kept). Kept lines share one style of
# each kind (equal as Rich compares styles, by their hash), from a table of
# at most this many (emptied when full: lines kept keep theirs).
KEPT_STYLES = 4096


def _shared_filtering(shared: dict[tuple[object, ...], Any]) -> None:
    """`Strip.apply_filter` for a shared filter: looked up by the line's
    segments (and the filter and background) before it is filtered, as
    Textual filters it; any other filter as Textual applies it."""
    from rich.segment import Segment
    from textual.strip import Strip

    apply_filter = Strip.apply_filter
    done: OrderedDict[tuple[object, ...], Strip] = OrderedDict()
    # A strip also keeps what the shared filter made of it, in the slot
    # Textual keeps its own filter cache in (unused by a shared filter): a
    # widget's lines are filtered again at every frame that repaints any
    # line beside them, and most are the same strips as at the last frame.
    # Found so, a line costs no key of its segments (hashing every style).
    # (The same cache as Textual's: a filter of the app's own uses it too.)
    slot = Strip._filter_cache  # type: ignore[attr-defined]
    filtered_of, keep_filtered = slot.__get__, slot.__set__
    styles: dict[Any, Any] = {}

    def one_of_each(segments: list[Segment]) -> list[Segment]:
        """`segments` with the kept lines' own style of each kind."""
        if len(styles) > KEPT_STYLES:
            styles.clear()
        kept = []
        for text, style, control in segments:
            if style is not None:
                style = styles.setdefault(style, style)
            kept.append(Segment(text, style, control))
        return kept

    def apply_shared_filter(self: Strip, line_filter: Any, background: Any) -> Strip:
        if not any(line_filter is f for f in shared.values()):
            return apply_filter(self, line_filter, background)
        mine = filtered_of(self)
        if mine is not None:
            found = mine.get((line_filter, background))
            if found is not None:
                return found  # this very strip, filtered before (a line the widget kept)
        try:
            key = (line_filter, background, tuple(self._segments))
            found = done.get(key)
        except TypeError:  # (a segment that cannot be a key: a control code list)
            return apply_filter(self, line_filter, background)
        if found is None:
            segments = one_of_each(self._segments)
            filtered = line_filter.apply(segments, background)
            if all(a.style is b.style and a.text is b.text and a.control is b.control
                   for a, b in zip(segments, filtered)) and len(segments) == len(filtered):
                filtered = segments  # (unchanged: the same segments serve as key and line)
            found = done[(line_filter, background, tuple(segments))] = \
                Strip(filtered, self._cell_length)
            if len(done) > FILTERED_LINES:
                done.popitem(last=False)
        else:
            done.move_to_end(key)
        if found is not self:  # (never a strip that holds itself: a cycle)
            if mine is None:
                mine = {}  # (as Textual's cache is used: `get` and set; a handful)
                keep_filtered(self, mine)
            mine[(line_filter, background)] = found
        return found

    Strip.apply_filter = apply_shared_filter  # type: ignore[method-assign]


# A strip's caches: (the method that uses it, its slot, its size in Textual).
_STRIP_CACHES = (
    ("divide", "_divide_cache", 4),
    ("crop", "_crop_cache", 16),
    ("apply_style", "_style_cache", 16),
    ("apply_filter", "_filter_cache", 4),
    ("adjust_cell_length", "_line_length_cache", 4),
    ("crop_extend", "_crop_extend_cache", 4),
    ("apply_offsets", "_offsets_cache", 4),
)
# A strip's other slots, all set as it is made.
_STRIP_FIELDS = ("_segments", "_cell_length", "_render_cache", "_link_ids", "_cell_count")


def _strips_with_lazy_caches() -> None:
    """A `Strip` is made with none of its caches; each method that uses
    one makes it first (see the module's docstring). What each method does
    is Textual's own, called as it was. (Should a Textual version give a
    strip other slots than these, its strips are left as they are.)"""
    from textual.cache import FIFOCache
    from textual.strip import Strip

    caches = [slot for _, slot, _ in _STRIP_CACHES]
    slots = {name for cls in Strip.__mro__ for name in getattr(cls, "__slots__", ())}
    if slots != {*caches, *_STRIP_FIELDS}:
        return

    def __init__(self: Strip, segments: Any, cell_length: int | None = None) -> None:
        self._segments = list(segments)
        self._cell_length = cell_length
        self._render_cache = None
        self._link_ids = None
        self._cell_count = None
        for slot in caches:  # none yet (see `lazily`)
            setattr(self, slot, None)

    def lazily(method: Any, slot: str, size: int) -> Any:
        descriptor = getattr(Strip, slot)  # the slot's own: read and set in C
        cache_of, give = descriptor.__get__, descriptor.__set__

        def with_its_cache(self: Strip, *args: Any, **kwargs: Any) -> Any:
            if cache_of(self) is None:
                give(self, FIFOCache(size))
            return method(self, *args, **kwargs)

        with_its_cache.__doc__ = method.__doc__
        return with_its_cache

    Strip.__init__ = __init__  # type: ignore[method-assign]
    for name, slot, size in _STRIP_CACHES:
        setattr(Strip, name, lazily(getattr(Strip, name), slot, size))
