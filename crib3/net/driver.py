"""A Textual driver whose terminal is the far end of an SSH channel.

Textual's own drivers read stdin and write stdout. A server holds many
sessions in one process, so each app gets this driver instead: the app's
output goes to its channel, the bytes the channel receives are parsed into
keys (and mouse events) by Textual's own parser, and the size comes from the
client's pty request and window-change messages.

It touches one private module, `textual._xterm_parser`, which is why the
project pins Textual's version for its tests.
"""

from __future__ import annotations

import asyncio
import codecs
from typing import Any, Protocol

from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.driver import Driver
from textual.geometry import Size
from textual.messages import Message

# Alternate screen, mouse (any-event, SGR), no cursor, bracketed paste, and
# a query for synchronized output, as Textual's Linux driver sends them.
START = ("\x1b[?1049h\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h\x1b[?25l"
         "\x1b[?2004h\x1b[?2026$p")
STOP = "\x1b[?2004l\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?25h\x1b[?1049l"


class Channel(Protocol):
    """What the driver needs of an SSH channel (asyncssh's, or a test's)."""

    def write(self, data: bytes) -> None: ...


class ChannelDriver(Driver):
    """Runs one app on one channel. Give the app this driver with
    `app.driver_class = ChannelDriver.for_channel(channel)` and start it
    with `await app.run_async(size=the_pty_size)`."""

    def __init__(self, app: Any, *, channel: Channel, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)  # `size`, from run_async, is the pty's
        self.channel = channel
        self._terminal_size = self._size or (80, 24)
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._parser = XTermParser()
        self._tick: asyncio.TimerHandle | None = None
        self._stopped = False

    @classmethod
    def for_channel(cls, channel: Channel) -> Any:
        def make(app: Any, **kwargs: Any) -> ChannelDriver:
            return cls(app, channel=channel, **kwargs)

        return make

    # --- output -----------------------------------------------------------------

    def write(self, data: str) -> None:
        if self._stopped:
            return
        try:
            self.channel.write(data.encode("utf-8"))
        except OSError:  # the client is gone; the session's end closes the app
            self._stopped = True

    def flush(self) -> None:
        """Written at once: the channel buffers and sends."""

    # --- the application's life ------------------------------------------------------

    def start_application_mode(self) -> None:
        loop = asyncio.get_running_loop()
        # Python 3.12+: Textual installs an eager task factory on the running
        # loop; with several apps on one loop it made asyncssh's public-key
        # authentication of later connections hang. The server's loop is
        # shared, so put the default back.
        loop.set_task_factory(None)
        self.write(START)
        self.resize(*self._terminal_size)
        self._app.post_message(events.AppFocus())

    def disable_input(self) -> None:
        """The app is closing: keys that still arrive are dropped (feed
        checks `_stopped`, set when application mode stops)."""

    def stop_application_mode(self) -> None:
        if self._tick is not None:
            self._tick.cancel()
        self.write(STOP)
        self._stopped = True

    # --- input ---------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from the client: keys, mouse, pastes, terminal replies."""
        if self._stopped:
            return
        text = self._decoder.decode(data)
        for message in self._parser.feed(text):
            self._deliver(message)
        # A lone Escape is only known to be one when nothing follows it for
        # a moment: ask the parser again after that moment.
        if self._tick is not None:
            self._tick.cancel()
        self._tick = asyncio.get_running_loop().call_later(
            constants.ESCAPE_DELAY + 0.02, self._flush_parser)

    def _flush_parser(self) -> None:
        self._tick = None
        if not self._stopped:
            for message in self._parser.tick():
                self._deliver(message)

    def _deliver(self, message: Message) -> None:
        if isinstance(message, events.Resize):
            return  # only the SSH window-change message sets the size
        self.process_message(message)

    def resize(self, width: int, height: int) -> None:
        """The client's window changed (or the session began)."""
        width, height = max(1, width), max(1, height)
        self._terminal_size = (width, height)
        size = Size(width, height)
        self._app.post_message(events.Resize(size, size))
