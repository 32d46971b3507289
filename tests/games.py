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


def games_totalling(folder, events: int = 1500,
                    kinds: Sequence[str] = ("easy", "easy", "easy")) -> tuple[list, int]:
    """Whole games written as logs in `folder` until their events add up to
    at least `events` (one game has about 400): the benchmarks' long log."""
    from crib3.engine.log import write_log

    paths, total, seed = [], 0, 0
    while total < events:
        game = random_game(seed, kinds)
        path = folder / f"g{seed}.jsonl"
        write_log(path, game.events)
        paths.append(path)
        total += len(game.events)
        seed += 1
    return paths, total
