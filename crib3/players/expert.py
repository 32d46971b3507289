"""The `expert` player: plays the coach's first option, every time."""

from __future__ import annotations

import random
from dataclasses import fields, replace
from typing import Any

from crib3.engine import Command, Discard, Play, SeatView
from crib3.players.coach import rank_discards, rank_plays
from crib3.players.standard import choose_simply
from crib3.players.style import CURRENT, Style


class ExpertPlayer:
    """Discards by the full expectation (hand over the 47 starters, plus or
    minus the crib); plays by looking ahead through the rest of the count
    over samples of the unseen cards; knows the target and the scores."""

    level = "expert"
    style: Style = CURRENT

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Command:
        return choose_simply(self, view)

    def discard(self, view: SeatView) -> Discard:
        assert view.seat is not None
        return Discard(view.seat, rank_discards(view, self.style)[0].card)

    def play(self, view: SeatView) -> Play:
        assert view.seat is not None
        return Play(view.seat, rank_plays(view, style=self.style)[0].card)


# The expert as it played in December 2026, before the refinements: every
# switch that changes its choices off. This is the one place the old expert
# lives; it is the yardstick `crib3 sim --duplicate expert,expert-2026-12`
# and the strength benchmark measure the expert against, and the players'
# tests pin its choices so that the yardstick does not move.
DECEMBER_2026 = Style(peg_discard=False, score_discard=False, read_plays=False, peg_out=False,
                      skunk_discard=False, rivals=False, seat_play=False,
                      deny_crib=False, crib_spread=False, end_scale=1.0, posterior=False,
                      read_standard=0.0, read_standard_keeps=0.0, read_expert=False,
                      expert_habit=False, expert_crib=False, wary_experts=False,
                      read_easy=False)


class FrozenExpert(ExpertPlayer):
    """The expert as it played in December 2026 (`DECEMBER_2026`), kept
    for `crib3 sim` to measure the expert against; not in the menus."""

    level = "expert-2026-12"
    style = DECEMBER_2026


# A variant of the expert for `crib3 sim` alone: "expert:" then the Style
# fields to change, each "name=value", separated by colons, e.g.
# `crib3 sim --duplicate expert:play_weight=0.5,expert`. It compares a
# refinement's settings without a code edit; it is never offered to players.
VARIANT_PREFIX = "expert:"
_TRUE, _FALSE = ("on", "true", "yes", "1"), ("off", "false", "no", "0")


def variant_style(level: str) -> Style:
    """The Style a variant level names (ValueError, in words, if it names
    something else)."""
    if not level.startswith(VARIANT_PREFIX):
        raise ValueError(f"unknown player level {level!r}")
    known = {f.name: f for f in fields(Style)}
    changes: dict[str, Any] = {}
    for part in level[len(VARIANT_PREFIX):].split(":"):
        name, _, text = part.partition("=")
        field = known.get(name)
        if field is None or not text:
            raise ValueError(f"unknown player level {level!r} ({part!r}: give name=value, "
                             f"the names being {', '.join(known)})")
        if field.type in (bool, "bool"):
            if text.lower() not in (*_TRUE, *_FALSE):
                raise ValueError(f"unknown player level {level!r} ({name} is on or off)")
            changes[name] = text.lower() in _TRUE
        else:
            try:
                changes[name] = float(text)
            except ValueError:
                raise ValueError(f"unknown player level {level!r} ({name} is a number)") from None
    return replace(CURRENT, **changes)


class VariantExpert(ExpertPlayer):
    """The expert with some refinements changed (see `variant_style`)."""

    def __init__(self, rng: random.Random, level: str) -> None:
        super().__init__(rng)
        self.style = variant_style(level)
        self.level = level
