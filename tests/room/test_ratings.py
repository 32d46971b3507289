"""The rating model (crib3.room.ratings): places from scores, openskill's
PlackettLuce moves, the shown scale and its "?", the computer levels'
fixed ratings, and a rating as a fold of results."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from crib3.room.identities import key_identity, seat_identity
from crib3.room.ratings import (
    BOT_SKILLS,
    NEWCOMER,
    Placing,
    Skill,
    bot_identity,
    fold,
    from_win_share,
    places,
    rate,
)
from crib3.room.seats import FIRST_USE, Seat

PEOPLE = ["ssh a", "ssh b", "ssh c", "web d", "code e"]


def game(scores, who=("ssh a", "ssh b", "ssh c"), left=(False, False, False)):
    return [Placing(i, i, s, gone) for i, s, gone in zip(who, scores, left)]


def test_places_follow_the_scores_ties_share_a_place_and_a_leaver_is_last():
    assert places(game([121, 98, 110])) == [1, 3, 2]
    assert places(game([121, 100, 100])) == [1, 2, 2]
    # Left: last whatever the computer scored for the seat.
    assert places(game([121, 100, 90], left=(True, False, False))) == [3, 1, 2]
    assert places(game([121, 100, 90], left=(True, True, False))) == [2, 2, 1]


def test_a_newcomer_is_1500_and_provisional_and_settles_with_games():
    assert NEWCOMER.shown == 1500 and NEWCOMER.deviation == 350
    assert NEWCOMER.provisional and NEWCOMER.label == "1500?"
    skills: dict[str, Skill] = {}
    for n in range(20):  # a steady player among equals
        order = [n % 3, (n + 1) % 3, (n + 2) % 3]
        skills.update(rate(skills, game([121 - 10 * order[i] for i in range(3)])))
    assert all(not s.provisional and s.label == str(s.shown) for s in skills.values())
    assert all(s.games == 20 for s in skills.values())


def test_the_computer_levels_are_fixed_and_in_order():
    easy, standard, expert = (BOT_SKILLS[bot_identity(level)]
                              for level in ("easy", "standard", "expert"))
    assert easy.shown < standard.shown == 1500 < expert.shown
    assert not any(s.provisional for s in BOT_SKILLS.values())
    moved = rate({}, game([121, 80, 90], who=("ssh a", bot_identity("expert"),
                                                bot_identity("expert"))))
    assert set(moved) == {"ssh a"}  # a computer level never moves
    assert moved["ssh a"].shown > 1500


def test_a_level_made_from_a_win_share_holds_still_when_it_wins_that_share():
    """The calibration's arithmetic is the model's: a player whose skill
    `from_win_share` made, winning that share of its games against two
    standard players (second and third as PlackettLuce has them then),
    moves on average by almost nothing."""
    std = BOT_SKILLS[bot_identity("standard")]
    two = (bot_identity("standard"),) * 2
    for share in (0.2, 0.459, 0.875):
        skill = from_win_share(share, std)
        before = {"ssh a": skill}

        def moved(order, before=before, skill=skill):
            return rate(before, game(order, who=("ssh a", *two)))["ssh a"].mu - skill.mu

        win, second, third = moved([121, 90, 80]), moved([100, 121, 80]), moved([80, 121, 100])
        x = 2 * share / (1 - share)  # its strength over either other's: share = x / (x + 2)
        after_a_loss = x / (x + 1)  # second, once another won
        expected = share * win + (1 - share) * (after_a_loss * second
                                                + (1 - after_a_loss) * third)
        assert abs(expected) < 0.1 * win, (share, expected, win)


def test_a_result_with_one_rated_seat_moves_nothing():
    assert rate({}, game([121, 90, 80])[:1]) == {}


def test_identities_follow_keys_not_names():
    assert key_identity("SHA256:abc") == key_identity(FIRST_USE + "SHA256:abc") == "ssh SHA256:abc"
    assert key_identity("web:f00") == key_identity(FIRST_USE + "web f00") == "web f00"
    assert key_identity(FIRST_USE + "code 123") == "code 123"
    assert key_identity(None) is None
    assert seat_identity(Seat("Ann", "SHA256:x")) == seat_identity(Seat("Bob", "SHA256:x"))
    assert seat_identity(Seat(level="easy")) == "computer easy"
    assert seat_identity(Seat("Ann", None)) is None


scores = st.integers(min_value=0, max_value=121)
games = st.lists(
    st.tuples(st.permutations(PEOPLE), st.lists(scores, min_size=3, max_size=3),
              st.lists(st.booleans(), min_size=3, max_size=3)),
    max_size=12)


def as_games(drawn):
    return [game(s, who=tuple(who[:3]), left=tuple(left)) for who, s, left in drawn]


@settings(max_examples=40, deadline=None)
@given(games)
def test_ratings_are_a_fold_the_same_results_give_the_same_numbers(drawn):
    results = as_games(drawn)
    assert fold(results) == fold(list(results))
    # Folding a prefix and then the rest is folding the whole.
    half = len(results) // 2
    skills = fold(results[:half])
    for placings in results[half:]:
        skills.update(rate(skills, placings))
    assert skills == fold(results)


@settings(max_examples=60, deadline=None)
@given(st.floats(min_value=10, max_value=40), st.floats(min_value=1, max_value=8.4),
       st.lists(scores, min_size=2, max_size=2))
def test_a_winner_among_equals_never_loses_rating_and_the_last_never_gains(mu, sigma, rest):
    equal = {who: Skill(mu, sigma, 3) for who in PEOPLE[:3]}
    rest = [min(r, 120) for r in rest]
    placings = game([121, *rest])
    moved = rate(equal, placings)
    assert moved["ssh a"].mu > mu
    last = max(range(3), key=lambda i: (places(placings)[i], i))
    if places(placings).count(places(placings)[last]) == 1:
        assert moved[placings[last].identity].mu < mu
