"""Play now with a crowd: `PEOPLE` (300) people press p at once.

Run on demand:
`python -m pytest tests/benchmarks/test_play_now.py --benchmark-only -s`
(`-m short`: the short versions `.ci/run` runs, 30 people on one node and
9 on three).

Three ways, each asserting the goal (everyone seated at a table of three
or offered the computer within the documented wait, `crib3.room.matcher.WAIT`;
nobody seated twice) and printing the numbers
(assets/measurements/play-now.md):

- **the matcher alone** (`crib3.room.matcher`): their ratings spread as
  a room's might be (a normal spread around 1500, deviation `SPREAD`),
  the queue looked at each second of a turned clock, as the room looks:
  when each was seated or offered, how far apart a table's ratings are,
  and the time a look takes with the whole crowd waiting;
- **through a room** (`crib3.room.playnow`, a `Room` with its results,
  the crowd's ratings made by rated games first): the same, each table
  made, started and saved as a real one is;
- **on three nodes** (`crib3.cluster.matcher`, a real nats-server): a
  third of the crowd signed in on each node, all in the queue at once,
  the one matcher seating them; the time until everyone has a seat (on a
  cluster nobody is rated yet: they are all newcomers, 1500).
"""

from __future__ import annotations

import asyncio
import os
import random
import statistics
import time

import pytest

from crib3.room.matcher import WAIT, Matcher
from crib3.room.ratings import NEWCOMER, Skill

PEOPLE = int(os.environ.get("CRIB3_PLAY_NOW_PEOPLE", "300"))
SHORT_PEOPLE = 30
SPREAD = 250  # shown points: the crowd's deviation around 1500


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def crowd_ratings(count: int, seed: int = 43) -> list[int]:
    rng = random.Random(seed)
    return [int(rng.gauss(1500, SPREAD)) for _ in range(count)]


def _matcher_alone(count: int) -> dict[str, float]:
    clock = Clock()
    matcher = Matcher(clock)
    ratings = crowd_ratings(count)
    for index, rating in enumerate(ratings):
        matcher.join(f"p{index}", f"p{index}", rating)
    seated_at: dict[str, float] = {}
    offered_at: dict[str, float] = {}
    spreads: list[int] = []
    looks: list[float] = []
    while clock.now <= WAIT + 1 and len(seated_at) + len(offered_at) < count:
        began = time.perf_counter()
        matches = matcher.pair()
        offers = matcher.offers()
        looks.append(time.perf_counter() - began)
        for match in matches:
            for entry in match.entries:
                assert entry.identity not in seated_at, "seated twice"
                seated_at[entry.identity] = clock.now
            spreads.append(max(e.rating for e in match.entries)
                           - min(e.rating for e in match.entries))
        for entry in offers:
            offered_at.setdefault(entry.identity, clock.now)
        clock.now += 1
    return _summary(count, seated_at, offered_at, spreads, looks)


def _summary(count: int, seated_at: dict[str, float], offered_at: dict[str, float],
             spreads: list[int], looks: list[float]) -> dict[str, float]:
    done = {**offered_at, **seated_at}
    assert len(done) == count, f"{count - len(done)} neither seated nor offered"
    assert max(done.values()) <= WAIT
    return {"people": count, "seated": len(seated_at), "offered": len(set(offered_at)
                                                                      - set(seated_at)),
            "seated_by_s_p50": statistics.median(seated_at.values()) if seated_at else 0,
            "seated_by_s_max": max(seated_at.values(), default=0),
            "table_spread_p50": statistics.median(spreads) if spreads else 0,
            "table_spread_max": max(spreads, default=0),
            "look_ms_max": 1000 * max(looks, default=0)}


def _through_a_room(count: int, folder) -> dict[str, float]:
    from crib3.room import Room
    from crib3.room.playnow import PlayNow, queue_identity
    from crib3.room.results import Results

    async def run() -> dict[str, float]:
        results = Results(folder / "ratings")
        room = Room(folder / "tables", think=3600, results=results)
        clock = Clock()
        room.play_now = play_now = PlayNow(room, clock)
        people = [room.sign_in(f"p{i}", f"SHA256:p{i}", lambda reason: None)
                  for i in range(count)]
        # Their ratings as a room's might be: written into the store as
        # ratings folded from earlier games would be.
        for presence, rating in zip(people, crowd_ratings(count)):
            mu = NEWCOMER.mu + (rating - 1500) / (350 / NEWCOMER.sigma)
            results.db.execute("INSERT INTO ratings (identity, name, mu, sigma, games) "
                               "VALUES (?, ?, ?, ?, ?)",
                               (queue_identity(presence), presence.name, mu, 3.0, 30))
        results.db.commit()
        assert Skill(mu, 3.0).shown == rating  # (the scale, as the store reads it back)
        began = time.perf_counter()
        for presence in people:
            play_now.join(presence)  # (each join looks at the queue too)
        joined_s = time.perf_counter() - began
        seated_at: dict[str, float] = {}
        offered_at: dict[str, float] = {}
        spreads: list[int] = []
        looks: list[float] = []
        ratings = {p.name: play_now.rating(queue_identity(p)) for p in people}
        while clock.now <= WAIT + 1:
            start = time.perf_counter()
            play_now.step()
            looks.append(time.perf_counter() - start)
            for table in room.lobby():
                names = [s.name for s in table.seats if s.name is not None]
                if names and names[0] not in seated_at:
                    for name in names:
                        assert name not in seated_at, "seated twice"
                        seated_at[name] = clock.now
                    spreads.append(max(ratings[n] for n in names) - min(ratings[n]
                                                                        for n in names))
            for identity in play_now.offered:
                offered_at.setdefault(identity.removeprefix("ssh SHA256:"), clock.now)
            clock.now += 1
        for presence in people:  # one seat each, at most
            seats = [t for t in room.lobby() if t.seat_of(presence.name) is not None]
            assert len(seats) <= 1
        summary = _summary(count, seated_at, offered_at, spreads, looks)
        summary["tables"] = len(room.lobby())
        summary["joins_s"] = joined_s
        room.close()
        results.close()
        return summary

    return asyncio.run(run())


def _on_three_nodes(count: int, folder) -> dict[str, float]:
    from nats_support import nats_server

    from crib3.cluster.room import ClusterRoom

    async def run(url: str) -> dict[str, float]:
        rooms = [await ClusterRoom.start([url], name, folder / name, lease_seconds=5)
                 for name in ("a", "b", "c")]
        try:
            people = []
            for i in range(count):
                room = rooms[i % 3]
                people.append((room, await room.enter(f"p{i}", f"key-p{i}",
                                                      lambda reason: None, None)))
            began = time.monotonic()
            for room, presence in people:
                assert room.play_now is not None
                room.play_now.join(presence)
            seated: dict[str, int] = {}
            while time.monotonic() - began < WAIT:
                seated = {}
                for room in rooms:
                    for table in room.tables.values():
                        for seat in table.seats:
                            assert seat.name is not None and seat.name not in seated, \
                                "seated twice"
                            seated[seat.name] = table.number
                if len(seated) == count:
                    break
                await asyncio.sleep(0.2)
            took = time.monotonic() - began
            assert len(seated) == count, f"{count - len(seated)} not seated in {WAIT:g} s"
            matchers = [room.node.name for room in rooms
                        if room.play_now is not None and room.play_now.seated]
            return {"people": count, "seated": len(seated), "all_seated_s": took,
                    "tables": len(set(seated.values())), "matching_nodes": len(matchers)}
        finally:
            for room in rooms:
                room.close()
                await room.stop()

    with nats_server(folder / "nats") as nats:
        return asyncio.run(run(nats.url))


def _print(what: str, numbers: dict[str, float]) -> None:
    print(f"\nplay now, {what}: " + ", ".join(
        f"{key} {value:.3g}" if isinstance(value, float) else f"{key} {value}"
        for key, value in numbers.items()))


def test_play_now_matcher_alone(benchmark):
    numbers = benchmark.pedantic(lambda: _matcher_alone(PEOPLE), rounds=1, iterations=1)
    benchmark.extra_info.update(numbers)
    _print("the matcher alone", numbers)


def test_play_now_through_a_room(benchmark, tmp_path):
    numbers = benchmark.pedantic(lambda: _through_a_room(PEOPLE, tmp_path), rounds=1,
                                 iterations=1)
    benchmark.extra_info.update(numbers)
    _print("through a room", numbers)


def test_play_now_on_three_nodes(benchmark, tmp_path):
    pytest.importorskip("nats", reason="needs nats-py (in the test extra)")
    numbers = benchmark.pedantic(lambda: _on_three_nodes(PEOPLE, tmp_path), rounds=1,
                                 iterations=1)
    benchmark.extra_info.update(numbers)
    _print("on three nodes", numbers)


@pytest.mark.short
def test_short_play_now(benchmark, tmp_path):
    """The short versions `.ci/run` runs: 30 people, the matcher alone and
    through a room, and 9 on three nodes; the goal asserted as above."""
    def run() -> list[dict[str, float]]:
        return [_matcher_alone(SHORT_PEOPLE), _through_a_room(SHORT_PEOPLE, tmp_path / "room"),
                _on_three_nodes(9, tmp_path / "three")]

    alone, room, three = benchmark.pedantic(run, rounds=1, iterations=1)
    for what, numbers in (("the matcher alone", alone), ("through a room", room),
                          ("on three nodes", three)):
        _print(what, numbers)
