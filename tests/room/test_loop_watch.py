"""A server process whose event loop stops turning says so in its log
(`crib3.common.loop_watch`): once, naming where the loop is stuck, with the
stack in errors.log; and again when the loop runs.

Real loops, really blocked (a call that does not yield, as Textual's timer
made with a negative delay once did), and the watch's real thread.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time

from crib3.common.loop_watch import LoopWatch


def stuck_in_code_that_never_yields(seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pass


async def watched(watch: LoopWatch, stuck: float, after: float) -> None:
    with watch.watching():  # (as crib3 serve and each session worker watch theirs)
        await asyncio.sleep(0.3)
        stuck_in_code_that_never_yields(stuck)
        await asyncio.sleep(after)
        for _ in range(100):  # (a loaded machine: the watch's next look, a beat or more)
            if watch.stalls == 0 or watch._stuck_since is None:
                break
            await asyncio.sleep(0.05)


def test_a_loop_stuck_is_said_once_with_where_and_its_running_again_too(tmp_path, caplog):
    watch = LoopWatch(logging.getLogger("crib3.serve"), stall=0.6, beat=0.1)
    with caplog.at_level(logging.INFO, logger="crib3.serve"):
        asyncio.run(watched(watch, stuck=1.5, after=0.4))
    said = [r for r in caplog.records if r.name == "crib3.serve"]
    stuck = [r.getMessage() for r in said if r.levelno == logging.ERROR]
    again = [r.getMessage() for r in said if r.levelno == logging.WARNING]
    assert watch.stalls == 1 and len(stuck) == 1, stuck
    assert "the event loop has not run for" in stuck[0]
    assert "stuck_in_code_that_never_yields (test_loop_watch.py:" in stuck[0]
    assert len(again) == 1 and "the event loop runs again, after " in again[0]
    # (from about 0.6 s into the block to its end: some 1.4 s)
    assert 0.5 <= float(again[0].split("after ")[1].split(" s")[0]) <= 2.5
    saved = stuck[0].rsplit("its stack in ", 1)[1]
    assert saved.startswith(str(tmp_path))  # (the data folder's errors.log)
    stack = open(saved).read()
    assert "the event loop stuck" in stack
    assert "stuck_in_code_that_never_yields" in stack and "watched" in stack


def test_a_loop_that_turns_is_never_said_stuck(caplog):
    """Short stops (a collection, a frame) under the bar say nothing."""
    watch = LoopWatch(logging.getLogger("crib3.serve"), stall=0.8, beat=0.1)

    async def busy_but_turning() -> None:
        watch.start()
        try:
            for _ in range(6):
                stuck_in_code_that_never_yields(0.3)
                await asyncio.sleep(0)
        finally:
            watch.stop()

    with caplog.at_level(logging.INFO, logger="crib3.serve"):
        asyncio.run(busy_but_turning())
    assert watch.stalls == 0
    assert not [r for r in caplog.records if r.name == "crib3.serve"]


def test_the_watch_stops_with_its_loop():
    watch = LoopWatch(logging.getLogger("crib3.serve"), stall=5, beat=0.05)

    threads: list[threading.Thread] = []

    async def briefly() -> None:
        watch.start()
        await asyncio.sleep(0.2)
        threads.extend(t for t in threading.enumerate() if t.name == "crib3-loop-watch")
        watch.stop()

    asyncio.run(briefly())
    assert len(threads) == 1
    threads[0].join(5)
    assert not threads[0].is_alive()


def test_a_loop_running_again_just_before_the_end_is_said_to_run_again(caplog):
    """Stuck, then stopped less than a beat after it ran again: the end
    says it ran again, so no stall is left unanswered in the log."""
    watch = LoopWatch(logging.getLogger("crib3.serve"), stall=0.4, beat=5.0)

    async def stuck_then_ended() -> None:
        with watch.watching():
            watch._last -= 1.0  # (as if the loop had not beaten for a second)
            watch.look()
            watch._beat()  # it runs again
            watch._handle.cancel()

    with caplog.at_level(logging.INFO, logger="crib3.serve"):
        asyncio.run(stuck_then_ended())
    levels = [r.levelno for r in caplog.records if r.name == "crib3.serve"]
    assert levels == [logging.ERROR, logging.WARNING]
