"""A ban made on one node of a cluster's room holds on every node, those
that start later too, and a lift on any node lifts it everywhere
(`crib3.cluster.bans`); an admin bans someone whose session another node
runs as well."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from nats_support import nats_server, needs_nats

from crib3.room.basics import RoomError
from crib3.room.moderation import AUDIT

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")


async def until(check, seconds: float = 15.0, what: str = "it") -> None:
    give_up = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < give_up, f"{what} did not happen"
        await asyncio.sleep(0.05)


def audited(folder) -> list[str]:
    path = folder / AUDIT
    return [json.loads(line)["what"] for line in path.read_text().splitlines()] \
        if path.exists() else []


@needs_nats
async def test_a_ban_on_one_node_holds_on_every_node_and_is_lifted_on_any(tmp_path):
    from crib3.cluster.room import ClusterRoom
    from crib3.players import workers

    def nobody(reason: str) -> None:
        pass

    with nats_server(tmp_path) as server:
        rooms = []
        try:
            for name in ("a", "b"):
                rooms.append(await ClusterRoom.start([server.url], name, tmp_path / name,
                                                     lease_seconds=2))
            a, b = rooms
            eve = await a.enter("eve", "key-eve", nobody, None, admin=True)
            await a.enter("bob", "key-bob", nobody, None)
            a.ban("bob", eve, 3600)
            await until(lambda: b.moderation.banned("key key-bob") is not None,
                        what="the ban on node b")
            with pytest.raises(RoomError, match="banned you from this room until"):
                await b.enter("bob", "key-bob", nobody, None)
            rooms.append(await ClusterRoom.start([server.url], "c", tmp_path / "c",
                                                 lease_seconds=2))
            c = rooms[-1]  # a node started since holds it at once
            with pytest.raises(RoomError, match="banned you from this room until"):
                await c.enter("bob", "key-bob", nobody, None)
            # Someone whose session another node runs: banned from here too.
            kicked: list[str] = []
            await b.enter("cat", "key-cat", kicked.append, None)
            await until(lambda: "cat" in a.names_here(), what="cat in a's lobby")
            assert a.ban("cat", eve, None) == "for good"
            await until(lambda: kicked, what="cat's session ended")
            assert kicked == ["an admin has banned you from this room for good"]
            for room in (a, b):
                with pytest.raises(RoomError, match="banned you from this room for good"):
                    await room.enter("cat", "key-cat", nobody, None)
            # A kick of someone on another node is in the audit log too.
            kicked.clear()
            await b.enter("hal", "key-hal", kicked.append, None)
            await until(lambda: "hal" in a.names_here(), what="hal in a's lobby")
            a.remove("hal", eve)
            await until(lambda: kicked, what="hal's session ended")
            ida = await b.enter("ida", "key-ida", nobody, None, admin=True)
            b.lift("ban", "key key-bob", ida)
            await until(lambda: a.moderation.banned("key key-bob") is None and
                        c.moderation.banned("key key-bob") is None, what="the lift everywhere")
            await c.enter("bob", "key-bob", nobody, None)
            # Each action's audit line is the node's where it was done.
            assert [audited(tmp_path / n) for n in "abc"] == [["ban", "ban", "kick"], ["unban"], []]
        finally:
            for room in rooms:
                room.close()
                await room.stop()
            workers.shut_down()


@needs_nats
async def test_a_nodes_watch_on_the_bans_is_dropped_a_minute_after_it_is_left(tmp_path):
    """The bans' watch, as every watch of a node, is a consumer the server
    drops a minute after it was left (a node killed, its connection made
    again): nats-py's default of five minutes kept those of a busy
    cluster's lost connections piling up on the bans' stream (the soak saw
    it hold the most consumers of any)."""
    from crib3.cluster import ClusterStore
    from crib3.cluster.bans import BANS, ClusterBans
    from crib3.cluster.watched import INACTIVE_THRESHOLD
    from crib3.room.moderation import Moderation

    with nats_server(tmp_path) as server:
        store = await ClusterStore.connect(server.url, "a")
        try:
            bans = await ClusterBans.start(store, Moderation(tmp_path / "a"))
            try:
                [consumer] = await store.js.consumers_info(f"KV_{BANS}")
                assert consumer.config.inactive_threshold == INACTIVE_THRESHOLD
            finally:
                await bans.stop()
        finally:
            await store.close()


@needs_nats
async def test_a_ban_made_after_the_bans_watches_were_lost_still_reaches_every_node(tmp_path):
    """Every node's watch on the bans is lost (its consumer gone from the
    server, as when its server restarts): each is made again by itself,
    and a ban made afterwards still holds on every node (it was heard by
    none, for good)."""
    from crib3.cluster.bans import BANS
    from crib3.cluster.room import ClusterRoom
    from crib3.players import workers

    def nobody(reason: str) -> None:
        pass

    with nats_server(tmp_path) as server:
        rooms = []
        try:
            for name in ("a", "b"):
                rooms.append(await ClusterRoom.start([server.url], name, tmp_path / name,
                                                     lease_seconds=2))
            a, b = rooms
            js = a.node.store.js
            consumers = await js.consumers_info(f"KV_{BANS}")
            assert len(consumers) == 2  # (a watch a node)
            for consumer in consumers:
                await js.delete_consumer(f"KV_{BANS}", consumer.name)
            eve = await a.enter("eve", "key-eve", nobody, None, admin=True)
            await a.enter("bob", "key-bob", nobody, None)
            a.ban("bob", eve, 3600)
            await until(lambda: b.moderation.banned("key key-bob") is not None,
                        what="the ban on node b")
            with pytest.raises(RoomError, match="banned you from this room until"):
                await b.enter("bob", "key-bob", nobody, None)
        finally:
            for room in rooms:
                room.close()
                await room.stop()
            workers.shut_down()
