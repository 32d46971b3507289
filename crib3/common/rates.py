"""The one token bucket: how often something may happen (keys over SSH,
chat lines at a table), with a burst saved up for a person's quick moment."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """`rate` tokens a second, at most `burst` saved up: `take(n)` says how
    many of `n` wanted tokens there are (and spends them); `take()` is 1
    when one may go now, 0 when not."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.when = clock()

    def take(self, wanted: int = 1) -> int:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.when) * self.rate)
        self.when = now
        granted = min(wanted, int(self.tokens))
        self.tokens -= granted
        return granted
