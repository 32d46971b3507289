"""A seat's feed: the only side of a game a player's screen is given."""

from __future__ import annotations

import random

import pytest
from games import cards_in, game_strategy, public_cards
from hypothesis import given, settings

from crib3.engine import Count, Discard, Game, IllegalMove, PlayerInfo, Rules, SeatFeed, fold
from crib3.players.easy import EasyPlayer


def played_with_feeds(seed: int, kinds, rules: Rules):
    """A whole game played through the three seats' feeds, with what each
    feed handed on, paired with the true state after each event."""
    infos = [PlayerInfo(f"P{i}", kind) for i, kind in enumerate(kinds)]
    true_states = []
    game = Game.new(infos, rules, seed=seed, subscribers=[lambda e, s: true_states.append(s)])
    feeds = [SeatFeed(game, seat) for seat in range(3)]
    received: dict[int, list] = {}
    for seat in range(3):
        received[seat], _ = feeds[seat].follow(
            lambda e, s, v, seat=seat: received[seat].append((e, s, v)))
    pickers = [EasyPlayer(random.Random(seed + i)) for i in range(3)]
    while not game.over:
        seat = game.to_act()[0]
        feeds[seat].dispatch(pickers[seat].choose(game.view(seat)))
    return game, {seat: list(zip(items, true_states)) for seat, items in received.items()}


@settings(max_examples=25)
@given(game_strategy)
def test_a_feed_never_hands_on_a_card_its_seat_may_not_see(params):
    seed, kinds, rules = params
    game, received = played_with_feeds(seed, kinds, rules)
    for seat, items in received.items():
        assert len(items) == len(game.events)
        for (event, state, view), true_state in items:
            own = set(true_state.hands[seat]) | set(true_state.kept[seat]) | \
                set(true_state.played[seat])
            if true_state.discards[seat] is not None:
                own.add(true_state.discards[seat])
            seen = cards_in(event) | cards_in(tuple(view))
            seen |= cards_in((state.hands, state.kept, state.crib, state.deck, state.starter))
            assert not seen - own - public_cards(true_state), (seat, event.type)
            assert not any(isinstance(c, Count) for c in view.legal)


def test_the_feeds_state_is_the_fold_of_what_it_handed_on():
    game, received = played_with_feeds(5, ("human", "easy", "human"), Rules(muggins=True))
    for _seat, items in received.items():
        events = [event for (event, _, _), _ in items]
        assert fold(events) == items[-1][0][1]


def test_a_feed_takes_commands_for_its_own_seat_only():
    game = Game.new([PlayerInfo("A", "human"), PlayerInfo("B", "human"),
                     PlayerInfo("C", "human")], seed=3)
    someone_else = game.view(1).legal[0]
    assert isinstance(someone_else, Discard)
    with pytest.raises(IllegalMove, match="only move for itself"):
        SeatFeed(game, 0).dispatch(someone_else)
    before = len(game.events)
    SeatFeed(game, 1).dispatch(someone_else)
    assert len(game.events) > before


@settings(max_examples=25)
@given(game_strategy)
def test_a_spectators_feed_hands_on_only_cards_face_up_on_the_table(params):
    """A seat-less feed (a card-room spectator): every event, state and
    view it hands on holds no card but those face up at that moment (no
    hand, no throw, no crib before it is turned up, no deck)."""
    seed, kinds, rules = params
    infos = [PlayerInfo(f"P{i}", kind) for i, kind in enumerate(kinds)]
    true_states = []
    game = Game.new(infos, rules, seed=seed, subscribers=[lambda e, s: true_states.append(s)])
    watched, _ = SeatFeed(game, None).follow(lambda e, s, v: watched.append((e, s, v)))
    pickers = [EasyPlayer(random.Random(seed + i)) for i in range(3)]
    while not game.over:
        seat = game.to_act()[0]
        SeatFeed(game, seat).dispatch(pickers[seat].choose(game.view(seat)))
    assert len(watched) == len(game.events) == len(true_states)
    dealt_seen = False
    for (event, state, view), true_state in zip(watched, true_states):
        seen = cards_in(event) | cards_in(tuple(view))
        seen |= cards_in((state.hands, state.kept, state.crib, state.deck, state.discards))
        assert not seen - public_cards(true_state), event.type
        assert view.seat is None and view.legal == () and view.hand == () and not view.my_turn
        dealt_seen |= event.type == "CardsDealt" and any(true_state.hands)
    assert dealt_seen  # the check had hands to hide


def test_a_spectators_feed_takes_no_command():
    game = Game.new([PlayerInfo("A", "human"), PlayerInfo("B", "human"),
                     PlayerInfo("C", "human")], seed=3)
    with pytest.raises(IllegalMove, match="spectator"):
        SeatFeed(game, None).dispatch(game.view(1).legal[0])
