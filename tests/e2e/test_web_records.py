"""The lobby's record views in a real browser (Debian's chromium, driven by
playwright, through the web door): the Players view paged, a profile with
its chart, My games and a game of it replayed. Every name on them is wide
(Han, kana, an emoji) or carries combining marks, and every screen is read
from xterm's buffer cell by cell and held against the same bytes laid out
with the server's widths (`test_web_widths.laid_out`): a name drawn a cell
wider or narrower in the browser than on the server would shift the rest
of its row. Skipped where chromium or playwright is absent."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from helpers import finished
from records_support import finished_game, rated_crowd
from test_web_browser import CHROMIUM, FLAGS, async_playwright, shows
from test_web_widths import laid_out, shown
from web_support import web_serving

from crib3.net.web_channel import WebChannel
from crib3.room.identities import key_identity
from crib3.room.seats import Seat

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (Debian's package)"),
    pytest.mark.skipif(async_playwright is None, reason="needs playwright"),
]
ME = "陳大文"  # the browser's: three wide characters
# The others on the board: marks on letters, wide characters, an emoji.
OTHERS = ["Zoe\u0308", "Jose\u0301 Nun\u0303ez", "李李李", "🃏 Joker", "ひらがなカナ漢字",
          "김 Kim", "Ζωή", "Алиса", "ǅemal", "O'Neil", "Ře\u030cka", "ça va"]


async def agrees(page, sent: bytearray, text: str, timeout: float = 15.0) -> list[list[str]]:
    """Wait until the browser shows `text` and every one of its cells holds
    what the server's bytes put there; the cells."""
    await shows(page, text)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        cols, rows = await page.evaluate("() => window.crib3Size()")
        browser = await page.evaluate("() => window.crib3Cells()")
        server = laid_out(bytes(sent), cols, rows)
        if browser == server and text in shown(browser):
            return browser
        assert loop.time() < deadline, \
            f"the browser draws:\n{shown(browser)}\nthe server laid out:\n{shown(server)}"
        await asyncio.sleep(0.1)


async def test_a_browser_pages_the_board_opens_a_profile_and_replays_one_of_its_games(
        tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    from crib3.room.results import Results

    sent = bytearray()  # what the server wrote to the browser's terminal
    write = WebChannel.write

    def keep(channel: WebChannel, data: bytes) -> None:
        if channel.session is not None and channel.session.identity.name == ME:
            sent.extend(data)
        write(channel, data)

    monkeypatch.setattr(WebChannel, "write", keep)
    async with web_serving(tmp_path, results=Results(tmp_path / "ratings")) as (server, door), \
            async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = await browser.new_page(viewport={"width": 1000, "height": 640})
            await page.goto(f"{door.url}/#invite={door.book.invite('the host', name=ME)}")
            await agrees(page, sent, "p Play now")
            # The browser's record, now that the room knows its key: rated
            # games among thirteen people, and two finished games of its own.
            me = next(p for p in server.room.people.values() if p.name == ME)
            identity = key_identity(me.key)
            assert identity is not None and identity.startswith("web ")
            room = server.room
            assert room.results is not None
            rated_crowd(room.results, [ME, *OTHERS], 150, identities=[identity],
                        at=datetime.now(UTC).isoformat())
            for number, other in ((1, OTHERS[0]), (2, OTHERS[2])):
                finished_game(room.folder, number, [Seat(ME, me.key), Seat(other, f"k{number}"),
                                                    Seat(None, None, "standard")], seed=number)
            place = room.records.place_of(identity)
            assert place is not None

            await page.keyboard.press("s")
            cells = await agrees(page, sent, f"of {len(OTHERS) + 1}.")
            listed = [row for row in cells if "".join(row).rstrip().endswith(
                datetime.now(UTC).date().isoformat())]
            assert any(ME in "".join(row) for row in listed) or place > 10, shown(cells)
            await page.keyboard.press("PageUp")
            cells = await agrees(page, sent, "page 1 of 2")
            page_one = shown(cells)
            await page.keyboard.press("PageDown")
            cells = await agrees(page, sent, "page 2 of 2")
            board = page_one + "\n" + shown(cells)
            for name in (ME, "Zoe\u0308", "李李李", "🃏 Joker", "Jose\u0301 Nun\u0303ez"):
                assert name in board, (name, board)
            # Each row of the board ends its last column in the same cell,
            # whatever its name is made of.
            ends = {len(row) - next(i for i, c in enumerate(reversed(row)) if c.strip())
                    for row in cells if "".join(row).rstrip().endswith(
                        datetime.now(UTC).date().isoformat())}
            assert len(ends) == 1, shown(cells)

            await page.keyboard.press("i")  # her own profile, its chart
            cells = await agrees(page, sent, "Rating over time")
            assert "rated games, by the day they ended (UTC)" in shown(cells)
            assert ME in shown(cells)
            await page.keyboard.press("Escape")
            await agrees(page, sent, "page 2 of 2")
            await page.keyboard.press("Escape")
            await agrees(page, sent, "p Play now")

            await page.keyboard.press("g")
            cells = await agrees(page, sent, "2 finished games")
            assert "Zoe\u0308" in shown(cells) and "李李李" in shown(cells), shown(cells)
            await page.keyboard.press("Enter")  # the latest: replayed with the coach
            await agrees(page, sent, "Play/pause")
            await page.keyboard.press("ArrowRight")
            await page.keyboard.press("q")
            await agrees(page, sent, "2 finished games")
        finally:
            await finished(browser.close(), 60, "chromium's close")
