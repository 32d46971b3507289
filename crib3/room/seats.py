"""Who sits where at a card room's tables, and who is in the room now."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field

from crib3.common.rates import TokenBucket
from crib3.room.chat import chat_allowance

SEATS = 3


@dataclass
class Seat:
    """One of a table's three chairs."""

    name: str | None = None  # the person sitting here; None: a computer player
    key: str | None = None  # the key they sat down with (None under --open)
    level: str = "standard"  # the computer player for this seat when it has none
    replaced: bool = False  # the person was gone too long; the computer plays on

    @property
    def person(self) -> bool:
        """A person plays this seat (rather than a computer player)."""
        return self.name is not None and not self.replaced


class SeatLookup:
    """Who sits where: the same questions of a `Table` and of its replica
    in a session worker (each has `seats`, a list of three `Seat`)."""

    seats: list[Seat]

    def seat_of(self, name: str) -> int | None:
        """The seat where `name` sits as a person, if any."""
        for index, seat in enumerate(self.seats):
            if seat.name is not None and seat.name.lower() == name.lower():
                return index
        return None

    def free_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.name is None]


@dataclass
class Presence:
    """A person connected to the room (one SSH session). `kick` ends the
    session, with a reason to show, when the same person signs in again
    from elsewhere (or an admin removes them, or the room closes). `admin`:
    signed in with a key from the server's `--admins` file. `chat` is how
    much this session may still say at tables (see `crib3.room.chat`)."""

    name: str
    key: str | None
    kick: Callable[[str], None] = field(repr=False, default=lambda reason: None)
    admin: bool = False
    chat: TokenBucket = field(repr=False, default_factory=chat_allowance)
    address: str | None = None  # where they connect from (it stands for a key under --open)

    @property
    def holder(self) -> str | None:
        """Who this is for the room's per-person limits (tables held open,
        names at once): their key; under `--open`, where nobody has one,
        the address they connect from (so people behind one address share
        the limits), except a loopback address: those come through a
        tunnel or a jump host, or from the host itself, and tell nobody
        apart. None: nothing to count by, no limit."""
        return holder_of(self.key, self.address)


def holder_of(key: str | None, address: str | None) -> str | None:
    """See `Presence.holder`."""
    if key is not None:
        return f"key {key}"
    if address is None:
        return None
    try:
        if ipaddress.ip_address(address.split("%", 1)[0]).is_loopback:
            return None
    except ValueError:
        pass  # not an IP address (a test's, or a Unix socket's): counted as it is
    return f"address {address}"
