"""The look-ahead's own later cards: the seat's best on each deal played
out (Style.search_self, off: measured no better), not the standard
player's choice (issue 13, point 4); and the Style's play budget."""

from __future__ import annotations

from dataclasses import replace

from crib3.cards import parse_card
from crib3.players import coach
from crib3.players.analysis import greedy_code, pack_ranks

SEARCH = replace(coach.CURRENT, search_self=True)
PLAIN = replace(coach.CURRENT, search_self=False)


def test_a_searching_playout_with_nothing_to_choose_is_the_plain_playout():
    """Where the seat's later cards leave no choice (one card left after
    this one), searching changes nothing: the same points, margin and
    outcome as the plain playout, on the same deal."""
    held = [tuple(parse_card(c) for c in hand.split())
            for hand in ("9H 4D", "KC 5S QS", "2C 8D 3H")]
    ranks = [pack_ranks(sorted(c.rank for c in hand)) for hand in held]
    for card in held[0]:
        args = (card, 0, ranks, held, (10,), 10, (10, 20, 30), 121, None, ())
        plain = coach._play_out(*args, greedy_code, coach._MEAN)
        searched = coach._play_out_searching(*args, greedy_code, coach._MEAN, coach.WIN_BONUS)
        assert searched == plain


def test_a_searching_playout_is_never_worse_for_the_seat_than_the_plain_one():
    """The seat picks its best later card on the deal, so its margin is at
    least what the standard choice makes of the same deal."""
    held = [tuple(parse_card(c) for c in hand.split())
            for hand in ("6H 6D 7D 8H", "2H 2D 5H QC", "3H 4D 7C 9H")]
    ranks = [pack_ranks(sorted(c.rank for c in hand)) for hand in held]
    for card in held[0]:
        args = (card, 0, ranks, held, (), 0, (24, 31, 36), 121, None, ())
        plain = coach._play_out(*args, greedy_code, coach._MEAN)
        searched = coach._play_out_searching(*args, greedy_code, coach._MEAN, coach.WIN_BONUS)
        assert searched[1] >= plain[1]


def test_the_styles_budget_and_samples_cap_the_look_ahead(monkeypatch):
    """Style.play_budget and play_samples bound a decision's playouts (so
    `crib3 sim` can compare budgets without a code edit)."""
    from test_players import _positions

    calls = []
    real = coach._play_out
    monkeypatch.setattr(coach, "_play_out", lambda *a, **k: calls.append(1) or real(*a, **k))
    small = replace(PLAIN, play_budget=60, play_samples=25)
    seen = 0
    for view in _positions(games=1):
        ranks = len({c.card.rank for c in view.legal})
        if ranks < 2:
            continue
        calls.clear()
        coach._rank_plays(view, coach.PLAY_SAMPLES, small)
        assert len(calls) <= ranks * min(25, 60 // ranks)
        seen += 1
    assert seen > 5
