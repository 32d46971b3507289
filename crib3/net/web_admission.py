"""Connections to the web door, counted per address and overall until they
become a signed-in websocket: what keeps a flood of half-open or slow
connections from the door, as `crib3.net.gate` does for the SSH one.

- A connection must send its first request's headers, all of them, within
  `HEADER_DEADLINE` seconds of arriving (a deadline for the whole request,
  not for each byte: a byte every few seconds does not keep it open), and
  must become a seat within `PREAUTH_GRACE` seconds.
- Past the overall cap, a connection from an address with nothing pending
  displaces the oldest connection still sending its headers of the
  busiest address (with nobody to displace, it is closed at once).
- Past an address's cap (or the overall cap, from an address with some
  pending), a new connection is let in on trial: if its headers are all
  there within `TRIAL_DEADLINE` seconds, it takes the place of its
  address's oldest connection still sending them; if not, it is closed.
  A flooder's new connection, as slow as the rest, displaces nothing, and
  a browser behind the same proxy as a flooder (one address) still gets
  its page. Only a few connections of an address are on trial at once;
  past that, a new one is closed at once.
- Between half the overall cap and the cap, a new connection from an
  address that has some pending already is put on trial at random, the
  more likely the fuller the door (as OpenSSH's `MaxStartups
  start:rate:full` drops them early).

Beside them: how often an address may do something (`PerAddress`: mint a
name, guess at a link), and the browsers that chose a name under `--open`
but have not sat down yet (`Newcomers`: the invite book is written only
for a person who does).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from crib3.common.rates import TokenBucket
from crib3.room.invites import Identity as WebIdentity
from crib3.room.invites import digest

PREAUTH_GRACE = 20.0          # seconds a connection may stay without becoming a seat
HEADER_DEADLINE = 8.0         # seconds for a connection's first request's headers, whole
PREAUTH_PER_ADDRESS = 16      # connections from one address not yet a seat
PREAUTH_ALL = 256             # ... from everyone
TRIAL_DEADLINE = 1.0          # seconds for the headers of a connection past the caps
TRIALS_PER_ADDRESS = 4        # connections past the caps on trial at once, from one address
TRIALS_ALL = 64               # ... from everyone
EARLY_TRIAL_RATE = 0.3        # the chance of a trial at half the overall cap


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
        self.trial_deadline = min(TRIAL_DEADLINE, self.header_deadline)
        self.chance = chance
        self.waiting: dict[str, int] = {}
        self.refused = 0      # connections turned away (for the log and tests)
        self.evicted = 0      # slow connections closed to make way for a new one
        self.pending: OrderedDict[asyncio.BaseTransport, _Pending] = OrderedDict()
        self.trials: dict[asyncio.BaseTransport, _Pending] = {}
        self.trying: dict[str, int] = {}

    def arrived(self, transport: asyncio.BaseTransport) -> bool:
        """May a new connection in? (If so, it is counted from now.)"""
        peer = transport.get_extra_info("peername") or ("?", 0)
        address = str(peer[0])
        mine = self.waiting.get(address, 0)
        total = len(self.pending)
        loop = asyncio.get_running_loop()
        if total >= self.overall and not mine:
            victim = self._make_way(address)
            if victim is None:
                self.refused += 1
                return False
            self._evict(victim)
        elif mine >= self.per_address or total >= self.overall or \
                (mine and total >= self.overall // 2 and self._early_trial(total)):
            return self._on_trial(transport, address)
        self._count(transport, _Pending(address, loop.call_later(
            self.header_deadline, _close, transport), loop.time()))
        return True

    def _on_trial(self, transport: asyncio.BaseTransport, address: str) -> bool:
        """Past the caps, from an address with connections pending: let it
        in on trial, to send its headers within `trial_deadline` (then it
        takes the place of its address's oldest slow connection), or go."""
        if self.trying.get(address, 0) >= TRIALS_PER_ADDRESS or len(self.trials) >= TRIALS_ALL:
            self.refused += 1
            return False

        def failed() -> None:
            self.refused += 1
            self._end_trial(transport)
            _close(transport)

        loop = asyncio.get_running_loop()
        self.trials[transport] = _Pending(address, loop.call_later(self.trial_deadline, failed),
                                          loop.time())
        self.trying[address] = self.trying.get(address, 0) + 1
        return True

    def _end_trial(self, transport: asyncio.BaseTransport) -> _Pending | None:
        trial = self.trials.pop(transport, None)
        if trial is not None:
            trial.timer.cancel()
            self.trying[trial.address] -= 1
            if self.trying[trial.address] <= 0:
                del self.trying[trial.address]
        return trial

    def headed(self, transport: asyncio.BaseTransport) -> None:
        """The connection's first request's headers have all arrived: from
        now only the grace time counts (from its arrival)."""
        trial = self._end_trial(transport)
        if trial is not None:
            victim = self._slowest(trial.address) or self._make_way(trial.address)
            if victim is not None:
                self._evict(victim)
            self._count(transport, trial)
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
        self._end_trial(transport)
        pending = self.pending.pop(transport, None)
        if pending is None:
            return
        pending.timer.cancel()
        self.waiting[pending.address] -= 1
        if self.waiting[pending.address] <= 0:
            del self.waiting[pending.address]

    def _count(self, transport: asyncio.BaseTransport, pending: _Pending) -> None:
        self.waiting[pending.address] = self.waiting.get(pending.address, 0) + 1
        self.pending[transport] = pending

    def _evict(self, victim: asyncio.BaseTransport) -> None:
        self.evicted += 1
        self.left(victim)
        _close(victim)

    def _slowest(self, address: str) -> asyncio.BaseTransport | None:
        """The oldest connection from `address` still sending its headers."""
        for transport, pending in self.pending.items():
            if pending.address == address and not pending.headed:
                return transport
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

    def _early_trial(self, total: int) -> bool:
        start = self.overall // 2
        fullness = (total - start) / max(1, self.overall - start)
        drop = EARLY_TRIAL_RATE + (1 - EARLY_TRIAL_RATE) * fullness
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


NEWCOMERS_KEPT = 1024         # browsers that chose a name and have not sat down yet
NEWCOMER_SECONDS = 600.0      # ... each kept so long for its websocket


class Newcomers:
    """Browsers that chose a name under `--open` and have not sat down yet:
    kept here, in memory, and written to the invite book only when their
    person signs in to the room (a name asked for and never used writes
    nothing). At most `kept` at once, each for `seconds`: the oldest go
    first (a browser opens its websocket a moment after its name)."""

    def __init__(self, kept: int = NEWCOMERS_KEPT, seconds: float = NEWCOMER_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.kept, self.seconds, self.clock = kept, seconds, clock
        self.waiting: OrderedDict[str, tuple[WebIdentity, float]] = OrderedDict()

    def __len__(self) -> int:
        return len(self.waiting)

    def add(self, identity: WebIdentity) -> None:
        self.waiting[identity.hash] = (identity, self.clock())
        while len(self.waiting) > self.kept:
            self.waiting.popitem(last=False)

    def get(self, secret: str | None) -> WebIdentity | None:
        """The newcomer a cookie's secret stands for, if still waiting."""
        if not secret or len(secret) > 200:
            return None
        found = self.waiting.get(digest(secret))
        if found is None:
            return None
        if self.clock() - found[1] > self.seconds:
            del self.waiting[found[0].hash]
            return None
        return found[0]

    def seated(self, identity: WebIdentity) -> bool:
        """`identity`'s person signed in: no longer waiting here (True if it was)."""
        return self.waiting.pop(identity.hash, None) is not None
