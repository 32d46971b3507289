"""Who sits where at a card room's tables, and who is in the room now."""

from __future__ import annotations

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
    code: str | None = None  # a reconnect code just given to them (under --open): shown
    # (Where their session goes next, between the lobby, tables and other
    # nodes, is the session's own: `crib3.room.contract.Wayfinding`.)

    @property
    def holder(self) -> str | None:
        """Who this is for the room's per-person limits (tables held open,
        names at once): their key; under `--open`, where a key or a code
        proves only who holds a name (anyone can make a new one), the
        address they connect from, so people behind one address share the
        limits. Loopback counts like any other address: behind a jump host
        or a same-host tunnel everyone shares 127.0.0.1's limits. None:
        nothing to count by, no limit."""
        return holder_of(self.key, self.address)


# A key under `--open` begins so: the proof that holds a name (a key's
# fingerprint, or a reconnect code's hash), which is not whom to count.
FIRST_USE = "first-use "


def holder_of(key: str | None, address: str | None) -> str | None:
    """See `Presence.holder`."""
    if key is not None and not key.startswith(FIRST_USE):
        return f"key {key}"
    if address is None:
        return None
    return f"address {address.split('%', 1)[0]}"
