"""What every part of the card room shares: the refusal a person is shown
(`RoomError`, one line), and how the screens are told that something
changed (`Listener`, `notify`). Apart so that the room's modules (seats,
chat, tables) can all use them without importing each other."""

from __future__ import annotations

import logging
from collections.abc import Callable

from crib3.common import crash

log = logging.getLogger("crib3.serve")

Listener = Callable[[], None]


class RoomError(Exception):
    """Something a person asked that the room cannot do; the message says
    why in one line, fit to show them."""


def notify(listeners: list[Listener]) -> None:
    """Tell every listener (a screen) that something changed. Each is
    called on its own: one broken screen must not stop the others."""
    for listener in list(listeners):
        try:
            listener()
        except Exception as exc:
            crash.report(log, exc, "a room listener")
