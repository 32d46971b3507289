"""A node's background loops (the adoption scan, the names' renewal) when
the cluster fails them: never silent, never given up.

A failure is logged once, with what it means for the room while it lasts,
and tried again after a backoff (doubled each failure, up to a bound, each
wait jittered so that nodes failing together do not retry together); the
first success after failures is logged once too. A loop never ends on an
error: the cluster is expected back.

**Woken when the cause is gone.** A cluster away for half a minute grows
every backoff to its bound; once it is back (the node's connection made
again, a watch read whole again), a loop that slept out its last wait
would leave the room without what it does for that long again, twice
over when one loop waits on another. So a loop may be woken (`wake`):
it works at once, its waits starting again from the first.

**Stopped when asked, even if the asking was lost.** On Python 3.11,
`asyncio.wait_for` returns a result that arrives in the same turn as a
cancel and drops the cancel; nats-py's requests and `next_msg` wait that
way. A loop cancelled at such a moment would go on for ever, and a node
stopping would wait for its end for ever (the suite hung so, in a cluster
test's teardown). So a loop looks whether it was asked to stop
(`stop_asked`) at each turn, and a stop waits for a task's end with
`ended`, which asks again and gives up in bounded time.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from crib3.common import crash

log = logging.getLogger("crib3.cluster")
T = TypeVar("T")


class Backoff:
    """The waits of a failing loop: `first`, then doubled each failure up
    to `most`, each one between 3/4 and 5/4 of that."""

    def __init__(self, first: float, most: float, rng: random.Random | None = None) -> None:
        self.first = first
        self.most = max(most, first)
        self.failures = 0  # since the last success
        self._grown = 0  # failures the waits have doubled for
        self._rng = rng or random.Random()

    def failed(self) -> float:
        """One more failure: how long to wait before trying again."""
        self.failures += 1
        self._grown += 1
        wait = min(self.most, self.first * 2.0 ** (self._grown - 1))
        return wait * self._rng.uniform(0.75, 1.25)

    def sooner(self) -> None:
        """What failed may work now (the connection came back): the next
        waits start again from the first (the failures are still counted)."""
        self._grown = 0

    def reset(self) -> int:
        """It worked: the failures there were, forgotten."""
        failures, self.failures = self.failures, 0
        self._grown = 0
        return failures


async def nap(seconds: float, wake: asyncio.Event | None) -> bool:
    """Sleep `seconds`, or until `wake` is set (then it is cleared): whether
    it was woken."""
    if wake is None:
        await asyncio.sleep(seconds)
        return False
    try:
        await asyncio.wait_for(wake.wait(), seconds)
    except TimeoutError:
        return False
    wake.clear()
    return True


def stop_asked() -> bool:
    """Whether the running task has been cancelled, the cancel delivered
    or not (see the module's docstring)."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def ended(task: asyncio.Task[Any] | None, what: str, within: float = 5.0) -> bool:
    """`task` cancelled and waited for, cancelled again each second while
    it runs on (a cancel it swallowed), for at most `within` seconds;
    whether it ended. One still running then is logged once and left: a
    stop must end, and the task holds nothing the stop needs."""
    if task is None or task.done():
        return True
    loop = asyncio.get_running_loop()
    give_up = loop.time() + within
    while not task.done():
        left = give_up - loop.time()
        if left <= 0:
            log.warning("%s did not end within %g s of being stopped: left running", what,
                        within)
            return False
        task.cancel()
        await asyncio.wait({task}, timeout=min(1.0, left))
    if not task.cancelled() and task.exception() is not None:
        log.warning("%s ended on an error as it was stopped: %s", what, task.exception())
    return True


async def keep_doing(work: Callable[[], Awaitable[object]], *, every: float, what: str,
                     meaning: str, first: float | None = None, most: float | None = None,
                     paused: Callable[[], bool] = lambda: False,
                     wake: asyncio.Event | None = None) -> None:
    """`work()` every `every` seconds, for ever (unless `paused()`); when it
    fails, "<what> failed: <meaning>: <the error>" is logged once, and it is
    tried again after `first` seconds (`every` unless told), backing off to
    `most` (`every` unless told); once it works again, that is logged.
    Setting `wake` has it work at once, its backoff from the first wait."""
    backoff = Backoff(every if first is None else first, every if most is None else most)
    wait = every
    while True:
        if await nap(wait, wake):
            backoff.sooner()
        if stop_asked():
            raise asyncio.CancelledError
        if paused():
            wait = every
            continue
        try:
            await work()
        except Exception as exc:
            if backoff.failures == 0:
                log.warning("%s failed: %s: %s", what, meaning, str(exc) or type(exc).__name__)
            wait = backoff.failed()
        else:
            failures = backoff.reset()
            if failures:
                log.warning("%s works again (after %d failed tr%s)", what, failures,
                            "y" if failures == 1 else "ies")
            wait = every
        if stop_asked():
            raise asyncio.CancelledError


def unanswered(exc: BaseException) -> bool:
    """`exc` says the cluster did not answer (NATS down, restarting, its
    stream without a leader yet): nats-py's own errors, a timeout or a
    connection refused (OSErrors both). Anything else is a defect."""
    return type(exc).__module__.split(".")[0] == "nats" or isinstance(exc, OSError)


class Failing:
    """What failed for want of an answer, each said once until it works
    again: after an outage a node tries every table at each scan, and a
    line for each try (or a crash report each, as before) buried what the
    log had to say."""

    def __init__(self, log: logging.Logger, who: str) -> None:
        self._log = log
        self._who = who
        self._failing: set[str] = set()

    def failed(self, what: str, exc: Exception) -> None:
        """`what` failed: a warning the first time when the cluster did not
        answer (it is tried again), a crash report otherwise."""
        if not unanswered(exc):
            crash.report(self._log, exc, f"{self._who}: {what}")
        elif what not in self._failing:
            self._failing.add(what)
            self._log.warning("%s: %s failed, the cluster not answering (%s): tried again "
                              "until it works", self._who, what, str(exc) or type(exc).__name__)

    async def attempt(self, what: str, work: Awaitable[T]) -> T | None:
        """What `work` gives, or None when it failed (said as `failed` says)."""
        try:
            done = await work
        except Exception as exc:
            self.failed(what, exc)
            return None
        self.worked(what)
        return done

    def worked(self, what: str) -> None:
        """`what` worked: a failure of it is said again."""
        if what in self._failing:
            self._failing.discard(what)
            self._log.info("%s: %s works again", self._who, what)


__all__ = ["Backoff", "Failing", "ended", "keep_doing", "nap", "stop_asked", "unanswered"]
