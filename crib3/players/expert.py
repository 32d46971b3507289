"""The `expert` player: plays the coach's first option, every time."""

from __future__ import annotations

import random

from crib3.engine import Command, Discard, Play, SeatView
from crib3.players.coach import CURRENT, DECEMBER_2026, Style, rank_discards, rank_plays
from crib3.players.standard import choose_simply


class ExpertPlayer:
    """Discards by the full expectation (hand over the 47 starters, plus or
    minus the crib); plays by looking ahead through the rest of the count
    over samples of the unseen cards; knows the target and the scores."""

    level = "expert"
    style: Style = CURRENT

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Command:
        return choose_simply(self, view)  # type: ignore[arg-type]

    def discard(self, view: SeatView) -> Discard:
        assert view.seat is not None
        return Discard(view.seat, rank_discards(view, self.style)[0].card)

    def play(self, view: SeatView) -> Play:
        assert view.seat is not None
        return Play(view.seat, rank_plays(view, style=self.style)[0].card)


class FrozenExpert(ExpertPlayer):
    """The expert as it played in December 2026 (issue 13's starting point),
    kept for `crib3 sim` to measure the expert against; not in the menus."""

    level = "expert-2026-12"
    style = DECEMBER_2026
