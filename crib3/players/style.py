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
    head-to-head can show what each refinement is worth.

    Each switch's comment says what it does and why it is on or off; the
    measurements behind that (the games, seeds, intervals and think time)
    are in assets/measurements/players.md, under the section named."""

    peg_discard: bool = True  # the discard counts the play and the crib given the kept four
    score_discard: bool = True  # near the end, the discard weighs the chance to count out
    read_plays: bool = True  # the look-ahead deals as the seats' earlier plays make likely
    # How much of the discard table's play margin counts in a discard's net
    # (the table measures greedy play, not the expert's). No weight from
    # none to all measured ahead of the others; a half keeps a term whose
    # model is known to be off from counting in full (measured: 'What the
    # play is worth in a discard').
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
    # of standard players far better than the blind deal, but the play
    # measured no stronger (measured: 'Reading the other seats'). Turned on
    # for play, warm its table first (`keeps.warm_keep_chances`): cold, the
    # first decisions work the fours out one at a time.
    read_keeps: float = 0.0
    # Near the end, each seat's play is its place's measured distribution
    # (`crib3.players.seatplay`: the seat that leads pegs least, the dealer
    # most, with long tails), the seat's own moved by the kept four's play
    # margin; off: every seat a Poisson around PLAY_POINTS. On as sound and
    # not losing (measured: 'The end of the game').
    seat_play: bool = True
    # When the dealer is an opponent near the end, a discard also weighs
    # his chance of counting out with the crib it gives him (his play, hand
    # and crib against what he needs, once nobody counting before him got
    # there) as a loss: to him the crib's points are the game, not a mean.
    # Off: it measured no better, leaning worse (measured: 'The end of the
    # game'); a lost game weighs WIN_BONUS points, and the hand points it
    # gives up may be worth more than that says.
    deny_crib: bool = False
    # Near the end, the dealer's own crib counts in his chance to count out
    # as its measured distribution around its expected points, not as that
    # mean alone (needs seat_play). On as sound and not losing (measured:
    # 'The end of the game').
    crib_spread: bool = True
    # What a whole win (reaching the target first) counts as, in points of
    # margin, in the play's look-ahead and the end-of-game discard. Half the
    # bonus gained points and twice the bonus lost them, each trading points
    # for wins as the bonus says, with too few wins either way to tell them
    # apart; so it stays as it was (measured: 'The look-ahead in the play').
    win_bonus: float = WIN_BONUS
    # Playouts for one play decision, all options together, and deals at
    # most (see PLAY_BUDGET, PLAY_SAMPLES): fields so a sweep needs no edit.
    play_budget: float = PLAY_BUDGET
    play_samples: float = PLAY_SAMPLES
    # Near the end (within ENDGAME of the target, where the look-ahead
    # counts the show and a win weighs WIN_BONUS), the play budget is this
    # many times larger (the deals still at most PLAY_SAMPLES: so three or
    # four options get more deals): there a playout's margin swings by a
    # whole win, and the choice is noisier. A larger budget for every play
    # gained points near the end and nothing mid-game, so only the end gets
    # more; on new games the gain was not significant alone, so it is on as
    # sound and not losing, for a little more think time (measured: 'The
    # look-ahead in the play').
    end_scale: float = 1.5
    # In the playouts, the seat's own later cards are its best on the deal
    # played out (it tries each rank it may play there and keeps the one
    # that ends best, the others playing the standard way), not the
    # standard choice: the look-ahead then values a card by what the seat
    # can make of it later, not by what a careless player would. It knows
    # the deal there, so it is optimistic about its own later cards alike
    # for every option. Off: no better, and dearer (measured: 'The look-ahead
    # in the play').
    search_self: bool = False
    # How the look-ahead reads the other seats' earlier plays this hand
    # (see `crib3.players.reading`): how often its model player makes the
    # standard player's choice, and the wary one; otherwise any legal card.
    # A sharper reading measured no stronger against two standard players
    # (measured: 'Reading the other seats').
    read_greedy: float = GREEDY_SHARE
    read_wary: float = WARY_SHARE
    # A seat the table says is the `standard` bot (its kind is public: the
    # menus and the seat labels show it, as a person knows the habits of
    # the people they play) is read as making the standard choice this
    # often, never the wary one; 0: read like anybody else. (The standard
    # bot's hands are sorted, so `analysis.greedy_code` is its choice
    # exactly; a little under 1 leaves room for a person seated under its
    # name.) With the Reader's deals (posterior off) a sharp reading
    # measured no stronger: its rejection runs out of spare deals under a
    # belief this sharp (measured: 'Reading the other seats').
    read_standard: float = 0.97
    # And believed to have kept its best four (by expected hand, ranks
    # alone: `keeps.keep_chance`) this far (as `read_keeps`, for the
    # standard bot's seats alone; 0: as anybody). Not 1: the bot keeps by
    # suits too (a flush), which the ranks-alone keep does not see. With
    # the Reader's deals, as an importance weight, this measured weaker: a
    # few deals carried each decision (measured: 'Reading the other seats').
    read_standard_keeps: float = 0.95
    # A standard bot's seat is dealt, in the look-ahead, only fours it would
    # have kept from five (the fifth, the card it threw, drawn from the
    # unseen cards too): the same belief as `read_standard_keeps` at 1, by
    # rejection rather than by weight, with the Reader's deals alone
    # (posterior off). Off: no stronger against two standard players, at
    # several times the expert's time a game (measured: 'Reading the other
    # seats').
    deal_keeps: bool = False
    # The look-ahead draws each deal from every other seat's belief worked
    # out whole (`crib3.players.posterior`: each multiset of ranks it may
    # hold, weighed by the unseen cards, its gos, its earlier plays as
    # `read_greedy`/`read_wary`/`read_standard` model it, and its keep as
    # `read_keeps`/`read_standard_keeps` do), not blind deals kept by the
    # Reader's rejection: a sharp belief then costs no more deals, and
    # every deal counts in full. With the standard bot read sharply, it
    # measured stronger against two standard players than the Reader's
    # deals and no reading of the standard bot (measured: 'Reading the
    # other seats'). Needs read_plays (off, the deals are blind).
    posterior: bool = True
    # A seat the table says is the `expert` bot is read by the expert's own
    # habits, not as anybody: its plays as making the standard choice
    # `read_expert_greedy` of the time and the wary one `read_expert_wary`
    # (the shares that fit the expert's plays best; the usual shares fit
    # them no better than any legal card alike), and its keep as kept best
    # `read_expert_keeps` (it mostly keeps its best four by ranks alone,
    # and one of its other fours otherwise: the same weight as for the
    # standard bot follows). Off: read like anybody else. On: play pairs
    # against two expert-2026-12 lean its way; the keep read as certain was
    # no better, and the expert's keep not read at all leaned worse
    # (measured: 'Reading an expert seat').
    read_expert: bool = True
    read_expert_greedy: float = 0.0
    read_expert_wary: float = 0.25
    read_expert_keeps: float = 0.95
    # ... and its plays by `reading.EXPERT_HABIT` rather than by the shares:
    # each legal card as likely as its points, its risk and its pips make
    # it for the expert (fitted to the expert's own plays, which it fits
    # better than the shares). The belief about the hidden ranks is truer,
    # but the play no stronger against two expert-2026-12, and a little
    # slower; so off. Playouts that played an expert seat by the habit
    # (tried, not kept) did no better either (measured: 'Reading an expert
    # seat'). Needs read_expert.
    expert_habit: bool = False
    # ... and its keep as chosen by the expected hand and the crib (its
    # throw's value in the crib table, +1 to its own crib, -0.5 to
    # another's: `keeps.crib_keep_chance`), not the hand alone: that is the
    # expert's own throw far more often, and the belief is truer overall.
    # Yet the play is weaker, on two seeds: truer overall, it is less true
    # about fives, the card most pegging turns on (measured: 'Reading an
    # expert seat'). Off. Needs read_expert.
    expert_crib: bool = False
    # In the playouts, a seat the table says is the `expert` bot plays its
    # later cards the wary way (`rollout.wary_code`), the others the
    # standard way: the wary card is the expert's own card a little more
    # often than the standard one (and the shares that fit its plays best
    # give the standard choice none). Play pairs against two expert-2026-12
    # gain points mid-game, wins within their noise, for a little more
    # think time (measured: 'Reading an expert seat'). (Not by
    # `search_self`'s playouts, which are off.)
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
