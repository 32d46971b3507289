"""The cluster-wide part of a room (crib3.cluster.presence, crib3.cluster.lobby,
crib3.cluster.chat) against a real nats-server (tests/nats_support.py), two
nodes in one process: a name held once across nodes (its lookalikes too)
and freed when its node stops renewing, a renewal that fails logged once
and recovered from, the names per person granted once under concurrent
claims, a table's change on one node in another node's lobby, a table's
chat kept on the cluster and read back, and an admin's removal reaching a
session on another node."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import pytest
from nats_support import nats_server, needs_nats, until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

import nats.errors

from crib3.cluster import ClusterStore
from crib3.cluster.chat import CHAT, keep_line, read_lines
from crib3.cluster.lobby import ClusterLobby
from crib3.cluster.node import Node
from crib3.cluster.presence import AGAIN, LOST, REMOVED, ClusterPeople
from crib3.engine import Rules
from crib3.room.basics import RoomError
from crib3.room.seats import Presence

pytestmark = needs_nats

TTL = 2.0  # seconds: a node that stops renewing frees its people's names this soon


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with nats_server(tmp_path_factory.mktemp("nats")) as running:
        yield running


@contextlib.asynccontextmanager
async def two_nodes(server):
    """Nodes "a" and "b": each its own connection and its part of the sign-in."""
    stores = [await ClusterStore.connect(server.url, name) for name in ("a", "b")]
    people = [await ClusterPeople.start(store, ttl=TTL) for store in stores]
    try:
        yield people
    finally:
        for part in people:
            await part.stop()
        for store in stores:
            await store.close()


def person(name: str, key: str, admin: bool = False, address: str | None = None):
    """A presence, and the reasons its session was ended with."""
    kicked: list[str] = []
    return Presence(name, key, kicked.append, admin=admin, address=address), kicked


async def test_a_name_is_held_once_across_nodes_and_freed_when_its_node_stops(server):
    async with two_nodes(server) as (a, b):
        alice, kicked = person("Alice", "key-alice")
        await a.sign_in(alice)
        await a.sign_in(Presence("Bob", "key-bob"))
        assert (await b.where("alice"))["node"] == "a"
        for other in ("Alice", "ALICE", "aIice", "\u0412\u041e\u0412"):  # ВОВ: all Cyrillic
            with pytest.raises(RoomError, match="here already|looks like"):
                await b.sign_in(Presence(other, "key-mallory"))
        assert (await b.where("Alice"))["proof"] == "key-alice"  # never a code, a proof

        # a stops renewing (as under SIGSTOP): the name is freed in about TTL.
        a.paused = True
        stopped = time.monotonic()
        mallory, _ = person("aIice", "key-mallory")
        while True:
            try:
                await b.sign_in(mallory)
                break
            except RoomError:
                assert time.monotonic() - stopped < 10 * TTL, "the name was never freed"
                await asyncio.sleep(0.1)
        print(f"freed after {time.monotonic() - stopped:.2f} s (TTL {TTL} s)")
        # a comes back: its renewal finds the name taken, and its session ends.
        a.paused = False
        await a.renew()
        assert kicked == [LOST] and [c.presence.name for c in a.here.values()] == ["Bob"]

        # Under --open a name is held for the room's life by its first proof.
        code = "first-use code " + "0" * 64  # a reconnect code's hash, not the code
        await a.hold("Scope", code)
        assert await b.held_by("SCOPE") == code
        with pytest.raises(RoomError, match="held here by someone else"):
            await b.hold("\u0455\u0441\u043e\u0440\u0435", "first-use key")  # ѕсоре
        await b.hold("Scope", code)
        assert await a.held_by("Nobody") is None


async def test_the_per_person_limits_hold_across_nodes_claimed_at_once(server):
    async with two_nodes(server) as (a, b):
        sessions = [person(f"Twin{i}", "key-twins")[0] for i in range(6)]
        done = await asyncio.gather(
            *(node.sign_in(p, names_per_key=2) for p, node in zip(sessions, [a, b] * 3)),
            return_exceptions=True)
        granted = [p for p, d in zip(sessions, done) if not isinstance(d, BaseException)]
        refused = [d for d in done if isinstance(d, BaseException)]
        assert len(granted) == 2, done
        assert all(isinstance(d, RoomError) and "2 names signed in already" in str(d)
                   for d in refused)
        # The refused ones hold no name; a freed slot is free on the other node.
        assert [await a.where(p.name) for p in sessions if p not in granted] == [None] * 4
        owner = a if granted[0].name in {c.presence.name for c in a.here.values()} else b
        await owner.sign_out(granted[0])
        await (b if owner is a else a).sign_in(person("Twin9", "key-twins")[0],
                                               names_per_key=2)


async def test_a_table_changed_on_one_node_is_seen_in_another_nodes_lobby(server, tmp_path):
    host = await Node.start(server.url, "host", tmp_path / "host", lease_seconds=2.0,
                            think=0.0, adopt=False)
    reader = await ClusterStore.connect(server.url, "reader")
    lobby = await ClusterLobby.start(reader)
    try:
        await asyncio.wait_for(lobby.ready.wait(), 10)
        known = set(lobby.entries)
        alice = Presence("Alice", "key-alice-fingerprint")
        opened = time.monotonic()
        table = await host.open_table(alice, Rules(muggins=True), ("easy", "expert"))
        await until(lambda: table.number in lobby.entries
                    and lobby.entries[table.number].online == {0},
                    what="the new table, its owner there, in b's lobby")
        print(f"a new table in the other node's lobby after {time.monotonic() - opened:.3f} s")
        seen = lobby.entries[table.number]
        assert table.number not in known and seen.node == "host" and seen.owner == "Alice"
        assert [s.name for s in seen.seats] == ["Alice", None, None]
        assert [s.level for s in seen.seats][1:] == ["easy", "expert"]
        assert seen.rules.muggins and seen.standing is None and seen.online == {0}
        assert "key-alice-fingerprint" not in repr(lobby.tables())  # no key crosses

        started = time.monotonic()
        table.start("Alice")
        await until(lambda: lobby.entries[table.number].standing is not None,
                    what="the game's standing in b's lobby")
        print(f"a started game in the other node's lobby after "
              f"{time.monotonic() - started:.3f} s")
        standing = lobby.entries[table.number].standing
        assert [p.name for p in standing.players][0] == "Alice"
        assert standing.scores == (0, 0, 0) and standing.winner is None
        assert lobby.entries[table.number].started
        # (the bots' workers started before the table closes: no decision cut short)
        await until(lambda: table.game.to_act() == (0,), what="Alice's turn")
    finally:
        await lobby.stop()
        await reader.close()
        await host.stop()


async def test_a_tables_chat_is_kept_on_the_cluster_and_read_back_in_order(server):
    store = await ClusterStore.connect(server.url, "ca")
    try:
        from crib3.cluster.chat import ensure_stream
        from crib3.room.chat import ChatLine

        await ensure_stream(store.js, 1)
        said = [ChatLine("Alice", "one"), ChatLine("Bob", "deux"), ChatLine("Alice", "two"),
                ChatLine("Bob", "[b]trois[/b]")]
        for line in said:
            await keep_line(store.js, "12", line)
        await keep_line(store.js, "13", ChatLine("Carol", "another table"))
        assert await read_lines(store.js, "12") == said  # in the order kept
        assert [x.text for x in await read_lines(store.js, "13")] == ["another table"]
        assert await read_lines(store.js, "14", timeout=0.5) == []
        # A stored line is checked again as it is read: one that no checked
        # line can be is left out.
        await store.js.publish("crib3.chat.table.12", b'{"name": "Eve", "text": "x\\u0007"}',
                               stream=CHAT)
        assert await read_lines(store.js, "12") == said
        # ... and the stream refuses what no checked line can be.
        with pytest.raises(Exception, match="(?i)payload|maximum"):
            await store.js.publish("crib3.chat.table.12", b"x" * 20_000, stream=CHAT)
    finally:
        await store.close()


async def test_a_failing_renewal_is_logged_once_and_recovered_from(server, caplog):
    async with two_nodes(server) as (a, b):
        alice, kicked = person("Alice", "key-alice")
        await a.sign_in(alice)
        real_update = a.people.update
        broken = True

        async def update(*args, **kwargs):
            if broken:
                raise nats.errors.TimeoutError
            return await real_update(*args, **kwargs)

        a.people.update = update
        caplog.set_level(logging.INFO, logger="crib3.cluster")
        failed = "node a: the renewal of its people's names failed"
        await until(lambda: failed in caplog.text, seconds=3 * TTL, what="the failure logged")
        await asyncio.sleep(TTL)  # (several more tries, all failing)
        assert caplog.text.count(failed) == 1, caplog.text
        assert "anyone may take them" in caplog.text
        broken = False
        await until(lambda: "names works again" in caplog.text, seconds=3 * TTL,
                    what="the recovery logged")
        assert caplog.text.count("names works again") == 1
        # Alice holds her name again (renewed, or made again once it expired).
        await asyncio.sleep(TTL)
        assert (await b.where("Alice"))["node"] == "a" and kicked == []
        with pytest.raises(RoomError, match="here already"):
            await b.sign_in(Presence("Alice", "key-mallory"))


async def test_an_admin_on_one_node_ends_a_session_on_another(server):
    async with two_nodes(server) as (a, b):
        bob, bob_kicked = person("Bob", "key-bob")
        await b.sign_in(bob)
        admin, _ = person("Ada", "key-ada", admin=True)
        await a.sign_in(admin)
        with pytest.raises(RoomError, match="only an admin"):
            await a.remove("Bob", Presence("Eve", "key-eve"))
        with pytest.raises(RoomError, match="not here"):
            await a.remove("Nobody", admin)
        with pytest.raises(RoomError, match="yourself"):
            await a.remove("ada", admin)
        await a.remove("bob", admin)
        assert bob_kicked == [REMOVED]
        await b.sign_out(bob)
        assert await a.where("Bob") is None

        # The same person signing in again through the other node takes the
        # name over: the first session is ended, as on one machine.
        carol, carol_kicked = person("Carol", "key-carol")
        await b.sign_in(carol)
        await a.sign_in(Presence("Carol", "key-carol"))
        assert carol_kicked == [AGAIN]
        assert (await b.where("Carol"))["node"] == "a" and not b.here
        await b.sign_out(carol)  # the ended session's going frees nothing of the new one's
        assert (await b.where("Carol"))["node"] == "a"
