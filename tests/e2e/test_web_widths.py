"""Names and chat with emoji and marks, as a browser draws them: xterm.js
must give every character the cells the server (Rich and Textual) gave it,
or each emoji shifts the rest of its row a cell and a table's box loses its
right border. Debian's chromium, driven by playwright, one launch: a
browser player named with eight emoji looks at the lobby (an SSH player's
table there, her name a letter with a mark, and another browser's, named
with emoji too), opens a table of her own, and the SSH player says a chat
line with emoji. Every screen is
read from xterm's buffer cell by cell and held against the same bytes laid
out with the server's widths (the cells an SSH terminal that agrees with
Rich draws). Skipped where chromium or playwright is absent."""

from __future__ import annotations

import asyncio
import re

import pytest
from helpers import finished
from rich.cells import get_character_cell_size
from ssh_support import Client, plain, until
from test_web_browser import CHROMIUM, FLAGS, async_playwright, shows
from web_support import WebClient, web_serving

from crib3.net.web_channel import WebChannel

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (Debian's package)"),
    pytest.mark.skipif(async_playwright is None, reason="needs playwright"),
]
EMOJI = "🐙🐢🦊🐸🐼🦉🐳🦄"  # (all from before Unicode 11: two cells in both tables)
# Another browser's (aiohttp's), small capitals and emoji, at a table in the lobby's list.
OTHER = "ᴋɪᴍ🦊🐼🐳🦊"
MARKED = "zoq\u0307"      # one mark on a letter: a name the room allows
SAID = "gg 🎉🎉 well 🐙 played end"
CSI = re.compile(r"\x1b\[([0-9;?<>=]*)[ -/]*([@-~])")
OSC = re.compile(r"\x1b\][^\x07\x1b]*(\x07|\x1b\\)")


def laid_out(data: bytes, cols: int, rows: int) -> list[list[str]]:
    """The screen the server's bytes make on a terminal with Rich's widths,
    cell by cell as `window.crib3Cells` reads xterm's: a cell's characters
    (a letter and its marks), "" for the second cell of a wide one. Only
    what a Textual app writes is followed: cursor moves, erasing, text."""
    text = data.decode("utf-8", "replace")
    cells = [[" "] * cols for _ in range(rows)]
    x = y = 0
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\x1b":
            csi = CSI.match(text, i)
            osc = OSC.match(text, i)
            if csi:
                params, final = csi.groups()
                if final == "H" and not params.startswith("?"):
                    parts = [int(p) if p else 1 for p in (params.split(";") + ["", ""])[:2]]
                    y, x = parts[0] - 1, parts[1] - 1
                elif final == "J" and params == "2":
                    cells = [[" "] * cols for _ in range(rows)]
                elif final == "K" and 0 <= y < rows:
                    cells[y][x:] = [" "] * (cols - x)
                i = csi.end()
            elif osc:
                i = osc.end()
            else:
                i += 2
            continue
        i += 1
        if char == "\r":
            x = 0
        elif char == "\n":
            y += 1
        elif char >= " " and 0 <= y < rows:
            width = get_character_cell_size(char)
            if width == 0:
                if x > 0:
                    cells[y][x - 1] += char
            elif x + width <= cols:
                cells[y][x] = char
                if width == 2:
                    cells[y][x + 1] = ""
                x += width
    return cells


def shown(cells: list[list[str]]) -> str:
    """The cells as lines, for a failure's message."""
    return "\n".join("".join(row).rstrip() for row in cells)


def boxes(cells: list[list[str]]) -> int:
    """How many rounded boxes the screen has, each checked whole: its right
    edge in one column, the top corner's, on every row down to the bottom
    corner (an emoji drawn a cell narrower than laid out pulls the edge of
    its row one cell left)."""
    found = 0
    for top, row in enumerate(cells):
        for left, cell in enumerate(row):
            if cell != "╭" or "╮" not in row[left:]:
                continue
            right = row.index("╮", left)
            for y in range(top + 1, len(cells)):
                edge = "╯" if cells[y][left] == "╰" else "│"
                assert cells[y][right] == edge, \
                    f"row {y}: no {edge} in column {right}\n{shown(cells)}"
                if edge == "╯":
                    break
            found += 1
    return found


async def agrees(page, sent: dict[str, bytearray], text: str, timeout: float = 15.0
                 ) -> list[list[str]]:
    """Wait until the browser shows `text` and every one of its cells holds
    what the server's bytes put there; the cells."""
    await shows(page, text)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        cols, rows = await page.evaluate("() => window.crib3Size()")
        browser = await page.evaluate("() => window.crib3Cells()")
        server = laid_out(bytes(sent.get(EMOJI, b"")), cols, rows)
        if browser == server:
            return browser
        assert loop.time() < deadline, \
            f"the browser draws:\n{shown(browser)}\nthe server laid out:\n{shown(server)}"
        await asyncio.sleep(0.1)


async def test_emoji_and_marked_names_and_chat_sit_in_the_servers_columns_in_a_browser(
        tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    sent: dict[str, bytearray] = {}  # what the server wrote to each browser's terminal
    write = WebChannel.write

    def keep(channel: WebChannel, data: bytes) -> None:
        if channel.session is not None:
            sent.setdefault(channel.session.identity.name, bytearray()).extend(data)
        write(channel, data)

    monkeypatch.setattr(WebChannel, "write", keep)
    async with web_serving(tmp_path) as (server, door), async_playwright() as playwright:
        zoq = await Client.connect(server.port, MARKED)
        await zoq.shows("Open a table")
        zoq.press("o")
        await zoq.shows("Second seat")
        zoq.press("\r")
        await zoq.shows("start the game")  # her table, open, in the lobby with her name
        other = await WebClient.connect(door, token=door.book.invite("the host", name=OTHER))
        await other.shows("Open a table")
        other.press("o")
        await other.shows("Second seat")
        other.press("\r")
        await other.shows("start the game")

        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = await browser.new_page(viewport={"width": 1000, "height": 640})
            token = door.book.invite("the host", name=EMOJI)
            await page.goto(f"{door.url}/#invite={token}")
            lobby = await agrees(page, sent, f"You are {EMOJI}")
            listed = [row for row in lobby if MARKED in "".join(row) or OTHER in "".join(row)]
            assert len(listed) >= 2, shown(lobby)  # (their tables' rows, and "Also here")
            other.press("l")  # (her table closes: the browser's is the one to watch)
            await until(lambda: all(t.seats[0].name != OTHER
                                    for t in server.room.tables.values()), what="closed")

            await page.keyboard.press("o")
            await shows(page, "Second seat")
            await page.keyboard.press("Enter")
            waiting = await agrees(page, sent, "start the game")
            assert any(EMOJI in "".join(row) for row in waiting), shown(waiting)
            assert boxes(waiting) == 1, shown(waiting)
            await page.keyboard.press("Enter")  # computer players in the other seats
            table = next(t for t in server.room.tables.values() if t.seats[0].name == EMOJI)
            await until(lambda: table.started, what="the start")

            before = len(zoq.terminal.received)
            zoq.press("l")  # she leaves her table (it closes), watches the browser's,
            await until(lambda: "Open a table" in plain(bytes(zoq.terminal.received[before:])),
                        what="her lobby")  # and says a line
            zoq.press("w")
            await zoq.shows("watching")
            zoq.press("c")
            await zoq.shows("Say at table")
            for piece in re.findall(r".{1,6}", SAID):
                zoq.press(piece)
                await asyncio.sleep(0.05)
            zoq.press("\r")
            cells = await agrees(page, sent, "played end")
            said = next(row for row in cells if "played end" in "".join(row))
            assert "".join(said).rstrip().endswith(f"{MARKED}: {SAID}"), shown(cells)
            assert boxes(cells) >= 3, shown(cells)  # the two computers', and hers
            zoq.close()
        finally:
            await finished(browser.close(), 60, "chromium's close")
            await other.aclose()
