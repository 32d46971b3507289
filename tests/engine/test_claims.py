"""Muggins claims: every claim on record, what an over-claim costs under each
muggins rule, pegging claims, and the log of it all replaying and verifying."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from games import claimed_game
from helpers import hand_set_up, play_out, plays
from hypothesis import given, settings
from hypothesis import strategies as st

from crib3.cards import parse_card
from crib3.engine import Count, Game, IllegalMove, Muggins, Phase, Play, PlayerInfo, Rules
from crib3.engine.events import (
    FRIENDLY,
    MUGGINS_RULES,
    STRICT,
    CardPlayed,
    ClaimRefused,
    HandCounted,
    MugginsCalled,
    ScoringEvent,
)
from crib3.engine.log import LogError, load_log, make_header, replay, write_log
from crib3.engine.rules import step, to_act
from crib3.engine.state import apply
from crib3.scoring import score_hand, score_play

BOT = "standard"
C = parse_card


claim_rules = st.builds(Rules, target=st.just(61), muggins=st.just(True),
                        muggins_rule=st.sampled_from(sorted(MUGGINS_RULES)),
                        pegging_claims=st.booleans())
claim_kinds = st.sampled_from([("human", BOT, BOT), ("human", "human", BOT),
                               (BOT, "human", "human")])


@settings(max_examples=12)
@given(st.integers(0, 2**32), claim_kinds, claim_rules)
def test_a_claim_changes_the_scores_only_as_the_rule_says(seed, kinds, rules):
    game, befores = claimed_game(seed, kinds, rules)
    for event, before in zip(game.events, befores):
        after = apply(before, event)
        if isinstance(event, ClaimRefused):
            assert event.claimed > event.holds
            expected = event.claimed - event.holds if rules.muggins_rule == STRICT else 0
            assert event.points == expected and event.taker == (event.seat + 1) % 3
            gained = [a - b for a, b in zip(after.scores, before.scores)]
            assert gained == [expected if s == event.taker else 0 for s in range(3)]
            # nothing else moves: the claimant claims again
            assert after._replace(scores=before.scores, back_pegs=before.back_pegs,
                                  sources=before.sources) == before
            if max(after.scores) < rules.target:  # (else the excess won the game for the taker)
                assert to_act(after) == to_act(before) == (event.seat,)
        elif isinstance(event, HandCounted):
            true = score_hand(event.cards, event.starter, crib=event.crib).total
            assert 0 <= event.points <= true and event.points + event.missed == true
        elif isinstance(event, CardPlayed):
            true = score_play((*before.pile, event.card)).total
            assert 0 <= event.points <= true and event.points + event.missed == true
            if not (rules.pegging_claims and game.state.players[event.seat].is_human):
                assert event.missed == 0
    # every point on the board came from a scoring event or an over-claim's excess
    scored = sum(e.points for e in game.events if isinstance(e, (ScoringEvent, ClaimRefused)))
    assert sum(game.state.scores) == scored
    # and the log replays, claims and all, to the same state
    assert replay(enumerate(game.events, start=2)) == game.state


def test_the_strict_rule_gives_the_excess_to_the_next_player(tmp_path: Path):
    kept = {0: "2H 4C 6S 8D", 1: "AH 3C 7S 9D", 2: "2C 3D 7H 9S"}
    players = (PlayerInfo("H0"), PlayerInfo("B1", BOT), PlayerInfo("B2", BOT))
    _, state = hand_set_up(2, kept, starter="5S", discards={0: "5H", 1: "5C", 2: "JD"},
                           crib_card="QS", players=players,
                           rules=Rules(muggins=True, muggins_rule=STRICT))
    _, state = play_out(state, until=lambda s: s.phase == Phase.SHOW)
    assert to_act(state) == (0,)
    a, b, c = state.scores
    holds = score_hand(tuple(sorted(state.kept[0])), state.starter).total
    events, after = step(state, Count(0, holds + 3))
    assert events == [ClaimRefused(seat=0, claimed=holds + 3, holds=holds, crib=False, card=None,
                                   taker=1, points=3, scores=(a, b + 3, c))]
    assert after.scores == (a, b + 3, c) and after.sources[1][4] == 3 and to_act(after) == (0,)
    # claiming again costs again; the honest count then stands
    events, after = step(after, Count(0, holds + 1))
    assert after.scores == (a, b + 4, c)
    events, after = step(after, Count(0, holds))
    assert isinstance(events[0], HandCounted) and after.scores[0] == a + holds
    with pytest.raises(IllegalMove, match="29 is the most"):
        step(state, Count(0, 30))  # a slip of the keys, not a claim: not on record


def test_the_friendly_rule_is_the_default_and_costs_nothing():
    assert Rules().muggins_rule == FRIENDLY and not Rules().pegging_claims
    assert set(MUGGINS_RULES) == {FRIENDLY, STRICT}


def test_an_unknown_muggins_rule_or_pegging_claims_without_muggins_cannot_begin():
    with pytest.raises(IllegalMove, match="muggins rule"):
        Game.new([PlayerInfo(n) for n in "ABC"], Rules(muggins=True, muggins_rule="house"))
    with pytest.raises(IllegalMove, match="need muggins on"):
        Game.new([PlayerInfo(n) for n in "ABC"], Rules(pegging_claims=True))


def pegging_hand(kinds=("human", BOT, BOT), rule=FRIENDLY):
    players = tuple(PlayerInfo(f"P{i}", k) for i, k in enumerate(kinds))
    return hand_set_up(2, {0: "4S 4C 10D QC", 1: "4H JD 10C 8H", 2: "4D AC 3D 9D"},
                       starter="5S", players=players,
                       rules=Rules(muggins=True, muggins_rule=rule, pegging_claims=True))[1]


def test_pegging_claims_a_short_claim_goes_to_the_next_player():
    state = pegging_hand()
    _, state = step(state, Play(0, C("4S"), 0))
    _, state = plays(state, "1:4H")  # 1 is a computer player: its pair scored for it
    assert state.scores == (0, 2, 0)
    state = pegging_hand(("easy", BOT, "human"))
    _, state = plays(state, "0:4S 1:4H")
    assert to_act(state) == (2,)
    with pytest.raises(IllegalMove, match="say what 4D scores"):
        step(state, Play(2, C("4D")))
    events, after = step(state, Play(2, C("4D"), 2))  # a pair royal is 6: 4 missed
    played = events[0]
    assert isinstance(played, CardPlayed) and (played.points, played.missed) == (2, 4)
    called = [e for e in events if isinstance(e, MugginsCalled)]
    assert [(c.seat, c.victim, c.points) for c in called] == [(0, 2, 4)]
    assert after.scores == (4, 2, 2) and after.muggins_pending is None


def test_pegging_claims_an_over_claim_is_refused_and_the_card_stays_in_hand():
    state = pegging_hand(("easy", BOT, "human"), rule=STRICT)
    _, state = plays(state, "0:4S 1:4H")
    events, after = step(state, Play(2, C("4D"), 8))
    assert events == [ClaimRefused(seat=2, claimed=8, holds=6, crib=False, card=C("4D"),
                                   taker=0, points=2, scores=(2, 2, 0))]
    assert C("4D") in after.hands[2] and to_act(after) == (2,) and after.phase == Phase.PLAY


def test_pegging_claims_a_person_on_the_left_is_asked_to_call():
    state = pegging_hand(("human", "human", BOT))
    events, state = step(state, Play(0, C("4S"), 0))
    events, state = step(state, Play(1, C("4H"), 0))  # missed the pair
    called = events[-1]  # seat 2 is a computer player: it always calls
    assert isinstance(called, MugginsCalled) and (called.seat, called.victim, called.points) \
        == (2, 1, 2)
    assert state.scores == (0, 0, 2) and to_act(state) == (2,)  # (its turn to play)
    state = pegging_hand(("human", BOT, "human"))
    _, state = step(state, Play(0, C("4S"), 0))
    _, state = plays(state, "1:4H")
    events, state = step(state, Play(2, C("4D"), 0))
    assert to_act(state) == (0,) and state.muggins_pending == (0, 2, 6)
    with pytest.raises(IllegalMove):
        step(state, Play(0, C("4C"), 0))  # the call comes first
    _, state = step(state, Muggins(0, False))
    assert state.scores == (0, 2, 0) and to_act(state) == (0,)


def test_without_pegging_claims_the_play_is_scored_as_ever():
    state = hand_set_up(2, {0: "4S 4C 10D QC", 1: "4H JD 10C 8H", 2: "4D AC 3D 9D"},
                        starter="5S", rules=Rules(muggins=True, muggins_rule=STRICT))[1]
    events, state = plays(state, "0:4S 1:4H 2:4D")
    assert state.scores == (0, 2, 6)
    assert all(e.missed == 0 for e in events if isinstance(e, CardPlayed))


def test_computer_players_are_not_changed_by_the_claim_rules():
    """Three computer players play the very same game under every rule."""
    games = [Game.new([PlayerInfo(f"B{i}", BOT) for i in range(3)], rules, seed=5)
             for rules in (Rules(muggins=True),
                           Rules(muggins=True, muggins_rule=STRICT, pegging_claims=True))]
    for game in games:
        from crib3.players import make_player

        players = [make_player(BOT, random.Random(5 + i)) for i in range(3)]
        while not game.over:
            seat = game.to_act()[0]
            game.dispatch(players[seat].choose(game.view(seat)))
    assert games[0].events[1:] == games[1].events[1:]


def test_a_claims_log_verifies_and_a_doctored_claim_does_not(tmp_path: Path):
    rules = Rules(target=61, muggins=True, muggins_rule=STRICT, pegging_claims=True)
    seed = next(s for s in range(50)
                if any(isinstance(e, ClaimRefused) and e.points
                       for e in claimed_game(s, ("human", BOT, BOT), rules)[0].events))
    game, _ = claimed_game(seed, ("human", BOT, BOT), rules)
    path = tmp_path / "claims.jsonl"
    write_log(path, game.events, make_header(source="crib3 play"))
    assert json.loads(path.read_text().splitlines()[0])["version"] == 3
    assert load_log(path).state == game.state
    lines = path.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if '"ClaimRefused"' in line and
              json.loads(line)["points"])
    doctored = json.loads(lines[at])
    doctored["points"] -= 1  # the excess not paid in full
    lines[at] = json.dumps(doctored)
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(LogError, match="ClaimRefused has points"):
        load_log(path)


def test_an_older_log_without_the_new_fields_still_verifies(tmp_path: Path):
    """A version-2 log: no muggins rule in its rules, no `missed` on its
    plays, no refused claims. It loads, verifies and folds as it did; and a
    game without the new rules is written in the lines version 2 wrote."""
    game, _ = claimed_game(3, ("human", BOT, BOT), Rules(target=61, muggins=True))
    path = tmp_path / "old.jsonl"
    write_log(path, [e for e in game.events if not isinstance(e, ClaimRefused)],
              make_header(source="crib3 play"))
    lines = path.read_text().splitlines()
    old = []
    for line in lines:
        data = json.loads(line)
        if data.get("format"):
            data["version"] = 2
        # (a game without the new rules writes its lines as version 2 did)
        if data.get("type") == "GameStarted":
            assert data["rules"] == {"target": 61, "skunks": False, "muggins": True}
        if data.get("type") == "CardPlayed":
            assert "missed" not in data
        old.append(json.dumps(data))
    path.write_text("\n".join(old) + "\n")
    loaded = load_log(path)
    assert loaded.header["version"] == 2
    assert loaded.state.rules == Rules(target=61, muggins=True)
    assert loaded.state.scores == game.state.scores


def test_a_person_s_view_does_not_tell_what_a_card_scores():
    """With pegging claims the legal plays carry every claim up to what the
    card scores: the view a person is given offers each card once, bare."""
    from crib3.engine.feed import seat_view

    state = pegging_hand(("easy", BOT, "human"))
    _, state = plays(state, "0:4S 1:4H")
    from crib3.engine.rules import legal_moves

    assert Play(2, C("4D"), 6) in legal_moves(state, 2)
    offered = seat_view(state, 2).legal
    assert offered == tuple(Play(2, card) for card in dict.fromkeys(
        c.card for c in legal_moves(state, 2) if isinstance(c, Play)))
    assert len(offered) == len({c.card for c in offered})



def test_the_new_fields_are_written_only_when_used():
    from crib3.engine.codec import decode_command, encode, encode_rules

    assert encode(Play(1, C("5H"))) == {"type": "Play", "seat": 1, "card": "5H"}
    assert encode(Play(1, C("5H"), 0))["claimed"] == 0
    assert encode_rules(Rules()) == {"target": 121, "skunks": False, "muggins": False}
    strict = Rules(muggins=True, muggins_rule=STRICT, pegging_claims=True)
    assert encode_rules(strict)["muggins_rule"] == STRICT
    for value in (Play(1, C("5H")), Play(1, C("5H"), 0)):
        assert decode_command(encode(value)) == value
