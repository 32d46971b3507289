"""Positions to practise on: discards and plays, the
player chooses and the coach answers (`crib3.study.review.assess`).

A position is a seat's view taken from a real game, never made up: either
a game dealt here from a seed (the other seats played by the `easy` bot, so
the counts, scores and piles are those of real play), or the player's own
costliest decisions in their saved games, taken from the review of each.
Imports the engine, the players and the review; no screens.
"""

from __future__ import annotations

import random
from collections.abc import Generator, Iterable
from dataclasses import dataclass
from pathlib import Path

from crib3.cards import Card
from crib3.engine import Discard, Game, Play, PlayerInfo, Rules, SeatView, seat_view
from crib3.engine.events import GameStarted
from crib3.engine.state import Phase
from crib3.players.easy import EasyPlayer

YOU = 0  # the seat the player sits in, in dealt positions


@dataclass(frozen=True, slots=True)
class Position:
    """A choice to make: its kind ("discard" or "play"), the seat's view,
    and where it comes from, in words."""

    kind: str
    view: SeatView
    source: str


def _is_choice(view: SeatView) -> bool:
    """A play worth asking about: two ranks or more to choose from."""
    return len({c.card.rank for c in view.legal if isinstance(c, Play)}) > 1


def dealt_positions(kind: str, seed: int | None = None) -> Generator[Position, Card | None, None]:
    """Endless positions of `kind` from games dealt from `seed` (random
    when None): each discard of seat 0, or each of its plays with a real
    choice. The same seed gives the same positions.

    The card the player chose may be sent back (`send(card)`): the game
    goes on from it, so the next play of the hand follows the player's
    own, not the one the stand-in would have made; `next()` lets the
    stand-in (the `easy` bot) choose."""
    rng = random.Random(seed)
    players = (PlayerInfo("You"), PlayerInfo("Left", "easy"), PlayerInfo("Right", "easy"))
    number = 0
    while True:
        number += 1
        game = Game.new(players, Rules(), seed=rng.randrange(2**32))
        bots = [EasyPlayer(random.Random(rng.randrange(2**32))) for _ in range(3)]
        while not game.over:
            acting = game.to_act()
            seat = YOU if YOU in acting else acting[0]
            chosen: Card | None = None
            if seat == YOU:
                view = seat_view(game.state, YOU)
                if kind == "discard" and view.phase == Phase.DISCARD:
                    chosen = yield Position(kind, view,
                                            f"dealt: game {number}, hand {view.hand_number}")
                elif kind == "play" and view.phase == Phase.PLAY and _is_choice(view):
                    chosen = yield Position(kind, view,
                                            f"dealt: game {number}, hand {view.hand_number}")
            if chosen is not None:
                game.dispatch((Discard if kind == "discard" else Play)(YOU, chosen))
            else:
                game.dispatch(bots[seat].choose(game.view(seat)))


def own_positions(paths: Iterable[Path], kind: str, limit: int = 20,
                  games: int = 10) -> list[Position]:
    """The `limit` costliest decisions of `kind` that the people at the
    table made in the last `games` of `paths` (newest last, as
    `saved_paths` lists them), costliest first. Logs that cannot be read
    are passed over: they are not this trainer's to report."""
    from crib3.engine.log import LogError, load_log
    from crib3.study.review import cost_phrase, review_events

    found = []
    for path in list(paths)[-games:]:
        try:
            events = load_log(path).events
        except LogError:
            continue
        started = events[0]
        assert isinstance(started, GameStarted)  # a log that loads begins with it
        players = started.players
        for seat in (s for s, p in enumerate(players) if p.is_human):
            for d in review_events(events, seat).decisions:
                if d.kind == kind and not d.matched:
                    found.append((d.cost, path.name, d))
    found.sort(key=lambda x: (-x[0], x[1], x[2].index))
    return [Position(kind, d.view, f"your game {name}, hand {d.hand} (you gave up "
                                   f"{cost_phrase(d)})")
            for _, name, d in found[:limit]]
