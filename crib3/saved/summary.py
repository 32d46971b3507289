"""What statistics need of one saved game (`GameSummary`), read from its
log as `crib3 verify` reads it. Apart from the statistics themselves
(`crib3.saved.games`) so that the cache of summaries (`stats_cache`) and the
statistics can each use it without importing the other."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from crib3.engine import Event, State
from crib3.engine import events as ev
from crib3.engine.log import load_log
from crib3.engine.state import PEGGING


@dataclass
class GameSummary:
    """What statistics need of one game."""

    players: list[tuple[str, str]]  # (name, level) by seat
    target: int = 121
    winner: int | None = None
    scores: list[int] = field(default_factory=lambda: [0, 0, 0])
    pegging: list[int] = field(default_factory=lambda: [0, 0, 0])
    counts: list[tuple[int, bool, int]] = field(default_factory=list)  # seat, crib, points
    # The game's own verdict (GameWon.skunks: 1 skunked, 2 double, 0 not, and
    # all 0 when the game was played without skunks), not the scores again.
    skunks: list[int] = field(default_factory=lambda: [0, 0, 0])
    # how many take-backs the game had (a local game's `u`): its result is
    # counted apart (see `crib3.saved.games.game_stats`)
    taken_back: int = 0

    @classmethod
    def of(cls, state: State, events: Sequence[Event], taken_back: int = 0) -> GameSummary:
        """`events` need only be the standing `HandCounted` (the counts)."""
        return cls(
            players=[(p.name, p.kind) for p in state.players],
            target=state.rules.target,
            winner=state.winner,
            scores=list(state.scores),
            pegging=[state.sources[s][PEGGING] for s in range(3)],
            counts=[(e.seat, e.crib, e.points + e.missed) for e in events
                    if isinstance(e, ev.HandCounted)],
            skunks=list(state.skunks),
            taken_back=taken_back,
        )


def summarise_log(path: Path) -> GameSummary:
    """A game's summary, from the same reading and checking as `crib3 verify`
    (a stream: the events are not kept), so statistics count exactly the logs
    that verify accepts. Raises LogError; a cut-off last line is left out, as
    on loading."""
    counted: list[ev.HandCounted] = []
    takebacks = 0

    def watch(event: Event) -> None:
        nonlocal takebacks
        if isinstance(event, ev.HandCounted):
            counted.append(event)
        elif isinstance(event, ev.TakenBack):
            takebacks += 1  # (never a count: a take-back ends with the play)

    loaded = load_log(path, keep_events=False, on_event=watch)
    return GameSummary.of(loaded.state, counted, takebacks)
