"""The `easy` player: a beginner who knows the rules and nothing else."""

from __future__ import annotations

import random

from crib3.engine import Command, SeatView


class EasyPlayer:
    """Picks any legal command at random: legal, careless, and fast."""

    level = "easy"

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Command:
        if not view.legal:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        return self.rng.choice(view.legal)
