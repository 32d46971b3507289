"""What a screen update costs a card-room session (issue 11, capacity).

Each event of a table is drawn once per seat, on the server's one event
loop, so these are checked at the level a client meets them: the bytes a
session's SSH channel is sent, and the widgets Textual has to build.
"""

from __future__ import annotations

import asyncio
import statistics

from textual.css.stylesheet import Stylesheet
from textual.widgets._footer import FooterKey

from benchmarks.test_screen_update import OneTable, finished_game, measure
from crib3.net.sharing import many_terminals_in_one_process
from crib3.tui.screens.table import TableScreen
from crib3.tui.words import Mode


def test_an_event_redraws_what_changed_not_the_whole_screen():
    """Before: a mode change repainted the screen, and the footer's keys
    were rebuilt and laid out again, so nearly every event sent the whole
    80x24 screen (~16 KB) to every seat."""
    _, sizes, whole = asyncio.run(measure(events=40))
    # A frame that repaints only what changed: about half the whole screen's
    # bytes at the median (before: more than the whole screen, ~16 KB).
    assert statistics.median(sizes) < whole * 0.75, (statistics.median(sizes), whole)


async def test_the_footer_tells_its_keys_what_they_say_now():
    """Enter goes from "Go on" to "Throw": the footer's keys are the same
    widgets, saying what Textual's own footer would say (no rebuild)."""
    app = OneTable(finished_game())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        assert isinstance(screen, TableScreen)
        screen.mode = Mode.WAITING_FOR_ENTER
        await pilot.pause()
        before = list(screen.query(FooterKey))
        said = [k.description for k in before]
        assert said[0] == "Go on"
        screen.mode = Mode.OTHERS_TURN  # no Enter: one key fewer
        await pilot.pause()
        assert [k.description for k in screen.query(FooterKey)] == said[1:]
        screen.mode = Mode.WAITING_FOR_ENTER
        await pilot.pause()
        after = list(screen.query(FooterKey))
        assert [k.description for k in after] == said
        kept = len(before) - 1  # one key went and came back; the others stayed
        assert sum(a is b for a, b in zip(after, before)) >= kept - 1


def test_apps_in_one_process_share_the_parsed_css():
    """Before: every session's app parsed all of the CSS again (most of a
    session's start)."""
    many_terminals_in_one_process()
    css = "Screen { background: $background; } Static { height: 1; }"
    first, second = Stylesheet(variables={"background": "black"}), \
        Stylesheet(variables={"background": "black"})
    for sheet in (first, second):
        sheet.add_source(css, read_from=("test", "css"))
        sheet.parse()
    assert first.rules and first.rules[0] is second.rules[0]
    other = Stylesheet(variables={"background": "white"})  # another theme: parsed anew
    other.add_source(css, read_from=("test", "css"))
    other.parse()
    assert other.rules[0] is not first.rules[0]


def test_a_hand_is_drawn_again_only_when_it_changed(monkeypatch):
    """Before: every event's new view redrew the hand (six large cards),
    though most events leave it as it was."""
    from crib3.tui.widgets.hand import HandView

    drawn = []
    render = HandView.render
    monkeypatch.setattr(HandView, "render", lambda self: drawn.append(1) or render(self))
    costs, _, _ = asyncio.run(measure(events=60))
    assert len(drawn) < 0.75 * len(costs), (len(drawn), len(costs))
