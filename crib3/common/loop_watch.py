"""A watch on a server process's event loop: a loop that stops turning is
said in the log, with where it is stuck.

Every session of a card-room process (the main process, or one session
worker) runs on its one event loop. Code that never yields stops that loop,
and with it every one of those sessions, for good; and since nothing
raises, nothing was logged. (Textual's timer made with a negative delay did
exactly that once, at 100% of a core: `crib3.tui.textual_compat.timers_that_yield`.)

So a thread beside the loop notes when the loop last ran (a beat it
schedules on the loop every `BEAT` seconds). Once the loop has not run for
`STALL` seconds, the thread says so in the log, once, naming the function
the loop's thread is in, and writes that thread's whole stack to
errors.log; when the loop runs again it says after how long. A full
garbage collection of a busy worker (up to two seconds) is well under the
bar. The thread wakes once a beat and does nothing else: its cost is a
clock read a second. (Code that holds the interpreter's lock without
letting go, inside a C call, stops the watch too, and is not said.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
import time
import traceback
from collections.abc import Iterator

from crib3.common import crash

STALL = 10.0  # seconds without a turn of the loop: said in the log
BEAT = 1.0  # seconds between the loop's beats (and the watch's looks)


class LoopWatch:
    """Watches the running loop of the thread that starts it (`start`),
    until `stop`."""

    def __init__(self, log: logging.Logger, stall: float = STALL, beat: float = BEAT) -> None:
        self.log = log
        self.stall = stall
        self.beat = beat
        self.stalls = 0  # how many times the loop was found stuck (for tests)
        self._last = time.monotonic()  # when the loop last ran its beat
        self._stuck_since: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread_id = 0
        self._handle: asyncio.TimerHandle | None = None
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> LoopWatch:
        """Begin (from a coroutine on the loop to watch)."""
        self._loop = asyncio.get_running_loop()
        self._thread_id = threading.get_ident()
        self._stopped.clear()
        self._beat()
        self._thread = threading.Thread(target=self._watch, name="crib3-loop-watch",
                                        daemon=True)
        self._thread.start()
        return self

    @contextlib.contextmanager
    def watching(self) -> Iterator[LoopWatch]:
        """Watched while in the block (from a coroutine on the loop)."""
        self.start()
        try:
            yield self
        finally:
            self.stop()

    def stop(self) -> None:
        self._stopped.set()
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=self.beat * 2)
            if not thread.is_alive() and self._stuck_since is not None:
                # (stuck, then running again less than a beat before the end)
                self._said_running_again(self._last)
        self._thread = None

    def _beat(self) -> None:
        self._last = time.monotonic()
        if not self._stopped.is_set() and self._loop is not None:
            self._handle = self._loop.call_later(self.beat, self._beat)

    def _watch(self) -> None:
        looked = time.monotonic()
        while not self._stopped.wait(self.beat):
            now = time.monotonic()
            # The watch itself late past the bar: the whole process was
            # stopped (Ctrl+Z, a paused container), not its loop alone.
            paused = now - looked >= self.stall
            looked = now
            if paused:
                continue
            try:
                self.look()
            except Exception as exc:  # the watch must not die of its own error: said once
                self.log.error("the event loop's watch stopped: %s", crash.summary(exc),
                               extra={"event": "crib3.serve.loop_watch_failed"})
                return

    def look(self) -> None:
        """One look (the thread's, each beat): stuck now, or running again."""
        last = self._last  # (read once: the loop may beat meanwhile)
        silent = time.monotonic() - last
        if silent >= self.stall and self._stuck_since is None:
            self._stuck_since = last
            self.stalls += 1
            where, stack = self._where()
            saved = crash.record_text(stack, "the event loop stuck")
            self.log.error(
                "the event loop has not run for %.0f s: every session of this process is "
                "frozen until it does; it is in %s; its stack in %s", silent, where,
                saved or "nowhere (no folder could be written)",
                extra={"event": "crib3.serve.loop_stuck"})
        elif silent < self.stall and self._stuck_since is not None:
            self._said_running_again(last)

    def _said_running_again(self, last: float) -> None:
        assert self._stuck_since is not None
        self.log.warning("the event loop runs again, after %.0f s", last - self._stuck_since,
                         extra={"event": "crib3.serve.loop_runs_again"})
        self._stuck_since = None

    def _where(self) -> tuple[str, str]:
        """The innermost function of the loop's thread, and its whole stack."""
        frame = sys._current_frames().get(self._thread_id)
        if frame is None:
            return "a thread that is gone", "(no stack: the loop's thread has ended)\n"
        frames = traceback.extract_stack(frame)
        last = frames[-1]
        where = f"{last.name} ({last.filename.rsplit('/', 1)[-1]}:{last.lineno})"
        return where, "".join(traceback.format_list(frames))
