"""Which of the expert's refinements are on: the `Style` switches and the
expert's settings (`CURRENT`). Each switch is a field so that `crib3 sim`
variants (`expert:name=value`, see `crib3.players.expert`) can weigh a
refinement against the expert without a code edit; the expert as it played
before them, the yardstick such a comparison is made against, is kept in
`crib3.players.expert` alone.
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
    use `CURRENT`.

    Each switch's comment says what it does and why it is on or off. The
    numbers behind each "why" (the games, seeds, intervals and think time),
    and the ways that were tried and not kept, are in
    assets/measurements/players.md, under the section named in quotes."""

    peg_discard: bool = True  # the discard counts the play and the crib given the kept four
    score_discard: bool = True  # near the end, the discard weighs the chance to count out
    read_plays: bool = True  # the look-ahead deals as the seats' earlier plays make likely
    # How much of the discard table's play margin counts in a discard's net.
    # The table measures greedy play, not the expert's, so its model is
    # known to be off; no weight did better than another, and a half keeps
    # such a term from counting in full ('What the play is worth in a
    # discard').
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
    # that belief, as an importance weight. Off: the belief fits standard
    # players' hidden hands far better than a blind deal, yet the play is
    # no stronger for it ('Reading the other seats'). Turned on for play,
    # warm its table first (`keeps.warm_keep_chances`): cold, the first
    # decisions work the fours out one at a time.
    read_keeps: float = 0.0
    # Near the end, each seat's play is its place's distribution
    # (`crib3.players.seatplay`: the seat that leads pegs least, the dealer
    # most, with long tails), the seat's own moved by the kept four's play
    # margin; off: every seat a Poisson around PLAY_POINTS. On because it is
    # the truer model and plays no worse ('The end of the game').
    seat_play: bool = True
    # When the dealer is an opponent near the end, a discard also weighs
    # his chance of counting out with the crib it gives him (his play, hand
    # and crib against what he needs, once nobody counting before him got
    # there) as a loss: to him the crib's points are the game, not a mean.
    # Off: no better, leaning worse ('The end of the game'); a lost game
    # weighs WIN_BONUS points, and the hand points it gives up may be worth
    # more than that says.
    deny_crib: bool = False
    # Near the end, the dealer's own crib counts in his chance to count out
    # as its distribution around its expected points, not as that mean
    # alone (needs seat_play). On because it is the truer model and plays no
    # worse ('The end of the game').
    crib_spread: bool = True
    # What a whole win (reaching the target first) counts as, in points of
    # margin, in the play's look-ahead and the end-of-game discard. A larger
    # or smaller bonus only trades points for wins as the bonus says, with
    # too few wins to tell the settings apart ('The look-ahead in the play').
    win_bonus: float = WIN_BONUS
    # Playouts for one play decision, all options together, and deals at
    # most (see PLAY_BUDGET, PLAY_SAMPLES): fields so a sweep needs no edit.
    play_budget: float = PLAY_BUDGET
    play_samples: float = PLAY_SAMPLES
    # Near the end (within ENDGAME of the target, where the look-ahead
    # counts the show and a win weighs WIN_BONUS), the play budget is this
    # many times larger (the deals still at most PLAY_SAMPLES: so three or
    # four options get more deals): there a playout's margin swings by a
    # whole win, and the choice is noisier. Only the end, because more
    # playouts help there and not mid-game; on as sound and not losing, for
    # a little more think time ('The look-ahead in the play').
    end_scale: float = 1.5
    # In the playouts, the seat's own later cards are its best on the deal
    # played out (it tries each rank it may play there and keeps the one
    # that ends best, the others playing the standard way), not the
    # standard choice: the look-ahead then values a card by what the seat
    # can make of it later, not by what a careless player would. It knows
    # the deal there, so it is optimistic about its own later cards alike
    # for every option. Off: no better, and dearer ('The look-ahead in the
    # play').
    search_self: bool = False
    # How the look-ahead reads the other seats' earlier plays this hand
    # (see `crib3.players.reading`): how often its model player makes the
    # standard player's choice, and the wary one; otherwise any legal card.
    # A sharper reading plays no stronger against two standard players
    # ('Reading the other seats').
    read_greedy: float = GREEDY_SHARE
    read_wary: float = WARY_SHARE
    # A seat the table says is the `standard` bot (its kind is public: the
    # menus and the seat labels show it, as a person knows the habits of
    # the people they play) is read as making the standard choice this
    # often, never the wary one; 0: read like anybody else. (The standard
    # bot's hands are sorted, so `analysis.greedy_code` is its choice
    # exactly; a little under 1 leaves room for a person seated under its
    # name.) It pays with the posterior's deals; the Reader's rejection
    # runs out of spare deals under a belief this sharp ('Reading the other
    # seats').
    read_standard: float = 0.97
    # And believed to have kept its best four (by expected hand, ranks
    # alone: `keeps.keep_chance`) this far (as `read_keeps`, for the
    # standard bot's seats alone; 0: as anybody). Not 1: the bot keeps by
    # suits too (a flush), which the ranks-alone keep does not see. As the
    # Reader's importance weight it is weaker: a few deals carry each
    # decision ('Reading the other seats').
    read_standard_keeps: float = 0.95
    # A standard bot's seat is dealt, in the look-ahead, only fours it would
    # have kept from five (the fifth, the card it threw, drawn from the
    # unseen cards too): the same belief as `read_standard_keeps` at 1, by
    # rejection rather than by weight, with the Reader's deals alone
    # (posterior off). Off: no stronger against two standard players, at
    # several times the expert's time a game ('Reading the other seats').
    deal_keeps: bool = False
    # The look-ahead draws each deal from every other seat's belief worked
    # out whole (`crib3.players.posterior`: each multiset of ranks it may
    # hold, weighed by the unseen cards, its gos, its earlier plays as
    # `read_greedy`/`read_wary`/`read_standard` model it, and its keep as
    # `read_keeps`/`read_standard_keeps` do), not blind deals kept by the
    # Reader's rejection: a sharp belief then costs no more deals, and
    # every deal counts in full. On: with the standard bot read sharply, it
    # plays stronger against two standard players than the Reader's deals
    # ('Reading the other seats'). Needs read_plays (off, the deals are
    # blind).
    posterior: bool = True
    # A seat the table says is the `expert` bot is read by the expert's own
    # habits, not as anybody: its plays as making the standard choice
    # `read_expert_greedy` of the time and the wary one `read_expert_wary`
    # (the shares that fit the expert's plays best; the usual shares fit
    # them no better than any legal card alike), and its keep as kept best
    # `read_expert_keeps` (it mostly keeps its best four by ranks alone,
    # and one of its other fours otherwise: the same weight as for the
    # standard bot follows). Off: read like anybody else. On because it
    # leans stronger; a keep read as certain is no better, and the keep not
    # read at all leans worse ('Reading an expert seat').
    read_expert: bool = True
    read_expert_greedy: float = 0.0
    read_expert_wary: float = 0.25
    read_expert_keeps: float = 0.95
    # ... and its plays by `reading.EXPERT_HABIT` rather than by the shares:
    # each legal card as likely as its points, its risk and its pips make
    # it for the expert (fitted to the expert's own plays, which it fits
    # better than the shares). Off: the belief about the hidden ranks is
    # truer, but the play is no stronger, and a little slower ('Reading an
    # expert seat'). Needs read_expert.
    expert_habit: bool = False
    # ... and its keep as chosen by the expected hand and the crib (its
    # throw's value in the crib table, +1 to its own crib, -0.5 to
    # another's: `keeps.crib_keep_chance`), not the hand alone: that is the
    # expert's own throw far more often, and the belief is truer overall.
    # Off: the play is weaker, since the belief is less true about fives,
    # the card most pegging turns on ('Reading an expert seat'). Needs
    # read_expert.
    expert_crib: bool = False
    # In the playouts, a seat the table says is the `expert` bot plays its
    # later cards the wary way (`rollout.wary_code`), the others the
    # standard way: the wary card is the expert's own card a little more
    # often than the standard one (and the shares that fit its plays best
    # give the standard choice none). On: it gains points mid-game, for a
    # little more think time ('Reading an expert seat'). (Not by
    # `search_self`'s playouts, which are off.)
    wary_experts: bool = True
    # A seat the table says is the `easy` bot plays and throws any legal
    # card alike (`crib3.players.easy`), and is read so: its plays and its
    # keep tell nothing. Off: read like anybody else.
    read_easy: bool = True


CURRENT = Style()
