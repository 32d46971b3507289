"""The cluster's list of tables: the `crib3-tables` key-value bucket, one
key a table (its number), written by the node that hosts it
(`HostedTable.entry`: who sits where, its status, its host, what the lobby
shows of it) and read by every node's lobby (`crib3.cluster.lobby`) and
adoption scan (`crib3.cluster.node`).

A node reads the registry through one watch kept for its life
(`watch_registry`: `crib3.cluster.watched`), never by listing it: each
listing is a consumer on the server, left there for minutes.

A table's number is claimed once for the whole cluster
(`crib3.cluster.node`'s `prepare_table`): the next number after the
highest key the node has heard of (`highest_number`: a deleted one too),
its lease taken first (created only where absent: two nodes asking at
once cannot both get it, and the one that loses takes the next), then its
entry created here. In that order, no scan ever finds a new entry whose
lease is free, to adopt it or forget it under its node.
"""

from __future__ import annotations

from typing import Any

from crib3.cluster.store import ClusterStore, kv_bucket
from crib3.cluster.watched import WatchedBucket

REGISTRY = "crib3-tables"
OVER = "over"  # a table's status in the registry once its game ended
SPARE = "spare"  # a registry entry's status: claimed by a node, not yet a table


async def open_registry(store: ClusterStore, replicas: int | None = None) -> Any:
    """The tables' registry, made if it is not there yet."""
    return await kv_bucket(store.js, REGISTRY, store.replicas if replicas is None else replicas)


async def watch_registry(registry: Any, node: str, *,
                         check_every: float | None = None) -> WatchedBucket:
    """The registry as node `node` hears it, kept by one watch for its
    life, read whole before this returns."""
    watched = WatchedBucket(registry, f"node {node}: the registry's watch",
                            "the tables of a dead node are not adopted, and no lobby "
                            "hears of a table, until it works again")
    if check_every is not None:
        watched.check_every = check_every
    await watched.start()
    return watched


def highest_number(known: WatchedBucket) -> int:
    """The highest table number the registry has had, as far as this node
    heard (a deleted entry's too: its number is not given again)."""
    return max((int(key) for key in (*known.entries, *known.deleted) if key.isdigit()),
               default=0)


__all__ = ["OVER", "REGISTRY", "SPARE", "highest_number", "open_registry", "watch_registry"]
