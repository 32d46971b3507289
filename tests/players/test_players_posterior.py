"""The look-ahead's beliefs about the other seats, worked out whole
(`crib3.players.posterior`)."""

from __future__ import annotations

import math
import random
from collections import Counter
from itertools import combinations

from helpers import lead_after_a_ten_and_a_four
from hypothesis import given, settings
from hypothesis import strategies as st

from crib3.cards import DECK, parse_card
from crib3.players.analysis import greedy_code, min_values, pack_ranks
from crib3.players.posterior import Posterior, SeatBelief, seat_belief
from crib3.players.reading import EXPERT_HABIT, choices_by_seat


def _counts(pool):
    counts = [0] * 14
    for card in pool:
        counts[card.rank] += 1
    return counts


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32), pool_size=st.integers(4, 40), size=st.integers(1, 4))
def test_with_nothing_to_read_the_belief_is_the_blind_deal(seed, pool_size, size):
    """No plays, gos or keeps: a multiset's weight is the number of ways the
    unseen cards give it, so the weights add up to C(unseen, size)
    (Vandermonde) and each is that count exactly."""
    pool = random.Random(seed).sample(DECK, pool_size)
    counts = _counts(pool)
    belief = seat_belief(counts, size, 1, (), ())
    assert belief is not None
    assert math.isclose(belief.totals[-1], math.comb(pool_size, size))
    ways = Counter(tuple(sorted(c.rank for c in hand)) for hand in combinations(pool, size)) \
        if pool_size <= 20 else None
    if ways is not None:
        previous = 0.0
        for hand, total in zip(belief.hands, belief.totals):
            assert math.isclose(total - previous, ways[hand])
            previous = total


def test_a_seat_read_as_the_standard_bot_holds_only_what_its_plays_allow():
    """Read as making the standard choice every time (shares 1 and 0),
    seat 2 is believed to hold only ranks with which its ten and its four
    were the standard choice, and seat 1 (a go at 26) nothing under 6; the
    deals drawn keep both, and every card once."""
    view = lead_after_a_ten_and_a_four()
    pool = sorted(view.unseen())
    made = choices_by_seat(view.hand_plays, [1, 2])
    played = {s: [c.rank for c in view.played[s]] for s in (1, 2)}
    exact = {1: (1.0, 0.0), 2: (1.0, 0.0)}
    posterior = Posterior(pool, {1: 3, 2: 2}, min_values(view.hand_gos), played, made,
                          exact, {})
    belief = posterior.beliefs[2]
    assert belief is not None and belief.hands
    for hand in belief.hands:
        for choice in made[2]:
            held = sorted((*choice.later, *hand, choice.rank))
            code = pack_ranks(held)
            assert held[greedy_code(code, choice.pile, choice.count)] == choice.rank
    rng = random.Random(5)
    for _ in range(300):
        dealt = posterior.deal(rng)
        assert dealt is not None
        assert [len(dealt[1]), len(dealt[2])] == [3, 2]
        everything = dealt[1] + dealt[2]
        assert len(set(everything)) == 5 and set(everything) <= set(pool)
        assert all(c.value >= 6 for c in dealt[1])
        assert tuple(sorted(c.rank for c in dealt[2])) in belief.hands


def test_two_seats_are_dealt_as_one_joint_deal():
    """Two seats' ranks drawn apart and kept with `_both`'s chance give the
    joint deal: on a small pool (three fives, two kings, a nine; two cards
    each), the chance of each pair of hands matches the exact count of
    ways within sampling error."""
    pool = [parse_card(c) for c in ("5S", "5H", "5D", "KS", "KH", "9C")]
    posterior = Posterior(pool, {1: 2, 2: 2}, {}, {}, {}, {}, {})
    exact: Counter = Counter()
    for first in combinations(pool, 2):
        rest = [c for c in pool if c not in first]
        for second in combinations(rest, 2):
            exact[(tuple(sorted(c.rank for c in first)),
                   tuple(sorted(c.rank for c in second)))] += 1
    total = sum(exact.values())
    rng = random.Random(11)
    draws = 20000
    seen: Counter = Counter()
    for _ in range(draws):
        dealt = posterior.deal(rng)
        assert dealt is not None
        seen[(tuple(sorted(c.rank for c in dealt[1])),
              tuple(sorted(c.rank for c in dealt[2])))] += 1
    assert set(seen) <= set(exact)
    for key, ways in exact.items():
        p = ways / total
        assert abs(seen[key] / draws - p) < 4 * math.sqrt(p * (1 - p) / draws) + 1e-3, key


def test_a_belief_the_keep_rules_out_is_never_dealt():
    """Believed to have kept its best four in full (`keeps` 1), a seat that
    has played a five and a five is never dealt a four its best keep would
    not be; without the keep it is."""
    from crib3.players.keeps import keep_chance

    pool = [c for c in DECK if c.rank != 5][:40]
    counts = _counts(pool)
    kept = seat_belief(counts, 2, 1, (5, 5), (), keeps=1.0)
    blind = seat_belief(counts, 2, 1, (5, 5), ())
    assert kept is not None and blind is not None
    assert all(keep_chance((5, 5, *hand)) > 0 for hand in kept.hands)
    assert any(keep_chance((5, 5, *hand)) == 0 for hand in blind.hands)


def test_a_seat_that_played_against_its_model_is_still_dealt_cards():
    """Read as the standard bot without fail, a seat whose plays no hand
    explains still gets a belief: its gos and the unseen cards alone, so
    the look-ahead never stalls. Here only threes, fives and nines are left
    unseen: with a nine or a three seat 2 would have made fifteen or a pair
    royal at 6, and with two fives it would have made 31 at 26."""
    view = lead_after_a_ten_and_a_four()
    made = choices_by_seat(view.hand_plays, [1, 2])
    pool = [c for c in sorted(view.unseen()) if c.rank in (3, 5, 9)]
    counts = _counts(pool)
    assert seat_belief(counts, 2, 1, (10, 4), made[2], (1.0, 0.0)) is None
    posterior = Posterior(pool, {1: 3, 2: 2}, min_values(view.hand_gos), {}, made,
                          {1: (1.0, 0.0), 2: (1.0, 0.0)}, {})
    assert all(b is not None for b in posterior.beliefs.values())
    assert posterior.deal(random.Random(1)) is not None


@settings(max_examples=150, deadline=None)
@given(pile=st.lists(st.integers(1, 13), max_size=6), played=st.integers(1, 13),
       later=st.lists(st.integers(1, 13), max_size=2), size=st.integers(1, 3),
       shares=st.sampled_from([(0.3, 0.3), (0.97, 0.0), (1.0, 0.0), (0.0, 0.0), (0.5, 0.4),
                               EXPERT_HABIT]))
def test_a_plays_chance_from_bits_is_the_readers_play_chance(pile, played, later, size, shares):
    """The belief scores each earlier play from bit masks worked out once
    for the choice (the standard and the wary choice each rank a card by
    itself alone); that is `reading.play_chance` of the hand held then,
    for every multiset the belief keeps, and every multiset it drops is one
    under which the play had no chance."""
    from hypothesis import assume

    from crib3.players.analysis import pack_pile
    from crib3.players.reading import Choice, play_chance

    values = [min(10, r) for r in pile]
    while sum(values) > 31:
        pile, values = pile[:-1], values[:-1]
    count = sum(values)
    assume(count + (min(10, played)) <= 31)
    known = [*pile, *later, played]
    assume(all(known.count(r) <= 4 for r in known))  # one deck
    choice = Choice(tuple(later), pack_pile(pile), count, played)
    counts = [0] + [4 - known.count(r) for r in range(1, 14)]  # the unseen cards
    belief = seat_belief(counts, size, 1, (), (choice,), shares)
    kept = {}
    previous = 0.0
    for hand, total in zip(belief.hands, belief.totals) if belief else ():
        kept[hand] = total - previous
        previous = total
    from itertools import combinations_with_replacement

    for hand in combinations_with_replacement(range(1, 14), size):
        if any(hand.count(r) > counts[r] for r in hand):
            continue
        prior = 1
        for rank in set(hand):
            prior *= math.comb(counts[rank], hand.count(rank))
        chance = play_chance(pack_ranks(sorted((*later, *hand, played))), choice.pile, count,
                             played, shares)
        if chance == 0.0:
            assert hand not in kept
        else:
            assert math.isclose(kept[hand], prior * chance, rel_tol=1e-9), hand


def test_a_play_after_four_of_a_kind_is_read_without_trying_a_fifth():
    """After 2 2 2 2 (count 8) a seat plays a 5: nobody holds a fifth two,
    and the reading must not score one (scoring it once raised an
    IndexError inside an E,E,S game). The belief is worked out, and the
    same as `play_chance` says."""
    from crib3.players.analysis import pack_pile
    from crib3.players.reading import Choice, play_chance

    choice = Choice((), pack_pile([2, 2, 2, 2]), 8, 5)
    counts = [0, 4, 0, 4, 4, 3, 4, 4, 4, 4, 4, 4, 4, 4]
    for shares in ((0.97, 0.0), (0.3, 0.3), EXPERT_HABIT):
        belief = seat_belief(counts, 2, 1, (), (choice,), shares)
        assert belief is not None
        previous = 0.0
        for hand, total in zip(belief.hands, belief.totals):
            prior = math.prod(math.comb(counts[r], hand.count(r)) for r in set(hand))
            chance = play_chance(pack_ranks(sorted((*hand, 5))), choice.pile, 8, 5, shares)
            assert math.isclose(total - previous, prior * chance, rel_tol=1e-9)
            previous = total


def test_every_expert_decision_of_a_game_that_once_crashed_is_made():
    """E,E,S, seed 12301, game 29: an expert read a seat's play after four
    of a kind and raised an IndexError (see above). It plays to the end."""
    from crib3.engine import Rules
    from crib3.study.sim import play_one

    result = play_one(["expert", "expert", "standard"], Rules(), 12301, 29)
    assert max(result.scores) >= 121


def test_two_beliefs_that_rule_each_other_out_still_give_a_deal():
    """Both seats read as holding the one unseen five (each belief has
    nothing else): no joint deal fits both, so the deal is one the gos
    allow, every card once, and the look-ahead goes on."""
    pool = [parse_card(c) for c in ("5S", "KH", "QD", "JC")]
    posterior = Posterior(pool, {1: 1, 2: 1}, {}, {}, {}, {}, {})
    for seat in (1, 2):
        posterior.beliefs[seat] = SeatBelief([(5,)], [1.0])
    rng = random.Random(2)
    for _ in range(50):
        dealt = posterior.deal(rng)
        assert dealt is not None and len(dealt[1]) == len(dealt[2]) == 1
        assert dealt[1][0] != dealt[2][0] and {dealt[1][0], dealt[2][0]} <= set(pool)


def test_a_seat_read_as_weighing_the_crib_is_believed_to_keep_fives_from_anothers_crib():
    """With a crib weight (`keeps.crib_keep_chance`), a seat that threw to
    another's crib is believed to hold 5 7 8 9 far more often than a dealer
    (who would have thrown the five to its own crib), and the belief weighs
    each four by that keep chance exactly."""
    from crib3.players.keeps import crib_keep_chance

    counts = [0] + [4] * 13
    beliefs = {w: seat_belief(counts, 4, 1, (), (), keeps=0.95, crib_weight=w)
               for w in (1.0, 0.0, -0.5)}
    chance_of = {}
    for w, belief in beliefs.items():
        previous = 0.0
        weights = {}
        for hand, total in zip(belief.hands, belief.totals):
            weights[hand] = total - previous
            previous = total
        for hand in ((5, 7, 8, 9), (2, 3, 9, 13)):
            prior = math.prod(math.comb(4, hand.count(r)) for r in set(hand))
            assert math.isclose(weights[hand], prior * (0.05 + 0.95 * crib_keep_chance(hand, w)),
                                rel_tol=1e-9)
        chance_of[w] = weights[(5, 7, 8, 9)] / belief.totals[-1]
    assert chance_of[-0.5] > 3 * chance_of[1.0]
    assert chance_of[0.0] > 3 * chance_of[1.0]
