"""Helpers that play whole games for the tests, the hypothesis strategy
that draws one, and what of a game is public."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from hypothesis import strategies as st

from crib3.cards import Card
from crib3.engine import (
    Count,
    Event,
    Game,
    Muggins,
    Phase,
    Play,
    PlayerInfo,
    Rules,
    SeatView,
    State,
)
from crib3.engine.events import MUGGINS_RULES
from crib3.engine.rules import MOST_CLAIMED
from crib3.players import make_player
from crib3.players.easy import EasyPlayer

rules_strategy = st.builds(
    Rules,
    target=st.sampled_from([121, 61]),
    skunks=st.booleans(),
    muggins=st.just(False),
) | st.builds(
    Rules,
    target=st.sampled_from([121, 61]),
    skunks=st.booleans(),
    muggins=st.just(True),
    muggins_rule=st.sampled_from(sorted(MUGGINS_RULES)),
    pegging_claims=st.booleans(),  # (a muggins rule: only with muggins on)
)
kinds_strategy = st.lists(st.sampled_from(["human", "easy"]), min_size=3, max_size=3)
game_strategy = st.tuples(st.integers(0, 2**32), kinds_strategy, rules_strategy)
"""(seed, kinds, rules) of a `random_game`."""


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


def cards_in(value) -> set[Card]:
    """Every card anywhere inside a view or event."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, (tuple, list, frozenset, set)):
        out: set[Card] = set()
        for v in value:
            out |= cards_in(v)
        return out
    if hasattr(value, "__dataclass_fields__"):
        return cards_in(tuple(getattr(value, f) for f in value.__dataclass_fields__))
    return set()


def public_cards(state: State) -> set[Card]:
    """What lies face up in `state`: the cuts for the deal, the cards played,
    the starter, the hands counted so far and, once its count comes, the crib."""
    public = {c for played in state.played for c in played}
    public |= {c for _, c in state.deal_cuts}
    if state.starter is not None:
        public.add(state.starter)
    for shown in state.shown:
        public |= set(shown or ())
    public |= set(state.crib_shown or ())
    if state.phase == Phase.SHOW and state.show_step >= 3:
        public |= set(state.crib)  # the crib is turned up when its count comes
    return public


def play_game(levels, seed, rules=None, check=None):
    """A whole game between bots of `levels`, each move checked to be in its
    view's legal moves (and by `check(view, command)` when given)."""
    infos = [PlayerInfo(f"{lvl}{i}", lvl) for i, lvl in enumerate(levels)]
    game = Game.new(infos, rules or Rules(), seed=seed)
    players = [make_player(lvl, random.Random(seed + i)) for i, lvl in enumerate(levels)]
    while not game.over:
        seat = game.to_act()[0]
        view = game.view(seat)
        command = players[seat].choose(view)
        assert command in view.legal
        if check:
            check(view, command)
        game.dispatch(command)  # raises IllegalMove if a bot cheats the rules
    return game


def play_positions(level: str = "standard", games: int = 6):
    """Play views of seat 0 from real games between players of `level`."""
    for seed in range(games):
        game = Game.new([PlayerInfo(f"p{i}", level) for i in range(3)], Rules(), seed=seed)
        players = [make_player(level, random.Random(seed + s)) for s in range(3)]
        while not game.over:
            seat = game.to_act()[0]
            view = game.view(seat)
            if seat == 0 and view.phase == "play":
                yield view
            game.dispatch(players[seat].choose(view))


class Claimer:
    """A person who claims carelessly: anything from nothing to a few more
    than the cards hold (so over-claims come often), and calls muggins or
    not at random."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, view: SeatView) -> Count | Play | Muggins | object:
        first = view.legal[0]
        if isinstance(first, Count):
            top = max(c.points for c in view.legal if isinstance(c, Count))
            return Count(view.seat, min(MOST_CLAIMED, self.rng.randint(0, top + 3)))
        if isinstance(first, Play) and first.claimed is not None:
            card = self.rng.choice([c.card for c in view.legal if isinstance(c, Play)])
            top = max(c.claimed or 0 for c in view.legal if isinstance(c, Play) and c.card == card)
            return Play(view.seat, card, self.rng.randint(0, top + 2))
        return self.rng.choice(view.legal)


def claimed_game(seed: int, kinds: tuple[str, ...], rules: Rules) -> tuple[Game, list[State]]:
    """A whole game with careless claimers in the "human" seats; the state
    before each event, in order."""
    befores: list[State] = []
    state = [State()]

    def record(event: Event, after: State) -> None:
        befores.append(state[0])
        state[0] = after

    infos = [PlayerInfo(f"P{i}", kind) for i, kind in enumerate(kinds)]
    game = Game.new(infos, rules, seed=seed, subscribers=[record])
    pickers = [Claimer(random.Random(seed * 7 + i)) if kind == "human"
               else make_player(kind, random.Random(seed + i)) for i, kind in enumerate(kinds)]
    while not game.over:
        seat = game.to_act()[0]
        game.dispatch(pickers[seat].choose(game.view(seat)))  # type: ignore[arg-type]
    return game, befores
