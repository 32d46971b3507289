"""The table's words: the big announcement line, the bottom seat's line and
the prompt, as pure functions of what is shown.

Kept apart from the widgets so that the live table and replay say exactly
the same things, and so the words can be tested without Textual. Every
function takes the event as the seat was told it (redacted) and that seat's
view, so nothing here can say a card the seat could not see.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

from rich.text import Text

from crib3.cards import Card
from crib3.common.names import shown_name
from crib3.engine import Discard, Event, Play, SeatView, State, TakeBack
from crib3.engine import events as ev
from crib3.engine.state import Phase
from crib3.scoring import Score
from crib3.words.narrate import Voice, describe, reached
from crib3.words.speech import say_play

# Events whose announcement is their sentence in the feed.
_SAID_AS_NARRATED = (ev.GoScored, ev.HisHeels, ev.MugginsCalled,
                     ev.MugginsDeclined, ev.StarterCut, ev.DealerChosen, ev.CutTied,
                     ev.GameWon, ev.HandEnded, ev.DeckShuffled, ev.TakenBack, ev.ClaimRefused)


class Mode(StrEnum):
    """What the table screen is doing, which decides its prompt and keys.

    One value instead of several flags: the screen is in exactly one of
    these at a time, and a watcher redraws the prompt and footer whenever it
    changes."""

    PRESENTING = "presenting"  # showing events, or a computer player thinks
    COUNTING = "counting"  # a hand is counted phrase by phrase; Enter hurries it
    WAITING_FOR_ENTER = "waiting_for_enter"  # paused so a person can read
    SKIPPING_SHOW = "skipping_show"  # the rest of this show goes by without pauses
    YOUR_TURN = "your_turn"  # this seat must act: a card, the cut, a count
    YOUR_GO = "your_go"  # this seat cannot play: Enter says go (auto-go off)
    OTHERS_TURN = "others_turn"  # a person at another seat must act
    OVER = "over"  # the game has ended and its result was asked for


# Modes in which Enter goes on (the pause, or hurrying a count).
ENTER_GOES_ON = frozenset({Mode.COUNTING, Mode.WAITING_FOR_ENTER, Mode.YOUR_GO})
# Modes in which the screen waits for a person, with nothing to present.
IDLE = frozenset({Mode.YOUR_TURN, Mode.OTHERS_TURN})


def announcement(event: Event, state: State, view: SeatView,
                 ascii: bool = False) -> str | None:
    """The big line: what just happened, in a player's words; None keeps
    the line as it was. `state` is the state just after `event` as the seat
    knows it (for names and scores in the sentence)."""
    names = [shown_name(p.name, 20) for p in view.players]
    if isinstance(event, ev.CardPlayed):
        said = say_play(Score(event.points + event.missed, event.items))
        if event.missed:  # (pegging claims: claimed short)
            said += f"; claimed {event.points}"
        return f"{names[event.seat]}: {event.count}" + (f" — {said}" if said else "")
    if isinstance(event, ev.GoSaid):
        return f"{names[event.seat]}: go"
    if isinstance(event, ev.HandCounted):
        return counted(event, state)
    if isinstance(event, _SAID_AS_NARRATED):
        return describe(event, state, ascii)
    return None


def counted(event: ev.HandCounted, state: State | SeatView) -> str:
    """The headline of a count in the show, short enough for 80 columns
    (the phrases are drawn beside the cards): "Cal's hand: 6 · Cal has 12"."""
    voice = Voice(state)
    seat = event.seat
    owner = f"{voice.whose(seat, start=True)} {'crib' if event.crib else 'hand'}"
    there = event.points + event.missed
    said = f"{event.points} of {there} claimed" if event.missed else str(event.points)
    total = reached(state.scores[seat], state.rules.target)
    return f"{owner}: {said} · {voice.subject(seat)} {voice.verb(seat, 'has', 'have')} {total}"


def cut_rounds(deal_cuts: Sequence[tuple[int, Card]]) -> list[list[tuple[int, Card]]]:
    """The cut for deal, round by round. The log keeps every cut in one
    row; the rounds follow from the rule (R1.2): all three seats cut first,
    and each later round is cut by the seats that tied for lowest in the one
    before."""
    rounds: list[list[tuple[int, Card]]] = []
    size, i = 3, 0
    while i < len(deal_cuts):
        this = list(deal_cuts[i:i + size])
        rounds.append(this)
        i += size
        low = min(c.rank for _, c in this)
        size = sum(1 for _, c in this if c.rank == low)
    return rounds


def points(score: int, target: int = 0, counted: bool = True) -> str:
    """A score as a seat's box says it: "1 pt", "0 pts", "12 pts", and past
    the target "121 pts (125 counted)" (see `reached`), or where room is
    short (`counted` False) "121 pts", where the board stops."""
    if 0 < target < score:
        return f"{target} pts ({score} counted)" if counted else f"{target} pts"
    return f"{score} pt" if score == 1 else f"{score} pts"


def seat_line(view: SeatView, ascii: bool = False) -> Text:
    """The line above the bottom seat's hand: its name, score, deal, go and
    the cards it played in this count. Plain `Text`: a name is never markup."""
    text = Text()
    me = view.seat
    if me is None or not view.players:
        return text
    text.append(shown_name(view.players[me].name, 24), style="bold")
    text.append(f"  {points(view.scores[me], view.rules.target)}", style="bold")
    if view.dealer == me:
        text.append("  · your deal and crib", style="italic")
    if view.phase == Phase.PLAY and view.gone[me]:
        text.append("  · go", style="bold yellow")
    mine = [c for c, s in zip(view.pile, view.pile_seats) if s == me]
    if mine and view.phase == Phase.PLAY:
        text.append("  · played ", style="dim")
        text.append(" ".join(c.label(ascii) for c in mine))
    return text


def refusal(command: object, view: SeatView, reason: str, ascii: bool = False) -> str | None:
    """Why this seat's `command` was refused, as a player says it ("7♠ would
    make 32: play a card of 6 or less"), the card drawn as on screen; None
    when there is nothing to say.

    `reason` is the engine's `IllegalMove` sentence (or the room's, which
    passes it on). The engine speaks of seats and card codes, for logs and
    programs, never to the table: its sentence is said as it is only when it
    names no seat ("the game is over", "the hand does not hold 9: count
    again"). `view` is the seat's view as shown, which may be behind the
    game: on a card room's table a move is taken at once and shown when
    its events come back, so a second key meanwhile is refused by a state
    the screen does not show yet. That refusal is read from the sentence
    (whose turn it is now), or said not at all (a throw or a count already
    on its way)."""
    if isinstance(command, TakeBack) and "nothing to take back: " in reason:
        said = reason.split("nothing to take back: ", 1)[1].replace("of theirs", "of yours")
        return f"Nothing to take back: {said}"
    if _OWN_WORDS.match(reason) is not None:
        return reason
    if isinstance(command, (Play, Discard)) and view.phase in (Phase.PLAY, Phase.DISCARD):
        card = command.card.label(ascii)
        if not view.my_turn:
            return f"Not yet: wait for {_waited_for(view)}"
        if command.card not in view.hand:
            return f"{card} is not in your hand"
        if isinstance(command, Play) and view.count + command.card.value > 31:
            room = 31 - view.count
            fits = "an ace" if room == 1 else f"a card of {room} or less"
            # No "or say go": it is only your turn while a card of yours
            # fits; when none does, the go is said for you.
            return f"{card} would make {view.count + command.card.value}: play {fits}"
    return _from_the_engine(command, view, reason, ascii)


# What a refusal says in the game's words already (the count asked again, the
# game over, the table moved): it names no seat.
_OWN_WORDS = re.compile(r"(?!.*\bseats? \d)")


def _from_the_engine(command: object, view: SeatView, reason: str, ascii: bool) -> str | None:
    """An engine's sentence about a seat ("seat 0 cannot play 10D: it is
    seat 1's turn") in the game's words, or None: the move was overtaken
    by the game (this seat's own move still on its way, a phase gone by),
    and what the table shows next says what to do."""
    turn = re.search(r"it is seat (\d)'s turn|seat (\d) cuts$", reason)
    if turn is not None:
        seat = int(turn.group(1) or turn.group(2))
        if seat < len(view.players):
            what = "play" if turn.group(1) else "cut"
            return f"Not yet: wait for {shown_name(view.name(seat), 20)} to {what}"
        return None
    card = getattr(command, "card", None)
    if isinstance(card, Card):
        if reason.endswith("it is not in their hand"):
            if card in view.hand:  # played already (its events on their way): nothing to say
                return None
            return f"{card.label(ascii)} is not in your hand"
        past = re.search(r"the count would be (\d+)$", reason)
        if past is not None:
            return f"{card.label(ascii)} would make {past.group(1)}"
    return None


def _waited_for(view: SeatView) -> str:
    """Who the table waits for, by name ("the others" in the discard)."""
    if view.phase == Phase.PLAY and view.turn is not None:
        return shown_name(view.name(view.turn), 20)
    return "the others"


def _choose(view: SeatView) -> str:
    """The keys that throw or play a card, for the cards left in the hand: a
    number does it at once, or the arrows then Enter ("1-3, or ←/→ and
    Enter"); with one card "1 or Enter" (no arrows to move between)."""
    held = len(view.hand)
    return "1 or Enter" if held == 1 else f"1-{held}, or ←/→ and Enter"


def prompt(mode: Mode, shown_phase: str, view: SeatView) -> str:
    """The hint under the table: which keys do what now. `shown_phase` is
    the phase of the state on screen (the view's, or the one before a count
    being said)."""
    if mode == Mode.YOUR_GO:
        return f"No card you can play at {view.count}: Enter says go"
    if mode in ENTER_GOES_ON:
        if shown_phase == Phase.OVER:
            return "Enter: the result"
        if shown_phase == Phase.SHOW:
            return "Enter: go on   s: skip the rest of the show"
        return "Enter: go on"
    if mode != Mode.YOUR_TURN or not view.my_turn:
        return ""
    if view.phase == Phase.DISCARD:
        assert view.dealer is not None  # (the throw follows the deal)
        owner = "your" if view.dealer == view.seat else \
            f"{shown_name(view.name(view.dealer), 16)}'s"
        return f"Throw one card to {owner} crib: {_choose(view)}   h: coach"
    if view.phase == Phase.CUT_STARTER:
        return "Enter: cut the deck for the starter"
    if view.phase == Phase.PLAY:
        if view.muggins_pending is not None:  # (pegging claims: a short claim)
            return "Call muggins on a short claim? (muggins is on)"
        return f"Your play, count {view.count}: {_choose(view)}   h: coach"
    if view.phase == Phase.SHOW:  # what the show's dialog asks (see `asked_in_show`)
        if view.muggins_pending is not None:
            return "Call muggins on a short count? (muggins is on)"
        crib = view.counting is not None and view.counting[1]
        return f"Count your {'crib' if crib else 'hand'} (muggins is on)"
    return ""


_PLAY_NAMES = {"fifteen": "fifteen", "thirty-one": "31", "run": "run"}
_PAIR_NAMES = {2: "pair", 3: "pair royal", 4: "double pair royal"}


def pile_label(score: Score) -> str:
    """A score in the play as it is labelled on the pile, under the card
    that made it: "fifteen +2", "31 +2", "pair +2", "run of 3 +3", and
    both parts of a double score ("fifteen +2 pair +2"); "" for none."""
    parts = []
    for item in score.items:
        if item.kind == "pair":
            name = _PAIR_NAMES[len(item.cards)]
        elif item.kind == "run":
            name = f"run of {item.points}"
        else:
            name = _PLAY_NAMES.get(item.kind, item.kind)
        parts.append(f"{name} +{item.points}")
    return " ".join(parts)


_SHORT_NAMES = {"fifteen": "15", "thirty-one": "31", "run": "run"}
_SHORT_PAIRS = {2: "pair", 3: "royal", 4: "dbl royal"}


def pile_labels(score: Score, go: str = "") -> list[str]:
    """Every way a card's score may be labelled on the pile, longest
    first, for the room under it: in full ("run of 4 +4", and the go
    after it), short ("run +4", "15 +2", "royal +6"), packed ("run+4"), and
    the points alone ("+4"); [] for none. Where cards overlap, a label is
    as long as the room under its card allows, so it is never put under
    another card, nor left out."""
    full = " ".join(part for part in (pile_label(score), go) if part)
    if not full:
        return []
    short = []
    for item in score.items:
        name = _SHORT_PAIRS[len(item.cards)] if item.kind == "pair" else \
            _SHORT_NAMES.get(item.kind, item.kind)
        short.append((name, item.points))
    if go:
        name, _, points = go.rpartition(" +")
        short.append(("last" if name == "last card" else name, int(points)))
    total = sum(points for _, points in short)
    forms = [full, " ".join(f"{n} +{p}" for n, p in short),
             " ".join(f"{n}+{p}" for n, p in short), f"+{total}"]
    return [form for i, form in enumerate(forms) if form not in forms[:i]]


def go_label(points: int, last_card: bool = False) -> str:
    """The point for the go, labelled on the last card of its count."""
    return f"{'last card' if last_card else 'go'} +{points}"
