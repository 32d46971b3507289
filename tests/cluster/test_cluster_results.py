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
from nats_support import nats_server, needs_nats, play_to_the_end

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


async def accept(result: Result) -> None:
    """The check of these tests' made-up games (they are about the stream's
    order and once a game; a result checked against its table's stream is
    tested with real tables below)."""


async def node(solo, name: str, folder, check=accept) -> tuple[ClusterStore, ClusterResults]:
    store = await ClusterStore.connect(solo.url, name)
    results = ClusterResults(store.js, name, Results(folder / name), check)
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
        again = ClusterResults(sa.js, "a", Results(tmp_path / "a"), accept)
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


async def test_a_result_whose_game_cannot_be_read_yet_waits_and_is_folded_once(
        solo, tmp_path, caplog):
    """Its game not readable yet (the registry not told of the end, the
    stream not answering): neither dropped nor applied, and the results
    after it wait behind it, with one line in the log; then folded once."""
    from crib3.cluster.verify import NotYet

    waiting = {"game20", "game21"}  # (the stream holds the other tests' results too)

    async def check(result: Result) -> None:
        if result.game in waiting:
            raise NotYet("not yet")

    sa, a = await node(solo, "wa", tmp_path, check)
    try:
        base, count, refused = a.seen, a.book.count(), a.refused
        earlier = len(caplog.records)
        for n in (20, 21):  # written by another node, its game not readable here yet
            await sa.js.publish(SUBJECT, result(n, who=("ssh p", "ssh q", "ssh r")).line()
                                .encode(), stream=RESULTS)
        caplog.set_level(logging.INFO, logger="crib3.cluster")
        for _ in range(3):  # (the node's own reading in the background too)
            await a.catch_up()
            await asyncio.sleep(0.4)
        assert a.seen == base and a.book.count() == count and a.refused == refused
        said = [r for r in caplog.records[earlier:]
                if r.getMessage().startswith("node wa: result ")]
        assert len(said) == 1 and "waits" in said[0].getMessage() and said[0].exc_info is None
        waiting.discard("game21")  # the later one readable: it still waits its turn
        await a.catch_up()
        assert a.book.count() == count and not a.book.has("game21")
        waiting.clear()
        await a.catch_up()
        assert a.seen == base + 2 and a.book.count() == count + 2 and a.refused == refused
        assert a.book.skill("ssh p").games == 2
        await a.catch_up()
        assert a.book.count() == count + 2
    finally:
        await a.stop()
        await sa.close()


async def test_a_result_naming_a_damaged_table_stream_is_refused_not_waited_for(solo):
    """A table's stream that holds no game's log (written past the nodes)
    cannot make a result wait for ever: it is refused."""
    from crib3.cluster.registry import open_registry
    from crib3.cluster.store import KIND, STREAM, subject_of
    from crib3.cluster.verify import ResultCheck

    store = await ClusterStore.connect(solo.url, "dm")
    try:
        check = ResultCheck(store, await open_registry(store))
        for kind, data in (("header", b'{"format": "crib3-log"}'), ("event", b"not JSON")):
            await store.js.publish(subject_of("777777"), data, stream=STREAM,
                                   headers={KIND: kind})
        why = await check(result(777777))
        assert why is not None and "is no game's log" in why
    finally:
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
        await play_to_the_end(table)  # Alice plays her first legal move
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
        await play_to_the_end(table)
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


async def test_a_forged_result_moves_no_rating_and_the_honest_one_counts_once(
        solo, tmp_path, caplog):
    """Lines published straight to the results stream, well formed and with
    places their scores give, but not what the table's own stream gives:
    made-up scores for the very game (its id and digest right), someone
    else in a seat, a game the table never had, a table that does not
    exist. Every node refuses each with one line and counts it; the
    honest result, written after them, still counts, once."""
    import dataclasses

    from nats_support import until

    from crib3.cluster.results import table_result
    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules

    rooms = [await ClusterRoom.start([solo.url], name, tmp_path / name, think=0.0,
                                     lease_seconds=5.0,
                                     results=Results(tmp_path / name / "ratings"))
             for name in ("fa", "fb")]
    a, b = rooms
    try:
        ann = await a.enter("Ann", "SHA256:ann", lambda why: None)
        table = a.open_table(ann, Rules(target=61), ("easy", "easy"))
        made: list[Result] = []
        a.game_over = lambda table, state: made.append(table_result(table, state))
        table.start("Ann")
        await play_to_the_end(table)  # Ann plays her first legal move
        await until(lambda: bool(made), what="the game's result made")
        honest = made[0]
        assert honest is not None and honest.placings[0].identity == "ssh SHA256:ann"
        ann_seat = honest.placings[0]
        others = honest.placings[1:]
        forged = [
            # the very game, its id and digest right: Ann first with 61, the others far behind
            dataclasses.replace(honest, placings=(
                dataclasses.replace(ann_seat, score=61),
                *(dataclasses.replace(p, score=i) for i, p in enumerate(others)))),
            # someone who never sat there in Ann's seat, the scores as they were
            dataclasses.replace(honest, placings=(
                dataclasses.replace(ann_seat, identity="ssh SHA256:mallory"), *others)),
            dataclasses.replace(honest, game="f" * 32),  # a game the table never had
            dataclasses.replace(honest, table=99999),  # a table the cluster never had
        ]
        for result_ in forged:
            assert Result.parse(result_.line()) == result_  # (well formed: only its table says)
        refused = [room.cluster_results.refused for room in rooms]
        caplog.set_level(logging.WARNING, logger="crib3.cluster")
        earlier = len(caplog.records)  # (the stream holds the other tests' lines too)
        for result_ in forged:  # put there by hand, past the nodes
            await a.node.store.js.publish(SUBJECT, result_.line().encode(), stream=RESULTS)
        assert await a.cluster_results.record(honest)
        for room in rooms:
            await until(lambda room=room: room.results.has(honest.game),
                        what=f"node {room.node.name} folding the honest result")
            await room.cluster_results.catch_up()
        alone = Results(tmp_path / "alone")  # what the honest result alone gives
        alone.record(honest)
        for room, before in zip(rooms, refused):
            name = room.node.name
            assert room.results.skill("ssh SHA256:ann") == alone.skill("ssh SHA256:ann")
            assert room.results.skill("ssh SHA256:mallory") is None
            assert not room.results.has("f" * 32)
            assert room.cluster_results.refused == before + len(forged)
            said = [r for r in caplog.records[earlier:]  # (one may wait for the registry)
                    if r.getMessage().startswith(f"node {name}: result ")]
            assert all(r.exc_info is None for r in said)
            assert len([r for r in said if "refused" in r.getMessage()]) == len(forged), \
                [r.getMessage() for r in said]
        assert a.results.skills() == b.results.skills()
        # The host's metrics count them.
        from prometheus_client import CollectorRegistry, generate_latest

        from crib3.net.metrics import RoomCollector, RoomReadings

        registry = CollectorRegistry()
        registry.register(RoomCollector(RoomReadings(
            tables=lambda: 0, worker_pids=list, results_refused=b.results_refused)))
        scraped = generate_latest(registry).decode()
        assert f"crib3_cluster_results_refused_total {refused[1] + len(forged)}.0" in scraped
        # Told again (a node adopting the table as it ended): nothing moves twice.
        assert not await a.cluster_results.record(honest)
        await b.cluster_results.catch_up()
        assert b.results.skill("ssh SHA256:ann").games == 1
    finally:
        for room in rooms:
            room.close()
            await room.stop()


async def test_ratings_rebuilt_from_the_cluster_are_the_nodes_numbers(solo, crib3_home):
    """`crib3 ratings rebuild --cluster`: every result on the stream (the
    other tests' made-up and forged ones too) checked and folded anew gives
    the very numbers of each node's store."""
    from commands import crib3
    from nats_support import until

    from crib3.cluster.results import fold_the_stream
    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules

    nodes = crib3_home / "data" / "node"  # where `crib3 serve --cluster --node NAME` keeps them
    rooms = [await ClusterRoom.start([solo.url], name, nodes / name, think=0.0,
                                     lease_seconds=5.0, results=Results(nodes / name / "ratings"))
             for name in ("ka", "kb")]
    a, b = rooms
    try:
        for name, key in (("Kim", "SHA256:kim"),):  # (with the other tests' results)
            person = await a.enter(name, key, lambda why: None)
            table = a.open_table(person, Rules(target=61), ("easy", "easy"))
            table.start(name)
            await play_to_the_end(table)
            for room in rooms:
                await until(lambda room=room, key=key: room.results.skill(f"ssh {key}")
                            is not None, what=f"node {room.node.name} rating {name}")
        await a.cluster_results.catch_up(), await b.cluster_results.catch_up()
        assert a.results.skills() == b.results.skills()
        store = await ClusterStore.connect(solo.url, "rebuilder", make=False)
        try:
            book = Results(crib3_home / "rebuilt")
            await fold_the_stream(store, book)
        finally:
            await store.close()
        assert book.skills() == a.results.skills() and book.count() == a.results.count()
        done = await asyncio.to_thread(crib3, "ratings", "rebuild", "--cluster", solo.url,
                                       home=crib3_home)
        assert done.returncode == 0, done.stderr
        said = done.stdout.splitlines()
        words = said[0].split()
        assert words[0] == str(a.results.count()) and words[7] == str(len(book.skills())), said
        assert " on the cluster folded into " in said[0], said
        assert said[1:] == ["node ka's store on this machine: the same numbers",
                            "node kb's store on this machine: the same numbers"]
        assert "Traceback" not in done.stderr
    finally:
        for room in rooms:
            room.close()
            await room.stop()
