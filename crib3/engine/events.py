"""The events: every change of a game's state, as an immutable past-tense fact.

A game is the list of its events; `crib3.engine.state.apply` folds them into
the state. Each class name is the event's stable `type` in the log, and its
fields are the log's fields (see assets/log-format.md). Never rename either
without raising the log version.

Events caused by a choice (a seat's, or chance's: the shuffle and the cuts)
are *root* events; the rest follow from the state alone and the engine emits
them by itself (`crib3.engine.rules.next_automatic`).
"""

from __future__ import annotations

from dataclasses import dataclass

from crib3.cards import Card
from crib3.common.levels import HUMAN
from crib3.scoring import ScoreItem

Scores = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """Who sits in a seat: a name, and "human" or a bot level."""

    name: str
    kind: str = HUMAN

    @property
    def is_human(self) -> bool:
        return self.kind == HUMAN


# The muggins rules for a claim above what the cards hold (rules.md R8.2),
# by the name a player chooses them by, and what each does in a sentence:
# the friendly table lets a player count again; the strict one treats an
# over-claim as tournament play treats overpegging, the excess going over.
FRIENDLY, STRICT = "friendly", "strict"
MUGGINS_RULES: dict[str, str] = {
    FRIENDLY: "a claim above what the cards hold is refused and costs nothing: count again",
    STRICT: "a claim above what the cards hold is refused and the excess goes to "
                "the player on your left: count again",
}


@dataclass(frozen=True, slots=True)
class Rules:
    """The optional rules of rules.md R8, fixed for the whole game.

    `muggins_rule` (one of `MUGGINS_RULES`) says what an over-claim costs;
    `pegging_claims`, with muggins, has people claim their own points in
    the play too. Both only matter with `muggins` on; their defaults are
    the game before they existed, so older logs read as they always did."""

    target: int = 121
    skunks: bool = False
    muggins: bool = False
    muggins_rule: str = FRIENDLY
    pegging_claims: bool = False

    @property
    def short_game(self) -> bool:
        return self.target == 61

    def skunk_lines(self) -> tuple[int, ...]:
        """Scores below which a loser is skunked, then double-skunked (R8.1, R8.3)."""
        return (31,) if self.short_game else (91, 61)


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events. `type` is the name written in the log."""

    @property
    def type(self) -> str:
        return type(self).__name__


@dataclass(frozen=True, slots=True)
class ScoringEvent(Event):
    """An event in which `seat` scores `points`; `scores` are all three
    totals after it."""

    seat: int
    points: int
    scores: Scores


# --- the start and the cut for first deal (R1) --------------------------------


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    players: tuple[PlayerInfo, ...]
    rules: Rules
    seed: int | None = None


@dataclass(frozen=True, slots=True)
class CardCutForDeal(Event):
    """Chance: `seat` cut `card` in the cut for first deal."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class CutTied(Event):
    """The lowest cut was shared: these seats cut again (R1.2)."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    seat: int


# --- the deal, the discards and the starter (R2-R4) ---------------------------


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """Chance: the whole deck order for hand `hand`. Hidden from every seat."""

    hand: int
    dealer: int
    deck: tuple[Card, ...] | None


@dataclass(frozen=True, slots=True)
class CardsDealt(Event):
    """Five cards to each seat and one to the crib, from the shuffled deck.
    In a seat's redacted copy the other hands are empty and `crib_card` None."""

    hand: int
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    crib_card: Card | None


@dataclass(frozen=True, slots=True)
class CardDiscarded(Event):
    """`seat` put a card in the crib; `card` is None in others' copies."""

    seat: int
    card: Card | None


@dataclass(frozen=True, slots=True)
class StarterCut(Event):
    """`seat` cut the remaining deck `depth` cards down; `starter` turned up."""

    seat: int
    depth: int
    starter: Card


@dataclass(frozen=True, slots=True)
class HisHeels(ScoringEvent):
    """The starter is a jack: 2 for the dealer (R4.2)."""


# --- the play (R5) -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CardPlayed(ScoringEvent):
    """`seat` played `card`, making the count `count`; `points` (often 0)
    for the `items` of rules.md R5.6. With pegging claims, `points` is what
    a person claimed and `missed` what the card held beyond it (which the
    seat on their left may call muggins on); otherwise `missed` is 0."""

    card: Card
    count: int
    items: tuple[ScoreItem, ...]
    missed: int = 0


@dataclass(frozen=True, slots=True)
class GoSaid(Event):
    """`seat` holds cards but none keeps the count at or under 31."""

    seat: int
    count: int


@dataclass(frozen=True, slots=True)
class GoScored(ScoringEvent):
    """1 for the go, or for the last card of the play when `last_card`."""

    last_card: bool


@dataclass(frozen=True, slots=True)
class CountReset(Event):
    """The count goes back to 0; `leader` leads the next count (R5.5)."""

    leader: int


# --- the show (R6, R8.2) -------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandCounted(ScoringEvent):
    """`seat` counted its hand (or, when `crib`, its crib) with the starter.
    `items` are the full breakdown; `points` what was scored, which with
    muggins may be a human's lower claim, the rest being `missed`."""

    crib: bool
    cards: tuple[Card, ...]
    starter: Card
    items: tuple[ScoreItem, ...]
    missed: int


@dataclass(frozen=True, slots=True)
class MugginsCalled(ScoringEvent):
    """`seat` called muggins on `victim` and took the points it missed."""

    victim: int


@dataclass(frozen=True, slots=True)
class MugginsDeclined(Event):
    seat: int
    victim: int


@dataclass(frozen=True, slots=True)
class ClaimRefused(Event):
    """`seat` claimed `claimed` points for its hand, its crib (`crib`) or,
    with pegging claims, for playing `card`, and the cards hold only
    `holds`: the claim is refused and the seat claims again. Kept in the
    log so that every claim is on record. Under the strict rule the
    excess, `points`, goes to `taker` (the seat on the claimant's left),
    `scores` being all three totals after it; under the friendly rule
    `points` is 0 and the scores stay."""

    seat: int
    claimed: int
    holds: int
    crib: bool
    card: Card | None
    taker: int
    points: int
    scores: Scores


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """The show is over; the deal passes to `next_dealer`. `scores` are the
    totals at the end of hand `hand`."""

    hand: int
    next_dealer: int
    scores: Scores


# --- a take-back (local games against the computer only) -----------------------


@dataclass(frozen=True, slots=True)
class TakenBack(Event):
    """`seat` took back its last throw (`throw`) or play of `card`, and with
    it every event that followed it: the state is again the state just
    before that decision, and the seat chooses again. The undone events stay
    in the log before this one (the log is only ever appended to); readers
    that want the game as it stood cut them out (`state.taken_back`).

    Only a person's decision in the current hand can be taken back: a throw
    until the starter is cut (once it is turned, a new throw would be made
    knowing it), a play until the play ends (the show reveals every hand).
    Never a cut, a count or a muggins call, never another seat's move, and
    only in games at your own keyboard (`Game.takebacks`; a log's header
    says where it was played). In others' copies of a throw `card` is None."""

    seat: int
    card: Card | None
    throw: bool


# --- the end (R7, R8.1) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GameWon(Event):
    """`seat` reached the target. `skunks[s]` is 0, 1 (skunked) or 2
    (double-skunked) for each seat; all 0 unless the skunk rule is on."""

    seat: int
    scores: Scores
    skunks: tuple[int, int, int]


EVENT_TYPES: dict[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        GameStarted, CardCutForDeal, CutTied, DealerChosen, DeckShuffled, CardsDealt,
        CardDiscarded, StarterCut, HisHeels, CardPlayed, GoSaid, GoScored, CountReset,
        HandCounted, MugginsCalled, MugginsDeclined, ClaimRefused, HandEnded, GameWon,
        TakenBack,
    )
}
