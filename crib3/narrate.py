"""The game told in words, one sentence per event: the event feed on screen,
and the text transcript of a saved game.

Works on redacted events too (a hidden discard is "throws a card to the
crib"), so the same words serve every seat and every spectator.
"""

from __future__ import annotations

from collections.abc import Sequence

from crib3.cards import Card, format_cards
from crib3.engine import events as ev
from crib3.engine.state import State
from crib3.names import shown_name
from crib3.scoring import Score
from crib3.speech import say_hand_line, say_play


def _names(state: State) -> list[str]:
    """The players' names as they may be printed: a log from elsewhere may
    name a player "\x1b[2J", which is written out, not obeyed."""
    return [shown_name(p.name) for p in state.players] or ["seat 0", "seat 1", "seat 2"]


def _list(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def describe(event: ev.Event, state: State, ascii: bool = False) -> str | None:
    """One sentence for `event`; `state` is the state just after it."""
    names = _names(state)

    def card(c: Card | None) -> str:
        return c.label(ascii) if c is not None else "a card"

    def total(seat: int) -> str:
        return f"({state.scores[seat]})"

    if isinstance(event, ev.GameStarted):
        rules = event.rules
        extras = [x for x, on in (("skunks", rules.skunks), ("muggins", rules.muggins)) if on]
        tail = f", with {_list(extras)}" if extras else ""
        return f"A new game to {rules.target}: {_list(names)}{tail}."
    if isinstance(event, ev.CardCutForDeal):
        return f"{names[event.seat]} cuts {card(event.card)}."
    if isinstance(event, ev.CutTied):
        return f"A tie for low: {_list([names[s] for s in event.seats])} cut again."
    if isinstance(event, ev.DealerChosen):
        return f"{names[event.seat]} cuts lowest and deals first."
    if isinstance(event, ev.DeckShuffled):
        return f"Hand {event.hand}. {names[event.dealer]} shuffles and deals."
    if isinstance(event, ev.CardsDealt):
        return f"Five cards each, and one to {names[event.dealer]}'s crib."
    if isinstance(event, ev.CardDiscarded):
        if event.card is None:
            return f"{names[event.seat]} throws a card to the crib."
        return f"{names[event.seat]} throws {card(event.card)} to the crib."
    if isinstance(event, ev.StarterCut):
        return f"{names[event.seat]} cuts; the starter is {card(event.starter)}."
    if isinstance(event, ev.HisHeels):
        return f"His heels: 2 for {names[event.seat]} {total(event.seat)}."
    if isinstance(event, ev.CardPlayed):
        said = say_play(Score(event.points, event.items))
        tail = f": {said} {total(event.seat)}" if said else ""
        return f"{names[event.seat]} plays {card(event.card)}, {event.count}{tail}."
    if isinstance(event, ev.GoSaid):
        return f"{names[event.seat]}: go."
    if isinstance(event, ev.GoScored):
        what = "last card" if event.last_card else "the go"
        return f"1 for {what} to {names[event.seat]} {total(event.seat)}."
    if isinstance(event, ev.CountReset):
        return f"The count starts again; {names[event.leader]} leads."
    if isinstance(event, ev.HandCounted):
        whose = f"{names[event.seat]}'s {'crib' if event.crib else 'hand'}"
        said = say_hand_line(Score(event.points + event.missed, event.items))
        claim = f"; claims {event.points}" if event.missed else ""
        return (f"{whose} {format_cards(event.cards, ascii)} with {card(event.starter)}: "
                f"{said}{claim} {total(event.seat)}.")
    if isinstance(event, ev.MugginsCalled):
        return (f"Muggins! {names[event.seat]} takes the {event.points} "
                f"{names[event.victim]} missed {total(event.seat)}.")
    if isinstance(event, ev.MugginsDeclined):
        return f"{names[event.seat]} lets {names[event.victim]}'s missed points go."
    if isinstance(event, ev.HandEnded):
        scores = ", ".join(f"{names[s]} {event.scores[s]}" for s in range(3))
        return f"End of hand {event.hand}: {scores}. The deal passes to {names[event.next_dealer]}."
    if isinstance(event, ev.GameWon):
        others = [s for s in range(3) if s != event.seat]
        line = (f"{names[event.seat]} wins with {event.scores[event.seat]}, to "
                f"{event.scores[others[0]]} and {event.scores[others[1]]}.")
        skunked = [f"{names[s]} is {'double-' if event.skunks[s] > 1 else ''}skunked"
                   for s in range(3) if event.skunks[s]]
        return line + (" " + "; ".join(skunked) + "." if skunked else "")
    return None
