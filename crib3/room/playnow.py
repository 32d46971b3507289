"""Play now, in a room: the lobby's one key that finds a game.

A person joins the queue (`join`); the room's `Matcher` seats three people
of near rating at a new rated table (started at once, its first seat the
one who waited longest), checked every `every` seconds while anyone waits
and at each join. After the matcher's wait (`crib3.room.matcher.WAIT`) the
lobby offers them the computer at their level instead (`computer`): a
rated table with two computer players of the level rated nearest them.

A place in the queue asks for a new table, so joining draws on the
allowance opening one does (`Room._may_open`): the queue is no way around
the room's pace of new tables, nor a way to make it work at every key.

Nobody is seated twice: a person seated already (or playing somewhere)
cannot join; one who leaves the room leaves the queue (`Room.depart`);
and an entry whose person sat down elsewhere meanwhile or went away is
dropped before any table is made. One place an identity (their key's,
`crib3.room.identities`): two names of one key share it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from crib3.engine import Rules
from crib3.room.basics import RoomError
from crib3.room.identities import key_identity
from crib3.room.matcher import AlreadyQueued, Match, Matcher, level_near
from crib3.room.ratings import NEWCOMER
from crib3.room.seats import Presence, Seat
from crib3.room.table import Table

if TYPE_CHECKING:
    from crib3.room.room import Room

log = logging.getLogger("crib3.serve")

EVERY = 1.0  # seconds between two looks at the queue while anyone waits
MOST = 30.0  # seconds between two looks at most, while they fail


def queue_identity(presence: Presence) -> str:
    """Whose place in the queue a person takes: their key's identity (see
    `crib3.room.identities`); with no key, their name's (nothing else
    tells them apart, and no rating moves for them)."""
    return key_identity(presence.key) or f"name {presence.name.lower()}"


class PlayNow:
    """A room's play-now queue (see the module's docstring)."""

    def __init__(self, room: Room, clock: Callable[[], float] = time.monotonic,
                 every: float = EVERY) -> None:
        self.room = room
        self.matcher = Matcher(clock)
        self.every = every
        self.seated = 0  # people seated by the queue (for the metrics and the benchmark)
        self.offered: set[str] = set()  # identities waiting past the wait: offered the computer
        self._timer: asyncio.TimerHandle | None = None
        self._failures = 0  # looks failed in a row

    @property
    def wait(self) -> float:
        """Seconds in the queue before the computer is offered."""
        return self.matcher.wait

    def rating(self, identity: str) -> int:
        """`identity`'s shown rating (a newcomer's when unrated, or when the room rates nothing)."""
        results = self.room.results
        skill = None if results is None else results.skill(identity)
        return (skill or NEWCOMER).shown

    def join(self, presence: Presence) -> int:
        """`presence` joins the queue; returns their shown rating. RoomError
        if they sit at a table already or are in the queue already."""
        if self.room.people.get(presence.name.lower()) is not presence:
            raise RoomError("you are not in the room")
        if self.room.place_of(presence) is not None:
            raise RoomError("you sit at a table already: one table at a time")
        identity = queue_identity(presence)
        if self.matcher.get(identity) is not None:
            raise RoomError("you are in the queue already (Esc leaves it)")
        self.room._may_open(presence, asked="asked for", again="queue again")
        try:
            entry = self.matcher.join(identity, presence.name, self.rating(identity))
        except AlreadyQueued:
            raise RoomError("you are in the queue already (Esc leaves it)") from None
        log.info("play now: %r joins the queue at %d (%d waiting)", presence.name[:40],
                 entry.rating, len(self.matcher))
        self.step()
        self._look_later()
        return entry.rating

    def leave(self, presence: Presence) -> None:
        """`presence` leaves the queue (nothing, if they were not in it)."""
        identity = queue_identity(presence)
        entry = self.matcher.get(identity)
        if entry is not None and entry.name.lower() == presence.name.lower():
            self.matcher.leave(identity)
            self.offered.discard(identity)

    def queued(self, presence: Presence) -> bool:
        """`presence` has a place in the queue."""
        entry = self.matcher.get(queue_identity(presence))
        return entry is not None and entry.name.lower() == presence.name.lower()

    def computer(self, presence: Presence) -> Table:
        """Instead of waiting on: a rated table, started, with `presence` and
        two computer players of the level rated nearest them."""
        identity = queue_identity(presence)
        level = level_near(self.rating(identity))
        self.leave(presence)
        table = self.room.open_table(presence, Rules(), (level, level), rated=True)
        table.start(presence.name)
        return table

    # --- the queue's turns --------------------------------------------------------------

    def step(self) -> list[Table]:
        """One look at the queue: the entries of people gone or seated are
        dropped, every three who may play together are seated, and who has
        waited long enough is offered the computer. Returns the new tables."""
        self._drop_stale()
        tables = [self._seat(match) for match in self.matcher.pair()]
        for entry in self.matcher.offers():
            self.offered.add(entry.identity)
        if tables:
            self.room.changed()
        return tables

    def _drop_stale(self) -> None:
        # (Who sits where, gathered once: a look at a full queue asks it of
        # every place, and `place_of` walks every table.)
        seated = {seat.name.lower() for table in self.room.tables.values() if not table.over
                  for seat in table.seats if seat.person and seat.name is not None}
        for entry in self.matcher:
            presence = self.room.people.get(entry.name.lower())
            if presence is None or queue_identity(presence) != entry.identity \
                    or presence.name.lower() in seated:
                self.matcher.leave(entry.identity)
                self.offered.discard(entry.identity)

    def _seat(self, match: Match) -> Table:
        """A new rated table for the three of `match`, started."""
        room = self.room
        people = [room.people[entry.name.lower()] for entry in match.entries]
        for entry in match.entries:
            self.offered.discard(entry.identity)
        number = room._next_number()
        seats = [Seat(p.name, p.key) for p in people]
        table = Table(room, number, people[0].name, Rules(), seats)
        table.rated = room.rates
        for index, presence in enumerate(people):
            table.online.add(index)
            if presence.holder is not None:
                table.holders[index] = presence.holder
        room.tables[number] = table
        table.start(people[0].name)
        self.seated += 3
        log.info("play now: table %d seats %s (%s)", number,
                 ", ".join(repr(p.name[:40]) for p in people),
                 ", ".join(str(e.rating) for e in match.entries))
        return table

    def _look_later(self) -> None:
        """Look at the queue again in `every` seconds (backing off while
        looks fail), while anyone waits."""
        if self._timer is not None or not len(self.matcher):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # (the model alone, in a test: `step` is called by hand)
            return
        wait = min(MOST, self.every * 2 ** self._failures)
        self._timer = loop.call_later(wait, self._look)

    def _look(self) -> None:
        self._timer = None
        try:
            self.step()
        except Exception:  # a bug: said once, and the queue goes on, backing off
            if not self._failures:
                log.exception("play now: a look at the queue failed: nobody is seated by "
                              "it until it works again; trying again, less often")
            self._failures += 1
        else:
            if self._failures:
                log.warning("play now: the queue's looks work again (after %d failed)",
                            self._failures)
            self._failures = 0
        self._look_later()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


__all__ = ["EVERY", "PlayNow", "queue_identity"]
