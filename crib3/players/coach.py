"""The coach: for any seat's view, the ranked options with their numbers.

- A discard: for each of the five cards, the expected hand of the four kept
  (exact, over the 47 possible starters), the expected crib effect of the
  card thrown (from the shipped three-player crib table: added in your own
  crib, subtracted in an opponent's) and the net.
- A play: for each legal card, the points it scores now, the points you can
  expect over the rest of the play, and your expected margin over the
  opponents, from playing the hand out many times with the unseen cards
  dealt to the other hands consistently with what was played and who said
  go; with a one-line reason ("leaves 21: a ten makes 31").

The `expert` player plays the coach's first option, so the advice is exactly
what the strongest bot would do. Both are deterministic for a given view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from crib3.cards import Card
from crib3.engine import Play, SeatView
from crib3.engine.state import Phase
from crib3.players.analysis import (
    DiscardOption,
    discard_options,
    gift_risk,
    greedy_play,
    min_values,
    play_points,
    sample_hands,
)
from crib3.scoring import hand_points, score_play
from crib3.speech import say_play

PLAY_SAMPLES = 128
WIN_BONUS = 100.0


@dataclass(frozen=True, slots=True)
class PlayOption:
    """One legal card in the play, with what it is worth."""

    card: Card
    now: int  # points it scores as it is played
    expected: float  # your expected points over the rest of the play, `now` included
    margin: float  # expected points over the opponents' mean in the rest of the play
    reason: str


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's word on a view: what kind of choice, and the options,
    best first, each with a line to show."""

    kind: str  # "discard", "play" or "none"
    discards: tuple[DiscardOption, ...] = ()
    plays: tuple[PlayOption, ...] = ()

    @property
    def best(self) -> Card | None:
        if self.discards:
            return self.discards[0].card
        if self.plays:
            return self.plays[0].card
        return None

    def lines(self, ascii: bool = False) -> list[str]:
        out = []
        for o in self.discards:
            kept = " ".join(c.label(ascii) for c in o.kept)
            out.append(f"throw {o.card.label(ascii):<4} keep {kept:<16} hand {o.hand:5.2f}  "
                       f"crib {o.crib:+5.2f}  net {o.net:5.2f}")
        for p in self.plays:
            out.append(f"play {p.card.label(ascii):<4} now {p.now}  expect {p.expected:4.2f}  "
                       f"margin {p.margin:+5.2f}  {p.reason}")
        return out


def advise(view: SeatView) -> Advice:
    """The ranked options for whatever `view.seat` must choose now."""
    if not view.my_turn or view.seat is None:
        return Advice("none")
    if view.phase == Phase.DISCARD:
        return Advice("discard", discards=tuple(rank_discards(view)))
    if view.phase == Phase.PLAY:
        return Advice("play", plays=tuple(rank_plays(view)))
    return Advice("none")


def rank_discards(view: SeatView) -> list[DiscardOption]:
    """The five discards, best net first."""
    return discard_options(view.hand, own_crib=view.dealer == view.seat)


def _view_rng(view: SeatView) -> random.Random:
    """A random source fixed by the position, so the coach and the expert
    give the same answer for the same view, every time."""
    key = (view.seat, view.hand_number, view.scores, tuple(c.index for c in view.hand),
           tuple(c.index for c in view.pile), view.count)
    return random.Random(hash(key))


# Within this many points of the target, the look-ahead also counts the show,
# in its order, to see who would win before whom.
ENDGAME = 60


@dataclass(frozen=True, slots=True)
class _Show:
    """What the look-ahead needs to count the show at the end of the play."""

    order: tuple[int, int, int]
    starter: Card
    played: tuple[tuple[Card, ...], ...]  # by seat, before the look-ahead
    crib_known: tuple[Card, ...]  # the seat's own discard


def rank_plays(view: SeatView, samples: int = PLAY_SAMPLES) -> list[PlayOption]:
    """Every legal card, best expected margin first."""
    me = view.seat
    assert me is not None
    cards = [c.card for c in view.legal if isinstance(c, Play)]  # type: ignore[attr-defined]
    if not cards:
        return []
    target = view.rules.target
    pile = list(view.pile)
    rng = _view_rng(view)
    others = {s: view.held[s] for s in range(3) if s != me and view.held[s]}
    floors = min_values(view.hand_gos)
    pool = sorted(view.unseen())
    show = None
    if max(view.scores) + ENDGAME >= target and view.starter is not None \
            and view.dealer is not None:
        d = view.dealer
        show = _Show(((d + 1) % 3, (d + 2) % 3, d), view.starter, view.played,
                     (view.my_discard,) if view.my_discard is not None else ())
    totals = {c: [0.0, 0.0] for c in cards}  # points, margin
    runs = 0
    for _ in range(samples if others else 1):
        dealt: dict[int, list[Card]] = {}
        if others:
            found = sample_hands(pool, others, floors, rng) or sample_hands(pool, others, {}, rng)
            if found is None:
                break
            dealt = found
        crib_rest: list[Card] = []
        if show is not None:
            taken = {c for hand in dealt.values() for c in hand}
            crib_rest = rng.sample([c for c in pool if c not in taken], 4 - len(show.crib_known))
        runs += 1
        for card in cards:
            hands = [list(view.hand) if s == me else list(dealt.get(s, ())) for s in range(3)]
            points, margin = _play_out(card, me, hands, pile, view.count, view.scores,
                                       target, show, crib_rest)
            totals[card][0] += points
            totals[card][1] += margin
    options = []
    for card in cards:
        now_score = score_play((*pile, card))
        expected, margin = totals[card][0] / max(runs, 1), totals[card][1] / max(runs, 1)
        options.append(PlayOption(card, now_score.total, expected, margin,
                                  _reason(now_score, view.count + card.value, view, card)))
    options.sort(key=lambda o: (-o.margin, -o.now, -o.card.value, o.card.index))
    return options


def _play_out(card: Card, me: int, hands: list[list[Card]], pile: Sequence[Card], count: int,
              scores: Sequence[int], target: int, show: _Show | None = None,
              crib_rest: Sequence[Card] = ()) -> tuple[int, float]:
    """Play `card`, then the rest of the play (this count and the next ones)
    with every seat playing the `standard` way, then, near the end of the
    game, the show. Returns (my points in the play, my margin over the
    opponents' mean); reaching the target first is worth WIN_BONUS, an
    opponent reaching it first costs as much."""
    held = [tuple(h) for h in hands]
    points = [0, 0, 0]
    pile = list(pile)
    hands[me].remove(card)
    pile.append(card)
    count += card.value
    points[me] += play_points(pile, count)
    last = me
    winner = -1
    while True:
        if scores[last] + points[last] >= target:
            winner = last
            break
        mover = -1
        if count != 31:
            for s in ((last + 1) % 3, (last + 2) % 3, last):
                hand = hands[s]
                if hand and min(c.value for c in hand) <= 31 - count:
                    mover = s
                    break
        if mover < 0:
            if count != 31:
                points[last] += 1  # the go, or the last card
                if scores[last] + points[last] >= target:
                    winner = last
                    break
            # R5.5: the next count is led left of the last card's player.
            for s in ((last + 1) % 3, (last + 2) % 3, last):
                if hands[s]:
                    mover = s
                    break
            if mover < 0:
                break  # every card is played
            pile = []
            count = 0
        chosen = greedy_play(hands[mover], pile, count)
        assert chosen is not None
        hands[mover].remove(chosen)
        pile.append(chosen)
        count += chosen.value
        points[mover] += play_points(pile, count)
        last = mover
    margin = points[me] - sum(points[s] for s in range(3) if s != me) / 2
    if winner < 0 and show is not None:
        winner = _show_winner(show, held, crib_rest, [scores[s] + points[s] for s in range(3)],
                              target)
    if winner >= 0:
        margin += WIN_BONUS if winner == me else -WIN_BONUS
    return points[me], margin


def _show_winner(show: _Show, held: Sequence[Sequence[Card]], crib_rest: Sequence[Card],
                 totals: list[int], target: int) -> int:
    """Who reaches the target first in the show (R6.1, R7.1), or -1."""
    for seat in show.order:
        kept = (*show.played[seat], *held[seat])
        totals[seat] += hand_points(kept, show.starter)
        if totals[seat] >= target:
            return seat
    dealer = show.order[2]
    totals[dealer] += hand_points((*show.crib_known, *crib_rest), show.starter, crib=True)
    return dealer if totals[dealer] >= target else -1


def _reason(now: object, new_count: int, view: SeatView, card: Card) -> str:
    parts = []
    said = say_play(now)  # type: ignore[arg-type]
    if said:
        parts.append(said)
    if view.seat is not None and view.scores[view.seat] + getattr(now, "total", 0) \
            >= view.rules.target:
        parts.append(f"reaches {view.rules.target}: wins the game")
    elif new_count < 31:
        risk = gift_risk(new_count)
        if risk:
            parts.append(risk)
        elif not view.pile and card.value < 5:
            parts.append("a lead under 5: nobody can make 15")
    if not parts:
        parts.append("nothing easy for the next player")
    return "; ".join(parts)
