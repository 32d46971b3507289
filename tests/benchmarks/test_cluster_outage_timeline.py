"""Where the time goes when every NATS server is down, then started again:
the timeline of the tables' adoption after the outage, step by step.

Three nats-servers (R3), two nodes, `TABLES` tables whose host died just
before the outage (their leases run out meanwhile), every server stopped
for `OUTAGE` seconds, then started. Printed, in seconds since the servers
were started again: when each server answered healthy, when the tables'
stream and the leases' bucket had a leader again (asked, from a client of
the benchmark's own), when each node's registry watch was read whole
again, each scan, and each adoption with its steps (the registry entry,
the lease, the log read, the owner message, the rebuild). The results go
in assets/measurements/cluster.md.

Run on demand: `python -m pytest tests/benchmarks/test_cluster_outage_timeline.py
--benchmark-only -s` (`CRIB3_OUTAGE_SECONDS`, `CRIB3_OUTAGE_TABLES`).
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from nats_support import nats_cluster, needs_nats, until
from test_cluster_outage import a_started_table  # (the same table, made the same way)

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")


import nats

from crib3.cluster.node import Node
from crib3.cluster.store import STREAM

pytestmark = needs_nats

OUTAGE = float(os.environ.get("CRIB3_OUTAGE_SECONDS", "10"))
TABLES = int(os.environ.get("CRIB3_OUTAGE_TABLES", "6"))
LEASE = 2.0  # seconds


def hosted(node: Node, number: int) -> bool:
    table = node.room.tables.get(number)
    return table is not None and not table.moved and not table.closed


class Timeline:
    """What happened when, in seconds since `zero` (set as the servers start)."""

    def __init__(self) -> None:
        self.zero = time.monotonic()
        self.lines: list[tuple[float, str]] = []
        self._lock = threading.Lock()

    def at(self, what: str, when: float | None = None) -> None:
        with self._lock:
            self.lines.append(((when or time.monotonic()) - self.zero, what))

    def timed(self, owner: Any, name: str, label: Callable[..., str]) -> None:
        """`owner.name` (a coroutine method) wrapped: its start and its
        time, each call."""
        real = getattr(owner, name)

        async def wrapped(*args: Any, **kwargs: Any) -> Any:
            started = time.monotonic()
            what = label(*args, **kwargs)
            try:
                return await real(*args, **kwargs)
            finally:
                self.at(f"{what} ({time.monotonic() - started:.2f} s)", started)
        setattr(owner, name, wrapped)

    def show(self) -> str:
        return "\n".join(f"{t:7.2f}  {what}" for t, what in sorted(self.lines))


def instrument(node: Node, timeline: Timeline) -> None:
    name = node.name
    timeline.timed(node, "adopt", lambda table, *_: f"{name}: adopt {table}")
    timeline.timed(node, "scan", lambda: f"{name}: scan")
    timeline.timed(node.store, "acquire", lambda table: f"{name}:   lease {table}")
    timeline.timed(node.store, "read", lambda table: f"{name}:   read {table}")
    timeline.timed(node.store, "open_log", lambda lease, *_: f"{name}:   open_log "
                                                             f"{lease.table}")
    # (What the code before asked through: the same steps, timed the same.)
    reading = getattr(node.store, "_reading", node.store.js)
    asking = getattr(node, "_asking", node.registry)
    timeline.timed(reading, "get_msg",
                   lambda *_, **__: f"{name}:     last message")
    timeline.timed(reading, "subscribe",
                   lambda *_, **__: f"{name}:     consumer made")
    timeline.timed(asking, "get", lambda table: f"{name}:   registry get {table}")
    node.known.whole.append(lambda: timeline.at(f"{name}: registry read whole"))


async def leaders(urls: list[str], timeline: Timeline, stop: asyncio.Event) -> None:
    """When the tables' stream and the leases' bucket have a leader again."""
    client = await nats.connect(urls, max_reconnect_attempts=-1, reconnect_time_wait=0.1)
    seen: dict[str, str | None] = {STREAM: None, "KV_crib3-leases": None,
                                   "KV_crib3-tables": None}
    try:
        js = client.jetstream(timeout=0.5)
        while not stop.is_set():
            for stream in seen:
                try:
                    info = await js.stream_info(stream)
                    leader = info.cluster.leader if info.cluster else None
                except Exception:
                    leader = None
                if leader != seen[stream]:
                    seen[stream] = leader
                    timeline.at(f"stream {stream}: leader {leader}")
            await asyncio.sleep(0.1)
    finally:
        await client.close()


def watch_health(servers: list[Any], timeline: Timeline, stop: threading.Event) -> None:
    healthy = set()
    while not stop.is_set() and len(healthy) < len(servers):
        for server in servers:
            if server.name not in healthy and server.healthy():
                healthy.add(server.name)
                timeline.at(f"server {server.name} healthy")
        time.sleep(0.05)


async def outage(folder: Any) -> dict[str, Any]:
    with nats_cluster(folder / "nats") as servers:
        urls = [s.url for s in servers]
        nodes = [await Node.start(urls, name, folder / name, lease_seconds=LEASE,
                                  think=0.0) for name in ("a", "b")]
        timeline = Timeline()
        try:
            for node in nodes:
                instrument(node, timeline)
            numbers = list(range(1, TABLES + 1))
            await asyncio.gather(*(a_started_table(urls, n) for n in numbers))
            for server in servers:
                server.stop()
            await asyncio.sleep(OUTAGE)
            timeline.zero = time.monotonic()
            timeline.lines.clear()
            for server in servers:
                server.start()
            stop, done = threading.Event(), asyncio.Event()
            health = asyncio.ensure_future(asyncio.to_thread(watch_health, servers, timeline,
                                                             stop))
            asking = asyncio.ensure_future(leaders(urls, timeline, done))
            await until(lambda: any(hosted(node, n) for node in nodes for n in numbers),
                        seconds=60, what="a table hosted again")
            timeline.at("a first table hosted")
            await until(lambda: all(any(hosted(node, n) for node in nodes) for n in numbers),
                        seconds=60, what="every table hosted again")
            timeline.at("every table hosted")
            stop.set()
            done.set()
            await asyncio.gather(health, asking)
            def last(word: str) -> float:
                return max(t for t, what in timeline.lines if word in what)
            found = {"healthy": last(" healthy"), "leaders": last(": leader n"),
                     "first hosted": last("a first table hosted"),
                     "all hosted": last("every table hosted")}
            print(f"\n--- {TABLES} tables, NATS down {OUTAGE:g} s\n{timeline.show()}\n"
                  + ", ".join(f"{what} {t:.2f} s" for what, t in found.items()))
            return found
        finally:
            for node in nodes:
                await node.close()


def test_outage_timeline(benchmark, tmp_path):
    found = benchmark.pedantic(lambda: asyncio.run(outage(tmp_path)), rounds=1, iterations=1)
    benchmark.extra_info.update(found)
