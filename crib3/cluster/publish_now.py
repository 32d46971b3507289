"""Publishing to NATS in the caller's own turn of the event loop.

nats-py's `publish` appends a message to its client's buffer and wakes the
client's flusher task, which writes the buffer to the socket in a later
turn of the loop; a visit (`crib3.cluster.visits`) also handed each message
to a task of its own first. On a busy node every such turn waits behind
every callback already ready, and what is ready there just after an event
is the other seats' frames (some 8 ms of CPU each): a visitor's key and
screen each crossed two of those waits on each of the two nodes, where the
host's own people cross none. `publish_now` writes the message to the
socket at once instead, when that keeps the order of everything the client
sends: nothing of the client's is waiting to be written.

This reaches into nats-py's internals (`_pending_data_size`, `_transport`
and its `_io_writer`, `stats`), so it is kept here alone: the shape it
relies on is checked, and wherever it does not hold (another nats-py, a
websocket connection, a client reconnecting, a buffer waiting, a socket
whose writes back up) the caller publishes the public way.
`tests/cluster/test_publish_now.py` checks the shape on the nats-py
installed, so a release that changes it fails there, not in production.
"""

from __future__ import annotations

import asyncio
from typing import Any

from nats.protocol.command import pub_cmd

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
        if writer.transport.get_write_buffer_size() > BACKED_UP:
            return None
        client.stats["out_msgs"]  # noqa: B018  (its counters are kept as publish keeps them)
    except (AttributeError, KeyError, TypeError):
        return None
    return writer


def publish_now(client: Any, subject: str, payload: bytes) -> bool:
    """Write `payload` to `subject` on the client's socket now, and say so;
    False, nothing done, where that would not keep the order or the
    client's bounds (the caller then publishes the public way)."""
    if len(payload) > getattr(client, "max_payload", 0):
        return False
    writer = _writer(client)
    if writer is None:
        return False
    writer.write(pub_cmd(subject, "", payload))
    client.stats["out_msgs"] += 1
    client.stats["out_bytes"] += len(payload)
    return True
