"""The rules: what may happen next, and what a command makes happen.

- `next_automatic(state)` is the one event that must follow from the state by
  itself (a go, a count reset, a hand counted, the deal...), or None when a
  seat or chance has to choose. It is pure, so a log is verified by asking it
  again at every step.
- `decide(state, command)` checks a command and returns the events it causes:
  its root event, then the automatic ones until somebody must choose again.
  An illegal command raises `IllegalMove` with a sentence a player can read.

Every rule here is numbered after ../shared/rules.md (R1..R8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crib3.cards import DECK, Card
from crib3.common.levels import PLAYER_KINDS
from crib3.engine.commands import (
    Command,
    Count,
    CutStarter,
    Discard,
    DrawCutCard,
    Muggins,
    Play,
    SeatCommand,
    Shuffle,
    TakeBack,
)
from crib3.engine.events import (
    MUGGINS_RULES,
    STRICT,
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
from crib3.engine.state import Phase, State, apply, turn_order
from crib3.scoring import score_hand, score_play

MIN_CUT = 4  # cards that must stay in each packet when the starter is cut
MOST_CLAIMED = 29  # no hand, crib or card holds more: a claim above it is a slip, not a claim

# The phases as globals: Python 3.11 looks an attribute up on an Enum class
# about three times slower than a global, and `crib3 sim` compares phases
# millions of times.
START, CUT_FOR_DEAL, SHUFFLE, DEAL, DISCARD, CUT_STARTER, HEELS, PLAY, SHOW, OVER = Phase


class IllegalMove(Exception):
    """A command the rules do not allow now; the message says why."""


def left_of(seat: int) -> int:
    return (seat + 1) % 3


def _add(scores: Scores, seat: int, points: int) -> Scores:
    out = list(scores)
    out[seat] += points
    return (out[0], out[1], out[2])


# --- who acts now --------------------------------------------------------------


def cutter(state: State) -> int:
    """The seat that cuts for the starter: left of the dealer (R4.1)."""
    return left_of(state.dealer if state.dealer is not None else 0)


def _can_play(hand: tuple[Card, ...], count: int) -> bool:
    room = 31 - count
    for c in hand:
        if c.value <= room:
            return True
    return False


def play_turn(state: State) -> int | None:
    """Whose turn it is in the play, or None if the engine must first emit a
    go, a go point or a reset (R5.2, R5.3)."""
    if state.count_over:
        return None
    if not state.pile:
        return state.leader
    p = state.last_player
    assert p is not None
    for s in turn_order(p):
        hand = state.hands[s]
        if not hand:
            continue
        if _can_play(hand, state.count):
            return s
        if s != p and not state.gone[s]:
            return None
    return None


def counting_seat(state: State) -> tuple[int, bool]:
    """Whose count is next in the show, and whether it is the crib (R6.1)."""
    step = state.show_step
    if step < 3:
        return state.show_order()[step], False
    assert state.dealer is not None
    return state.dealer, True


def to_act(state: State) -> tuple[int, ...]:
    """The seats that must choose before the game can go on (empty when it
    waits for chance, or is over)."""
    phase = state.phase
    if phase == DISCARD:
        return tuple(s for s in range(3) if not state.discarded[s])
    if phase == CUT_STARTER:
        return (cutter(state),)
    if phase == PLAY:
        if state.muggins_pending is not None:  # (pegging claims: a short claim)
            caller = state.muggins_pending[0]
            return (caller,) if state.players[caller].is_human else ()
        turn = play_turn(state)
        return () if turn is None else (turn,)
    if phase == SHOW:
        if state.winner is not None or next_automatic(state) is not None:
            return ()
        if state.muggins_pending is not None:
            return (state.muggins_pending[0],)
        return (counting_seat(state)[0],)
    return ()


def needs_chance(state: State) -> bool:
    """True when the next step is the random source's: a cut or a shuffle."""
    return (state.phase == CUT_FOR_DEAL and bool(state.cutters)) or (
        state.phase == SHUFFLE
    )


# --- the automatic events -------------------------------------------------------


def next_automatic(state: State) -> Event | None:
    """The event that follows from `state` with no choice, or None."""
    phase = state.phase
    if phase in (START, OVER):
        return None
    # R7.1: the first to reach the target wins at once.
    target = state.rules.target
    for seat, score in enumerate(state.scores):
        if score >= target:
            return GameWon(seat=seat, scores=state.scores, skunks=_skunks(state, seat))
    if phase == PLAY:
        return _next_in_play(state)
    if phase == SHOW:
        return _next_in_show(state)
    if phase == DEAL:
        return _deal(state)
    if phase == HEELS:
        assert state.dealer is not None
        return HisHeels(seat=state.dealer, points=2, scores=_add(state.scores, state.dealer, 2))
    if phase == CUT_FOR_DEAL and not state.cutters:
        return _settle_cut(state)
    return None


def _skunks(state: State, winner: int) -> tuple[int, int, int]:
    """R8.1 / R8.3: 1 skunked, 2 double-skunked, 0 otherwise or when off."""
    if not state.rules.skunks:
        return (0, 0, 0)
    lines = state.rules.skunk_lines()
    out = [0, 0, 0]
    for seat, score in enumerate(state.scores):
        if seat != winner:
            out[seat] = sum(1 for line in lines if score < line)
    return (out[0], out[1], out[2])


def _settle_cut(state: State) -> Event:
    """R1.1-2: the lowest cut deals; a tie for lowest cuts again."""
    cut = [(s, c) for s, c in enumerate(state.cuts) if c is not None]
    low = min(c.rank for _, c in cut)
    tied = tuple(s for s, c in cut if c.rank == low)
    if len(tied) > 1:
        return CutTied(seats=tied)
    return DealerChosen(seat=tied[0])


def _deal(state: State) -> CardsDealt:
    """R2.2: one card at a time from the left of the dealer, then the crib card."""
    dealer = state.dealer
    assert dealer is not None
    deck = state.deck
    hands: list[list[Card]] = [[], [], []]
    for i in range(15):
        hands[(dealer + 1 + i) % 3].append(deck[i])
    return CardsDealt(
        hand=state.hand_number,
        dealer=dealer,
        hands=tuple(tuple(sorted(h)) for h in hands),
        crib_card=deck[15],
    )


def _next_in_play(state: State) -> Event | None:
    if state.muggins_pending is not None:  # pegging claims: a short claim first
        return _muggins_by_computer(state.muggins_pending, state)
    if state.count_over:
        # R5.5: the next count is led by the first seat left of the last
        # card's player that still holds cards.
        p = state.last_player
        assert p is not None
        for s in turn_order(p):
            if state.hands[s]:
                return CountReset(leader=s)
        return None  # unreachable: apply() starts the show when no cards are left
    if not state.pile:
        return None
    p = state.last_player
    assert p is not None
    for s in turn_order(p):
        hand = state.hands[s]
        if not hand:
            continue  # R5.2: no cards, skipped silently
        if _can_play(hand, state.count):
            return None  # s must play (R5.2, R5.3)
        if s != p and not state.gone[s]:
            return GoSaid(seat=s, count=state.count)
    # R5.3/R5.4: nobody can play: the go (or last card) to the last player.
    last_card = not any(state.held)
    return GoScored(seat=p, points=1, scores=_add(state.scores, p, 1), last_card=last_card)


def _muggins_by_computer(pending: tuple[int, int, int], state: State) -> Event | None:
    """A computer player always calls muggins; a person is asked (None)."""
    caller, victim, points = pending
    if state.players[caller].is_human:
        return None
    return MugginsCalled(
        seat=caller, points=points, scores=_add(state.scores, caller, points), victim=victim
    )


def _next_in_show(state: State) -> Event | None:
    pending = state.muggins_pending
    if pending is not None:
        return _muggins_by_computer(pending, state)
    if state.show_step >= 4:
        assert state.dealer is not None
        return HandEnded(
            hand=state.hand_number, next_dealer=left_of(state.dealer), scores=state.scores
        )
    seat, crib = counting_seat(state)
    if state.rules.muggins and state.players[seat].is_human:
        return None  # R8.2: a human counts for themself
    return _hand_counted(state, seat, crib, None)


def _hand_counted(state: State, seat: int, crib: bool, claimed: int | None) -> HandCounted:
    cards = tuple(sorted(state.crib if crib else state.kept[seat]))
    assert state.starter is not None
    score = score_hand(cards, state.starter, crib=crib)
    points = score.total if claimed is None else claimed
    return HandCounted(
        seat=seat,
        points=points,
        scores=_add(state.scores, seat, points),
        crib=crib,
        cards=cards,
        starter=state.starter,
        items=score.items,
        missed=score.total - points,
    )


# --- commands --------------------------------------------------------------------


def begin(players: tuple[PlayerInfo, ...], rules: Rules, seed: int | None = None) -> GameStarted:
    """The first event of a game. Three seats; names must be told apart."""
    if len(players) != 3:
        raise IllegalMove(f"crib3 is a game for three players, not {len(players)}")
    for player in players:
        if player.kind not in PLAYER_KINDS:
            raise IllegalMove(f"{player.name!r} is {player.kind!r}: a player is one of "
                              + ", ".join(PLAYER_KINDS))
        if not player.name.strip():
            raise IllegalMove("every player needs a name")
    if len({p.name for p in players}) != 3:
        raise IllegalMove("the three players need three different names")
    if rules.target not in (61, 121):
        raise IllegalMove(f"the target is 121 (or 61 for a short game), not {rules.target}")
    if rules.muggins_rule not in MUGGINS_RULES:
        raise IllegalMove(f"the muggins rule is one of {', '.join(MUGGINS_RULES)}, "
                          f"not {rules.muggins_rule!r}")
    if rules.pegging_claims and not rules.muggins:
        raise IllegalMove("pegging claims are a muggins rule: they need muggins on")
    return GameStarted(players=tuple(players), rules=rules, seed=seed)


def root_event(state: State, command: Command) -> Event:
    """The event a command causes directly, or IllegalMove."""
    handler = _ROOTS.get(type(command))
    if handler is None:
        raise IllegalMove(f"{type(command).__name__} is not a command of this game")
    if isinstance(command, SeatCommand) and not 0 <= command.seat < 3:
        raise IllegalMove(f"there is no seat {command.seat}: seats are 0, 1 and 2")
    if state.phase == OVER:
        raise IllegalMove("the game is over")
    return handler(state, command)


def _phase_name(state: State) -> str:
    names: dict[str, str] = {
        START: "the game has not started",
        CUT_FOR_DEAL: "it is the cut for first deal",
        SHUFFLE: "the deck is being shuffled",
        DEAL: "the cards are being dealt",
        DISCARD: "it is the discard",
        CUT_STARTER: "it is the cut for the starter",
        HEELS: "the starter is being turned",
        PLAY: "it is the play",
        SHOW: "it is the show",
    }
    return names.get(state.phase, state.phase)


def _draw_cut_card(state: State, c: DrawCutCard) -> Event:
    if state.phase != CUT_FOR_DEAL:
        raise IllegalMove(f"seat {c.seat} cannot cut for deal: {_phase_name(state)}")
    if c.seat not in state.cutters:
        raise IllegalMove(f"seat {c.seat} does not cut for deal now")
    if c.card in state.cuts:
        raise IllegalMove(f"{c.card} was already cut in this round")
    return CardCutForDeal(seat=c.seat, card=c.card)


def _shuffle(state: State, c: Shuffle) -> Event:
    if state.phase != SHUFFLE:
        raise IllegalMove(f"the deck cannot be shuffled now: {_phase_name(state)}")
    deck = tuple(c.deck)
    if len(deck) != 52:
        raise IllegalMove(f"the shuffled deck has {len(deck)} cards, not 52")
    seen: set[Card] = set()
    for card in deck:
        if card in seen:
            raise IllegalMove(f"the shuffled deck has {card} twice")
        seen.add(card)
    assert state.dealer is not None
    return DeckShuffled(hand=state.hand_number + 1, dealer=state.dealer, deck=deck)


def _discard(state: State, c: Discard) -> Event:
    if state.phase != DISCARD:
        raise IllegalMove(f"seat {c.seat} cannot discard: {_phase_name(state)}")
    if state.discarded[c.seat]:
        raise IllegalMove(f"seat {c.seat} has already discarded")
    if c.card not in state.hands[c.seat]:
        raise IllegalMove(f"seat {c.seat} cannot discard {c.card}: it is not in their hand")
    return CardDiscarded(seat=c.seat, card=c.card)


def _cut_starter(state: State, c: CutStarter) -> Event:
    if state.phase != CUT_STARTER:
        raise IllegalMove(f"seat {c.seat} cannot cut the starter: {_phase_name(state)}")
    if c.seat != cutter(state):
        raise IllegalMove(f"seat {c.seat} cannot cut the starter: seat {cutter(state)} cuts")
    top = len(state.deck) - MIN_CUT
    if not MIN_CUT <= c.depth <= top:
        raise IllegalMove(f"a cut leaves at least {MIN_CUT} cards in each packet: "
                          f"cut {MIN_CUT} to {top} cards, not {c.depth}")
    return StarterCut(seat=c.seat, depth=c.depth, starter=state.deck[c.depth])


def _play(state: State, c: Play) -> Event:
    if state.phase != PLAY:
        raise IllegalMove(f"seat {c.seat} cannot play {c.card}: {_phase_name(state)}")
    turn = play_turn(state)
    if turn != c.seat:
        raise IllegalMove(f"seat {c.seat} cannot play {c.card}: it is seat {turn}'s turn")
    if c.card not in state.hands[c.seat]:
        raise IllegalMove(f"seat {c.seat} cannot play {c.card}: it is not in their hand")
    if state.muggins_pending is not None:  # (with pegging claims, a short claim is settled first)
        raise IllegalMove(f"seat {c.seat} cannot play {c.card}: a muggins call is due first")
    count = state.count + c.card.value
    if count > 31:
        raise IllegalMove(f"seat {c.seat} cannot play {c.card}: the count would be {count}")
    score = score_play((*state.pile, c.card))
    points = score.total
    if state.rules.pegging_claims and claims_pegging(state, c.seat):  # (rare: looked up last)
        if c.claimed is None:
            raise IllegalMove(f"seat {c.seat} claims its own pegging: say what {c.card} scores")
        if not 0 <= c.claimed <= MOST_CLAIMED:
            raise IllegalMove(f"a claim is 0 to {MOST_CLAIMED}, not {c.claimed}")
        if c.claimed > points:
            return _refused(state, c.seat, c.claimed, points, False, c.card)
        points = c.claimed
    return CardPlayed(
        seat=c.seat,
        points=points,
        scores=_add(state.scores, c.seat, points) if points else state.scores,
        card=c.card,
        count=count,
        items=score.items,
        missed=score.total - points,
    )


def claims_pegging(state: State, seat: int) -> bool:
    """`seat` says what its own cards score in the play: a person, with
    muggins and pegging claims on (rules.md R8.2)."""
    rules = state.rules
    return rules.pegging_claims and rules.muggins and state.players[seat].is_human


def _refused(state: State, seat: int, claimed: int, holds: int, crib: bool,
             card: Card | None) -> ClaimRefused:
    """A claim above what the cards hold: refused, on record, and under the
    strict rule the excess to the seat on the claimant's left."""
    taker = left_of(seat)
    cost = claimed - holds if state.rules.muggins_rule == STRICT else 0
    return ClaimRefused(seat=seat, claimed=claimed, holds=holds, crib=crib, card=card,
                        taker=taker, points=cost,
                        scores=_add(state.scores, taker, cost) if cost else state.scores)


def _count(state: State, c: Count) -> Event:
    if state.phase != SHOW or not state.rules.muggins or to_act(state) != (c.seat,) \
            or state.muggins_pending is not None:
        raise IllegalMove(f"seat {c.seat} has no count to give now")
    seat, crib = counting_seat(state)
    event = _hand_counted(state, seat, crib, None)
    what = "crib" if crib else "hand"
    if c.points < 0:
        raise IllegalMove(f"a count is 0 or more, not {c.points}")
    if c.points > event.points:
        if c.points > MOST_CLAIMED:
            raise IllegalMove(f"no {what} holds {c.points}: {MOST_CLAIMED} is the most")
        return _refused(state, seat, c.points, event.points, crib, None)
    return _hand_counted(state, seat, crib, c.points)


def _muggins(state: State, c: Muggins) -> Event:
    pending = state.muggins_pending
    if state.phase not in (SHOW, PLAY) or pending is None or pending[0] != c.seat:
        raise IllegalMove(f"seat {c.seat} has no muggins to call now")
    caller, victim, points = pending
    if c.call:
        return MugginsCalled(
            seat=caller, points=points, scores=_add(state.scores, caller, points), victim=victim
        )
    return MugginsDeclined(seat=caller, victim=victim)


def takeable(state: State, seat: int | None) -> bool:
    """`seat` has a throw or play of this hand that it may take back now
    (see `TakenBack`): whether a game allows take-backs at all is the
    `Game`'s, not the state's."""
    undo = state.undo
    return undo is not None and undo[1] == seat and state.phase in (DISCARD, CUT_STARTER, PLAY)


def untakeable(state: State) -> str:
    """Why nothing can be taken back in `state`, in a player's words."""
    if state.phase == SHOW:
        return "the play is over, and its cards stand once the show begins"
    if state.phase in (PLAY, HEELS):
        return "the throws stand once the starter is cut, and no card of theirs is played yet"
    if state.phase in (DISCARD, CUT_STARTER):
        return "no card is thrown yet in this hand"
    return "no throw or play of this hand"


def _take_back(state: State, c: TakeBack) -> Event:
    """A person takes back their last throw or play of the hand, and what
    the others did after it. Bounded to the hand: a throw only until the
    starter is cut (a throw made again knowing the starter would be a peek,
    not a second thought; before the cut the deck stays as dealt, so no card
    is dealt or cut anew), a play only until the play is over (the show
    turns every hand face up); never a cut, a count, a muggins call or
    anyone else's move. Taking back a play lets the person see what the
    others played after it, as an undo at a card table does: the statistics
    count games with take-backs apart for that."""
    undo = state.undo
    if state.phase not in (DISCARD, CUT_STARTER, PLAY) or undo is None:
        raise IllegalMove(f"seat {c.seat} has nothing to take back: {untakeable(state)}")
    before, seat, card = undo
    if seat != c.seat:
        raise IllegalMove(f"seat {c.seat} cannot take back seat {seat}'s move")
    return TakenBack(seat=seat, card=card, throw=before.phase == DISCARD)


# Each command type's root event; the Any is the command, of the type its key names.
_ROOTS: dict[type[Command], Callable[[State, Any], Event]] = {
    DrawCutCard: _draw_cut_card,
    Shuffle: _shuffle,
    Discard: _discard,
    CutStarter: _cut_starter,
    Play: _play,
    Count: _count,
    Muggins: _muggins,
    TakeBack: _take_back,
}


def run_automatic(state: State, events: list[Event]) -> State:
    """Append the automatic events that follow `state` to `events`; return the
    state where somebody (or chance) must choose, or the game is over."""
    while True:
        event = next_automatic(state)
        if event is None:
            return state
        events.append(event)
        state = apply(state, event)


def step(state: State, command: Command) -> tuple[list[Event], State]:
    """`decide`, also returning the state after the events (saves a re-fold)."""
    root = root_event(state, command)
    events: list[Event] = [root]
    state = run_automatic(apply(state, root), events)
    return events, state


def decide(state: State, command: Command) -> list[Event]:
    """The events `command` causes in `state`, or IllegalMove."""
    return step(state, command)[0]


# Commands are immutable, so the common ones are made once and shared.
_DISCARDS = [[Discard(s, c) for c in DECK] for s in range(3)]
_PLAYS = [[Play(s, c) for c in DECK] for s in range(3)]


def legal_moves(state: State, seat: int, acting: tuple[int, ...] | None = None) -> list[Command]:
    """Every command `seat` may give now (empty when it is not their turn).
    `acting` is `to_act(state)` when the caller has it already."""
    if seat not in (to_act(state) if acting is None else acting):
        return []
    phase = state.phase
    if phase == DISCARD:
        row = _DISCARDS[seat]
        return [row[c.index] for c in state.hands[seat]]
    if phase == CUT_STARTER:
        return [CutStarter(seat, d) for d in range(MIN_CUT, len(state.deck) - MIN_CUT + 1)]
    if phase == PLAY:
        if state.muggins_pending is not None:
            return [Muggins(seat, True), Muggins(seat, False)]
        room = 31 - state.count
        if state.rules.pegging_claims and claims_pegging(state, seat):  # (each claim too)
            return [Play(seat, c, n) for c in state.hands[seat] if c.value <= room
                    for n in range(score_play((*state.pile, c)).total + 1)]
        plays = _PLAYS[seat]
        return [plays[c.index] for c in state.hands[seat] if c.value <= room]
    if phase == SHOW:
        if state.muggins_pending is not None:
            return [Muggins(seat, True), Muggins(seat, False)]
        s, crib = counting_seat(state)
        top = _hand_counted(state, s, crib, None).points
        return [Count(seat, n) for n in range(top + 1)]
    return []
