"""Invariants of whole random games (hypothesis draws seeds, seats and rules)."""

from __future__ import annotations

import json

import pytest
from games import cards_in, game_strategy, public_cards, random_game, rules_strategy
from hypothesis import given
from hypothesis import strategies as st

from crib3.cards import DECK, Card
from crib3.engine import (
    Count,
    CutStarter,
    Discard,
    DrawCutCard,
    Muggins,
    Phase,
    Play,
    Shuffle,
    State,
    fold,
    project,
    redact,
)
from crib3.engine.codec import (
    DecodeError,
    decode,
    decode_command,
    decode_rules,
    decode_view,
    encode,
    encode_command,
    encode_rules,
    encode_view,
)


def card_places(state: State) -> list[Card]:
    places = list(state.deck) + list(state.crib)
    if state.starter is not None:
        places.append(state.starter)
    for seat in range(3):
        places += list(state.hands[seat]) + list(state.played[seat])
    return places


def play_checked(seed, kinds, rules):
    states: list[State] = []
    events = []

    def record(event, state):
        events.append(event)
        states.append(state)

    game = random_game(seed, kinds, rules, on_event=record)
    return game, events, states


@given(game_strategy)
def test_every_card_is_in_exactly_one_place(params):
    game, events, states = play_checked(*params)
    for state in states:
        if state.phase in (Phase.START, Phase.CUT_FOR_DEAL, Phase.SHUFFLE):
            continue
        places = card_places(state)
        assert sorted(places) == list(DECK), (state.phase, len(places))


@given(game_strategy)
def test_scores_never_go_down_and_one_winner_reaches_the_target(params):
    seed, kinds, rules = params
    game, events, states = play_checked(seed, kinds, rules)
    previous = (0, 0, 0)
    for state in states:
        assert all(a <= b for a, b in zip(previous, state.scores))
        previous = state.scores
    final = game.state
    assert final.phase == Phase.OVER
    reached = [s for s in range(3) if final.scores[s] >= rules.target]
    assert reached == [final.winner]
    assert sum(1 for e in events if e.type == "GameWon") == 1
    assert events[-1].type == "GameWon"


@given(game_strategy)
def test_fold_of_events_equals_the_incremental_state(params):
    game, events, states = play_checked(*params)
    assert fold(game.events) == game.state
    for i in range(0, len(events), 37):
        assert fold(events[: i + 1]) == states[i]


@given(game_strategy)
def test_every_event_survives_json_and_back(params):
    game, _, _ = play_checked(*params)
    for event in game.events:
        line = json.dumps(encode(event), ensure_ascii=False)
        assert decode(json.loads(line)) == event


@given(game_strategy)
def test_a_view_never_holds_another_seats_hidden_card(params):
    game, events, states = play_checked(*params)
    for state in states[::3]:
        public = public_cards(state)
        for seat in range(3):
            own = set(state.hands[seat]) | set(state.kept[seat]) | set(state.played[seat])
            if state.discards[seat] is not None:
                own.add(state.discards[seat])
            view = project(state, seat)
            leaked = cards_in(tuple(view)) - own - public
            assert not leaked, (seat, state.phase, leaked)
        assert not cards_in(tuple(project(state, None))) - public


@given(game_strategy)
def test_redacted_events_hide_what_the_seat_may_not_see(params):
    game, events, states = play_checked(*params)
    for seat in range(3):
        for event, after in zip(events, states):
            visible = cards_in(redact(event, seat))
            own = set(after.hands[seat]) | set(after.kept[seat]) | set(after.played[seat])
            if after.discards[seat] is not None:
                own.add(after.discards[seat])
            if event.type == "CardsDealt":
                own |= set(event.hands[seat])
            assert not visible - own - public_cards(after), (seat, event.type)


@given(game_strategy)
def test_folding_a_seats_redacted_events_gives_that_seats_public_view(params):
    game, events, states = play_checked(*params)
    for seat in range(3):
        redacted_state = State()
        from crib3.engine import apply

        for i, event in enumerate(events):
            redacted_state = apply(redacted_state, redact(event, seat))
            if i % 11 == 0 or i == len(events) - 1:
                full, mine = project(states[i], seat), project(redacted_state, seat, redacted=True)
                for field in ("phase", "scores", "back_pegs", "hand", "kept", "my_discard",
                              "held", "discarded", "crib_size", "crib", "starter", "count",
                              "pile", "played", "gone", "shown", "dealer", "winner",
                              "hand_plays"):
                    assert getattr(full, field) == getattr(mine, field), (field, event.type)


@given(game_strategy)
def test_the_view_holds_the_plays_history_public_and_whole(params):
    """Every seat's view (and a spectator's) holds every card
    played this hand, by whom and in which count, and nothing more: the
    cards are the ones face up in `played`, in each seat's order, the counts
    numbered from 0 without gaps, the current count's cards the pile's."""
    game, events, states = play_checked(*params)
    for state in states[::2]:
        for seat in (0, 1, 2, None):
            view = project(state, seat)
            history = view.hand_plays
            assert cards_in(history) <= public_cards(state)
            for s in range(3):
                assert tuple(c for who, c, _ in history if who == s) == view.played[s]
            numbers = [n for _, _, n in history]
            assert numbers == sorted(numbers)
            assert not numbers or (numbers[0] == 0 and
                                   set(numbers) == set(range(numbers[-1] + 1)))
            if view.pile:
                last = [(who, c) for who, c, n in history if n == numbers[-1]]
                assert last == list(zip(view.pile_seats, view.pile))


# --- commands, rules and seat views: the engine's codec beyond events ----------------
# (what crosses between the card room's processes, `crib3.room.wire`, is written so)

_cards = st.sampled_from(DECK)
_seats = st.integers(0, 2)
command_strategy = st.one_of(
    st.builds(Discard, _seats, _cards), st.builds(Play, _seats, _cards),
    st.builds(CutStarter, _seats, st.integers(4, 32)),
    st.builds(Count, _seats, st.integers(0, 29)), st.builds(Muggins, _seats, st.booleans()),
    st.builds(DrawCutCard, _seats, _cards), st.builds(Shuffle, st.permutations(DECK).map(tuple)))


@given(command_strategy)
def test_every_command_survives_json_and_back(command):
    line = json.dumps(encode_command(command))
    assert decode_command(json.loads(line)) == command
    assert json.loads(line)["type"] == type(command).__name__


@given(rules_strategy)
def test_the_rules_survive_json_and_back(rules):
    assert decode_rules(json.loads(json.dumps(encode_rules(rules)))) == rules


@given(game_strategy)
def test_every_seats_view_survives_json_and_back(params):
    game, events, states = play_checked(*params)
    for state in [*states[::5], states[-1]]:
        for seat in (0, 1, 2, None):
            view = project(state, seat)
            line = json.dumps(encode_view(view))
            back = decode_view(json.loads(line))
            assert back == view and back.phase is view.phase


def test_the_codec_refuses_what_it_does_not_know():
    view = encode_view(random_game(7).view(1))
    with pytest.raises(DecodeError, match="unknown command type 'Exec'"):
        decode_command({"type": "Exec", "seat": 0})
    with pytest.raises(DecodeError, match="unknown command type 'Command'"):
        decode_command({"type": "Command"})  # (the base class is no command)
    with pytest.raises(DecodeError, match="unknown field 'card'"):
        decode_command({"type": "Muggins", "seat": 0, "call": True, "card": "5H"})
    with pytest.raises(DecodeError, match="lacks the field 'card'"):
        decode_command({"type": "Play", "seat": 0})
    with pytest.raises(DecodeError, match=r"Play.seat should be a whole number, not True"):
        decode_command({"type": "Play", "seat": True, "card": "5H"})
    with pytest.raises(DecodeError, match="lacks the field 'hand'"):
        decode_view({k: v for k, v in view.items() if k != "hand"})
    with pytest.raises(DecodeError, match="unknown field 'deck'"):
        decode_view({**view, "deck": []})
    with pytest.raises(DecodeError, match=r"view.hand\[1\] should be a card"):
        decode_view({**view, "hand": ["AS", "XX"]})
    with pytest.raises(DecodeError, match="view.phase should be a phase of the game"):
        decode_view({**view, "phase": "lunch"})
    with pytest.raises(DecodeError, match="view.skunks should be a list of 3"):
        decode_view({**view, "skunks": [0, 0]})
    with pytest.raises(DecodeError, match="rules.target should be a whole number"):
        decode_rules({"target": "121", "skunks": False, "muggins": False})
