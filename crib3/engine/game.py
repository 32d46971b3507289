"""`Game`: one game's events and state, and the only door into them.

Everything that drives a game (a person's key, a bot, a network client)
calls `dispatch`; everything that shows a game subscribes. The Game resolves
chance itself (cuts and shuffles, from its own `random.Random`), so after
every dispatch it stands where a seat must choose, or at the end.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence

from crib3.cards import DECK
from crib3.engine.commands import Command, DrawCutCard, Shuffle, TakeBack
from crib3.engine.events import Event, PlayerInfo, Rules
from crib3.engine.rules import IllegalMove, begin, legal_moves, needs_chance, step, to_act
from crib3.engine.state import Phase, State, apply
from crib3.engine.views import SeatView, project

Subscriber = Callable[[Event, State], None]


class Game:
    """A game in progress. Start one with `Game.new`, or rebuild one from
    its events with `Game.from_events` (which trusts them: verify logs with
    `crib3.engine.log.load_log` first).

    `takebacks`: a person may take back their last throw or play
    (`TakeBack`); on only for a game at one's own keyboard against the
    computer (`crib3 play`, `crib3 resume`), never in the card room."""

    def __init__(self, rng: random.Random | None = None, takebacks: bool = False) -> None:
        self.takebacks = takebacks
        self.events: list[Event] = []
        self.state = State()
        self.rng = rng or random.Random()
        self._subscribers: list[Subscriber] = []

    # --- making games -----------------------------------------------------

    @classmethod
    def new(cls, players: Sequence[PlayerInfo], rules: Rules | None = None,
            seed: int | None = None, subscribers: Iterable[Subscriber] = (),
            takebacks: bool = False) -> Game:
        """A new game, run up to the first choice (the discard of hand 1).
        With a `seed`, every shuffle and cut is reproducible."""
        game = cls(random.Random(seed), takebacks)
        for subscriber in subscribers:
            game.subscribe(subscriber)
        game._emit([begin(tuple(players), rules or Rules(), seed)])
        game._resolve_chance()
        return game

    @classmethod
    def from_events(cls, events: Iterable[Event], rng: random.Random | None = None,
                    takebacks: bool = False) -> Game:
        """The game these events make, ready to go on from where they stop."""
        game = cls(rng, takebacks)
        state = game.state
        for event in events:
            state = apply(state, event)
            game.events.append(event)
        game.state = state
        return game

    # --- driving ----------------------------------------------------------------

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call `callback(event, state_after)` for every new event, in order.
        Returns a function that unsubscribes."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback)

    def dispatch(self, command: Command) -> list[Event]:
        """Carry out a seat's command (IllegalMove if it may not), then every
        automatic event and chance step after it. Returns all new events.
        A take-back is refused unless this game allows them."""
        if type(command) is TakeBack and not self.takebacks:
            raise IllegalMove("take-backs are only for games against the computer "
                              "at your own keyboard")
        start = len(self.events)
        events, state = step(self.state, command)
        self._emit(events, state)
        self._resolve_chance()
        return self.events[start:]

    def _emit(self, events: list[Event], final: State | None = None) -> None:
        state = self.state
        subscribers = self._subscribers
        for event in events:
            state = apply(state, event) if final is None or subscribers else state
            self.events.append(event)
            for callback in subscribers:
                callback(event, state)
        self.state = final if final is not None else state

    def _chance_state(self) -> State:
        """The state chance steps are drawn from: the game's own (a game
        whose events wait to be stored reads the state they lead to)."""
        return self.state

    def _resolve_chance(self) -> None:
        while needs_chance(self._chance_state()):
            s = self._chance_state()
            if s.phase == Phase.SHUFFLE:
                deck = list(DECK)
                self.rng.shuffle(deck)
                command: Command = Shuffle(tuple(deck))
            else:
                taken = {c for c in s.cuts if c is not None}
                choices = [c for c in DECK if c not in taken]
                command = DrawCutCard(s.cutters[0], self.rng.choice(choices))
            events, state = step(s, command)
            self._emit(events, state)

    # --- reading ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.state.phase == Phase.OVER

    @property
    def winner(self) -> int | None:
        return self.state.winner

    def to_act(self) -> tuple[int, ...]:
        """Seats that must choose now (several during the discard)."""
        return to_act(self.state)

    def legal_moves(self, seat: int) -> list[Command]:
        return legal_moves(self.state, seat)

    def view(self, seat: int | None) -> SeatView:
        """What `seat` may see now (None: a spectator)."""
        return project(self.state, seat)
