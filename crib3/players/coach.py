"""The coach: for any seat's view, the ranked options with their numbers.

- A discard: for each of the five cards, the expected hand of the four kept
  (exact, over the 47 possible starters), the expected crib effect of the
  card thrown (from the shipped three-player crib table: added in your own
  crib, subtracted in an opponent's; moved by the cards kept), the kept
  four's expected margin in the play from your place at the table (from the
  shipped discard table), near the end the chance to count out first, and
  the net.
- A play: for each legal card, the points it scores now, the points you can
  expect over the rest of the play, and your expected margin over the
  opponents, from playing the hand out many times with the unseen cards
  dealt to the other hands consistently with what was played and who said
  go, and as likely as each seat's earlier plays make them (see
  `crib3.players.reading`); with a one-line reason ("leaves 21: a ten makes 31").

The `expert` player plays the coach's first option, so the advice is exactly
what the strongest bot would do. Both are deterministic for a given view.

This module ranks; the parts live apart: which refinements are on
(`crib3.players.style`), the play's look-ahead (`crib3.players.lookahead`,
dealing, and `crib3.players.playout`, playing one deal out), and the
reasons in words (`crib3.players.reasons`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from crib3.cards import Card
from crib3.engine import Play, SeatView
from crib3.engine.state import Phase
from crib3.players.analysis import (
    OPPONENT_CRIB_WEIGHT,
    DiscardOption,
    crib_value,
    discard_options,
    kept_play,
    place_of,
)
from crib3.players.endgame import (
    ENDGAME_NEED,
    PLAY_POINTS,
    first_chance,
    stakes,
)
from crib3.players.lookahead import ENDGAME, look_ahead
from crib3.players.reasons import discard_reason, play_reason
from crib3.players.rivals import rival_weights
from crib3.players.seatplay import PLACE_PLAY, dealer_reach
from crib3.players.style import CURRENT, PLAY_SAMPLES, WIN_BONUS, Style
from crib3.scoring import score_play

# What the rest of crib3 asks the coach for. `discard_reason` (the reasons
# live in `crib3.players.reasons`) and `WIN_BONUS` (a Style default, in
# `crib3.players.style`) are part of it: a review says each discard's why,
# and parts a play's margin into points and the chance to win.
__all__ = ["WIN_BONUS", "Advice", "PlayOption", "advise", "discard_reason", "rank_discards",
           "rank_plays"]


@dataclass(frozen=True, slots=True)
class PlayOption:
    """One legal card in the play, with what it is worth."""

    card: Card
    now: int  # points it scores as it is played
    expected: float  # your expected points over the rest of the play, `now` included
    margin: float  # expected points over the opponents' (see `rivals`) in the rest of the play
    reason: str
    # Near the end, the chance that you reach the target first in this hand
    # (`win`) and that an opponent does (`lose`), from the same playouts:
    # `margin` counts each as WIN_BONUS points, so that a review can say the
    # points and the chance apart (None: no playout, as for a forced card).
    win: float | None = None
    lose: float | None = None

    @property
    def points(self) -> float:
        """`margin` in points alone, without the win bonus."""
        if self.win is None or self.lose is None:
            return self.margin
        return self.margin - WIN_BONUS * (self.win - self.lose)

    @property
    def win_edge(self) -> float:
        """The chance to win first minus the chance an opponent does (0 when
        nobody can reach the target this hand, as far as it looked)."""
        if self.win is None or self.lose is None:
            return 0.0
        return self.win - self.lose


@dataclass(frozen=True, slots=True)
class Advice:
    """The coach's word on a view: what kind of choice, and the options,
    best first, each with a line to show."""

    kind: str  # "discard", "play" or "none"
    discards: tuple[DiscardOption, ...] = ()
    plays: tuple[PlayOption, ...] = ()
    # Why each discard, in the order of `discards` (a play's is its `reason`).
    discard_reasons: tuple[str, ...] = ()

    @property
    def best(self) -> Card | None:
        if self.discards:
            return self.discards[0].card
        if self.plays:
            return self.plays[0].card
        return None

    def lines(self, ascii: bool = False) -> list[str]:
        """One line an option: its numbers, then why."""
        return [f"{numbers}  {why}" for numbers, why in self.rows(ascii)]

    def rows(self, ascii: bool = False) -> list[tuple[str, str]]:
        """Each option as (its numbers, why): the main reason, then the risk,
        in that order for every option."""
        out = []
        best_out = self.discards[0].out if self.discards else None
        clears = [o.clear for o in self.discards if o.clear is not None]
        clears_differ = bool(clears) and max(clears) - min(clears) >= 0.005
        for o, why in zip(self.discards, self.discard_reasons or [""] * len(self.discards)):
            # The play's worth (and near the end the chance to count out),
            # where the expert weighs them, close the reason: the numbers
            # line must fit the coach's panel at 80 columns. `net` is said
            # as the sum of the columns beside it: in points alone, the
            # chances (which the ranking weighs as wins) said as chances.
            if o.play:
                why += f"; in the play {o.play:+.1f}"
            if o.out is not None:
                why += f"; you count out first {o.out:.0%}" + _change(o.out, best_out, o)
            if o.clear is not None and (clears_differ or 0.005 <= o.clear <= 0.995):
                # Only where it matters: a chance that is neither nil nor
                # sure (near the line), or one that tells the options apart
                # (not "0%" on every option from early in the game).
                why += f"; over the skunk line {o.clear:.0%}"
            points = o.hand + o.crib + o.play
            out.append((f"throw {o.card.label(ascii):<3} hand {o.hand:5.2f} "
                        f"crib {o.crib:+5.2f} net {points:5.2f}", why))
        best_win = self.plays[0].win if self.plays else None
        for p in self.plays:
            # Near the end the margin is said in points, and the chance to
            # win as a chance (with its change from the best), in the reason
            # (the numbers line must fit at 80 columns).
            why = p.reason
            if p.win is not None and p.lose is not None and \
                    max(p.win, p.lose, best_win or 0.0) >= 0.005:
                why += (f"; you win this hand {p.win:.0%}" + _change(p.win, best_win, p)
                        + f", an opponent {p.lose:.0%}")
            out.append((f"play {p.card.label(ascii):<3} now {p.now} expect {p.expected:5.2f} "
                        f"margin {p.points:+5.2f}", why))
        return out


def _change(chance: float, best: float | None, option: object) -> str:
    """An option's chance against the best option's: " (5% less than the
    best)", or nothing for the best itself or the same chance."""
    if best is None or abs(chance - best) < 0.005:
        return ""
    return f" ({abs(chance - best):.0%} {'less' if chance < best else 'more'} than the best)"


def advise(view: SeatView) -> Advice:
    """The ranked options for whatever `view.seat` must choose now."""
    if not view.my_turn or view.seat is None:
        return Advice("none")
    if view.phase == Phase.DISCARD:
        discards = tuple(rank_discards(view))
        return Advice("discard", discards=discards,
                      discard_reasons=tuple(discard_reason(o, view, discards)
                                            for o in discards))
    if view.phase == Phase.PLAY:
        return Advice("play", plays=tuple(rank_plays(view)))
    return Advice("none")


def rank_discards(view: SeatView, style: Style = CURRENT) -> list[DiscardOption]:
    """The five discards, best net first: with `style.peg_discard`, the
    play's worth of the kept four counts, and the crib given the kept four."""
    seat, dealer = view.seat, view.dealer
    assert seat is not None and dealer is not None
    place = place_of(seat, dealer) if style.peg_discard else None
    own = dealer == seat
    options = discard_options(view.hand, own_crib=own, place=place,
                              play_weight=style.play_weight)
    if style.rivals and not own:
        # The crib is the dealer's: it counts as much as he is the rival.
        lean = rival_weights(seat, view.scores, view.rules.target)[dealer] / OPPONENT_CRIB_WEIGHT
        if lean != 1.0:
            options = [replace(o, crib=o.crib * lean, net=o.net + o.crib * (lean - 1.0))
                       for o in options]
            options.sort(key=lambda o: (-o.net, o.card.index))
    rules = view.rules
    lines = rules.skunk_lines() if rules.skunks and style.skunk_discard else ()
    need = rules.target - view.scores[seat]
    near_line = any(0 < line - view.scores[seat] <= ENDGAME_NEED for line in lines)
    mine = need <= ENDGAME_NEED or near_line
    # The opponent dealing may count out with his crib (Style.deny_crib).
    deny = style.score_discard and style.deny_crib and not own \
        and rules.target - view.scores[dealer] <= ENDGAME_NEED
    if not style.score_discard or not (mine or deny):
        return options
    dealer_first = first_chance(dealer, dealer, view.scores, rules.target, style.seat_play) \
        if deny else 0.0
    weighed = []
    for o in options:
        if deny:
            loss = dealer_first * dealer_reach(rules.target - view.scores[dealer],
                                               crib_value(o.card, o.kept))
            o = replace(o, net=o.net - style.win_bonus * loss)
        if not mine:
            weighed.append(o)
            continue
        # With peg_out, the four kept peg as the discard table says (in
        # full, whatever play_weight the margin gets), and pegging out wins
        # before any count; without it, every four pegs alike, and only the
        # show's chance counts.
        at = place_of(seat, dealer)
        base = PLACE_PLAY[at] if style.seat_play else PLAY_POINTS
        mean = base
        if style.peg_out:
            mean = max(0.5, base + kept_play(o.kept, at))
        s = stakes(o.kept, view.hand, seat, dealer, view.scores, rules.target, lines,
                   o.crib if own else 0.0, mean, style.win_bonus, peg_first=style.peg_out,
                   by_place=style.seat_play, crib_spread=style.crib_spread and own)
        weighed.append(replace(o, net=o.net + s.bonus, out=s.win, clear=s.clear))
    weighed.sort(key=lambda o: (-o.net, o.card.index))
    return weighed


def rank_plays(view: SeatView, samples: int = PLAY_SAMPLES,
               style: Style = CURRENT) -> list[PlayOption]:
    """Every legal card, best expected margin first (see `_rank_plays`).
    The same view always gets the same answer, so the last few are kept:
    the coach asked at a table, the expert at the same seat, and a review
    of the game share the work."""
    try:
        return list(_rank_plays_kept(view, samples, style))
    except TypeError:  # a view holding something unhashable: work it out afresh
        return _rank_plays(view, samples, style)


@lru_cache(maxsize=64)
def _rank_plays_kept(view: SeatView, samples: int, style: Style) -> tuple[PlayOption, ...]:
    return tuple(_rank_plays(view, samples, style))


def _rank_plays(view: SeatView, samples: int, style: Style = CURRENT) -> list[PlayOption]:
    """Every legal card, best expected margin first.

    Cards of the same rank are one option (the suit matters only in the
    show, where every card of the hand counts whether it was played or
    not), a single option needs no look-ahead, and sampling stops early
    once the best option is clearly ahead (see `crib3.players.lookahead`)."""
    me = view.seat
    assert me is not None
    cards = [c.card for c in view.legal if isinstance(c, Play)]
    if not cards:
        return []
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, key=lambda c: c.index):
        by_rank.setdefault(card.rank, []).append(card)
    ranks = [group[0] for group in by_rank.values()]  # one card stands for its rank
    pile = list(view.pile)
    if len(ranks) == 1:  # forced: nothing to weigh
        totals: Mapping[Card, tuple[float, float, float | None, float | None]] = {
            ranks[0]: (0.0, 0.0, None, None)}
    else:  # at most PLAY_BUDGET playouts in all, so no decision keeps a table waiting
        scale = style.end_scale if max(view.scores) + ENDGAME >= view.rules.target else 1.0
        budget = min(samples, int(style.play_samples), int(style.play_budget * scale) // len(ranks))
        totals = look_ahead(view, me, ranks, pile, budget, style)
    options = []
    for stand_in in ranks:
        expected, margin, win, lose = totals[stand_in]
        for card in by_rank[stand_in.rank]:
            now_score = score_play((*pile, card))
            if len(ranks) == 1:
                expected = float(now_score.total)
            options.append(PlayOption(card, now_score.total, expected, margin,
                                      play_reason(now_score, view.count + card.value, view, card),
                                      win, lose))
    options.sort(key=lambda o: (-o.margin, -o.now, -o.card.value, o.card.index))
    return options
