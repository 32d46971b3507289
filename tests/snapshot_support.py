"""SVG snapshot tests for Textual screens, on plain syrupy (no pytest-textual-snapshot).

pytest-textual-snapshot pins an old syrupy that holds pytest below 9, so this
module does the small part of it we need:

* ``SVGSnapshotExtension``: a syrupy single-file extension; each snapshot is one
  text file ``__snapshots__/<test module>/<test name>.svg`` beside the test module (a second
  snapshot in the same test gets ``<test name>.1.svg``).  A mismatch is reported
  as a short list of the terminal rows that differ, not a dump of the SVG.
* ``svg_snapshot``: a pytest fixture, ``snapshot.use_extension(SVGSnapshotExtension)``.
  Register it from ``tests/conftest.py`` with
  ``pytest_plugins = ["snapshot_support"]`` (``tests/`` is on ``sys.path``).
* ``screen_svg(app, size=..., keys=..., setup=...)``: runs the app headless with
  ``App.run_test``, presses the keys, waits for idle and animations, and returns
  ``App.export_screenshot()`` normalised so that the same screen gives the same
  bytes on every machine.
* ``at_sizes(name, sizes, *values)``: the ``pytest.param`` cases of one screen
  at several terminal sizes, with the ids ``<name>-<width>x<height>``, so that one
  parametrized test stores ``<test name>[<name>-80x24].svg`` and so on.

Usage (pytest-asyncio is in strict mode here, hence the mark)::

    @pytest.mark.asyncio
    async def test_title_screen(svg_snapshot):
        assert await screen_svg(lambda: CribApp(seed=1), keys=["enter"]) == svg_snapshot

Update the stored files with ``pytest tests/test_x.py --snapshot-update`` and
look at the changed ``.svg`` files (any browser or image viewer shows them)
before committing them.

What is pinned, so that the shell pytest runs in cannot change a byte
(checked by running the demo test's app under each variable below):

* Size: ``run_test(size=...)``, 80x24 by default, headless: ``COLUMNS``,
  ``LINES``, ``TERM``, ``COLORTERM`` and the real terminal play no part.
* Colour depth: the export always renders truecolor, so ``FORCE_COLOR`` and
  ``TEXTUAL_COLOR_SYSTEM`` (``standard``/``256``/``truecolor``) play no part.
* ``NO_COLOR``: Textual reads it when an ``App`` is *constructed*.  Given a
  factory (``lambda: MyApp()``), ``screen_svg`` builds the app with ``NO_COLOR``
  and ``FORCE_COLOR`` removed from ``os.environ`` (then puts them back).  Given
  an app instance that was built with ``NO_COLOR`` set, it raises an error
  (tests/conftest.py already unsets ``NO_COLOR`` for every test).
* Animations: ``app.animation_level = "none"`` whatever ``TEXTUAL_ANIMATIONS``
  says, then ``wait_for_scheduled_animations()`` and ``pause()`` before export.
* Tooltips and notifications (toasts): off, ``run_test``'s defaults.
* Title: a fixed ``title`` (default ``"crib3"``) instead of ``App.title``.
* Rich's per-export id (``terminal-<adler32 of the content>``, the prefix of
  every CSS class and clip-path) becomes ``terminal-snap``: the number is
  deterministic but changes with *any* change on screen, which would turn a
  one-character change into a diff of every line.
* ``TEXTUAL_THEME``, ``TEXTUAL_FILTERS`` and ``TEXTUAL_DIM_FACTOR`` are read
  once, when ``textual`` is first imported, so they cannot be undone per test:
  ``screen_svg`` raises an error naming them if they are not at their defaults.
* Not pinned: the installed textual and rich versions.  A new release may
  render differently; then review and ``--snapshot-update``.
"""

from __future__ import annotations

import difflib
import html
import inspect
import os
import re
from collections.abc import Awaitable, Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from textual.app import App
from textual.pilot import Pilot

__all__ = [
    "SNAPSHOT_TITLE",
    "SVGSnapshotExtension",
    "at_sizes",
    "normalise_svg",
    "screen_svg",
    "size_id",
    "summarise_svg_diff",
    "svg_snapshot",
    "svg_row_text",
]

SNAPSHOT_TITLE = "crib3"
"""Window title drawn in every snapshot (instead of the app's own title)."""

STABLE_ID = "terminal-snap"
"""Replaces Rich's ``terminal-<number>`` prefix in exported SVGs."""

# Environment variables removed while screen_svg builds an app from a factory.
_UNSET_WHILE_BUILDING = ("NO_COLOR", "FORCE_COLOR")

# Rich prefixes every class and clip-path with "<unique_id>-"; the id is read
# from its first CSS rule, e.g. ".terminal-3006825005-matrix {".
_UNIQUE_ID = re.compile(r"\.(terminal-\d+)-matrix\b")
# Screen text is in <text class="<id>-r<N>" ...>; the window title is "<id>-title".
_TEXT_ELEMENT = re.compile(r'<text class="[^"]*-r\d+"[^>]*>(.*?)</text>', re.S)

# Caps on what a failing snapshot prints.
_MAX_REPORTED_LINES = 8
_MAX_LINE_CHARS = 100


# --------------------------------------------------------------------------
# syrupy extension and fixture
# --------------------------------------------------------------------------


class SVGSnapshotExtension(SingleFileSnapshotExtension):
    """One ``.svg`` text file per snapshot, with a short row-level diff."""

    file_extension = "svg"
    _write_mode = WriteMode.TEXT

    def diff_lines(self, serialized_data: Any, snapshot_data: Any) -> Iterator[str]:
        # syrupy calls this with (received, stored); report stored -> received.
        yield from summarise_svg_diff(str(snapshot_data), str(serialized_data))


@pytest.fixture
def svg_snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    """The syrupy ``snapshot`` fixture, storing one ``.svg`` file per assertion."""
    return snapshot.use_extension(SVGSnapshotExtension)


def size_id(size: tuple[int, int]) -> str:
    """A terminal size as a test id: ``(80, 24)`` is ``"80x24"``."""
    return f"{size[0]}x{size[1]}"


def at_sizes(name: str, sizes: Iterable[tuple[int, int]], *values: Any) -> list[Any]:
    """One screen's cases for a parametrized snapshot test: ``values`` then
    the size, for each of ``sizes``, with the id ``"<name>-<width>x<height>"``
    (which syrupy puts in the stored file's name)."""
    return [pytest.param(*values, size, id=f"{name}-{size_id(size)}") for size in sizes]


# --------------------------------------------------------------------------
# Diff reporting
# --------------------------------------------------------------------------


def svg_row_text(line: str) -> str | None:
    """The visible terminal text in one line of an exported SVG, or None.

    Rich writes one terminal row per line of the SVG, as ``<text>`` elements;
    their contents joined, unescaped, are what the row shows.
    """
    parts = _TEXT_ELEMENT.findall(line)
    if not parts:
        return None
    return html.unescape("".join(parts)).replace("\xa0", " ").rstrip()


def _clip(text: str) -> str:
    text = repr(text)
    if len(text) > _MAX_LINE_CHARS:
        text = text[: _MAX_LINE_CHARS - 1] + "…"
    return text


def summarise_svg_diff(expected: str, received: str) -> Iterator[str]:
    """A few readable lines saying where two SVG snapshots differ.

    Lines holding terminal text are shown as that text; other changed lines
    (styles, sizes) are shown raw, clipped. At most ``_MAX_REPORTED_LINES``
    changes are listed, then a count of the rest.
    """
    if not expected:  # syrupy has already said "Snapshot ... does not exist!"
        yield "No stored SVG yet: create it with pytest <test file> --snapshot-update"
        return
    old_lines = expected.splitlines()
    new_lines = received.splitlines()
    text_changes: list[list[str]] = []  # listed first: the most telling
    other_changes: list[list[str]] = []
    changed_old = changed_new = 0
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        changed_old += i2 - i1
        changed_new += j2 - j1
        for k in range(max(i2 - i1, j2 - j1)):
            old = old_lines[i1 + k] if i1 + k < i2 else None
            new = new_lines[j1 + k] if j1 + k < j2 else None
            number = (i1 + k + 1) if old is not None else (j1 + k + 1)
            old_text = svg_row_text(old) if old is not None else None
            new_text = svg_row_text(new) if new is not None else None
            is_text = old_text is not None or new_text is not None
            changes = text_changes if is_text else other_changes
            if is_text:
                label = f"svg line {number} (screen text)"
                old_shown, new_shown = old_text, new_text
            else:
                label = f"svg line {number}"
                old_shown, new_shown = old, new
            if None not in (old, new, old_text) and old_text == new_text:
                changes.append([f"  {label}, same text, new colours/styles: {_clip(old_text)}"])
                continue
            entry = [f"  {label}:"]
            if old is not None:
                entry.append(f"    - {_clip(old_shown or '')}")
            if new is not None:
                entry.append(f"    + {_clip(new_shown or '')}")
            changes.append(entry)
    yield (
        f"SVG snapshot differs: {changed_old} of {len(old_lines)} stored lines changed, "
        f"{changed_new} of {len(new_lines)} received lines changed "
        "(- stored, + received)."
    )
    changes = text_changes + other_changes
    for entry in changes[:_MAX_REPORTED_LINES]:
        yield from entry  # one string per printed line: pytest escapes "\n"
    if len(changes) > _MAX_REPORTED_LINES:
        yield f"  ... and {len(changes) - _MAX_REPORTED_LINES} more changed lines."
    yield "Review, then accept with: pytest <test file> --snapshot-update"


# --------------------------------------------------------------------------
# Taking the screenshot
# --------------------------------------------------------------------------


def normalise_svg(svg: str) -> str:
    """Replace Rich's content-hash id with ``STABLE_ID``; end with one newline."""
    match = _UNIQUE_ID.search(svg)
    if match is not None:
        svg = svg.replace(match.group(1), STABLE_ID)
    return svg.rstrip("\n") + "\n"


def _import_time_env_problems() -> list[str]:
    """Textual settings read from the environment at import, if not default."""
    from textual import constants

    problems = []
    if constants.DEFAULT_THEME != "textual-dark":
        problems.append(f"TEXTUAL_THEME={constants.DEFAULT_THEME!r}")
    if constants.FILTERS.strip():
        problems.append(f"TEXTUAL_FILTERS={constants.FILTERS!r}")
    if constants.DIM_FACTOR != 0.66:
        problems.append(f"TEXTUAL_DIM_FACTOR={round(constants.DIM_FACTOR * 100)}")
    return problems


@contextmanager
def _building_env() -> Iterator[None]:
    saved = {name: os.environ.pop(name) for name in _UNSET_WHILE_BUILDING if name in os.environ}
    try:
        yield
    finally:
        os.environ.update(saved)


AppOrFactory = App[Any] | Callable[[], App[Any]]


async def screen_svg(
    app: AppOrFactory,
    size: tuple[int, int] = (80, 24),
    keys: Iterable[str] = (),
    setup: Callable[[Pilot[Any]], Awaitable[None] | None] | None = None,
    title: str = SNAPSHOT_TITLE,
) -> str:
    """Run ``app`` headless and return a deterministic SVG of its screen.

    Args:
        app: An ``App`` instance, or a zero-argument callable that returns one
            (built with ``NO_COLOR``/``FORCE_COLOR`` unset).
        size: Terminal ``(width, height)``.
        keys: Keys to press, in order, after the first idle (``pilot.press``
            names: ``"enter"``, ``"down"``, ``"a"``, ...).
        setup: Optional ``setup(pilot)``, sync or async, run after the first
            idle and before the keys: clicks, calls on the app, and so on.
        title: Window title drawn in the SVG.
    """
    problems = _import_time_env_problems()
    if problems:
        raise RuntimeError(
            "SVG snapshots need Textual's default look, but these were set when "
            f"textual was imported: {', '.join(problems)}. Unset them and rerun."
        )
    if not isinstance(app, App):
        with _building_env():
            app = app()
    if app.no_color:
        raise RuntimeError(
            "This app was built while NO_COLOR was set, so its snapshot would be "
            "monochrome. Build it with NO_COLOR unset, or pass a factory "
            "(screen_svg(lambda: MyApp(...))) so screen_svg builds it."
        )
    app.animation_level = "none"
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        if setup is not None:
            result = setup(pilot)
            if inspect.isawaitable(result):
                await result
            await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await pilot.wait_for_scheduled_animations()
        await pilot.pause()
        svg = app.export_screenshot(title=title, simplify=True)
    return normalise_svg(svg)
