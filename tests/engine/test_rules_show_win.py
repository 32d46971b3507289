"""rules.md R6 (the show), R7 (winning) and R8 (the optional rules), rule by
rule, at the engine level, from stacked decks. Unless a test says otherwise
the dealer is seat 2, so hands are counted 0, 1, 2, then seat 2's crib."""

from __future__ import annotations

import pytest
from helpers import (
    first_legal,
    hand_set_up,
    names,
    of_type,
    play_out,
    plays,
    resume,
    step_until,
)

from crib3.cards import parse_card, parse_cards
from crib3.engine import (
    Count,
    IllegalMove,
    Muggins,
    Phase,
    Play,
    Rules,
    legal_moves,
    next_automatic,
    to_act,
)
from crib3.engine.events import (
    CardPlayed,
    ClaimRefused,
    GameWon,
    HandCounted,
    HandEnded,
    HisHeels,
    MugginsCalled,
    MugginsDeclined,
    PlayerInfo,
)
from crib3.engine.rules import step
from crib3.scoring import FIFTEEN, FLUSH, NOBS, PAIR, RUN

C = parse_card

TENS = {0: "KS QS JS 10S", 1: "KH QH JH 10H", 2: "KD QD JD 10D"}


def in_show(state):
    return state.phase == Phase.SHOW


def to_show(state, scores=None):
    """Play the hand out (first legal card each turn) and stop where the show
    begins, before any hand is counted; then set `scores` if given."""
    events, state = play_out(state, until=lambda s: sum(s.held) == 1)
    more, state = step_until(state, first_legal(state), in_show)
    assert in_show(state) and state.show_step == 0
    if scores is not None:
        state = state._replace(scores=tuple(scores))
    return events + more, state


def show(state, scores=None):
    """The events of the show when it runs by itself (no human counts)."""
    _, state = to_show(state, scores)
    return resume(state)


def counted(events):
    return of_type(events, HandCounted)


def kinds_points(event, *kinds):
    return sum(i.points for i in event.items if i.kind in kinds)


# --- R6.1 the order of the show ---------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_R6_1_show_order_left_of_dealer_next_dealer_then_crib(dealer):
    _, state = hand_set_up(dealer, TENS, starter="5C")
    events, state = show(state)
    hands = counted(events)
    order = [(h.seat, h.crib) for h in hands]
    assert order == [((dealer + 1) % 3, False), ((dealer + 2) % 3, False),
                     (dealer, False), (dealer, True)]
    # each counts its four kept cards with the starter
    for h in hands[:3]:
        assert set(h.cards) == set(parse_cards(TENS[h.seat]))
        assert h.starter == C("5C")
    assert len(hands[3].cards) == 4
    assert isinstance(events[-1], HandEnded)


def test_R6_1_crib_is_the_dealt_card_and_discards_with_the_starter():
    _, state = hand_set_up(2, TENS, starter="5C", discards={0: "2S", 1: "3H", 2: "4D"},
                           crib_card="9C")
    events, _ = show(state)
    crib = counted(events)[3]
    assert crib.crib and crib.seat == 2
    assert set(crib.cards) == set(parse_cards("9C 2S 3H 4D"))
    # 9C 2S 3H 4D with 5C: a run of 4 (2-3-4-5) and one fifteen (9+2+4)
    assert kinds_points(crib, RUN) == 4
    assert kinds_points(crib, FIFTEEN) == 2
    assert crib.points == 6


# --- R6.2 the scores of a hand -----------------------------------------------------------------


def test_R6_2_twenty_nine_hand():
    kept = {0: "5H 5C 5S JD", 1: "KH QH 9H 8H", 2: "KC QC 9C 8C"}
    _, state = hand_set_up(2, kept, starter="5D")
    events, _ = show(state)
    h = counted(events)[0]
    assert h.seat == 0 and h.points == 29
    assert kinds_points(h, FIFTEEN) == 16
    assert kinds_points(h, PAIR) == 12
    assert kinds_points(h, NOBS) == 1


def test_R6_2_double_triple_and_double_double_runs():
    kept = {0: "3H 3D 3C 4S", 1: "3S 4H 4D 9C", 2: "4C 5H 6H 6D"}
    _, state = hand_set_up(2, kept, starter="5S", discards={0: "KD", 1: "QD", 2: "10D"},
                           crib_card="KC")
    events, _ = show(state)
    triple, double, double_double, _crib = counted(events)
    # triple run 3-3-3-4-5: 9 for runs, 6 for three of a kind = 15
    assert kinds_points(triple, RUN, PAIR) == 15
    assert [i.points for i in triple.items if i.kind == RUN] == [3, 3, 3]
    assert triple.points == 21  # and three fifteens (3+3+4+5)
    # double run 3-4-4-5 (9 does not help) = 8 with the pair
    assert kinds_points(double, RUN, PAIR) == 8
    assert double.points == 8
    # double-double run 4-5-5-6-6 = 16; and 4+5+6 four ways = 8
    assert kinds_points(double_double, RUN, PAIR) == 16
    assert double_double.points == 24


def test_R6_2_fifteens_each_distinct_combination():
    kept = {0: "7H 8C 8D KS", 1: "AH 2H 3C 9C", 2: "KC QC 9D 8S"}
    _, state = hand_set_up(2, kept, starter="7S", discards={0: "2S", 1: "3S", 2: "4S"})
    events, _ = show(state)
    h = counted(events)[0]
    # 7H 8C 8D KS with 7S: 7H+8C, 7H+8D, 7S+8C, 7S+8D are four fifteens;
    # pairs 7-7 and 8-8; no run (7-8 only)
    assert kinds_points(h, FIFTEEN) == 8
    assert kinds_points(h, PAIR) == 4
    assert h.points == 12


def test_R6_2_only_the_longest_run_counts_and_double_run_of_four():
    kept = {0: "2H 3C 4D 6S", 1: "3H 4C 5H 5D", 2: "KC QC 9D 8S"}
    _, state = hand_set_up(2, kept, starter="6D", discards={0: "KS", 1: "QS", 2: "JC"},
                           crib_card="10C")
    events, _ = show(state)
    short, double4 = counted(events)[:2]
    # 2-3-4 and 6-6 (no 5): one run of 3
    assert [i.points for i in short.items if i.kind == RUN] == [3]
    # 3-4-5-5-6: two runs of 4 and the pair = 10 (no runs of 3 counted)
    assert [i.points for i in double4.items if i.kind == RUN] == [4, 4]
    assert kinds_points(double4, RUN, PAIR) == 10


def test_R6_2_run_of_five_scores_five_only():
    kept = {0: "2H 3C 4D 5S", 1: "KH QH 9H 8H", 2: "KC QC 9C 8C"}
    _, state = hand_set_up(2, kept, starter="6D")
    events, _ = show(state)
    h = counted(events)[0]
    assert [i.points for i in h.items if i.kind == RUN] == [5]


def test_R6_2_three_of_a_suit_plus_the_starter_is_no_flush():
    kept = {0: "2H 4H 6H 8S", 1: "KS QS 9C 8C", 2: "KD QD 9D 8D"}
    _, state = hand_set_up(2, kept, starter="10H")
    events, _ = show(state)
    assert kinds_points(counted(events)[0], FLUSH) == 0


def test_R6_2_flush_in_hand_four_or_five_crib_only_five():
    # starter 9H: seat 0 holds four hearts (5 with the starter), seat 1 four
    # spades (4); the crib holds four clubs: no flush in the crib.
    kept = {0: "2H 4H 6H 8H", 1: "2S 4S 6S 8S", 2: "3D 10S QS KH"}
    _, state = hand_set_up(2, kept, starter="9H", discards={0: "3C", 1: "5C", 2: "7C"},
                           crib_card="KC")
    events, _ = show(state)
    h0, h1, h2, crib = counted(events)
    assert kinds_points(h0, FLUSH) == 5
    assert kinds_points(h1, FLUSH) == 4
    assert kinds_points(h2, FLUSH) == 0
    assert set(crib.cards) == set(parse_cards("KC 3C 5C 7C"))
    assert kinds_points(crib, FLUSH) == 0


def test_R6_2_crib_scores_a_five_card_flush():
    kept = {0: "2H 4H 6H 8H", 1: "2S 4S 6S 8S", 2: "3D 10S QS KH"}
    _, state = hand_set_up(2, kept, starter="9C", discards={0: "3C", 1: "5C", 2: "7C"},
                           crib_card="KC")
    events, _ = show(state)
    h0, h1, _, crib = counted(events)
    assert kinds_points(h0, FLUSH) == 4  # four in the hand, starter of another suit
    assert kinds_points(crib, FLUSH) == 5


def test_R6_2_nobs_jack_of_starters_suit_in_hand_or_crib():
    kept = {0: "JS 2H 4H 8D", 1: "JH 2S 4C 8H", 2: "3D 10S QS KH"}
    _, state = hand_set_up(2, kept, starter="6S", discards={0: "JC", 1: "3C", 2: "7C"},
                           crib_card="KC")
    events, _ = show(state)
    h0, h1, _, crib = counted(events)
    assert kinds_points(h0, NOBS) == 1  # jack of spades, starter a spade
    assert kinds_points(h1, NOBS) == 0  # jack of hearts
    assert kinds_points(crib, NOBS) == 0  # jack of clubs
    _, state = hand_set_up(2, kept, starter="6C", discards={0: "JC", 1: "3C", 2: "7C"},
                           crib_card="KC")
    events, _ = show(state)
    assert kinds_points(counted(events)[3], NOBS) == 1  # jack of clubs in the crib


# --- R6.3 the starter jack -------------------------------------------------------------------


def test_R6_3_starter_jack_is_never_nobs():
    kept = {0: "2H 4H 6H 8H", 1: "JS 2S 4S 6C", 2: "JD 10S QS KH"}
    events, state = hand_set_up(2, kept, starter="JH", discards={0: "3C", 1: "JC", 2: "7C"},
                                crib_card="KC")
    assert of_type(events, HisHeels)[0].points == 2
    more, _ = show(state)
    hands = counted(more)
    assert len(hands) == 4
    assert all(kinds_points(h, NOBS) == 0 for h in hands)
    assert kinds_points(hands[0], FLUSH) == 5  # the starter still counts otherwise


# --- R7 winning ----------------------------------------------------------------------------------


def test_R7_1_win_on_a_go():
    _, state = hand_set_up(2, {0: "KS 10D QC 9S", 1: "QH JD 10C 8H", 2: "8C AC 3D 9D"},
                           starter="5S", scores=(100, 110, 120))
    events, state = plays(state, "0:KS 1:QH 2:8C 2:AC")
    assert names(events)[-2:] == ["GoScored", "GameWon"]
    won = events[-1]
    assert (won.seat, won.scores) == (2, (100, 110, 121))
    assert state.phase == Phase.OVER and state.winner == 2
    assert next_automatic(state) is None and to_act(state) == ()
    with pytest.raises(IllegalMove):
        step(state, Play(0, C("10D")))


def test_R7_1_win_mid_count_on_a_pair_stops_the_play():
    _, state = hand_set_up(2, {0: "4S 4C 10D QC", 1: "4H JD 10C 8H", 2: "4D AC 3D 9D"},
                           starter="5S", scores=(0, 119, 0))
    events, state = plays(state, "0:4S 1:4H")
    assert names(events) == ["CardPlayed", "CardPlayed", "GameWon"]
    assert events[-1].seat == 1 and state.phase == Phase.OVER
    with pytest.raises(IllegalMove):
        step(state, Play(2, C("4D")))


def test_R7_1_win_on_his_heels_before_the_play():
    events, state = hand_set_up(0, TENS, starter="JC", scores=(120, 0, 0))
    assert names(events)[-3:] == ["StarterCut", "HisHeels", "GameWon"]
    assert events[-1].seat == 0 and events[-1].scores == (122, 0, 0)
    assert state.phase == Phase.OVER and not of_type(events, CardPlayed)


def test_R7_1_win_on_first_hand_counted_later_hands_not_counted():
    kept = {0: "5H 5C JD QS", 1: "KH QH 9H 8H", 2: "5D KC QC 9C"}
    _, state = hand_set_up(2, kept, starter="5S")
    _, state = to_show(state, scores=(115, 100, 120))  # the dealer is at 120
    events, state = resume(state)
    assert names(events) == ["HandCounted", "GameWon"]
    assert events[0].seat == 0 and events[0].points == 20
    assert events[1].seat == 0 and events[1].scores == (135, 100, 120)
    assert state.winner == 0 and state.phase == Phase.OVER


def test_R7_1_win_on_second_hand_counted_dealer_and_crib_not_counted():
    kept = {0: "2H 4C 6S 8D", 1: "5H 5C JD QS", 2: "5D KC QC 9C"}
    _, state = hand_set_up(2, kept, starter="5S")
    _, state = to_show(state, scores=(0, 110, 120))
    events, state = resume(state)
    assert [(e.seat, e.crib) for e in counted(events)] == [(0, False), (1, False)]
    assert isinstance(events[-1], GameWon) and events[-1].seat == 1


def test_R7_1_dealer_wins_on_the_crib():
    kept = {0: "2H 4C 6S 8D", 1: "AH 3C 7S 9D", 2: "2C 3D 7H 9S"}
    _, state = hand_set_up(2, kept, starter="5S", discards={0: "5H", 1: "5C", 2: "JD"},
                           crib_card="QS")
    _, state = to_show(state, scores=(0, 0, 110))
    events, state = resume(state)
    hands = counted(events)
    assert [(h.seat, h.crib) for h in hands][-1] == (2, True)
    assert state.scores[2] >= 121 and events[-1] == GameWon(
        seat=2, scores=state.scores, skunks=(0, 0, 0))
    assert 110 + hands[2].points < 121  # the dealer's hand alone did not win


def test_R7_2_points_are_recorded_as_earned_winner_above_target():
    kept = {0: "5H 5C JD QS", 1: "KH QH 9H 8H", 2: "5D KC QC 9C"}
    _, state = hand_set_up(2, kept, starter="5S")
    _, state = to_show(state, scores=(119, 0, 0))
    events, state = resume(state)
    assert events[-1] == GameWon(seat=0, scores=(139, 0, 0), skunks=(0, 0, 0))
    assert state.scores == (139, 0, 0)


def test_R7_2_winner_above_target_in_the_play():
    _, state = hand_set_up(2, {0: "4S 4C 10D QC", 1: "4H JD 10C 8H", 2: "4D AC 3D 9D"},
                           starter="5S", scores=(0, 0, 120))
    events, state = plays(state, "0:4S 1:4H 2:4D")  # pair royal: 6
    assert events[-1] == GameWon(seat=2, scores=(0, 2, 126), skunks=(0, 0, 0))


# --- R8.1 and R8.3 skunks -------------------------------------------------------------------------

GO_WIN = {0: "KS 10D QC 9S", 1: "QH JD 10C 8H", 2: "8C AC 3D 9D"}


def win_by_go(rules, losers):
    """Seat 2 reaches the target on a go; seats 0 and 1 hold `losers`."""
    scores = (*losers, rules.target - 1)
    _, state = hand_set_up(2, GO_WIN, starter="5S", rules=rules, scores=scores)
    events, state = plays(state, "0:KS 1:QH 2:8C 2:AC")
    won = events[-1]
    assert isinstance(won, GameWon) and won.seat == 2
    assert won.scores == (*losers, rules.target)
    return won, state


def test_R8_1_skunks_off_by_default():
    won, state = win_by_go(Rules(), (0, 50))
    assert won.skunks == (0, 0, 0) and state.skunks == (0, 0, 0)


@pytest.mark.parametrize("losers, skunks", [
    ((90, 91), (1, 0, 0)),
    ((60, 61), (2, 1, 0)),
    ((0, 120), (2, 0, 0)),
    ((91, 100), (0, 0, 0)),
])
def test_R8_1_skunk_below_91_double_below_61(losers, skunks):
    won, state = win_by_go(Rules(skunks=True), losers)
    assert won.skunks == skunks
    assert state.skunks == skunks


@pytest.mark.parametrize("losers, skunks", [
    ((30, 31), (1, 0, 0)),
    ((0, 60), (1, 0, 0)),  # no double skunk in the short game
    ((45, 59), (0, 0, 0)),
])
def test_R8_3_short_game_skunk_below_31_no_double(losers, skunks):
    won, _ = win_by_go(Rules(target=61, skunks=True), losers)
    assert won.skunks == skunks


def test_R8_3_short_game_target_is_61():
    won, state = win_by_go(Rules(target=61), (10, 20))
    assert won.scores == (10, 20, 61) and state.phase == Phase.OVER
    # the same position in a full game goes on
    _, state = hand_set_up(2, GO_WIN, starter="5S", scores=(10, 20, 60))
    events, state = plays(state, "0:KS 1:QH 2:8C 2:AC")
    assert not of_type(events, GameWon) and state.phase == Phase.PLAY


# --- R8.2 muggins ---------------------------------------------------------------------------------

BOT = "standard"
MUG_KEPT = {0: "5H 5C JD QS", 1: "2H 4C 6S 8D", 2: "AH 3C 7S 9D"}  # seat 0's hand: 20


def muggins_show(kinds, rules=None, kept=MUG_KEPT, **kw):
    players = tuple(PlayerInfo(f"P{i}", k) for i, k in enumerate(kinds))
    _, state = hand_set_up(2, kept, starter="5S", players=players,
                           rules=rules or Rules(muggins=True), **kw)
    _, state = to_show(state)
    events, state = resume(state)
    return events, state


def test_R8_2_muggins_off_humans_do_not_count():
    events, state = muggins_show(("human", "human", "human"), rules=Rules())
    assert len(counted(events)) == 4 and state.phase == Phase.SHUFFLE


def test_R8_2_human_counts_own_hand_bots_count_automatically():
    events, state = muggins_show(("human", BOT, BOT))
    assert events == [] and to_act(state) == (0,)
    assert {m for m in legal_moves(state, 0)} == {Count(0, n) for n in range(21)}
    more, state = step(state, Count(0, 20))
    assert counted(more)[0].points == 20 and counted(more)[0].missed == 0
    assert not of_type(more, MugginsCalled)
    assert [(h.seat, h.crib) for h in counted(more)] == [(0, False), (1, False), (2, False),
                                                          (2, True)]


def test_R8_2_claim_too_high_is_refused_count_again():
    # Refused, and (since claims are kept in the log) as an event that
    # changes nothing under the friendly rule: the same seat counts again.
    _, state = muggins_show(("human", BOT, BOT))
    events, after = step(state, Count(0, 21))
    assert events == [ClaimRefused(seat=0, claimed=21, holds=20, crib=False, card=None,
                                   taker=1, points=0, scores=state.scores)]
    assert after == state
    with pytest.raises(IllegalMove):
        step(state, Count(1, 20))  # not seat 1's count
    assert to_act(state) == (0,)


def test_R8_2_shortfall_taken_automatically_by_a_bot_on_the_left():
    _, state = muggins_show(("human", BOT, BOT))
    events, state = step(state, Count(0, 14))
    h = counted(events)[0]
    assert (h.seat, h.points, h.missed) == (0, 14, 6)
    i = events.index(h)
    called = events[i + 1]
    assert isinstance(called, MugginsCalled)
    assert (called.seat, called.victim, called.points) == (1, 0, 6)
    assert state.sources[1][4] == 6  # muggins points for seat 1
    assert state.sources[0][1] == 14


def test_R8_2_human_on_the_left_chooses_to_call_muggins():
    _, state = muggins_show(("human", "human", BOT))
    events, state = step(state, Count(0, 15))
    assert events[-1] == counted(events)[0]
    assert state.muggins_pending == (1, 0, 5)
    assert to_act(state) == (1,)
    assert set(legal_moves(state, 1)) == {Muggins(1, True), Muggins(1, False)}
    with pytest.raises(IllegalMove):
        step(state, Muggins(2, True))  # only the seat on the counter's left
    with pytest.raises(IllegalMove):
        step(state, Count(1, 0))  # the muggins comes first
    before = state.scores
    more, after = step(state, Muggins(1, True))
    assert isinstance(more[0], MugginsCalled) and more[0].points == 5
    assert after.scores == (before[0], before[1] + 5, before[2])
    assert after.muggins_pending is None
    # seat 1 is human too: it must now count its own hand
    assert not counted(more) and to_act(after) == (1,)


def test_R8_2_human_on_the_left_may_let_it_pass():
    _, state = muggins_show(("human", "human", BOT))
    _, state = step(state, Count(0, 15))
    scores = state.scores
    more, after = step(state, Muggins(1, False))
    assert isinstance(more[0], MugginsDeclined) and (more[0].seat, more[0].victim) == (1, 0)
    assert after.scores == scores and after.muggins_pending is None


def test_R8_2_human_dealer_counts_the_crib_and_left_seat_calls():
    kept = {0: "2H 4C 6S 8D", 1: "AH 3C 7S 9D", 2: "2C 3D 7H 9S"}
    players = (PlayerInfo("B0", BOT), PlayerInfo("B1", BOT), PlayerInfo("H2"))
    _, state = hand_set_up(2, kept, starter="5S", discards={0: "5H", 1: "5C", 2: "JD"},
                           crib_card="QS", players=players, rules=Rules(muggins=True))
    _, state = to_show(state)
    events, state = resume(state)
    assert [h.seat for h in counted(events)] == [0, 1]
    assert to_act(state) == (2,)
    hand_points = max(m.points for m in legal_moves(state, 2))
    more, state = step(state, Count(2, hand_points))
    assert to_act(state) == (2,) and not counted(more)[-1].crib
    crib_top = max(m.points for m in legal_moves(state, 2))
    refused, after = step(state, Count(2, crib_top + 1))
    assert [type(e) for e in refused] == [ClaimRefused] and after == state
    assert (refused[0].crib, refused[0].holds, refused[0].claimed) == (True, crib_top, crib_top + 1)
    more, state = step(state, Count(2, crib_top - 1))
    crib = counted(more)[0]
    assert crib.crib and crib.missed == 1
    called = of_type(more, MugginsCalled)[0]
    assert (called.seat, called.victim, called.points) == (0, 2, 1)


def test_R8_2_the_play_is_scored_automatically_with_muggins_on():
    _, state = hand_set_up(2, {0: "4S 4C 10D QC", 1: "4H JD 10C 8H", 2: "4D AC 3D 9D"},
                           starter="5S", rules=Rules(muggins=True))
    events, state = plays(state, "0:4S 1:4H 2:4D")
    assert [e.points for e in of_type(events, CardPlayed)] == [0, 2, 6]
    assert state.scores == (0, 2, 6)


def test_R8_2_muggins_points_can_win_the_game():
    players = (PlayerInfo("H0"), PlayerInfo("B1", BOT), PlayerInfo("B2", BOT))
    _, state = hand_set_up(2, MUG_KEPT, starter="5S", players=players,
                           rules=Rules(muggins=True))
    _, state = to_show(state, scores=(0, 118, 0))
    events, state = resume(state)
    assert events == [] and to_act(state) == (0,)
    events, state = step(state, Count(0, 14))
    assert names(events) == ["HandCounted", "MugginsCalled", "GameWon"]
    assert events[-1] == GameWon(seat=1, scores=(14, 124, 0), skunks=(0, 0, 0))
