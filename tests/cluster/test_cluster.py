"""crib3.cluster against real NATS servers (tests/nats_support.py): one
server, and a three-server cluster on loopback."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from games import random_game
from nats_support import nats_cluster, nats_server, needs_nats

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster import ClusterStore, Fenced, Lease, LeaseHeld, TableLog
from crib3.engine.log import event_line, make_header

pytestmark = needs_nats


@pytest.fixture(scope="module")
def solo(tmp_path_factory):
    with nats_server(tmp_path_factory.mktemp("nats")) as server:
        yield server


def test_a_server_starts_with_jetstream_ready(solo):
    assert solo.healthy()


def test_a_cluster_stays_healthy_when_one_server_is_killed(tmp_path):
    with nats_cluster(tmp_path) as servers:
        assert all(server.healthy() for server in servers)
        servers[0].kill()
        assert servers[0].process.returncode == -9
        servers[1].wait_ready()
        servers[2].wait_ready()


# --- the tables' logs and leases (crib3.cluster.store) -------------------------------

GAME = random_game(31).events  # a whole game: about 400 events


async def until_acquired(store: ClusterStore, table: str, seconds: float = 20.0) -> Lease:
    """The lease, as soon as the server has dropped the former one."""
    give_up = time.monotonic() + seconds
    while True:
        try:
            return await store.acquire(table)
        except LeaseHeld:
            if time.monotonic() > give_up:
                raise
            await asyncio.sleep(0.1)


async def test_a_table_log_reads_back_as_the_lines_of_a_game_log(solo):
    store = await ClusterStore.connect(solo.url, "a")
    try:
        lease = await store.acquire("t1")
        header = make_header(source="crib3 serve", table="t1")
        log = await store.open_log(lease, header)
        for event in GAME:
            await log.append(event)
        record = await store.read("t1")
        assert record.header == header
        assert record.events == list(GAME)
        assert record.lines == [json.dumps(header, ensure_ascii=False),
                                *map(event_line, GAME)]
        assert record.owners == [("a", lease.revision)]
        assert (await store.read("t2")).header is None  # another table: nothing
    finally:
        await store.close()


async def test_of_two_writers_at_one_place_in_the_log_the_second_is_fenced(solo):
    a = await ClusterStore.connect(solo.url, "a")
    b = await ClusterStore.connect(solo.url, "b")
    try:
        log_a = await a.open_log(await a.acquire("t3"), make_header())
        await log_a.append(GAME[0])
        # b writes without the lease, from the same place in the log: as a
        # node that was cut off would, believing itself the owner.
        log_b = TableLog(b, Lease("t3", "b", 0, time.monotonic() + 60), await b.read("t3"))
        await log_a.append(GAME[1])
        with pytest.raises(Fenced):
            await log_b.append(GAME[1])
        await log_a.append(GAME[2])
        assert (await a.read("t3")).events == list(GAME[:3])
    finally:
        await a.close()
        await b.close()


async def test_an_append_sent_again_after_a_lost_answer_is_not_doubled(solo):
    store = await ClusterStore.connect(solo.url, "a")
    try:
        log = await store.open_log(await store.acquire("t4"), make_header())
        await log.append(GAME[0])
        before = log.record.last
        first = await log.append(GAME[1])
        # The answer to the first send was lost: the same message goes again.
        log.record.last, log.record.events[:] = before, log.record.events[:1]
        assert await log.append(GAME[1]) == first
        await log.append(GAME[2])
        assert (await store.read("t4")).events == list(GAME[:3])
    finally:
        await store.close()


async def test_a_lease_taken_over_after_expiry_fences_the_old_owner(tmp_path):
    with nats_server(tmp_path) as server:
        a = await ClusterStore.connect(server.url, "a", lease_seconds=1.0)
        b = await ClusterStore.connect(server.url, "b")
        try:
            assert b.lease_seconds == 1.0  # the bucket's term, whoever made it
            lease_a = await a.acquire("t5")
            log_a = await a.open_log(lease_a, make_header())
            acknowledged = []
            for event in GAME[:10]:
                await log_a.append(event)
                acknowledged.append(event)
            await a.renew(lease_a)
            with pytest.raises(LeaseHeld) as held:
                await b.acquire("t5")
            assert held.value.owner == "a"
            # a stops renewing (paused, cut off); the server drops its lease.
            lease_b = await until_acquired(b, "t5")
            log_b = await b.open_log(lease_b)
            assert log_b.events == acknowledged  # b adopts the game where it stood
            with pytest.raises(Fenced):
                await a.renew(lease_a)
            # Even were a's clock to say its term is not over (a pause between
            # its check and its append), the server refuses its append.
            lease_a.deadline = time.monotonic() + 60
            with pytest.raises(Fenced):
                await log_a.append(GAME[10])
            for event in GAME[10:20]:
                await log_b.append(event)
                acknowledged.append(event)
            await b.renew(lease_b)
            record = await a.read("t5")
            assert record.events == acknowledged == list(GAME[:20])
            assert [owner for owner, _ in record.owners] == ["a", "b"]
            await b.release(lease_b)
            assert (await a.acquire("t5")).revision > lease_b.revision  # free at once
        finally:
            await a.close()
            await b.close()


class Slow:
    """A bucket whose own requests (5 s each) must not be asked: a lease's
    holder and its renewal are asked with the quick ones."""

    def __init__(self, bucket: object) -> None:
        self.bucket = bucket

    async def get(self, key: str) -> object:
        raise AssertionError(f"the lease {key} was looked up with the slow requests")

    async def update(self, key: str, value: bytes, last: int) -> int:
        raise AssertionError(f"the lease {key} was renewed with the slow requests")

    def __getattr__(self, name: str) -> object:
        return getattr(self.bucket, name)


async def test_a_lease_held_elsewhere_and_a_renewal_are_asked_quickly(solo):
    """After an outage an adoption spent most of its time finding who held
    a lease, with the bucket's 5 s requests each retried for 15 s: its
    table hosted by nobody meanwhile. A lease's holder and its renewal are
    asked with the 1 s requests, and a renewal is asked again only while
    its lease may still be held."""
    a = await ClusterStore.connect(solo.url, "a")
    b = await ClusterStore.connect(solo.url, "b")
    try:
        a._leases, b._leases = Slow(a._leases), Slow(b._leases)
        lease = await a.acquire("t9")
        with pytest.raises(LeaseHeld) as held:
            await b.acquire("t9")
        assert held.value.owner == "a"
        await a.renew(lease)
        assert lease.held()
        await a.release(lease)
    finally:
        await a.close()
        await b.close()


@pytest.mark.slow
async def test_on_three_servers_killing_the_tables_leader_loses_and_stops_nothing(tmp_path):
    with nats_cluster(tmp_path) as servers:
        store = await ClusterStore.connect([s.url for s in servers], "a", replicas=3)
        try:
            info = await store.js.stream_info("CRIB3_TABLES")
            assert info.config.num_replicas == 3
            log = await store.open_log(await store.acquire("t6"), make_header())
            half = len(GAME) // 2
            for event in GAME[:half]:
                await log.append(event)
            leader = next(s for s in servers if s.name == info.cluster.leader)
            leader.kill()
            for event in GAME[half:]:
                await log.append(event)
            await store.renew(log.lease)
            survivor = next(s for s in servers if s is not leader)
            reader = await ClusterStore.connect(survivor.url, "b", replicas=3)
            try:
                assert (await reader.read("t6")).events == list(GAME)
            finally:
                await reader.close()
        finally:
            await store.close()


# --- crib3 tables export --cluster --------------------------------------------------


@pytest.mark.slow
async def test_a_table_exported_from_the_cluster_is_a_game_log_that_verifies(solo, tmp_path):
    from commands import assert_clean_failure, crib3

    store = await ClusterStore.connect(solo.url, "a")
    try:
        lease = await store.acquire("t7")
        log = await store.open_log(lease, make_header(source="crib3 serve", table="t7"))
        for event in GAME[:150]:
            await log.append(event)
        await store.release(lease)
        # A second owner: its owner message is no line of the game.
        log = await store.open_log(await store.acquire("t7"))
        for event in GAME[150:]:
            await log.append(event)
        lines = (await store.read("t7")).lines
    finally:
        await store.close()
    out = tmp_path / "t7.jsonl"
    done = await asyncio.to_thread(crib3, "tables", "export", "t7", "--cluster", solo.url,
                                   "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8").splitlines() == lines
    verified = await asyncio.to_thread(crib3, "verify", str(out))
    assert verified.returncode == 0, verified.stderr
    assert f"valid, {len(GAME)} events, won by" in verified.stdout
    missing = await asyncio.to_thread(crib3, "tables", "export", "t8", "--cluster", solo.url)
    assert_clean_failure(missing, 1)
    assert "no table t8" in missing.stderr
    nobody = await asyncio.to_thread(crib3, "tables", "export", "t7", "--cluster",
                                     "nats://127.0.0.1:1")
    assert_clean_failure(nobody, 1)


async def test_tables_export_takes_the_cluster_as_serve_does(solo, tmp_path):
    """`--cluster` is one text for every command: the comma-separated list
    `serve --cluster` takes (spaces, a URL without its scheme) reads the
    table; a bad URL is one usage line; a line never shows a password."""
    from commands import assert_clean_failure, crib3

    store = await ClusterStore.connect(solo.url, "a")
    try:
        lease = await store.acquire("t9")
        log = await store.open_log(lease, make_header(source="crib3 serve", table="t9"))
        for event in GAME:
            await log.append(event)
        await store.release(lease)
        lines = (await store.read("t9")).lines
    finally:
        await store.close()
    bare = solo.url.split("://", 1)[1]
    servers = f"{solo.url}, {bare}"
    done = await asyncio.to_thread(crib3, "tables", "export", "t9", "--cluster", servers)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == lines
    wrong = await asyncio.to_thread(crib3, "tables", "export", "t9", "--cluster",
                                    f"{solo.url},ftp://127.0.0.1:1")
    assert_clean_failure(wrong, 2)
    assert "nats://HOST:PORT or tls://HOST:PORT" in wrong.stderr
    secret = await asyncio.to_thread(crib3, "tables", "export", "t9", "--cluster",
                                     "nats://ann:hunter2@127.0.0.1:1")
    assert_clean_failure(secret, 1)
    assert "hunter2" not in secret.stderr and "nats://127.0.0.1:1" in secret.stderr


async def test_a_key_that_expires_while_it_is_created_is_created_not_missing():
    """nats-py's create, in a bucket with a TTL, raised KeyNotFoundError for
    a key that expired between its two looks (seen in a clean-clone CI run:
    a name freed by its node's silence could not be signed in with)."""
    import nats.js.errors

    from crib3.cluster.store import create_key

    class Expiring:
        def __init__(self, misses: int) -> None:
            self.misses = misses

        async def create(self, key: str, value: bytes) -> int:
            if self.misses:
                self.misses -= 1
                raise nats.js.errors.KeyNotFoundError
            return 7

    assert await create_key(Expiring(1), "k", b"v") == 7

    class Held:
        async def create(self, key: str, value: bytes) -> int:
            raise nats.js.errors.KeyWrongLastSequenceError(description="wrong last sequence: 3")

    with pytest.raises(nats.js.errors.KeyWrongLastSequenceError):
        await create_key(Held(), "k", b"v")
