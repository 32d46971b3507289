"""Helpers for the rule-by-rule tests (test_rules_*.py) and the players':
stacked decks and positions built by dispatching commands through
`crib3.engine.rules.step`, and views made for the players to decide from.

Every position is built deterministically: the dealer is fixed by the cut for
deal (the dealer cuts an ace, the others kings), then a stacked deck is
dispatched as the `Shuffle`, so no random generator is involved.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Iterable, Sequence
from types import SimpleNamespace
from typing import TypeVar

from crib3.cards import DECK, Card, parse_card, parse_cards
from crib3.engine import SeatView, project
from crib3.engine.commands import (
    Command,
    CutStarter,
    Discard,
    DrawCutCard,
    Play,
    Shuffle,
)
from crib3.engine.events import Event, PlayerInfo, Rules
from crib3.engine.rules import begin, next_automatic, root_event, step, to_act
from crib3.engine.state import Phase, State, apply

DEFAULT_DEPTH = 10  # where the starter is put in the undealt deck (the cut depth)

CardsLike = str | Sequence[Card]

T = TypeVar("T")


def cards(text: CardsLike) -> list[Card]:
    """Cards from "5H 5C" (or a sequence of cards, returned as a list)."""
    return parse_cards(text) if isinstance(text, str) else list(text)


def card(text: str | Card) -> Card:
    return parse_card(text) if isinstance(text, str) else text


def humans(n: int = 3) -> tuple[PlayerInfo, ...]:
    return tuple(PlayerInfo(f"H{i}") for i in range(n))


def bots(level: str = "standard") -> tuple[PlayerInfo, ...]:
    return tuple(PlayerInfo(f"B{i}", level) for i in range(3))


# --- stacked decks -----------------------------------------------------------------


def stacked_deck(dealer: int, hands: dict[int, CardsLike], crib_card: str | Card | None = None,
                 starter: str | Card | None = None, depth: int = DEFAULT_DEPTH) -> tuple[Card, ...]:
    """A 52-card deck that deals `hands[seat]` (five cards each, any order)
    with the dealer `dealer`, puts `crib_card` in the crib, and turns up
    `starter` when the remaining deck is cut `depth` cards down.

    The deal (R2.2): deck[0] to the seat left of the dealer, deck[1] to the
    next seat, deck[2] to the dealer, ... 15 cards; deck[15] to the crib.
    The remaining deck is deck[16:], and the starter is its depth-th card
    (0-based). Unnamed places are filled with the unused cards in deck order.
    """
    dealt = {s: cards(h) for s, h in hands.items()}
    assert sorted(dealt) == [0, 1, 2], "give five cards for each seat"
    for s, h in dealt.items():
        assert len(h) == 5, f"seat {s} needs five cards, not {len(h)}"
    used: list[Card] = [c for s in range(3) for c in dealt[s]]
    named_crib = card(crib_card) if crib_card is not None else None
    named_starter = card(starter) if starter is not None else None
    for extra in (named_crib, named_starter):
        if extra is not None:
            used.append(extra)
    assert len(set(used)) == len(used), f"a card is named twice: {used}"
    spare = [c for c in DECK if c not in set(used)]
    if named_crib is None:
        named_crib = spare.pop(0)
    top: list[Card] = []
    for i in range(15):
        seat = (dealer + 1 + i) % 3
        top.append(dealt[seat][i // 3])
    top.append(named_crib)
    rest = list(spare)
    if named_starter is not None:
        rest.insert(depth, named_starter)
    deck = tuple(top + rest)
    assert len(deck) == 52 and len(set(deck)) == 52
    return deck


# --- driving the engine -------------------------------------------------------------


def run(state: State, commands: Iterable[Command]) -> tuple[list[Event], State]:
    """Dispatch `commands` one after another through `step`; all the events."""
    events: list[Event] = []
    for command in commands:
        new, state = step(state, command)
        events.extend(new)
    return events, state


def started(players: Sequence[PlayerInfo] | None = None, rules: Rules | None = None) -> State:
    """The state just after GameStarted: the cut for first deal is due."""
    return apply(State(), begin(tuple(players or humans()), rules or Rules()))


def with_dealer(dealer: int, players: Sequence[PlayerInfo] | None = None,
                rules: Rules | None = None) -> tuple[list[Event], State]:
    """A new game (its events start with GameStarted) in which `dealer` wins
    the cut for deal (it cuts an ace, the others kings)."""
    first = begin(tuple(players or humans()), rules or Rules())
    state = apply(State(), first)
    kings = iter(parse_cards("KS KH KD"))
    cuts = [DrawCutCard(s, parse_card("AC") if s == dealer else next(kings)) for s in range(3)]
    events, state = run(state, cuts)
    assert state.phase == Phase.SHUFFLE and state.dealer == dealer
    return [first, *events], state


def dealt(dealer: int, hands: dict[int, CardsLike], crib_card: str | Card | None = None,
          starter: str | Card | None = None, depth: int = DEFAULT_DEPTH,
          players: Sequence[PlayerInfo] | None = None, rules: Rules | None = None,
          scores: tuple[int, int, int] | None = None) -> tuple[list[Event], State]:
    """A new game whose first hand is dealt from a stacked deck: the state
    waits for the discards. `scores` are set before the deal when given."""
    events, state = with_dealer(dealer, players, rules)
    if scores is not None:
        state = state._replace(scores=tuple(scores))
    deck = stacked_deck(dealer, hands, crib_card, starter, depth)
    more, state = step(state, Shuffle(deck))
    assert state.phase == Phase.DISCARD
    return events + more, state


def discard_all(state: State, discards: dict[int, str | Card]) -> tuple[list[Event], State]:
    """Each seat in `discards` (in that dict's order) puts that card in the crib."""
    return run(state, [Discard(s, card(c)) for s, c in discards.items()])


def cut(state: State, depth: int = DEFAULT_DEPTH) -> tuple[list[Event], State]:
    """The seat left of the dealer cuts the starter at `depth`."""
    assert state.dealer is not None
    return step(state, CutStarter((state.dealer + 1) % 3, depth))


FILLER = "2S 2H 2D 2C 3S 3H 3D 3C 4S 4H 4D 4C 6S 6H 6D 6C 7S 7H 7D 7C 8S 8H 8D 8C 9S 9H 9D 9C"


def hand_set_up(dealer: int, kept: dict[int, CardsLike], starter: str | Card,
                discards: dict[int, str | Card] | None = None,
                crib_card: str | Card | None = None,
                players: Sequence[PlayerInfo] | None = None, rules: Rules | None = None,
                scores: tuple[int, int, int] | None = None,
                depth: int = DEFAULT_DEPTH) -> tuple[list[Event], State]:
    """A game in its first hand with the discards made and the starter cut:
    each seat holds `kept[seat]` (four cards) for the play and the show.
    `discards` (one card a seat) and `crib_card` default to unused cards,
    taken from FILLER first (low cards that are not jacks)."""
    kept_cards = {s: cards(kept[s]) for s in range(3)}
    used = {c for h in kept_cards.values() for c in h} | {card(starter)}
    discard_cards = {s: card(c) for s, c in (discards or {}).items()}
    used |= set(discard_cards.values())
    if crib_card is not None:
        used.add(card(crib_card))
    free = [c for c in cards(FILLER) + list(DECK) if c not in used]
    free = list(dict.fromkeys(free))
    for s in range(3):
        if s not in discard_cards:
            discard_cards[s] = free.pop(0)
    if crib_card is None:
        crib_card = free.pop(0)
    hands = {s: kept_cards[s] + [discard_cards[s]] for s in range(3)}
    events, state = dealt(dealer, hands, crib_card, starter, depth, players, rules, scores)
    more, state = discard_all(state, {s: discard_cards[s] for s in range(3)})
    events += more
    more, state = cut(state, depth)
    assert state.starter == card(starter)
    return events + more, state


def plays(state: State, moves: str) -> tuple[list[Event], State]:
    """Play "0:KS 1:QH 2:8C ..." (seat:card), each through `step`."""
    commands = []
    for token in moves.split():
        seat, text = token.split(":")
        commands.append(Play(int(seat), parse_card(text)))
    return run(state, commands)


def first_legal(state: State) -> Command:
    """A simple fixed policy: the first seat to act plays its first legal move."""
    from crib3.engine.rules import legal_moves

    seat = to_act(state)[0]
    return legal_moves(state, seat)[0]


def play_out(state: State, policy: Callable[[State], Command] = first_legal,
             until: Callable[[State], bool] | None = None) -> tuple[list[Event], State]:
    """Dispatch `policy`'s commands while some seat must act (and, with
    `until`, until it holds)."""
    events: list[Event] = []
    while to_act(state) and not (until and until(state)):
        new, state = step(state, policy(state))
        events.extend(new)
    return events, state


def step_until(state: State, command: Command,
               stop: Callable[[State], bool]) -> tuple[list[Event], State]:
    """Like `step`, but stop the automatic events as soon as `stop(state)`
    holds, so a test can change the state (say, the scores) at that point."""
    event = root_event(state, command)
    events = [event]
    state = apply(state, event)
    while not stop(state):
        event = next_automatic(state)
        if event is None:
            break
        events.append(event)
        state = apply(state, event)
    return events, state


def resume(state: State) -> tuple[list[Event], State]:
    """The automatic events that follow `state` (as `step` would emit them)."""
    events: list[Event] = []
    while True:
        event = next_automatic(state)
        if event is None:
            return events, state
        events.append(event)
        state = apply(state, event)


def of_type(events: Iterable[Event], *types: type) -> list[Event]:
    return [e for e in events if isinstance(e, types)]


def names(events: Iterable[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


# --- positions for the players -------------------------------------------------------


def discard_view(hand: str, seat: int, dealer: int, scores=(0, 0, 0),
                 rules: Rules | None = None) -> SimpleNamespace:
    """A discard view for `seat` holding `hand` (five cards), dealer
    `dealer`: the little of a view that ranking the discards reads."""
    return SimpleNamespace(seat=seat, dealer=dealer, hand=tuple(parse_cards(hand)),
                           scores=scores, rules=rules if rules is not None else Rules())


def shuffle_hidden(state: State, seat: int, rng: random.Random) -> State:
    """The same position for `seat`, with every card it cannot see dealt
    differently among the other hands, the crib and the deck."""
    hidden_places = [(s, len(state.hands[s])) for s in range(3) if s != seat]
    pool = [c for s, _ in hidden_places for c in state.hands[s]]
    pool += [c for c in state.crib if c != state.discards[seat]]
    pool += list(state.deck)
    rng.shuffle(pool)
    hands = list(state.hands)
    kept = list(state.kept)
    for s, n in hidden_places:
        hands[s], pool = tuple(pool[:n]), pool[n:]
        kept[s] = tuple(state.played[s]) + hands[s] if state.phase == Phase.PLAY else hands[s]
    mine = (state.discards[seat],) if state.discards[seat] is not None else ()
    n_crib = len(state.crib) - len(mine)
    crib, pool = mine + tuple(pool[:n_crib]), pool[n_crib:]
    return state._replace(hands=tuple(hands), kept=tuple(kept), crib=crib, deck=tuple(pool))


def lead_after_a_ten_and_a_four() -> SeatView:
    """Seat 0 leads the second count, holding the 5H and the QD. In the
    first, seat 2 answered the pair of threes (count 6) with a ten, where a
    nine would have made fifteen and a third three a pair royal, and at 26
    played a four, where a five would have made 31; seat 1 said go at 26
    (so holds nothing under 6)."""
    _, state = hand_set_up(2, {0: "QD 5H 3S JS", 1: "9S 6S 7S 3D", 2: "QC 4D 10S 10H"}, "2S")
    _, state = plays(state, "0:3S 1:3D 2:10S 0:JS 2:4D")
    view = project(state, 0)
    assert view.my_turn and view.count == 0 and view.held == (2, 3, 2)
    return view


async def finished(awaitable: Awaitable[T], seconds: float, what: str) -> T:
    """What `awaitable` gives, within `seconds`, or the test fails naming
    `what` it waited for (a bare `await` on a task that never ends hangs
    the run; a `TimeoutError` alone says nothing of what)."""
    try:
        return await asyncio.wait_for(awaitable, seconds)
    except TimeoutError:
        raise AssertionError(f"{what} did not end within {seconds:.0f} s")  # noqa: B904 (the chain shows what failed first)
