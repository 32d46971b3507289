"""The cluster's soak: three NATS servers (JetStream, R3) and three nodes,
a person and two computer players at each of several tables, and the
faults a cluster meets injected in turn, again and again, for
`CRIB3_SOAK_MINUTES` (30); at the end every table's stream is exported
and verified.

Run on demand:
`python -m pytest tests/benchmarks/test_cluster_soak.py --benchmark-only -s`
(`-m short`: the short version, each fault once, about a minute and a half).

**The room.** The nodes are `crib3.cluster.node.Node`s in this process
(each its own NATS connection, its own leases, scan and watch: to the
cluster they are three machines); a node "killed" closes its connection
with nothing released and a new one of the same name starts after it. At
each table a scripted person (seat 0) plays her first legal move whenever
it is her turn alone (`PACE` apart), at whichever node hosts the table
now, as a person reconnected to it would; two easy computer players hold the other seats.
A table whose game ends is replaced by a new one, opened on the next node.

**The faults**, in turn (`FAULTS`): kill of a node, a node paused past its
lease (its renewals and scans stopped, as under SIGSTOP) and resumed, kill
-9 of a NATS server and its restart, SIGSTOP of a NATS server for 5 s,
everything stopped and started again, and (not in the short version) NATS
down for 30 s under running nodes. After each, the time until every
table not over is hosted by exactly one node again is measured (its
recovery: and its game moved on since, so that no table is stuck), then
play goes on for `CRIB3_SOAK_PLAY` (10) seconds.

**Checked**: every table's exported stream verifies (`load_log`: folded
by the engine); what each host showed of a table (the acknowledged events
its game held) is a prefix of the stream, so that no event shown was lost
or doubled; no table is hosted by two nodes for longer than a lease and a
scan; every fault heals within `HEAL` seconds; and the consumers on every
stream stay bounded (a node's watches, not a listing's leftovers). The
recoveries (fault, times, seconds) and the most consumers seen are in the
benchmark's extra info, printed at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import signal
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from nats_support import NatsServer, nats_cluster, needs_nats

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster.node import Node
from crib3.cluster.store import ClusterStore
from crib3.engine import Rules
from crib3.engine.log import load_log
from crib3.players import workers
from crib3.room.seats import Presence

pytestmark = needs_nats

MINUTES = float(os.environ.get("CRIB3_SOAK_MINUTES", "30"))
PLAY = float(os.environ.get("CRIB3_SOAK_PLAY", "10"))  # seconds of play after each fault
TABLES = int(os.environ.get("CRIB3_SOAK_TABLES", "6"))
LEASE = 2.0
HEAL = 60.0  # seconds a fault may take to heal (every table hosted again, and playing)
PACE = 0.3  # seconds between two of a person's moves
TWICE = LEASE + 2.0  # seconds two nodes may both hold a table (the old one not yet fenced)
MOST_CONSUMERS = 30  # on any stream: three nodes' watches, an adoption's reads


class Soak:
    """The cluster, its nodes, its tables and what was seen of them."""

    def __init__(self, folder: Path, servers: list[NatsServer]) -> None:
        self.folder = folder
        self.servers = servers
        self.urls = [server.url for server in servers]
        self.nodes: dict[str, Node | None] = {"a": None, "b": None, "c": None}
        self.lives = itertools.count(1)
        self.tables: list[int] = []  # every table opened, in order
        self.shown: dict[int, list[list[Any]]] = defaultdict(list)  # each host's events
        self.twice: dict[int, float] = {}  # table -> since when two nodes host it
        self.worst_twice = 0.0
        self.recoveries: list[tuple[str, float]] = []
        self.playing: list[int] = []  # tables playing after each fault healed
        self.most_consumers = 0
        self.openers = itertools.cycle("abc")
        self.people = itertools.count(1)
        self.person: dict[int, Presence] = {}  # table -> its person (seat 0)
        self.moved_at: dict[int, float] = defaultdict(float)  # table -> her last move

    # --- nodes ---------------------------------------------------------------------------

    async def start(self, name: str) -> None:
        life = next(self.lives)
        self.nodes[name] = await Node.start(
            self.urls, name, self.folder / f"{name}-{life}", replicas=3, lease_seconds=LEASE,
            think=0.0, scan_every=0.5)

    async def kill(self, name: str) -> None:
        node = self.nodes[name]
        self.nodes[name] = None
        if node is not None:
            self._remember(node)
            with contextlib.suppress(Exception):
                await node.close()

    def live(self) -> list[Node]:
        return [node for node in self.nodes.values() if node is not None]

    # --- tables and their person ------------------------------------------------------------

    async def open_one(self) -> None:
        for _ in range(3):
            node = self.nodes[next(self.openers)]
            if node is None:
                continue
            person = Presence(f"p{next(self.people)}", "key")
            table = await node.open_table(person, Rules(), ("easy", "easy"))
            table.start(person.name)
            self.tables.append(table.number)
            self.person[table.number] = person
            return

    def hosts(self, number: int) -> list[Any]:
        found = []
        for node in self.live():
            table = node.room.tables.get(number)
            if table is not None and not table.moved and not table.closed:
                found.append(table)
        return found

    def done(self, number: int) -> bool:
        """Its game is over (or it never started before its host died:
        forgotten), as its hosts or the registry say."""
        if any(table.over for table in self.hosts(number)):
            return True
        node = next(iter(self.live()), None)
        if node is None:
            return False
        if str(number) in node.known.deleted:
            return True
        entry = node.known.entries.get(str(number))
        return entry is not None and b'"status": "over"' in entry.value

    def _remember(self, node: Node) -> None:
        for table in node.room.tables.values():
            if table.game is not None:
                self.shown[table.number].append(list(table.game.events))

    async def play(self, seconds: float) -> None:
        """The people play for `seconds`, each table's at its host now."""
        give_up = time.monotonic() + seconds
        while time.monotonic() < give_up:
            self.step()
            await asyncio.sleep(0.05)

    def step(self) -> None:
        now = time.monotonic()
        for number in self.tables:
            hosts = self.hosts(number)
            if len(hosts) > 1:
                since = self.twice.setdefault(number, now)
                self.worst_twice = max(self.worst_twice, now - since)
            else:
                self.twice.pop(number, None)
            for table in hosts:
                game = table.game
                if game is None or table.over or getattr(game, "fenced", False):
                    continue
                if 0 not in table.online:  # (she reconnects to the node that hosts it now)
                    with contextlib.suppress(Exception):
                        table.sit(self.person[number])
                if game.to_act() == (0,) and not game._outbox \
                        and now - self.moved_at[number] >= PACE:
                    self.moved_at[number] = now
                    with contextlib.suppress(Exception):
                        table.feed(0).dispatch(game.legal_moves(0)[0])

    def why(self, numbers: list[int]) -> str:
        """What each of these tables is, as the live nodes see it."""
        said = []
        for number in numbers:
            hosts = self.hosts(number)
            node = next(iter(self.live()), None)
            entry = None if node is None else node.known.entries.get(str(number))
            said.append(f"table {number}: hosts {[t.node.name for t in hosts]}, stored "
                        f"{[len(t.game.events) if t.game else None for t in hosts]}, to act "
                        f"{[t.game.to_act() if t.game else None for t in hosts]}, entry "
                        f"{None if entry is None else entry.value[:160]!r}")
        return "; ".join(said)

    def stored(self, number: int) -> int:
        """The events its hosts' games hold (acknowledged), the most of them."""
        return max((len(t.game.events) for t in self.hosts(number) if t.game is not None),
                   default=0)

    async def healed(self) -> float:
        """Seconds until every table not over is hosted by one node and its
        game has moved on since."""
        began = time.monotonic()
        before = {n: self.stored(n) for n in self.tables}
        while True:
            self.step()
            waiting = [n for n in self.tables if not self.done(n)
                       and (len(self.hosts(n)) != 1 or self.stored(n) <= before[n])]
            if not waiting:
                return time.monotonic() - began
            assert time.monotonic() - began < HEAL, f"tables not playing again: {self.why(waiting)}"
            await asyncio.sleep(0.1)

    async def consumers(self) -> int:
        node = next(iter(self.live()))
        most = 0
        for stream in await node.store.js.streams_info():
            most = max(most, int(stream.state.consumer_count))
        self.most_consumers = max(self.most_consumers, most)
        return most


# --- the faults -------------------------------------------------------------------------------


async def node_killed(soak: Soak, turn: int) -> None:
    name = "abc"[turn % 3]
    await soak.kill(name)
    await asyncio.sleep(1.0)
    await soak.start(name)


async def node_paused(soak: Soak, turn: int) -> None:
    node = soak.live()[turn % len(soak.live())]
    node.pause()
    await soak.play(2 * LEASE)
    node.keeper.paused = False


async def nats_server_killed(soak: Soak, turn: int) -> None:
    server = soak.servers[turn % 3]
    server.kill()
    await soak.play(3.0)
    server.start()
    await asyncio.to_thread(server.wait_ready, 30)


async def nats_server_paused(soak: Soak, turn: int) -> None:
    server = soak.servers[turn % 3]
    assert server.process is not None
    server.process.send_signal(signal.SIGSTOP)
    try:
        await soak.play(5.0)
    finally:
        server.process.send_signal(signal.SIGCONT)


async def everything_restarted(soak: Soak, turn: int) -> None:
    for name in soak.nodes:
        await soak.kill(name)
    for server in soak.servers:
        server.stop()
    for server in soak.servers:
        server.start()
    for server in soak.servers:
        await asyncio.to_thread(server.wait_ready, 30)
    for name in soak.nodes:
        await soak.start(name)


async def nats_down_30s(soak: Soak, turn: int) -> None:
    for server in soak.servers:
        server.stop()
    await soak.play(30.0)
    for server in soak.servers:
        server.start()
    for server in soak.servers:
        await asyncio.to_thread(server.wait_ready, 30)


Fault = Callable[[Soak, int], Awaitable[None]]
FAULTS: list[Fault] = [node_killed, node_paused, nats_server_killed, nats_server_paused,
                       everything_restarted, nats_down_30s]


async def soak_for(folder: Path, minutes: float, faults: list[Fault],
                   play: float = PLAY) -> Soak:
    folder.mkdir(parents=True, exist_ok=True)
    said = logging.FileHandler(folder / "cluster.log")  # (what the nodes said, to read after)
    said.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logging.getLogger("crib3").addHandler(said)
    logging.getLogger("crib3").setLevel(logging.INFO)
    print(f"the nodes' log: {folder / 'cluster.log'}")
    with nats_cluster(folder / "nats") as servers:
        soak = Soak(folder, servers)
        try:
            for name in soak.nodes:
                await soak.start(name)
            for _ in range(TABLES):
                await soak.open_one()
            await soak.play(play)
            stop = time.monotonic() + minutes * 60
            for turn in itertools.count():
                fault = faults[turn % len(faults)]
                logging.getLogger("crib3").info("soak: %s, turn %d", fault.__name__, turn)
                await fault(soak, turn // len(faults))
                soak.recoveries.append((fault.__name__, await soak.healed()))
                soak.playing.append(sum(not soak.done(n) for n in soak.tables))
                assert await soak.consumers() <= MOST_CONSUMERS
                await soak.play(play)
                while sum(not soak.done(n) for n in soak.tables) < TABLES:
                    await soak.open_one()
                if turn + 1 >= len(faults) and time.monotonic() > stop:
                    break
            assert soak.worst_twice < TWICE, soak.worst_twice
            await verify_every_table(soak, folder)
        finally:
            for name in soak.nodes:
                await soak.kill(name)
            workers.shut_down()
    return soak


async def verify_every_table(soak: Soak, folder: Path) -> None:
    """Every table's stream verifies, and what each host showed of it is
    the stream's beginning."""
    for node in soak.live():
        soak._remember(node)
    reader = await ClusterStore.connect(soak.urls, "soak-reader", make=False)
    try:
        for number in soak.tables:
            record = await reader.read(str(number))
            if not record.events:
                continue  # (opened and not started before its node died: forgotten)
            path = folder / f"table-{number}.jsonl"
            path.write_text("".join(line + "\n" for line in record.lines), encoding="utf-8")
            load_log(path)  # (LogError: it does not verify)
            for shown in soak.shown[number]:
                assert record.events[:len(shown)] == shown, f"table {number}: lost or doubled"
    finally:
        await reader.close()


def report(soak: Soak) -> dict[str, Any]:
    by_fault: dict[str, list[float]] = defaultdict(list)
    for name, seconds in soak.recoveries:
        by_fault[name].append(seconds)
    return {"tables": len(soak.tables), "playing": soak.playing,
            "most_consumers": soak.most_consumers,
            "worst_twice_s": round(soak.worst_twice, 2),
            "recoveries": {name: {"runs": len(times), "max_s": round(max(times), 2),
                                  "mean_s": round(sum(times) / len(times), 2)}
                           for name, times in by_fault.items()}}


def test_cluster_soak(benchmark, tmp_path):
    soak = benchmark.pedantic(lambda: asyncio.run(soak_for(tmp_path, MINUTES, FAULTS)),
                              rounds=1, iterations=1)
    benchmark.extra_info.update(report(soak))
    print(report(soak))


@pytest.mark.short
def test_short_cluster_soak(benchmark, tmp_path):
    """The short version: each fault but the 30 s outage once, 3 s of play
    after each."""
    soak = benchmark.pedantic(lambda: asyncio.run(soak_for(tmp_path, 0, FAULTS[:-1], 3.0)),
                              rounds=1, iterations=1)
    benchmark.extra_info.update(report(soak))
    print(report(soak))
