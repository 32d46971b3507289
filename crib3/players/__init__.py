"""Computer players. A player decides from its seat's `SeatView` alone
(never the state, the deck or another hand) and returns one of the view's
legal commands."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from crib3.engine import Command, SeatView


class Player(Protocol):
    level: str

    def choose(self, view: SeatView) -> Command:
        """One of `view.legal`, for the seat `view.seat`."""
        ...


def make_player(level: str, rng: random.Random | None = None) -> Player:
    """A computer player of this level (see `BOT_LEVELS`)."""
    from crib3.players.easy import EasyPlayer
    from crib3.players.expert import VARIANT_PREFIX, ExpertPlayer, FrozenExpert, VariantExpert
    from crib3.players.standard import StandardPlayer

    makers: dict[str, Callable[[random.Random], Player]] = {
        "easy": EasyPlayer, "standard": StandardPlayer, "expert": ExpertPlayer,
        FrozenExpert.level: FrozenExpert}
    if level.startswith(VARIANT_PREFIX):  # a variant, for `crib3 sim` alone
        return VariantExpert(rng or random.Random(), level)
    if level not in makers:
        known = ", ".join(makers)
        raise ValueError(f"unknown player level {level!r} (choose from {known})")
    return makers[level](rng or random.Random())


