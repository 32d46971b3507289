"""The coach looks back: every decision one seat made in a game, with what
it cost against the coach's best.

A review is the log folded to each decision's moment, the deciding seat's
own view taken there (`seat_view`: the seat's cards and the public facts,
never another seat's hidden cards), and the coach's ranking of that view.
No second engine: the folds are the engine's, the rankings the coach's
(`crib3.players.coach`), so the review says exactly what the coach would
have said at the table, and the same log always gives the same review (the
coach's sampling is seeded by the view).

The cost of a decision is what the seat gave up against the coach's best,
in the coach's own measure: expected points (hand plus crib) for a
discard; expected margin over the opponents for a play; the points left
uncounted for a count under muggins; the points let pass for a muggins not
called. A decision that matched the coach costs 0. Near the end of the
game the coach weighs a play's chance to win first as WIN_BONUS points a
whole win; the review says that chance apart (`Decision.win_cost`), in its
own words, so the points it gives up stay points.

Imports the engine and the players, nothing from the screens.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from crib3.engine import (
    Event,
    Play,
    SeatView,
    State,
    apply,
    next_automatic,
    seat_view,
    taken_back,
)
from crib3.engine import events as ev
from crib3.players.coach import (
    WIN_BONUS,
    PlayOption,
    discard_reason,
    rank_discards,
    rank_plays,
)
from crib3.scoring import score_hand

# The summary's phases: a muggins call is counting's, as the points are.
# A claim refused (a count claimed too high) is counting's too.
PHASE_OF = {"discard": "discard", "play": "play", "count": "count", "muggins": "count",
            "claim": "count"}
EPSILON = 1e-9


@dataclass(frozen=True, slots=True)
class Choice:
    """One option as the coach ranks it: what it is, its value in the
    coach's measure (the higher the better), and a line of why."""

    option: str
    value: float
    reason: str
    # The chance to win first minus an opponent's, for a play near the end:
    # `value` counts it as WIN_BONUS points a whole win.
    win: float = 0.0

    @property
    def points(self) -> float:
        """`value` without the win chance's share."""
        return self.value - WIN_BONUS * self.win


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice the seat made: where in the log (`index`, 0-based among
    the events), the view it was made from, the coach's ranking (best
    first), what was taken and what it cost."""

    index: int
    hand: int
    seat: int
    kind: str
    view: SeatView
    ranking: tuple[Choice, ...]
    taken: str
    cost: float  # in the coach's one measure: near the end, a whole win is WIN_BONUS points
    # The same cost said apart: the points given up, and near the end the
    # chance to win given up (0..1). Without a chance, `points_cost` is `cost`.
    points_cost: float = 0.0
    win_cost: float = 0.0

    @property
    def best(self) -> Choice:
        return self.ranking[0]

    @property
    def matched(self) -> bool:
        return self.cost <= EPSILON

    def taken_choice(self) -> Choice | None:
        return next((c for c in self.ranking if c.option == self.taken), None)


@dataclass
class Review:
    """A seat's decisions in one game, and their sums by phase."""

    seat: int
    name: str
    hands: int
    decisions: list[Decision] = field(default_factory=list)
    # the seat's decisions that a take-back undid (a local game's `u`): not
    # reviewed, since they did not stand; only counted
    taken_back: int = 0

    def given_up(self, phase: str) -> float:
        """Points given up in one phase ("discard", "play", "count") or, with
        "total", in all: points alone (the chance to win is `win_given_up`)."""
        return sum(d.points_cost for d in self.decisions
                   if phase == "total" or PHASE_OF[d.kind] == phase)

    def matched(self) -> int:
        return sum(1 for d in self.decisions if d.matched)

    def costliest(self, n: int = 3) -> list[Decision]:
        """The `n` costliest decisions that cost anything, costliest first
        (earlier first among equals)."""
        costly = [d for d in self.decisions if not d.matched]
        return sorted(costly, key=lambda d: (-round(d.cost, 6), d.index))[:n]

    def win_given_up(self) -> float:
        """The chances to win given up near the end, summed (about the wins lost)."""
        return sum(d.win_cost for d in self.decisions)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {p: _num(self.given_up(p)) for p in ("discard", "play", "count")}
        out["total"] = _num(self.given_up("total"))
        out["win_chance"] = _num(self.win_given_up())
        out["decisions"] = len(self.decisions)
        out["matched"] = self.matched()
        out["hands"] = self.hands
        out["taken_back"] = self.taken_back
        out["per_hand"] = _num(self.given_up("total") / self.hands) if self.hands else 0.0
        return out


def _num(x: float) -> float:
    """Numbers as shown and written: two decimals, so the review is the
    same byte for byte wherever it runs."""
    value = round(x, 2)
    return 0.0 if value == 0 else value


# --- from a view to a ranking ---------------------------------------------------


def rank_discard(view: SeatView) -> tuple[Choice, ...]:
    """The coach's five discards for `view`, best first, valued by net."""
    options = rank_discards(view)
    return tuple(Choice(str(o.card), o.net, discard_reason(o, view, options)) for o in options)


def rank_play(view: SeatView) -> tuple[Choice, ...]:
    """The coach's legal plays for `view`, best first, valued by margin."""
    return tuple(_play_choice(o) for o in rank_plays(view))


def _play_choice(option: PlayOption) -> Choice:
    return Choice(str(option.card), option.margin, option.reason, option.win_edge)


def rank_count(view: SeatView) -> tuple[Choice, ...]:
    """A count under muggins has one right answer: the cards' true score
    (the seat's own cards, or its crib, face up to it, with the starter)."""
    assert view.starter is not None and view.counting is not None
    crib = view.counting[1]
    total = score_hand(view.counting_cards, view.starter, crib=crib).total
    what = "crib" if crib else "hand"
    return (Choice(str(total), float(total), f"the {what} holds {total}"),)


def rank_muggins(view: SeatView) -> tuple[Choice, ...]:
    """Calling muggins takes the points the other seat missed; letting it
    pass gives them up."""
    assert view.muggins_pending is not None
    points = view.muggins_pending[2]
    return (Choice("call", float(points), f"{points} missed: call it and take them"),
            Choice("pass", 0.0, f"lets the {points} go"))


# --- from a log to decisions ------------------------------------------------------


def _decision_kind(event: Event, before: State) -> str | None:
    """Which of a seat's decisions `event` is, or None when nobody chose it
    (an automatic event: a bot's count, a go, the show)."""
    if isinstance(event, ev.CardDiscarded):
        return "discard"
    if isinstance(event, ev.CardPlayed):
        return "play"
    if isinstance(event, ev.ClaimRefused):
        # a count claimed too high; one in the play is the card's claim,
        # and the card played then is the play reviewed
        return "claim" if event.card is None else None
    if isinstance(event, (ev.HandCounted, ev.MugginsCalled, ev.MugginsDeclined)):
        if next_automatic(before) is not None:
            return None  # the engine counted (or called) by itself
        return "count" if isinstance(event, ev.HandCounted) else "muggins"
    return None


def _taken(event: Event) -> str:
    if isinstance(event, (ev.CardDiscarded, ev.CardPlayed)):
        return str(event.card)
    if isinstance(event, ev.HandCounted):
        return str(event.points)
    if isinstance(event, ev.ClaimRefused):
        return str(event.claimed)
    return "call" if isinstance(event, ev.MugginsCalled) else "pass"


def _ranking(kind: str, view: SeatView) -> tuple[Choice, ...]:
    if kind == "discard":
        return rank_discard(view)
    if kind == "play":
        return rank_play(view)
    if kind in ("count", "claim"):
        return rank_count(view)
    return rank_muggins(view)


def _cost(kind: str, ranking: Sequence[Choice], taken: str,
          strict: bool = False) -> tuple[float, float, float]:
    """What `taken` gave up against the coach's best: (in the coach's
    measure, in points alone, in the chance to win alone). A claim too
    high gives up its excess under the strict muggins rule, else nothing."""
    best = ranking[0]
    if kind == "count":
        cost = max(0.0, best.value - float(taken))
        return cost, cost, 0.0
    if kind == "claim":
        cost = max(0.0, float(taken) - best.value) if strict else 0.0
        return cost, cost, 0.0
    chosen = next((c for c in ranking if c.option == taken), None)
    if chosen is None:  # cannot happen with a verified log; cost nothing rather than guess
        return 0.0, 0.0, 0.0
    cost = max(0.0, best.value - chosen.value)
    if cost <= EPSILON:
        return cost, cost, 0.0
    return cost, max(0.0, best.points - chosen.points), max(0.0, best.win - chosen.win)


def _is_choice(kind: str, view: SeatView) -> bool:
    """A play with a single legal card is no decision: nothing to review."""
    if kind == "play":
        # (with pegging claims a card is there once for each claim it may have)
        return len({c.card for c in view.legal if isinstance(c, Play)}) > 1
    return True


def decide_at(index: int, event: Event, before: State, seats: Iterable[int]) -> Decision | None:
    """The decision `event` was, when one of `seats` made it from `before`."""
    kind = _decision_kind(event, before)
    seat = getattr(event, "seat", None)
    if kind is None or seat not in set(seats):
        return None
    view = seat_view(before, seat)
    if not _is_choice(kind, view):
        return None
    ranking = _ranking(kind, view)
    if not ranking:
        return None
    taken = _taken(event)
    return Decision(index, before.hand_number, seat, kind, view, ranking, taken,
                    *_cost(kind, ranking, taken, before.rules.muggins_rule == ev.STRICT))


def assess(view: SeatView, kind: str, taken: str, index: int = -1) -> Decision:
    """The coach's word on one choice `taken` ("5H", a count, "call") from
    `view`, as the review gives it: for practice positions, which are not
    in any log (`index` -1)."""
    assert view.seat is not None
    ranking = _ranking(kind, view)
    return Decision(index, view.hand_number, view.seat, kind, view, ranking, taken,
                    *_cost(kind, ranking, taken, view.rules.muggins_rule == ev.STRICT))


def review_events(events: Sequence[Event], seat: int) -> Review:
    """The review of `seat` over a game's events (a verified log's): the
    decisions that stood. One that a take-back undid is not reviewed (the
    seat chose again, and that choice is), only counted (`taken_back`)."""
    state = State()
    decisions: list[Decision] = []
    undone = taken_back(events) if any(type(e) is ev.TakenBack for e in events) else set()
    withdrawn = 0
    for index, event in enumerate(events):
        if index in undone:
            if isinstance(event, (ev.CardDiscarded, ev.CardPlayed)) and event.seat == seat \
                    and _decision_kind(event, state) is not None:
                withdrawn += 1
        else:
            decision = decide_at(index, event, state, (seat,))
            if decision is not None:
                decisions.append(decision)
        state = apply(state, event)
    hands = sum(1 for e in events if isinstance(e, ev.CardsDealt))
    name = state.players[seat].name if seat < len(state.players) else f"seat {seat}"
    return Review(seat, name, hands, decisions, withdrawn)


def reviewed_seats(players: Sequence[ev.PlayerInfo]) -> list[int]:
    """The seats reviewed when none is named: the people, or every seat
    when all three are computer players."""
    people = [s for s, p in enumerate(players) if p.is_human]
    return people or list(range(len(players)))


# --- for programs and for people ----------------------------------------------------


def _view_json(view: SeatView) -> dict[str, Any]:
    return {
        "hand": [str(c) for c in view.hand],
        "pile": [str(c) for c in view.pile],
        "count": view.count,
        "starter": None if view.starter is None else str(view.starter),
        "dealer": view.dealer,
        "scores": list(view.scores),
    }


def decision_json(d: Decision) -> dict[str, Any]:
    return {
        "kind": d.kind,
        "event": d.index,
        "hand": d.hand,
        "view": _view_json(d.view),
        "taken": d.taken,
        "best": d.best.option,
        "cost": _num(d.cost),
        "points_cost": _num(d.points_cost),
        "win_cost": _num(d.win_cost),
        "matched": d.matched,
        "reason": d.best.reason,
        "ranking": [{"option": c.option, "value": _num(c.value), "reason": c.reason,
                     "win": _num(c.win)} for c in d.ranking],
    }


def review_json(review: Review) -> dict[str, Any]:
    """`{"seat", "name", "decisions": [...], "summary": {...}, "costliest": [...]}`."""
    return {
        "seat": review.seat,
        "name": review.name,
        "decisions": [decision_json(d) for d in review.decisions],
        "summary": review.summary(),
        "costliest": [d.index for d in review.costliest()],
    }


def _label(option: str, ascii: bool) -> str:
    """A card's label in the chosen alphabet; other options as they are."""
    from crib3.cards import parse_card

    try:
        return parse_card(option).label(ascii)
    except ValueError:
        return option


def describe(d: Decision, ascii: bool = False) -> str:
    """One decision in words: what was taken against the coach's best."""
    taken, best = _label(d.taken, ascii), _label(d.best.option, ascii)
    if d.kind == "muggins":
        did = "called it" if d.taken == "call" else "let it pass"
    else:
        did = {"discard": "threw", "play": "played", "count": "counted"}[d.kind] + f" {taken}"
    said = f"hand {d.hand}, {d.kind}: {did}"
    if d.matched:
        return f"{said}, as the coach would"
    return f"{said}; the coach: {best} (gives up {cost_phrase(d)})"


def cost_phrase(d: Decision) -> str:
    """What a decision gave up, each in its own words: "0.40", or "0.40
    points and a 12% chance to win" (or "a 12% chance to win" alone)."""
    chance = round(100 * d.win_cost)
    if chance < 1:
        return f"{_num(d.points_cost if d.win_cost else d.cost):.2f}"
    if d.points_cost < 0.005:
        return f"a {chance}% chance to win"
    return f"{_num(d.points_cost):.2f} points and a {chance}% chance to win"


def format_review(review: Review, names: Sequence[str], ascii: bool = False) -> str:
    """The review in words, for `crib3 review`: the summary, the three
    costliest with the coach's reason, then every decision, one a line.
    `names` are the table's names, made safe to print."""
    s = review.summary()
    lines = [f"Review of {names[review.seat]} (seat {review.seat}): "
             f"{s['decisions']} decisions over {s['hands']} hands",
             f"Points given up: discard {s['discard']:.2f}, play {s['play']:.2f}, "
             f"count {s['count']:.2f}; total {s['total']:.2f} ({s['per_hand']:.2f} a hand)",
             *([f"Chance to win given up near the end: {s['win_chance']:.0%} in all"]
               if s["win_chance"] >= 0.005 else []),
             f"Matched the coach: {s['matched']} of {s['decisions']}",
             *([f"Taken back and chosen again: {review.taken_back} "
                f"(the review is of the choices that stood)"] if review.taken_back else [])]
    costliest = review.costliest()
    if costliest:
        lines += ["", "The costliest:"]
        for n, d in enumerate(costliest, 1):
            lines.append(f"  {n}. {describe(d, ascii)}")
            lines.append(f"     why {_label(d.best.option, ascii)}: {d.best.reason}")
    if review.decisions:
        lines += ["", "Every decision:"]
        lines += [f"  {describe(d, ascii)}" for d in review.decisions]
    return "\n".join(lines) + "\n"
