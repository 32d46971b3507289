"""The expert's discard near the end plays for the game, not the points:
pegging out before anyone counts, the skunk lines when
skunks are on, in the long game and the short one.

Each position is hand-made so that the right choice differs from the one
that maximises the expected margin (`Style(score_discard=False)`)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from helpers import discard_view

from crib3.cards import parse_cards
from crib3.engine import Rules
from crib3.players.coach import Advice, rank_discards
from crib3.players.endgame import before_the_end, hand_spread, peg_race, play_at_least
from crib3.players.expert import DECEMBER_2026
from crib3.players.style import CURRENT

# Points alone: no chance to win or to clear a skunk line, both opponents alike.
POINTS_ONLY = replace(CURRENT, score_discard=False, rivals=False)


def _by_card(options):
    return {o.card.code: o for o in options}


def test_with_an_opponent_sure_to_count_out_first_the_dealer_keeps_cards_that_peg():
    """The dealer needs 6; the seat left of the dealer needs 1 and counts
    first, so the dealer's hand will almost never be counted: its one way
    to win is to peg 6 in the play, before anyone counts. It keeps A A 2 4,
    low cards that peg (and throws the 9), where the points would keep the
    fifteen A A 4 9 and throw the 2."""
    view = discard_view("AD AC 2H 4H 9S", seat=0, dealer=0, scores=(115, 120, 90))
    chosen = rank_discards(view)
    assert chosen[0].card.code == "9S"
    assert rank_discards(view, POINTS_ONLY)[0].card.code == "2H"
    assert rank_discards(view, DECEMBER_2026)[0].card.code == "2H"  # counted the show alone
    by = _by_card(chosen)
    assert by["9S"].out > by["2H"].out
    assert by["9S"].hand + by["9S"].crib + by["9S"].play < by["2H"].hand + by["2H"].crib \
        + by["2H"].play  # fewer points: it is the game that is worth more


def test_pegging_out_comes_before_the_show_whoever_counts_first():
    """The chance to go out counts the play in full, the show only when
    nobody counting earlier gets there; a seat that needs 1 usually pegs
    it before us."""
    spread = hand_spread(parse_cards("AD AC 2H 4H"), parse_cards("AD AC 2H 4H 9S"))
    peg = play_at_least(6, 3.5)
    assert before_the_end(spread, 6, first=0.0, play_mean=3.5) == pytest.approx(peg)
    assert before_the_end(spread, 6, first=1.0, play_mean=3.5) > peg
    assert peg_race(0, (115, 120, 90), 121) < 0.6 < peg_race(0, (115, 60, 90), 121)


def test_with_skunks_on_a_seat_likely_to_lose_keeps_the_four_that_get_over_91():
    """Left of the dealer at 80, with the dealer at 119: the game will
    probably end this hand, and 11 more points keep this seat over 91 (no
    skunk). With skunks on it keeps the diamond flush and its fifteen
    (A 4 5 9, throwing the 5 of hearts), surer of 11; with skunks off it
    goes by the points (A 5 5 9, throwing the 4)."""
    hand = "AD 4D 5H 5D 9D"
    on = rank_discards(discard_view(hand, 1, 0, (119, 80, 100), Rules(skunks=True)))
    off = rank_discards(discard_view(hand, 1, 0, (119, 80, 100), Rules(skunks=False)))
    assert on[0].card.code == "5H" and off[0].card.code == "4D"
    by = _by_card(on)
    assert by["5H"].clear > by["4D"].clear + 0.1
    assert all(o.clear is None for o in off)
    # The frozen expert never looks at the skunk lines.
    assert rank_discards(discard_view(hand, 1, 0, (119, 80, 100), Rules(skunks=True)),
                         DECEMBER_2026)[0].card.code == "4D"


def test_in_the_short_game_the_skunk_line_is_31():
    """To 61 with skunks on, at 22 with the dealer at 59: nine more points
    clear 31. It keeps 3 3 3 6, a sure 8 (a pair royal and fifteen two),
    not 3 3 3 4, a sure 6 with more on average."""
    hand = "3H 3D 3C 4C 6D"
    short = Rules(target=61, skunks=True)
    on = rank_discards(discard_view(hand, 1, 0, (59, 22, 40), short))
    assert on[0].card.code == "4C"
    assert rank_discards(discard_view(hand, 1, 0, (59, 22, 40), short),
                         POINTS_ONLY)[0].card.code == "6D"
    # Sure of 8 of the 9: the December 2026 play (a Poisson around 3) made
    # the ninth point all but certain; the leader's measured play is 0 a
    # quarter of the time (`Style.seat_play`), so it is likelier than not.
    assert _by_card(rank_discards(discard_view(hand, 1, 0, (59, 22, 40), short),
                                  replace(CURRENT, seat_play=False)))["4C"].clear > 0.9
    assert _by_card(on)["4C"].clear > 0.75 and _by_card(on)["4C"].clear > _by_card(on)["6D"].clear
    # Over the line already, or far from the end: points alone.
    assert rank_discards(discard_view(hand, 1, 0, (59, 32, 40), short))[0].card.code == "6D"
    assert rank_discards(discard_view(hand, 1, 0, (20, 22, 15), short))[0].card.code == "6D"


def test_the_coach_says_when_a_discard_is_about_the_skunk_line():
    view = discard_view("AD 4D 5H 5D 9D", 1, 0, (119, 80, 100), Rules(skunks=True))
    options = tuple(rank_discards(view))
    lines = Advice("discard", discards=options, discard_reasons=("",) * 5).lines()
    # Its chance to get there (65%; 81% when every seat pegged a Poisson around 3).
    assert f"over the skunk line {options[0].clear:.0%}" in lines[0]
    assert "over the skunk line 65%" in lines[0]


import random  # noqa: E402

from games import play_game  # noqa: E402
from helpers import shuffle_hidden  # noqa: E402
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from crib3.engine import State, apply, project  # noqa: E402
from crib3.engine.state import Phase  # noqa: E402
from crib3.players import make_player  # noqa: E402


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), pick=st.integers(0, 10_000), short=st.booleans(),
       shuffle=st.integers(0, 2**32))
def test_the_end_of_game_discard_is_a_function_of_the_view_alone(seed, pick, short, shuffle):
    """The honesty property where the new terms weigh in: discards
    late in games with skunks on. The hidden cards dealt differently,
    consistently with the view, never change the choice."""
    rules = Rules(target=61 if short else 121, skunks=True)
    game = play_game(("standard", "standard", "standard"), seed, rules)
    state = State()
    positions = []
    for event in game.events:
        state = apply(state, event)
        if state.phase == Phase.DISCARD and max(state.scores) >= rules.target - 40:
            positions += [(state, s) for s in range(3) if s in project(state, s).to_act]
    assume(positions)
    state, seat = positions[pick % len(positions)]
    other = shuffle_hidden(state, seat, random.Random(shuffle))
    view, other_view = project(state, seat), project(other, seat)
    assert view == other_view
    a = make_player("expert", random.Random(1)).choose(view)
    b = make_player("expert", random.Random(1)).choose(other_view)
    assert a == b


def test_the_discards_play_term_counts_at_the_styles_weight():
    """`Style.play_weight` scales the kept four's play margin in the net
    (the expert's is 0.5: the table measures greedy play); the chance to
    peg out near the end reads the table in full whatever the weight."""
    from crib3.players.analysis import kept_play, place_of

    view = discard_view("2S 2H 3S 3C KC", seat=0, dealer=0, scores=(0, 0, 0))
    full = _by_card(rank_discards(view, replace(CURRENT, play_weight=1.0)))
    half = _by_card(rank_discards(view))
    none = _by_card(rank_discards(view, replace(CURRENT, play_weight=0.0)))
    assert CURRENT.play_weight == 0.5
    for code, o in full.items():
        assert o.play == pytest.approx(kept_play(o.kept, place_of(0, 0)))
        assert half[code].play == pytest.approx(o.play / 2) and none[code].play == 0.0
        assert half[code].net == pytest.approx(o.net - o.play / 2)
    near = discard_view("AD AC 2H 4H 9S", seat=0, dealer=0, scores=(115, 120, 90))
    assert rank_discards(near, replace(CURRENT, play_weight=0.0))[0].card.code == "9S"


def test_left_of_the_dealer_pegs_little_so_it_keeps_the_hand_that_gets_there_alone():
    """Left of the dealer (who counts first) at 115 needs 6, with the next
    seat at 118. Both A 5 10 Q and 5 7 10 Q are a sure 4; 5 7 10 Q makes 6
    or more with 68% of the starters, A 5 10 Q with 60%. The seat that
    leads pegs 1.83 a hand, 2 or more only 47% of the time (measured,
    `crib3.players.seatplay`): the hand's own chance is worth more than the
    December 2026 guess (every seat a Poisson around 3: 2 or more 80%)
    made it, so it throws the ace, not the 7."""
    view = discard_view("AH 5C 7C 10D QD", seat=0, dealer=2, scores=(115, 118, 86))
    chosen = rank_discards(view)
    assert chosen[0].card.code == "AH"
    assert rank_discards(view, replace(CURRENT, seat_play=False))[0].card.code == "7C"
    by = _by_card(chosen)
    assert by["AH"].out > by["7C"].out


def test_each_place_pegs_as_measured_and_the_stretched_play_keeps_its_mean():
    """The seat that leads pegs least, the dealer most; moving a place's
    play to another mean stretches it, and its mean is (near enough) the
    mean asked for."""
    from crib3.players.seatplay import PLACE_PLAY, PLAY_TAIL, hand_at_least, play_at_least_at

    assert PLACE_PLAY[0] < PLACE_PLAY[1] < PLACE_PLAY[2]
    for place in range(3):
        assert play_at_least_at(0, place) == 1.0
        assert play_at_least_at(3, place) == pytest.approx(PLAY_TAIL[place][3])
        # The mean is the sum of the tail.
        assert sum(PLAY_TAIL[place]) - 1.0 == pytest.approx(PLACE_PLAY[place], abs=0.01)
        for mean in (1.0, 2.5, 4.5):
            stretched = sum(play_at_least_at(k, place, mean) for k in range(1, 40))
            assert stretched == pytest.approx(mean, rel=0.12)
        assert play_at_least_at(5, place, PLACE_PLAY[place] + 1) > play_at_least_at(5, place)
        assert hand_at_least(10, place) > hand_at_least(14, place) > 0.0
    assert play_at_least_at(2, 0) < 0.5 < play_at_least(2)


def test_the_crib_given_to_a_dealer_near_the_end_weighs_his_chance_to_count_out():
    """Left of the dealer at 92 (29 to go: out of reach this hand), the
    dealer at 102 needs 19 from his play, hand and crib. Keeping 4 4 Q Q
    (throwing the 8) is worth two more points of hand, but an 8 in his crib
    gives him a 24% chance of the game where a queen gives him 20%
    (`seatplay.dealer_reach`): with `Style.deny_crib` it throws a queen.
    Points alone (the expert: deny_crib is off, measured no better) throw
    the 8."""
    deny = replace(CURRENT, deny_crib=True)
    view = discard_view("4H 4D 8H QH QD", seat=0, dealer=2, scores=(92, 75, 102))
    assert rank_discards(view, deny)[0].card.code in ("QH", "QD")
    assert rank_discards(view)[0].card.code == "8H"
    # Far from the end: no such weight.
    assert rank_discards(discard_view("4H 4D 8H QH QD", 0, 2, (92, 75, 60)),
                         deny)[0].card.code == "8H"


def test_a_dealer_who_needs_more_than_his_average_counts_his_crib_as_a_spread():
    """The dealer at 106 needs 15, more than his play, hand and crib make
    on average, with the next seat at 104 counting first. How often he gets
    there is what counts, and a crib is spread wide (worth 4.4 on average,
    it makes 8 or more one time in six): counting the crib as its
    distribution, the 8 in his own crib (4.9 on average, keeping A 4 6 Q)
    gets there 37% of the time, the queen 34% (keeping A 4 6 8, a better
    hand); counting it as its mean alone (crib_spread off), the queen."""
    view = discard_view("AD 4D 6C 8H QD", seat=0, dealer=0, scores=(106, 104, 75))
    by = _by_card(rank_discards(view))
    assert rank_discards(view)[0].card.code == "8H"
    assert by["8H"].out > by["QD"].out
    assert rank_discards(view, replace(CURRENT, crib_spread=False))[0].card.code == "QD"


def test_the_crib_spread_keeps_the_cribs_mean():
    """The crib's distribution shifted to a mean keeps that mean, and a
    dealer's chance to count out grows with what he needs falling."""
    from crib3.players.seatplay import CRIB_MEAN, crib_at_least, dealer_reach

    for mean in (CRIB_MEAN, 3.0, 6.5):
        assert sum(crib_at_least(k, mean) for k in range(1, 40)) == pytest.approx(mean, abs=0.15)
    assert dealer_reach(25, 4.0) < dealer_reach(20, 4.0) < dealer_reach(20, 6.0) < 1.0
    assert dealer_reach(0, 4.0) == pytest.approx(1.0)
