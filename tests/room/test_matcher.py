"""The play-now queue's policy, alone (`crib3.room.matcher`): a clock
turned by hand, no room."""

from __future__ import annotations

import random

import pytest

from crib3.room.matcher import BAND, WAIT, WIDEN, AlreadyQueued, Matcher, level_near


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def seated(matches) -> list[str]:
    return [e.identity for m in matches for e in m.entries]


def test_three_of_near_rating_sit_together_at_once():
    clock = Clock()
    matcher = Matcher(clock)
    for who, rating in (("a", 1500), ("b", 1540), ("c", 1480)):
        matcher.join(who, who.upper(), rating)
    [match] = matcher.pair()
    assert {e.identity for e in match.entries} == {"a", "b", "c"}
    assert match.entries[0].identity == "a"  # the longest waiting first
    assert len(matcher) == 0 and matcher.pair() == []


def test_an_identity_has_one_place_in_the_queue():
    matcher = Matcher(Clock())
    matcher.join("ssh key", "Ann", 1500)
    with pytest.raises(AlreadyQueued):
        matcher.join("ssh key", "Ann2", 1500)
    assert len(matcher) == 1
    assert matcher.leave("ssh key") is not None and matcher.leave("ssh key") is None
    matcher.join("ssh key", "Ann", 1500)  # back in, once out


def test_the_band_widens_with_the_wait():
    clock = Clock()
    matcher = Matcher(clock)
    matcher.join("low", "Low", 1200)
    matcher.join("mid", "Mid", 1500)
    matcher.join("high", "High", 1800)
    assert matcher.pair() == []  # 300 apart: beyond a newcomer's band
    gap = 600  # low to high: both bands must reach it
    clock.now += (gap - BAND) / WIDEN - 1
    assert matcher.pair() == []
    clock.now += 1
    assert len(matcher.pair()) == 1 and len(matcher) == 0


def test_each_is_seated_with_the_nearest_they_accept_and_only_once():
    clock = Clock()
    matcher = Matcher(clock)
    for who, rating in (("a", 1000), ("b", 1510), ("c", 1020), ("d", 1490), ("e", 1040),
                        ("f", 1500)):
        matcher.join(who, who, rating)
        clock.now += 1
    matches = matcher.pair()
    assert sorted(sorted(e.identity for e in m.entries) for m in matches) == \
        [["a", "c", "e"], ["b", "d", "f"]]


def test_the_computer_is_offered_after_the_wait_once_and_the_place_is_kept():
    clock = Clock()
    matcher = Matcher(clock)
    matcher.join("a", "A", 1500)
    matcher.join("b", "B", 1500)
    clock.now += WAIT - 0.5
    assert matcher.offers() == [] and matcher.pair() == []
    clock.now += 0.5
    assert {e.identity for e in matcher.offers()} == {"a", "b"}
    assert matcher.offers() == []  # each once
    matcher.join("c", "C", 1500)  # a third comes: the two are still there to meet
    assert len(matcher.pair()) == 1


def test_the_computers_level_is_the_one_rated_nearest():
    assert level_near(1500) == "standard"
    assert level_near(1700) == "expert"
    assert level_near(700) == "easy"
    assert level_near(1000) == "easy" and level_near(1100) == "standard"
    assert level_near(1600) == "expert"


def test_a_crowd_is_seated_or_offered_within_the_wait_nobody_twice():
    """300 people of spread ratings join in ten seconds; the queue is
    looked at each second: after the wait, each is seated once or offered."""
    rng = random.Random(5)
    clock = Clock()
    matcher = Matcher(clock)
    people = [f"p{i}" for i in range(300)]
    seen: list[str] = []
    offered: set[str] = set()
    for second in range(int(WAIT) + 11):
        for who in people[second * 30:(second + 1) * 30]:
            matcher.join(who, who, int(rng.gauss(1500, 250)))
        seen += seated(matcher.pair())
        offered |= {e.identity for e in matcher.offers()}
        clock.now += 1
    assert len(seen) == len(set(seen))  # nobody twice
    assert set(seen) | offered >= set(people)
    assert not set(seen) & {e.identity for e in matcher}
