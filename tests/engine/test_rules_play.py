"""rules.md R5 (the play, with the three-player go rules), rule by rule, at
the engine level. Every position is dealt from a stacked deck; the dealer is
seat 2 unless a test says otherwise, so seat 0 leads and turns go 0, 1, 2."""

from __future__ import annotations

import pytest
from helpers import hand_set_up, names, of_type, plays

from crib3.cards import parse_card
from crib3.engine import IllegalMove, Phase, Play, legal_moves, to_act
from crib3.engine.events import (
    CardPlayed,
    CountReset,
    GoSaid,
    GoScored,
    HandCounted,
)
from crib3.engine.rules import step
from crib3.scoring import FIFTEEN, PAIR, RUN, THIRTY_ONE

C = parse_card


def setup(kept, dealer=2, starter="5S", **kw):
    events, state = hand_set_up(dealer, kept, starter, **kw)
    assert state.phase == Phase.PLAY
    return state


def played(events):
    """(seat, card, points) for each card played."""
    return [(e.seat, str(e.card), e.points) for e in of_type(events, CardPlayed)]


def point_list(events):
    return [e.points for e in of_type(events, CardPlayed)]


def flow(events):
    """A compact trace of the play: 'P0:KS', 'G1' (go said), 'S2+1' (go
    scored), 'L2+1' (last card), 'R0' (reset, leader 0)."""
    out = []
    for e in events:
        if isinstance(e, CardPlayed):
            out.append(f"P{e.seat}:{e.card}" + (f"+{e.points}" if e.points else ""))
        elif isinstance(e, GoSaid):
            out.append(f"G{e.seat}")
        elif isinstance(e, GoScored):
            out.append(("L" if e.last_card else "S") + f"{e.seat}+{e.points}")
        elif isinstance(e, CountReset):
            out.append(f"R{e.leader}")
    return out


# --- R5.1 the lead and the turn ------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_R5_1_player_left_of_dealer_leads(dealer):
    state = setup({0: "KS 10D QC 9S", 1: "QH JD 10C 8H", 2: "8C AC 3D 9D"}, dealer=dealer)
    leader = (dealer + 1) % 3
    assert to_act(state) == (leader,)
    for seat in range(3):
        if seat != leader:
            with pytest.raises(IllegalMove):
                step(state, Play(seat, state.hands[seat][0]))


def test_R5_1_turns_pass_to_the_left():
    state = setup({0: "KS 10D QC 9S", 1: "QH JD 10C 8H", 2: "8C AC 3D 9D"}, dealer=0)
    # dealer 0: seat 1 leads, then 2, then 0
    _, state = plays(state, "1:QH")
    assert to_act(state) == (2,)
    with pytest.raises(IllegalMove):
        step(state, Play(0, C("KS")))
    _, state = plays(state, "2:3D")
    assert to_act(state) == (0,)


# --- R5.2 must play if possible; go; no cards: skipped -----------------------------------


def test_R5_2_must_play_a_card_that_keeps_count_at_or_under_31():
    state = setup({0: "KS 10D QC 9S", 1: "QH JD 10C 8H", 2: "8C AC 3D 9D"})
    _, state = plays(state, "0:KS 1:QH")
    # count 20: seat 2 holds 8C AC 3D 9D; 9D would make 29, all fit
    assert {m.card for m in legal_moves(state, 2)} == set(map(C, ["8C", "AC", "3D", "9D"]))
    _, state = plays(state, "2:9D")  # 29
    # seat 0 holds 10D QC 9S: nothing fits, so the engine says go for it;
    # seat 1 likewise; seat 2 must play its ace (it can)
    assert to_act(state) == (2,)
    assert [m.card for m in legal_moves(state, 2)] == [C("AC")]
    with pytest.raises(IllegalMove):
        step(state, Play(2, C("3D")))  # 32


def test_R5_2_go_is_said_once_per_count_by_a_player_who_cannot_play():
    state = setup({0: "10S QS JS 4S", 1: "10H AH AD 2C", 2: "9C KD 5D 7H"})
    events, state = plays(state, "0:10S 1:10H 2:9C 1:AH 1:AD")
    assert flow(events) == ["P0:10S", "P1:10H+2", "P2:9C", "G0", "P1:AH", "G2", "P1:AD+4", "R2"]
    gos = of_type(events, GoSaid)
    assert [(g.seat, g.count) for g in gos] == [(0, 29), (2, 30)]


def test_R5_2_player_with_no_cards_is_skipped_silently():
    # Seat 1 plays out its cards in the first two counts, then is skipped
    # without a go; the lead of count 3 passes over it (R5.5).
    state = setup({0: "10S QS JS 4S", 1: "10H AH AD 2C", 2: "9C KD 5D 7H"})
    events, state = plays(state, "0:10S 1:10H 2:9C 1:AH 1:AD")
    more, state = plays(state, "2:KD 0:QS 1:2C")
    assert state.hands[1] == ()
    assert to_act(state) == (2,)  # seat 2 next, as usual
    more2, state = plays(state, "2:5D")
    assert to_act(state) == (0,)
    more3, state = plays(state, "0:4S")  # 31
    assert flow(more3) == ["P0:4S+2", "R2"]  # seat 1, left of seat 0, holds nothing
    more4, state = plays(state, "2:7H")
    assert to_act(state) == (0,)  # seat 1 is passed over, no go for it
    more5, state = plays(state, "0:JS")
    everything = events + more + more2 + more3 + more4 + more5
    assert all(g.seat != 1 for g in of_type(everything[len(events):], GoSaid))
    assert flow(more4 + more5)[:2] == ["P2:7H", "P0:JS"]
    assert flow(more5)[1] == "L0+1"


# --- R5.3 a count ends only when nobody can play ------------------------------------------


def test_R5_3_last_player_keeps_playing_alone():
    state = setup({0: "KS 10D QC 9S", 1: "QH JD 10C 8H", 2: "8C AC 3D 9D"})
    events, state = plays(state, "0:KS 1:QH 2:8C")
    # count 28: seats 0 and 1 cannot play and say go; the count does NOT end
    # when play comes back to seat 2 (the literal three-handed reading)
    assert flow(events) == ["P0:KS", "P1:QH", "P2:8C", "G0", "G1"]
    assert not of_type(events, GoScored)
    assert to_act(state) == (2,)
    more, state = plays(state, "2:AC")  # 29, and 3D would make 32
    assert flow(more) == ["P2:AC", "S2+1", "R0"]


def test_R5_3_last_player_alone_plays_several_cards_to_31():
    state = setup({0: "KS 10D QC 9S", 1: "QH JD 10C 8H", 2: "8C AC 2H 9D"})
    events, state = plays(state, "0:KS 1:QH 2:8C")
    assert to_act(state) == (2,)
    more, state = plays(state, "2:AC")
    assert to_act(state) == (2,)
    more2, state = plays(state, "2:2H")
    assert flow(more + more2) == ["P2:AC", "P2:2H+2", "R0"]


def test_R5_3_after_a_go_play_continues_left_among_those_who_can():
    state = setup({0: "KS 4D AD 9S", 1: "QH 10C 8H 7H", 2: "5C AC 6D 9D"})
    events, state = plays(state, "0:KS 1:QH 2:5C 0:4D")  # 29
    assert flow(events)[-1] == "G1"  # seat 1 holds nothing under 3
    assert to_act(state) == (2,)
    more, state = plays(state, "2:AC")  # 30
    assert to_act(state) == (0,)  # seat 1 has said go: seat 0 is next who can
    more2, state = plays(state, "0:AD")  # 31: 2 for 31, 2 for the pair
    assert flow(more + more2) == ["P2:AC", "P0:AD+4", "R1"]
    assert of_type(more + more2, GoSaid) == []  # seat 1 says go only once


# --- R5.4 the go, 31 and the last card ------------------------------------------------------


def test_R5_4_go_point_below_31_is_not_a_last_card_point():
    state = setup({0: "KS 10D QC 9S", 1: "QH JD 10C 8H", 2: "8C AC 3D 9D"})
    events, state = plays(state, "0:KS 1:QH 2:8C 2:AC")
    go = of_type(events, GoScored)
    assert len(go) == 1
    assert (go[0].seat, go[0].points, go[0].last_card) == (2, 1, False)
    assert state.scores == (0, 0, 1)


def test_R5_4_31_mid_count_scores_2_and_nothing_more_then_resets():
    state = setup({0: "KS 5S 9S 8S", 1: "QH 7H 8H 9H", 2: "6D 10D 7D 8D"}, starter="2C")
    events, state = plays(state, "0:KS 1:QH 2:6D 0:5S")
    assert flow(events) == ["P0:KS", "P1:QH", "P2:6D", "P0:5S+2", "R1"]
    last = of_type(events, CardPlayed)[-1]
    assert last.count == 31 and [i.kind for i in last.items] == [THIRTY_ONE]
    assert not of_type(events, GoSaid) and not of_type(events, GoScored)
    assert state.count == 0 and state.pile == ()
    assert state.scores == (2, 0, 0)


def test_R5_4_last_card_of_the_play_scores_1():
    state = setup({0: "10S QS JS 4S", 1: "10H AH AD 2C", 2: "9C KD 5D 7H"})
    events, state = plays(state, "0:10S 1:10H 2:9C 1:AH 1:AD 2:KD 0:QS 1:2C 2:5D 0:4S 2:7H 0:JS")
    last = of_type(events, GoScored)[-1]
    assert (last.seat, last.points, last.last_card) == (0, 1, True)
    assert [g.last_card for g in of_type(events, GoScored)] == [True]
    assert state.phase in (Phase.SHOW, Phase.SHUFFLE)
    # the show follows at once (all three seats are human, muggins off: automatic)
    i = events.index(last)
    assert isinstance(events[i + 1], HandCounted)


def test_R5_4_31_on_the_last_card_scores_only_2():
    state = setup({0: "KS AS 10C 7C", 1: "QH KH 5H 2H", 2: "10D QD 8D 9D"}, starter="4S")
    events, state = plays(state, "0:KS 1:QH 2:10D 0:AS")  # 31
    assert flow(events) == ["P0:KS", "P1:QH", "P2:10D", "P0:AS+2", "R1"]
    more, state = plays(state, "1:KH 2:QD 0:10C")  # 30: nobody can play
    assert flow(more) == ["P1:KH", "P2:QD", "P0:10C", "G1", "G2", "S0+1", "R1"]
    more2, state = plays(state, "1:5H 2:8D 0:7C 1:2H 2:9D")  # the last card makes 31
    trace = flow(more2)
    assert trace == ["P1:5H", "P2:8D", "P0:7C", "P1:2H", "P2:9D+2"]
    final = of_type(more2, CardPlayed)[-1]
    assert final.count == 31 and final.points == 2
    assert [i.kind for i in final.items] == [THIRTY_ONE]
    i = more2.index(final)
    # no go or last-card point after it: the show begins
    assert not of_type(more2[i:], GoScored)
    assert isinstance(more2[i + 1], HandCounted)
    assert state.sources[2][0] == 2  # seat 2 pegged exactly 2 in the whole play


# --- R5.5 the next count's leader --------------------------------------------------------------


def test_R5_5_next_count_led_left_of_last_card_player():
    state = setup({0: "KS 10D QC 9S", 1: "QH JD 10C 8H", 2: "8C AC 3D 9D"})
    events, state = plays(state, "0:KS 1:QH 2:8C 2:AC")
    # seat 2 played the last card; seat 0 (left of 2) leads, not seat 0 as
    # the first to say go, nor seat 1
    assert of_type(events, CountReset) == [CountReset(leader=0)]
    assert to_act(state) == (0,)


def test_R5_5_next_count_led_left_of_last_player_not_left_of_first_go():
    # Seat 1 plays the last card of the count after seats 0 and 2 said go:
    # seat 2 (left of seat 1) leads.
    state = setup({0: "10S QS JS 4S", 1: "10H AH AD 2C", 2: "9C KD 5D 7H"})
    events, state = plays(state, "0:10S 1:10H 2:9C 1:AH 1:AD")
    assert of_type(events, CountReset) == [CountReset(leader=2)]
    assert to_act(state) == (2,)


def test_R5_5_lead_skips_a_seat_with_no_cards():
    state = setup({0: "10S QS JS 4S", 1: "10H AH AD 2C", 2: "9C KD 5D 7H"})
    _, state = plays(state, "0:10S 1:10H 2:9C 1:AH 1:AD 2:KD 0:QS 1:2C 2:5D")
    assert state.hands[1] == ()
    events, state = plays(state, "0:4S")  # 31 by seat 0
    # seat 1, left of seat 0, holds nothing: seat 2 leads
    assert of_type(events, CountReset) == [CountReset(leader=2)]
    assert to_act(state) == (2,)


def test_R5_5_lead_returns_to_the_last_player_itself():
    # Seats 1 and 2 run out mid-count; seat 0 makes 31 still holding a card.
    # Nobody left of seat 0 holds cards, so seat 0 leads again.
    state = setup({0: "KS QS JS 10S", 1: "KH 3H AH 6H", 2: "5D 2D 4D AD"}, starter="9C")
    events, state = plays(state, "0:KS 1:KH 2:5D")  # 25: seat 0 cannot play
    assert flow(events)[-1] == "G0"
    more, state = plays(state, "1:3H 2:2D 1:AH")  # 28, 30, 31
    assert of_type(more, CountReset) == [CountReset(leader=2)]
    more, state = plays(state, "2:4D 0:QS 1:6H 2:AD")  # 4, 14, 20, 21
    assert state.hands[1] == () and state.hands[2] == ()
    assert to_act(state) == (0,)
    more, state = plays(state, "0:JS")  # 31, seat 0 still holds 10S
    assert flow(more) == ["P0:JS+2", "R0"]
    assert to_act(state) == (0,)
    more, state = plays(state, "0:10S")
    assert flow(more)[:2] == ["P0:10S", "L0+1"]


def test_R5_5_lead_passes_over_empty_seat_after_a_go():
    # A go ends a count (seat 1 last); the lead goes to seat 2, left of seat 1;
    # in the next count seat 1, now empty, is skipped.
    state = setup({0: "KS QS 2S AS", 1: "KH 3H 4H 5H", 2: "KD 6D 7D 8D"}, starter="9C")
    events, state = plays(state, "0:KS 1:KH 2:KD 0:AS")
    # 10, 20 (pair 2), 30 (pair royal 6), 31 (2): reset, seat 1 leads
    assert flow(events) == ["P0:KS", "P1:KH+2", "P2:KD+6", "P0:AS+2", "R1"]
    more, state = plays(state, "1:3H 2:6D 0:2S 1:4H 2:7D")
    # 3, 9, 11, 15 (fifteen 2), 22; seat 0 holds QS (32): go
    assert flow(more) == ["P1:3H", "P2:6D", "P0:2S", "P1:4H+2", "P2:7D", "G0"]
    more2, state = plays(state, "1:5H")  # 27: 3-6-2-4-7-5 is a run of 6 (R5.6)
    assert flow(more2) == ["P1:5H+6", "G2", "S1+1", "R2"]
    more3, state = plays(state, "2:8D")  # seat 2's last card; seat 1 has none
    assert to_act(state) == (0,)
    more4, state = plays(state, "0:QS")
    assert flow(more3 + more4)[:3] == ["P2:8D", "P0:QS", "L0+1"]


# --- R5.6 points in the play ----------------------------------------------------------------------


def test_R5_6_fifteen_in_the_play():
    state = setup({0: "7S 10D QC 9S", 1: "8H JD 10C KH", 2: "8C AC 3D 9D"})
    events, _ = plays(state, "0:7S 1:8H")
    assert played(events) == [(0, "7S", 0), (1, "8H", 2)]
    assert [i.kind for i in of_type(events, CardPlayed)[1].items] == [FIFTEEN]


def test_R5_6_pairs_in_the_play_2_6_12():
    state = setup({0: "4S 4C 10D QC", 1: "4H JD 10C 8H", 2: "4D AC 3D 9D"})
    events, state = plays(state, "0:4S 1:4H 2:4D 0:4C")
    assert point_list(events) == [0, 2, 6, 12]
    assert state.scores == (12, 2, 6)


def test_R5_6_run_in_any_order_7_9_8_then_6():
    state = setup({0: "7S 6C 10D QC", 1: "9H JD 10C KH", 2: "8D AC 3D KD"})
    events, _ = plays(state, "0:7S 1:9H 2:8D 0:6C")
    assert point_list(events) == [0, 0, 3, 4]
    runs = [i for e in of_type(events, CardPlayed) for i in e.items if i.kind == RUN]
    assert [r.points for r in runs] == [3, 4]


def test_R5_6_runs_broken_by_pairs():
    state = setup({0: "2S 4C 10D QC", 1: "3H 5H 10C KH", 2: "3D AC 9D KD"}, starter="6S")
    events, _ = plays(state, "0:2S 1:3H 2:3D 0:4C 1:5H")
    # 2-3: nothing; 3: pair; 4 after 2-3-3: no run (last three not distinct);
    # 5: 3-4-5 is a run of 3 (the last three cards)
    assert point_list(events) == [0, 0, 2, 0, 3]


def test_R5_6_run_is_the_last_k_cards_only():
    state = setup({0: "5S 4C 10D QC", 1: "6H 9H 10C KH", 2: "5D AC 9D KD"}, starter="2S")
    events, _ = plays(state, "0:5S 1:6H 2:5D 0:4C")
    # 5 6 5: pair? no (6 between); 5 6 5 4: last three 6-5-4 make a run of 3
    assert point_list(events) == [0, 0, 0, 3]


def test_R5_6_ace_is_low_only():
    state = setup({0: "QS 4C 10D 9C", 1: "KH 9H 10C 8H", 2: "AD 7C 9D KD"}, starter="2S")
    events, _ = plays(state, "0:QS 1:KH 2:AD")
    assert point_list(events) == [0, 0, 0]  # Q-K-A is no run
    state = setup({0: "KS 4C 10D 9C", 1: "AH 9H 10C 8H", 2: "2D 7C 9D KD"}, starter="5S")
    events, _ = plays(state, "0:KS 1:AH 2:2D")
    assert point_list(events) == [0, 0, 0]  # K-A-2 is no run
    state = setup({0: "AS 4C 10D 9C", 1: "2H 9H 10C 8H", 2: "3D 7C 9D KD"}, starter="5S")
    events, _ = plays(state, "0:AS 1:2H 2:3D")
    assert point_list(events) == [0, 0, 3]  # A-2-3 is


@pytest.mark.parametrize("lead, would_be", [("5H", PAIR), ("4H", RUN)])
def test_R5_6_nothing_carries_across_a_reset(lead, would_be):
    # count 1: K Q 6 5 = 31; then seat 1 leads a 5 (would pair the 5S) or a
    # 4 (would make 6-5-4)
    kept1 = {"5H": "QH 5H 9H 8H", "4H": "QH 4H 9H 8H"}[lead]
    state = setup({0: "KS 5S 9S 8S", 1: kept1, 2: "6D 10D 7D 8D"}, starter="2C")
    events, state = plays(state, "0:KS 1:QH 2:6D 0:5S")
    assert flow(events)[-1] == "R1"
    more, state = plays(state, f"1:{lead}")
    first = of_type(more, CardPlayed)[0]
    assert first.points == 0 and first.items == ()
    assert first.count == C(lead).value
    assert state.pile == (C(lead),)


def test_R5_6_thirty_one_with_a_pair_scores_both():
    state = setup({0: "KS 4D AD 9S", 1: "QH 10C 8H 7H", 2: "5C AC 6D 9D"})
    events, _ = plays(state, "0:KS 1:QH 2:5C 0:4D 2:AC 0:AD")
    last = of_type(events, CardPlayed)[-1]
    assert sorted(i.kind for i in last.items) == sorted([THIRTY_ONE, PAIR])
    assert last.points == 4


def test_R5_play_events_fold_to_the_stepped_state():
    from crib3.engine import fold

    events0, state0 = hand_set_up(2, {0: "10S QS JS 4S", 1: "10H AH AD 2C",
                                      2: "9C KD 5D 7H"}, "5S")
    events, state = plays(state0, "0:10S 1:10H 2:9C 1:AH 1:AD 2:KD 0:QS 1:2C 2:5D 0:4S 2:7H 0:JS")
    assert fold(events0 + events) == state
    assert names(events).count("CardPlayed") == 12


# --- R5 as a whole: the engine against a plain restatement of the rules ---------------------------


def reference_play(kept, dealer, pick=0):
    """The play of rules.md R5, written out directly: each seat plays its
    lowest card that fits (`pick` 0) or its highest (`pick` -1). Returns the
    trace (as `flow` writes it) and the points pegged by each seat."""
    from crib3.scoring import score_play

    hands = [sorted(h) for h in kept]
    points = [0, 0, 0]
    trace = []
    pile, count, gone, last = [], 0, [False] * 3, None
    cur = (dealer + 1) % 3  # R5.1
    while True:
        fits = [c for c in hands[cur] if count + c.value <= 31]
        if fits:
            card = fits[pick]
            hands[cur].remove(card)
            pile.append(card)
            count += card.value
            got = score_play(pile).total  # R5.6
            points[cur] += got
            trace.append(f"P{cur}:{card}" + (f"+{got}" if got else ""))
            last = cur
            ended = count == 31  # R5.4: 31 scores 2 (in score_play) and nothing more
        elif cur == last:  # R5.3: back to the last player, who cannot play
            ended = True
            points[last] += 1  # R5.4: the go, or the last card
            trace.append(("L" if not any(hands) else "S") + f"{last}+1")
        else:
            if hands[cur] and not gone[cur]:  # R5.2: go once; no cards: silent
                gone[cur] = True
                trace.append(f"G{cur}")
            ended = False
        if ended:
            if not any(hands):
                return trace, points
            # R5.5: the first seat left of the last player that holds cards
            cur = next(s for s in ((last + 1) % 3, (last + 2) % 3, last) if hands[s])
            trace.append(f"R{cur}")
            pile, count, gone, last = [], 0, [False] * 3, None
        else:
            cur = (cur + 1) % 3


@pytest.mark.parametrize("pick", [0, -1])
def test_R5_engine_play_matches_the_rules_on_random_deals(pick):
    import random

    from helpers import play_out

    from crib3.cards import DECK

    def policy(state):
        seat = to_act(state)[0]
        return sorted(legal_moves(state, seat), key=lambda m: m.card)[pick]

    rng = random.Random(2024 + pick)
    for _ in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        dealer = rng.randrange(3)
        hands = {(dealer + 1 + i) % 3: deck[i:15:3] for i in range(3)}
        kept = [hands[s][1:] for s in range(3)]
        starter = deck[16 + 10]
        _, state = hand_set_up(dealer, {s: kept[s] for s in range(3)}, starter,
                               discards={s: hands[s][0] for s in range(3)},
                               crib_card=deck[15])
        heels = [0, 0, 0]
        if starter.rank == 11:
            heels[dealer] = 2
        assert list(state.scores) == heels
        events, state = play_out(state, policy, until=lambda s: s.phase != Phase.PLAY)
        trace, points = reference_play(kept, dealer, pick)
        engine_trace = flow(events)
        assert engine_trace == trace, (dealer, kept)
        pegged = [state.sources[s][0] for s in range(3)]
        assert pegged == points
