"""Who may start signing in: the card room's door before anyone is in.

A connection that has not signed in yet costs the server an open file and
a share of its one event loop, and a stranger may open as many as they
like; the server has a limited number of open files, and the players at
the tables, the tables' logs and the error log need theirs. So, as OpenSSH
does for the same threat:

- connections not yet signed in are capped overall, with early random
  drops past a start (`MaxStartups start:rate:full`), and per address
  (`PerSourceMaxStartups`); the overall cap is also kept well inside the
  process's open-file limit;
- at the overall cap, a connection from an address with nothing pending
  still gets in: the oldest pending connection of the busiest address
  makes way for it (so one new sign-in at a time gets through a flood
  from elsewhere, while the flooder only displaces itself);
- each connection may try `AUTH_TRIES` keys or codes (`MaxAuthTries`), and
  each address `FAILURES_PER_MINUTE` failed tries a minute; past that the
  address is refused at the door until its allowance refills
  (`PerSourcePenalties`);
- a connection must sign in within `LOGIN_GRACE` seconds (`LoginGraceTime`);
- once in, a connection has one session open at a time (`SESSIONS_AT_ONCE`:
  each new session signs its person in again and kicks the one before, so
  a client opening channels in a loop made the whole room wait), and a
  person may begin `SESSIONS_PER_MINUTE` sessions a minute.

Loopback is an address like any other: behind a jump host or a same-host
tunnel everyone arrives as 127.0.0.1 and shares its limits (there is no
trusted way to tell them apart here).

Pure bookkeeping: the SSH door (`crib3.net.server`'s accept loop and
`crib3.net.doorman`) asks it at each accept and sign-in.
"""

from __future__ import annotations

import random
import resource
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from crib3.common.rates import TokenBucket
from crib3.net.metrics import REFUSED

LOGIN_GRACE = 20.0          # seconds to sign in (OpenSSH's LoginGraceTime is 120)
STARTUPS = (10, 30, 100)    # start, rate (percent), full: OpenSSH's MaxStartups default
PER_ADDRESS = 10            # connections not yet signed in, from one address
AUTH_TRIES = 6              # keys (or codes) one connection may try: OpenSSH's MaxAuthTries
FAILURES_PER_MINUTE = 30    # failed tries one address may make a minute
FILES_KEPT = 64             # open files never given to connections not yet signed in
ADDRESSES_KEPT = 4096       # addresses whose failures are remembered at once
SESSIONS_AT_ONCE = 1        # sessions one connection may have open
SESSIONS_PER_MINUTE = 20    # sessions one person may begin a minute (a reconnect is one)


@dataclass
class Limits:
    """The door's numbers (see the module's docstring); `crib3 serve` sets them."""

    start: int = STARTUPS[0]
    rate: int = STARTUPS[1]
    full: int = STARTUPS[2]
    per_address: int = PER_ADDRESS
    auth_tries: int = AUTH_TRIES
    failures_per_minute: int = FAILURES_PER_MINUTE
    login_grace: float = LOGIN_GRACE
    sessions_at_once: int = SESSIONS_AT_ONCE
    sessions_per_minute: int = SESSIONS_PER_MINUTE


def parse_startups(text: str) -> tuple[int, int, int]:
    """`10:30:100` (or one number, `100`: no early drops) as OpenSSH's
    MaxStartups; ValueError with a reason when it is not that."""
    parts = text.split(":")
    try:
        if len(parts) == 1:
            full = int(parts[0])
            start, rate = full, 100
        elif len(parts) == 3:
            start, rate, full = (int(p) for p in parts)
        else:
            raise ValueError
    except ValueError:
        raise ValueError("give START:RATE:FULL (10:30:100) or one number") from None
    if not (1 <= start <= full and 0 <= rate <= 100):
        raise ValueError("1 <= START <= FULL, and RATE a percentage")
    return start, rate, full


def raise_open_files() -> int:
    """The process's soft limit of open files raised to its hard limit
    (as far as the system lets): the limit a flood meets is then the
    highest this process may have. Returns the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY:
        hard = max(soft, 1 << 20) if soft != resource.RLIM_INFINITY else soft
    if soft != resource.RLIM_INFINITY and soft < hard:
        for wanted in (hard, 1 << 20, 65536):
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
                return min(wanted, hard)
            except (ValueError, OSError):
                continue
    return soft


def open_files_limit() -> int:
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class Gate:
    """The connections not yet signed in, by address, and each address's
    failed tries (see the module's docstring). `pending` holds whatever the
    server keeps for a connection (its `Doorman`), in arrival order."""

    def __init__(self, limits: Limits | None = None, files: int | None = None,
                 chance: Callable[[], float] = random.random,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits or Limits()
        files = open_files_limit() if files is None else files
        # Half of what is left once the players' and the logs' share is kept:
        # each pending connection is one file, and an accepted one in the
        # making may briefly be another.
        room = max(2, (files - FILES_KEPT) // 2)
        self.full = min(self.limits.full, room)
        self.start = min(self.limits.start, self.full)
        self.chance, self.clock = chance, clock
        self.pending: OrderedDict[Any, str] = OrderedDict()  # connection -> address
        self.by_address: dict[str, int] = {}
        self.failures: OrderedDict[str, TokenBucket] = OrderedDict()
        self.sessions: OrderedDict[str, TokenBucket] = OrderedDict()  # person -> new sessions
        self.refused = 0  # connections turned away at the door (for the log and tests)
        self.evicted = 0  # pending connections closed to make way

    # --- at the door ------------------------------------------------------------------

    def admit(self, address: str) -> tuple[bool, Any]:
        """May a new connection from `address` start signing in? (yes or no,
        and a pending connection to close first to make room, or None)."""
        if self.penalised(address):
            self._refuse("failed-tries")
            return False, None
        mine = self.by_address.get(address, 0)
        if mine >= self.limits.per_address:
            self._refuse("per-address")
            return False, None
        total = len(self.pending)
        if mine == 0:  # nothing pending from here: one new sign-in always gets in
            if total >= self.full:
                victim = self.make_way(address)
                if victim is None:
                    self._refuse("full")
                    return False, None
                return True, victim
            return True, None
        if total >= self.full:
            self._refuse("full")
            return False, None
        if total >= self.start:
            rate = self.limits.rate / 100
            drop = rate + (1 - rate) * (total - self.start) / max(1, self.full - self.start)
            if self.chance() < drop:
                self._refuse("early-drop")
                return False, None
        return True, None

    def _refuse(self, reason: str) -> None:
        self.refused += 1
        REFUSED.labels(reason).inc()

    def make_way(self, address: str | None = None) -> Any:
        """The oldest pending connection of the address with the most
        pending (not `address`), to be closed; None if there is none."""
        others = [(n, a) for a, n in self.by_address.items() if a != address]
        if not others:
            return None
        busiest = max(others)[1]
        for conn, where in self.pending.items():
            if where == busiest:
                self.evicted += 1
                return conn
        return None

    def arrived(self, conn: Any, address: str) -> None:
        self.pending[conn] = address
        self.by_address[address] = self.by_address.get(address, 0) + 1

    def done(self, conn: Any) -> None:
        """`conn` signed in, or went: it no longer counts as pending."""
        address = self.pending.pop(conn, None)
        if address is None:
            return
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]

    # --- failed tries ---------------------------------------------------------------

    def _bucket(self, address: str) -> TokenBucket:
        return self._per_minute(self.failures, address, self.limits.failures_per_minute)

    def _per_minute(self, buckets: OrderedDict[str, TokenBucket], who: str,
                    per_minute: int) -> TokenBucket:
        """`who`'s allowance in `buckets` (the most recent `ADDRESSES_KEPT` kept)."""
        bucket = buckets.get(who)
        if bucket is None:
            bucket = TokenBucket(per_minute / 60, per_minute, clock=self.clock)
            buckets[who] = bucket
            while len(buckets) > ADDRESSES_KEPT:
                buckets.popitem(last=False)
        else:
            buckets.move_to_end(who)
        return bucket

    def failed(self, address: str) -> bool:
        """A failed try from `address`: may it try again?"""
        return self._bucket(address).take() == 1

    def penalised(self, address: str) -> bool:
        """`address` used up its failed tries for now."""
        bucket = self.failures.get(address)
        if bucket is None or not self.limits.failures_per_minute:
            return False
        bucket.take(0)  # (brings its tokens up to now)
        return bucket.tokens < 1


    # --- sessions ------------------------------------------------------------------

    def may_begin_session(self, person: str) -> bool:
        """`person` (their name, as signed in) wants a new session: within
        their allowance a minute? (Spent when it is.)"""
        per_minute = self.limits.sessions_per_minute
        if not per_minute:
            return True
        return self._per_minute(self.sessions, person.casefold(), per_minute).take() == 1


class Throttled:
    """Says something at most once per `every` seconds, with how many
    times it happened meanwhile."""

    def __init__(self, say: Callable[[str], None], every: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.say, self.every, self.clock = say, every, clock
        self.last = -every
        self.quiet = 0

    def __call__(self, line: str) -> None:
        now = self.clock()
        if now - self.last < self.every:
            self.quiet += 1
            return
        if self.quiet:
            line += f" ({self.quiet} more like it since the last)"
        self.last, self.quiet = now, 0
        self.say(line)
