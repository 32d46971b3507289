"""Connections to the web door, counted per address and overall until they
become a signed-in websocket: what keeps a flood of half-open or slow
connections from the door, as `crib3.net.gate` does for the SSH one.

- A connection must send its first request's headers, all of them, within
  `HEADER_DEADLINE` seconds of arriving (a deadline for the whole request,
  not for each byte: a byte every few seconds does not keep it open), and
  must become a seat within `PREAUTH_GRACE` seconds.
- Past an address's cap, a new connection from it displaces that
  address's oldest connection still sending its headers after
  `MAKE_WAY_AFTER` seconds (a flooder only
  displaces itself, and a browser behind the same proxy as a flooder still
  gets its page); past the overall cap, a connection from an address with
  nothing pending displaces the oldest such connection of the busiest
  address. With nobody to displace, the new one is closed at once.
- Between half the overall cap and the cap, a new connection from an
  address that has some pending already is dropped at random, the more
  likely the fuller the door (OpenSSH's `MaxStartups start:rate:full`).
"""

from __future__ import annotations

import asyncio
import random
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from crib3.common.rates import TokenBucket

PREAUTH_GRACE = 20.0          # seconds a connection may stay without becoming a seat
HEADER_DEADLINE = 8.0         # seconds for a connection's first request's headers, whole
PREAUTH_PER_ADDRESS = 16      # connections from one address not yet a seat
PREAUTH_ALL = 256             # ... from everyone
MAKE_WAY_AFTER = 2.0          # seconds sending headers before a newcomer may displace it
EARLY_DROP_RATE = 0.3         # the chance of an early drop at half the overall cap


@dataclass
class _Pending:
    address: str
    timer: asyncio.TimerHandle
    since: float              # when it arrived (the event loop's clock)
    headed: bool = False      # its first request's headers have all arrived


def _close(transport: asyncio.BaseTransport) -> None:
    cast(asyncio.Transport, transport).abort()  # (a stream's: a socket's, or TLS's)


class Admission:
    """Connections to the web door, counted per address until they become
    a seat (see the module's docstring)."""

    def __init__(self, per_address: int = PREAUTH_PER_ADDRESS, overall: int = PREAUTH_ALL,
                 grace: float = PREAUTH_GRACE, header_deadline: float = HEADER_DEADLINE,
                 chance: Callable[[], float] = random.random) -> None:
        self.per_address, self.overall, self.grace = per_address, overall, grace
        self.header_deadline = min(header_deadline, grace)
        self.chance = chance
        self.waiting: dict[str, int] = {}
        self.refused = 0      # connections closed at once (for the log and tests)
        self.evicted = 0      # slow connections closed to make way for a new one
        self.pending: OrderedDict[asyncio.BaseTransport, _Pending] = OrderedDict()

    def arrived(self, transport: asyncio.BaseTransport) -> bool:
        """May a new connection in? (If so, it is counted from now.)"""
        peer = transport.get_extra_info("peername") or ("?", 0)
        address = str(peer[0])
        mine = self.waiting.get(address, 0)
        total = len(self.pending)
        victim: asyncio.BaseTransport | None = None
        if mine >= self.per_address:
            victim = self._slowest(address, MAKE_WAY_AFTER)
        elif total >= self.overall:
            victim = self._slowest(address, MAKE_WAY_AFTER) if mine else self._make_way(address)
        elif mine and total >= self.overall // 2 and self._early_drop(total):
            self.refused += 1
            return False
        if (mine >= self.per_address or total >= self.overall) and victim is None:
            self.refused += 1
            return False
        if victim is not None:
            self.evicted += 1
            self.left(victim)
            _close(victim)
        self.waiting[address] = mine + 1
        loop = asyncio.get_running_loop()
        timer = loop.call_later(self.header_deadline, _close, transport)
        self.pending[transport] = _Pending(address, timer, loop.time())
        return True

    def headed(self, transport: asyncio.BaseTransport) -> None:
        """The connection's first request's headers have all arrived: from
        now only the grace time counts (from its arrival)."""
        pending = self.pending.get(transport)
        if pending is None or pending.headed:
            return
        pending.headed = True
        pending.timer.cancel()
        loop = asyncio.get_running_loop()
        pending.timer = loop.call_at(pending.since + self.grace, _close, transport)

    def seated(self, transport: asyncio.BaseTransport) -> None:
        """The connection is a signed-in session now: no longer waiting."""
        self.left(transport)

    def left(self, transport: asyncio.BaseTransport) -> None:
        pending = self.pending.pop(transport, None)
        if pending is None:
            return
        pending.timer.cancel()
        self.waiting[pending.address] -= 1
        if self.waiting[pending.address] <= 0:
            del self.waiting[pending.address]

    def _slowest(self, address: str, age: float = 0.0) -> asyncio.BaseTransport | None:
        """The oldest connection from `address` still sending its headers
        (for at least `age` seconds)."""
        since = asyncio.get_running_loop().time() - age
        for transport, pending in self.pending.items():
            if pending.address == address and not pending.headed:
                return transport if pending.since <= since else None
        return None

    def _make_way(self, address: str) -> asyncio.BaseTransport | None:
        """The oldest connection still sending its headers, of the address
        with the most pending (not `address`)."""
        others = sorted(((n, a) for a, n in self.waiting.items() if a != address), reverse=True)
        for _, busiest in others:
            victim = self._slowest(busiest)
            if victim is not None:
                return victim
        return None

    def _early_drop(self, total: int) -> bool:
        start = self.overall // 2
        fullness = (total - start) / max(1, self.overall - start)
        drop = EARLY_DROP_RATE + (1 - EARLY_DROP_RATE) * fullness
        return self.chance() < drop


HEADERS_END = b"\r\n\r\n"


class Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the admission count;
    it watches the bytes for the end of the first request's headers."""

    def __init__(self, inner: asyncio.Protocol, admission: Admission) -> None:
        self.inner = inner
        self.admission = admission
        self.transport: asyncio.BaseTransport | None = None
        self.admitted = False
        self.headed = False
        self.tail = b""       # the last bytes seen, for an end split across reads

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        if not self.admission.arrived(transport):
            _close(transport)
            return
        self.admitted = True
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.admitted and self.transport is not None:
            self.admission.left(self.transport)
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return
        if not self.headed and self.transport is not None:
            if HEADERS_END in self.tail + data:
                self.headed = True
                self.admission.headed(self.transport)
            else:
                self.tail = (self.tail + data)[-(len(HEADERS_END) - 1):]
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


ADDRESSES_KEPT = 4096         # addresses whose allowance is remembered at once


class PerAddress:
    """How often each address may do something (mint a name under --open,
    guess at an invite link): a token bucket per address, the least
    recently seen forgotten past `ADDRESSES_KEPT`, and one for everyone."""

    def __init__(self, per_minute: float, burst: float, overall_per_minute: float,
                 overall_burst: float) -> None:
        self.per_minute, self.burst = per_minute, burst
        self.everyone = TokenBucket(overall_per_minute / 60, overall_burst)
        self.buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def allowed(self, address: str) -> bool:
        """May `address` do it once more now? (If so, it is counted.)"""
        bucket = self.buckets.get(address)
        if bucket is None:
            bucket = self.buckets[address] = TokenBucket(self.per_minute / 60, self.burst)
            while len(self.buckets) > ADDRESSES_KEPT:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(address)
        bucket.take(0)
        if bucket.tokens < 1:
            return False
        if not self.everyone.take():
            return False
        return bool(bucket.take())
