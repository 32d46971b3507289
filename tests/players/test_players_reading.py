"""The expert's look-ahead reads the other seats' hands from their earlier
plays, and plays its playouts warily."""

from __future__ import annotations

import math
import random
from dataclasses import replace

import pytest
from helpers import cards, hand_set_up, lead_after_a_ten_and_a_four, plays
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from crib3.cards import parse_card
from crib3.engine import Game, PlayerInfo, Rules, project
from crib3.players import coach, lookahead, make_player
from crib3.players.analysis import OPPONENT_CRIB_WEIGHT, pack_pile, pack_ranks
from crib3.players.expert import DECEMBER_2026
from crib3.players.keeps import kept_with
from crib3.players.reading import (
    EXPERT_HABIT,
    SHARES,
    Choice,
    choices_by_seat,
    deal_weight,
    play_chance,
)
from crib3.players.rollout import wary_code
from crib3.players.style import CURRENT, PLAY_SAMPLES


def _lead_after_a_nine():
    """Seat 0 leads the second count. In the first, seat 1 answered seat 0's
    king (count 10) with a nine: holding a five it would have made fifteen,
    holding a ten-card it would have played that (the standard choice: the
    highest card that gives nothing away). So it most likely holds
    neither."""
    _, state = hand_set_up(2, {0: "KS KH 4C 3D", 1: "9D 6S 3S 7C", 2: "QC 6D 4D 8H"}, "7D")
    _, state = plays(state, "0:KS 1:9D 2:QC")  # 29: every seat says go; seat 0 leads again
    view = project(state, 0)
    assert view.my_turn and view.count == 0 and view.hand_gos
    return view


def test_an_opponents_earlier_plays_make_holdings_unlikely():
    """Reading seat 2's ten and four, the look-ahead deals it a nine, a
    five or a three about a quarter as often as the blind deal does; seat
    1's one play (a pair, which any player makes) reads nothing."""

    from crib3.players.analysis import draw_hands, min_values
    from crib3.players.reading import Reader

    view = lead_after_a_ten_and_a_four()
    others = {1: 3, 2: 2}
    pool, floors = sorted(view.unseen()), min_values(view.hand_gos)
    rng = random.Random(3)
    reader = Reader(view.hand_plays, [1, 2])

    def draw():
        return draw_hands(pool, others, floors, rng)

    def share(deal, seat, ranks):
        deals = [deal() for _ in range(3000)]
        return sum(any(c.rank in ranks for c in d[seat]) for d in deals) / len(deals)

    blind = share(draw, 2, {9, 5, 3})
    read = share(lambda: reader.deal(draw, rng, lookahead.READ_TRIES), 2, {9, 5, 3})
    assert read < 0.5 * blind
    assert abs(share(draw, 1, {10, 11, 12, 13})
               - share(lambda: reader.deal(draw, rng, lookahead.READ_TRIES), 1,
                       {10, 11, 12, 13})) < 0.05


def _margins(view, style, deals, monkeypatch):
    """Each card's margin over `deals` deals, with no early stop."""
    monkeypatch.setattr(lookahead, "MIN_SAMPLES", 10**9)
    many = replace(style, play_budget=16 * deals, play_samples=deals)
    return {o.card: o.margin for o in coach._rank_plays(view, deals, many)}


def test_an_opponents_earlier_play_changes_the_experts_lead(monkeypatch):
    """With seat 2 read (no nine, five or three, most likely),
    the five is the better lead; without the reading, the queen. Over 1,500
    deals each (no early stop) the reading puts the five about 0.2 points
    of margin ahead of the queen, whether drawn from the posterior (the
    expert's way) or by the Reader's rejection, and without it the queen
    is about 0.6 ahead; the December 2026 expert leads the queen. (At the
    expert's own 128 deals or fewer the five's lead is within its noise.)"""
    view = lead_after_a_ten_and_a_four()
    five, queen = parse_card("5H"), parse_card("QD")
    assert coach._rank_plays(view, PLAY_SAMPLES, DECEMBER_2026)[0].card == queen
    assert coach.rank_plays(view)[0].card \
        == coach._rank_plays(view, PLAY_SAMPLES, CURRENT)[0].card  # the coach is the expert
    blind = replace(CURRENT, read_plays=False)
    rejection = replace(CURRENT, posterior=False)
    for style in (CURRENT, rejection):
        margins = _margins(view, style, 1500, monkeypatch)
        assert margins[five] > margins[queen] + 0.05
    margins = _margins(view, blind, 1500, monkeypatch)
    assert margins[queen] > margins[five] + 0.3


def test_a_deal_is_weighed_by_how_likely_the_seats_plays_were():
    """Seat 1's nine at count 10 is the standard choice without a five or a
    ten-card, and a surprise with one: the deals giving it a five weigh
    less. Seat 2's queen at 19 (its only card under 13 a ten fits) reads
    nothing into seat 2 beyond its other cards' ranks."""
    view = _lead_after_a_nine()
    made = choices_by_seat(view.hand_plays, [1, 2])
    assert made[1] == (Choice((), pack_pile([13]), 10, 9),)
    assert made[2] == (Choice((), pack_pile([13, 9]), 19, 12),)
    plain = deal_weight({1: made[1]}, {1: cards("6S 3S 7C")})
    with_five = deal_weight({1: made[1]}, {1: cards("5S 3S 7C")})
    with_ten = deal_weight({1: made[1]}, {1: cards("JS 3S 7C")})
    assert plain > 4 * with_five and plain > 4 * with_ten


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.integers(1, 13), min_size=1, max_size=4),
       pile=st.lists(st.integers(1, 13), max_size=8))
def test_the_model_plays_a_legal_rank_and_its_chances_add_up(hand, pile):
    values = [r if r < 10 else 10 for r in pile]
    while sum(values) > 31:
        pile, values = pile[:-1], values[:-1]
    count = sum(values)
    hand = sorted(hand)
    assume(all((hand + pile).count(r) <= 4 for r in set(hand + pile)))  # one deck
    code, packed = pack_ranks(hand), pack_pile(pile)
    legal = {r for r in hand if (r if r < 10 else 10) <= 31 - count}
    index = wary_code(code, packed, count)
    assert (index >= 0) == bool(legal)
    if legal:
        assert hand[index] in legal
        assert abs(sum(play_chance(code, packed, count, r) for r in legal) - 1) < 1e-9
    assert all(play_chance(code, packed, count, r) == 0
               for r in range(1, 14) if r not in legal)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32), floor_1=st.integers(1, 10), floor_2=st.integers(1, 10),
       size_1=st.integers(0, 4), size_2=st.integers(0, 4))
def test_the_faster_deal_keeps_every_floor_and_deals_each_card_once(seed, floor_1, floor_2,
                                                                     size_1, size_2):
    """`draw_hands` deals what `sample_hands` deals: the sizes asked, from
    the pool, no card twice, nobody below its floor; None when impossible."""

    from crib3.cards import DECK
    from crib3.players.analysis import draw_hands

    rng = random.Random(seed)
    pool = rng.sample(DECK, 20)
    sizes = {1: size_1, 2: size_2}
    floors = {s: f for s, f in ((1, floor_1), (2, floor_2)) if f > 1}
    dealt = draw_hands(pool, sizes, floors, rng)
    # The higher floor's seat takes only cards the other could take too:
    # a deal exists exactly when each floor leaves enough cards.
    (hi_floor, hi_size), (lo_floor, lo_size) = sorted(
        [(floor_1, size_1), (floor_2, size_2)], reverse=True)
    possible = len([c for c in pool if c.value >= hi_floor]) >= hi_size \
        and len([c for c in pool if c.value >= lo_floor]) >= hi_size + lo_size
    assert (dealt is not None) == possible
    if dealt is None:
        return
    assert {s: len(h) for s, h in dealt.items()} == sizes
    cards_dealt = [c for h in dealt.values() for c in h]
    assert len(set(cards_dealt)) == len(cards_dealt) and set(cards_dealt) <= set(pool)
    assert all(c.value >= floors.get(s, 1) for s, h in dealt.items() for c in h)


# What expert-2026-12 played, as recorded on main before the reading came:
# the first card of its ranking at the first 120 play positions of games 0
# and 1 of three standard players.
DECEMBER_PLAYS = (
    "KH 9H 8S QD 7D 7S 6C 9H 7S KH 7C 8H 8H QS 7D 7S 4D AC 5H 2S "
    "7C 5H AS 10H 10S KS 9D 10S 3S 9D 10C 7S 9D 5S 7C 9C 6S 7S KS 6S "
    "3H AD KS KH 7S 6H KS KD KH 10H KS KH 2S 7C KD 9H 3C 9H KS KC "
    "7C QD 2S 7C QC AH 4C 4D 3D 7C 2C 3D 8S 2D KC 4S 4D JH 2D 4D "
    "9S 2D 4C 8S 8S 3S JH 8S 6D 5H 8S 5S 4H 8H AS 4D 6S KH KS 10D "
    "2H KS JD JS KS 6C KH KS JH QS 2D JH 6C 2D KH 6C 2D KH QC 7D"
)


def test_the_december_2026_expert_plays_exactly_as_it_did():
    """The yardstick does not move: expert-2026-12's look-ahead draws its
    deals and plays its playouts as before the reading (same cards, same
    random draws)."""

    chosen: list[str] = []
    for seed in (0, 1):
        game = Game.new([PlayerInfo(f"p{i}", "standard") for i in range(3)], Rules(), seed=seed)
        players = [make_player("standard", random.Random(seed + s)) for s in range(3)]
        while not game.over and len(chosen) < 120:
            seat = game.to_act()[0]
            view = game.view(seat)
            if view.phase == "play":
                chosen.append(coach._rank_plays(view, PLAY_SAMPLES,
                                                DECEMBER_2026)[0].card.code)
            game.dispatch(players[seat].choose(view))
    assert " ".join(chosen) == DECEMBER_PLAYS


def test_a_seat_the_table_names_the_standard_bot_may_be_read_as_one():
    """With `read_standard`, a seat whose kind is `standard` (public: the
    seat labels say it) is read as making the standard choice that often;
    anybody else, and every seat without it, by the usual mix. The sharper
    reading makes seat 1's five (a surprise for a standard player, who would
    have made fifteen) far less likely than the mix does."""

    sharp = replace(CURRENT, read_standard=0.95)
    assert lookahead._read_shares("standard", sharp) == (0.95, 0.0)
    assert lookahead._read_shares("human", sharp) == SHARES
    assert lookahead._read_shares("expert", replace(sharp, read_expert=False)) == SHARES
    assert lookahead._read_shares("standard", replace(CURRENT, read_standard=0.0)) == SHARES
    assert lookahead._read_shares("standard", CURRENT) == (CURRENT.read_standard, 0.0)
    view = _lead_after_a_nine()
    made = choices_by_seat(view.hand_plays, [1])
    ratio = {}
    for shares in (SHARES, (0.95, 0.0)):
        plain = deal_weight({1: made[1]}, {1: cards("6S 3S 7C")}, shares)
        with_five = deal_weight({1: made[1]}, {1: cards("5S 3S 7C")}, shares)
        ratio[shares] = plain / with_five
    assert ratio[(0.95, 0.0)] > 3 * ratio[SHARES]
    keeps = replace(CURRENT, read_standard_keeps=0.9)
    assert lookahead._keep_belief("standard", keeps) == 0.9
    assert lookahead._keep_belief("human", keeps) == CURRENT.read_keeps


def test_a_seat_the_table_names_a_bot_is_read_by_that_bots_habits():
    """An `expert` seat is read by the expert's own shares and keep, an
    `easy` seat as playing and throwing any legal card alike, a person by the
    usual mix; with `read_expert` or `read_easy` off, that bot as a person."""

    style = CURRENT
    assert lookahead._read_shares("expert", style) == (style.read_expert_greedy,
                                                   style.read_expert_wary)
    assert lookahead._keep_belief("expert", style) == style.read_expert_keeps
    assert lookahead._read_shares("easy", style) == (0.0, 0.0)
    assert lookahead._keep_belief("easy", style) == 0.0
    assert lookahead._read_shares("human", style) == SHARES
    assert lookahead._keep_belief("human", style) == style.read_keeps
    for kind, off in (("expert", replace(style, read_expert=False)),
                      ("easy", replace(style, read_easy=False))):
        assert lookahead._read_shares(kind, off) == SHARES
        assert lookahead._keep_belief(kind, off) == off.read_keeps
    habits = replace(style, expert_habit=True, expert_crib=True)
    assert lookahead._read_shares("expert", habits) == EXPERT_HABIT
    assert lookahead._read_shares("standard", habits) == lookahead._read_shares("standard", style)
    assert lookahead._crib_belief("expert", True, habits) == 1.0
    assert lookahead._crib_belief("expert", False, habits) == -OPPONENT_CRIB_WEIGHT
    for kind in ("standard", "human", "easy"):
        assert lookahead._crib_belief(kind, True, habits) == 0.0
    assert lookahead._crib_belief("expert", True, style) == 0.0  # off, as measured
    assert lookahead._crib_belief("expert", True, replace(habits, read_expert=False)) == 0.0


def _expert_plays(games: int) -> list[tuple[int, int, int, int]]:
    """(packed hand, packed pile, count, rank played) at each play of the
    expert's own games where it had a choice of ranks."""

    out = []
    for seed in range(games):
        game = Game.new([PlayerInfo(f"p{i}", "expert") for i in range(3)], Rules(),
                        seed=4100 + seed)
        bots = [make_player("expert", random.Random(seed * 7 + s)) for s in range(3)]
        while not game.over:
            seat = game.to_act()[0]
            view = game.view(seat)
            command = bots[seat].choose(view)
            if view.phase == "play" and len({c.card.rank for c in view.legal
                                             if hasattr(c, "card")}) > 1:
                out.append((pack_ranks(sorted(c.rank for c in view.hand)),
                            pack_pile(c.rank for c in view.pile), view.count, command.card.rank))
            game.dispatch(command)
    return out


@pytest.mark.slow
def test_the_experts_shares_fit_its_plays_better_than_the_usual_mix():
    """The shares an `expert` seat is read by make the expert's own plays
    more likely than the usual mix does, and than any legal card alike: the
    reading's model of the expert is its habits, not a guess. (The mean
    log-likelihood a play, over 1,509 plays of 20 games: these shares
    -0.93, any card alike -0.98, the usual mix -1.03; the usual mix does
    better on other games, as on these four, but never as well as these.)"""

    plays = _expert_plays(4)
    assert len(plays) > 250

    def log_likelihood(shares: tuple[float, float]) -> float:
        return sum(math.log(play_chance(*play, shares=shares)) for play in plays) / len(plays)

    style = CURRENT
    fitted = log_likelihood((style.read_expert_greedy, style.read_expert_wary))
    assert fitted > log_likelihood(SHARES) + 0.02
    assert fitted > log_likelihood((0.0, 0.0))
    # The habit (points, risk, pips) fits them better still: -0.74 a play
    # over 23,588 plays of 300 games.
    assert log_likelihood(EXPERT_HABIT) > fitted + 0.1


@settings(max_examples=100, deadline=None)
@given(hand=st.lists(st.integers(1, 13), min_size=1, max_size=4),
       pile=st.lists(st.integers(1, 13), max_size=5))
def test_the_habits_chances_are_a_distribution_over_the_legal_ranks(hand, pile):
    """Under `EXPERT_HABIT`, the legal ranks' chances add up to one, each is
    at least the stray share of it, and a rank that does not fit has none."""
    values = [min(10, r) for r in pile]
    while sum(values) > 31:
        pile, values = pile[:-1], values[:-1]
    count = sum(values)
    assume(all([*hand, *pile].count(r) <= 4 for r in hand))
    code = pack_ranks(sorted(hand))
    packed = pack_pile(pile)
    legal = {r for r in hand if count + min(10, r) <= 31}
    assume(legal)
    chances = {r: play_chance(code, packed, count, r, EXPERT_HABIT) for r in set(hand)}
    assert abs(sum(chances[r] for r in legal) - 1) < 1e-9
    assert all(chances[r] >= EXPERT_HABIT.stray / len(legal) - 1e-12 for r in legal)
    assert all(chances[r] == 0.0 for r in set(hand) - legal)


def test_the_expert_mostly_keeps_the_best_four_by_ranks():
    """What `read_expert_keeps` rests on: the expert's discard keeps the
    four with the best expected hand by ranks alone (the four
    `keeps.keep_chance` believes in) in most deals."""

    kept_best = deals = 0
    for seed in range(150):
        game = Game.new([PlayerInfo(f"p{i}", "expert") for i in range(3)], Rules(),
                        seed=4200 + seed)
        for seat in range(3):
            view = game.view(seat)
            thrown = coach.rank_discards(view, CURRENT)[0].card
            kept_best += kept_with([c.rank for c in view.hand if c != thrown], thrown.rank) > 0
            deals += 1
    assert kept_best / deals > 0.75


def test_the_playouts_play_a_seat_named_as_the_expert_the_wary_way(monkeypatch):
    """With `wary_experts`, the look-ahead's playouts move a seat the table
    names as the expert by `rollout.wary_code` and a standard seat by the
    standard choice; off, every other seat the standard way."""

    asked: list[int] = []
    real = lookahead.wary_code
    monkeypatch.setattr(lookahead, "wary_code",
                        lambda hand, pile, count: asked.append(hand) or real(hand, pile, count))
    kept = {0: "KS KH 4C 3D", 1: "9D 6S 3S 7C", 2: "QC 6D 4D 8H"}
    for kinds, style, wary in ((("expert", "standard", "expert"), CURRENT, True),
                               (("expert", "standard", "standard"), CURRENT, False),
                               (("expert", "expert", "expert"),
                                replace(CURRENT, wary_experts=False), False)):
        players = [PlayerInfo(f"p{s}", kind) for s, kind in enumerate(kinds)]
        _, state = hand_set_up(2, kept, "7D", players=players)
        view = project(state, 0)
        asked.clear()
        coach._rank_plays(view, PLAY_SAMPLES, style)
        assert bool(asked) is wary, kinds
