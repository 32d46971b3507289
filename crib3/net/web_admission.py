"""Connections to the web door, counted per address and overall until they
become a signed-in websocket, and closed after a grace time: what keeps a
flood of half-open connections from the door, as `crib3.net.gate` does
for the SSH one.
"""

from __future__ import annotations

import asyncio
from typing import cast

PREAUTH_GRACE = 20.0          # seconds a connection may stay without becoming a seat
PREAUTH_PER_ADDRESS = 16      # connections from one address not yet a seat
PREAUTH_ALL = 256             # ... from everyone


class Admission:
    """Connections to the web door, counted per address until they become
    a seat (see the module's docstring)."""

    def __init__(self, per_address: int = PREAUTH_PER_ADDRESS, overall: int = PREAUTH_ALL,
                 grace: float = PREAUTH_GRACE) -> None:
        self.per_address, self.overall, self.grace = per_address, overall, grace
        self.waiting: dict[str, int] = {}
        self.refused = 0
        self._timers: dict[asyncio.BaseTransport, asyncio.TimerHandle] = {}
        self._address: dict[asyncio.BaseTransport, str] = {}

    def arrived(self, transport: asyncio.BaseTransport) -> bool:
        peer = transport.get_extra_info("peername") or ("?", 0)
        address = str(peer[0])
        if self.waiting.get(address, 0) >= self.per_address or \
                sum(self.waiting.values()) >= self.overall:
            self.refused += 1
            return False
        self.waiting[address] = self.waiting.get(address, 0) + 1
        self._address[transport] = address
        self._timers[transport] = asyncio.get_running_loop().call_later(
            self.grace, transport.close)
        return True

    def seated(self, transport: asyncio.BaseTransport) -> None:
        """The connection is a signed-in session now: no longer waiting."""
        timer = self._timers.pop(transport, None)
        if timer is not None:
            timer.cancel()
            self._forget(transport)

    def left(self, transport: asyncio.BaseTransport) -> None:
        timer = self._timers.pop(transport, None)
        if timer is not None:
            timer.cancel()
            self._forget(transport)
        self._address.pop(transport, None)

    def _forget(self, transport: asyncio.BaseTransport) -> None:
        address = self._address.get(transport)
        if address is not None and address in self.waiting:
            self.waiting[address] -= 1
            if self.waiting[address] <= 0:
                del self.waiting[address]


class Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the admission count."""

    def __init__(self, inner: asyncio.Protocol, admission: Admission) -> None:
        self.inner = inner
        self.admission = admission
        self.transport: asyncio.BaseTransport | None = None
        self.admitted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        if not self.admission.arrived(transport):
            cast(asyncio.Transport, transport).abort()  # (a stream's: a socket's, or TLS's)
            return
        self.admitted = True
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.admitted and self.transport is not None:
            self.admission.left(self.transport)
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.admitted:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()
