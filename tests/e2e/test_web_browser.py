"""The web door end to end, in a real browser: Debian's chromium, driven by
playwright, opens an invite link, sits at a table with two SSH players
(asyncssh clients), throws and plays a hand, and the screen is read from
the terminal's own buffer; and from its lobby, presses p and is seated
with two SSH players by the play-now queue. Skipped where chromium or playwright is absent
(`.ci/run` installs both). With CRIB3_SCREENSHOTS=1 the lobby and the
table are saved as PNGs in assets/screenshots/."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest
from helpers import finished
from ssh_support import Client, until
from web_support import web_serving

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
try:
    from playwright.async_api import async_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    async_playwright = None

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (Debian's package)"),
    pytest.mark.skipif(async_playwright is None, reason="needs playwright"),
]
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = Path(__file__).parents[2] / "assets" / "screenshots"


async def screen(page) -> str:
    return await page.evaluate("() => window.crib3Screen ? window.crib3Screen() : ''")


async def shows(page, text: str, timeout: float = 20.0) -> str:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        now = await screen(page)
        if text in now:
            return now
        assert loop.time() < deadline, f"{text!r} never shown; the screen:\n{now}"
        await asyncio.sleep(0.05)


async def click_second_card(page, now: str) -> None:
    """A click in the middle of the second card of the hand (the box whose
    cards are numbered in their bottom edges: "─1─", "─2─")."""
    rows = now.split("\n")
    row = next(i for i, line in enumerate(rows) if "─2─" in line or "━2━" in line)
    col = rows[row].index("2")
    cols, lines = await page.evaluate("() => window.crib3Size()")
    box = await page.locator(".xterm-screen").bounding_box()
    x = box["x"] + (col + 0.5) * box["width"] / cols
    y = box["y"] + (row - 1.5) * box["height"] / lines  # a row up: inside the card
    await page.mouse.click(x, y)


async def test_a_browser_opens_an_invite_sits_with_two_ssh_players_and_plays_a_hand(
        tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    shots = SHOTS if os.environ.get("CRIB3_SCREENSHOTS") else tmp_path
    requests: list[str] = []
    async with web_serving(tmp_path) as (server, door), async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = await browser.new_page(viewport={"width": 1000, "height": 640})
            page.on("request", lambda request: requests.append(request.url))
            token = door.book.invite("the host", name="ann")
            here = door.url
            await page.goto(f"{door.url}/#invite={token}")
            await shows(page, "You are ann")
            assert "#invite" not in page.url  # the token left the address bar
            await page.screenshot(path=str(shots / "web-lobby.png"))

            await page.keyboard.press("o")                 # open a table, as offered
            await shows(page, "Second seat")
            await page.keyboard.press("Enter")
            await shows(page, "start the game")
            bob = await Client.connect(server.port, "bob")
            cat = await Client.connect(server.port, "cat")
            table = next(iter(server.room.tables.values()))
            for friend in (bob, cat):
                await friend.shows("waiting")
                friend.press("\r")
            await until(lambda: all(seat.name for seat in table.seats), what="three seated")
            await shows(page, "cat")
            await page.keyboard.press("Enter")             # start
            await until(lambda: table.started, what="the start")

            # Past the cut for the deal; then Ann throws her second card with
            # a click on it.
            for _ in range(100):
                now = await screen(page)
                if "Throw one card" in now:
                    break
                await page.keyboard.press("Enter")
                for friend in (bob, cat):
                    friend.press("\r")
                await asyncio.sleep(0.1)
            now = await shows(page, "Throw one card")
            await page.screenshot(path=str(shots / "web-table.png"))
            dealt = table.game.state.hands[0]
            await click_second_card(page, now)
            await until(lambda: table.game.state.discards[0] is not None, what="her throw")
            assert table.game.state.discards[0] == dealt[1]

            # A network blip: the socket goes; the page reconnects by itself,
            # back at her seat.
            session = next(iter(door.sessions))
            await session.chan.ws.close(code=1012)
            await until(lambda: door.sessions and next(iter(door.sessions)) is not session,
                        what="the page back")
            await shows(page, "l Leave")

            # Through the first hand: Ann plays from the browser (1 where a
            # card is wanted, Enter to go on); Bob and Cat press Enter over SSH.
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 120
            while table.game.state.hand_number < 2:
                assert loop.time() < deadline, await screen(page)
                now = await screen(page)
                await page.keyboard.press("1" if ("Throw" in now or "Play" in now) else "Enter")
                for friend in (bob, cat):
                    friend.press("\r")
                await asyncio.sleep(0.05)
            events = table.game.events
            assert any(e.type == "CardPlayed" and e.seat == 0 for e in events)
            assert table.seats[0].key.startswith(("web:", "first-use web "))

            # A window too small for the table: the page says how to make room.
            await page.set_viewport_size({"width": 480, "height": 300})
            notice = page.locator("#small")
            await notice.wait_for(state="visible", timeout=10000)
            assert "zoom out" in await notice.inner_text()
            await page.set_viewport_size({"width": 1000, "height": 640})
            await notice.wait_for(state="hidden", timeout=10000)
            bob.close()
            cat.close()
        finally:
            await finished(browser.close(), 60, "chromium's close")
    assert requests and all(url.startswith(here) for url in requests), requests


async def test_a_browser_presses_p_and_is_seated_with_two_ssh_players(tmp_path, monkeypatch):
    """Play now from Chromium: p in the lobby, the queue's line counting,
    and the table once two SSH players press p too."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    from crib3.room.results import Results

    async with web_serving(tmp_path, results=Results(tmp_path / "ratings")) as (server, door), \
            async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = await browser.new_page(viewport={"width": 1000, "height": 640})
            await page.goto(f"{door.url}/#invite={door.book.invite('the host', name='ann')}")
            await shows(page, "p Play now")
            await page.keyboard.press("p")
            await shows(page, "Looking for two players near 1500")
            friends = [await Client.connect(server.port, name) for name in ("bob", "cat")]
            for friend in friends:
                await friend.shows("Play now")
                friend.press("p")
            await until(lambda: len(server.room.lobby()) == 1, what="a table for the three")
            [table] = server.room.lobby()
            await until(lambda: table.online == {0, 1, 2}, what="all three at it")
            now = await shows(page, "l Leave")  # the browser at its seat
            assert "Looking for" not in now
            for friend in friends:
                friend.close()
        finally:
            await finished(browser.close(), 60, "chromium's close")
