"""`ChannelDriver`'s output: a frame is one write to the channel (in a
session worker, one message to the main process and one SSH packet)."""

from __future__ import annotations

import asyncio

from helpers import finished
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
    """Until the app has written nothing for `seconds` (within 30 s)."""
    deadline = asyncio.get_running_loop().time() + 30
    while True:
        assert asyncio.get_running_loop().time() < deadline, "the app never stopped writing"
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
        await finished(task, 30, "the app's run, after it was told to exit")
    assert channel.writes[-1].decode().endswith("\x1b[?1049l")  # the terminal put back


class OneByOne(ChannelDriver):
    """The driver as it was: a write outside a frame went out at once."""

    def write(self, data: str) -> None:
        super().write(data)
        if self._frame is None:
            self.flush()


async def _title_bell_and_frame(driver_class: type[ChannelDriver]) -> list[bytes]:
    """The writes for one update that rings the bell and sets the title,
    as the card room's `Attention` does before the frame is drawn."""
    from rich.control import Control

    from crib3.tui.textual_compat import write_to_terminal

    channel = Recorder()
    app = Words()
    app.driver_class = driver_class.for_channel(channel)
    task = asyncio.get_running_loop().create_task(app.run_async(size=(40, 5)))
    try:
        await asyncio.wait_for(channel.wrote.wait(), 10)
        await _quiet(channel)
        app._driver.feed(b"\x1b[?2026;2$y")  # "synchronized output: supported"
        await _quiet(channel)
        channel.writes.clear()
        write_to_terminal(app, str(Control.title("▶ your turn · crib3")))
        app.bell()
        app.query_one("#words", Static).update("your turn")
        await asyncio.wait_for(channel.wrote.wait(), 10)
        await _quiet(channel)
        return list(channel.writes)
    finally:
        app.exit()
        await finished(task, 30, "the app's run, after it was told to exit")


async def test_the_title_and_the_bell_go_out_with_their_frame():
    """The title and the bell reach the terminal in the same write as the
    frame they belong to: byte for byte what was sent before, in fewer
    writes (in a session worker, each is a message and an SSH packet)."""
    before = await _title_bell_and_frame(OneByOne)
    now = await _title_bell_and_frame(ChannelDriver)
    assert b"".join(now) == b"".join(before)
    assert len(before) == 3 and len(now) == 1, (before, now)
    assert now[0].startswith("\x1b]0;▶ your turn · crib3\x07\x07".encode() + SYNC_START.encode())


async def test_a_title_with_no_frame_after_it_goes_alone():
    """A write outside a frame that no frame follows is not held back."""
    from crib3.tui.textual_compat import write_to_terminal

    channel = Recorder()
    app = Words()
    app.driver_class = ChannelDriver.for_channel(channel)
    task = asyncio.get_running_loop().create_task(app.run_async(size=(40, 5)))
    try:
        await asyncio.wait_for(channel.wrote.wait(), 10)
        await _quiet(channel)
        channel.writes.clear()
        channel.wrote.clear()
        write_to_terminal(app, "\x1b]0;crib3\x07")
        await asyncio.wait_for(channel.wrote.wait(), 10)
        assert channel.writes == [b"\x1b]0;crib3\x07"]
    finally:
        app.exit()
        await finished(task, 30, "the app's run, after it was told to exit")
