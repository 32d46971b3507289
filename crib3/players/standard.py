"""The `standard` player: greedy and sensible, the way a decent club player
plays without thinking hard."""

from __future__ import annotations

import random
from typing import Protocol

from crib3.engine import Command, Count, CutStarter, Discard, Muggins, Play, SeatView
from crib3.players.analysis import discard_options, greedy_play


class StandardPlayer:
    """Keeps the four cards with the best expected hand over every possible
    starter; in the play takes the most points now and, when another card
    is as good, avoids leaving the next player an easy 15 or 31."""

    level = "standard"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Command:
        return choose_simply(self, view)

    def discard(self, view: SeatView) -> Discard:
        assert view.seat is not None
        best = discard_options(view.hand, own_crib=view.dealer == view.seat, use_crib=False)[0]
        return Discard(view.seat, best.card)

    def play(self, view: SeatView) -> Play:
        assert view.seat is not None
        card = greedy_play(view.hand, list(view.pile), view.count)
        assert card is not None, "asked to play with no playable card"
        return Play(view.seat, card)


class CarefulBot(Protocol):
    """What `choose_simply` asks of a bot: its random source, and its own
    discard and play (the standard and the expert bots differ only there)."""

    rng: random.Random

    def discard(self, view: SeatView) -> Discard: ...

    def play(self, view: SeatView) -> Play: ...


def choose_simply(player: CarefulBot, view: SeatView) -> Command:
    """The choices every careful bot makes the same way: a random cut, an
    honest count, and always calling muggins."""
    if not view.legal:
        raise ValueError(f"seat {view.seat} has nothing to do now")
    first = view.legal[0]
    if isinstance(first, Discard):
        return player.discard(view)
    if isinstance(first, Play):
        return player.play(view)
    if isinstance(first, CutStarter):
        return player.rng.choice(view.legal)
    if isinstance(first, Count):
        # (every legal command in the show is a Count)
        return max((c for c in view.legal if isinstance(c, Count)), key=lambda c: c.points)
    if isinstance(first, Muggins):
        return Muggins(first.seat, True)
    raise ValueError(f"no rule for {type(first).__name__} in phase {view.phase}")

