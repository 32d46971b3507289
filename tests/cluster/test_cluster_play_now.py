"""Play now on a cluster (`crib3.cluster.matcher`), against a real
nats-server: one queue for every node, one matcher at a time; people of
two nodes seated together once; a place of someone who left dropped; the
matcher handed on when its node stops."""

from __future__ import annotations

import contextlib
import json

import pytest
from nats_support import nats_server, needs_nats, until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster.matcher import MATCHER, entry_key  # noqa: E402
from crib3.cluster.room import ClusterRoom  # noqa: E402
from crib3.room.basics import RoomError  # noqa: E402
from crib3.room.playnow import queue_identity  # noqa: E402

pytestmark = needs_nats


@contextlib.asynccontextmanager
async def two_nodes(tmp_path, lease: float = 2.0):
    with nats_server(tmp_path) as nats:
        rooms = [await ClusterRoom.start([nats.url], name, tmp_path / name, lease_seconds=lease)
                 for name in ("a", "b")]
        try:
            yield rooms
        finally:
            for room in rooms:
                room.close()
                with contextlib.suppress(Exception):
                    await room.stop()


def all_tables(room: ClusterRoom) -> list:
    return [*room.tables.values(), *room.elsewhere()]


async def test_people_of_two_nodes_are_seated_together_once(tmp_path):
    async with two_nodes(tmp_path) as (a, b):
        ann = await a.enter("ann", "key-ann", lambda reason: None, None)
        bob = await a.enter("bob", "key-bob", lambda reason: None, None)
        cat = await b.enter("cat", "key-cat", lambda reason: None, None)
        await until(lambda: "cat" in a.names_here() and "ann" in b.names_here(), 15,
                    what="everyone seen on both nodes")
        for room, person in ((a, ann), (b, cat)):
            assert room.play_now is not None and room.play_now.join(person) == 1500
        assert a.play_now is not None and b.play_now is not None
        await until(lambda: len(a.play_now.watched.entries) == 2, 15, what="two places")
        assert all_tables(a) == []  # two are no table
        a.play_now.join(bob)
        await until(lambda: len(all_tables(a)) == 1 and len(all_tables(b)) == 1, 20,
                    what="one table, seen by both nodes")
        [table] = all_tables(b)
        assert sorted(s.name for s in table.seats) == ["ann", "bob", "cat"]
        assert b.seat_elsewhere(cat) == table.number or b.place_of(cat) is not None
        await until(lambda: a.play_now.seated + b.play_now.seated == 3, 10,
                    what="the three places said seated")  # (just after the table is made)
        await until(lambda: [json.loads(e.value)["state"] for e in
                             b.play_now.watched.entries.values()] == ["seated"] * 3, 10,
                    what="b hears the places seated")
        with pytest.raises(RoomError, match="sit at a table already"):
            b.play_now.join(cat)


async def test_one_place_an_identity_across_nodes_and_a_leavers_place_goes(tmp_path):
    async with two_nodes(tmp_path) as (a, b):
        ann = await a.enter("ann", "key-ann", lambda reason: None, None)
        ann2 = await b.enter("ann2", "key-ann", lambda reason: None, None)  # one key, two names
        assert a.play_now is not None and b.play_now is not None
        a.play_now.join(ann)
        await until(lambda: entry_key(queue_identity(ann)) in b.play_now.watched.entries, 15,
                    what="ann's place, as b hears it")
        with pytest.raises(RoomError, match="in the queue already"):
            b.play_now.join(ann2)
        a.depart(ann)  # leaving the room leaves the queue
        await until(lambda: not b.play_now.watched.entries, 15, what="ann's place gone")


async def test_the_matcher_is_handed_on_when_its_node_stops(tmp_path):
    async with two_nodes(tmp_path) as (a, b):
        await until(lambda: a.play_now.lease is not None or b.play_now.lease is not None, 15,
                    what="a matcher")
        first, second = (a, b) if a.play_now.lease is not None else (b, a)
        assert second.play_now.lease is None  # one at a time
        # Its node dies, as far as the queue can tell: no more rounds, no
        # more renewals; the lease is not given back, it runs out.
        first.play_now.close()
        first.node.keeper.paused = True
        await until(lambda: second.play_now.lease is not None, 15, what="the other matches")
        people = [await second.enter(n, f"key-{n}", lambda reason: None, None)
                  for n in ("dan", "eve", "gil")]
        for person in people:
            second.play_now.join(person)
        await until(lambda: len(second.tables) == 1, 20, what="their table, by the new matcher")
        assert second.node.keeper.leases[MATCHER][0] is second.play_now.lease


async def test_over_ssh_people_of_two_nodes_press_p_and_sit_at_one_table(tmp_path):
    """Real SSH doors on two nodes (keyless, under --open: three reconnect
    codes, three identities): ann and bob on a, cat on b press p, and all
    three are at the one table, whichever node hosts it (a visit for those
    on the other)."""
    from ssh_support import Client
    from test_cluster_visits import nodes

    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, None, names=("a", "b"), open_door=True) as (a, b):
            clients = [await Client.connect(a.port, "ann"), await Client.connect(a.port, "bob"),
                       await Client.connect(b.port, "cat")]
            for client in clients:
                await client.shows("Play now")
                client.press("p")
                await client.shows("Looking for two players")

            def the_table():
                found = [t for room in (a.room, b.room) for t in room.tables.values()]
                return found[0] if len(found) == 1 else None

            await until(lambda: the_table() is not None, 20, what="one table")
            table = the_table()
            assert sorted(s.name for s in table.seats) == ["ann", "bob", "cat"]
            await until(lambda: table.online == {0, 1, 2}, 20, what="all three at it")
            for client in clients:
                client.close()


async def test_a_matcher_paused_past_its_lease_cannot_seat_anyone_again(tmp_path):
    """Two matchers at once (the old one paused past its lease, its view of
    the queue stale): the new one seats three people; the old one's claims,
    each at the revision it read, are all refused, and no second table is
    made."""
    import time

    from crib3.cluster.store import Lease
    from crib3.room.matcher import Matcher

    async with two_nodes(tmp_path) as (a, b):
        await until(lambda: a.play_now.lease is not None or b.play_now.lease is not None, 15,
                    what="a matcher")
        new, old = (a, b) if a.play_now.lease is not None else (b, a)
        for room in (a, b):
            room.play_now.close()  # no rounds by themselves: this test turns them
        people = [await new.enter(n, f"key-{n}", lambda reason: None, None)
                  for n in ("dan", "eve", "gil")]
        for person in people:
            new.play_now.join(person)
        await until(lambda: len(old.play_now.watched.entries) == 3, 15, what="three places")
        stale = {key: (json.loads(entry.value), int(entry.revision))
                 for key, entry in old.play_now.watched.entries.items()}
        await new.play_now._match(new.play_now.lease)
        assert len(new.tables) == 1
        matcher = Matcher(time.time)  # the old matcher's round, on what it read before
        for key, (data, _) in stale.items():
            matcher.join(key, data["name"], data["rating"], data["since"])
        [match] = matcher.pair()
        as_if_held = Lease(MATCHER, old.node.name, 1, time.monotonic() + 60)
        await old.play_now._claim_and_seat(match, stale, as_if_held)
        assert old.tables == {} and old.play_now.seated == 0
        await until(lambda: [json.loads(e.value)["state"] for e in
                             old.play_now.watched.entries.values()] == ["seated"] * 3, 10,
                    what="the places as the new matcher left them")
