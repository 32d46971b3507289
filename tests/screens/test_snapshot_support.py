"""The SVG snapshot helpers on a throwaway app (not crib3's UI).

The stored screen is tests/screens/__snapshots__/test_snapshot_support/<test>.svg;
refresh it with `pytest tests/screens/test_snapshot_support.py --snapshot-update`.
"""

import pytest
from snapshot_support import STABLE_ID, screen_svg, summarise_svg_diff, svg_row_text
from textual.app import App, ComposeResult
from textual.widgets import Footer, Static


def make_demo_app(text: str = "Hello from crib3: 15 two, 15 four, and a pair is six") -> App:
    class DemoApp(App):
        BINDINGS = [("q", "quit", "Quit"), ("n", "next", "Next hand")]

        def compose(self) -> ComposeResult:
            yield Static(text, id="message")
            yield Footer()

        def action_next(self) -> None:
            self.query_one("#message", Static).update("Next hand dealt")

    return DemoApp()


@pytest.mark.asyncio
async def test_demo_screen(svg_snapshot):
    assert await screen_svg(make_demo_app) == svg_snapshot


@pytest.mark.asyncio
async def test_same_screen_same_bytes():
    first = await screen_svg(make_demo_app())
    second = await screen_svg(make_demo_app())
    assert first == second
    assert STABLE_ID in first and "terminal-1" not in first


@pytest.mark.asyncio
async def test_keys_reach_the_app():
    svg = await screen_svg(make_demo_app, keys=["n"])
    rows = [row for row in map(svg_row_text, svg.splitlines()) if row]
    assert rows[0] == "Next hand dealt"


@pytest.mark.asyncio
async def test_diff_report_is_short():
    before = await screen_svg(make_demo_app)
    after = await screen_svg(lambda: make_demo_app("Hello from crib3: a changed line"))
    report = list(summarise_svg_diff(before, after))
    text = "\n".join(report)
    assert len(report) < 20 and len(text) < 1500
    assert "Hello from crib3: a changed line" in text
