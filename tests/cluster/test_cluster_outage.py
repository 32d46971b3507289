"""NATS down for a while under a running node (every server stopped, then
started again), against a real nats-server process
(tests/nats_support.py): once its connection is back the node watches its
cluster again at once, and its tables are hosted again within about a
lease, not after the backoff its watch and its scan grew while the
cluster was away."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import asdict

import nats
import nats.errors
import nats.js.errors
import pytest
from nats_support import nats_cluster, nats_server, needs_nats, until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster import ClusterStore
from crib3.cluster.node import Node
from crib3.cluster.registry import open_registry
from crib3.cluster.store import patiently
from crib3.engine import PlayerInfo, Rules
from crib3.engine.log import make_header
from crib3.engine.rules import begin
from crib3.room.seats import Seat

pytestmark = needs_nats

LEASE = 2.0  # seconds
OUTAGE = 6.0  # seconds NATS is down: longer than a lease, and its watches fail meanwhile
CLUSTER_OUTAGE = 2.0  # seconds: past what the leases had left; the watches fail meanwhile
TABLES = 6  # more than one scan adopts at once
SLOW_SCAN = 60.0  # seconds between two scans: as long as a long outage's backoff could grow


async def a_started_table(url: str | list[str], number: int) -> None:
    """Table `number` opened and started by a node that is gone at once
    (its lease runs out: a live node adopts the table)."""
    gone = await ClusterStore.connect(url, "gone", lease_seconds=LEASE)
    try:
        lease = await gone.acquire(str(number))
        log = await gone.open_log(lease, make_header(source="crib3 serve", table=number))
        players = (PlayerInfo("Alice", "human"), PlayerInfo("Bea", "easy"),
                   PlayerInfo("Cid", "easy"))
        await log.append(begin(players, Rules(), number))
        seats = [Seat("Alice", "key-alice"), Seat(level="easy"), Seat(level="easy")]
        registry = await open_registry(gone)
        entry = json.dumps(
            {"number": number, "owner": "Alice", "rules": asdict(Rules()),
             "seats": [asdict(seat) for seat in seats], "status": "open",
             "started_by": "Alice", "node": "gone"}).encode()
        # (Patiently, as a node makes it: a cluster just started may have
        # no leader for the registry's stream yet. Sent again after a lost
        # answer, the refusal is this very entry.)
        with contextlib.suppress(nats.js.errors.KeyWrongLastSequenceError):
            await patiently(lambda: registry.create(str(number), entry))
        assert (await patiently(lambda: registry.get(str(number)))).value == entry
    finally:
        await gone.close()


async def test_a_nodes_scan_adopts_at_once_once_nats_is_back_after_an_outage(tmp_path):
    """A table's host dies just before NATS goes down for `OUTAGE` seconds
    (its lease runs out meanwhile). Once the server answers again, node
    a's registry watch is made again, read whole, and its adoption scan
    works at once: the table is hosted again within a lease. (The scan
    waited out the rest of its wait, grown to 5 s by a long outage: up to
    12.7 s after the soak's 30 s outage, with the watch's own wait. Here
    its wait is a minute, so that what is measured is the wake, not where
    the wait stood.)"""
    with nats_server(tmp_path / "nats") as server:
        node = await Node.start(server.url, "a", tmp_path / "a", lease_seconds=LEASE,
                                think=0.0, scan_every=SLOW_SCAN)
        try:
            made = node.known.made
            await a_started_table(server.url, 7)
            server.stop()  # (within its lease: nobody adopted table 7 yet)
            assert 7 not in node.room.tables
            await asyncio.sleep(OUTAGE)
            server.start()
            await asyncio.to_thread(server.wait_ready)
            back = time.monotonic()
            await until(lambda: hosted(node, 7), seconds=30, what="table 7 hosted again")
            took = time.monotonic() - back
            assert node.known.made > made  # (its watch was made again)
            assert took < LEASE, f"table 7 hosted {took:.1f} s after NATS came back"
        finally:
            await node.close()


async def test_the_tables_freed_by_an_outage_of_a_cluster_are_adopted_together_once_it_answers(
        tmp_path, monkeypatch):
    """Three servers (R3) all stopped for a while, `TABLES` tables' host
    gone just before. Once the cluster's streams have their leaders again
    (seconds after every server answers healthy), the node reads its first
    table's log within two leases (its requests, sent while the streams had
    no leader, are asked again soon, not after nats-py's 5 s); and, each
    log's read taking a quarter of a lease more (a busy machine), it has
    adopted the last table within a lease of the first: the tables are
    taken together, not one after the other."""
    with nats_cluster(tmp_path / "nats") as servers:
        urls = [server.url for server in servers]
        node = await Node.start(urls, "a", tmp_path / "a", lease_seconds=LEASE, think=0.0)
        try:
            node.pause()  # (its scan waits: the tables' leases run out during the outage)
            numbers = list(range(1, TABLES + 1))
            await asyncio.gather(*(a_started_table(urls, number) for number in numbers))
            read, logs_read = node.store.read, []

            async def slowly(table: str):
                record = await read(table)
                logs_read.append(time.monotonic())
                await asyncio.sleep(LEASE / 4)  # (a busy machine)
                return record
            monkeypatch.setattr(node.store, "read", slowly)
            adopted, adopt = [], node.adopt

            async def timed(table_id: str, *args):
                table = await adopt(table_id, *args)
                if table is not None:
                    adopted.append(time.monotonic())
                return table
            monkeypatch.setattr(node, "adopt", timed)
            for server in servers:
                server.stop()
            node.keeper.paused = False
            await asyncio.sleep(CLUSTER_OUTAGE)
            for server in servers:
                server.start()
            back = await leaders_back(urls)
            await until(lambda: all(hosted(node, n) for n in numbers), seconds=40,
                        what=f"tables {numbers} hosted again")
            # (Two leases, not one: a clean-clone CI run read it 2.1 s after, at
            # its busiest; nats-py alone would wait up to 5 s.)
            assert logs_read[0] - back < 2 * LEASE, \
                f"the first log read {logs_read[0] - back:.1f} s after the streams had leaders"
            assert adopted[-1] - adopted[0] < LEASE, \
                f"the last table adopted {adopted[-1] - adopted[0]:.1f} s after the first"
        finally:
            await node.close()


async def leaders_back(urls: list[str]) -> float:
    """When the tables' stream and the registry's and the leases' buckets
    all have a leader (asked every 0.1 s, each ask given up after 0.5 s)."""
    streams = ("CRIB3_TABLES", "KV_crib3-tables", "KV_crib3-leases")
    give_up = time.monotonic() + 40
    while True:  # (the servers just started may not listen yet)
        try:
            client = await nats.connect(urls, max_reconnect_attempts=-1,
                                        reconnect_time_wait=0.1, connect_timeout=1)
            break
        except Exception as exc:
            assert time.monotonic() < give_up, f"no server of {urls} lets a client in: {exc!r}"
            await asyncio.sleep(0.1)
    try:
        js = client.jetstream(timeout=0.5)
        led: dict[str, str | None] = dict.fromkeys(streams)  # stream -> its leader
        said: dict[str, str] = {}  # stream -> what the last ask said
        while not all(led.values()):
            assert time.monotonic() < give_up, f"the streams' leaders not all back: {said}"
            for stream in streams:
                try:
                    info = await js.stream_info(stream)
                    led[stream] = info.cluster.leader if info.cluster else None
                    said[stream] = f"leader {led[stream]}"
                except Exception as exc:  # (not answered yet: asked again)
                    led[stream], said[stream] = None, repr(exc)
            await asyncio.sleep(0.1)
        return time.monotonic()
    finally:
        await client.close()


def hosted(node: Node, number: int) -> bool:
    table = node.room.tables.get(number)
    return table is not None and not table.moved and not table.closed


class Broken(Exception):
    pass


class Bucket:
    """A bucket whose watches break while `away` (a stub: what is tested is
    when a watch is tried again, not what the server says)."""

    def __init__(self) -> None:
        self.away = False
        self.tries: list[float] = []

    async def watchall(self, inactive_threshold: float) -> Watcher:
        self.tries.append(time.monotonic())
        if self.away:
            raise Broken("the cluster is away")
        return Watcher(self)


class Watcher:
    STOP_ITER = object()

    def __init__(self, bucket: Bucket) -> None:
        self.bucket = bucket
        self.read = False
        self._sub = self

    async def updates(self, timeout: float) -> object:
        if self.bucket.away:
            raise Broken("the cluster is away")
        if not self.read:
            self.read = True
            return None  # (the bucket read whole: it is empty)
        await asyncio.sleep(timeout)
        raise nats.errors.TimeoutError

    async def consumer_info(self) -> None:
        if self.bucket.away:
            raise Broken("the cluster is away")

    async def stop(self) -> None:
        pass


async def test_a_watch_backed_off_is_made_again_at_once_when_its_connection_is_back():
    """A watch that failed for a while waits longer and longer between
    tries (here 1.5 to 2.5 s, after four failures); the
    node's connection back (`again`), it is made again at once and read
    whole, and those waiting on it (the scan) are told."""
    from crib3.cluster.watched import WatchedBucket

    bucket = Bucket()
    watched = WatchedBucket(bucket, "the test's watch", "nothing is heard",
                            check_every=0.05)
    told: list[float] = []
    await watched.start()
    watched.whole.append(lambda: told.append(time.monotonic()))
    try:
        bucket.away = True
        await until(lambda: len(bucket.tries) >= 5, what="four failed tries")  # (about 2 s)
        bucket.away = False
        await asyncio.sleep(0.05)
        tried = len(bucket.tries)
        back = time.monotonic()
        watched.again()
        await until(lambda: watched.live, seconds=10, what="the watch live again")
        assert len(bucket.tries) == tried + 1 and bucket.tries[-1] - back < 0.5
        assert told and told[-1] - back < 0.5
    finally:
        await watched.stop()


async def test_a_table_whose_log_takes_longer_than_a_lease_to_read_is_adopted_and_kept(
        tmp_path, monkeypatch):
    """On a busy machine, reading a long log and rebuilding its game can
    take longer than a lease's term: the adopting node keeps the lease
    renewed meanwhile, and hosts the table for good (its lease ran out
    under the adoption: the table was adopted, then lost at once)."""
    with nats_server(tmp_path / "nats") as server:
        await a_started_table(server.url, 7)
        node = await Node.start(server.url, "a", tmp_path / "a", lease_seconds=LEASE,
                                think=0.0, adopt=False)
        try:
            read = node.store.read

            async def slowly(table: str):
                record = await read(table)
                await asyncio.sleep(1.5 * LEASE)  # (a long log, a busy machine)
                return record
            monkeypatch.setattr(node.store, "read", slowly)
            give_up = time.monotonic() + 6 * LEASE
            while (table := await node.adopt("7")) is None:  # (its lease runs out first)
                assert time.monotonic() < give_up, "table 7 never adopted"
                await asyncio.sleep(0.2)
            kept = time.monotonic() + LEASE  # (its lease had run out by the adoption's end)
            await until(lambda: table.moved or time.monotonic() > kept, seconds=3 * LEASE)
            assert not table.moved and hosted(node, 7)
        finally:
            await node.close()
