"""The cluster's list of tables: the `crib3-tables` key-value bucket, one
key a table (its number), written by the node that hosts it
(`HostedTable.entry`: who sits where, its status, its host, what the lobby
shows of it) and read by every node's lobby (`crib3.cluster.lobby`) and
adoption scan (`crib3.cluster.node`).

A table's number is claimed here, once for the whole cluster: the next
number after the highest key, its entry created only where the key is
absent, so that two nodes asking at once cannot get the same number (the
one that loses looks again and takes the next).
"""

from __future__ import annotations

import json
from typing import Any

import nats.js.errors

from crib3.cluster.store import ClusterStore, kv_bucket

REGISTRY = "crib3-tables"
OVER = "over"  # a table's status in the registry once its game ended


async def open_registry(store: ClusterStore, replicas: int | None = None) -> Any:
    """The tables' registry, made if it is not there yet."""
    return await kv_bucket(store.js, REGISTRY, store.replicas if replicas is None else replicas)


async def claim_number(registry: Any, entry: dict[str, Any]) -> tuple[int, int]:
    """The next table number of the cluster, its registry entry (`entry`,
    its "number" filled in) made: the number, and the entry's revision."""
    while True:
        try:
            numbers = [int(k) for k in await registry.keys() if k.isdigit()]
        except nats.js.errors.NoKeysError:
            numbers = []
        number = max(numbers, default=0) + 1
        entry["number"] = number
        try:
            revision = await registry.create(str(number), json.dumps(entry).encode())
        except nats.js.errors.KeyWrongLastSequenceError:
            continue  # another node took that number first
        return number, int(revision)


__all__ = ["OVER", "REGISTRY", "claim_number", "open_registry"]
