"""Which of the expert's refinements are on: the `Style` switches, the
expert's settings (`CURRENT`) and the December 2026 expert's
(`DECEMBER_2026`), kept so that a duplicate head-to-head can show what
each refinement is worth. `crib3 sim` variants (`expert:name=value`, see
`crib3.players.expert`) change any field without a code edit.
"""

from __future__ import annotations

from dataclasses import dataclass

from crib3.players.reading import GREEDY_SHARE, WARY_SHARE

PLAY_SAMPLES = 128  # deals of the unseen cards to play out, at most
PLAY_BUDGET = 288  # playouts for one decision, all options together (4 ranks: 72 deals)
WIN_BONUS = 100.0  # what reaching the target first counts as, in points of margin


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
