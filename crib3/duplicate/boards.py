"""An event's boards, and who holds which seat's cards on each.

A board is one hand of the three-handed game, fixed in advance: the deck's
order, the seat that deals and the depth of the starter's cut. Everyone who
plays the board gets the same cards in the same place relative to the
dealer and sees the same starter turned, so whatever differs between their
results is their play, not the deal's luck. Every board starts at 0-0-0:
a game's log starts at zero, and the scores' starting point only matters
for the end-game's tactics, which a later kind of board may add.

The dealer moves one seat to the left every board, as a duplicate bridge
board's dealer moves round the table. A person (slot `p` of a table, 0 in
an event played against the computer) holds seat `(p - n) % 3` on board
`n` (0-based): one seat to the right each board as the deal moves left, so
over any three boards in a row each person holds each seat once and sits
once as the dealer, once as the dealer's left (who cuts and leads) and once
on the dealer's right. That is why an event's boards come in threes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from crib3.cards import DECK, Card

# The rules' bounds on the starter's cut, over the 36 cards left after the deal.
MIN_CUT, MAX_CUT = 4, 32
POSITIONS = ("dealer", "dealer's left", "dealer's right")


@dataclass(frozen=True)
class Board:
    """One hand dealt in advance. `number` counts from 1 as people read it."""

    number: int
    deck: tuple[Card, ...]
    dealer: int  # the board's seat that deals, 0..2
    cut: int  # how many cards down the starter is cut, MIN_CUT..MAX_CUT

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The five cards `seat` is dealt: one at a time from the dealer's
        left, as the engine deals (then one card to the crib)."""
        first = (seat - self.dealer - 1) % 3
        return tuple(sorted(self.deck[first:15:3]))

    @property
    def crib_card(self) -> Card:
        return self.deck[15]

    @property
    def starter(self) -> Card:
        """The card the cut turns, whoever cuts (the board fixes the cut)."""
        return self.deck[16 + self.cut]

    @property
    def unseen(self) -> tuple[Card, ...]:
        """The cards nobody sees in the board's hand: neither dealt nor the
        starter (the cut for first deal shows three of them)."""
        return tuple(c for i, c in enumerate(self.deck[16:]) if i != self.cut)

    def deal_cuts(self) -> tuple[Card, Card, Card]:
        """The cards the cut for first deal turns at a board's table: the
        dealer's lowest, so the board's dealer deals with no tie to cut
        again. They are cards nobody is dealt or turns as the starter in
        this hand: a card cut for the deal and then held by a rival would
        be one card in two places on the table (and in the feed)."""
        order = sorted(self.unseen, key=lambda c: (c.rank, c.suit))
        return order[0], order[-1], order[-2]


def make_boards(seed: int, count: int) -> tuple[Board, ...]:
    """The `count` boards of the event with this `seed`, always the same
    ones (a string seed: Python hashes it the same way on every machine)."""
    rng = random.Random(f"crib3 duplicate {seed}")
    boards = []
    for n in range(count):
        deck = list(DECK)
        rng.shuffle(deck)
        boards.append(Board(number=n + 1, deck=tuple(deck), dealer=n % 3,
                            cut=rng.randint(MIN_CUT, MAX_CUT)))
    return tuple(boards)


def seat_of(slot: int, number: int) -> int:
    """The seat a table's `slot` holds on board `number` (from 1)."""
    return (slot - (number - 1)) % 3


def position(seat: int, dealer: int) -> int:
    """Where `seat` sits from the dealer: 0 deals, 1 on the left, 2 on the right."""
    return (seat - dealer) % 3
