"""The boards of a duplicate event: the same seed, the same boards; each a
legal deal; the rotation fair; a board played in the engine deals, cuts
and ends as the board says."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from crib3.cards import DECK
from crib3.duplicate.boards import MAX_CUT, MIN_CUT, make_boards, position, seat_of
from crib3.duplicate.play import BoardGame, board_points, play_with_bots
from crib3.engine import PlayerInfo
from crib3.engine import events as ev
from crib3.engine.commands import CutStarter
from crib3.engine.log import replay

seeds = st.integers(min_value=0, max_value=2**40)


@given(seeds, st.integers(min_value=1, max_value=12))
def test_the_same_seed_makes_the_same_boards(seed, count):
    assert make_boards(seed, count) == make_boards(seed, count)
    assert make_boards(seed, count + 3)[:count] == make_boards(seed, count)


@given(seeds)
def test_another_seed_makes_other_boards(seed):
    assert make_boards(seed, 3) != make_boards(seed + 1, 3)


@given(seeds, st.integers(min_value=1, max_value=9))
def test_each_board_is_a_legal_deal(seed, count):
    for n, board in enumerate(make_boards(seed, count), start=1):
        assert board.number == n
        assert sorted(board.deck) == sorted(DECK)
        assert board.dealer in (0, 1, 2)
        assert MIN_CUT <= board.cut <= MAX_CUT
        hands = [board.hand(s) for s in range(3)]
        assert all(len(h) == 5 for h in hands)
        dealt = [c for h in hands for c in h] + [board.crib_card, board.starter]
        assert len(set(dealt)) == 17


@given(st.integers(min_value=1, max_value=30), st.integers(min_value=0, max_value=2))
def test_over_three_boards_each_person_holds_each_seat_and_each_place_once(k, slot):
    numbers = range(3 * k - 2, 3 * k + 1)  # any three boards in a row from the first
    seats = [seat_of(slot, n) for n in numbers]
    dealers = [(n - 1) % 3 for n in numbers]
    assert sorted(seats) == [0, 1, 2]
    assert sorted(position(s, d) for s, d in zip(seats, dealers)) == [0, 1, 2]
    # and the three people of a table hold the three seats of every board
    assert sorted(seat_of(p, numbers[0]) for p in range(3)) == [0, 1, 2]


@given(seeds, st.integers(min_value=1, max_value=30))
def test_a_multiple_of_three_boards_gives_every_seat_equally(seed, k):
    boards = make_boards(seed, 3 * k)
    held = Counter(seat_of(0, b.number) for b in boards)
    places = Counter(position(seat_of(0, b.number), b.dealer) for b in boards)
    assert held == Counter({0: k, 1: k, 2: k}) == places


@settings(max_examples=15, deadline=None)
@given(seeds, st.integers(min_value=1, max_value=6), st.integers(min_value=4, max_value=32))
def test_a_board_played_deals_the_boards_cards_and_its_starter_whoever_cuts(seed, n, asked):
    board = make_boards(seed, n)[-1]
    seat = seat_of(0, board.number)
    game = BoardGame.start(board, seat, [PlayerInfo("Ann"), PlayerInfo("B", "standard"),
                                         PlayerInfo("C", "standard")])
    dealt = next(e for e in game.events if isinstance(e, ev.CardsDealt))
    for g in range(3):  # game seat g holds board seat g + seat
        assert dealt.hands[g] == board.hand((g + seat) % 3)
    assert game.state.dealer == (board.dealer - seat) % 3
    for s in game.to_act():
        game.dispatch(game.legal_moves(s)[0])
    cutter = game.to_act()[0]
    game.dispatch(CutStarter(cutter, asked))
    assert game.state.starter == board.starter
    # The cut for first deal turned cards nobody is dealt or sees turned as the
    # starter: no card is shown in two places (the cut, then a rival's hand).
    cuts = {e.card for e in game.events if isinstance(e, ev.CardCutForDeal)}
    seen = {*dealt.hands[0], *dealt.hands[1], *dealt.hands[2], board.crib_card, board.starter}
    assert len(cuts) == 3 and not cuts & seen and cuts <= set(board.unseen)


@settings(max_examples=10, deadline=None)
@given(seeds, st.integers(min_value=1, max_value=6))
def test_a_board_ends_after_one_show_and_its_log_replays(seed, n):
    board = make_boards(seed, n)[-1]
    game = play_with_bots(board, seat_of(0, n), ("easy", "standard", "standard"))
    assert game.over and game.state.hand_number == 1
    assert sum(isinstance(e, ev.HandEnded) for e in game.events) == 1
    assert sum(board_points(game)) > 0
    state = replay(enumerate(game.events, start=2))
    assert state.scores == game.state.scores
    again = play_with_bots(board, seat_of(0, n), ("easy", "standard", "standard"))
    assert again.events == game.events
