"""A board's net points and its matchpoints, and an event's standings."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from crib3.duplicate.scoring import Play, matchpoints, net, score_boards, standings

nets = st.lists(st.integers(min_value=-30, max_value=30).map(lambda x: x / 2), min_size=2,
                max_size=12)


def test_net_is_your_points_less_the_others_mean():
    assert net((12, 8, 4)) == 6
    assert net((0, 5, 6)) == -5.5


@given(nets)
def test_matchpoints_share_out_the_whole_field(field):
    mps = matchpoints(field)
    n = len(field)
    assert all(0 <= m <= 100 for m in mps)
    # every comparison hands out exactly one matchpoint: the mean is 50%
    assert abs(sum(mps) / n - 50) < 1e-9


@given(nets)
def test_a_better_net_never_scores_fewer_matchpoints(field):
    mps = matchpoints(field)
    for i in range(len(field)):
        for j in range(len(field)):
            if field[i] > field[j]:
                assert mps[i] > mps[j]
            if field[i] == field[j]:
                assert mps[i] == mps[j]


@given(nets)
def test_matchpoints_do_not_depend_on_the_fields_order(field):
    pairs = sorted(zip(field, matchpoints(field)))
    back = list(reversed(field))
    assert sorted(zip(back, matchpoints(back))) == pairs


def test_top_and_bottom_and_a_field_of_one():
    assert matchpoints([5, 1, 3]) == [100, 0, 50]
    assert matchpoints([2, 2]) == [50, 50]
    assert matchpoints([7]) == [50]


@given(st.lists(st.tuples(st.integers(1, 6), st.sampled_from("ABCD"),
                          st.tuples(*[st.integers(0, 29)] * 3)), max_size=24))
def test_standings_average_each_entrys_boards(rows):
    seen = {}
    for board, who, points in rows:
        seen[(board, who)] = points  # one play of a board each
    plays = [Play(b, w, True, p, Path("x")) for (b, w), p in seen.items()]
    results = score_boards(plays)
    table = standings(results)
    assert sorted(s.who for s in table) == sorted({w for _, w in seen})
    for s in table:
        mine = [r.of(s.who) for r in results if r.of(s.who) is not None]
        assert s.boards == len(mine)
        assert abs(s.percent - sum(m.percent for m in mine) / len(mine)) < 1e-9
    assert [s.percent for s in table] == sorted((s.percent for s in table), reverse=True)


def test_a_person_named_like_a_computer_entry_is_ranked_apart_from_it():
    plays = [Play(1, "computer (easy)", False, (5, 5, 5), Path("a")),
             Play(1, "computer (easy)", True, (9, 5, 5), Path("b"))]
    table = standings(score_boards(plays))
    assert [(s.who, s.person, s.percent) for s in table] == [
        ("computer (easy)", True, 100.0), ("computer (easy)", False, 0.0)]
