"""One seat's side of a game: what a player's screen is given, and all it is given.

A `SeatFeed` stands between a `Game` and the screen of the person in one
seat (at this keyboard, or at the other end of an SSH connection). It hands
on every event *redacted* to that seat, the state those redacted events fold
to, and the seat's `SeatView` at that moment; and it takes commands only for
that seat. A screen built on a feed never holds another seat's hidden cards,
the deck order or the crib before the show, so it cannot show them, whatever
bug it has: cheating is ruled out by construction, not by care.

The view comes from the true state (whose turn it is and the legal moves
depend on hidden cards), with one thing taken out: the legal counts of a
muggins hand run from 0 to the true count, so they would give the answer
away (and so would the legal claims of a card, with pegging claims: each
card is offered once, without a claim).

A spectator (a person watching a card-room table without a seat) is given
`SeatFeed(game, None)`: the seat-less redaction (`redact(event, None)`,
`project(state, None)`), so nothing that is not face up on the table
reaches them, and every command they might send is refused.
"""

from __future__ import annotations

from collections.abc import Callable

from crib3.engine.commands import Command, Count, Play
from crib3.engine.events import Event
from crib3.engine.game import Game
from crib3.engine.rules import IllegalMove
from crib3.engine.state import State, apply
from crib3.engine.views import SeatView, project, redact

FeedItem = tuple[Event, State, SeatView]
FeedSubscriber = Callable[[Event, State, SeatView], None]


def seat_view(state: State, seat: int | None) -> SeatView:
    """`project(state, seat)` fit to hand to a person: without the legal
    counts, which would tell them their hand's true score. With `seat`
    None, a spectator's view: public facts only."""
    view = project(state, seat)
    legal = view.legal
    if any(isinstance(command, Count) for command in legal):
        view = view._replace(legal=tuple(c for c in legal if not isinstance(c, Count)))
    elif legal and isinstance(first := legal[0], Play) and first.claimed is not None:
        # pegging claims: each card once, without the claims (which run to
        # what it scores); the person says the claim
        cards = dict.fromkeys(c.card for c in legal if isinstance(c, Play))
        view = view._replace(legal=tuple(Play(first.seat, card) for card in cards))
    return view


class SeatFeed:
    """Seat `seat`'s side of `game` (see the module's docstring); with
    `seat` None, a spectator's side."""

    # A move is carried out at once (`dispatch`), and only the rules refuse
    # one: there is no sending without waiting, and no room to refuse it
    # (a card room's feed in a session worker has both).
    send: None = None
    room_errors: tuple[type[Exception], ...] = ()

    def __init__(self, game: Game, seat: int | None) -> None:
        self.game = game
        self.seat = seat

    def follow(self, callback: FeedSubscriber) -> tuple[list[FeedItem], Callable[[], None]]:
        """Every event so far, as this seat receives them, and from now on
        `callback(event, state, view)` for each new one: in one step, so no
        event is missed or seen twice. Returns the history and a function
        that unsubscribes."""
        history: list[FeedItem] = []
        true_state, seen = State(), State()
        for event in self.game.events:
            true_state = apply(true_state, event)
            mine = redact(event, self.seat)
            seen = apply(seen, mine)
            history.append((mine, seen, seat_view(true_state, self.seat)))

        def on_event(event: Event, true_state: State) -> None:
            nonlocal seen
            mine = redact(event, self.seat)
            seen = apply(seen, mine)
            callback(mine, seen, seat_view(true_state, self.seat))

        return history, self.game.subscribe(on_event)

    def dispatch(self, command: Command) -> None:
        """Carry out this seat's command; a command for any other seat is
        refused (IllegalMove), whoever sends it; a spectator's, always."""
        if self.seat is None:
            raise IllegalMove("a spectator cannot move")
        if getattr(command, "seat", None) != self.seat:
            raise IllegalMove(f"seat {self.seat} may only move for itself")
        self.game.dispatch(command)
