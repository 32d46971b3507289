"""Helpers for driving the Textual apps in tests, by key presses only, and
for reading their screens; the card room's apps on a room without SSH."""

from __future__ import annotations

import asyncio
import html
import os
import re
import time
from collections.abc import Callable

from snapshot_support import svg_row_text
from textual.app import App
from textual.pilot import Pilot

from crib3.engine import Rules
from crib3.players.autoplay import BotDriver
from crib3.room import Room
from crib3.tui.app import Crib3App
from crib3.tui.ascii import AsciiFilter
from crib3.tui.room_app import CardRoomApp
from crib3.tui.screens.table import TableScreen
from crib3.tui.settings import AutoMoves, GameChoices
from crib3.tui.words import IDLE

# Every card and every pause by a key (the go is said for you, as ever):
# what the tests of the keys, the prompts and each pause's screen play
# with. What is done for you by default is test_table_auto's.
BY_KEYS = AutoMoves(go=True, forced_card=False, continue_after=None)


def make_app(seed: int = 7, levels: tuple[str, str] = ("standard", "standard"),
             ascii: bool = False, autosave: bool = True, **rules: bool) -> Crib3App:
    """Ann's game against two bots of `levels` that move at once, from
    `seed`, played by keys (`BY_KEYS`); `rules` are the optional rules
    (skunks, muggins, short)."""
    choices = GameChoices(name="Ann", left=levels[0], right=levels[1], seed=seed,
                          auto_go=BY_KEYS.go, auto_play=BY_KEYS.forced_card, auto_continue=0.0,
                          **rules)
    return Crib3App(choices, think=0.0, ascii=ascii, autosave=autosave)


def table_app(game, me: int, bots: dict) -> App:
    """An app holding only a table, for a game made by the test, seen from
    `me`, played by keys (`BY_KEYS`)."""

    class OneTable(App[None]):  # no CSS of its own: the screens bring theirs
        def on_mount(self) -> None:
            self.push_screen(TableScreen(game, me, BotDriver(game, bots), think=0.0,
                                         auto=BY_KEYS))

    return OneTable()


def room_with_tables(tmp_path) -> Room:
    """Two tables: Ann's, playing with Bob and an expert; Cat's, waiting."""
    room = Room(tmp_path / "tables", think=3600)  # the computer players never get to move
    ann, bob, cat = (room.sign_in(n, None, lambda r: None) for n in ("Ann", "Bob", "Cat"))
    playing = room.open_table(ann, Rules(target=61, muggins=True), ("standard", "expert"))
    playing.sit(bob)
    playing.start("Ann")
    room.depart(bob)
    room.open_table(cat, Rules(skunks=True), ("easy", "standard"))
    room.sign_in("Dan", None, lambda r: None)
    return room


def room_app(room: Room, name: str) -> CardRoomApp:
    """`name`'s session in `room` (signed in already), its bots at once."""
    return CardRoomApp(room, room.people[name.lower()], think=0.0)


def table(app: Crib3App) -> TableScreen:
    for screen in reversed(app.screen_stack):
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError(f"no table among {app.screen_stack}")


async def wait_for(pilot: Pilot, condition: Callable[[], bool], timeout: float = 20.0,
                   what: str = "the app") -> None:
    """Let the app run until `condition()` holds (the bots think in threads)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            screen = pilot.app.screen
            raise AssertionError(f"timed out waiting for {what} (after {timeout:.0f} s; on "
                                 f"{type(screen).__name__}, mode "
                                 f"{getattr(screen, 'mode', None)})")
        await pilot.pause(0.01)
        await asyncio.sleep(0)


async def settled(pilot: Pilot) -> TableScreen:
    """Wait until the table waits for the person: a key is needed."""
    app = pilot.app
    await wait_for(pilot, lambda: app.screen is not table(app) or table(app).mode in IDLE
                   or table(app).waiting_for_enter)
    return table(app)


async def press_enter_until(pilot: Pilot, done: Callable[[TableScreen], bool],
                            presses: int = 400) -> TableScreen:
    """Press Enter (go on, throw or play the highlighted card, cut) until
    `done(table screen)` holds at a point where a key is due; return the
    table screen."""
    for _ in range(presses):
        screen = await settled(pilot)
        if done(screen):
            return screen
        await pilot.press("enter")
    raise AssertionError(f"not reached in {presses} presses of Enter")


async def press_until(pilot: Pilot, key: str, done: Callable[[], bool], what: str,
                      presses: int = 50) -> None:
    """Press `key` until `done()` (a focus moved along, a view turned), at
    most `presses` times, or the test fails saying `what` never came."""
    for _ in range(presses):
        if done():
            return
        await pilot.press(key)
    assert done(), f"{what}: not so after {presses} presses of {key}"


_SVG_TEXT = re.compile(
    r'<text [^>]*?x="(?P<x>[\d.]+)"[^>]*?textLength="(?P<length>[\d.]+)"'
    r'[^>]*?clip-path="url\(#[\w-]+-line-(?P<line>\d+)\)"[^>]*>(?P<text>.*?)</text>')


def screen_text(app: App) -> str:
    """Everything on the screen as plain text, for asserting what a person
    sees: the lines Textual's `export_screenshot()` draws (the screen on
    top over the screens under it, every line filter applied), read as
    text without the SVG around them (making the SVG was most of the time
    of the tests that read the screen at every step)."""
    screen = app.screen
    update = screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    lines = ["".join(strip.text for strip in line).rstrip() for line in update.strips]
    lines += [""] * (app.size.height - len(lines))
    text = "\n".join(lines[:app.size.height])
    if os.environ.get("CRIB3_SCREEN_TEXT_CHECK"):  # the same, but for spaces after a 🔎
        svg = svg_screen_text(app)
        assert text == svg or _spaced(text) == _spaced(svg), (text, svg)
    return text


def _spaced(text: str) -> str:
    """Text with each run of spaces as one: the SVG places a run of text
    after a double-width character (🔎) a cell further than its text says."""
    return re.sub(r" +", " ", text)


def svg_screen_text(app: App) -> str:
    """`screen_text` as read back from Textual's public `export_screenshot()`
    (an SVG in which each run of text sits at its column, as `x` in
    character widths): the slow way, kept to check the fast one
    (CRIB3_SCREEN_TEXT_CHECK=1)."""
    rows: dict[int, dict[int, str]] = {}
    for found in _SVG_TEXT.finditer(app.export_screenshot()):
        text = html.unescape(found["text"]).replace("\xa0", " ")
        width = float(found["length"]) / max(1, len(text))  # one cell, in SVG units
        rows.setdefault(int(found["line"]), {})[round(float(found["x"]) / width)] = text
    lines = []
    for number in range(app.size.height):
        line = ""
        for column, text in sorted(rows.get(number, {}).items()):
            line = line.ljust(column) + text
        lines.append(line.rstrip())
    return "\n".join(lines)


def drawn(app: App) -> list[str]:
    """The rows of the screen as the terminal gets them (modal dialogs with
    the screen under them)."""
    rows = (svg_row_text(line) for line in app.export_screenshot().splitlines())
    return [row for row in rows if row is not None]


async def assert_7bit(pilot: Pilot, where: str) -> list[str]:
    """The screen in ASCII mode is 7-bit, and the ASCII filter met no
    character it has no twin for; its rows."""
    await pilot.pause()
    app = pilot.app
    rows = drawn(app)
    wide = sorted({c for row in rows for c in row if ord(c) > 127})
    assert not wide, f"{where}: {wide} drawn in ASCII mode:\n" + "\n".join(rows)
    (ascii_filter,) = [f for f in app.get_line_filters() if isinstance(f, AsciiFilter)]
    assert not ascii_filter.unknown, f"{where}: no ASCII twin for {ascii_filter.unknown}"
    return rows
