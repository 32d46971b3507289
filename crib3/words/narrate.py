"""The game told in words, one sentence per event: the event feed on screen,
and the text transcript of a saved game.

Works on redacted events too (a hidden discard is "throws a card to the
crib"), so the same words serve every seat and every spectator.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar

from crib3.cards import Card, format_cards
from crib3.common.names import shown_name
from crib3.engine import events as ev
from crib3.engine.state import State
from crib3.engine.views import SeatView
from crib3.scoring import Score
from crib3.words.speech import say_hand_line, say_play

# What the words call the hand (None: "Hand 2", its number in the game): a
# duplicate board's table names its board instead (`hand_named`).
_HAND_NAME: ContextVar[str | None] = ContextVar("crib3_hand_name", default=None)


@contextmanager
def hand_named(name: str | None) -> Iterator[None]:
    """Within it, `describe` calls the hand `name`: "Board 2. Ann shuffles
    and deals.", "End of board 2: ...". A duplicate board is one hand, the
    first of its game, and "Hand 1" at every board would tell nobody which
    board they hold; nor does the deal pass on after it."""
    token = _HAND_NAME.set(name)
    try:
        yield
    finally:
        _HAND_NAME.reset(token)


def reached(score: int, target: int) -> str:
    """A score as players say it: the board stops at the target, so a game
    won with points to spare is "121 (125 counted)" (the log keeps 125)."""
    return f"{target} ({score} counted)" if 0 < target < score else str(score)


class Voice:
    """How the narration names each seat: by name, in the third person,
    except a player called "You" (the new-game screen's default name), who
    is spoken to in the second person: "You cut lowest and deal first",
    "one to your crib", "Muggins! Ann takes the 2 you missed"."""

    def __init__(self, state: State | SeatView) -> None:
        # A log from elsewhere may name a player "\x1b[2J": written out, not obeyed.
        names = [shown_name(p.name) for p in state.players] or ["seat 0", "seat 1", "seat 2"]
        self.names = names
        self.you = {s for s in range(len(names)) if names[s].strip().lower() == "you"}

    def subject(self, seat: int) -> str:
        """Who does it, at the start of a sentence: "You" or "Ann"."""
        return "You" if seat in self.you else self.names[seat]

    def object(self, seat: int) -> str:
        """Who it is done to, inside a sentence: "you" or "Ann"."""
        return "you" if seat in self.you else self.names[seat]

    def whose(self, seat: int, start: bool = False) -> str:
        """ "your" (or "Your" to start a sentence) or "Ann's"."""
        if seat in self.you:
            return "Your" if start else "your"
        return f"{self.names[seat]}'s"

    def verb(self, seat: int, third: str, second: str) -> str:
        """The verb that agrees with the seat: "cuts" or "cut"."""
        return second if seat in self.you else third

    def says(self, seat: int, third: str, second: str) -> str:
        """Subject and verb: "Ann cuts", "You cut"."""
        return f"{self.subject(seat)} {self.verb(seat, third, second)}"


def _list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _listed(voice: Voice, seats: Sequence[int]) -> str:
    """Seats in a list: the first as a subject, the rest inside the sentence."""
    words = [voice.subject(seats[0]) if i == 0 else voice.object(s) for i, s in enumerate(seats)]
    return _list(words)


def dealt(state: State, seat: int, hand: Sequence[Card], ascii: bool = False) -> str:
    """One seat's dealt hand, face up (for transcripts): "Ann is dealt ..."."""
    cards = " ".join(c.label(ascii) for c in hand)
    return f"{Voice(state).says(seat, 'is', 'are')} dealt {cards}."


def describe(event: ev.Event, state: State, ascii: bool = False) -> str | None:
    """One sentence for `event`; `state` is the state just after it."""
    voice = Voice(state)
    says, obj, whose = voice.says, voice.object, voice.whose

    def card(c: Card | None) -> str:
        return c.label(ascii) if c is not None else "a card"

    def total(seat: int) -> str:
        """The scorer's new total, in words ("; Ann has 14"): a bare "(14)"
        after a count read as part of the count."""
        return (f"; {voice.object(seat)} {voice.verb(seat, 'has', 'have')} "
                f"{reached(state.scores[seat], state.rules.target)}")

    if isinstance(event, ev.GameStarted):
        rules = event.rules
        muggins = "strict muggins" if rules.muggins_rule == ev.STRICT else "muggins"
        extras = [x for x, on in (("skunks", rules.skunks), (muggins, rules.muggins),
                                  ("pegging claims", rules.pegging_claims)) if on]
        tail = f", with {_list(extras)}" if extras else ""
        return f"A new game to {rules.target}: {_listed(voice, range(len(voice.names)))}{tail}."
    if isinstance(event, ev.CardCutForDeal):
        return f"{says(event.seat, 'cuts', 'cut')} {card(event.card)}."
    if isinstance(event, ev.CutTied):
        return f"A tie for low: {_listed(voice, event.seats)} cut again."
    if isinstance(event, ev.DealerChosen):
        seat = event.seat
        return f"{says(seat, 'cuts', 'cut')} lowest and {voice.verb(seat, 'deals', 'deal')} first."
    if isinstance(event, ev.DeckShuffled):
        dealer = event.dealer
        return (f"{_HAND_NAME.get() or f'Hand {event.hand}'}. "
                f"{says(dealer, 'shuffles', 'shuffle')} and "
                f"{voice.verb(dealer, 'deals', 'deal')}.")
    if isinstance(event, ev.CardsDealt):
        return f"Five cards each, and one to {whose(event.dealer)} crib."
    if isinstance(event, ev.CardDiscarded):
        if event.card is None:
            return f"{says(event.seat, 'throws', 'throw')} a card to the crib."
        return f"{says(event.seat, 'throws', 'throw')} {card(event.card)} to the crib."
    if isinstance(event, ev.StarterCut):
        return f"{says(event.seat, 'cuts', 'cut')}; the starter is {card(event.starter)}."
    if isinstance(event, ev.HisHeels):
        return f"His heels: 2 for {obj(event.seat)}{total(event.seat)}."
    if isinstance(event, ev.CardPlayed):
        said = say_play(Score(event.points + event.missed, event.items))
        if event.missed:  # (pegging claims: a claim short of what the card made)
            said += f"; {voice.verb(event.seat, 'claims', 'claim')} {event.points}"
        tail = f": {said}{total(event.seat)}" if said else ""
        return f"{says(event.seat, 'plays', 'play')} {card(event.card)}, {event.count}{tail}."
    if isinstance(event, ev.GoSaid):
        return f"{voice.subject(event.seat)}: go."
    if isinstance(event, ev.GoScored):
        what = "last card" if event.last_card else "the go"
        return f"1 for {what} to {obj(event.seat)}{total(event.seat)}."
    if isinstance(event, ev.CountReset):
        leads = voice.verb(event.leader, 'leads', 'lead')
        return f"The count starts again; {obj(event.leader)} {leads}."
    if isinstance(event, ev.HandCounted):
        owner = f"{whose(event.seat, start=True)} {'crib' if event.crib else 'hand'}"
        said = say_hand_line(Score(event.points + event.missed, event.items)) \
            if event.items else "nineteen, nothing"
        claim = f"; {voice.verb(event.seat, 'claims', 'claim')} {event.points}" \
            if event.missed else ""
        return (f"{owner} {format_cards(event.cards, ascii)} with {card(event.starter)}: "
                f"{said}{claim}{total(event.seat)}.")
    if isinstance(event, ev.MugginsCalled):
        return (f"Muggins! {says(event.seat, 'takes', 'take')} the {event.points} "
                f"{obj(event.victim)} missed{total(event.seat)}.")
    if isinstance(event, ev.ClaimRefused):
        return claim_refused(event, state, ascii)
    if isinstance(event, ev.MugginsDeclined):
        return f"{says(event.seat, 'lets', 'let')} {whose(event.victim)} missed points go."
    if isinstance(event, ev.HandEnded):
        scores = ", ".join(f"{voice.subject(s) if s == 0 else obj(s)} {event.scores[s]}"
                           for s in range(3))
        named = _HAND_NAME.get()
        if named is not None:  # (a board: its game ends with it)
            return f"End of {named[:1].lower()}{named[1:]}: {scores}."
        return (f"End of hand {event.hand}: {scores}. "
                f"The deal passes to {obj(event.next_dealer)}.")
    if isinstance(event, ev.TakenBack):
        what = "throw" if event.throw else "play"
        of = f" of {card(event.card)}" if event.card is not None else ""
        mine = "your" if event.seat in voice.you else "the"
        return (f"{says(event.seat, 'takes', 'take')} back {mine} {what}{of}, "
                "and what followed it.")
    if isinstance(event, ev.GameWon):
        others = [s for s in range(3) if s != event.seat]
        won = reached(event.scores[event.seat], state.rules.target)
        line = (f"{says(event.seat, 'wins', 'win')} with {won}, to "
                f"{event.scores[others[0]]} and {event.scores[others[1]]}.")
        skunked = [f"{says(s, 'is', 'are')} {'double-' if event.skunks[s] > 1 else ''}skunked"
                   for s in range(3) if event.skunks[s]]
        return line + (" " + "; ".join(skunked) + "." if skunked else "")
    return None


def claim_refused(event: ev.ClaimRefused, state: State | SeatView, ascii: bool = False) -> str:
    """A claim above what the cards hold, in a sentence short enough for the
    table's line: "Ann claims 14; the hand holds 12: refused." and, under
    the strict rule, who takes the excess."""
    voice = Voice(state)
    if event.card is not None:
        holds = f"{event.card.label(ascii)} makes"
    else:
        holds = f"the {'crib' if event.crib else 'hand'} holds"
    line = (f"{voice.says(event.seat, 'claims', 'claim')} {event.claimed}; "
            f"{holds} {event.holds}: refused.")
    if event.points:
        taker = event.taker
        line += (f" {voice.says(taker, 'takes', 'take')} the {event.points} over; "
                 f"{voice.object(taker)} {voice.verb(taker, 'has', 'have')} "
                 f"{reached(state.scores[taker], state.rules.target)}.")
    return line
