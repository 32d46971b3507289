"""A key-value bucket watched for a node's life: the bucket as the node
last heard it, kept in memory by one watch, which is one consumer on the
server, made once.

**Why one watch, kept.** Each of nats-py's `keys()` and `watch()` makes an
ephemeral consumer on the bucket's stream, and neither deletes it: the
server drops it only after it has been left alone for a while (5 minutes
for nats-py's watches). A loop that lists a bucket every half second
leaves hundreds of them behind, and once the stream has its thousand
("maximum consumers limit reached") nothing can watch or list it any more:
a node that restarts cannot even join. So a loop reads `entries` here; no
periodic call makes a server-side object.

**Never stuck, never silent.** The watch is made again, the bucket read
whole again (what went meanwhile forgotten), when the node's connection
comes back (`ClusterStore.reconnected`) and when its consumer is no longer
on the server (asked every `check_every` seconds while nothing comes: its
server restarted, its stream deleted). A watch that cannot be made is
logged once, with what it means, and tried again with backoff
(`crib3.cluster.retry.Backoff`); the first one made after failures is
logged too. Until the bucket is read whole again, `live` is False. A
listener that raises is logged and the watch goes on.

**At once when the connection is back.** A cluster away for half a
minute grows the backoff to its bound; the connection's return (`again`)
wakes the watch from its wait and starts its waits from the first, so
that it is made within moments, not after the rest of a grown wait. Until
the cluster's streams have their leaders again (seconds, after every
server restarted) each try goes unanswered: it gives up after
`ASK_WITHIN` seconds (nats-py's JetStream requests wait 5 s), and the
waits between tries stay short (`MOST_BETWEEN`), so that the watch is
made again within a few seconds of the cluster's return. Each time the
bucket is read whole, `whole`'s callbacks are called (the node's adoption
scan, which waits on it, works at once).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
from collections.abc import Callable
from typing import Any

import nats.errors

from crib3.cluster.retry import Backoff, ended, nap, stop_asked
from crib3.common import crash

log = logging.getLogger("crib3.cluster")

CHECK_EVERY = 1.0  # seconds without an update before the watch's consumer is looked for
READ_WITHIN = 30.0  # seconds a node's start waits for a bucket read whole, at most
# A watch's consumer left behind (the node gone, its connection lost before
# it could delete it) is dropped by the server after this many seconds.
INACTIVE_THRESHOLD = 60.0
DELETED = ("DEL", "PURGE")
ASK_WITHIN = 2.5  # seconds a watch's request (made, or its consumer looked for) may take
FIRST_BETWEEN, MOST_BETWEEN = 0.25, 2.0  # seconds between two tries to make it, backing off

Listener = Callable[[str, Any], None]  # (key, its entry; None: the key is gone)


class WatchedBucket:
    """A bucket's entries as one kept watch tells them (see the module's
    docstring): `entries` (key -> nats-py's entry, deleted keys left out),
    `deleted` (keys whose last word was a delete), `live`, and `listeners`
    called with each key that changed."""

    def __init__(self, kv: Any, what: str, meaning: str, *,
                 check_every: float = CHECK_EVERY) -> None:
        self.kv = kv
        self._asking = quick(kv)  # (its watches made with their requests bounded sooner)
        self.what = what  # "node a: the registry's watch"
        self.meaning = meaning  # what a broken watch means for the room
        self.check_every = check_every
        self.entries: dict[str, Any] = {}
        self.deleted: set[str] = set()
        self.listeners: list[Listener] = []
        self.whole: list[Callable[[], None]] = []  # called each time it is read whole
        self.live = False
        self.ready = asyncio.Event()  # read whole once
        self.made = 0  # watches made so far (one, unless something broke)
        self._again = False  # the watch to be made again (the connection came back)
        self._wake = asyncio.Event()  # (set with `_again`: a wait between tries cut short)
        self._backoff = Backoff(FIRST_BETWEEN, MOST_BETWEEN)
        self._task: asyncio.Task[None] | None = None
        self._first: asyncio.Future[None] | None = None  # the first reading's end (`start`)

    async def start(self) -> None:
        """The first watch made and the bucket read whole (a failure
        raises: a node that cannot read its cluster does not start), then
        kept in the background."""
        watcher = await self._watch()
        self._first = asyncio.get_running_loop().create_future()
        self._task = asyncio.get_running_loop().create_task(self._keep(watcher))
        try:
            await asyncio.wait_for(asyncio.shield(self._first), READ_WITHIN)
        except BaseException:
            await self.stop()
            raise

    def again(self) -> None:
        """Make the watch again, the bucket read whole (the node's
        connection came back: its consumer may be gone), at once: a
        wait between failed tries is cut short, and the next waits start
        from the first."""
        self._again = True
        self.live = False
        self._backoff.sooner()
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:  # (its consumer deleted, if it can be)
            await ended(self._task, self.what)
            self._task = None

    # --- the kept watch -----------------------------------------------------------------

    async def _watch(self) -> Any:
        self.made += 1
        return await self._asking.watchall(inactive_threshold=INACTIVE_THRESHOLD)

    async def _keep(self, watcher: Any) -> None:
        backoff = self._backoff
        while True:
            if stop_asked():
                if watcher is not None:
                    await self._drop(watcher)
                raise asyncio.CancelledError
            if watcher is None:
                try:
                    watcher = await self._watch()
                except Exception as exc:
                    wait = self._failed(backoff, exc)
                    if wait is None:
                        return
                    await nap(wait, self._wake)
                    continue
            try:
                await self._follow(watcher, backoff)
            except asyncio.CancelledError:
                await self._drop(watcher)
                raise
            except Exception as exc:
                await self._drop(watcher)
                watcher = None
                wait = self._failed(backoff, exc)
                if wait is None:
                    return
                await nap(wait, self._wake)
                continue
            await self._drop(watcher)  # (asked for again)
            watcher = None
            log.info("%s: made again (the node's connection came back)", self.what)

    def _failed(self, backoff: Backoff, exc: Exception) -> float | None:
        """The watch broke or could not be made: said once; the wait. (It
        broke before the bucket was read once: `start` raises it, and the
        watch is not kept: None.)"""
        self.live = False
        if self._first is not None and not self._first.done():
            self._first.set_exception(exc)
            return None
        if backoff.failures == 0:
            log.warning("%s failed: %s: %s", self.what, self.meaning,
                        str(exc) or type(exc).__name__)
        return backoff.failed()

    async def _follow(self, watcher: Any, backoff: Backoff) -> None:
        """The watch's updates, until it is to be made again (returns) or
        it breaks (raises)."""
        self._again = False
        self._wake.clear()
        fresh: dict[str, Any] | None = {}  # the bucket read whole, till its end
        gone: set[str] = set()
        while not self._again:
            try:
                entry = await watcher.updates(timeout=self.check_every)
            except nats.errors.TimeoutError:
                # (nothing came: is its consumer still there? NotFoundError if not)
                await watcher._sub.consumer_info()
                continue
            if entry is type(watcher).STOP_ITER:
                raise RuntimeError("the watch was stopped")
            if entry is None:  # the bucket read whole: it replaces what was known
                if fresh is not None:
                    self._replace(fresh, gone)
                    fresh = None
                    self.live = True
                    self.ready.set()
                    if self._first is not None and not self._first.done():
                        self._first.set_result(None)
                    failures = backoff.reset()
                    if failures:
                        log.warning("%s works again (after %d failed tr%s)", self.what,
                                    failures, "y" if failures == 1 else "ies")
                    for call in list(self.whole):
                        try:
                            call()
                        except Exception as exc:
                            crash.report(log, exc, f"{self.what}: read whole")
                continue
            key = str(entry.key)
            if fresh is None:
                self._apply(key, entry)
            elif entry.operation in DELETED:
                gone.add(key)
                fresh.pop(key, None)
            else:
                gone.discard(key)
                fresh[key] = entry

    def _replace(self, fresh: dict[str, Any], gone: set[str]) -> None:
        changed = [key for key, entry in fresh.items()
                   if key not in self.entries or self.entries[key].revision != entry.revision]
        changed += [key for key in self.entries if key not in fresh]
        self.entries = fresh
        self.deleted = gone
        for key in changed:
            self._tell(key, fresh.get(key))

    def _apply(self, key: str, entry: Any) -> None:
        if entry.operation in DELETED:
            self.deleted.add(key)
            if self.entries.pop(key, None) is None:
                return
            self._tell(key, None)
        else:
            self.deleted.discard(key)
            self.entries[key] = entry
            self._tell(key, entry)

    def _tell(self, key: str, entry: Any) -> None:
        for listener in list(self.listeners):
            try:
                listener(key, entry)
            except Exception as exc:
                crash.report(log, exc, f"{self.what}: key {key}")

    async def _drop(self, watcher: Any) -> None:
        """The watch's subscription ended and its consumer deleted (else the
        server drops it after INACTIVE_THRESHOLD)."""
        subscription = watcher._sub
        with contextlib.suppress(Exception):  # (bounded: a connection that answers nothing)
            await asyncio.wait_for(watcher.stop(), 1.0)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.kv._js.delete_consumer(
                subscription._stream, subscription._consumer), 1.0)


def quick(kv: Any, within: float = ASK_WITHIN) -> Any:
    """nats-py's bucket `kv`, its JetStream requests given up after
    `within` seconds (a stub without nats-py's parts: itself)."""
    js = getattr(kv, "_js", None)
    if js is None or not hasattr(js, "_nc"):
        return kv
    asking = copy.copy(kv)
    asking._js = js._nc.jetstream(prefix=js._prefix, timeout=within)
    return asking


__all__ = ["WatchedBucket"]
