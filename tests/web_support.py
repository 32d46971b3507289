"""The card room's web door in the test's own event loop, and headless
browser clients (aiohttp's websocket client) shaped like `ssh_support.Client`:
they type keys and keep every byte they receive."""

from __future__ import annotations

import asyncio
import contextlib
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
from ssh_support import ScreenReader, plain, serving

from crib3.net.web import WebDoor
from crib3.net.web_options import WebOptions


@asynccontextmanager
async def web_serving(folder: Path, keys: Path | None = None, workers: int = 1,
                      door_options: dict | None = None, **room_options):
    """A card room (as `ssh_support.serving`) with its web door open on a
    free port of 127.0.0.1: yields (server, door). Its invites are where
    the sessions' invite key makes them (`data_dir()`: set CRIB3_HOME)."""
    async with serving(folder, keys=keys, workers=workers,
                       web=WebOptions(port=0, **(door_options or {})), **room_options) as server:
        yield server, server.door


class WebTerminal:
    """What a browser's terminal was sent, in order."""

    def __init__(self) -> None:
        self.received = bytearray()
        self.arrived = asyncio.Event()
        self.closed = asyncio.Event()
        self.close_code: int | None = None

    def text(self) -> str:
        return plain(bytes(self.received))


class WebClient(ScreenReader):
    """One person in a browser: the page's requests, then its websocket."""

    def __init__(self, http: aiohttp.ClientSession, url: str) -> None:
        super().__init__()
        self.http = http
        self.url = url
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.terminal = WebTerminal()
        self._outbox: asyncio.Queue[bytes | str | None] = asyncio.Queue()
        self._tasks: list[asyncio.Task] = []

    @classmethod
    async def arrive(cls, door: WebDoor, name: str | None = None, token: str | None = None,
                     origin: str | None = None) -> WebClient:
        """A browser that has redeemed `token` (or, under --open, given
        `name`); not connected yet."""
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        client = cls(http, door.url)
        headers = {"Origin": origin or door.url}
        if token is not None:
            async with http.post(f"{door.url}/api/redeem", json={"token": token},
                                 headers=headers) as response:
                assert response.status == 200, await response.text()
        if name is not None:
            async with http.post(f"{door.url}/api/name", json={"name": name},
                                 headers=headers) as response:
                assert response.status == 200, await response.text()
        return client

    @classmethod
    async def connect(cls, door: WebDoor, name: str | None = None, token: str | None = None,
                      size=(80, 24)) -> WebClient:
        client = await cls.arrive(door, name, token)
        await client.open(size)
        return client

    async def open(self, size=(80, 24), origin: str | None = None) -> None:
        """The page's websocket (again, after a blip: the same cookie)."""
        self.terminal.closed.clear()
        self._outbox = asyncio.Queue()
        self.ws = await self.http.ws_connect(f"{self.url}/ws?cols={size[0]}&rows={size[1]}",
                                             origin=origin or self.url, max_msg_size=0)
        self._tasks = [asyncio.ensure_future(self._read(self.ws)),
                       asyncio.ensure_future(self._write(self.ws))]

    async def _read(self, ws) -> None:
        async for message in ws:
            if message.type == aiohttp.WSMsgType.BINARY:
                self.terminal.received += message.data
                self.terminal.arrived.set()
        self.terminal.close_code = ws.close_code
        self.terminal.closed.set()
        self.terminal.arrived.set()

    async def _write(self, ws) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            while (data := await self._outbox.get()) is not None:
                if isinstance(data, str):
                    await ws.send_str(data)
                else:
                    await ws.send_bytes(data)

    def press(self, keys: str | bytes) -> None:
        self._outbox.put_nowait(keys.encode() if isinstance(keys, str) else keys)

    def send_text(self, text: str) -> None:
        """A text frame, as the page sends its terminal's size (or not)."""
        self._outbox.put_nowait(text)

    def resize(self, cols: int, rows: int) -> None:
        import json

        self._outbox.put_nowait(json.dumps({"cols": cols, "rows": rows}))

    async def shows(self, text: str, timeout: float = 10.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while text not in self.terminal.text()[-20000:]:
            remaining = deadline - loop.time()
            assert remaining > 0, f"{text!r} never arrived; last: {self.terminal.text()[-600:]!r}"
            self.terminal.arrived.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.terminal.arrived.wait(), remaining)

    async def drop(self) -> None:
        """The network blips: the socket goes, the cookie stays."""
        self._outbox.put_nowait(None)
        if self.ws is not None:
            await self.ws.close()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(task, 5)

    def close(self) -> None:
        asyncio.ensure_future(self.aclose())

    async def aclose(self) -> None:
        await self.drop()
        await self.http.close()
