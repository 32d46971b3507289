"""Scoring: the seeds' examples, the itemized breakdown, and the fast path."""

import random
import time
from itertools import combinations

import pytest

from crib3.cards import DECK, parse_card, parse_cards
from crib3.scoring import (
    hand_points,
    rank_table,
    score_hand,
    score_play,
)
from crib3.words.speech import say_hand_line, say_play


def hand(text):
    cards = parse_cards(text)
    return cards[:4], cards[4]


def kinds(score):
    out = {}
    for item in score.items:
        out[item.kind] = out.get(item.kind, 0) + item.points
    return out


@pytest.mark.parametrize("text, total", [
    ("5H 5C 5S JD 5D", 29),          # the 29 hand
    ("3H 4S 4D 5C 9H", 8),           # double run of three (R6.2): 6 + 2
    ("3H 4S 5D 5C 6H", 14),          # double run of four 8 + 2, fifteens 4+5+6 twice
    ("3H 3S 3D 4C 5H", 21),          # triple run 15, plus three fifteens
    ("3H 4S 4D 5C 5H", 16),          # double-double run, no fifteens
    ("AH 2S 3D 4C 5H", 7),           # run of five plus fifteen
    ("KH QH JH 10H 5H", 18),         # fifteens 8, run 4, five-card flush 5, nobs 1
    ("2C 4D 6H 8S QC", 0),           # nineteen: nothing at all
])
def test_known_hand_totals(text, total):
    h, s = hand(text)
    assert score_hand(h, s).total == total == hand_points(h, s)


def test_seed_examples_by_kind():
    h, s = hand("5H 5C 5S JD 5D")
    assert kinds(score_hand(h, s)) == {"fifteen": 16, "pair": 12, "nobs": 1}
    h, s = hand("3H 4S 4D 5C 9H")
    assert kinds(score_hand(h, s)) == {"run": 6, "pair": 2}
    h, s = hand("3H 3S 3D 4C 5H")
    assert kinds(score_hand(h, s))["run"] == 9 and kinds(score_hand(h, s))["pair"] == 6
    h, s = hand("3H 4S 4D 5C 5H")
    assert kinds(score_hand(h, s)) == {"run": 12, "pair": 4}


def test_one_item_per_combination():
    h, s = hand("5H 5C 5S JD 5D")
    items = score_hand(h, s).items
    assert sum(1 for i in items if i.kind == "fifteen") == 8
    assert sum(1 for i in items if i.kind == "pair") == 6
    assert all(i.points == 2 for i in items if i.kind in ("fifteen", "pair"))
    for item in items:
        if item.kind == "fifteen":
            assert sum(c.value for c in item.cards) == 15


def test_flush_rules_hand_and_crib():
    h, s = hand("2H 4H 6H 8H KS")
    assert kinds(score_hand(h, s)).get("flush") == 4
    assert "flush" not in kinds(score_hand(h, s, crib=True))       # R6.2: crib needs five
    h, s = hand("2H 4H 6H 8H KH")
    assert kinds(score_hand(h, s)).get("flush") == 5
    assert kinds(score_hand(h, s, crib=True)).get("flush") == 5
    h, s = hand("2H 4H 6H 8S KH")                                  # starter can't make four
    assert "flush" not in kinds(score_hand(h, s))


def test_nobs_and_starter_jack():
    h, s = hand("JH 2C 4D 6S 9H")
    assert kinds(score_hand(h, s)).get("nobs") == 1
    h, s = hand("JH 2C 4D 6S 9S")
    assert "nobs" not in kinds(score_hand(h, s))
    h, s = hand("2H 3C 7D 9S JH")                                  # R6.3: starter jack
    assert "nobs" not in kinds(score_hand(h, s))


def test_ace_is_low_only():
    h, s = hand("QH KS AD 7C 9H")
    assert "run" not in kinds(score_hand(h, s))


def test_spoken_counts():
    h, s = hand("5H 5C 5S JD 5D")
    line = say_hand_line(score_hand(h, s))
    assert line.startswith("fifteen two, fifteen four,")
    assert line.endswith("and a double pair royal is twenty-eight, and nobs is twenty-nine")
    h, s = hand("5H 10C 7S 7D 8H")
    assert say_hand_line(score_hand(h, s)) == (
        "fifteen two, fifteen four, fifteen six, and a pair is eight")
    h, s = hand("3H 4S 4D 5C 9H")
    assert say_hand_line(score_hand(h, s)) == "a double run of three is eight"
    h, s = hand("2C 4D 6H 8S QC")
    assert say_hand_line(score_hand(h, s)) == "nineteen (nothing)"


def test_bad_hands_are_refused():
    with pytest.raises(ValueError, match="4 cards"):
        score_hand(parse_cards("5H 5C 5S"), parse_card("5D"))
    with pytest.raises(ValueError, match="twice"):
        score_hand(parse_cards("5H 5C 5S JD"), parse_card("5H"))


# --- the play -------------------------------------------------------------------


def play(text):
    return score_play(parse_cards(text))


def test_play_fifteen_and_thirty_one():
    assert kinds(play("7H 8S")) == {"fifteen": 2}
    assert kinds(play("10H 10S JD AH")) == {"thirty-one": 2}
    assert kinds(play("KH 5S")) == {"fifteen": 2}


def test_play_pairs_are_one_item_scored_2_6_12():
    assert play("5H 5S").items[0].points == 2
    assert play("3H 3S 3D").total == 6
    assert play("2H 2S 2D 2C").total == 12
    assert play("2H 2S 3D 3C").total == 2           # only the last run of equal ranks
    assert play("5H 5S 5D").total == 8              # pair royal and fifteen


def test_play_runs_in_any_order_and_extended():
    assert play("7H 9S 8D").total == 3
    assert play("7H 9S 8D 6C").total == 4
    assert play("AH 2S 3D 3C").total == 2           # a pair breaks the run
    assert play("AH 2S 3D").total == 3
    assert play("QH KS AD").total == 0              # ace low only
    assert play("3H 4S 4D 5C").total == 0           # not k distinct ranks


def test_play_names():
    assert say_play(play("7H 8S")) == "fifteen for two"
    assert say_play(play("10H 10S JD AH")) == "thirty-one for two"
    assert say_play(play("5H 5S 5D")) == "fifteen and a pair royal for eight"
    assert say_play(play("AH 2S")) == ""


def test_play_refuses_a_pile_over_31():
    with pytest.raises(ValueError, match="32"):
        play("10H 10S 10D 2C")


# --- the fast path agrees with the itemized one ---------------------------------------


def test_rank_table_covers_every_five_rank_multiset():
    assert len(rank_table()) == 6175


def test_fast_path_equals_itemized_on_random_hands():
    rng = random.Random(7)
    for _ in range(4000):
        five = rng.sample(DECK, 5)
        crib = rng.random() < 0.5
        assert hand_points(five[:4], five[4], crib) == score_hand(five[:4], five[4], crib).total


def test_fast_path_equals_itemized_for_every_rank_pattern():
    # One representative hand per multiset of ranks, with mixed suits.
    seen = set()
    for five in combinations(DECK, 5):
        key = tuple(sorted(c.rank for c in five))
        if key in seen or len({c.suit for c in five}) < 3:
            continue
        seen.add(key)
        assert hand_points(five[:4], five[4]) == score_hand(five[:4], five[4]).total, five
        if len(seen) == 6175:
            break
    assert len(seen) >= 6000


def test_the_rank_table_is_never_read_half_built(monkeypatch):
    """The game's warm-up and the statistics' review build it in two
    threads at once: a reader must never get a half-built table (a
    KeyError in the review's thread ended the app)."""
    import threading

    from crib3 import scoring

    monkeypatch.setattr(scoring, "_RANK_TABLE", {})
    built_so_far = threading.Event()
    read = threading.Event()
    builder_ident: list[int] = []
    real = scoring._rank_points
    calls = [0]

    def slow_points(combo):
        if threading.get_ident() == builder_ident[0]:
            calls[0] += 1
            if calls[0] == 100:  # a part of the table done: let the reader in
                built_so_far.set()
                read.wait(10)
        return real(combo)

    monkeypatch.setattr(scoring, "_rank_points", slow_points)
    problems: list[BaseException] = []

    def build() -> None:
        builder_ident.append(threading.get_ident())
        scoring.rank_table()

    def reader() -> None:
        built_so_far.wait(10)
        try:
            table = scoring.rank_table()
            last = sum(1 << (3 * (r - 1)) for r in (13, 13, 13, 13, 12))
            assert table[last] == real((12, 13, 13, 13, 13))
        except BaseException as exc:  # noqa: BLE001 (reported below)
            problems.append(exc)
        finally:
            read.set()

    threads = [threading.Thread(target=build), threading.Thread(target=reader)]
    threads[0].start()
    started = time.monotonic()
    while not builder_ident:
        assert time.monotonic() - started < 20, "the building thread never began"
        time.sleep(0.001)
    threads[1].start()
    for thread in threads:
        thread.join(20)
    assert not [t for t in threads if t.is_alive()], "the table's building or reading never ended"
    assert not problems, problems
    assert len(scoring._RANK_TABLE) == len(scoring._rank_multisets(5))
