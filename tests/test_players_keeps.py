"""Players keep good fours: the look-ahead may read the other seats' hands
from the discard (issue 13; `crib3.players.keeps`, Style.read_keeps)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from hypothesis import assume, given
from hypothesis import strategies as st

from crib3.cards import parse_card
from crib3.players import coach
from crib3.players.keeps import _expected, keep_chance, keep_weight

ranks = st.integers(1, 13)


def test_a_four_players_keep_is_read_as_likelier_than_one_they_throw_from():
    """Fives with ten-cards, runs and pairs are somebody's best four for most
    fifth cards; ace, seven, nine, king is nobody's (whatever the fifth
    card, another four of the five is better)."""
    assert keep_chance((5, 5, 10, 11)) > 0.75
    assert keep_chance((5, 6, 7, 8)) > 0.6
    assert keep_chance((1, 7, 9, 13)) == 0.0
    assert keep_chance((13, 9, 7, 1)) == keep_chance((1, 7, 9, 13))  # order does not matter


@given(five=st.lists(ranks, min_size=5, max_size=5))
def test_the_best_four_of_five_is_a_four_somebody_keeps(five):
    """Whatever five ranks a seat is dealt, the four it keeps (the best
    expected hand, ranks alone) has a chance above nothing, and every
    chance is a share."""
    five = tuple(sorted(five))
    assume(all(five.count(r) <= 4 for r in five))
    fours = set(combinations(five, 4))
    best = max(fours, key=lambda four: _expected(four, five))
    assert 0.0 < keep_chance(best) <= 1.0
    assert all(0.0 <= keep_chance(four) <= 1.0 for four in fours)


def test_the_weight_mixes_the_chance_with_a_flat_part():
    assert keep_weight((1, 7, 9, 13), 0.0) == 1.0
    assert abs(keep_weight((1, 7, 9, 13), 0.8) - 0.2) < 1e-12
    assert keep_weight((5, 5, 10, 11), 0.8) > 4 * keep_weight((1, 7, 9, 13), 0.8)


def test_weighed_early_stop_agrees_with_the_plain_one_when_every_deal_counts_alike():
    """With every weight 1 the weighed test sees the same means; a card
    clearly ahead is clearly best under both, two close cards under neither."""
    a, b = parse_card("5H"), parse_card("KS")
    clear = {a: [1.0, 2.0, 1.5, 2.5] * 8, b: [0.0, 0.5, -0.5, 0.2] * 8}
    close = {a: [1.0, -1.0, 2.0, -2.0] * 8, b: [-1.0, 1.0, -2.0, 2.0] * 8}
    ones = [1.0] * 32
    assert coach._clearly_best(clear) and coach._clearly_best(clear, ones)
    assert not coach._clearly_best(close) and not coach._clearly_best(close, ones)


def test_off_by_default_and_the_look_ahead_unchanged_when_off():
    """The keep reading is a Style switch for `crib3 sim` variants
    (expert:read_keeps=0.8); the expert and the coach leave it off."""
    assert coach.CURRENT.read_keeps == 0.0
    assert replace(coach.CURRENT, read_keeps=0.8).read_keeps == 0.8



def test_the_seats_own_policy_plays_only_its_own_later_cards():
    """Style.wary_self: in a playout, `mine` chooses the seat's own later
    cards (three here, after the five it plays now) and nobody else's; with
    the standard choice as `mine` the playout is the same as without."""
    from crib3.players.analysis import greedy_code, pack_ranks

    asked: list[int] = []

    def mine(hand, pile, count):
        asked.append(hand)
        return greedy_code(hand, pile, count)

    held = ((), (), ())
    ranks = [pack_ranks([3, 5, 7, 9]), pack_ranks([2, 8, 13]), pack_ranks([4, 6, 12])]
    five = parse_card("5H")
    plain = coach._play_out(five, 0, list(ranks), held, (), 0, (0, 0, 0), 121)
    mixed = coach._play_out(five, 0, list(ranks), held, (), 0, (0, 0, 0), 121, mine=mine)
    mine_left = {pack_ranks(h) for h in ([3, 7, 9], [3, 7], [3, 9], [7, 9], [3], [7], [9])}
    assert len(asked) == 3 and set(asked) <= mine_left
    assert mixed == plain
