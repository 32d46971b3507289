"""A cluster's rated results (crib3.cluster.results) against a real NATS
server: each node folds the one results stream into its own store; a game
is rated once whatever is told twice, restarts included; two results
written at once on two nodes both count; a forged or replayed line is
refused with one line in the log, by every node alike."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

import pytest
from nats_support import nats_server, needs_nats

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster import ClusterStore
from crib3.cluster.results import RESULTS, SUBJECT, ClusterResults
from crib3.room.ratings import Placing
from crib3.room.results import Result, Results

pytestmark = needs_nats


def result(n: int, who=("ssh a", "ssh b", "ssh c"), scores=(121, 100, 90)) -> Result:
    return Result(f"game{n}", n, "2026-12-06T12:00:00+00:00",
                  tuple(Placing(i, i.upper(), s, best=12) for i, s in zip(who, scores)),
                  "d" * 64)


@pytest.fixture(scope="module")
def solo(tmp_path_factory):
    with nats_server(tmp_path_factory.mktemp("nats")) as server:
        yield server


async def node(solo, name: str, folder) -> tuple[ClusterStore, ClusterResults]:
    store = await ClusterStore.connect(solo.url, name)
    results = ClusterResults(store.js, name, Results(folder / name))
    await results.start(replicas=1)
    return store, results


async def test_results_on_two_nodes_count_once_each_and_alike(solo, tmp_path):
    (sa, a), (sb, b) = await node(solo, "a", tmp_path), await node(solo, "b", tmp_path)
    try:
        base = a.seen
        # Two results written at once on two nodes: both count, on both.
        both = await asyncio.gather(a.record(result(1)),
                                    b.record(result(2, scores=(90, 121, 100))))
        assert both == [True, True]
        # One game told on both at once (a table adopted as it ended): once.
        told = await asyncio.gather(a.record(result(3)), b.record(result(3)))
        assert sorted(told) == [False, True]
        await a.catch_up(), await b.catch_up()
        assert a.seen == b.seen == base + 3
        assert a.book.count() == b.book.count() == 3
        assert a.book.skills() == b.book.skills() and a.book.skill("ssh a").games == 3
        # A node restarted goes on where its store stood; the game again: nothing.
        await a.stop()
        a.book.close()
        again = ClusterResults(sa.js, "a", Results(tmp_path / "a"))
        await again.start(replicas=1)
        assert again.seen == a.seen and not await again.record(result(1))
        assert again.book.count() == 3 and again.book.skills() == b.book.skills()
        await again.stop()
    finally:
        await b.stop()
        for store in (sa, sb):
            await store.close()


async def test_a_forged_or_replayed_line_is_refused_with_one_line_by_every_node(
        solo, tmp_path, caplog):
    (sa, a), (sb, b) = await node(solo, "a", tmp_path), await node(solo, "b", tmp_path)
    try:
        assert await a.record(result(10, who=("ssh x", "ssh y", "ssh z")))
        await b.catch_up()
        before = b.book.skills()
        forged = json.loads(result(11, who=("ssh x", "ssh y", "ssh z")).line())
        forged["seats"][2]["place"] = 1  # a third place claimed first
        lines = [b"not a result", json.dumps(forged).encode(),
                 result(10, who=("ssh x", "ssh y", "ssh z")).line().encode()]  # replayed
        for line in lines:  # put there by hand, past the nodes
            await sa.js.publish(SUBJECT, line, stream=RESULTS)
        caplog.set_level(logging.WARNING, logger="crib3.cluster")
        await a.catch_up(), await b.catch_up()
        for name, book in (("a", a.book), ("b", b.book)):
            said = [r.getMessage() for r in caplog.records
                    if r.getMessage().startswith(f"node {name}: result ")]
            assert len(said) == 3, said
            assert "a damaged result line" in said[0] and "places that its scores" in said[1]
            assert "(a replayed result)" in said[2]
            assert book.skills() == before and book.count() == a.book.count()
    finally:
        await a.stop(), await b.stop()
        for store in (sa, sb):
            await store.close()


# --- a rated table's game on a cluster's node (crib3.cluster.room) --------------------


async def test_a_rated_game_on_one_node_rates_its_people_on_every_node(solo, tmp_path):
    from nats_support import until

    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules

    rooms = [await ClusterRoom.start([solo.url], name, tmp_path / name, think=0.0,
                                     lease_seconds=5.0,
                                     results=Results(tmp_path / name / "ratings"))
             for name in ("ra", "rb")]
    a, b = rooms
    try:
        alice = await a.enter("Alice", "SHA256:alice", lambda why: None)
        table = a.open_table(alice, Rules(target=61), ("easy", "easy"))
        assert table.rated
        await until(lambda: any(t.rated for t in b.cluster_lobby.tables()),
                    what="the lobby of node rb saying the table is rated")
        table.start("Alice")
        game = table.game
        while game is None or not game.over:  # Alice plays her first legal move
            if game is not None and game.to_act() == (0,) and not game._outbox:
                table.feed(0).dispatch(game.legal_moves(0)[0])
            await asyncio.sleep(0.01)
            game = table.game
        for room in rooms:  # (the stream holds the other tests' results too)
            await until(lambda room=room: room.results.skill("ssh SHA256:alice") is not None,
                        what=f"node {room.node.name} folding the result")
            assert room.results.skill("ssh SHA256:alice").games == 1
        assert a.results.skills() == b.results.skills()
        counted = a.results.count()
        assert b.results.count() == counted
        # Told again (a node adopting it as it ended): nothing moves twice.
        a.game_over(table, table.game.state)
        await asyncio.sleep(0.3)
        await a.cluster_results.catch_up(), await b.cluster_results.catch_up()
        assert a.results.count() == b.results.count() == counted
        assert a.results.skill("ssh SHA256:alice").games == 1
    finally:
        for room in rooms:
            room.close()
            await room.stop()


async def test_a_rated_game_whose_host_died_at_its_end_is_rated_by_the_adopter(solo, tmp_path):
    """Node da stores the game's last event and dies before it writes the
    result or tells the registry the game is over: node rb adopts the table,
    finds its game over, and writes the result, once."""
    from nats_support import until

    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules

    rooms = [await ClusterRoom.start([solo.url], name, tmp_path / name, think=0.0,
                                     lease_seconds=2.0,
                                     results=Results(tmp_path / name / "ratings"))
             for name in ("da", "db")]
    a, b = rooms
    try:
        dot = await a.enter("Zelda", "SHA256:zelda", lambda why: None)
        table = a.open_table(dot, Rules(target=61), ("easy", "easy"))
        await until(lambda: any(t.rated for t in b.cluster_lobby.tables()),
                    what="the table in node db's lobby")
        a.game_over = lambda table, state: None  # dies before its result is written,
        a.node.publish = lambda table: None  # and before the registry hears the end
        table.start("Zelda")
        game = table.game
        while game is None or not game.over:
            if game is not None and game.to_act() == (0,) and not game._outbox:
                table.feed(0).dispatch(game.legal_moves(0)[0])
            await asyncio.sleep(0.01)
            game = table.game
        await table.settled()
        await a.node.close()  # killed: nothing released
        await until(lambda: b.results.skill("ssh SHA256:zelda") is not None, seconds=30,
                    what="node db adopting the table and rating its game")
        assert b.results.skill("ssh SHA256:zelda").games == 1
    finally:
        for room in rooms:  # (da's connection is closed already: its stop says so, and ends)
            room.close()
            with contextlib.suppress(Exception):
                await room.stop()
