"""What a host's monitoring asks of a running room: `/metrics` in the
Prometheus text format (prometheus_client's, not hand-written) and
`/healthz`, on a listener of their own (`crib3 serve --metrics
[HOST:]PORT`, loopback unless told), never on a door the players reach.

The counts kept as they happen live here, one set for the process (as
prometheus_client's own are): refusals at the door before sign-in, by
reason; the sessions open, by door; a key's time to the screen (from a
keypress to the next bytes written to that person's terminal, measured
where the bytes leave for the client, so it includes the session worker
and the relay). What is read when scraped (the tables open, the session
workers' memory, a cluster node's leases) is read then, from the room
itself, by `RoomCollector`, a cluster node's leases and adoptions among them.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

if TYPE_CHECKING:
    from aiohttp import web

log = logging.getLogger("crib3.serve")

REGISTRY = CollectorRegistry()
REFUSED = Counter("crib3_refused_before_sign_in", "connections turned away at the door "
                  "before they signed in, by reason", ["reason"], registry=REGISTRY)
SESSIONS = Gauge("crib3_sessions", "sessions open, by door", ["door"], registry=REGISTRY)
KEY_TO_SCREEN = Histogram(
    "crib3_key_to_screen_seconds", "from a key a person pressed to the next bytes written "
    "to their terminal", registry=REGISTRY,
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0))

# A key's time counts until the next screen only within this: a key that
# changes nothing on the screen (a key no screen takes) is not a slow screen.
KEY_WAIT = 5.0


class KeyTimer:
    """A person's key→screen, one key at a time: `pressed` when bytes that
    are a key arrive, `drawn` when bytes leave for their terminal."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.since: float | None = None

    def pressed(self, data: bytes) -> None:
        if self.since is None and is_a_key(data):
            self.since = self.clock()

    def drawn(self) -> None:
        if self.since is not None:
            took = self.clock() - self.since
            self.since = None
            if took <= KEY_WAIT:
                KEY_TO_SCREEN.observe(took)


def is_a_key(data: bytes) -> bool:
    """Bytes a person typed, not a mouse report, a focus report or a
    terminal's reply (which need no screen in answer)."""
    return bool(data) and not data.startswith((b"\x1b[<", b"\x1b[M", b"\x1b[I", b"\x1b[O",
                                               b"\x1b[?", b"\x1bP", b"\x1b]"))


@dataclass
class RoomReadings:
    """What the collector reads from the running room when scraped."""

    tables: Callable[[], int]
    worker_pids: Callable[[], list[int]]
    # A cluster node's: the leases it holds, the tables it has adopted.
    leases: Callable[[], int | None] = field(default=lambda: None)
    adoptions: Callable[[], int | None] = field(default=lambda: None)
    # Lines of the cluster's results stream this node refused (forged, replayed, damaged).
    results_refused: Callable[[], int | None] = field(default=lambda: None)


class RoomCollector(Collector):
    """The gauges read at scrape time (see the module's docstring)."""

    def __init__(self, readings: RoomReadings) -> None:
        self.readings = readings

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily("crib3_tables_open", "tables open in this room",
                                value=self.readings.tables())
        memory = GaugeMetricFamily("crib3_worker_memory_bytes",
                                   "resident memory of each session worker", labels=["pid"])
        for pid in self.readings.worker_pids():
            rss = resident_bytes(pid)
            if rss is not None:
                memory.add_metric([str(pid)], rss)
        yield memory
        own = resident_bytes(os.getpid())
        if own is not None:
            yield GaugeMetricFamily("crib3_main_memory_bytes",
                                    "resident memory of the room's own process", value=own)
        leases = self.readings.leases()
        if leases is not None:
            yield GaugeMetricFamily("crib3_cluster_leases_held",
                                    "tables whose lease this node holds", value=leases)
        adoptions = self.readings.adoptions()
        if adoptions is not None:
            yield CounterMetricFamily("crib3_cluster_adoptions", "tables this node adopted "
                                      "from a node that died or stopped", value=adoptions)
        refused = self.readings.results_refused()
        if refused is not None:
            yield CounterMetricFamily("crib3_cluster_results_refused", "lines of the cluster's "
                                      "results stream this node refused: forged, replayed or "
                                      "damaged", value=refused)


def resident_bytes(pid: int) -> int | None:
    """A process's resident memory, from /proc (None where there is none)."""
    try:
        with open(f"/proc/{pid}/statm", encoding="ascii") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


class MetricsDoor:
    """`/metrics` and `/healthz` on their own listener."""

    def __init__(self, host: str, port: int, readings: RoomReadings) -> None:
        self.host, self.port = host, port
        self.registry = CollectorRegistry()
        self.registry.register(RoomCollector(readings))
        self.healthy = True
        self.runner: web.AppRunner | None = None

    async def start(self) -> None:
        from aiohttp import web

        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        app.router.add_get("/healthz", self._health)
        self.runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self.runner.setup()
        await web.TCPSite(self.runner, self.host, self.port).start()
        if self.port == 0 and self.runner.addresses:  # (a port the system chose)
            self.port = int(self.runner.addresses[0][1])

    async def stop(self) -> None:
        self.healthy = False
        if self.runner is not None:
            await self.runner.cleanup()

    async def _metrics(self, request: Any) -> Any:
        from aiohttp import web
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        body = generate_latest(REGISTRY) + generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def _health(self, request: Any) -> Any:
        from aiohttp import web

        if self.healthy:
            return web.Response(text="ok\n")
        return web.Response(status=503, text="stopping\n")
