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
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from crib3.cards import Card
from crib3.common.names import shown_name
from crib3.engine import Play, SeatView
from crib3.engine.state import Phase, turn_order
from crib3.players.analysis import (
    OPPONENT_CRIB_WEIGHT,
    PILE_MASK,
    DiscardOption,
    crib_value,
    discard_options,
    draw_hands,
    gift_risk,
    greedy_code,
    kept_play,
    min_values,
    pack_pile,
    pack_ranks,
    pile_points_code,
    place_of,
    push_rank,
    remove_at,
    sample_hands,
)
from crib3.players.endgame import (
    ENDGAME_NEED,
    PLAY_POINTS,
    first_chance,
    stakes,
)
from crib3.players.keeps import keep_weight, kept_with
from crib3.players.posterior import Posterior
from crib3.players.reading import (
    EXPERT_HABIT,
    GREEDY_SHARE,
    WARY_SHARE,
    Model,
    Reader,
    choices_by_seat,
)
from crib3.players.rivals import rival_weights
from crib3.players.rollout import wary_code
from crib3.players.seatplay import PLACE_PLAY, dealer_reach
from crib3.scoring import hand_points, score_play
from crib3.words.speech import say_play

PLAY_SAMPLES = 128  # deals of the unseen cards to play out, at most
PLAY_BUDGET = 288  # playouts for one decision, all options together (4 ranks: 72 deals)
WIN_BONUS = 100.0


@dataclass(frozen=True, slots=True)
class Style:
    """Which of the expert's refinements are on. The coach and `expert`
    use `CURRENT`; `expert-2026-12` (a level for `crib3 sim` alone) uses
    `DECEMBER_2026`, the expert as it was before them, so a duplicate
    head-to-head can show what each refinement is worth."""

    peg_discard: bool = True  # the discard counts the play and the crib given the kept four
    score_discard: bool = True  # near the end, the discard weighs the chance to count out
    read_plays: bool = True  # the look-ahead deals as the seats' earlier plays make likely
    # The playouts play `rollout.wary_code`, not the standard way. Off: it
    # measured no better than the standard way (a closer model of the
    # expert's play would need the expert's look-ahead in every playout).
    wary_playouts: bool = False
    # How much of the discard table's play margin counts in a discard's net
    # (the table measures greedy play, not the expert's). Measured by hand
    # margins on 27,000 paired deals (weights 0, 0.25, 0.5, 1): within 0.01
    # points a hand of each other, no weight significantly ahead; 0.5 halves
    # a term whose model is known to be off.
    play_weight: float = 0.5
    # Near the end, a discard's chance to win counts pegging out in the play
    # (which comes before any count), with the kept four's own pegging.
    peg_out: bool = True
    # With skunks on, a seat that may lose below a skunk line weighs getting over it.
    skunk_discard: bool = True
    # Points to the opponent ahead cost more than points to the one behind
    # (see `crib3.players.rivals`), in the play's margin and in the
    # opponent's crib; off: both opponents count alike (their mean).
    rivals: bool = True
    # How far the look-ahead believes the other seats kept their best four
    # (see `crib3.players.keeps`): 0, not at all (every four as likely);
    # 1, always the standard player's keep. Each deal played out counts by
    # that belief, as an importance weight. Off: it fits the hidden hands
    # of standard players far better than the blind deal, but at 0.8 it
    # measured no better (duplicate against the expert, 2,862 games: -0.6%
    # [-2.8, +1.7]). Turned on for play, warm its table first (0.44 s).
    read_keeps: float = 0.0
    # In the playouts, the seat itself plays its later cards the wary way
    # (`rollout.wary_code`), the others the standard way: the expert's own
    # later plays are more careful than the standard player's. Off: no
    # better (duplicate against the expert: +1.8% [-1.6, +5.2] over 1,338
    # games, then -2.7% [-5.5, 0.0] over 1,968).
    wary_self: bool = False
    # Near the end, each seat's play is its place's measured distribution
    # (`crib3.players.seatplay`: left of the dealer pegs 1.83 a hand, the
    # dealer 3.55, with long tails), the seat's own moved by the kept
    # four's play margin; off: every seat a Poisson around PLAY_POINTS.
    # On as sound and not losing: endgame pairs against the expert (3,000
    # games, 243 differing discards), +0.006 [-0.019, +0.031] wins a
    # differing discard.
    seat_play: bool = True
    # When the dealer is an opponent near the end, a discard also weighs
    # his chance of counting out with the crib it gives him (his play, hand
    # and crib against what he needs, once nobody counting before him got
    # there) as a loss: to him the crib's points are the game, not a mean.
    # Off: it measured no better, leaning worse (endgame pairs against the
    # expert, 2,000 games, 282 differing discards: -0.009 [-0.021, +0.003]
    # wins a differing discard); a lost game weighs WIN_BONUS points, and
    # the hand points it gives up may be worth more than that says.
    deny_crib: bool = False
    # Near the end, the dealer's own crib counts in his chance to count out
    # as its measured distribution around its expected points, not as that
    # mean alone (needs seat_play). On as sound and not losing: endgame
    # pairs against the expert (2,000 games, 62 differing discards),
    # +0.034 [-0.011, +0.080] wins a differing discard.
    crib_spread: bool = True
    # What a whole win (reaching the target first) counts as, in points of
    # margin, in the play's look-ahead and the end-of-game discard. Play
    # pairs against the expert (about 1,400 games each, every differing
    # play near the end): 50 gains +1.33 [+0.73, +1.93] points a differing
    # play (163) and -0.006 [-0.064, +0.052] wins; 200 loses -1.28 [-2.04,
    # -0.51] points (78) and +0.013 [-0.044, +0.069] wins: the trade is
    # as the bonus says, and the wins too few to tell; left at 100.
    win_bonus: float = WIN_BONUS
    # Playouts for one play decision, all options together, and deals at
    # most (see PLAY_BUDGET, PLAY_SAMPLES): fields so a sweep needs no edit.
    play_budget: float = PLAY_BUDGET
    play_samples: float = PLAY_SAMPLES
    # Near the end (within ENDGAME of the target, where the look-ahead
    # counts the show and a win weighs WIN_BONUS), the play budget is this
    # many times larger (the deals still at most PLAY_SAMPLES: so three or
    # four options get more deals, 128 and 108 rather than 96 and 72):
    # there a playout's margin swings by a whole win, and the choice is
    # noisier. Play pairs against the expert (1,268 games, seed 8000): a
    # budget of 432 for every play (`play_budget=432:play_samples=192`,
    # the deals capped at 128 all the same), the plays near
    # the end gain +0.196 [+0.037, +0.355] points a differing play (1,285),
    # +0.009 [-0.005, +0.022] wins; mid-game -0.017 [-0.180, +0.147] (1,092),
    # so only the end gets more (at 2x every play: end +0.261 [+0.089,
    # +0.434], mid +0.047 [-0.123, +0.217]). Confirmed on new games (seed
    # 9000, 1,519 games, 1,507 differing plays): +0.062 [-0.095, +0.220]
    # points, -0.007 [-0.019, +0.004] wins a differing play: not
    # significant alone, so on as sound and not losing (the two together
    # about +0.12 [+0.01, +0.24] points and no change in wins), for 6%
    # more play think time at the p95.
    end_scale: float = 1.5
    # In the playouts, the seat's own later cards are its best on the deal
    # played out (it tries each rank it may play there and keeps the one
    # that ends best, the others playing the standard way), not the
    # standard choice: the look-ahead then values a card by what the seat
    # can make of it later, not by what a careless player would. It knows
    # the deal there, so it is optimistic about its own later cards alike
    # for every option. Off: no better (play pairs against the expert, 933
    # games, 3,032 differing plays: -0.011 [-0.115, +0.094] points a
    # differing play, mid-game -0.115 [-0.254, +0.024]), and 1.6x the cost.
    search_self: bool = False
    # How the look-ahead reads the other seats' earlier plays this hand
    # (see `crib3.players.reading`): how often its model player makes the
    # standard player's choice, and the wary one; otherwise any legal card.
    # A sharper reading (0.85 and 0.05) measured no stronger against two
    # standard players: the same 5,636 games with each expert, +0.14% [-0.77,
    # +0.77] wins, -0.06 [-0.26, +0.14] final margin.
    read_greedy: float = GREEDY_SHARE
    read_wary: float = WARY_SHARE
    # A seat the table says is the `standard` bot (its kind is public: the
    # menus and the seat labels show it, as a person knows the habits of
    # the people they play) is read as making the standard choice this
    # often, never the wary one; 0: read like anybody else. (The standard
    # bot's hands are sorted, so `analysis.greedy_code` is its choice
    # exactly; 0.97 leaves room for a person seated under its name.) With
    # the Reader's deals (posterior off) 0.95 measured no stronger: its
    # rejection runs out of spare deals under a belief this sharp.
    read_standard: float = 0.97
    # And believed to have kept its best four (by expected hand, ranks
    # alone: `keeps.keep_chance`) this far (as `read_keeps`, for the
    # standard bot's seats alone; 0: as anybody). Not 1: the bot keeps by
    # suits too (a flush), which the ranks-alone keep does not see. With
    # the Reader's deals, as an importance weight, this measured weaker
    # (at 1 with read_standard 0.95: -3.2% [-5.0, -1.5] wins over 1,736
    # paired games): a few deals carried each decision.
    read_standard_keeps: float = 0.95
    # A standard bot's seat is dealt, in the look-ahead, only fours it would
    # have kept from five (the fifth, the card it threw, drawn from the
    # unseen cards too): the same belief as `read_standard_keeps` at 1, by
    # rejection rather than by weight, with the Reader's deals alone
    # (posterior off). Off: no stronger against two standard players (the
    # same 1,749 games with each expert: -1.37% [-3.05, +0.30] wins), at
    # 3.7x the expert's time a game.
    deal_keeps: bool = False
    # The look-ahead draws each deal from every other seat's belief worked
    # out whole (`crib3.players.posterior`: each multiset of ranks it may
    # hold, weighed by the unseen cards, its gos, its earlier plays as
    # `read_greedy`/`read_wary`/`read_standard` model it, and its keep as
    # `read_keeps`/`read_standard_keeps` do), not blind deals kept by the
    # Reader's rejection: a sharp belief then costs no more deals, and
    # every deal counts in full. With read_standard 0.97 and
    # read_standard_keeps 0.95, against the expert with the Reader's deals
    # and neither (the same 3,500 games against two standard players, seed
    # 12002): +2.54% [+1.38, +3.71] wins, +1.13 [+0.81, +1.44] final
    # margin; the expert against two standard players 45.9% [44.9, 46.9]
    # over 9,347 games (seed 12201), where it had 43.9% [43.5, 44.4] over
    # 43,052. Needs read_plays (off, the deals are blind).
    posterior: bool = True
    # A seat the table says is the `expert` bot is read by the expert's own
    # habits, not as anybody: its plays as making the standard choice
    # `read_expert_greedy` of the time and the wary one `read_expert_wary`
    # (the most likely shares for the expert's plays: over 1,509 of its
    # plays with a choice of ranks, 0 and 0.25; the usual 0.3 and 0.3 fit
    # them worse than any legal card alike), and its keep as kept best
    # `read_expert_keeps` (it keeps the best four by ranks alone 82% of the
    # time; a seat that does so 83% of the time and keeps one of its other
    # four fours otherwise weighs a four as 0.05 flat and 0.95 of
    # `keep_chance`, so 0.95, as for the standard bot). Off: read like
    # anybody else. Play pairs against two expert-2026-12 (10,202 differing
    # plays, two seeds): +0.0034 [-0.0002, +0.0070] wins and +0.04 points a
    # differing play; at 1.0 for the keep, no better (-0.0008 [-0.0064,
    # +0.0049] wins over 3,956); at 0, worse (seed 14600, 4,347 plays:
    # -0.051 [-0.135, +0.034] points, -0.0048 [-0.0100, +0.0003] wins).
    read_expert: bool = True
    read_expert_greedy: float = 0.0
    read_expert_wary: float = 0.25
    read_expert_keeps: float = 0.95
    # ... and its plays by `reading.EXPERT_HABIT` rather than by the shares:
    # each legal card as likely as its points, its risk and its pips make
    # it for the expert (fitted to 23,588 of its plays: -0.743 a play in
    # log-likelihood, where the shares score -0.933). The belief is truer
    # (at 16,837 real plays of all-expert games, the true hidden ranks of a
    # seat: -4.40 nats against -4.53) but the play no stronger: play pairs
    # against two expert-2026-12 (seed 14100, 3,552 differing plays),
    # +0.012 [-0.077, +0.101] points and -0.0020 [-0.0076, +0.0036] wins a
    # differing play; and +0.8 ms at the p95 among experts. So off.
    # Playouts that played an expert seat by the habit (tried, not kept) did
    # no better: its likeliest card, with the reading, -0.0040 [-0.0090,
    # +0.0011] wins a differing play (4,537 plays); a card drawn by its
    # chance, +0.0036 [-0.0022, +0.0094] (3,595) at twice the think time
    # (p95 29 ms). Needs read_expert.
    expert_habit: bool = False
    # ... and its keep as chosen by the expected hand and the crib (its
    # throw's value in the crib table, +1 to its own crib, -0.5 to
    # another's: `keeps.crib_keep_chance`), not the hand alone: over 5,600
    # of the expert's discards, that is its throw 88-94% of the time, the
    # hand alone 73-75%, and the belief is truer (-4.45 nats against
    # -4.53, as above). Yet the play is weaker, on two seeds: -0.132
    # [-0.225, -0.039] points and -0.0044 [-0.0100, +0.0013] wins a
    # differing play (seed 14300, 3,898 plays), -0.129 [-0.231, -0.027]
    # and -0.0061 [-0.0120, -0.0001] (seed 14400, 3,298). Truer overall,
    # it is less true about fives, the card most pegging turns on: a
    # dealer holds one at 22% of decisions, this belief says 19%, the hand
    # alone 22% (25 games). Off. Needs read_expert.
    expert_crib: bool = False
    # In the playouts, a seat the table says is the `expert` bot plays its
    # later cards the wary way (`rollout.wary_code`), the others the
    # standard way: over 1,509 of the expert's plays, the wary card is its
    # card more often than the standard one (55% against 54%, and the most
    # likely shares of the two are 0 and 0.25). Play pairs against two
    # expert-2026-12 (3,012 differing plays, two seeds): mid-game +0.21
    # [+0.06, +0.36] points a differing play, +0.09 [-0.02, +0.20] in all,
    # wins within their noise; about 1 ms more at the p95 among experts.
    # (Not by `search_self`'s playouts, which are off.)
    wary_experts: bool = True
    # A seat the table says is the `easy` bot plays and throws any legal
    # card alike (`crib3.players.easy`), and is read so: its plays and its
    # keep tell nothing. Off: read like anybody else.
    read_easy: bool = True


CURRENT = Style()
DECEMBER_2026 = Style(peg_discard=False, score_discard=False, read_plays=False, peg_out=False,
                      skunk_discard=False, rivals=False, seat_play=False,
                      deny_crib=False, crib_spread=False, end_scale=1.0, posterior=False,
                      read_standard=0.0, read_standard_keeps=0.0, read_expert=False,
                      expert_habit=False, expert_crib=False, wary_experts=False,
                      read_easy=False)


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
        for o, why in zip(self.discards, self.discard_reasons or [""] * len(self.discards)):
            # The play's worth (and near the end the chance to count out),
            # where the expert weighs them, close the reason: the numbers
            # line must fit the coach's panel at 80 columns.
            if o.play:
                why += f"; in the play {o.play:+.1f}"
            if o.out is not None:
                why += f"; counts out first {o.out:.0%}"
            if o.clear is not None:
                why += f"; over the skunk line {o.clear:.0%}"
            out.append((f"throw {o.card.label(ascii):<3} hand {o.hand:5.2f} "
                        f"crib {o.crib:+5.2f} net {o.net:5.2f}", why))
        for p in self.plays:
            # Near the end the margin is said in points, and the chance to
            # win apart (`margin` counts a whole win as WIN_BONUS points).
            edge = p.win_edge
            chance = f" win {edge:+.0%}" if abs(edge) >= 0.005 else ""
            out.append((f"play {p.card.label(ascii):<3} now {p.now} expect {p.expected:5.2f} "
                        f"margin {p.points:+5.2f}{chance}", p.reason))
        return out


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
        # before any count; without it, the December 2026 guess: every four
        # pegs alike, and only the show's chance counts.
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
    once the best option is clearly ahead (see `_clearly_best`)."""
    me = view.seat
    assert me is not None
    cards = [c.card for c in view.legal if isinstance(c, Play)]  # type: ignore[attr-defined]
    if not cards:
        return []
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, key=lambda c: c.index):
        by_rank.setdefault(card.rank, []).append(card)
    ranks = [group[0] for group in by_rank.values()]  # one card stands for its rank
    pile = list(view.pile)
    if len(ranks) == 1:  # forced: nothing to weigh
        totals = {ranks[0]: (0.0, 0.0, None, None)}
    else:  # at most PLAY_BUDGET playouts in all, so no decision keeps a table waiting
        scale = style.end_scale if max(view.scores) + ENDGAME >= view.rules.target else 1.0
        budget = min(samples, int(style.play_samples), int(style.play_budget * scale) // len(ranks))
        totals = _look_ahead(view, me, ranks, pile, budget, style)
    options = []
    for stand_in in ranks:
        expected, margin, win, lose = totals[stand_in]
        for card in by_rank[stand_in.rank]:
            now_score = score_play((*pile, card))
            if len(ranks) == 1:
                expected = float(now_score.total)
            options.append(PlayOption(card, now_score.total, expected, margin,
                                      _reason(now_score, view.count + card.value, view, card),
                                      win, lose))
    options.sort(key=lambda o: (-o.margin, -o.now, -o.card.value, o.card.index))
    return options


def _read_shares(kind: str, style: Style) -> Model:
    """How the look-ahead reads a seat of this kind: how often it makes the
    standard player's choice, and the wary one (see `Style.read_standard`)."""
    if kind == "standard" and style.read_standard > 0.0:
        return (style.read_standard, 0.0)
    if kind == "expert" and style.read_expert:
        if style.expert_habit:
            return EXPERT_HABIT
        return (style.read_expert_greedy, style.read_expert_wary)
    if kind == "easy" and style.read_easy:
        return (0.0, 0.0)
    return (style.read_greedy, style.read_wary)


def _keep_belief(kind: str, style: Style) -> float:
    """How far the look-ahead believes a seat of this kind kept its best four
    (see `Style.read_keeps`, `Style.read_standard_keeps`)."""
    if kind == "standard" and style.read_standard_keeps > 0.0:
        return style.read_standard_keeps
    if kind == "expert" and style.read_expert:
        return style.read_expert_keeps
    if kind == "easy" and style.read_easy:
        return 0.0
    return style.read_keeps


def _crib_belief(kind: str, dealer: bool, style: Style) -> float:
    """How the look-ahead believes a seat of this kind weighed the crib when
    it chose its four (see `keeps.crib_keep_chance`): the expert adds the
    crib table's value of its throw to its own crib, and takes
    OPPONENT_CRIB_WEIGHT of it off when the crib is another's."""
    if kind == "expert" and style.read_expert and style.expert_crib:
        return 1.0 if dealer else -OPPONENT_CRIB_WEIGHT
    return 0.0


MIN_SAMPLES = 24  # samples before an early stop is considered
READ_TRIES = 6  # deals drawn, at most, for each one the look-ahead plays out
KEEP_TRIES = 32  # deals drawn, at most, for one a standard seat would have kept (deal_keeps)
READ_SPARE = 2  # deals thrown away, at most, for each one it may play out
SAMPLE_BATCH = 8


def _look_ahead(view: SeatView, me: int, cards: list[Card], pile: list[Card],
                samples: int, style: Style = DECEMBER_2026
                ) -> dict[Card, tuple[float, float, float, float]]:
    """For each card: (expected points, expected margin, chance to win
    first, chance an opponent wins first) over playouts of
    the rest of the play, the unseen cards dealt to the other hands
    consistently with what they did, up to `samples` deals. With
    `style.read_plays`, the deals are drawn as likely as the other seats'
    earlier plays this hand make them (see `crib3.players.reading`)."""
    target = view.rules.target
    rng = _view_rng(view)
    others = {s: view.held[s] for s in range(3) if s != me and view.held[s]}
    floors = min_values(view.hand_gos)
    pool = sorted(view.unseen())
    show = None
    if max(view.scores) + ENDGAME >= target and view.starter is not None \
            and view.dealer is not None:
        d = view.dealer
        show = _Show(turn_order(d), view.starter, view.played,
                     (view.my_discard,) if view.my_discard is not None else ())
    points = {c: 0.0 for c in cards}
    wins = {c: 0 for c in cards}
    losses = {c: 0 for c in cards}
    margins: dict[Card, list[float]] = {c: [] for c in cards}
    shares = {s: _read_shares(view.players[s].kind, style) for s in others}
    reader = Reader(view.hand_plays, list(others), spare=READ_SPARE * samples, shares=shares) \
        if style.read_plays and not style.posterior else None
    read_whole = style.posterior and style.read_plays

    deal = draw_hands if style.read_plays else sample_hands  # as December 2026 drew

    def draw() -> dict[int, list[Card]] | None:
        return deal(pool, others, floors, rng) or deal(pool, others, {}, rng)

    played = {s: [c.rank for c in view.played[s]] for s in others}
    # Style.deal_keeps: a standard bot's seat is dealt only the cards it
    # would have kept, with the card it would have thrown (rejection).
    standard = [s for s in others if view.players[s].kind == "standard"] \
        if style.deal_keeps else []
    if standard:
        plain_draw = draw

        def draw() -> dict[int, list[Card]] | None:
            found = None
            for _ in range(KEEP_TRIES):
                found = plain_draw()
                if found is None:
                    return None
                taken = {c for hand in found.values() for c in hand}
                rest = [c for c in pool if c not in taken]
                if len(rest) < len(standard):
                    return found
                throws = rng.sample(rest, len(standard))
                chance = 1.0
                for s, thrown in zip(standard, throws):
                    chance *= kept_with([*played[s], *(c.rank for c in found[s])], thrown.rank)
                if chance > 0.0 and rng.random() <= chance:
                    return found
            return found
    choose = wary_code if style.wary_playouts else greedy_code
    mine = wary_code if style.wary_self else None
    # Style.wary_experts: a seat named as the expert plays the wary way.
    by_seat = {s: wary_code for s in others if view.players[s].kind == "expert"} \
        if style.wary_experts else None
    weights = rival_weights(me, view.scores, target) if style.rivals else _MEAN
    table = tuple(c.rank for c in pile)
    runs = 0
    # How far each other seat is believed to have kept its best four.
    keeps = {s: _keep_belief(view.players[s].kind, style) for s in others}
    crib_weights = {s: _crib_belief(view.players[s].kind, s == view.dealer, style)
                    for s in others}
    posterior = Posterior(pool, others, floors, played,
                          choices_by_seat(view.hand_plays, list(others)), shares, keeps,
                          crib_weights) \
        if read_whole and others else None
    # Each deal's importance weight, when the keeps are read (else None:
    # every deal counts 1; the posterior's deals hold the keeps already).
    dealt_weights: list[float] | None = [] \
        if posterior is None and any(k > 0.0 for k in keeps.values()) else None
    for _ in range(samples if others else 1):
        dealt: dict[int, list[Card]] = {}
        if others:
            if posterior is not None:
                found = posterior.deal(rng)
            else:
                found = reader.deal(draw, rng, READ_TRIES) if reader else draw()
            if found is None:
                break
            dealt = found
        crib_rest: list[Card] = []
        if show is not None:
            taken = {c for hand in dealt.values() for c in hand}
            crib_rest = rng.sample([c for c in pool if c not in taken], 4 - len(show.crib_known))
        runs += 1
        weight = 1.0
        if dealt_weights is not None:
            for s, hand in dealt.items():
                weight *= keep_weight([*played[s], *(c.rank for c in hand)], keeps[s])
            dealt_weights.append(weight)
        held = [tuple(view.hand) if s == me else tuple(dealt.get(s, ())) for s in range(3)]
        ranks = [pack_ranks(sorted(c.rank for c in hand)) for hand in held]  # sorted: fewer positions
        for card in cards:
            if style.search_self:
                got, margin, outcome = _play_out_searching(
                    card, me, ranks, held, table, view.count, view.scores, target, show,
                    crib_rest, choose, weights, style.win_bonus)
            else:
                got, margin, outcome = _play_out(card, me, ranks, held, table, view.count,
                                                 view.scores, target, show, crib_rest, choose,
                                                 weights, mine, style.win_bonus, by_seat)
            points[card] += weight * got if dealt_weights is not None else got
            margins[card].append(margin)
            if outcome:
                if outcome > 0:
                    wins[card] += weight
                else:
                    losses[card] += weight
        if runs >= MIN_SAMPLES and runs % SAMPLE_BATCH == 0 \
                and _clearly_best(margins, dealt_weights):
            break
    if dealt_weights is not None and runs:
        total = sum(dealt_weights)
        return {c: (points[c] / total,
                    sum(w * m for w, m in zip(dealt_weights, margins[c])) / total,
                    wins[c] / total, losses[c] / total) for c in cards}
    runs = max(runs, 1)
    return {c: (points[c] / runs, sum(margins[c]) / runs, wins[c] / runs, losses[c] / runs)
            for c in cards}


# An early stop: no other option may be better than the leader by more than
# INDIFFERENT points of margin, with Z standard errors of confidence.
Z, INDIFFERENT = 2.5, 0.1


def _clearly_best(margins: dict[Card, list[float]],
                  weights: Sequence[float] | None = None) -> bool:
    """Whether more samples could hardly change the choice: against every
    other option, the leader's mean margin (paired: the options were played
    out on the same deals) is ahead, or at worst behind by less than
    INDIFFERENT, with Z standard errors to spare. So it stops both when one
    card is clearly best and when the best few are as good as each other.
    With `weights` (each deal's importance weight), the means are weighed
    and the errors taken over the deals' effective number."""
    if weights is not None:
        return _clearly_best_weighed(margins, weights)
    means = {c: sum(m) / len(m) for c, m in margins.items()}
    best = max(means, key=means.__getitem__)
    n = len(margins[best])
    for card, values in margins.items():
        if card is best:
            continue
        diffs = [a - b for a, b in zip(margins[best], values)]
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean - Z * (variance / n) ** 0.5 <= -INDIFFERENT:
            return False
    return True


def _clearly_best_weighed(margins: dict[Card, list[float]], weights: Sequence[float]) -> bool:
    """`_clearly_best` with each deal counting by its weight."""
    total = sum(weights)
    if total <= 0.0:
        return False
    effective = total * total / sum(w * w for w in weights)
    if effective < 2:
        return False
    means = {c: sum(w * m for w, m in zip(weights, ms)) / total for c, ms in margins.items()}
    best = max(means, key=means.__getitem__)
    for card, values in margins.items():
        if card is best:
            continue
        diffs = [a - b for a, b in zip(margins[best], values)]
        mean = means[best] - means[card]
        variance = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs)) / total
        if mean - Z * (variance / (effective - 1)) ** 0.5 <= -INDIFFERENT:
            return False
    return True


# The opponents' points counted as their mean (the December 2026 margin).
_MEAN = (0.5, 0.5, 0.5)

# Who moves after seat s, in turn: left, then the one after, then s again.
_AFTER = (turn_order(0), turn_order(1), turn_order(2))


def _play_out(card: Card, me: int, ranks: list[int], held: Sequence[Sequence[Card]],
              table: tuple[int, ...], count: int, scores: Sequence[int], target: int,
              show: _Show | None = None, crib_rest: Sequence[Card] = (),
              choose: Callable[[int, int, int], int] = greedy_code,
              weights: Sequence[float] = _MEAN,
              mine: Callable[[int, int, int], int] | None = None,
              bonus: float = WIN_BONUS,
              by_seat: Mapping[int, Callable[[int, int, int], int]] | None = None
              ) -> tuple[int, float, int]:
    """Play `card`, then the rest of the play (this count and the next ones)
    with every seat playing by `choose` (the `standard` way unless told
    otherwise: see `crib3.players.rollout`), then, near the end of the
    game, the show. Returns (my points in the play, my margin over the
    opponents' points, each weighed by `weights`: their mean unless told
    otherwise, see `crib3.players.rivals`); reaching the target first is
    worth `bonus` (WIN_BONUS unless told), an opponent reaching it first
    costs as much; and
    who did (1: I did, -1: an opponent did, 0: nobody this hand).

    With `mine`, the seat `me` plays its later cards by `mine` instead;
    with `by_seat`, each seat named there by its own policy.

    The play needs ranks alone (suits count only in the show): `ranks` are
    the hands' ranks packed by `pack_ranks`, each sorted lowest first, `held`
    the hands as cards for the show, `table` the ranks of the count so far.
    The position is kept in ints (see `analysis.pack_ranks`)."""
    points = [0, 0, 0]
    policies = [choose, choose, choose]
    if mine is not None:
        policies[me] = mine
    if by_seat:
        for s, policy in by_seat.items():
            policies[s] = policy
    hands = list(ranks)
    hand = hands[me]
    shift = 0
    while (hand >> shift) & 15 != card.rank:
        shift += 4
    hands[me] = remove_at(hand, shift // 4)
    pile = push_rank(pack_pile(table), card.rank)
    count += card.value
    points[me] += pile_points_code(pile, count)
    need0, need1, need2 = target - scores[0], target - scores[1], target - scores[2]
    last = me
    winner = -1
    while True:
        if points[last] >= (need0, need1, need2)[last]:
            winner = last
            break
        mover = -1
        if count != 31:
            room = 31 - count
            for s in _AFTER[last]:
                hand = hands[s]
                if hand and (hand & 15) <= room:  # sorted: the lowest rank is the lowest value
                    mover = s
                    break
        if mover < 0:
            if count != 31:
                points[last] += 1  # the go, or the last card
                if points[last] >= (need0, need1, need2)[last]:
                    winner = last
                    break
            # R5.5: the next count is led left of the last card's player.
            for s in _AFTER[last]:
                if hands[s]:
                    mover = s
                    break
            if mover < 0:
                break  # every card is played
            pile = count = 0
        hand = hands[mover]
        index = policies[mover](hand, pile, count)
        chosen = (hand >> (4 * index)) & 15
        hands[mover] = remove_at(hand, index)
        pile = ((pile << 4) | chosen) & PILE_MASK
        count += chosen if chosen < 10 else 10
        points[mover] += pile_points_code(pile, count)
        last = mover
    margin = points[me] - (weights[0] * points[0] + weights[1] * points[1]
                           + weights[2] * points[2] - weights[me] * points[me])
    if winner < 0 and show is not None:
        winner = _show_winner(show, held, crib_rest, [scores[s] + points[s] for s in range(3)],
                              target)
    if winner >= 0:
        margin += bonus if winner == me else -bonus
        return points[me], margin, 1 if winner == me else -1
    return points[me], margin, 0


def _play_out_searching(card: Card, me: int, ranks: list[int],
                        held: Sequence[Sequence[Card]], table: tuple[int, ...], count: int,
                        scores: Sequence[int], target: int, show: _Show | None,
                        crib_rest: Sequence[Card], choose: Callable[[int, int, int], int],
                        weights: Sequence[float], bonus: float) -> tuple[int, float, int]:
    """`_play_out` with the seat `me` choosing each later card as the best
    on this deal (Style.search_self): every rank it may play is tried and
    the one whose playout ends with the best margin (a win counting
    `bonus`) is kept; the other seats play by `choose`."""
    hands = list(ranks)
    hand = hands[me]
    shift = 0
    while (hand >> shift) & 15 != card.rank:
        shift += 4
    hands[me] = remove_at(hand, shift // 4)
    pile = push_rank(pack_pile(table), card.rank)
    count += card.value
    points = [0, 0, 0]
    points[me] += pile_points_code(pile, count)
    needs = (target - scores[0], target - scores[1], target - scores[2])

    def finish(points: list[int], winner: int) -> tuple[int, float, int]:
        margin = points[me] - (weights[0] * points[0] + weights[1] * points[1]
                               + weights[2] * points[2] - weights[me] * points[me])
        if winner < 0 and show is not None:
            winner = _show_winner(show, held, crib_rest,
                                  [scores[s] + points[s] for s in range(3)], target)
        if winner >= 0:
            margin += bonus if winner == me else -bonus
            return points[me], margin, 1 if winner == me else -1
        return points[me], margin, 0

    def go_on(hands: list[int], pile: int, count: int, points: list[int], last: int
              ) -> tuple[int, float, int]:
        while True:
            if points[last] >= needs[last]:
                return finish(points, last)
            mover = -1
            if count != 31:
                room = 31 - count
                for s in _AFTER[last]:
                    hand = hands[s]
                    if hand and (hand & 15) <= room:
                        mover = s
                        break
            if mover < 0:
                if count != 31:
                    points[last] += 1  # the go, or the last card
                    if points[last] >= needs[last]:
                        return finish(points, last)
                for s in _AFTER[last]:
                    if hands[s]:
                        mover = s
                        break
                if mover < 0:
                    return finish(points, -1)  # every card is played
                pile = count = 0
            hand = hands[mover]
            if mover == me:
                indices = []
                code, index, previous, room = hand, 0, -1, 31 - count
                while code:
                    rank = code & 15
                    if rank != previous and (rank if rank < 10 else 10) <= room:
                        indices.append(index)
                    previous = rank
                    code >>= 4
                    index += 1
                if len(indices) > 1:
                    best: tuple[int, float, int] | None = None
                    for index in indices:
                        chosen = (hand >> (4 * index)) & 15
                        branch = list(hands)
                        branch[me] = remove_at(hand, index)
                        after = ((pile << 4) | chosen) & PILE_MASK
                        new_count = count + (chosen if chosen < 10 else 10)
                        got = list(points)
                        got[me] += pile_points_code(after, new_count)
                        result = go_on(branch, after, new_count, got, me)
                        if best is None or result[1] > best[1]:
                            best = result
                    assert best is not None
                    return best
                index = indices[0]
            else:
                index = choose(hand, pile, count)
            chosen = (hand >> (4 * index)) & 15
            hands[mover] = remove_at(hand, index)
            pile = ((pile << 4) | chosen) & PILE_MASK
            count += chosen if chosen < 10 else 10
            points[mover] += pile_points_code(pile, count)
            last = mover

    return go_on(hands, pile, count, points, me)


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
    """Why play `card`: its main reason (what it scores now, or that it wins),
    then its risk (what it leaves the next player), in that order for every
    option, so the options read alike."""
    total = getattr(now, "total", 0)
    said = say_play(now)  # type: ignore[arg-type]
    wins = view.seat is not None and view.scores[view.seat] + total >= view.rules.target
    if wins:
        return f"reaches {view.rules.target}: wins the game; nothing left to risk"
    main = said or "no points now"
    if new_count == 31:
        return f"{main}; the count starts again"
    risk = gift_risk(new_count)
    if risk is None and not view.pile and card.value < 5:
        risk = "a lead under 5: nobody can make 15"
    if risk is None and view.pile and view.pile[-1].rank == card.rank \
            and new_count + card.value <= 31:  # a pair invites a pair royal
        risk = f"a third {_rank_name(card)} would be six for the next player"
    return f"{main}; {risk or 'nothing easy for the next player'}"


def _rank_name(card: Card) -> str:
    return {1: "ace", 11: "jack", 12: "queen", 13: "king"}.get(card.rank, str(card.rank))


def discard_reason(option: DiscardOption, view: SeatView,
                    options: Sequence[DiscardOption]) -> str:
    """Why throw `option.card`: what the four kept are sure of already (the
    main reason), then what the card does in the crib (the risk, or the
    gain in your own crib), next to the other cards you might throw."""
    sure = _sure_points(option.kept)
    if sure:
        said = ", ".join(words for words, _ in sure)
        main = f"keeps {sum(p for _, p in sure)} sure: {said}"
    else:
        main = "keeps nothing sure"
    rank = _rank_name(option.card)
    article = "an" if rank in ("ace", "8") else "a"
    best = max(o.crib for o in options)
    most = option.crib >= best - 0.1  # as good for the crib as any other card
    if view.dealer == view.seat:
        kind = "the most" if most else "less" if option.crib < best - 1 else "nearly the most"
        risk = f"{article} {rank} gives your crib {kind} ({option.crib:+.1f})"
    else:
        whose = f"{shown_name(view.name(view.dealer), 12)}'s" if view.dealer is not None \
            else "the"
        kind = "the safest" if most else "a gift" if option.crib < best - 1 else "fairly safe"
        risk = f"{article} {rank} is {kind} in {whose} crib ({option.crib:+.1f})"
    return f"{main}; {risk}"


def _sure_points(kept: Sequence[Card]) -> list[tuple[str, int]]:
    """What four kept cards score before any starter, in words and points."""
    from itertools import combinations

    out: list[tuple[str, int]] = []
    fifteens = sum(1 for size in (2, 3, 4) for combo in combinations(kept, size)
                   if sum(c.value for c in combo) == 15)
    if fifteens:
        out.append((f"fifteen {2 * fifteens}", 2 * fifteens))
    pairs = sum(1 for a, b in combinations(kept, 2) if a.rank == b.rank)
    if pairs:
        out.append(({1: "a pair", 2: "two pairs", 3: "a pair royal", 6: "four of a kind"}
                    .get(pairs, f"{pairs} pairs"), 2 * pairs))
    for length in (4, 3):
        runs = sum(1 for combo in combinations(kept, length)
                   if len({c.rank for c in combo}) == length
                   and max(c.rank for c in combo) - min(c.rank for c in combo) == length - 1)
        if runs:
            out.append((f"a run of {length}" if runs == 1 else f"{runs} runs of {length}",
                        runs * length))
            break
    if len({c.suit for c in kept}) == 1:
        out.append(("a flush", 4))
    return out
