"""`ChannelDriver`'s output: a frame is one write to the channel (in a
session worker, one message to the main process and one SSH packet)."""

from __future__ import annotations

import asyncio

from textual.app import App, ComposeResult
from textual.widgets import Static

from crib3.net.driver import SYNC_START, ChannelDriver

SYNC_END = "\x1b[?2026l"


class Recorder:
    """A channel that keeps every write apart."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.wrote = asyncio.Event()

    def write(self, data: bytes) -> None:
        self.writes.append(data)
        self.wrote.set()


class Words(App[None]):
    def compose(self) -> ComposeResult:
        yield Static("hello", id="words")


async def _quiet(channel: Recorder, seconds: float = 0.2) -> None:
    while True:
        channel.wrote.clear()
        try:
            await asyncio.wait_for(channel.wrote.wait(), seconds)
        except TimeoutError:
            return


async def test_a_synchronized_frame_is_one_write():
    """A terminal that has synchronized output (it answers the driver's
    query, as xterm and most others do): Textual writes the frame's start,
    its body and its end apart; the channel gets them as one write."""
    channel = Recorder()
    app = Words()
    app.driver_class = ChannelDriver.for_channel(channel)
    task = asyncio.get_running_loop().create_task(app.run_async(size=(40, 5)))
    try:
        await asyncio.wait_for(channel.wrote.wait(), 10)
        await _quiet(channel)
        app._driver.feed(b"\x1b[?2026;2$y")  # "synchronized output: supported"
        await _quiet(channel)
        assert app._sync_available
        channel.writes.clear()
        app.query_one("#words", Static).update("changed")
        await asyncio.wait_for(channel.wrote.wait(), 10)
        await _quiet(channel)
        frames = [w.decode() for w in channel.writes]
        assert frames and all(f.startswith(SYNC_START) and f.endswith(SYNC_END)
                              for f in frames), frames
        assert any("changed" in f for f in frames)
    finally:
        app.exit()
        await task
    assert channel.writes[-1].decode().endswith("\x1b[?1049l")  # the terminal put back
