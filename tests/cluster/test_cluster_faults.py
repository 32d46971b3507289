"""Faults a real cluster meets, against real nats-server processes
(tests/nats_support.py): idle nodes that must not fill the registry's
stream with consumers, a NATS server paused and resumed under a node, a
node's spare table outliving the node, and a table opened and never
started, exported."""

from __future__ import annotations

import asyncio
import time

import pytest
from nats_support import nats_server, needs_nats

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")


from crib3.cluster import ClusterStore
from crib3.cluster.node import Node
from crib3.cluster.registry import REGISTRY
from crib3.players import workers

pytestmark = needs_nats

LEASE = 2.0  # seconds: a node that stops renewing loses its tables this soon


@pytest.fixture(autouse=True)
def _workers():
    yield
    workers.shut_down()


async def until(check, seconds: float = 20.0, what: str = "it") -> None:
    give_up = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < give_up, f"{what} did not happen"
        await asyncio.sleep(0.02)


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
