"""The web door end to end, in a real browser: Debian's chromium, driven by
playwright, opens an invite link, sits at a table with two SSH players
(asyncssh clients), throws and plays a hand, and the screen is read from
the terminal's own buffer. Skipped where chromium or playwright is absent
(`.ci/run` installs both). With CRIB3_SCREENSHOTS=1 the lobby and the
table are saved as PNGs in assets/screenshots/."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest

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
SHOTS = Path(__file__).parent.parent / "assets" / "screenshots"


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

            # Through the first hand: Ann throws and plays from the browser
            # (1 at once where a card is wanted, Enter to go on), Bob and Cat
            # press Enter over SSH.
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 120
            took_shot = False
            while table.game.state.hand_number < 2:
                assert loop.time() < deadline, await screen(page)
                now = await screen(page)
                if not took_shot and "Throw" in now:
                    await page.screenshot(path=str(shots / "web-table.png"))
                    took_shot = True
                await page.keyboard.press("1" if ("Throw" in now or "Play" in now) else "Enter")
                for friend in (bob, cat):
                    friend.press("\r")
                await asyncio.sleep(0.05)
            events = table.game.events
            assert any(e.type == "CardDiscarded" and e.seat == 0 for e in events)
            assert any(e.type == "CardPlayed" and e.seat == 0 for e in events)
            assert table.seats[0].key.startswith("web:")
            bob.close()
            cat.close()
        finally:
            await browser.close()
    assert requests and all(url.startswith(here) for url in requests), requests
