"""Helpers that play whole games for the tests."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from crib3.engine import Event, Game, PlayerInfo, Rules, State
from crib3.players.easy import EasyPlayer


def random_game(seed: int, kinds: Sequence[str] = ("easy", "easy", "easy"),
                rules: Rules | None = None,
                on_event: Callable[[Event, State], None] | None = None) -> Game:
    """A whole game in which every seat, human or not, picks random legal
    moves (so a "human" with muggins on claims random counts)."""
    infos = [PlayerInfo(f"P{i}", kind) for i, kind in enumerate(kinds)]
    subscribers = [on_event] if on_event else []
    game = Game.new(infos, rules or Rules(), seed=seed, subscribers=subscribers)
    pickers = [EasyPlayer(random.Random(seed * 31 + i)) for i in range(3)]
    while not game.over:
        seat = game.to_act()[0]
        game.dispatch(pickers[seat].choose(game.view(seat)))
    return game
