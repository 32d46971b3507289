"""Play now: a queue of people who want a game, and who sits with whom.

Pure: no room, no screen, no loop. The time is the injected `clock`'s (a
test or a benchmark turns it by hand), and everything else is the queue
itself, so the same joins at the same times always give the same tables.

The policy, in the words the lobby shows it:

- one place in the queue an identity (`crib3.room.identities`): a person
  cannot queue twice, under two names or from two sessions;
- three people sit together when each one's rating is within each
  other's band; a band is `BAND` shown points either side of one's own
  rating as one joins, and widens by `WIDEN` points a second of waiting
  (so two people 500 apart meet after 40 s at the latest). Whoever has
  waited longest is served first, with the two nearest to them;
- after `WAIT` seconds without such a pair, the computer at one's own
  level is offered (`offers`): a table with two computer players of the
  level rated nearest (`level_near`). The place in the queue is kept
  meanwhile: a person who does not take the offer may still be matched.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass

from crib3.room.ratings import BOT_PREFIX, BOT_SKILLS, Skill

WAIT = 60.0  # seconds in the queue before the computer is offered
BAND = 100.0  # shown points either side of one's rating, as one joins ...
WIDEN = 10.0  # ... widened by so many points a second of waiting


class AlreadyQueued(ValueError):
    """This identity has a place in the queue already."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One person's place in the queue."""

    identity: str  # whom it is for: one place an identity
    name: str  # the name they are signed in under (whom to seat)
    rating: int  # their shown rating as they joined
    since: float  # the clock's time as they joined

    def band(self, now: float) -> float:
        """How far (in shown points) from their rating they accept a partner now."""
        return BAND + WIDEN * max(0.0, now - self.since)

    def waited(self, now: float) -> float:
        return max(0.0, now - self.since)


@dataclass(frozen=True, slots=True)
class Match:
    """Three people to seat together at a new rated table, the longest waiting first."""

    entries: tuple[Entry, Entry, Entry]


def level_near(rating: int, skills: Mapping[str, Skill] = BOT_SKILLS) -> str:
    """The computer level rated nearest to `rating` (the higher one on a tie)."""
    levels = sorted(((skill.shown, identity.removeprefix(BOT_PREFIX))
                     for identity, skill in skills.items()), reverse=True)
    return min(levels, key=lambda pair: abs(pair[0] - rating))[1]


class Matcher:
    """The queue and its pairing policy (see the module's docstring)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic, wait: float = WAIT) -> None:
        self.clock = clock
        self.wait = wait
        self._queue: dict[str, Entry] = {}  # identity -> its place, in the order they came
        self._offered: set[str] = set()  # identities offered the computer already

    def __len__(self) -> int:
        return len(self._queue)

    def __iter__(self) -> Iterator[Entry]:
        return iter(list(self._queue.values()))

    def join(self, identity: str, name: str, rating: int, since: float | None = None) -> Entry:
        """`identity` takes a place in the queue, now (or `since`, a time of
        the same clock: a queue read back from elsewhere); AlreadyQueued if
        it has one."""
        if identity in self._queue:
            raise AlreadyQueued(f"{identity} is in the queue already")
        entry = Entry(identity, name, rating, self.clock() if since is None else since)
        self._queue[identity] = entry
        return entry

    def leave(self, identity: str) -> Entry | None:
        """`identity`'s place is given up (None: it had none)."""
        self._offered.discard(identity)
        return self._queue.pop(identity, None)

    def get(self, identity: str) -> Entry | None:
        return self._queue.get(identity)

    def pair(self) -> list[Match]:
        """Every three people who may sit together now, out of the queue:
        the longest waiting first, each with the two nearest to their
        rating whom they accept and who accept each other."""
        now = self.clock()
        matches: list[Match] = []
        waiting = sorted(self._queue.values(), key=lambda e: (e.since, e.identity))
        by_rating = sorted(waiting, key=lambda e: e.rating)
        taken: set[str] = set()
        for first in waiting:
            if first.identity in taken:
                continue
            near = [e for e in by_rating if e.identity not in taken
                    and e.identity != first.identity and _accept(first, e, now)]
            near.sort(key=lambda e: (abs(e.rating - first.rating), e.since))
            found = next(((a, b) for i, a in enumerate(near) for b in near[i + 1:]
                          if _accept(a, b, now)), None)
            if found is None:
                continue
            trio = (first, *found)
            taken.update(e.identity for e in trio)
            matches.append(Match(trio))
        for identity in taken:
            self.leave(identity)
        return matches

    def offers(self) -> list[Entry]:
        """The people who have waited `wait` seconds and are now offered
        the computer (each once; they keep their place)."""
        now = self.clock()
        due = [e for e in self._queue.values()
               if e.identity not in self._offered and e.waited(now) >= self.wait]
        self._offered.update(e.identity for e in due)
        return due


def _accept(a: Entry, b: Entry, now: float) -> bool:
    """Each of the two accepts the other: their ratings are within both bands."""
    gap = abs(a.rating - b.rating)
    return gap <= a.band(now) and gap <= b.band(now)


__all__ = ["BAND", "WAIT", "WIDEN", "AlreadyQueued", "Entry", "Match", "Matcher",
           "level_near"]
