"""The one place crib3 reaches into Textual's and Rich's internals.

crib3 uses Textual's public API everywhere else. A few things it needs have
no public way: a card room runs many apps, each with its own terminal, in
one process (Textual assumes one); a card room parses each client's bytes
with Textual's own terminal parser; and the screens a card room draws once
per seat are made cheaper by caches Textual keeps to itself. Each of those
reaches into a private name, and a Textual release may rename any of them.

So every such reach is here, and each is guarded:

- A **shape** (`SHAPES`) names what one use relies on. `have(shape)` checks
  it the first time it is asked (the names are there, the signature is as
  expected) and remembers the answer.
- Where a shape is missing, crib3 does what stock Textual does: slower,
  never wrong (the parse of the CSS is not shared, lines are not shared
  between seats, a widget restyles as Textual would). The one exception is
  the terminal parser a card room cannot run without: `xterm_parser()`
  raises `MissingInternals`, which `crib3 serve` reports in one line.
- `CRIB3_TEXTUAL_FALLBACK=all` (or a comma-separated list of shapes) makes
  crib3 behave as if those shapes were missing, as does `force_fallback()`
  in a test: the test suite plays a hand, at home and in a card room,
  through every fallback.

Its functions take Textual's objects as `Any`: what they reach is checked
by its shape at run time, on whichever Textual is installed, where a type
checker knows only one version's private names.

A test of the seam checks that no other module names a private
Textual or Rich name, imports from a private module, or patches a Textual
class; `.ci/run` runs the suite at both ends of the Textual versions that
pyproject.toml allows.
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import os
from collections import OrderedDict
from collections.abc import Callable, Sequence
from functools import lru_cache, wraps
from typing import TYPE_CHECKING, Any, Literal, cast

if TYPE_CHECKING:  # (the mixins below are checked as the classes they are mixed into)
    from textual.app import App
    from textual.widget import Widget
    from textual.widgets._footer import FooterKey

    _MixedIntoApp = App[Any]
    _MixedIntoWidget = Widget
else:
    _MixedIntoApp = _MixedIntoWidget = object

FALLBACK_ENV = "CRIB3_TEXTUAL_FALLBACK"


class MissingInternals(RuntimeError):
    """Textual lacks something crib3 cannot do without (one line, for the user)."""


def _sets(cls: type, *names: str) -> bool:
    """Whether `cls`'s `__init__` (or a base class's) names each of `names`
    (read from the compiled code, not the source: no file is read)."""
    used: set[str] = set()
    for klass in cls.__mro__:
        init = vars(klass).get("__init__")
        code = getattr(init, "__code__", None)
        if code is not None:
            used.update(code.co_names)
    return all(name in used for name in names)


def _check_css_parse() -> bool:
    from textual.css.stylesheet import Stylesheet

    names = list(inspect.signature(Stylesheet._parse_rules).parameters)
    return names == ["self", "css", "read_from", "is_default_rules", "tie_breaker", "scope"]


def _check_strip_slots() -> bool:
    from textual.strip import Strip

    slots = {name for cls in Strip.__mro__ for name in getattr(cls, "__slots__", ())}
    return slots == {*(slot for _, slot, _ in _STRIP_CACHES), *_STRIP_FIELDS}


def _check_render_content() -> bool:
    from textual.screen import Screen
    from textual.widget import Widget, _RenderCache

    return (callable(getattr(Widget, "_render_content", None))
            and list(_RenderCache._fields) == ["size", "lines"]
            and hasattr(Screen, "_selecting"))


def _check_truecolor_filter_theme() -> bool:
    from textual.filter import ANSIToTruecolor

    return _sets(ANSIToTruecolor, "_terminal_theme")


def _check_component_styles() -> bool:
    from textual.css.styles import Styles
    from textual.dom import DOMNode

    return _sets(DOMNode, "_component_styles") and "_rules" in Styles.__dataclass_fields__


def _check_console_environ() -> bool:
    from rich.console import Console

    return "_environ" in inspect.signature(Console.__init__).parameters


def _check_app_context() -> bool:
    from textual.app import App

    return callable(getattr(App, "_context", None))


def _check_unhandled_error() -> bool:
    from textual.app import App

    return list(inspect.signature(App._handle_exception).parameters) == ["self", "error"]


def _check_closing_flags() -> bool:
    from textual.app import App
    from textual.screen import Screen

    return _sets(Screen, "_closing", "_closed", "_pruning") and _sets(App, "_exit")


def _check_css_update_count() -> bool:
    from textual.app import App

    return _sets(App, "_css_update_count")


def _check_data_table_caches() -> bool:
    from textual.widgets import DataTable

    return (_sets(DataTable, *(name for name, _ in _DATA_TABLE_CACHES))
            and callable(getattr(DataTable, "_clear_caches", None)))


def _check_data_table_cells() -> bool:
    from textual.widgets import DataTable

    try:
        parameters = list(inspect.signature(DataTable._render_cell).parameters)
    except (TypeError, ValueError):
        return False
    return (parameters == ["self", "row_index", "column_index", "base_style", "width",
                           "cursor", "hover"]
            and _sets(DataTable, "_data", "_row_locations", "_column_locations",
                      "_show_hover_cursor", "_pseudo_class_state")
            and all(callable(getattr(DataTable, name, None))
                    for name in ("_clear_caches", "notify_style_update")))


def _check_xterm_parser() -> bool:
    parser = _xterm_parser_class()
    return callable(getattr(parser, "feed", None)) and callable(getattr(parser, "tick", None))


def _check_xterm_key_cache() -> bool:
    if _keys_uncached:  # (done: the cache is gone)
        return True
    cached = getattr(_xterm_parser_class(), "_parse_extended_key", None)
    return callable(getattr(cached, "__wrapped__", None)) and callable(
        getattr(cached, "cache_clear", None))


def _check_inner_outer_cache() -> bool:
    if _inner_outer_by_colours:  # (done: the cache is keyed by colours alone)
        return True
    from textual._styles_cache import StylesCache

    cached = getattr(StylesCache, "get_inner_outer", None)
    work_out = getattr(cached, "__wrapped__", None)
    return (callable(work_out) and callable(getattr(cached, "cache_clear", None))
            and list(inspect.signature(work_out).parameters)
            == ["cls", "base_background", "background"])


def _check_xterm_key_parse() -> bool:
    parser = _xterm_parser_class()
    return (list(inspect.signature(parser._sequence_to_key_events).parameters)
            == ["self", "sequence", "alt"]
            and list(inspect.signature(parser.parse_mouse_code).parameters) == ["self", "code"])


def _check_footer_key() -> bool:
    from textual.widgets._footer import FooterKey

    parameters = list(inspect.signature(FooterKey.__init__).parameters)
    return parameters[:8] == ["self", "key", "key_display", "description", "action",
                              "disabled", "tooltip", "classes"]


def _check_background_screen() -> bool:
    from textual.renderables.background_screen import BackgroundScreen

    work_out = BackgroundScreen.process_segments
    return (isinstance(inspect.getattr_static(BackgroundScreen, "process_segments"), classmethod)
            and list(inspect.signature(work_out).parameters) == ["segments", "color"])


def _check_stdio_redirection() -> bool:
    import textual.app

    return hasattr(textual.app, "redirect_stdout") and hasattr(textual.app, "redirect_stderr")


def _check_timer_interval() -> bool:
    from textual.timer import Timer

    parameters = inspect.signature(Timer.__init__).parameters
    return (list(parameters)[:3] == ["self", "event_target", "interval"]
            and parameters["interval"].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
            and all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in list(parameters.values())[3:])
            and {"_interval", "_skip"} <= set(Timer._run.__code__.co_names))


# What each use relies on, and the check that it is there.
SHAPES: dict[str, tuple[str, Callable[[], bool]]] = {
    "css-parse": ("Stylesheet._parse_rules(css, read_from, is_default_rules, tie_breaker, "
                  "scope) and a stylesheet's _variables: one parse of each piece of CSS "
                  "a process, and on disk between runs", _check_css_parse),
    "strip-slots": ("a Strip's __slots__ (its segments, length and seven caches): strips "
                    "make their caches lazily, and lines a shared filter made are kept "
                    "for every seat", _check_strip_slots),
    "render-content": ("Widget._render_content, widget._render_cache (a _RenderCache of "
                       "size and lines), _dirty_regions and Screen._selecting: what many "
                       "seats draw alike is drawn once", _check_render_content),
    "truecolor-filter-theme": ("ANSIToTruecolor._terminal_theme: the filter is shared by "
                               "every app with the same theme", _check_truecolor_filter_theme),
    "component-styles": ("a node's _component_styles and a Styles' _rules: a seat's turn "
                         "is marked without merging its component styles each time",
                         _check_component_styles),
    "console-environ": ("rich Console(_environ=...): a session's colours are worked out "
                        "by Rich from its client's TERM and COLORTERM", _check_console_environ),
    "app-context": ("App._context(): a plain task runs in its app's context as a Textual "
                    "worker does", _check_app_context),
    "unhandled-error": ("App._handle_exception(error): the app keeps why it failed, and "
                        "the command says it in one line", _check_unhandled_error),
    "closing-flags": ("App._exit, Screen._closing/_closed/_pruning: a screen being taken "
                      "down is not an error", _check_closing_flags),
    "css-update-count": ("App._css_update_count: the new-game screen is not styled a "
                         "second time when nothing changed", _check_css_update_count),
    "data-table-caches": ("DataTable's render caches and _clear_caches(): the lobby's list "
                          "keeps a few drawings, not thousands", _check_data_table_caches),
    "data-table-cells": ("DataTable._render_cell(row_index, column_index, base_style, width, "
                         "cursor, hover), its _data and _row/_column_locations, and "
                         "_clear_caches/notify_style_update dropping what it drew: a "
                         "lobby's list keeps the cells that did not change when a column's "
                         "width does", _check_data_table_cells),
    "xterm-parser": ("textual._xterm_parser.XTermParser (feed, tick): a card room parses "
                     "each client's keys as Textual does", _check_xterm_parser),
    "xterm-key-cache": ("XTermParser._parse_extended_key, an lru_cache over (parser, "
                        "sequence): a card room parses keys without it, so an ended "
                        "session's parser (and its app) is not kept", _check_xterm_key_cache),
    "inner-outer-cache": ("StylesCache.get_inner_outer, an lru_cache over (styles cache, "
                          "base background, background): a card room keys it by the two "
                          "colours, so ended sessions' widgets (and the lines they drew) "
                          "are not kept", _check_inner_outer_cache),
    "xterm-key-parse": ("XTermParser._sequence_to_key_events(sequence, alt) and "
                        "parse_mouse_code(code): a sequence they cannot read (a key past "
                        "U+10FFFF, a mouse report after a zero-sized window) is dropped, "
                        "not left to end the session's parser", _check_xterm_key_parse),
    "footer-key": ("textual.widgets._footer.FooterKey(key, key_display, description, "
                   "action, disabled, tooltip, classes): the palette's key in crib3's "
                   "footer", _check_footer_key),
    "stdio-redirection": ("textual.app.redirect_stdout/redirect_stderr: a card room's "
                          "apps do not capture the server's output", _check_stdio_redirection),
    "timer-interval": ("Timer(event_target, interval, *, ...) and Timer._run's _interval and "
                       "_skip: a timer never waits less than a millisecond, since one made "
                       "with a negative delay spins in _run and freezes the event loop "
                       "(every session of a card room's process)", _check_timer_interval),
    "background-screen": ("textual.renderables.background_screen.BackgroundScreen."
                          "process_segments(segments, color), a classmethod: the screen "
                          "under a dialog is tinted a style at a time, not a segment at "
                          "a time", _check_background_screen),
}

_forced: set[str] = {name.strip() for name in os.environ.get(FALLBACK_ENV, "").split(",")
                     if name.strip()}
_found: dict[str, bool] = {}


def have(shape: str) -> bool:
    """Whether Textual has what `shape` relies on (and no fallback is forced)."""
    found = _found.get(shape)
    if found is None:
        if shape not in SHAPES:
            raise KeyError(shape)
        if "all" in _forced or shape in _forced:
            found = False
        else:
            try:
                found = bool(SHAPES[shape][1]())
            except Exception:  # a name gone, a signature changed, no source: missing
                found = False
        _found[shape] = found
    return found


def missing() -> list[str]:
    """The shapes this Textual lacks (or that are forced to fall back)."""
    return [shape for shape in SHAPES if not have(shape)]


def force_fallback(*shapes: str) -> None:
    """Behave as if `shapes` were missing (for tests; "all" for every one).
    Takes effect for what is asked from now on: a patch already installed
    in this process stays, so tests of those use a fresh process."""
    _forced.update(shapes)
    _found.clear()


def reset_fallbacks() -> None:
    """Undo `force_fallback` (and the environment's)."""
    _forced.clear()
    _found.clear()


# --- apps and screens ---------------------------------------------------------------------


def app_context(app: Any) -> contextlib.AbstractContextManager[None]:
    """Run code in `app`'s context (the app `self.app` finds), as a Textual
    worker does. Without it, a task keeps the context it was made in, which
    is the app's when it is made from the app's own handlers (as crib3's are)."""
    if have("app-context"):
        return app._context()
    return contextlib.nullcontext()


def fail_app(app: Any, error: BaseException) -> None:
    """End `app` because `error` was not caught, as a failed Textual worker
    does (the app keeps the error, see `KeepsUnhandledErrors`)."""
    from textual.worker import WorkerFailed

    if have("unhandled-error"):
        app._handle_exception(WorkerFailed(error))
        return
    keep = getattr(app, "keep_failure", None)
    if keep is not None:
        keep(error)
    app.exit(return_code=1)


class KeepsUnhandledErrors(_MixedIntoApp):
    """Mix into an `App` (before it) that has `keep_failure(cause)`: an
    error nothing caught is kept for the command to report, then the app
    stops as Textual stops it. (Without the shape, Textual's own report.)"""

    if TYPE_CHECKING:

        def keep_failure(self, cause: BaseException) -> None:
            """The app's own: keeps `cause` for the command to report."""

    def _handle_exception(self, error: Exception) -> None:
        from textual.worker import WorkerFailed

        failed = error.error if isinstance(error, WorkerFailed) else error
        self.keep_failure(failed)
        super()._handle_exception(error)


def write_to_terminal(app: Any, data: str) -> None:
    """Send `data` (an escape sequence: the window's title) to `app`'s
    terminal as it is, as Textual's own `App.bell` sends its bell (written,
    not flushed: a card room's driver sends it with the frame that follows,
    `crib3.net.driver`); nothing for a headless app, or one not running."""
    driver = getattr(app, "_driver", None)
    if driver is not None and not app.is_headless:
        driver.write(data)


def going_away(app: Any, screen: Any) -> bool:
    """Whether `screen` (or its whole app) is being closed, or was removed."""
    if not screen.is_attached:
        return True
    if not have("closing-flags"):
        return False
    return bool(getattr(app, "_exit", False) or screen._closing or screen._closed
                or screen._pruning)


def css_update_count(app: Any) -> int | None:
    """How many times `app`'s CSS has changed (a theme, a reload); None
    when Textual does not say, and then a screen is styled as usual."""
    if not have("css-update-count"):
        return None
    count = getattr(app, "_css_update_count", None)
    return count if isinstance(count, int) else None


def native_ansi_color(app: Any) -> bool:
    """`App.native_ansi_color` (Textual 8.2.5 and later); False before it,
    which is what those versions did."""
    return bool(getattr(app, "native_ansi_color", False))


SHORTEST_TIMER = 0.001  # seconds: what a timer made with less (or a negative delay) waits
# (Above 0.5 ms: Textual's own sleep does not await below that, and a timer
# of a shorter interval would spin as a negative one does.)
_timers_done = False


def timers_that_yield() -> None:
    """Make a Textual timer made with a delay below a millisecond wait a
    millisecond. Textual 8's `Timer._run` loops without awaiting while its
    next tick is in the past and `skip` is on (the default): with a negative
    delay that is for ever, so the event loop stops, and with it the app (in
    a card room, every session of the process), with nothing logged. A
    notification's toast can make such a timer: it reads its time left once
    Textual has found it unexpired, and a pause between the two (a full
    garbage collection of a busy card room) can leave it negative. A zero
    delay divides by zero in the same place. Installed once, for every app
    (`BaseApp`); where the shape is missing, Textual's own timers."""
    global _timers_done
    if _timers_done or not have("timer-interval"):
        return
    from textual.timer import Timer

    made = Timer.__init__

    @wraps(made)  # (its signature is Textual's: the shape's check, asked again, holds)
    def made_not_behind(self: Timer, event_target: Any, interval: float, **options: Any) -> None:
        made(self, event_target, max(interval, SHORTEST_TIMER), **options)

    Timer.__init__ = made_not_behind  # type: ignore[method-assign]  # Textual's, clamped (see above)
    _timers_done = True


# --- widgets --------------------------------------------------------------------------------

# DataTable's caches of what it drew: (the attribute, its share of the rows kept).
_DATA_TABLE_CACHES = (("_row_render_cache", 1), ("_cell_render_cache", 4),
                      ("_row_renderable_cache", 1), ("_line_cache", 1))


def shrink_data_table_caches(table: Any, rows: int) -> None:
    """Size `table`'s caches for `rows` rows (Textual sizes them for
    thousands); left as they are without the shape."""
    if not have("data-table-caches"):
        return
    from textual.cache import LRUCache

    for name, share in _DATA_TABLE_CACHES:
        if isinstance(getattr(table, name, None), LRUCache):
            setattr(table, name, LRUCache(rows * share))


def clear_data_table_caches(table: Any) -> None:
    """Drop what `table` drew (it is leaving the screen)."""
    if have("data-table-caches"):
        table._clear_caches()


def keep_cell_drawings(table: Any, kept: int = 256) -> None:
    """Let `table` (a DataTable of rows one line high) draw again only the
    cells that changed, when something else does.

    Textual keys every drawing of a cell by a count of the table's updates,
    so any change draws every cell again: in the lobby, a seat taken at any
    table changes the width of the seats' column in every lobby (the newest
    table's free seats are the widest), and each drew its every row anew.
    Here a cell's drawing is kept by what it depends on (its value, as the
    same object; its place, width, style, cursor and hover; the table's
    focus) until the table's styles change, so only the cells whose value
    or width changed are drawn again. At most `kept` drawings (a lobby
    shows 16 rows of 4). Without the shape, nothing changes."""
    if not have("data-table-cells") or "_render_cell" in vars(table):
        return
    render_cell = table._render_cell
    clear_caches, style_update = table._clear_caches, table.notify_style_update
    drawn: dict[tuple[Any, ...], tuple[object, Any]] = {}

    def cell(row_index: int, column_index: int, base_style: Any, width: int,
             cursor: bool = False, hover: bool = False) -> Any:
        if row_index < 0 or column_index < 0:  # the header, the row labels: as they were
            return render_cell(row_index, column_index, base_style, width, cursor, hover)
        row_key = table._row_locations.get_key(row_index)
        column_key = table._column_locations.get_key(column_index)
        row = table.rows.get(row_key)
        if row is None or row.height != 1:
            return render_cell(row_index, column_index, base_style, width, cursor, hover)
        value = table._data[row_key][column_key]
        key = (row_key, column_key, row_index, column_index, base_style, width, cursor, hover,
               table.show_cursor, table._show_hover_cursor, table._pseudo_class_state)
        found = drawn.get(key)
        if found is not None and found[0] is value:
            return found[1]
        lines = render_cell(row_index, column_index, base_style, width, cursor, hover)
        if len(drawn) >= kept:
            drawn.clear()
        drawn[key] = (value, lines)
        return lines

    def cleared() -> None:
        drawn.clear()
        clear_caches()

    def restyled() -> None:
        drawn.clear()
        style_update()

    table._render_cell = cell
    table._clear_caches = cleared
    table.notify_style_update = restyled


def footer_key_class() -> type[FooterKey] | None:
    """Textual's `FooterKey` (the palette's key in a footer), or None."""
    if not have("footer-key"):
        return None
    from textual.widgets._footer import FooterKey

    return FooterKey


def component_rules(widget: Any, name: str) -> tuple[object, dict[str, Any]] | None:
    """The CSS rules of `widget`'s component class `name`, with a token that
    stays the same while they do (the component styles Textual worked out
    last); None before the widget is styled. Without the shape, Textual's
    public merge of them (a new object each time: the token is the rules)."""
    if have("component-styles"):
        look = widget._component_styles.get(name)
        return None if look is None else (look, look.base._rules)
    try:
        rules = widget.get_component_styles(name).base.get_rules()
    except KeyError:
        return None
    return (tuple(sorted(rules.items(), key=lambda item: item[0])), rules)


def set_footer_key_disabled(key: Any, disabled: bool) -> None:
    """Switch a `FooterKey` on or off in place (its look is its class; a
    click on it rings the bell while it is off)."""
    if key._disabled != disabled:
        key._disabled = disabled
        key.set_class(disabled, "-disabled")
        key.refresh()


class RenderContentHook(_MixedIntoWidget):
    """Mix into a `Widget` (before it): `shared_lines(key)` says whether
    the widget's lines may come from (and go to) a shared store, which is
    asked through `lines_for(key)` / `keep_lines(key, lines)`. Without the
    shape, every widget draws its own lines, as Textual does."""

    def shared_lines_key(self) -> Any:  # the widget says what it draws; None: its own
        return None

    def lines_for(self, key: Any) -> list[Any] | None:
        return None

    def keep_lines(self, key: Any, lines: list[Any]) -> None:
        pass

    def _render_content(self) -> None:  # Textual's: draw every line of the content
        widget: Any = self
        key = self.shared_lines_key() if have("render-content") else None
        if key is None or widget.text_selection is not None or widget.screen._selecting:
            super()._render_content()
            return
        lines = self.lines_for(key)
        if lines is None:
            super()._render_content()
            self.keep_lines(key, widget._render_cache.lines)
            return
        from textual.widget import _RenderCache

        widget._render_cache = _RenderCache(widget.size, lines)
        widget._dirty_regions.clear()


# --- a card room's terminals ------------------------------------------------------------------


def _xterm_parser_class() -> Any:
    from textual._xterm_parser import XTermParser

    return XTermParser


NO_TERMINAL_PARSER = ("this Textual has no terminal parser crib3 can use "
                      "(textual._xterm_parser.XTermParser): install a Textual "
                      "that pyproject.toml allows")


def card_room_problem() -> str | None:
    """Why a card room cannot run on this Textual, in one line, or None.
    `crib3 serve` asks before it listens, so that nobody is let in to a
    session that cannot start."""
    return None if have("xterm-parser") else NO_TERMINAL_PARSER


def xterm_parser() -> Any:
    """A new parser of a terminal's bytes into Textual's key and mouse
    events: the one a card room cannot run without.

    Textual's parser is a generator: an exception raised while it reads a
    sequence ends it for good, and the session then answers no key. A
    client chooses the bytes, so the sequences Textual's parser cannot
    read (a kitty key past U+10FFFF or too big for a number, a mouse report
    after an in-band size of zero) are dropped here as the keys Textual
    ignores. (Without the shape, Textual's own parser: the driver then
    starts a new one after such a sequence.)"""
    if not have("xterm-parser"):
        raise MissingInternals(NO_TERMINAL_PARSER)
    if have("xterm-key-parse"):
        return _tolerant_parser_class()()
    return _xterm_parser_class()()


UNREADABLE = (ValueError, OverflowError, ZeroDivisionError, ArithmeticError)
_tolerant: Any = None


def _tolerant_parser_class() -> Any:
    """Textual's parser, but for the two readers a client's numbers can
    break: each drops what it cannot read (see `xterm_parser`)."""
    global _tolerant
    if _tolerant is not None:
        return _tolerant
    from textual import events
    from textual.keys import Keys

    base = _xterm_parser_class()

    class TolerantXTermParser(base):  # type: ignore[misc, valid-type]  # Textual's private class
        def _sequence_to_key_events(self, sequence: str, alt: bool = False) -> Any:
            # (A generator in Textual: its keys are read here, all of them,
            # so that what raises does so inside the try. Before Textual
            # 8.2.x's _parse_extended_key the kitty keys were read in it.)
            try:
                keys = list(super()._sequence_to_key_events(sequence, alt))
            except UNREADABLE:  # read, and ignored, as Textual ignores a key it knows
                keys = [events.Key(Keys.Ignore, sequence)]
            yield from keys

        def parse_mouse_code(self, code: str) -> Any:
            try:
                return super().parse_mouse_code(code)
            except UNREADABLE:
                return None

    _tolerant = TolerantXTermParser
    return _tolerant


def client_console(term: str, colorterm: str | None) -> Any:
    """A Rich console whose colours are those of a client's terminal (its
    TERM and COLORTERM), not the server's: Rich reads those from the
    environment it is given (`_environ`). Without that parameter, the
    colour system is worked out here from the same two variables, as Rich
    does for the usual terminals."""
    from rich.console import Console

    settings: dict[str, Any] = dict(file=NullFile(), markup=True, highlight=False, emoji=False,
                                    legacy_windows=False, force_terminal=True, safe_box=False,
                                    soft_wrap=False)
    if have("console-environ"):
        environ = {"TERM": term}
        if colorterm:
            environ["COLORTERM"] = colorterm
        return Console(color_system="auto", _environ=environ, **settings)
    system: Literal["truecolor", "256", "standard"] | None
    if (colorterm or "").strip().lower() in ("truecolor", "24bit"):
        system = "truecolor"
    elif "256" in term:
        system = "256"
    elif term in ("dumb", "unknown"):
        system = None
    else:
        system = "standard"
    return Console(color_system=system, **settings)


class NullFile:
    """Where a session's console writes nothing (its app writes through its driver)."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


# --- one parse of the CSS ---------------------------------------------------------------------


# The store beyond the process (the disk: `crib3.tui.css_cache`), once given:
# it has `rules(name)` and `keep(name, rules)`, and names a parse `digest(key)`.
_parse_store: Any = None
_parse_digest: Callable[[tuple[object, ...]], str] | None = None
_parse_shared = False


def share_css_parses(store: Any = None, digest: Callable[[tuple[object, ...]], str] | None = None
                     ) -> bool:
    """One parse of each piece of CSS per process, whichever stylesheet and
    app asks, and (with a `store`) kept between runs under `digest(key)`.
    Textual keeps a cache per stylesheet, and each app (and each
    `Stylesheet.reparse`) starts a new one. A parse depends only on the CSS,
    where it was read from, how, and the theme's variables (substituted
    while parsing), so those are the key. False without the shape: each
    stylesheet parses as Textual does."""
    global _parse_shared, _parse_store, _parse_digest
    if store is not None and _parse_store is None:
        _parse_store, _parse_digest = store, digest
    if _parse_shared:
        return True
    if not have("css-parse"):
        return False
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules
    memory: dict[tuple[object, ...], list[Any]] = {}
    # The theme's variables as part of a key, made once per set: some two
    # hundred of them, asked for by every piece of CSS. (Textual replaces
    # the dict when they change, never changes one in place.)
    last: list[Any] = [None, 0, ()]

    def variables_key(variables: dict[str, str]) -> tuple[tuple[str, str], ...]:
        if last[0] is not variables or last[1] != len(variables):
            last[:] = [variables, len(variables), tuple(sorted(variables.items()))]
        return last[2]

    def shared(self: Any, css: str, read_from: Any, is_default_rules: bool = False,
               tie_breaker: int = 0, scope: str = "") -> list[Any]:
        variables = getattr(self, "_variables", None)
        if not isinstance(variables, dict):  # (not as checked: parsed as Textual does)
            return parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
        key = (css, read_from, is_default_rules, tie_breaker, scope, variables_key(variables))
        rules = memory.get(key)
        if rules is None:
            kept = _parse_store
            name = _parse_digest(key) if kept is not None and _parse_digest else None
            rules = kept.rules(name) if name is not None else None
            if rules is None:
                rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
                if name is not None:
                    kept.keep(name, rules)
            if len(memory) < 1024:  # a few hundred pieces at most, even at a card room
                memory[key] = rules
        return rules

    Stylesheet._parse_rules = shared  # type: ignore[method-assign]  # Textual's, replaced (see above)
    _parse_shared = True
    return True


# --- many terminals in one process ------------------------------------------------------------

_many_done = False


def many_terminals_in_one_process() -> None:
    """Make Textual fit for many apps, each with its own terminal, in one
    process (a card room: an app per SSH session on one event loop).

    - Textual redirects the process's stdout and stderr into the running
      app; with apps coming and going they would end up pointing at an app
      that is gone. The server prints nothing through them: the redirection
      is off.
    - A `Strip` caches its rendered text whatever the terminal, and some
      strips (blank lines) are shared between apps; a Rich `Style` caches
      its escape codes on itself, and styles are shared too. So a 256-colour
      client would be sent another client's 24-bit colours (or the other
      way round). Strips and styles keep those caches for 24-bit terminals
      only; any other colour system is drawn from styles of its own, made
      through Rich's public constructor (`_per_terminal_colours`).
    - Every app parses the same CSS into a stylesheet of its own: the
      parsed rules are shared instead (`share_css_parses`).
    - A `Strip` divided at its own end, or cropped and extended to exactly
      itself, keeps itself in its own cache: a reference cycle, which only
      the cyclic garbage collector frees, in a full collection that stops
      every session of the process. Those two calls return the strip
      itself without caching it (`_strips_without_cycles`).
    - Line filters that do the same to a line are one filter for every app
      in the process, and what such a filter made of a line is kept for
      every app in a bounded cache (`_shared_line_filters`).
    - A `Strip` makes seven small caches as it is made, though most strips
      never use most of them: here each is made when first used
      (`_strips_with_lazy_caches`).
    - Textual's terminal parser caches, for the whole process, the keys it
      made of a sequence under (parser, sequence): each session's parser,
      and through its key events the session's app, stayed in that cache
      long after the session ended (a worker grew with every session).
      Keys are parsed here without it (`_keys_parsed_without_a_shared_cache`).
    - A widget's backgrounds are worked out from two colours, but cached
      (for the whole process, 1,024 at most) under the widget's styles
      cache as well, which holds the lines the widget drew: the last
      thousand widgets drawn stayed, and with them ended sessions' screens
      (some 16,000 objects in a worker). The cache is keyed by the colours
      alone (`_inner_outer_keyed_by_colours`).
    - The screen under a dialog (the show's summary after every hand, at
      every seat) is drawn tinted, and Textual works the tint out again
      for every segment of it, at every frame while the dialog is open:
      a segment's style and the tint make the same style each time, so it
      is worked out once a style (`_backdrops_tinted_by_style`).

    Each part is skipped where its shape is missing (Textual's own way),
    but for the colours, which use only public names.
    """
    global _many_done
    if _many_done:
        return
    if have("stdio-redirection"):
        import textual.app

        textual.app.redirect_stdout = contextlib.nullcontext  # type: ignore[misc, assignment]  # a class put out of the way
        textual.app.redirect_stderr = contextlib.nullcontext  # type: ignore[misc, assignment]  # a class put out of the way
    _per_terminal_colours()
    share_css_parses()
    _strips_without_cycles()
    if have("strip-slots"):
        _strips_with_lazy_caches()
    _shared_line_filters()  # (after: a line a shared filter made needs no cache of its own)
    if have("xterm-key-cache"):
        _keys_parsed_without_a_shared_cache()
    if have("inner-outer-cache"):
        _inner_outer_keyed_by_colours()
    if have("background-screen"):
        _backdrops_tinted_by_style()
    _many_done = True


_STYLE_FLAGS = ("bold", "dim", "italic", "underline", "blink", "blink2", "reverse", "conceal",
                "strike", "underline2", "frame", "encircle", "overline")


def _style_of_its_own(style: Any) -> Any:
    """A copy of `style` made anew (Rich's public constructor), so the
    escape codes it caches on itself are for one colour system only. (Its
    meta, the handlers of clicks, plays no part in what is drawn.)"""
    from rich.style import Style

    return Style(color=style.color, bgcolor=style.bgcolor, link=style.link,
                 **{flag: getattr(style, flag) for flag in _STYLE_FLAGS})


def _per_terminal_colours() -> None:
    """`Strip.render` for a terminal that is not 24-bit draws from styles of
    its own, one per colour system, and never reads or fills the strip's
    cache of its rendered text (see `many_terminals_in_one_process`)."""
    from rich.color import ColorSystem
    from rich.console import COLOR_SYSTEMS
    from textual.strip import Strip

    cached_render = Strip.render
    truecolor = ColorSystem.TRUECOLOR
    per_system: dict[ColorSystem, Callable[[Any], Any]] = {}

    def styles_for(system: ColorSystem) -> Callable[[Any], Any]:
        found = per_system.get(system)
        if found is None:
            found = per_system[system] = lru_cache(maxsize=16384)(_style_of_its_own)
        return found

    def render(self: Strip, console: Any) -> str:
        name = console.color_system
        system = COLOR_SYSTEMS.get(name, truecolor) if name else truecolor
        if system == truecolor:
            return cached_render(self, console)
        own = styles_for(system)
        return "".join([text if style is None else own(style).render(text, color_system=system)
                        for text, style, _ in self])

    Strip.render = render  # type: ignore[method-assign]  # Textual's, replaced (see above)


_keys_uncached = False


def _keys_parsed_without_a_shared_cache() -> None:
    """See `many_terminals_in_one_process`. The parser copies each key it
    takes from the cache, so parsing afresh each time gives the same keys;
    parsing one sequence is one regular expression."""
    global _keys_uncached
    parser = _xterm_parser_class()
    cached = parser._parse_extended_key
    cached.cache_clear()
    parser._parse_extended_key = cached.__wrapped__
    _keys_uncached = True


_inner_outer_by_colours = False


def _inner_outer_keyed_by_colours() -> None:
    """See `many_terminals_in_one_process`. What is worked out depends on
    the two colours only (Textual's own function, called with the class)."""
    global _inner_outer_by_colours
    from textual._styles_cache import StylesCache

    cached = StylesCache.get_inner_outer
    work_out = cached.__wrapped__

    @lru_cache(1024)
    def by_colours(base_background: Any, background: Any) -> Any:
        return work_out(StylesCache, base_background, background)

    def get_inner_outer(self: StylesCache, base_background: Any, background: Any) -> Any:
        return by_colours(base_background, background)

    cached.cache_clear()
    StylesCache.get_inner_outer = get_inner_outer  # type: ignore[method-assign, assignment]  # Textual's, keyed anew (see above)
    _inner_outer_by_colours = True


# The styles a dialog's backdrop keeps tinted: a screen holds some hundreds
# of styles; emptied when full (the next frame works them out again).
TINTED_STYLES = 4096


def _backdrops_tinted_by_style() -> None:
    """See `many_terminals_in_one_process`. Each style is tinted by
    Textual's own code (a one-segment line), and kept under the style and
    the tint: the same segments come out, only fewer are worked out.
    (Textual drops a style's meta and link under a dialog: the tinted
    style depends on its colours and attributes alone.)"""
    from rich.segment import Segment
    from textual.renderables.background_screen import BackgroundScreen

    work_out = BackgroundScreen.process_segments
    tinted: dict[tuple[object, ...], Any] = {}

    def process_segments(cls: type, segments: Any, color: Any) -> Any:
        for segment in segments:
            text, style, control = segment
            if control:
                yield segment
                continue
            # (what the tint keeps of a style: not its meta, the offsets
            # and click handlers that make most segments' styles differ)
            key = (color, None) if style is None else (
                color, style.color, style.bgcolor, style._attributes, style._set_attributes)
            made = tinted.get(key)
            if made is None:
                if len(tinted) >= TINTED_STYLES:
                    tinted.clear()
                made = tinted[key] = next(iter(work_out([Segment(" ", style)], color))).style
            yield Segment(text, made, control)

    BackgroundScreen.process_segments = classmethod(process_segments)  # type: ignore[method-assign, assignment]  # Textual's, kept by style (see above)


def _strips_without_cycles() -> None:
    """`Strip.divide` and `Strip.crop_extend` as Textual has them, except
    that a result that is the strip itself is not cached on it: the answer
    is the same, found as fast."""
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

    Strip.divide = divide_once  # type: ignore[method-assign]  # Textual's, replaced (see above)
    Strip.crop_extend = crop_extend_once  # type: ignore[method-assign]  # Textual's, replaced (see above)


def _shared_line_filters() -> None:
    """Each widget is drawn through the process's one filter of each kind
    (the same kind and settings: the same terminal theme, ...): the lines
    that the seats of a table share were otherwise filtered again at every
    seat, each seat's results pushing the others' out of small caches. A
    filter that keeps state of its own (crib3's ASCII filter notes the
    glyphs it could not spell) stays the app's."""
    from textual.filter import ANSIToTruecolor, DimFilter, LineFilter, Monochrome, NoColor
    from textual.widget import Widget

    shared: dict[tuple[object, ...], LineFilter] = {}
    theme_known = have("truecolor-filter-theme")

    def kind(line_filter: LineFilter) -> tuple[object, ...] | None:
        """What a filter does, as a key; None for one that is not shared."""
        made = type(line_filter)
        if made is ANSIToTruecolor:
            return (made, cast(ANSIToTruecolor, line_filter)._terminal_theme) if theme_known \
                else None
        if made in (NoColor, Monochrome):
            return (made,)
        if made is DimFilter:
            return (made, cast(DimFilter, line_filter).dim_factor)
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

    Widget.get_line_filters = get_line_filters  # type: ignore[method-assign]  # Textual's, replaced (see above)
    if have("strip-slots"):
        _shared_filtering(shared)


# What a shared filter made of a line, for every app. A table's event
# filters some seventy lines (its three seats): this holds some thirty
# tables' lines at once.
FILTERED_LINES = 2048
# An entry holds the line's segments twice (as its key, and filtered), and
# each widget's drawing makes Rich styles of its own, equal to the last
# drawing's. Kept lines share one style of each kind (equal as Rich
# compares styles, by their hash), from a table of at most this many
# (emptied when full: lines kept keep theirs).
KEPT_STYLES = 4096


def _shared_filtering(shared: dict[tuple[object, ...], Any]) -> None:
    """`Strip.apply_filter` for a shared filter: looked up by the line's
    segments (and the filter and background) before it is filtered, as
    Textual filters it; any other filter as Textual applies it."""
    from rich.segment import Segment
    from textual.color import Color
    from textual.filter import LineFilter
    from textual.strip import Strip

    apply_filter = Strip.apply_filter
    done: OrderedDict[tuple[object, ...], Strip] = OrderedDict()
    # A strip also keeps what the shared filter made of it, in the slot
    # Textual keeps its own filter cache in: a widget's lines are filtered
    # again at every frame that repaints any line beside them, and most are
    # the same strips as at the last frame. Found so, a line costs no key of
    # its segments (hashing every style).
    slot: Any = Strip._filter_cache  # type: ignore[misc]  # the slot's descriptor (typed as a strip's cache)
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

    def apply_shared_filter(self: Strip, filter: LineFilter, background: Color) -> Strip:
        # (Textual's own parameter names, `filter` among them: its callers may name them)
        if not any(filter is f for f in shared.values()):
            return apply_filter(self, filter, background)
        mine = filtered_of(self)
        if mine is not None:
            found = mine.get((filter, background))
            if found is not None:
                return found  # this very strip, filtered before (a line the widget kept)
        try:
            key = (filter, background, tuple(self._segments))
            found = done.get(key)
        except TypeError:  # (a segment that cannot be a key: a control code list)
            return apply_filter(self, filter, background)
        if found is None:
            segments = one_of_each(self._segments)
            filtered = filter.apply(segments, background)
            if all(a.style is b.style and a.text is b.text and a.control is b.control
                   for a, b in zip(segments, filtered)) and len(segments) == len(filtered):
                filtered = segments  # (unchanged: the same segments serve as key and line)
            found = done[(filter, background, tuple(segments))] = \
                Strip(filtered, self._cell_length)
            if len(done) > FILTERED_LINES:
                done.popitem(last=False)
        else:
            done.move_to_end(key)
        if found is not self:  # (never a strip that holds itself: a cycle)
            if mine is None:
                mine = {}  # (as Textual's cache is used: `get` and set; a handful)
                keep_filtered(self, mine)
            mine[(filter, background)] = found
        return found

    Strip.apply_filter = apply_shared_filter  # type: ignore[method-assign]  # Textual's, replaced (see above)


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
    one makes it first. What each method does is Textual's own, called as
    it was."""
    from textual.cache import FIFOCache
    from textual.strip import Strip

    caches = [slot for _, slot, _ in _STRIP_CACHES]

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

    Strip.__init__ = __init__  # type: ignore[method-assign]  # Textual's, replaced (see above)
    for name, slot, size in _STRIP_CACHES:
        setattr(Strip, name, lazily(getattr(Strip, name), slot, size))

