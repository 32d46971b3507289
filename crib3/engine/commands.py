"""Commands: what a seat (or chance) asks the engine to do.

A command is an imperative (`Play`, `Discard`); `crib3.engine.rules.decide`
either turns it into events or raises `IllegalMove`. Seat commands come from
people, bots and network clients; chance commands (`DrawCutCard`, `Shuffle`)
come only from the `Game`'s random source, or from a log being replayed.
"""

from __future__ import annotations

from dataclasses import dataclass

from crib3.cards import Card


@dataclass(frozen=True, slots=True)
class Command:
    pass


@dataclass(frozen=True, slots=True)
class SeatCommand(Command):
    seat: int


@dataclass(frozen=True, slots=True)
class Discard(SeatCommand):
    card: Card


@dataclass(frozen=True, slots=True)
class CutStarter(SeatCommand):
    """Cut the remaining deck `depth` cards down (4 .. 32: four cards at
    least in each packet)."""

    depth: int


@dataclass(frozen=True, slots=True)
class Play(SeatCommand):
    """Play `card`. With pegging claims (`Rules.pegging_claims`) a person
    says what it scores in `claimed`; every other play leaves it None and
    is scored by the rules."""

    card: Card
    claimed: int | None = None


@dataclass(frozen=True, slots=True)
class Count(SeatCommand):
    """With muggins on: a human's claimed score for their hand or crib (a
    claim above what it holds is refused, as `Rules.muggins_rule` says)."""

    points: int


@dataclass(frozen=True, slots=True)
class Muggins(SeatCommand):
    """With muggins on: call (or let pass) the points another seat missed
    (in the show, or with pegging claims in the play)."""

    call: bool


@dataclass(frozen=True, slots=True)
class TakeBack(SeatCommand):
    """Take back this seat's last throw or play in the hand, and what
    followed it (see `crib3.engine.events.TakenBack`). Never a bot's legal
    move: a `Game` takes it only when `Game.takebacks` is on."""


@dataclass(frozen=True, slots=True)
class DrawCutCard(Command):
    """Chance: `seat` cuts `card` in the cut for first deal."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Shuffle(Command):
    """Chance: the deck order for the next hand."""

    deck: tuple[Card, ...]
