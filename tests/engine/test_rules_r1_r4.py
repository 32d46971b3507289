"""rules.md R1-R4, rule by rule, at the engine level: the cut for first deal,
the deal, the discards and the starter (with his heels)."""

from __future__ import annotations

import random

import pytest
from helpers import (
    dealt,
    discard_all,
    first_legal,
    hand_set_up,
    humans,
    names,
    of_type,
    play_out,
    run,
    stacked_deck,
    started,
    with_dealer,
)

from crib3.cards import DECK, parse_card, parse_cards
from crib3.engine import (
    CutStarter,
    Discard,
    DrawCutCard,
    Game,
    IllegalMove,
    Phase,
    Play,
    Rules,
    Shuffle,
    fold,
    legal_moves,
    project,
    redact,
    to_act,
)
from crib3.engine.events import (
    CardCutForDeal,
    CardDiscarded,
    CardsDealt,
    CutTied,
    DealerChosen,
    DeckShuffled,
    GameWon,
    HandEnded,
    HisHeels,
    StarterCut,
)
from crib3.engine.log import replay
from crib3.engine.rules import step

C = parse_card

FIVE = {
    0: "AS 2S 3S 4S 5S",
    1: "AH 2H 3H 4H 5H",
    2: "AD 2D 3D 4D 5D",
}


def cut_for_deal(state, *pairs):
    return run(state, [DrawCutCard(seat, C(text)) for seat, text in pairs])


# --- R1 First dealer -------------------------------------------------------------


def test_R1_1_lowest_cut_deals():
    events, state = cut_for_deal(started(), (0, "5H"), (1, "2C"), (2, "KD"))
    assert of_type(events, DealerChosen) == [DealerChosen(seat=1)]
    assert state.dealer == 1
    assert state.phase == Phase.SHUFFLE


def test_R1_1_ace_is_low_in_the_cut():
    events, state = cut_for_deal(started(), (0, "2S"), (1, "KC"), (2, "AD"))
    assert of_type(events, DealerChosen) == [DealerChosen(seat=2)]


def test_R1_1_suits_do_not_rank_in_the_cut():
    # Same rank in different suits is a tie, whatever the suits.
    events, state = cut_for_deal(started(), (0, "3S"), (1, "3C"), (2, "9H"))
    assert not of_type(events, DealerChosen)
    assert of_type(events, CutTied) == [CutTied(seats=(0, 1))]


def test_R1_1_each_player_cuts_a_different_card():
    _, state = cut_for_deal(started(), (0, "5H"))
    with pytest.raises(IllegalMove):
        step(state, DrawCutCard(1, C("5H")))
    with pytest.raises(IllegalMove):
        step(state, DrawCutCard(0, C("6H")))  # seat 0 has cut already


def test_R1_1_any_cutter_may_cut_first():
    events, state = cut_for_deal(started(), (2, "9H"), (0, "7S"), (1, "8C"))
    assert state.dealer == 0


def test_R1_2_only_the_tied_players_cut_again():
    events, state = cut_for_deal(started(), (0, "3S"), (1, "3H"), (2, "9D"))
    assert of_type(events, CutTied) == [CutTied(seats=(0, 1))]
    assert state.phase == Phase.CUT_FOR_DEAL
    assert set(state.cutters) == {0, 1}
    with pytest.raises(IllegalMove):
        step(state, DrawCutCard(2, C("AS")))  # seat 2 was not tied: it does not cut again
    more, state = cut_for_deal(state, (0, "8C"), (1, "4D"))
    assert of_type(more, DealerChosen) == [DealerChosen(seat=1)]
    # every cut is an event, and recorded in order
    all_events = events + more
    cuts = [(e.seat, str(e.card)) for e in of_type(all_events, CardCutForDeal)]
    assert cuts == [(0, "3S"), (1, "3H"), (2, "9D"), (0, "8C"), (1, "4D")]
    assert [(s, str(c)) for s, c in state.deal_cuts] == cuts


def test_R1_2_a_tie_above_the_lowest_does_not_cut_again():
    events, state = cut_for_deal(started(), (0, "2S"), (1, "9H"), (2, "9D"))
    assert not of_type(events, CutTied)
    assert state.dealer == 0


def test_R1_2_three_way_tie_then_repeated_tie():
    events, state = cut_for_deal(started(), (0, "7S"), (1, "7H"), (2, "7D"))
    assert of_type(events, CutTied) == [CutTied(seats=(0, 1, 2))]
    more, state = cut_for_deal(state, (0, "4S"), (1, "4H"), (2, "JD"))
    assert of_type(more, CutTied) == [CutTied(seats=(0, 1))]
    more, state = cut_for_deal(state, (0, "QS"), (1, "10H"))
    assert of_type(more, DealerChosen) == [DealerChosen(seat=1)]
    assert len(state.deal_cuts) == 8


def test_R1_3_deal_passes_left_after_each_hand():
    events, state = hand_set_up(1, {0: "KS QS JS 10S", 1: "KH QH JH 10H",
                                    2: "KD QD JD 10D"}, starter="5C")
    more, state = play_out(state)
    ended = of_type(more, HandEnded)
    assert len(ended) == 1 and ended[0].next_dealer == 2
    assert state.dealer == 2 and state.phase == Phase.SHUFFLE
    deck = stacked_deck(2, FIVE)
    more, state = step(state, Shuffle(deck))
    shuffled = of_type(more, DeckShuffled)[0]
    assert (shuffled.hand, shuffled.dealer) == (2, 2)
    # the deal now starts left of the new dealer: seat 0 gets deck[0]
    assert state.hands[0] == tuple(sorted(parse_cards(FIVE[0])))


def test_R1_3_deal_rotates_left_over_a_whole_game():
    game = Game.new(humans(), Rules(target=61), seed=7)
    while not game.over:
        game.dispatch(first_legal(game.state))
    dealers = [e.dealer for e in game.events if isinstance(e, DeckShuffled)]
    assert len(dealers) >= 2
    assert all(b == (a + 1) % 3 for a, b in zip(dealers, dealers[1:]))


# --- R2 The deal -------------------------------------------------------------------


def test_R2_1_shuffle_event_records_the_whole_deck():
    _, state = with_dealer(0)
    deck = list(DECK)
    random.Random(3).shuffle(deck)
    events, state = step(state, Shuffle(tuple(deck)))
    shuffled = of_type(events, DeckShuffled)
    assert len(shuffled) == 1 and shuffled[0].deck == tuple(deck)


def test_R2_1_shuffle_must_be_a_whole_deck():
    _, state = with_dealer(0)
    with pytest.raises(IllegalMove):
        step(state, Shuffle(DECK[:51]))
    with pytest.raises(IllegalMove):
        step(state, Shuffle((DECK[0],) + DECK[:51]))


def test_R2_1_nothing_random_after_the_shuffle_a_game_replays_from_its_events():
    game = Game.new(humans(), Rules(target=61), seed=11)
    while not game.over:
        game.dispatch(first_legal(game.state))
    # The events alone (no random generator) give the same state...
    assert fold(game.events) == game.state
    # ...and the rules re-derive every event from the recorded chance events
    # and choices.
    assert replay(list(enumerate(game.events, start=2))) == game.state


def test_R2_2_deal_one_at_a_time_from_left_of_dealer_then_crib():
    _, state = with_dealer(1)
    deck = list(DECK)
    random.Random(5).shuffle(deck)
    events, state = step(state, Shuffle(tuple(deck)))
    assert names(events) == ["DeckShuffled", "CardsDealt"]
    # dealer 1: deck[0] to seat 2, deck[1] to seat 0, deck[2] to seat 1 (the dealer)...
    assert set(state.hands[2]) == set(deck[0:15:3])
    assert set(state.hands[0]) == set(deck[1:15:3])
    assert set(state.hands[1]) == set(deck[2:15:3])
    assert all(len(h) == 5 for h in state.hands)
    assert state.crib == (deck[15],)
    assert of_type(events, CardsDealt)[0].crib_card == deck[15]
    assert state.deck == tuple(deck[16:])


def test_R2_2_stacked_deck_helper_follows_the_deal():
    for dealer in range(3):
        _, state = dealt(dealer, FIVE, crib_card="KC")
        for seat in range(3):
            assert set(state.hands[seat]) == set(parse_cards(FIVE[seat]))
        assert state.crib == (C("KC"),)


def test_R2_2_the_crib_belongs_to_the_dealer():
    _, state = hand_set_up(0, {0: "KS QS JS 10S", 1: "KH QH JH 10H",
                               2: "KD QD JD 10D"}, starter="5C")
    events, state = play_out(state)
    from crib3.engine.events import HandCounted
    crib = [e for e in of_type(events, HandCounted) if e.crib]
    assert len(crib) == 1 and crib[0].seat == 0


# --- R3 Discards ---------------------------------------------------------------------


def test_R3_1_every_seat_discards_exactly_one():
    _, state = dealt(2, FIVE)
    assert set(to_act(state)) == {0, 1, 2}
    events, state = step(state, Discard(0, C("AS")))
    assert len(state.hands[0]) == 4 and C("AS") not in state.hands[0]
    with pytest.raises(IllegalMove):
        step(state, Discard(0, C("2S")))  # a second discard
    with pytest.raises(IllegalMove):
        step(state, Discard(1, C("2S")))  # not in seat 1's hand
    assert set(to_act(state)) == {1, 2}


@pytest.mark.parametrize("order", [(0, 1, 2), (2, 0, 1), (1, 2, 0), (2, 1, 0)])
def test_R3_1_discards_are_simultaneous_any_seat_first(order):
    _, state = dealt(2, FIVE)
    choice = {0: "3S", 1: "4H", 2: "5D"}
    for i, seat in enumerate(order):
        assert seat in to_act(state)
        events, state = step(state, Discard(seat, C(choice[seat])))
        assert state.phase == (Phase.DISCARD if i < 2 else Phase.CUT_STARTER)
    assert all(len(h) == 4 for h in state.hands)


def test_R3_1_no_seat_sees_another_seats_discard():
    _, state = dealt(2, FIVE, crib_card="KC")
    events, state = discard_all(state, {1: "4H", 0: "3S"})
    for event in of_type(events, CardDiscarded):
        for seat in range(3):
            seen = redact(event, seat)
            assert seen.card == (event.card if seat == event.seat else None)
        assert redact(event, None).card is None  # a spectator neither
    for seat in range(3):
        view = project(state, seat)
        mine = {0: C("3S"), 1: C("4H"), 2: None}[seat]
        assert view.my_discard == mine
        assert view.crib is None
        assert view.discarded == (True, True, False)
        assert C("3S") not in view.hand or seat == 0
        text = repr(view)
        others = [c for s, c in ((0, "3S"), (1, "4H")) if s != seat]
        for other in others:
            # the other's discard is nowhere in the view (it was dealt to them,
            # so it is not in this seat's hand either)
            assert f"Card({other})" not in text


def test_R3_1_nothing_else_happens_before_all_have_discarded():
    _, state = dealt(2, FIVE)
    _, state = discard_all(state, {0: "3S", 1: "4H"})
    with pytest.raises(IllegalMove):
        step(state, CutStarter(0, 10))
    with pytest.raises(IllegalMove):
        step(state, Play(0, C("AS")))


def test_R3_2_the_crib_holds_the_three_discards_and_the_dealt_card():
    _, state = dealt(1, FIVE, crib_card="KC")
    assert len(state.crib) == 1
    _, state = discard_all(state, {2: "5D", 0: "3S", 1: "4H"})
    assert len(state.crib) == 4
    assert set(state.crib) == set(parse_cards("KC 3S 4H 5D"))
    assert all(len(state.kept[s]) == 4 for s in range(3))


# --- R4 The starter ----------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_R4_1_player_left_of_dealer_cuts_the_starter(dealer):
    _, state = dealt(dealer, FIVE)
    _, state = discard_all(state, {0: "3S", 1: "4H", 2: "5D"})
    left = (dealer + 1) % 3
    assert to_act(state) == (left,)
    for seat in range(3):
        if seat != left:
            with pytest.raises(IllegalMove):
                step(state, CutStarter(seat, 10))
    events, state = step(state, CutStarter(left, 10))
    assert isinstance(events[0], StarterCut) and events[0].seat == left
    # the play follows: the player left of the dealer leads (R5.1)
    assert state.phase == Phase.PLAY and to_act(state) == (left,)


@pytest.mark.parametrize("depth", [4, 10, 20, 32])
def test_R4_1_starter_follows_from_deck_order_and_the_recorded_cut(depth):
    deck = stacked_deck(0, FIVE, crib_card="KC", starter="9C", depth=depth)
    _, state = with_dealer(0)
    _, state = step(state, Shuffle(deck))
    _, state = discard_all(state, {0: "3S", 1: "4H", 2: "5D"})
    remaining = deck[16:]
    assert state.deck == remaining
    events, state = step(state, CutStarter(1, depth))
    started_event = events[0]
    assert started_event == StarterCut(seat=1, depth=depth, starter=remaining[depth])
    assert state.starter == C("9C")
    # any other cut point gives the card at that point
    _, other = with_dealer(0)
    _, other = step(other, Shuffle(deck))
    _, other = discard_all(other, {0: "3S", 1: "4H", 2: "5D"})
    other_depth = 5 if depth != 5 else 6
    events, other = step(other, CutStarter(1, other_depth))
    assert events[0].starter == remaining[other_depth]


def test_R4_1_every_legal_cut_is_offered_to_the_cutter():
    _, state = dealt(0, FIVE)
    _, state = discard_all(state, {0: "3S", 1: "4H", 2: "5D"})
    moves = legal_moves(state, 1)
    assert moves and all(isinstance(m, CutStarter) and m.seat == 1 for m in moves)
    assert legal_moves(state, 0) == [] and legal_moves(state, 2) == []


@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_R4_2_his_heels_scores_two_for_the_dealer_at_once(dealer):
    events, state = hand_set_up(dealer, {0: "2S 3S 4S 5S", 1: "2H 3H 4H 5H",
                                         2: "2D 3D 4D 5D"}, starter="JC")
    i = names(events).index("StarterCut")
    assert names(events)[i + 1] == "HisHeels"
    heels = events[i + 1]
    assert heels.seat == dealer and heels.points == 2
    expected = [0, 0, 0]
    expected[dealer] = 2
    assert heels.scores == tuple(expected) and state.scores == tuple(expected)
    assert state.phase == Phase.PLAY


def test_R4_2_no_heels_for_a_starter_that_is_not_a_jack():
    for starter in ("QC", "10C", "KC"):
        events, state = hand_set_up(0, {0: "2S 3S 4S 5S", 1: "2H 3H 4H 5H",
                                        2: "2D 3D 4D 5D"}, starter=starter)
        assert not of_type(events, HisHeels)
        assert state.scores == (0, 0, 0)


def test_R4_2_his_heels_can_win_the_game():
    events, state = hand_set_up(1, {0: "2S 3S 4S 5S", 1: "2H 3H 4H 5H",
                                    2: "2D 3D 4D 5D"}, starter="JH", scores=(100, 119, 110))
    assert names(events)[-2:] == ["HisHeels", "GameWon"]
    won = events[-1]
    assert isinstance(won, GameWon) and won.seat == 1 and won.scores == (100, 121, 110)
    assert state.phase == Phase.OVER and state.winner == 1
    assert to_act(state) == ()
    with pytest.raises(IllegalMove):
        step(state, Play(2, C("2S")))
