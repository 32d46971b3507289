"""A visit's messages through NATS in the turn of the event loop that
makes or reads them.

nats-py's `publish` appends a message to its client's buffer and wakes the
client's flusher task, which writes the buffer to the socket in a later
turn of the loop; a visit (`crib3.cluster.visits`) also handed each message
to a task of its own first. A message read is handed by nats-py's reading
task to the subscription's own task, one more turn. On a busy node every
such turn waits behind every callback already ready, and what is ready
there just after an event is the other seats' frames (some 8 ms of CPU
each): a visitor's key and screen crossed those waits on both nodes, where
the host's own people cross none.

- `publish_now` writes a message to the socket at once, when that keeps
  the order of everything the client sends (nothing of the client's is
  waiting to be written); else the caller publishes the public way.
- `subscribe_now` hands each message to its handler in the reading task's
  own turn, in the order they came, as the subscription's task would have.

Both reach into nats-py's internals (`_pending_data_size`, `_transport`
and its `_io_writer`, `stats`; a subscription's `_pending_queue` and
`_pending_size`), so they are kept here alone: the shape they rely on is
checked, and wherever it does not hold (another nats-py, a websocket
connection, a client reconnecting, a buffer waiting, a socket whose writes
back up) the public way is taken. `tests/cluster/test_nats_now.py` checks
the shape on the nats-py installed, so a release that changes it fails
there, not in production.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from nats.protocol.command import pub_cmd

log = logging.getLogger("crib3.cluster")

# Bytes the socket may hold unsent before a message goes the public way
# (whose flusher waits for the socket to drain): a visit's frames are a few
# KB, so a socket this far behind is a peer not reading.
BACKED_UP = 64 * 1024


def _writer(client: Any) -> asyncio.StreamWriter | None:
    """The client's socket writer, where the client is in the shape this
    module knows and may be written to now; else None."""
    try:
        if not client.is_connected or client._pending_data_size:
            return None
        transport = client._transport
        if type(transport).__name__ != "TcpTransport":
            return None
        writer = transport._io_writer
        if not isinstance(writer, asyncio.StreamWriter) or writer.is_closing():
            return None
        if writer.transport.get_write_buffer_size() > BACKED_UP \
                or not {"out_msgs", "out_bytes"} <= client.stats.keys():  # (kept as publish does)
            return None
    except (AttributeError, KeyError, TypeError):
        return None
    return writer


def publish_now(client: Any, subject: str, payload: bytes) -> bool:
    """Write `payload` to `subject` on the client's socket now, and say so;
    False, nothing done, where that would not keep the order or the
    client's bounds (the caller then publishes the public way)."""
    if len(payload) > getattr(client, "max_payload", 0) or not subject \
            or any(c in subject for c in " \t\r\n"):
        return False  # (nats-py's publish refuses such a subject; so do we)
    writer = _writer(client)
    if writer is None:
        return False
    writer.write(pub_cmd(subject, "", payload))
    client.stats["out_msgs"] += 1
    client.stats["out_bytes"] += len(payload)
    return True


class _HandedAtOnce(asyncio.Queue):  # type: ignore[type-arg]  # (nats-py's Msg queue)
    """A subscription's queue that queues nothing: nats-py's reading task
    puts each message in (`put_nowait`), and it goes to the handler there
    and then. Empty at all times, so nats-py's drain and counts hold."""

    def __init__(self, subscription: Any, handler: Callable[[Any], None]) -> None:
        super().__init__()
        self._subscription = subscription
        self._handler = handler

    def put_nowait(self, item: Any) -> None:
        self._subscription._pending_size -= len(item.data)  # (as its own task does)
        try:
            self._handler(item)
        except Exception:  # never into nats-py's reading task, which would stop
            log.exception("a message on %s could not be handled", item.subject)


async def subscribe_now(client: Any, subject: str, handler: Callable[[Any], None]) -> Any:
    """Subscribe to `subject`, `handler` given each message in the turn
    nats-py reads it (see the module's docstring); where the subscription
    is not in the shape this module knows, through its own task instead."""
    subscription = await client.subscribe(subject)
    queue = getattr(subscription, "_pending_queue", None)
    if type(queue) is asyncio.Queue and queue.empty() \
            and isinstance(getattr(subscription, "_pending_size", None), int) \
            and getattr(subscription, "_cb", False) is None:
        subscription._pending_queue = _HandedAtOnce(subscription, handler)
        return subscription
    await subscription.unsubscribe()

    async def handed(message: Any) -> None:
        handler(message)

    return await client.subscribe(subject, cb=handed)
