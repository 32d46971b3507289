"""The look-ahead's own later cards: the seat's best on each deal played
out (Style.search_self, off: measured no better), not the standard
player's choice; and the Style's play budget, larger
near the end (Style.end_scale)."""

from __future__ import annotations

from dataclasses import replace

from helpers import hand_set_up, plays

from crib3.cards import parse_card
from crib3.engine import project
from crib3.players import coach, lookahead, playout
from crib3.players.analysis import greedy_code, pack_ranks
from crib3.players.expert import DECEMBER_2026
from crib3.players.style import CURRENT, PLAY_BUDGET, PLAY_SAMPLES, WIN_BONUS

SEARCH = replace(CURRENT, search_self=True)
PLAIN = replace(CURRENT, search_self=False)


def test_a_searching_playout_with_nothing_to_choose_is_the_plain_playout():
    """Where the seat's later cards leave no choice (one card left after
    this one), searching changes nothing: the same points, margin and
    outcome as the plain playout, on the same deal."""
    held = [tuple(parse_card(c) for c in hand.split())
            for hand in ("9H 4D", "KC 5S QS", "2C 8D 3H")]
    ranks = [pack_ranks(sorted(c.rank for c in hand)) for hand in held]
    for card in held[0]:
        args = (card, 0, ranks, held, (10,), 10, (10, 20, 30), 121, None, ())
        plain = playout.play_out(*args, greedy_code, playout.MEAN_WEIGHTS)
        searched = playout.play_out_searching(*args, greedy_code, playout.MEAN_WEIGHTS, WIN_BONUS)
        assert searched == plain


def test_a_searching_playout_is_never_worse_for_the_seat_than_the_plain_one():
    """The seat picks its best later card on the deal, so its margin is at
    least what the standard choice makes of the same deal."""
    held = [tuple(parse_card(c) for c in hand.split())
            for hand in ("6H 6D 7D 8H", "2H 2D 5H QC", "3H 4D 7C 9H")]
    ranks = [pack_ranks(sorted(c.rank for c in hand)) for hand in held]
    for card in held[0]:
        args = (card, 0, ranks, held, (), 0, (24, 31, 36), 121, None, ())
        plain = playout.play_out(*args, greedy_code, playout.MEAN_WEIGHTS)
        searched = playout.play_out_searching(*args, greedy_code, playout.MEAN_WEIGHTS, WIN_BONUS)
        assert searched[1] >= plain[1]


def test_the_styles_budget_and_samples_cap_the_look_ahead(monkeypatch):
    """Style.play_budget and play_samples bound a decision's playouts (so
    `crib3 sim` can compare budgets without a code edit)."""
    from games import play_positions

    calls = []
    real = lookahead.play_out
    monkeypatch.setattr(lookahead, "play_out", lambda *a, **k: calls.append(1) or real(*a, **k))
    small = replace(PLAIN, play_budget=60, play_samples=25, end_scale=1.0)
    seen = 0
    for view in play_positions(games=1):
        ranks = len({c.card.rank for c in view.legal})
        if ranks < 2:
            continue
        calls.clear()
        coach._rank_plays(view, PLAY_SAMPLES, small)
        assert len(calls) <= ranks * min(25, 60 // ranks)
        seen += 1
    assert seen > 5


def test_near_the_end_a_larger_budget_finds_the_safer_card():
    """Seat 0 holds AD 4H QD KH at 72-66-105 (seat 2 needs 16), starter
    2D, after 2H and 2C. With the deals drawn by the Reader's rejection
    (the expert before the posterior), over 128 deals at most, 72 each with
    four options, the old budget plays the four; with 1.5 times the budget
    near the end, the king. Over 3,000 deals each (no early stop) the king
    was the best (margin -5.95, seat 2 winning first 6.8%) and the four the
    worst (-10.19, 9.9%). With the deals drawn from the posterior (the
    expert now), 3,000 deals put the queen and the king first (-6.65 and
    -6.95, seat 2 first 7.4% and 7.6%) and the four last (-11.10, 10.7%),
    and the expert plays the queen at either budget."""
    _, state = hand_set_up(0, {0: "AD 4H QD KH", 1: "2H 3C 5D 8C", 2: "2C 3H 4S 6H"}, "2D",
                           scores=(72, 66, 105))
    _, state = plays(state, "1:2H 2:2C")
    view = project(state, 0)
    rejection = replace(CURRENT, posterior=False)
    old = replace(rejection, end_scale=1.0)
    assert coach._rank_plays(view, PLAY_SAMPLES, old)[0].card == parse_card("4H")
    assert coach._rank_plays(view, PLAY_SAMPLES, rejection)[0].card == parse_card("KH")
    now = replace(CURRENT, end_scale=1.0)
    assert coach._rank_plays(view, PLAY_SAMPLES, now)[0].card == parse_card("QD")
    assert coach._rank_plays(view, PLAY_SAMPLES, CURRENT)[0].card == parse_card("QD")
    assert coach.rank_plays(view)[0].card == parse_card("QD")  # the coach says the same


def test_the_end_budget_applies_only_near_the_end(monkeypatch):
    """Mid-game the look-ahead spends what it did; within ENDGAME of the
    target, up to end_scale times as much (the December 2026 expert: 1)."""
    from games import play_positions

    assert DECEMBER_2026.end_scale == 1.0
    calls = []
    real = lookahead.play_out
    monkeypatch.setattr(lookahead, "play_out", lambda *a, **k: calls.append(1) or real(*a, **k))
    most = {False: 0, True: 0}
    for view in play_positions(games=2):
        ranks = len({c.card.rank for c in view.legal})
        if ranks < 2:
            continue
        calls.clear()
        coach._rank_plays(view, PLAY_SAMPLES)
        near = max(view.scores) + lookahead.ENDGAME >= view.rules.target
        most[near] = max(most[near], len(calls))
        if not near:
            assert len(calls) <= PLAY_BUDGET
    assert most[True] > PLAY_BUDGET
