"""Stepping through a saved game: the state after any event, at once.

Every state along the log is kept (a state shares almost all of its tuples
with the one before, so a 1,500-event game costs about a megabyte), which
makes stepping backwards exactly as cheap as stepping forwards, and the
screen after a step back the very screen shown going forwards.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from crib3.engine import Event, State, apply
from crib3.engine import events as ev


class Replay:
    """A game's events and the state after each of them."""

    def __init__(self, events: Sequence[Event]) -> None:
        if not events:
            raise ValueError("a replay needs at least one event")
        self.events = list(events)
        self.states: list[State] = []
        state = State()
        for event in self.events:
            state = apply(state, event)
            self.states.append(state)
        # Index of the first event of each hand (its shuffle); hand 0 is the
        # cut for first deal.
        self.hand_starts = [0] + [i for i, e in enumerate(self.events)
                                  if isinstance(e, ev.DeckShuffled)]

    def __len__(self) -> int:
        return len(self.events)

    @property
    def hands(self) -> int:
        return len(self.hand_starts) - 1

    def hand_of(self, index: int) -> int:
        """Which hand event `index` belongs to (0: the cut for first deal)."""
        return bisect_right(self.hand_starts, index) - 1

    def next_hand(self, index: int) -> int:
        hand = self.hand_of(index)
        if hand + 1 < len(self.hand_starts):
            return self.hand_starts[hand + 1]
        return len(self.events) - 1

    def previous_hand(self, index: int) -> int:
        hand = self.hand_of(index)
        start = self.hand_starts[hand]
        if index > start or hand == 0:
            return start
        return self.hand_starts[hand - 1]

    def clamp(self, index: int) -> int:
        return max(0, min(len(self.events) - 1, index))
