"""A node's NATS connection, checked: a connection that says it is
connected but answers nothing is connected anew.

**Why nats-py's own word is not enough.** nats-py's client counts itself
connected as long as its socket is open. But its `flush(timeout=...)`
cancels the PONG's future when the wait times out (a server paused, as by
SIGSTOP, for longer than the timeout), and the PONG that comes once the
server resumes then ends the client's read loop (`InvalidStateError`):
from then on every request times out while the client still says it is
connected, until its own pings notice, minutes later. And `flush()`
(nats-py 2.16) writes its PING straight to the socket, ahead of what still
waits in the client's buffer: its PONG can come before the server has a
subscription just made (on a busy machine a message published then by
another connection was dropped, nobody subscribed yet). Nothing of crib3
flushes (`round_trip`, a request, goes through that buffer in order: the
way to know the server has what this node sent); but a dead read loop,
whatever its cause, must not leave a node that takes SSH connections yet
cannot sign anyone in, host, adopt or open a table.

**The check.** Every `every` seconds the node sends a request to a
subject of its own, which it answers itself, through the server: the
answer proves both ways of the connection and the read loop. After
`misses` unanswered in a row it says so once and reconnects
(`force_reconnect`: the client's subscriptions are sent again by nats-py,
and the node's watches are made again: `ClusterStore.reconnected`). A
check is skipped while the client is reconnecting on its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import nats.errors

from crib3.cluster.retry import ended, stop_asked

log = logging.getLogger("crib3.cluster")

EVERY = 2.0  # seconds between two checks
TIMEOUT = 2.0  # seconds an answer may take
MISSES = 3  # checks unanswered in a row: the connection is made anew


async def round_trip(client: Any, timeout: float) -> None:
    """Until the server has everything this client published before (a
    request through it that nobody answers: the server says so, after all
    that came before it on the connection); nats.errors.TimeoutError after
    `timeout` seconds. What `client.flush(timeout)` is for, without the
    flaw that ends nats-py's read loop (see the module's docstring)."""
    with contextlib.suppress(nats.errors.NoRespondersError):
        await client.request(client.new_inbox(), b"", timeout=timeout)


class Liveness:
    """The check of one node's connection (see the module's docstring)."""

    def __init__(self, client: Any, node: str, *, every: float = EVERY,
                 timeout: float = TIMEOUT, misses: int = MISSES) -> None:
        self.client = client
        self.node = node
        self.every = every
        self.timeout = timeout
        self.misses = misses
        self.reconnects = 0  # connections made anew by this check
        self._subject = ""
        self._subscription: Any = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._subject = self.client.new_inbox()
        self._subscription = await self.client.subscribe(self._subject, cb=self._answer)
        self._task = asyncio.get_running_loop().create_task(self._check_forever())

    async def _answer(self, message: Any) -> None:
        with contextlib.suppress(Exception):
            await message.respond(b"")

    async def answers(self) -> bool:
        """Whether the connection answers a request to this node within
        `timeout` seconds."""
        try:
            await self.client.request(self._subject, b"", timeout=self.timeout)
        except Exception:
            return False
        return True

    async def _check_forever(self) -> None:
        missed = 0
        while True:
            await asyncio.sleep(self.every)
            client = self.client
            if client.is_closed or client.is_reconnecting or not client.is_connected:
                missed = 0  # (nats-py knows: it is reconnecting already)
                continue
            answered = await self.answers()
            if stop_asked():  # (a cancel the request swallowed: see crib3.cluster.retry)
                raise asyncio.CancelledError
            if answered:
                missed = 0
                continue
            missed += 1
            if missed < self.misses:
                continue
            missed = 0
            self.reconnects += 1
            log.warning("node %s: its NATS connection answers nothing (%d checks in a row "
                        "over %gs), though it says it is connected: connecting anew",
                        self.node, self.misses, self.misses * (self.every + self.timeout))
            try:
                await client.force_reconnect()
            except Exception as exc:
                log.warning("node %s: connecting anew failed (%s): tried again at the "
                            "next checks", self.node, exc)

    async def stop(self) -> None:
        await ended(self._task, f"node {self.node}: checking its connection answers")
        self._task = None
        if self._subscription is not None:
            with contextlib.suppress(Exception):
                await self._subscription.unsubscribe()
            self._subscription = None


__all__ = ["EVERY", "MISSES", "TIMEOUT", "Liveness", "round_trip"]
