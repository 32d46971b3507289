"""A room's tables hosted by the nodes of a cluster (crib3.cluster.node,
crib3.cluster.hosted, crib3.cluster.acked), against a real nats-server
(tests/nats_support.py): events on the stream before any screen shows them,
one host at a time, a table adopted by another node when its host stops,
the game where it stood, and an adoption scan that fails while the
registry is gone, said once, and works again once it is back."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
from nats_support import nats_server, needs_nats, until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster import ClusterStore, LeaseHeld
from crib3.cluster.acked import AckedGame
from crib3.cluster.node import Node
from crib3.engine import Game, IllegalMove, Rules
from crib3.engine.events import CardDiscarded
from crib3.room.seats import Presence

pytestmark = needs_nats

LEASE = 2.0  # seconds: a node that stops renewing loses its tables this soon


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with nats_server(tmp_path_factory.mktemp("nats")) as running:
        yield running


async def start_node(server, name: str, tmp_path, **options) -> Node:
    return await Node.start(server.url, name, tmp_path / name, lease_seconds=LEASE,
                            think=0.0, scan_every=0.2, **options)


ALICE = Presence("Alice", "key-alice")
BOT_MOVES = {"CardDiscarded", "StarterCut", "CardPlayed", "GoSaid"}


async def alice_plays(table, enough, seconds: float = 20.0) -> bool:
    """Alice plays her first legal move whenever it is her turn alone, until
    `enough(events)` (the events on the stream)."""
    give_up = time.monotonic() + seconds
    game = table.game
    while not enough(game.events):
        assert time.monotonic() < give_up, "the game did not go on"
        if game.to_act() == (0,) and not game._outbox:
            table.feed(0).dispatch(game.legal_moves(0)[0])
        await asyncio.sleep(0.02)
    return True


async def test_a_hosted_table_shows_an_event_only_once_the_stream_holds_it(server, tmp_path):
    a = await start_node(server, "a1", tmp_path, adopt=False)
    try:
        table = await a.open_table(ALICE, Rules(), ("easy", "easy"))
        table.start("Alice")
        assert isinstance(table.game, AckedGame)
        shown: list[tuple[object, int]] = []

        def screen(event, state, view):  # Alice's screen: how much is on the stream yet?
            shown.append((event, len(table.log.events)))

        history, _ = table.feed(0).follow(screen)
        # The bots discard; Alice's turn comes once the deal is on the stream.
        await until(lambda: table.game.to_act() == (0,) and not table.game._outbox,
                    what="Alice's turn")
        move = table.game.legal_moves(0)[0]
        table.feed(0).dispatch(move)
        # Taken, not shown yet; sent again meanwhile, it is refused at once
        # (checked against the state the queued events make).
        with pytest.raises(IllegalMove):
            table.feed(0).dispatch(move)
        await until(lambda: any(isinstance(e, CardDiscarded) and e.seat == 0
                                for e, _ in shown), what="her discard shown")
        await table.game.settled()
        # The n-th event Alice was shown was on the stream (acknowledged) by then.
        assert shown and all(len(history) + n + 1 <= on_stream
                             for n, (_, on_stream) in enumerate(shown))
        reader = await ClusterStore.connect(server.url, "reader", make=False)
        try:
            record = await reader.read(table.table_id)
        finally:
            await reader.close()
        assert record.events == table.game.events
        assert len(history) + len(shown) == len(record.events)
        assert [owner for owner, _ in record.owners] == ["a1"]
    finally:
        await a.stop()


@pytest.mark.slow
async def test_a_stopped_host_loses_its_table_to_a_node_that_adopts_it(server, tmp_path):
    from commands import crib3

    a = await start_node(server, "a2", tmp_path)
    b = await start_node(server, "b2", tmp_path)
    try:
        table = await a.open_table(ALICE, Rules(), ("easy", "standard"))
        table.start("Alice")
        game = table.game
        assert isinstance(game, AckedGame)
        await until(lambda: game.to_act() == (0,) and not game._outbox, what="Alice's turn")
        stood = list(game.events)
        told: list[bool] = []
        table.listeners.append(lambda: told.append(table.moved))

        # a stops (as by SIGSTOP): no renewal; its lease runs out, b adopts.
        a.pause()
        await until(lambda: table.number in b.room.tables, seconds=6 * LEASE,
                    what="b adopting the table")
        adopted = b.room.tables[table.number]
        assert table.table_id in b.adopted
        assert adopted.game.events == stood  # the game where it stood
        assert adopted.game.state == Game.from_events(stood).state
        assert adopted.seats == table.seats and adopted.started_by == "Alice"

        # a comes back and takes Alice's move; even were its clock to say its
        # lease holds, the cluster refuses the append: nothing is shown, the
        # table moved, and a's screens are told so.
        a.keeper.paused = False
        game.log.lease.deadline = time.monotonic() + 60
        move = game.legal_moves(0)[0]
        table.feed(0).dispatch(move)
        await game.settled()
        assert game.fenced and table.moved and table.closed and True in told
        assert table.number not in a.room.tables
        assert game.events == stood  # her move was never shown at a
        with pytest.raises(IllegalMove):
            table.feed(0).dispatch(move)

        # Alice reconnects through b and lands in her seat; her move is taken
        # once, and the bots carry on under b.
        assert adopted.sit(Presence("Alice", "key-alice")) == 0
        adopted.feed(0).dispatch(adopted.game.legal_moves(0)[0])
        bots_moved = await alice_plays(adopted, lambda events: sum(
            getattr(e, "seat", None) in (1, 2) and type(e).__name__ in BOT_MOVES
            for e in events[len(stood):]) >= 2)
        assert bots_moved
        # The bots play on until it is Alice's turn again: the stream is read
        # once they stand still, so that no move lands between the read and
        # the comparison.
        await until(lambda: adopted.game.to_act() == (0,) and not adopted.game._outbox,
                    what="Alice's turn again")
        await adopted.game.settled()
        reader = await ClusterStore.connect(server.url, "reader", make=False)
        try:
            record = await reader.read(table.table_id)
        finally:
            await reader.close()
        assert record.events == adopted.game.events  # nothing missing, nothing doubled
        assert [owner for owner, _ in record.owners] == ["a2", "b2"]
        assert sum(isinstance(e, CardDiscarded) and e.seat == 0 for e in record.events) \
            == 1 + sum(isinstance(e, CardDiscarded) and e.seat == 0 for e in stood)
    finally:
        await a.close()
        await b.stop()
    out = tmp_path / "table.jsonl"
    done = await asyncio.to_thread(crib3, "tables", "export", table.table_id, "--cluster",
                                   server.url, "-o", str(out))
    assert done.returncode == 0, done.stderr
    verified = await asyncio.to_thread(crib3, "verify", str(out))
    assert verified.returncode == 0, verified.stderr


async def test_a_host_whose_lease_was_taken_tells_its_screens_the_table_moved(server, tmp_path):
    a = await start_node(server, "a3", tmp_path, adopt=False)
    other = await ClusterStore.connect(server.url, "c3")
    try:
        table = await a.open_table(ALICE, Rules(), ("easy", "easy"))
        told: list[bool] = []
        table.listeners.append(lambda: told.append(table.moved))
        a.pause()  # no renewal: the server drops the lease at the end of its term
        give_up = time.monotonic() + 10 * LEASE
        while True:
            try:
                await other.acquire(table.table_id)
                break
            except LeaseHeld:
                assert time.monotonic() < give_up, "the server never dropped a's lease"
                await asyncio.sleep(0.05)
        assert not table.moved
        a.keeper.paused = False  # its next renewal is refused
        await until(lambda: table.moved, seconds=4 * LEASE, what="a letting the table go")
        assert told == [True] and table.closed and table.number not in a.room.tables
    finally:
        await a.close()
        await other.close()


async def test_an_adoption_scan_that_fails_is_said_once_and_recovers(tmp_path, caplog):
    """The registry deleted under a running node: its scan fails, said once
    with what it means; the registry back, the scan says it works again,
    and a dead node's table is adopted."""
    from crib3.cluster.registry import REGISTRY, open_registry

    caplog.set_level(logging.INFO, logger="crib3.cluster")
    failed = "node b5: the adoption scan failed: the tables of a dead node are not adopted"
    with nats_server(tmp_path / "nats") as own:
        b = await start_node(own, "b5", tmp_path)
        admin = await ClusterStore.connect(own.url, "admin5")
        a = None
        try:
            await admin.js.delete_key_value(REGISTRY)
            await until(lambda: failed in caplog.text, what="the failed scan said")
            await asyncio.sleep(1.0)  # (more scans meanwhile, failing too)
            assert caplog.text.count(failed) == 1, caplog.text
            assert "scan works again" not in caplog.text

            await open_registry(admin)  # the registry back, empty
            await until(lambda: "node b5: the adoption scan works again" in caplog.text,
                        seconds=15, what="the scan working again, said")
            assert caplog.text.count("scan works again") == 1

            a = await start_node(own, "a5", tmp_path, adopt=False)
            table = await a.open_table(ALICE, Rules(), ("easy", "easy"))
            table.start("Alice")
            await until(lambda: table.game.to_act() == (0,) and not table.game._outbox,
                        what="Alice's turn")
            await a.flushed()
            a.pause()
            await until(lambda: table.number in b.room.tables, seconds=6 * LEASE,
                        what="b adopting the table")
            assert b.room.tables[table.number].game.events == table.game.events
        finally:
            if a is not None:
                await a.close()
            await admin.close()
            await b.stop()


async def test_a_node_whose_registry_writer_stopped_still_stops_in_its_bound(
        server, tmp_path, monkeypatch, caplog):
    """A node whose registry entries can no longer be written (its writer
    stopped: as when the cluster does not answer) stops all the same, in
    its bound, the table's lease left to run out; and a wait for its
    entries ends with TimeoutError (both used to wait for good: one way a
    cluster test's teardown could hang the suite)."""
    from crib3.cluster import node as nodes

    monkeypatch.setattr(nodes, "FLUSH_SECONDS", 1.0, raising=False)
    a = await start_node(server, "a6", tmp_path, adopt=False)
    table = await a.open_table(ALICE, Rules(), ("easy", "easy"))
    table.start("Alice")
    for task in a._tasks:  # (the registry's writer is the first)
        task.cancel()
    a.publish(table)  # an entry nobody writes now
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(a.flushed(seconds=0.5), 10)
    stopping = asyncio.ensure_future(a.stop())
    done, _ = await asyncio.wait([stopping], timeout=10)
    assert done, "the node's stop waits for good"
    stopping.result()
    assert "its lease is left to run out" in caplog.text


async def test_a_node_never_adopts_a_table_it_is_making(tmp_path, monkeypatch):
    """A node's scan that meets a table this node is making (its registry
    entry written, its lease this node's, not hosted yet) does not take it
    for a free one: the store's `acquire` hands a node back a lease it
    holds (a create whose answer was lost), and a live event's board table
    was hosted twice so, one copy fenced and its visitor's session ended.
    Here the scan's adoption starts as the table's log is opened, and
    reads the table's stream once the table is hosted and started."""
    with nats_server(tmp_path / "nats") as server:
        node = await Node.start([server.url], "a", tmp_path / "a", lease_seconds=LEASE,
                                think=0.0)
        try:
            opened, read_log = node.store.open_log, node._read_log
            made = asyncio.Event()
            adoptions: list[asyncio.Task] = []

            async def open_log(lease, header=None):
                adoptions.append(asyncio.create_task(node.adopt(lease.table)))
                await asyncio.sleep(0.2)  # (the adoption asks meanwhile)
                return await opened(lease, header)

            async def slowly(lease, revision):
                await asyncio.wait_for(made.wait(), 10)  # (once the table is hosted)
                return await read_log(lease, revision)
            monkeypatch.setattr(node.store, "open_log", open_log)
            monkeypatch.setattr(node, "_read_log", slowly)
            table = await node.open_table(Presence("ann", "SHA256:ann"), Rules(target=61),
                                          ("easy", "easy"))
            table.start("ann")
            made.set()
            adopted = await asyncio.wait_for(adoptions[0], 10)
            assert adopted is None
            assert node.room.tables[table.number] is table
        finally:
            await node.close()
