"""A Textual driver whose terminal is the far end of a session's connection
(an SSH channel, a browser's websocket, a visit's relay: a
`crib3.net.session.Terminal`).

Textual's own drivers read stdin and write stdout. A server holds many
sessions in one process, so each app gets this driver instead: the app's
output goes to its channel, the bytes the channel receives are parsed into
keys (and mouse events) by Textual's own parser, and the size comes from the
client's pty request and window-change messages.

It also keeps the session inside `crib3.net.bounds`: input beyond a rate
is dropped before it costs the shared event loop anything, output is
skipped while the client is not reading (and the screen drawn afresh when
it is), sizes are capped, and a storm of resizes is drawn once. Focus
reports and mouse moves are folded into the latest, a terminal's replies
have a rate of their own, and a session that keeps sending more than the
bounds, or bytes the parser cannot read, is closed (one line in the log).

Textual's parser is reached through `crib3.tui.textual_compat`, the one
module that touches Textual's internals.
"""

from __future__ import annotations

import asyncio
import codecs
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from textual import constants, events
from textual.driver import Driver
from textual.geometry import Size
from textual.messages import Message

from crib3.common.rates import TokenBucket
from crib3.net.bounds import (
    BYTE_BURST,
    BYTES_PER_SECOND,
    FLOOD_STRIKES,
    FLOOD_WINDOW,
    FOCUS_QUIET,
    KEY_BURST,
    KEYS_PER_SECOND,
    MAX_BACKLOG,
    MAX_UNTOLD,
    MOVE_QUIET,
    PARSE_FAILURES,
    REPLIES_PER_SECOND,
    REPLY_BURST,
    RESIZE_QUIET,
    InputCount,
    capped_size,
)
from crib3.tui.textual_compat import xterm_parser

# Alternate screen, mouse (any-event, SGR), no cursor, bracketed paste, and
# a query for synchronized output, as Textual's Linux driver sends them.
START = ("\x1b[?1049h\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h\x1b[?25l"
         "\x1b[?2004h\x1b[?2026$p")
STOP = "\x1b[?2004l\x1b[?1000l\x1b[?1003l\x1b[?1015l\x1b[?1006l\x1b[?25h\x1b[?1049l"
# How Textual begins a frame for a terminal that has synchronized output
# (`App._begin_update`); it then writes the frame and its end, and flushes.
SYNC_START = "\x1b[?2026h"
# How long a write outside a frame (the window's title, the bell) waits to
# go out with the frame it belongs to, which Textual draws at its next
# refresh (some 1/60 s later); past it, it goes alone.
JOIN_WAIT = 0.05

log = logging.getLogger("crib3.serve")


class Channel(Protocol):
    """What the driver needs of a session's connection (a door's, a
    worker's relay, or a test's)."""

    def write(self, data: bytes) -> None: ...


INPUT_EVENTS = (events.Key, events.MouseEvent, events.Paste)  # what the rate limits
FOCUS_EVENTS = (events.AppFocus, events.AppBlur)  # only the latest matters


class ChannelDriver(Driver):
    """Runs one app on one channel. Give the app this driver with
    `app.driver_class = ChannelDriver.for_channel(channel)` and start it
    with `await app.run_async(size=the_pty_size)`."""

    def __init__(self, app: Any, *, channel: Channel, size: tuple[int, int] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(app, size=size, **kwargs)  # `size`, from run_async, is the pty's
        self.channel = channel
        self.session_app = app  # (kept here: Textual's driver keeps it privately)
        self.given_size = size
        self._terminal_size = capped_size(*(size or (80, 24)))
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._parser = xterm_parser()
        self._tick: asyncio.TimerHandle | None = None
        self._stopped = False
        self._ending = False   # the session is over: the app ends as soon as it can
        self._behind = False   # the client is not reading: frames are skipped
        self._keys = TokenBucket(KEYS_PER_SECOND, KEY_BURST)
        self._bytes = TokenBucket(BYTES_PER_SECOND, BYTE_BURST)
        self._resize_timer: asyncio.TimerHandle | None = None
        self._frame: list[str] | None = None  # a synchronized frame's pieces, till the flush
        self._loose: list[str] = []  # writes outside a frame, till the next one goes
        self._loose_timer: asyncio.TimerHandle | None = None
        self._replies = TokenBucket(REPLIES_PER_SECOND, REPLY_BURST)
        self._focused = True   # what the app was last told (it starts focused)
        self._focus_wanted = True
        self._focus_told_at = float("-inf")
        self._focus_timer: asyncio.TimerHandle | None = None
        self._move: events.MouseMove | None = None  # the latest mouse move, not yet told
        self._moved_at = float("-inf")
        self._move_timer: asyncio.TimerHandle | None = None
        self._strikes: deque[float] = deque()  # when (to the second) input was dropped
        self._closed_for: str | None = None
        self._untold = 0  # characters parsed since the parser last had something to tell
        self.count = InputCount()

    @classmethod
    def for_channel(cls, channel: Channel) -> Callable[..., ChannelDriver]:
        def make(app: Any, **kwargs: Any) -> ChannelDriver:
            return cls(app, channel=channel, **kwargs)

        return make

    # --- output -----------------------------------------------------------------

    def write(self, data: str) -> None:
        """Joined, then sent as one write: each write to a channel is a
        message to the main process (in a session worker) and an SSH
        packet. Textual writes a synchronized frame's start, the frame and
        its end apart, and flushes at its end; the window's title and the
        bell come as writes of their own, just before the frame they belong
        to. So everything written goes out at the frame's flush, in the
        order written; a write outside a frame that no frame follows within
        `JOIN_WAIT` goes alone."""
        if self._stopped:
            return
        if self._behind:  # drawn afresh when the client has caught up
            self.count.frames_skipped += 1
            return
        if data == SYNC_START and self._frame is None:
            self._frame = [data]
        elif self._frame is not None:
            self._frame.append(data)
        else:
            self._loose.append(data)
            if self._loose_timer is None:
                try:
                    loop = asyncio.get_running_loop()
                except RuntimeError:  # (no loop: nothing to wait with)
                    self.flush()
                    return
                self._loose_timer = loop.call_later(JOIN_WAIT, self._send_loose)

    def flush(self) -> None:
        """The end of a frame (Textual flushes after each): it goes, with
        whatever was written before it."""
        if self._loose_timer is not None:
            self._loose_timer.cancel()
            self._loose_timer = None
        pieces, self._loose = self._loose, []
        if self._frame is not None:
            pieces.extend(self._frame)
            self._frame = None
        if pieces and not self._stopped:
            self._send("".join(pieces))

    def _send_loose(self) -> None:
        """No frame came: what was written outside one goes alone."""
        self._loose_timer = None
        if self._frame is None:
            self.flush()

    def _send(self, data: str) -> None:
        try:
            self.channel.write(data.encode("utf-8"))
        except OSError:  # the client is gone; the session's end closes the app
            self._stopped = True

    def output_paused(self) -> None:
        """The channel holds more unsent bytes than it should (the client is
        not reading): skip frames rather than buffer them without end."""
        self._behind = True

    def output_resumed(self) -> None:
        """The client has read what was waiting: what was skipped left its
        screen part-drawn, so draw the whole screen again."""
        if self._behind:
            self._behind = False
            if not self._stopped:
                self.resize(*self._terminal_size)

    def end_app(self) -> None:
        """End the app now, or as soon as it has started (a session kicked,
        or closed, while its app was still starting)."""
        self._ending = True
        if self.session_app.is_running:
            self.session_app.exit()

    def hang_up(self) -> None:
        """The connection is gone: throw away what is still to be parsed,
        take no more input, write nothing, and end the app at once (its
        queue holds at most `MAX_BACKLOG` input events, so the exit is
        not stuck behind a flood)."""
        self._stopped = True
        self._cancel_timers()
        self.end_app()

    def _cancel_timers(self) -> None:
        for timer in (self._tick, self._resize_timer, self._focus_timer, self._move_timer,
                      self._loose_timer):
            if timer is not None:
                timer.cancel()

    # --- the application's life ------------------------------------------------------

    def start_application_mode(self) -> None:
        loop = asyncio.get_running_loop()
        # Python 3.12+: Textual installs an eager task factory on the running
        # loop; with several apps on one loop it made asyncssh's public-key
        # authentication of later connections hang. The server's loop is
        # shared, so put the default back.
        loop.set_task_factory(None)
        if self._ending:  # the session ended while the app was starting
            self.session_app.exit()
            return
        self.write(START)
        # The app starts at the size it was given (`run_async(size=...)`) and
        # draws itself at that size; told it again, it laid out and drew the
        # whole screen a second time (a fifth of a session's start). Only a
        # size that changed since (a window change while it started) is told.
        if self.given_size is None or capped_size(*self.given_size) != self._terminal_size:
            self.resize(*self._terminal_size)
        self.session_app.post_message(events.AppFocus())

    def disable_input(self) -> None:
        """The app is closing: keys that still arrive are dropped (feed
        checks `_stopped`, set when application mode stops)."""

    def stop_application_mode(self) -> None:
        self._cancel_timers()
        self._behind = False  # the terminal is put back even when frames were skipped
        self.flush()
        if not getattr(self.session_app, "keeps_terminal", False):  # (else: the next app's)
            self.write(STOP)
        self.flush()
        self._stopped = True

    # --- input ---------------------------------------------------------------------------

    def feed(self, data: bytes) -> None:
        """Bytes from the client: keys, mouse, pastes, terminal replies."""
        if self._stopped or self._closed_for is not None:
            return
        allowed = self._bytes.take(len(data))
        if allowed < len(data):  # more than anyone types: never parsed at all
            self.count.dropped_bytes += len(data) - allowed
            self._strike()
            data = data[:allowed]
            if not data or self._stopped:
                return
        text = self._decoder.decode(data)
        told = False
        try:
            for message in self._parser.feed(text):
                told = True
                self._deliver(message)
        except Exception as exc:  # a sequence the parser could not read: it is dead
            self._unreadable(exc)
        self._untold = 0 if told else self._untold + len(text)
        if self._untold > MAX_UNTOLD:  # a bracketed paste that never ends: the parser keeps it
            self.count.dropped_untold += self._untold
            self._untold = 0
            self._parser = xterm_parser()
            self._strike()
        # A lone Escape is only known to be one when nothing follows it for
        # a moment: ask the parser again after that moment.
        if self._tick is not None:
            self._tick.cancel()
        self._tick = asyncio.get_running_loop().call_later(
            constants.ESCAPE_DELAY + 0.02, self._flush_parser)

    def _flush_parser(self) -> None:
        self._tick = None
        if not self._stopped:
            try:
                for message in self._parser.tick():
                    self._deliver(message)
            except Exception as exc:
                self._unreadable(exc)

    def _unreadable(self, exc: Exception) -> None:
        """Textual's parser raised, and a generator that raised is done: a
        new parser reads what comes next (what was left of this chunk is
        lost). A session that keeps sending what cannot be read is closed."""
        self.count.parse_failures += 1
        self._parser = xterm_parser()
        if self.count.parse_failures == 1:
            log.warning("%s: input that could not be parsed, dropped (%s: %.80s)",
                        self._who(), type(exc).__name__, exc)
        if self.count.parse_failures >= PARSE_FAILURES:
            self._close_for("input that cannot be parsed")

    def _deliver(self, message: Message) -> None:
        if isinstance(message, events.Resize):
            return  # only the SSH window-change message sets the size
        if isinstance(message, FOCUS_EVENTS):
            self._focus(isinstance(message, events.AppFocus))
            return
        if isinstance(message, events.MouseMove):
            self._mouse_moved(message)
            return
        if isinstance(message, INPUT_EVENTS):
            self._tell_move()  # (a click goes where the pointer last was)
            waiting = self.backlog()
            if waiting >= MAX_BACKLOG:  # the app is behind: not the client's doing
                self.count.dropped += 1
                return
            if not self._keys.take():
                self.count.dropped += 1
                self._strike()
                return
            self.count.most_waiting = max(self.count.most_waiting, waiting)
            self.count.delivered += 1
        elif not self._replies.take():  # a terminal's reply (cursor, modes, ...)
            self.count.dropped_replies += 1
            self._strike()
            return
        if not self._stopped and self._closed_for is None:
            self.process_message(message)

    def _focus(self, focused: bool) -> None:
        """A focus report: every one restyles the whole screen, and only
        the latest state matters, so one change is told at most every
        `FOCUS_QUIET`, and none that changes nothing."""
        self._focus_wanted = focused
        if self._focus_timer is not None:
            self.count.coalesced += 1
            return
        loop = asyncio.get_running_loop()
        wait = self._focus_told_at + FOCUS_QUIET - loop.time()
        if wait <= 0:
            self._tell_focus()
        else:
            self._focus_timer = loop.call_later(wait, self._tell_focus)

    def _tell_focus(self) -> None:
        self._focus_timer = None
        if self._stopped or self._focus_wanted == self._focused:
            return
        self._focused = self._focus_wanted
        self._focus_told_at = asyncio.get_running_loop().time()
        self.process_message(events.AppFocus() if self._focused else events.AppBlur())

    def _mouse_moved(self, move: events.MouseMove) -> None:
        """A mouse move: the latest is told, at most one every `MOVE_QUIET`
        (a pointer dragged across the window reports every cell)."""
        if self._move is not None:
            self.count.coalesced += 1
        self._move = move
        if self._move_timer is not None:
            return
        loop = asyncio.get_running_loop()
        wait = self._moved_at + MOVE_QUIET - loop.time()
        if wait <= 0:
            self._tell_move()
        else:
            self._move_timer = loop.call_later(wait, self._tell_move)

    def _tell_move(self) -> None:
        if self._move_timer is not None:
            self._move_timer.cancel()
            self._move_timer = None
        move, self._move = self._move, None
        if move is None or self._stopped:
            return
        self._moved_at = asyncio.get_running_loop().time()
        if self.backlog() >= MAX_BACKLOG:
            self.count.dropped += 1
            return
        self.count.delivered += 1
        self.process_message(move)

    def _strike(self) -> None:
        """Input had to be dropped: once a second at most, it counts
        against the session; so many seconds in a minute, and the session
        is closed (its neighbours on the loop never are)."""
        now = float(int(time.monotonic()))
        strikes = self._strikes
        if strikes and strikes[-1] == now:
            return
        strikes.append(now)
        while strikes and now - strikes[0] >= FLOOD_WINDOW:
            strikes.popleft()
        self.count.strikes = len(strikes)
        if len(strikes) >= FLOOD_STRIKES:
            self._close_for("more input than anyone types, for too long")

    def _close_for(self, why: str) -> None:
        """Close this session (once, one line in the log): no more of its
        input is read, and its app ends as a kicked session's does."""
        if self._closed_for is not None:
            return
        self._closed_for = why
        log.warning("%s closed: %s", self._who(), why)
        self.end_app()

    @property
    def closed_for(self) -> str | None:
        """Why the driver closed its session, if it did."""
        return self._closed_for

    def _who(self) -> str:
        name = getattr(getattr(self.session_app, "presence", None), "name", None)
        return f"the session of {name!r}" if name else "a session"

    def backlog(self) -> int:
        """Messages waiting where a key goes: the app, its screen and the
        focused widget (the app hands a key on to the focused widget)."""
        app = self.session_app
        waiting = int(app.message_queue_size)
        if app.screen_stack:
            screen = app.screen
            waiting += screen.message_queue_size
            if screen.focused is not None:
                waiting += screen.focused.message_queue_size
        return waiting

    def resize_soon(self, width: int, height: int) -> None:
        """A window-change message: draw the latest size once the client
        has been quiet for a moment, so a storm of resizes (a window being
        dragged) is one redraw, not one each."""
        self._terminal_size = capped_size(width, height)
        if self._resize_timer is not None:
            self._resize_timer.cancel()
        self._resize_timer = asyncio.get_running_loop().call_later(RESIZE_QUIET, self._resized)

    def _resized(self) -> None:
        self._resize_timer = None
        if not self._stopped:
            self.resize(*self._terminal_size)

    def resize(self, width: int, height: int) -> None:
        """The client's window changed (or the session began)."""
        width, height = capped_size(width, height)
        self.count.resizes += 1
        self._terminal_size = (width, height)
        size = Size(width, height)
        self.session_app.post_message(events.Resize(size, size))
