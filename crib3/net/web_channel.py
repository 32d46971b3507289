"""A browser's websocket as a card-room session's `Terminal`.

A session (`crib3.net.session.PlaySession`) needs of its connection only
a few things (`crib3.net.session.Terminal`): `write(bytes)`,
`exit(status)`, `close()`, the client's environment, write-buffer limits
past which it is told the client stopped reading, and `wait_closed()`.
`WebChannel` gives them over an aiohttp websocket, so a browser seat is
the same session as an SSH one, with the same limits on keys, bytes and
size, the same frame skipping for a slow reader, and the same worker
processes.

Output is queued and sent by one task, a binary frame at a time; while the
queue holds more than the high-water mark (the browser, or the network, is
not keeping up) the session is told its output is paused
(`output_paused`), and resumed below the low mark.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from aiohttp import web

if TYPE_CHECKING:
    from crib3.net.session import PlaySession

FRAME_AT_MOST = 64 * 1024  # bytes in one websocket frame to the browser


class WebChannel:
    """One browser's terminal: output to it, and the session's callbacks."""

    def __init__(self, ws: web.WebSocketResponse, environment: dict[str, str]) -> None:
        self.ws = ws
        self.session: PlaySession | None = None  # the session it serves (set by the door)
        self._environment = environment
        self._queue: list[bytes] = []
        self._queued = 0
        self._high, self._low = 256 * 1024, 32 * 1024
        self._paused = False
        self._wake = asyncio.Event()
        self._closing = False
        self._closed = asyncio.get_running_loop().create_future()
        self.exit_status: int | None = None
        self._sender = asyncio.get_running_loop().create_task(self._send_all())

    # --- what a session asks of its channel -----------------------------------------

    def set_write_buffer_limits(self, high: int, low: int) -> None:
        self._high, self._low = high, low

    def get_environment(self) -> dict[str, str]:
        return dict(self._environment)

    def get_write_buffer_size(self) -> int:
        return self._queued

    def write(self, data: bytes) -> None:
        if self._closing:
            raise OSError("the browser has gone")
        self._queue.append(bytes(data))
        self._queued += len(data)
        self._wake.set()
        if not self._paused and self._queued > self._high and self.session is not None:
            self._paused = True
            self.session.output_paused()

    def exit(self, status: int) -> None:
        """The session is over: send what is queued, then close."""
        self.exit_status = status
        self._closing = True
        self._wake.set()

    def close(self) -> None:
        self._closing = True
        self._queue.clear()
        self._queued = 0
        self._wake.set()

    async def wait_closed(self) -> None:
        await asyncio.shield(self._closed)

    @property
    def closed(self) -> bool:
        return self._closed.done()

    @property
    def exited(self) -> bool:
        """The session ended it (rather than the browser going away)."""
        return self.exit_status is not None

    # --- sending --------------------------------------------------------------------

    async def _send_all(self) -> None:
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    chunk = self._take()
                    await self.ws.send_bytes(chunk)
                    if self._paused and self._queued < self._low and self.session is not None:
                        self._paused = False
                        self.session.output_resumed()
                if self._closing:
                    break
        except (ConnectionError, RuntimeError, asyncio.CancelledError):
            pass  # the browser went: the session hears it from the socket
        finally:
            with contextlib.suppress(Exception):
                await self.ws.close()
            if not self._closed.done():
                self._closed.set_result(None)

    def _take(self) -> bytes:
        """Up to one frame's bytes from the queue, whole writes where they fit."""
        taken: list[bytes] = []
        size = 0
        while self._queue and (not taken or size + len(self._queue[0]) <= FRAME_AT_MOST):
            piece = self._queue.pop(0)
            taken.append(piece)
            size += len(piece)
        self._queued -= size
        return b"".join(taken)

    async def gone(self) -> None:
        """The browser's socket closed: stop sending."""
        self._closing = True
        self._queue.clear()
        self._queued = 0
        self._wake.set()
        self._sender.cancel()
        with contextlib.suppress(BaseException):
            await self._sender
