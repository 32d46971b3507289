"""What one seat may know: `project(state, seat)` and `redact(event, seat)`.

A `SeatView` holds the seat's own cards and everything public, and nothing
hidden: no other hand before it is shown, no deck order, no discard but its
own, no crib before the crib is counted. Bots decide from a view alone, the
screens draw from views, and a network seat is sent events through `redact`,
so cheating is impossible by construction rather than by convention.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

from crib3.cards import DECK, Card
from crib3.engine.commands import Command
from crib3.engine.events import (
    CardDiscarded,
    CardsDealt,
    DeckShuffled,
    Event,
    PlayerInfo,
    Rules,
    Scores,
    TakenBack,
)
from crib3.engine.rules import counting_seat, cutter, legal_moves, play_turn, takeable, to_act
from crib3.engine.state import Phase, State

# The phases as globals: Python 3.11 looks an attribute up on an Enum class
# about three times slower than a global, and `crib3 sim` compares phases
# millions of times.
START, CUT_FOR_DEAL, SHUFFLE, DEAL, DISCARD, CUT_STARTER, HEELS, PLAY, SHOW, OVER = Phase


class SeatView(NamedTuple):
    """The game as seat `seat` sees it (or, with `seat` None, as a spectator
    sees it: public facts only). Immutable; a NamedTuple because bots ask for
    a view at every decision and building one must be cheap."""

    seat: int | None
    players: tuple[PlayerInfo, ...]
    rules: Rules
    phase: str
    hand_number: int
    dealer: int | None
    scores: Scores
    back_pegs: Scores
    sources: tuple[tuple[int, ...], ...]
    hand_scores: tuple[Scores, ...]
    winner: int | None
    skunks: tuple[int, int, int]
    deal_cuts: Sequence[tuple[int, Card]]  # a Trail: every cut, in order
    # the seat's own cards
    hand: tuple[Card, ...]  # held now
    kept: tuple[Card, ...]  # the four kept for the show
    my_discard: Card | None
    # public facts
    held: tuple[int, int, int]
    discarded: tuple[bool, bool, bool]
    crib_size: int
    crib: tuple[Card, ...] | None  # face up once counted
    starter: Card | None
    cutter: int | None
    count: int  # type: ignore[assignment]  # a field named as the log names it hides tuple.count
    pile: tuple[Card, ...]
    pile_seats: tuple[int, ...]
    played: tuple[tuple[Card, ...], ...]
    gone: tuple[bool, bool, bool]
    hand_gos: tuple[tuple[int, int, int], ...]  # (seat, count, cards played by then)
    turn: int | None  # whose turn in the play
    shown: tuple[tuple[Card, ...] | None, ...]  # hands counted in the show
    muggins_pending: tuple[int, int, int] | None
    counting: tuple[int, bool] | None  # in the show: whose count is next, and if it is a crib
    counting_cards: tuple[Card, ...]  # the cards of that count, when they are this seat's
    to_act: tuple[int, ...]
    legal: tuple[Command, ...]  # this seat's legal commands now
    # the play's count just ended, until the next card (card, seat), and
    # whether a go or 31 has ended the count on the table
    ended: tuple[tuple[Card, int], ...] = ()
    count_over: bool = False
    # every card played this hand, in order: (seat, card, count number from
    # 0); with `hand_gos`, the whole public history of the play
    hand_plays: tuple[tuple[int, Card, int], ...] = ()
    # this seat has a throw or play of the hand it may take back now (where
    # the game allows take-backs: see `crib3.engine.events.TakenBack`)
    can_take_back: bool = False

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat in self.to_act

    def name(self, seat: int) -> str:
        return self.players[seat].name

    def unseen(self) -> frozenset[Card]:
        """Cards this seat has not seen: the candidates for others' hands,
        the crib and the deck. Bots reason over these."""
        seen: set[Card] = set(self.hand) | set(self.kept)
        if self.my_discard is not None:
            seen.add(self.my_discard)
        if self.starter is not None:
            seen.add(self.starter)
        for cards in self.played:
            seen.update(cards)
        for shown in self.shown:
            if shown:
                seen.update(shown)
        if self.crib:
            seen.update(self.crib)
        return frozenset(DECK) - seen


_BEFORE_THE_DEAL = (START, CUT_FOR_DEAL, SHUFFLE, DEAL)


def project(state: State, seat: int | None, redacted: bool = False) -> SeatView:
    """The view of `state` that `seat` may see (None: a spectator's).

    With `redacted`, `state` was folded from a seat's redacted events (as a
    network client would): it lacks the other hands, so whose turn it is and
    the legal moves cannot be worked out and are left empty."""
    mine = seat is not None
    dealt = state.phase not in _BEFORE_THE_DEAL
    acting = () if redacted else to_act(state)
    counting = counting_seat(state) if state.phase == SHOW and state.show_step < 4 else None
    counting_cards: tuple[Card, ...] = ()
    if counting is not None and counting[0] == seat and not redacted:
        counting_cards = tuple(sorted(state.crib if counting[1] else state.kept[seat]))
    return SeatView(
        seat=seat,
        players=state.players,
        rules=state.rules,
        phase=state.phase,
        hand_number=state.hand_number,
        dealer=state.dealer,
        scores=state.scores,
        back_pegs=state.back_pegs,
        sources=state.sources,
        hand_scores=state.hand_scores,
        winner=state.winner,
        skunks=state.skunks,
        deal_cuts=state.deal_cuts,
        hand=state.hands[seat] if seat is not None else (),
        kept=state.kept[seat] if seat is not None else (),
        my_discard=state.discards[seat] if seat is not None else None,
        held=state.held,
        discarded=state.discarded,
        crib_size=1 + sum(state.discarded) if dealt else 0,
        crib=state.crib_shown,
        starter=state.starter,
        cutter=cutter(state) if state.dealer is not None else None,
        count=state.count,
        pile=state.pile,
        pile_seats=state.pile_seats,
        played=state.played,
        gone=state.gone,
        hand_gos=state.hand_gos,
        turn=play_turn(state) if state.phase == PLAY and not redacted else None,
        shown=state.shown,
        muggins_pending=state.muggins_pending,
        counting=counting,
        counting_cards=counting_cards,
        to_act=acting,
        legal=tuple(legal_moves(state, seat, acting)) if mine and seat in acting else (),
        ended=state.ended,
        count_over=state.count_over,
        hand_plays=state.hand_plays,
        can_take_back=mine and takeable(state, seat),
    )


def redact(event: Event, seat: int | None) -> Event:
    """`event` with everything `seat` may not see removed (None: a spectator)."""
    if isinstance(event, DeckShuffled):
        return replace(event, deck=None)
    if isinstance(event, CardsDealt):
        hands = tuple(h if s == seat else () for s, h in enumerate(event.hands))
        return replace(event, hands=hands, crib_card=None)
    if isinstance(event, (CardDiscarded, TakenBack)) and event.seat != seat:
        if isinstance(event, TakenBack) and not event.throw:
            return event  # the card was played face up
        return replace(event, card=None)
    return event
