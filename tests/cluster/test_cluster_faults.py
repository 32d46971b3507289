"""Faults a real cluster meets, against real nats-server processes
(tests/nats_support.py): idle nodes that must not fill the registry's
stream with consumers, a NATS server paused and resumed under a node, a
node's spare table outliving the node, a table opened and never started,
exported, an append whose earlier send a slow stream leader is storing
still (a stub stream: the answer is the server's), and a node closed
while its server is paused."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import signal
import time
from pathlib import Path

import pytest
from nats_support import nats_server, needs_nats, until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

import nats.errors
import nats.js.errors

from crib3.cluster import ClusterStore
from crib3.cluster.liveness import round_trip
from crib3.cluster.node import Node
from crib3.cluster.registry import REGISTRY
from crib3.cluster.store import STREAM, subject_of

pytestmark = needs_nats

LEASE = 2.0  # seconds: a node that stops renewing loses its tables this soon


async def consumers(store: ClusterStore, bucket: str) -> int:
    """The consumers the server keeps on a bucket's stream now."""
    info = await store.js.stream_info(f"KV_{bucket}")
    return int(info.state.consumer_count)


# --- idle nodes and the registry's consumers ------------------------------------------------


async def test_idle_nodes_scanning_fast_keep_the_registrys_consumers_bounded(tmp_path):
    """Two idle nodes scanning twenty times a second (a second of it is forty
    scans, as twenty seconds are at the default pace): the registry's stream
    keeps the same few consumers (one watch a node), not one more a scan."""
    with nats_server(tmp_path / "nats") as server:
        nodes = [await Node.start(server.url, name, tmp_path / name, lease_seconds=LEASE,
                                  think=0.0, scan_every=0.05) for name in ("a", "b")]
        admin = await ClusterStore.connect(server.url, "admin")
        try:
            await asyncio.sleep(0.5)
            before = await consumers(admin, REGISTRY)
            await asyncio.sleep(3.0)  # (about 120 scans)
            after = await consumers(admin, REGISTRY)
            assert after <= before <= 2 * len(nodes), (before, after)
        finally:
            await admin.close()
            for node in nodes:
                await node.close()


async def test_reads_of_tables_logs_leave_no_consumers_behind(tmp_path):
    """A node that starts reads a log for every result it folds and every
    finished game it copies, hundreds in a row: each read's consumer is
    gone from the server within a second or so of the read, not left for
    the server's default 5 s (a burst of them reached the server's limit
    of consumers a stream, past which no table could be read)."""
    with nats_server(tmp_path / "nats") as server:
        store = await ClusterStore.connect(server.url, "reader")
        try:
            lease = await store.acquire("t1")
            await store.open_log(lease, {"version": 3})  # (its header and owner: a log)
            info = await store.js.stream_info(STREAM)
            before = int(info.state.consumer_count)
            for _ in range(40):
                await store.read("t1")
            read = time.monotonic()

            async def left() -> int:
                return int((await store.js.stream_info(STREAM)).state.consumer_count)

            while await left() > before:
                assert time.monotonic() - read < 3.0, \
                    f"{await left()} of the reads' consumers still there 3 s after them"
                await asyncio.sleep(0.1)
        finally:
            await store.close()


# --- a NATS server paused and resumed --------------------------------------------------------


async def opened(room, person, seconds: float = 20.0):
    """A table `person` opens in `room`, pressing o again while the room
    says a table is still being got ready."""
    from crib3.cluster.room import NOT_READY
    from crib3.engine import Rules
    from crib3.room import RoomError

    give_up = time.monotonic() + seconds
    while True:
        try:
            return room.open_table(person, Rules(), ("easy", "easy"))
        except RoomError as exc:
            assert str(exc) == NOT_READY and time.monotonic() < give_up, str(exc)
        await asyncio.sleep(0.1)


async def stopped(server) -> None:
    """SIGSTOP to the server's process, once it is stopped (the signal is
    taken a moment after it is sent)."""
    server.process.send_signal(signal.SIGSTOP)
    stat = Path(f"/proc/{server.process.pid}/stat")
    await until(lambda: not stat.exists() or stat.read_text().rsplit(")", 1)[1].split()[0] == "T",
                what="the server stopped")


async def test_a_nats_server_paused_and_resumed_leaves_its_node_working(tmp_path, caplog):
    """A visit's link closes while the node's NATS server is paused
    (SIGSTOP), and its last words' wait for the server times out; once the
    server resumes, the node signs a person in, and opens and starts a
    table, its connection never lost. (nats-py's flush(timeout) left a
    cancelled future there, and the PONG that came later ended its read
    loop: the client said it was connected and every request timed out,
    for minutes.) Then the same flaw met otherwise (nats-py's own flush
    with a timeout, as its reconnect does): the node's check finds the
    connection dead, says so once and connects anew, and signs the next
    person in."""
    from crib3.cluster.room import ClusterRoom
    from crib3.cluster.visits import Visits

    caplog.set_level(logging.INFO, logger="crib3.cluster")
    dead = "its NATS connection answers nothing"
    with nats_server(tmp_path / "nats") as server:
        a = await ClusterRoom.start([server.url], "a", tmp_path / "a", lease_seconds=LEASE,
                                    think=0.0, alive_every=0.5)
        host = await ClusterStore.connect(server.url, "b")
        b = Visits(host.client, "b")

        async def admit(visit, link) -> None:
            pass
        b.admit = admit
        await b.start()
        await round_trip(host.client, 5)  # (b listens before a asks)
        try:
            assert a.visits is not None
            link = await a.visits.go("b", name="ann", key=None, admin=False, address=None,
                                     ascii=False, think=0.0, term="xterm", env={},
                                     size=(80, 24), table=1, watch=False)
            await stopped(server)
            try:
                link.close()  # the visit ends: its last words sent, their arrival awaited
                await asyncio.wait_for(link.drained(), 10)  # (the wait timed out)
            finally:
                server.process.send_signal(signal.SIGCONT)
            ann = await asyncio.wait_for(a.enter("ann", "key-ann", lambda reason: None), 20)
            # (The spare made before the pause may have lost its lease in it:
            # the room then says to press o again, as a person would.)
            table = await opened(a, ann)
            table.start("ann")
            await until(lambda: table.state is not None, what="the game's first events stored")
            assert dead not in caplog.text  # (never lost)

            client = a.node.store.client
            await stopped(server)
            try:
                with contextlib.suppress(nats.errors.TimeoutError):
                    await client.flush(timeout=0.5)
            finally:
                server.process.send_signal(signal.SIGCONT)
            await until(lambda: dead in caplog.text, what="the dead connection found")
            await asyncio.wait_for(a.enter("bob", "key-bob", lambda reason: None), 20)
            assert caplog.text.count(dead) == 1, caplog.text
        finally:
            await b.stop()
            await host.close()
            a.close()
            await a.stop()


# --- a dead node's spare table ----------------------------------------------------------------


async def in_registry(registry, key: str) -> bool:
    try:
        await registry.get(key)
    except nats.js.errors.KeyNotFoundError:
        return False
    return True


async def gone(registry, reader: ClusterStore, key: str) -> None:
    """Until table `key` is neither in the registry nor on the stream (its
    entry goes first, then its messages)."""
    give_up = time.monotonic() + 6 * LEASE
    while await in_registry(registry, key):
        assert time.monotonic() < give_up, f"table {key} still in the registry"
        await asyncio.sleep(0.05)
    while (await reader.js.stream_info(STREAM, subjects_filter=subject_of(key))).state.subjects:
        assert time.monotonic() < give_up, f"table {key} still on the stream"
        await asyncio.sleep(0.05)
    assert (await reader.read(key)).header is None


async def test_a_visit_nobody_hears_for_a_moment_is_asked_again(tmp_path):
    """NATS says nobody listens to a node for a moment after it subscribed
    (seen on a busy machine, a node's first visitor refused at once): the
    door asks again a moment later, and the visit is taken. Here the host
    listens only 0.3 s after the door first asks."""
    from crib3.cluster.room import ClusterRoom
    from crib3.cluster.visits import Visits

    with nats_server(tmp_path / "nats") as server:
        a = await ClusterRoom.start([server.url], "a", tmp_path / "a", lease_seconds=LEASE,
                                    think=0.0)
        host = await ClusterStore.connect(server.url, "b")
        b = Visits(host.client, "b")
        admitted = []

        async def admit(visit, link) -> None:
            admitted.append(visit.name)
        b.admit = admit

        async def listen_late() -> None:
            await asyncio.sleep(0.3)
            await b.start()
        try:
            assert a.visits is not None
            late = asyncio.create_task(listen_late())
            link = await a.visits.go("b", name="ann", key=None, admin=False, address=None,
                                     ascii=False, think=0.0, term="xterm", env={},
                                     size=(80, 24), table=1, watch=False)
            await late
            assert admitted == ["ann"] and link.confirmed
            link.close()
        finally:
            await b.stop()
            await host.close()
            a.close()
            await a.stop()


async def test_a_spare_whose_lease_ran_out_is_not_given_to_a_new_table(tmp_path, caplog):
    """A node paused past its lease term (its renewals stopped, as by
    SIGSTOP) holds a spare table whose lease ran out before its keeper
    said so: o is told to press again, not given a table let go at its
    first event ("an append was refused"), and the next spare opens a
    table whose game is stored."""
    from crib3.cluster.room import NOT_READY, ClusterRoom
    from crib3.engine import Rules
    from crib3.room import RoomError

    caplog.set_level(logging.INFO, logger="crib3.cluster")
    with nats_server(tmp_path / "nats") as server:
        a = await ClusterRoom.start([server.url], "a", tmp_path / "a", lease_seconds=LEASE,
                                    think=0.0)
        try:
            ann = await asyncio.wait_for(a.enter("ann", "key-ann", lambda reason: None), 20)
            await until(lambda: a._spare is not None, what="a spare table ready")
            stale = a._spare
            a.node.keeper.paused = True
            await asyncio.sleep(LEASE + 0.3)  # its lease runs out, unrenewed
            assert a._spare is stale  # (the keeper has not said so)
            with pytest.raises(RoomError) as refused:
                a.open_table(ann, Rules(), ("easy", "easy"))
            assert str(refused.value) == NOT_READY
            a.node.keeper.paused = False
            table = await opened(a, ann)
            assert table.number != stale[0]
            table.start("ann")
            await until(lambda: table.state is not None, what="the game's first events stored")
            assert "an append was refused" not in caplog.text
        finally:
            a.close()
            await a.stop()


async def test_a_dead_nodes_spare_table_leaves_the_registry_with_its_lease(tmp_path):
    """Each node keeps a spare table ready (its number claimed in the
    registry). Node a stops renewing its leases, as a node killed or
    paused: once its lease has run out, b's scan takes its spare out of
    the registry, and out of the tables' stream (no export finds it); b's
    own spare stays."""
    from crib3.cluster.registry import open_registry
    from crib3.cluster.room import ClusterRoom

    with nats_server(tmp_path / "nats") as server:
        a = await ClusterRoom.start([server.url], "a", tmp_path / "a", lease_seconds=LEASE,
                                    think=0.0)
        b = await ClusterRoom.start([server.url], "b", tmp_path / "b", lease_seconds=LEASE,
                                    think=0.0)
        reader = await ClusterStore.connect(server.url, "reader")
        registry = await open_registry(reader)
        try:
            assert a._spare is not None and b._spare is not None
            theirs, ours = str(a._spare[0]), str(b._spare[0])
            assert await in_registry(registry, theirs) and await in_registry(registry, ours)
            assert (await reader.read(theirs)).header is not None
            a.node.pause()  # (no renewal, no scan: a is dead to the cluster)
            await gone(registry, reader, theirs)
            assert await in_registry(registry, ours)
            assert not await in_registry(registry, str(int(max(theirs, ours, key=int)) + 1))
        finally:
            await reader.close()
            for room in (a, b):
                room.close()
                await room.stop()


async def test_a_spare_forgotten_by_two_nodes_is_gone_once_and_warns_of_nothing(tmp_path, caplog):
    """The scans of two nodes both find a dead node's spare table (one of
    them heard of it late: after a restart, say). The first takes it out
    of the registry; the second's delete, at the revision it heard, is
    refused (the key was written since: by that delete), which is what it
    is for: the entry stays gone, the lease is given back, and no warning
    says the entry was "not taken out of the registry" (nats-py says
    "wrong last sequence" for a delete as a plain BadRequestError). A
    spare whose node came back and made it a table meanwhile is left as
    it is, the same way."""
    from crib3.cluster.registry import open_registry

    caplog.set_level(logging.INFO, logger="crib3.cluster")
    with nats_server(tmp_path / "nats") as server:
        a = await Node.start(server.url, "a", tmp_path / "a", lease_seconds=LEASE, think=0.0,
                             adopt=False)
        reader = await ClusterStore.connect(server.url, "reader")
        registry = await open_registry(reader)
        try:
            heard = await registry.create("9", b'{"number": 9, "status": "spare"}')
            await registry.delete("9", last=heard)  # (the first node's forget)
            lease = await a.store.acquire("9")
            await a.forget(lease, heard)
            assert not await in_registry(registry, "9")
            await reader.release(await reader.acquire("9"))  # (its lease given back: free)

            heard = await registry.put("9", b'{"number": 9, "status": "spare"}')
            table = await registry.put("9", b'{"number": 9, "status": "open"}')
            lease = await a.store.acquire("9")
            await a.forget(lease, heard)
            assert (await registry.get("9")).revision == table  # (a table now: left)
            assert "not taken out of the registry" not in caplog.text, caplog.text
        finally:
            await reader.close()
            await a.close()


# --- a table opened and never started ----------------------------------------------------------


async def test_a_table_never_started_is_not_exported_and_leaves_no_entry_behind(tmp_path):
    """A table opened and not started: `crib3 tables export` says so in one
    line and writes nothing (its log would be a header with no event,
    which `crib3 verify` refuses). Its person leaves: the table leaves the
    registry and the stream, not only the lobby. A table whose node dies
    before it started is forgotten the same way by the node that finds it."""
    from commands import assert_clean_failure, crib3

    from crib3.cluster.registry import open_registry
    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules

    with nats_server(tmp_path / "nats") as server:
        a = await ClusterRoom.start([server.url], "a", tmp_path / "a", lease_seconds=LEASE,
                                    think=0.0)
        b = await ClusterRoom.start([server.url], "b", tmp_path / "b", lease_seconds=LEASE,
                                    think=0.0)
        reader = await ClusterStore.connect(server.url, "reader")
        registry = await open_registry(reader)
        try:
            ann = await a.enter("ann", "key-ann", lambda reason: None)
            table = a.open_table(ann, Rules(), ("easy", "easy"))
            number = str(table.number)
            await until(lambda: table.number in [t.number for t in b.elsewhere()],
                        what="the table in b's lobby")
            out = tmp_path / "t.jsonl"
            exported = await asyncio.to_thread(
                crib3, "tables", "export", number, "--cluster", server.url, "-o", str(out),
                home=tmp_path / "exporter")
            assert_clean_failure(exported, 1)
            assert f"table {number} was opened and never started: nothing to export" \
                in exported.stderr
            assert not out.exists()

            a.depart(ann)  # her session ends before the start: her table closes
            await gone(registry, reader, number)
            assert table.number not in [t.number for t in b.elsewhere()]

            bob = await a.enter("bob", "key-bob", lambda reason: None)
            await until(lambda: a._spare is not None, what="a's next spare")
            second = a.open_table(bob, Rules(), ("easy", "easy"))
            await until(lambda: second.number in [t.number for t in b.elsewhere()],
                        what="the second table in b's lobby")
            a.node.pause()  # a dies to the cluster before bob's table starts
            await gone(registry, reader, str(second.number))
            assert second.number not in b.tables  # (forgotten, not adopted)
        finally:
            await reader.close()
            for room in (a, b):
                room.close()
                await room.stop()


# --- a watch that meets an error, or a server restarted ------------------------------------------


async def test_a_lobbys_watch_outlives_a_failing_listener_and_a_server_restart(tmp_path, caplog):
    """A lobby hears of every node's tables through its watch on the
    registry. A listener of it that raises is logged and the watch goes
    on (it ended silently, and the lobby never changed again). The NATS
    server stopped and started again under it: the watch is made again,
    said once, and hears of the next table; the registry's stream keeps a
    consumer a watch."""
    from crib3.cluster.lobby import ClusterLobby
    from crib3.engine import Rules
    from crib3.room.seats import Presence

    caplog.set_level(logging.INFO, logger="crib3.cluster")
    alice = Presence("Alice", "key-alice")
    with nats_server(tmp_path / "nats") as server:
        a = await Node.start(server.url, "a", tmp_path / "a", lease_seconds=LEASE, think=0.0,
                             adopt=False)
        store = await ClusterStore.connect(server.url, "b")
        lobby = await ClusterLobby.start(store)
        try:
            def broken() -> None:
                raise RuntimeError("a listener's bug")
            lobby.listeners.append(broken)
            first = await a.open_table(alice, Rules(), ("easy", "easy"))
            await until(lambda: [t.number for t in lobby.tables()] == [first.number],
                        what="the first table in the lobby")
            second = await a.open_table(alice, Rules(), ("easy", "easy"))
            await until(lambda: second.number in [t.number for t in lobby.tables()],
                        what="the second table in the lobby, after a listener failed")
            assert "a listener's bug" in caplog.text or "unexpected error" in caplog.text

            server.stop()
            server.start()
            server.wait_ready()
            await until(lambda: lobby.known.made > 1 and a.known.made > 1,
                        what="the watches made again")
            give_up = time.monotonic() + 20
            while True:  # (the node's first requests may come before its server is back)
                try:
                    third = await a.open_table(alice, Rules(), ("easy", "easy"))
                    break
                except nats.errors.Error:
                    assert time.monotonic() < give_up, "no table opened after the restart"
                    await asyncio.sleep(0.2)
            await until(lambda: third.number in [t.number for t in lobby.tables()],
                        what="the third table in the lobby, after the restart")
            assert caplog.text.count("registry's watch failed") <= 2, caplog.text  # (a, b: once)
            await until(lambda: lobby.known.live and a.known.live, what="both watches live")
            assert await consumers(store, REGISTRY) <= 2
        finally:
            await lobby.stop()
            await store.close()
            await a.close()


# --- a table whose host died between two automatic events ---------------------------------------


async def test_a_table_whose_host_stopped_amid_automatic_events_goes_on_when_adopted(tmp_path):
    """A table's stream ends where its host stopped between two events that
    follow with no choice (here just after the game's start, before the
    cut for the deal: its append timed out, or its node died): the node
    that adopts it draws what follows and the game goes on to the
    discard. (It was adopted with no seat to act, and stood still for
    good: the soak found one.)"""
    import json
    from dataclasses import asdict

    from crib3.cluster.registry import open_registry
    from crib3.engine import PlayerInfo, Rules
    from crib3.engine.log import make_header
    from crib3.engine.rules import begin
    from crib3.room.seats import Seat

    with nats_server(tmp_path / "nats") as server:
        gone = await ClusterStore.connect(server.url, "gone", lease_seconds=LEASE)
        b = await Node.start(server.url, "b", tmp_path / "b", lease_seconds=LEASE, think=0.0,
                             scan_every=0.2)
        try:
            lease = await gone.acquire("7")
            log = await gone.open_log(lease, make_header(source="crib3 serve", table=7))
            players = (PlayerInfo("Alice", "human"), PlayerInfo("Bea", "easy"),
                       PlayerInfo("Cid", "easy"))
            await log.append(begin(players, Rules(), 7))
            seats = [Seat("Alice", "key-alice"), Seat(level="easy"), Seat(level="easy")]
            await (await open_registry(gone)).create("7", json.dumps(
                {"number": 7, "owner": "Alice", "rules": asdict(Rules()),
                 "seats": [asdict(seat) for seat in seats], "status": "open",
                 "started_by": "Alice", "node": "gone"}).encode())
            await gone.close()  # (its lease runs out: b adopts the table)
            await until(lambda: 7 in b.room.tables, seconds=6 * LEASE, what="b adopting it")
            game = b.room.tables[7].game
            await until(lambda: 0 in game.to_act(), what="the game going on to the discard")
        finally:
            await b.close()


# --- an append whose earlier send is being stored still ------------------------------------


async def test_an_append_answered_in_process_is_sent_again_and_the_table_kept() -> None:
    """A stream leader slow after its server was paused answers a send of a
    message whose earlier send it is storing still with "duplicate message
    id is in process" (10158): the append is sent again, with the same id,
    and answered; the node keeps its table (it used to let it go)."""
    from types import SimpleNamespace

    from games import random_game

    from crib3.cluster.store import Lease, TableLog, TableRecord

    sent: list[str] = []

    class Leader:
        async def publish(self, subject, payload, stream, headers, timeout):
            sent.append(headers["Nats-Msg-Id"])
            if len(sent) == 1:
                raise nats.js.errors.APIError(
                    code=409, err_code=10158, description="duplicate message id is in process")
            return SimpleNamespace(seq=8)

    lease = Lease("5", "a", 3, time.monotonic() + 60)
    table_log = TableLog(SimpleNamespace(js=Leader()), lease, TableRecord(header={}, last=7))
    assert await table_log.append(random_game(1).events[0]) == 8
    assert sent == ["5:a:3:7", "5:a:3:7"]  # (the same message: never stored twice)
    assert lease.held() and table_log.record.last == 8


# --- a connection closed while its server does not read -------------------------------------


async def test_a_node_closes_in_seconds_while_its_nats_server_is_paused(tmp_path, monkeypatch):
    """A node whose NATS server is paused (SIGSTOP) with more sent to it
    than the sockets hold closes all the same, in its bound: nats-py's
    close waits for every byte to be sent, which never happens (a test's
    teardown, or a node's stop, used to hang there for good)."""
    from crib3.cluster import store as stores

    monkeypatch.setattr(stores, "CLOSE_SECONDS", 1.0, raising=False)
    with nats_server(tmp_path) as server:
        store = await ClusterStore.connect(server.url, "a")
        loop = asyncio.get_running_loop()
        sending = []
        await stopped(server)
        try:
            sending = [loop.create_task(store.client.publish("crib3.filler", b"z" * 500_000))
                       for _ in range(40)]  # (about 20 MB: more than loopback's buffers)
            await asyncio.sleep(0.5)
            closing = loop.create_task(store.close())
            done, _ = await asyncio.wait([closing], timeout=10)
            assert done, "the node's close waits for a paused server"
            closing.result()
        finally:
            server.process.send_signal(signal.SIGCONT)
            for task in sending:
                task.cancel()
            await asyncio.gather(*sending, return_exceptions=True)


# --- a registry write whose answer was lost ------------------------------------------------------


class AnswerLost:
    """A registry whose next update lands but is answered by a timeout (a
    cluster slow to answer after an outage): `patiently` sends it again."""

    def __init__(self, registry: object) -> None:
        self.registry = registry
        self.lose = 1

    async def update(self, key: str, value: bytes, last: int) -> int:
        revision = await self.registry.update(key, value, last=last)  # type: ignore[attr-defined]
        if self.lose:
            self.lose -= 1
            raise nats.errors.TimeoutError
        return revision

    def __getattr__(self, name: str) -> object:
        return getattr(self.registry, name)


async def test_a_registry_write_sent_again_after_its_answer_was_lost_keeps_the_table(tmp_path):
    """A node's registry write whose first send landed, its answer lost, is
    refused when sent again ("written since": by itself). It is its own
    entry: the node keeps hosting the table. (It let the table go as if
    another node had taken it, which nobody had: after an outage the
    tables bounced from node to node, and one was hosted by none for 25 s.)"""
    from crib3.cluster.registry import open_registry
    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules

    with nats_server(tmp_path / "nats") as server:
        a = await ClusterRoom.start([server.url], "a", tmp_path / "a", lease_seconds=LEASE,
                                    think=0.0)
        reader = await ClusterStore.connect(server.url, "reader")
        registry = await open_registry(reader)
        try:
            ann = await a.enter("ann", "key-ann", lambda reason: None)
            table = a.open_table(ann, Rules(), ("easy", "easy"))
            key = str(table.number)
            await a.node.flushed()
            lossy = a.node.registry = AnswerLost(a.node.registry)
            table.save()
            await a.node.flushed()
            assert lossy.lose == 0 and not table.moved
            assert a.tables.get(table.number) is table
            assert a.node.revisions[key] == (await registry.get(key)).revision
            table.save()  # (and its next write is at the right revision)
            await a.node.flushed()
            assert not table.moved
            assert a.node.revisions[key] == (await registry.get(key)).revision
        finally:
            await reader.close()
            await a.stop()


class CreateUnanswered:
    """A registry whose next creates meet a stream electing its leader:
    the first is answered by nobody (NoStreamResponseError, nothing
    written), the second lands but its answer is lost."""

    def __init__(self, registry: object) -> None:
        self.registry = registry
        self.tries = 0

    async def create(self, key: str, value: bytes) -> int:
        self.tries += 1
        if self.tries == 1:
            raise nats.js.errors.NoStreamResponseError
        revision = await self.registry.create(key, value)  # type: ignore[attr-defined]
        if self.tries == 2:
            raise nats.errors.TimeoutError
        return revision

    def __getattr__(self, name: str) -> object:
        return getattr(self.registry, name)


async def test_a_table_made_while_the_registry_elects_its_leader_is_made_once(tmp_path):
    """A table's registry entry made while the registry's stream has no
    leader (a cluster just started: a node starting then did not start,
    its spare's entry unanswered) is asked again; sent again after its
    answer was lost, the refusal is its own entry, and the table keeps its
    number rather than leave that entry behind and take the next."""
    from crib3.cluster.registry import SPARE, open_registry

    with nats_server(tmp_path / "nats") as server:
        a = await Node.start(server.url, "a", tmp_path / "a", lease_seconds=LEASE, think=0.0)
        reader = await ClusterStore.connect(server.url, "reader")
        registry = await open_registry(reader)
        try:
            electing = a.registry = CreateUnanswered(a.registry)
            number, lease, table_log = await a.prepare_table(
                {"number": 0, "owner": "a", "rules": {}, "seats": [], "status": SPARE,
                 "started_by": None, "node": "a"})
            assert electing.tries == 3  # (unanswered, then landed unanswered, then refused)
            entry = await registry.get(str(number))
            assert json.loads(entry.value)["number"] == number
            assert a.revisions[str(number)] == entry.revision
            assert lease.table == str(number) and lease.held()
            with pytest.raises(nats.js.errors.KeyNotFoundError):
                await registry.get(str(number + 1))  # (no second entry for the same table)
        finally:
            await reader.close()
            await a.close()


# --- a slow adoption does not hold the scans up ------------------------------------------------


async def test_a_table_freed_while_another_adoption_is_slow_is_adopted_meanwhile(tmp_path):
    """After an outage a node's adoptions can take seconds each (every
    request retried while a stream has no leader). A scan waited for all
    it began before the next, so a table freed meanwhile waited for the
    slowest (one had no host for 25 s in a soak). The next scans take it
    while the slow one goes on, and the slow one is not begun twice."""
    from crib3.cluster.registry import open_registry

    with nats_server(tmp_path / "nats") as server:
        a = await Node.start(server.url, "a", tmp_path / "a", lease_seconds=LEASE, think=0.0,
                             scan_every=0.2)
        reader = await ClusterStore.connect(server.url, "reader")
        registry = await open_registry(reader)
        begun: list[str] = []
        slow = asyncio.Event()

        async def adopt(table_id: str, statuses: tuple[str, ...] = ("open",)) -> None:
            begun.append(table_id)
            if table_id == "7":
                await slow.wait()  # (a cluster that does not answer this one yet)
        a.adopt = adopt  # type: ignore[method-assign]  # (the scans' work, watched)
        try:
            await registry.create("7", b'{"number": 7, "status": "open"}')
            await until(lambda: "7" in begun, what="the slow adoption begun")
            await registry.create("8", b'{"number": 8, "status": "open"}')
            await until(lambda: "8" in begun, seconds=5.0,
                        what="the table freed meanwhile tried while the slow one goes on")
            assert begun.count("7") == 1  # (under way: not begun again)
            slow.set()
        finally:
            await reader.close()
            await a.close()
