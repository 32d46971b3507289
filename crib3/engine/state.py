"""The game state and `apply`, the pure fold of events into it.

`State` is immutable (a NamedTuple, because `_replace` on one is several times
cheaper than `dataclasses.replace`, and `crib3 sim` folds millions of events).
`apply` checks nothing: an event is a fact. Whether a fact could have happened
is the business of `crib3.engine.rules`, which is also how logs are verified.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, NamedTuple, cast

from crib3.cards import Card
from crib3.common.levels import HUMAN
from crib3.engine.events import (
    CardCutForDeal,
    CardDiscarded,
    CardPlayed,
    CardsDealt,
    ClaimRefused,
    CountReset,
    CutTied,
    DealerChosen,
    DeckShuffled,
    Event,
    GameStarted,
    GameWon,
    GoSaid,
    GoScored,
    HandCounted,
    HandEnded,
    HisHeels,
    MugginsCalled,
    MugginsDeclined,
    PlayerInfo,
    Rules,
    Scores,
    StarterCut,
    TakenBack,
)
from crib3.engine.trail import Trail


class Phase(StrEnum):
    """Where the game stands. The engine stops only in the phases marked
    'choice' (a seat must act) or 'chance' (the random source must act).

    A `StrEnum`: each phase is its lowercase name as a string, so it
    compares, hashes, prints and goes into JSON as the plain strings the
    code and saved data have always used (logs hold events, not phases).
    The order is the game's, and `rules` and `views` unpack it."""

    START = "start"  # nothing yet
    CUT_FOR_DEAL = "cut_for_deal"  # chance: cards cut for first deal
    SHUFFLE = "shuffle"  # chance: the deck order of the next hand
    DEAL = "deal"  # automatic: the deal follows from the shuffle
    DISCARD = "discard"  # choice: every seat that has not discarded
    CUT_STARTER = "cut_starter"  # choice: the seat left of the dealer cuts
    HEELS = "heels"  # automatic: the starter is a jack
    PLAY = "play"  # choice: whose turn it is (automatic gos between)
    SHOW = "show"  # automatic, or a human's count / muggins call
    OVER = "over"


_PLAY = Phase.PLAY  # a global: an Enum class's attributes are slow to look up (3.11)


# Points by source, per seat: the order of State.sources entries.
SOURCES = ("pegging", "hand", "crib", "heels", "muggins")
PEGGING, HAND, CRIB, HEELS, MUGGINS = range(5)

NO_CARDS: tuple[Card, ...] = ()
EMPTY_HANDS: tuple[tuple[Card, ...], ...] = (NO_CARDS, NO_CARDS, NO_CARDS)



def turn_order(seat: int) -> tuple[int, int, int]:
    """The seats in turn from the one left of `seat`, ending with `seat`
    itself: play passes clockwise, to the left."""
    return ((seat + 1) % 3, (seat + 2) % 3, seat)

class State(NamedTuple):
    players: tuple[PlayerInfo, ...] = ()
    rules: Rules = Rules()
    phase: str = Phase.START
    # the cut for first deal
    cutters: tuple[int, ...] = ()  # seats still cutting in this round
    cuts: tuple[Card | None, ...] = (None, None, None)  # this round's cards
    # every cut, in order: a Trail, as a run of tied cuts can make it as long
    # as the log, and a tuple copied per event made reading quadratic
    deal_cuts: Trail[tuple[int, Card]] = Trail()
    # the hand
    hand_number: int = 0
    dealer: int | None = None
    deck: tuple[Card, ...] = NO_CARDS  # undealt cards, top first
    hands: tuple[tuple[Card, ...], ...] = EMPTY_HANDS  # cards held now
    held: tuple[int, int, int] = (0, 0, 0)  # how many: public, unlike `hands`
    kept: tuple[tuple[Card, ...], ...] = EMPTY_HANDS  # the four kept for the show
    discards: tuple[Card | None, ...] = (None, None, None)  # None: unknown or not yet
    discarded: tuple[bool, bool, bool] = (False, False, False)
    crib: tuple[Card, ...] = NO_CARDS
    starter: Card | None = None
    # the play
    count: int = 0  # type: ignore[assignment]  # a field named as the log names it hides tuple.count
    pile: tuple[Card, ...] = NO_CARDS  # cards since the last reset
    pile_seats: tuple[int, ...] = ()  # who played each card of `pile`
    leader: int | None = None  # leads the count while `pile` is empty
    last_player: int | None = None  # played the last card of this count
    gone: tuple[bool, bool, bool] = (False, False, False)
    # every go of this hand: (seat, count, cards that seat had played by then)
    hand_gos: tuple[tuple[int, int, int], ...] = ()
    count_over: bool = False  # a go or 31 ended this count; a reset follows
    # the count that just ended (card, seat), from its reset until the next
    # card: a table keeps a 31 or a go in sight until play goes on
    ended: tuple[tuple[Card, int], ...] = ()
    played: tuple[tuple[Card, ...], ...] = EMPTY_HANDS  # this hand, per seat
    # every card played this hand, in order: (seat, card, count number), the
    # first count of the hand numbered 0 (public: what the look-ahead reads a
    # seat's earlier choices from)
    hand_plays: tuple[tuple[int, Card, int], ...] = ()
    # the show
    show_step: int = 0  # how many of the four counts are done
    shown: tuple[tuple[Card, ...] | None, ...] = (None, None, None)  # hands counted
    crib_shown: tuple[Card, ...] | None = None  # the crib, once counted
    # caller, victim, points: points missed in a count (or, with pegging
    # claims, in the play) that the caller may take
    muggins_pending: tuple[int, int, int] | None = None
    # the score
    scores: Scores = (0, 0, 0)
    back_pegs: Scores = (0, 0, 0)  # each seat's score before its last points
    sources: tuple[tuple[int, ...], ...] = ((0,) * 5,) * 3  # by SOURCES
    hand_scores: tuple[Scores, ...] = ()  # totals at the end of each hand
    winner: int | None = None
    skunks: tuple[int, int, int] = (0, 0, 0)
    # what a take-back goes back to: (the state just before a person's last
    # throw or play that may still be taken back, their seat, the card),
    # None when there is none. That state holds the one before it, so
    # taking back again goes further back, to the start of the hand's play
    # (or of the discard, until the starter is cut). See `TakenBack`.
    undo: tuple[State, int, Card | None] | None = None

    # --- derived facts, used by the rules, the views and the screens --------

    def show_order(self) -> tuple[int, int, int]:
        """Seats in the order their hands are counted: left of the dealer first."""
        return turn_order(self.dealer if self.dealer is not None else 0)

    def name(self, seat: int) -> str:
        return self.players[seat].name if seat < len(self.players) else f"seat {seat}"


def _with_points(state: State, seat: int, points: int, scores: Scores,
                 source: int) -> dict[str, Any]:
    """The fields that change when `seat` scores: the event's recorded
    `scores` are taken as the fact; the back peg is the score before."""
    back = list(state.back_pegs)
    back[seat] = state.scores[seat]
    sources = list(state.sources)
    row = list(sources[seat])
    row[source] += points
    sources[seat] = tuple(row)
    return {"scores": tuple(scores), "back_pegs": tuple(back), "sources": tuple(sources)}


def _set(items: tuple[Any, ...], index: int, value: object) -> tuple[Any, ...]:
    out = list(items)
    out[index] = value
    return tuple(out)


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    return tuple(c for c in cards if c is not card)


def _game_started(s: State, e: GameStarted) -> State:
    return State(players=e.players, rules=e.rules, phase=Phase.CUT_FOR_DEAL, cutters=(0, 1, 2))


def _card_cut_for_deal(s: State, e: CardCutForDeal) -> State:
    return s._replace(
        cuts=_set(s.cuts, e.seat, e.card),
        cutters=tuple(x for x in s.cutters if x != e.seat),
        deal_cuts=s.deal_cuts.plus((e.seat, e.card)),
    )


def _cut_tied(s: State, e: CutTied) -> State:
    return s._replace(cutters=e.seats, cuts=(None, None, None))


def _dealer_chosen(s: State, e: DealerChosen) -> State:
    return s._replace(dealer=e.seat, phase=Phase.SHUFFLE)


def _deck_shuffled(s: State, e: DeckShuffled) -> State:
    return s._replace(
        phase=Phase.DEAL,
        hand_number=e.hand,
        dealer=e.dealer,
        deck=e.deck or NO_CARDS,
        hands=EMPTY_HANDS,
        held=(0, 0, 0),
        kept=EMPTY_HANDS,
        discards=(None, None, None),
        discarded=(False, False, False),
        crib=NO_CARDS,
        starter=None,
        count=0,
        pile=NO_CARDS,
        pile_seats=(),
        leader=None,
        last_player=None,
        gone=(False, False, False),
        hand_gos=(),
        count_over=False,
        ended=(),
        played=EMPTY_HANDS,
        hand_plays=(),
        show_step=0,
        shown=(None, None, None),
        crib_shown=None,
        muggins_pending=None,
        undo=None,
    )


def _cards_dealt(s: State, e: CardsDealt) -> State:
    crib = (e.crib_card,) if e.crib_card is not None else NO_CARDS
    return s._replace(
        phase=Phase.DISCARD, hands=e.hands, held=(5, 5, 5), deck=s.deck[16:], crib=crib
    )


def _card_discarded(s: State, e: CardDiscarded) -> State:
    seat = e.seat
    hand = _without(s.hands[seat], e.card) if e.card is not None else s.hands[seat][:-1]
    hands = _set(s.hands, seat, hand)
    crib = (*s.crib, e.card) if e.card is not None else s.crib
    discarded = _set(s.discarded, seat, True)
    done = all(discarded)
    return s._replace(
        undo=(s, seat, e.card) if s.players[seat].kind == HUMAN else s.undo,
        hands=hands,
        held=_set(s.held, seat, s.held[seat] - 1),
        kept=_set(s.kept, seat, hand),
        discards=_set(s.discards, seat, e.card),
        discarded=discarded,
        crib=crib,
        phase=Phase.CUT_STARTER if done else Phase.DISCARD,
    )


def _starter_cut(s: State, e: StarterCut) -> State:
    deck = s.deck[: e.depth] + s.deck[e.depth + 1 :] if s.deck else s.deck
    leader = (s.dealer + 1) % 3 if s.dealer is not None else 0
    return s._replace(
        starter=e.starter,
        deck=deck,
        phase=Phase.HEELS if e.starter.rank == 11 else Phase.PLAY,
        leader=leader,
        undo=None,  # the starter is face up: the throws stand
    )


def _his_heels(s: State, e: HisHeels) -> State:
    return s._replace(phase=Phase.PLAY, **_with_points(s, e.seat, e.points, e.scores, HEELS))


def _card_played(s: State, e: CardPlayed) -> State:
    seat = e.seat
    changes = _with_points(s, seat, e.points, e.scores, PEGGING) if e.points else {}
    if e.missed:
        changes["muggins_pending"] = ((seat + 1) % 3, seat, e.missed)
    return s._replace(
        undo=(s, seat, e.card) if s.players[seat].kind == HUMAN else s.undo,
        hands=_set(s.hands, seat, _without(s.hands[seat], e.card)),
        held=_set(s.held, seat, s.held[seat] - 1),
        played=_set(s.played, seat, (*s.played[seat], e.card)),
        hand_plays=(*s.hand_plays, (seat, e.card, _count_number(s))),
        pile=(*s.pile, e.card),
        pile_seats=(*s.pile_seats, seat),
        count=e.count,
        last_player=seat,
        count_over=e.count == 31,
        ended=(),
        **changes,
    )


def _count_number(s: State) -> int:
    """Which count of the hand the next card belongs to: a card on an empty
    pile begins the next one."""
    if not s.hand_plays:
        return 0
    return s.hand_plays[-1][2] + (0 if s.pile else 1)


def _go_said(s: State, e: GoSaid) -> State:
    return s._replace(
        gone=_set(s.gone, e.seat, True),
        hand_gos=(*s.hand_gos, (e.seat, e.count, len(s.played[e.seat]))),
    )


def _go_scored(s: State, e: GoScored) -> State:
    return s._replace(count_over=True, **_with_points(s, e.seat, e.points, e.scores, PEGGING))


def _count_reset(s: State, e: CountReset) -> State:
    return s._replace(
        ended=tuple(zip(s.pile, s.pile_seats)),
        count=0,
        pile=NO_CARDS,
        pile_seats=(),
        leader=e.leader,
        last_player=None,
        gone=(False, False, False),
        count_over=False,
    )


def begin_show(s: State) -> State:
    """The play is over (every card played): the show begins. Not an event of
    its own: it follows from the last card, so `apply` of that card's last
    consequence calls it."""
    return s._replace(phase=Phase.SHOW, show_step=0, undo=None)  # the play stands


def _hand_counted(s: State, e: HandCounted) -> State:
    source = CRIB if e.crib else HAND
    changes = _with_points(s, e.seat, e.points, e.scores, source) if e.points else {}
    pending = ((e.seat + 1) % 3, e.seat, e.missed) if e.missed else None
    if e.crib:
        changes["crib_shown"] = e.cards
    else:
        changes["shown"] = _set(s.shown, e.seat, e.cards)
    return s._replace(show_step=s.show_step + 1, muggins_pending=pending, **changes)


def _muggins_called(s: State, e: MugginsCalled) -> State:
    return s._replace(muggins_pending=None, **_with_points(s, e.seat, e.points, e.scores, MUGGINS))


def _muggins_declined(s: State, e: MugginsDeclined) -> State:
    return s._replace(muggins_pending=None)


def _claim_refused(s: State, e: ClaimRefused) -> State:
    """A claim above what the cards hold: nothing changes but the taker's
    score, when the rule makes the excess cost (the claimant claims again)."""
    if not e.points:
        return s
    return s._replace(**_with_points(s, e.taker, e.points, e.scores, MUGGINS))


def _hand_ended(s: State, e: HandEnded) -> State:
    return s._replace(
        phase=Phase.SHUFFLE,
        dealer=e.next_dealer,
        hand_scores=(*s.hand_scores, cast(Scores, tuple(e.scores))),
    )


def _game_won(s: State, e: GameWon) -> State:
    return s._replace(
        phase=Phase.OVER,
        undo=None,
        winner=e.seat,
        skunks=cast(Scores, tuple(e.skunks)),
        hand_scores=(*s.hand_scores, cast(Scores, tuple(e.scores))),
    )


def _taken_back(s: State, e: TakenBack) -> State:
    """The state just before the decision taken back: the very state the
    game stood in then, so a game with take-backs folds to what the same
    game without the undone events folds to."""
    return s.undo[0] if s.undo is not None else s


def taken_back(events: Iterable[Event]) -> set[int]:
    """The indices of `events` that a later take-back undid, and of the
    take-backs themselves: what is left is the game as it stood, the events
    whose fold is the same state (for review, statistics and the like).

    A `TakenBack` of seat S undoes the last standing throw or play of S and
    everything standing after it (the engine allows only that one)."""
    events = list(events)
    standing: list[int] = []
    gone: set[int] = set()
    for index, event in enumerate(events):
        if type(event) is not TakenBack:
            standing.append(index)
            continue
        gone.add(index)
        while standing:
            back = standing.pop()
            gone.add(back)
            undone = events[back]
            if isinstance(undone, (CardDiscarded, CardPlayed)) and undone.seat == event.seat:
                break
    return gone


# Each event type's step; the Any is the event, of the type its key names.
_APPLY: dict[type[Event], Callable[[State, Any], State]] = {
    GameStarted: _game_started,
    CardCutForDeal: _card_cut_for_deal,
    CutTied: _cut_tied,
    DealerChosen: _dealer_chosen,
    DeckShuffled: _deck_shuffled,
    CardsDealt: _cards_dealt,
    CardDiscarded: _card_discarded,
    StarterCut: _starter_cut,
    HisHeels: _his_heels,
    CardPlayed: _card_played,
    GoSaid: _go_said,
    GoScored: _go_scored,
    CountReset: _count_reset,
    HandCounted: _hand_counted,
    MugginsCalled: _muggins_called,
    MugginsDeclined: _muggins_declined,
    ClaimRefused: _claim_refused,
    HandEnded: _hand_ended,
    GameWon: _game_won,
    TakenBack: _taken_back,
}


def apply(state: State, event: Event) -> State:
    """The state after `event`. Pure: `state` is not changed."""
    new = _APPLY[type(event)](state, event)
    if new.phase == _PLAY and new.count_over and not any(new.held):
        # The last card has been played and its go (if any) scored: the
        # play is over. Any further event belongs to the show.
        new = begin_show(new)
    return new


def fold(events: Iterable[Event], state: State | None = None) -> State:
    """The state after all `events`, from the empty state (or `state`)."""
    s = state if state is not None else State()
    for e in events:
        s = _APPLY[type(e)](s, e)
        if s.phase == _PLAY and s.count_over and not any(s.held):
            s = begin_show(s)
    return s
