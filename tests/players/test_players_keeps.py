"""Players keep good fours: the look-ahead may read the other seats' hands
from the discard (`crib3.players.keeps`, Style.read_keeps)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from crib3.cards import parse_card
from crib3.players import lookahead, playout
from crib3.players.keeps import _expected, keep_chance, keep_weight
from crib3.players.style import CURRENT

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
    assert lookahead._clearly_best(clear) and lookahead._clearly_best(clear, ones)
    assert not lookahead._clearly_best(close) and not lookahead._clearly_best(close, ones)


def test_off_by_default_and_the_look_ahead_unchanged_when_off():
    """The keep reading is a Style switch for `crib3 sim` variants
    (expert:read_keeps=0.8); the expert and the coach leave it off."""
    assert CURRENT.read_keeps == 0.0
    assert replace(CURRENT, read_keeps=0.8).read_keeps == 0.8



def test_a_seats_own_policy_plays_only_that_seats_cards():
    """`by_seat` (how Style.wary_experts plays a seat named as the expert
    the wary way): in a playout, a seat's own policy chooses that seat's
    cards (all three of seat 1's here) and nobody else's; with the standard
    choice as its policy the playout is the same as without. (Until the
    Style.wary_self switch was removed, this checked the same of the seat's
    own later cards, by the `mine` policy only that switch used.)"""
    from crib3.players.analysis import greedy_code, pack_ranks

    asked: list[int] = []

    def theirs(hand, pile, count):
        asked.append(hand)
        return greedy_code(hand, pile, count)

    held = ((), (), ())
    ranks = [pack_ranks([3, 5, 7, 9]), pack_ranks([2, 8, 13]), pack_ranks([4, 6, 12])]
    five = parse_card("5H")
    plain = playout.play_out(five, 0, list(ranks), held, (), 0, (0, 0, 0), 121)
    mixed = playout.play_out(five, 0, list(ranks), held, (), 0, (0, 0, 0), 121,
                             by_seat={1: theirs})
    theirs_left = {pack_ranks(h) for h in ([2, 8, 13], [2, 8], [2, 13], [8, 13], [2], [8], [13])}
    assert len(asked) == 3 and set(asked) <= theirs_left
    assert mixed == plain


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 13), min_size=4, max_size=4))
def test_the_keep_chance_is_kept_with_averaged_over_the_fifth_card(four):
    """`kept_with` (one thrown card) and `keep_chance` (any fifth card, each
    rank as many as are left of it) say the same belief."""
    from crib3.players.keeps import kept_with

    assume(all(four.count(r) <= 4 for r in four))
    left = {r: 4 - four.count(r) for r in range(1, 14)}
    total = sum(left.values())
    mean = sum(n * kept_with(four, r) for r, n in left.items() if n) / total
    assert abs(mean - keep_chance(four)) < 1e-9


def test_a_standard_seat_is_dealt_only_fours_it_would_have_kept(monkeypatch):
    """With `deal_keeps` (and the Reader's deals, not the posterior's),
    every deal the look-ahead plays out gives each standard bot's seat a
    four it would have kept from some five; a human's seat is dealt as
    before (here four cards no five would keep come up)."""
    from dataclasses import replace as changed

    from helpers import hand_set_up

    from crib3.engine import PlayerInfo, project
    from crib3.players import coach
    from crib3.players.keeps import kept_with

    players = [PlayerInfo("Ann", "expert"), PlayerInfo("Bea", "standard"),
               PlayerInfo("Cal", "human")]
    _, state = hand_set_up(2, {0: "KS 5H 4C 3D", 1: "9D 6S 3S 7C", 2: "QC 6D 4D 8H"}, "7D",
                           players=players)
    view = project(state, 0)
    dealt: dict[int, list[tuple[int, ...]]] = {1: [], 2: []}
    real = lookahead.play_out

    def watching(card, me, ranks, held, *rest, **kw):
        for s in (1, 2):
            dealt[s].append(tuple(c.rank for c in held[s]))
        return real(card, me, ranks, held, *rest, **kw)

    monkeypatch.setattr(lookahead, "play_out", watching)
    coach._rank_plays(view, 128, changed(CURRENT, posterior=False, deal_keeps=True))

    def keepable(four: tuple[int, ...]) -> bool:
        return any(kept_with(four, r) > 0 for r in range(1, 14)
                   if four.count(r) < 4)
    # (A deal no draw of KEEP_TRIES fits is played out all the same.)
    assert dealt[1] and sum(map(keepable, dealt[1])) >= 0.95 * len(dealt[1])
    assert sum(map(keepable, dealt[2])) < 0.9 * len(dealt[2])


def test_every_fours_keep_chance_at_once_is_the_same_as_one_at_a_time(monkeypatch):
    """`warm_keep_chances` (whole-number sums, all 1,820 fours in one pass)
    gives exactly what `keep_chance` works out for each four alone."""
    from itertools import combinations_with_replacement

    from crib3.players import keeps
    from crib3.players.analysis import pack_ranks

    fours = list(combinations_with_replacement(range(1, 14), 4))
    monkeypatch.setattr(keeps, "_KEEP", {})
    one_at_a_time = {four: keep_chance(four) for four in fours}
    monkeypatch.setattr(keeps, "_KEEP", {})
    keeps.warm_keep_chances()
    assert len(keeps._KEEP) == len(fours)
    assert all(keeps._KEEP[pack_ranks(four)] == one_at_a_time[four] for four in fours)


def _best_throws(five: tuple[int, ...], crib_weight: float) -> list[int]:
    """The ranks a seat weighing the crib by `crib_weight` may throw from
    `five` (more than one on a tie), worked out plainly."""
    from crib3.players.analysis import crib_table

    crib = crib_table()
    values = {}
    for i, thrown in enumerate(five):
        kept = five[:i] + five[i + 1:]
        values[thrown] = _expected(kept, five) + crib_weight * crib[thrown]
    best = max(values.values())
    return [r for r, v in values.items() if v >= best - 1e-9]


@settings(max_examples=60, deadline=None)
@given(four=st.lists(st.integers(1, 13), min_size=4, max_size=4),
       crib_weight=st.sampled_from([1.0, -0.5]))
def test_a_keep_chance_that_weighs_the_crib_is_the_plain_share_of_fifth_cards(four, crib_weight):
    """`crib_keep_chance` (all 1,820 fours at once, by whole-number sums)
    is the share of the fifth cards for which a seat choosing by expected
    hand plus `crib_weight` x the crib table keeps these four, ties shared:
    the same sum worked out one five at a time."""
    from crib3.players.keeps import crib_keep_chance

    assume(all(four.count(r) <= 4 for r in four))
    four = tuple(sorted(four))
    share = 0.0
    fifths = 0
    for thrown in range(1, 14):
        left = 4 - four.count(thrown)
        if not left:
            continue
        fifths += left
        five = tuple(sorted((*four, thrown)))
        best = _best_throws(five, crib_weight)
        if thrown in best:
            # ties between throws of one rank are one keep
            share += left / len(best)
    assert abs(crib_keep_chance(four, crib_weight) - share / fifths) < 1e-9


def test_a_keep_chance_without_the_crib_is_the_plain_one():
    from crib3.players.keeps import crib_keep_chance

    for four in ((5, 5, 10, 11), (1, 7, 9, 13), (5, 6, 7, 8)):
        assert crib_keep_chance(four, 0.0) == keep_chance(four)
    # A dealer dealt 5 7 8 9 and one more throws the five to its own crib
    # far more readily than a seat throwing to another's; the hand alone
    # lies between.
    assert crib_keep_chance((5, 7, 8, 9), -0.5) > keep_chance((5, 7, 8, 9)) \
        > crib_keep_chance((5, 7, 8, 9), 1.0)
