"""Whose rating a seat's game moves: an identity nobody can take by typing
a name.

A seat keeps the key its person sat down with (`Seat.key`), and the room
already trusts that key to be theirs alone: an SSH key's fingerprint, a
browser's identity (its invite cookie, kept as a digest), or a reconnect
code's digest under `--open`. The rating follows that key, whatever name
it plays under; the same key under `--open` (where it is a first use) and
listed in authorized_keys is one identity. A seat with no key has no
identity, and no rating moves for it.

The computer players are rated by level ("computer standard"), never by
the name they play under at a table.
"""

from __future__ import annotations

from crib3.room.ratings import bot_identity
from crib3.room.seats import FIRST_USE, Seat

SSH, WEB, CODE = "ssh ", "web ", "code "


def key_identity(key: str | None) -> str | None:
    """The identity a room key stands for (see the module's docstring), or None."""
    if not key:
        return None
    proof = key.removeprefix(FIRST_USE)
    if proof.startswith("web:"):  # an invite's browser, from a link the host gave
        return WEB + proof.removeprefix("web:")
    if proof.startswith((WEB, CODE)):
        return proof
    return SSH + proof


def seat_identity(seat: Seat) -> str | None:
    """Whose rating this seat's game moves: its person's (a seat they left
    too, which the computer finished for them), or its computer level's."""
    if seat.name is None:
        return bot_identity(seat.level)
    return key_identity(seat.key)
