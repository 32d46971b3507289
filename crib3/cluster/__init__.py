"""A card room over several machines, on NATS JetStream (issue 31): each
table's log on a replicated stream, appended by one node at a time, fenced
by a lease (`crib3.cluster.store`). Needs nats-py (`pip install
'crib3[cluster]'`); nothing else in crib3 imports this package but the
commands that are given a cluster's address, and the engine knows nothing
of it."""

from crib3.cluster.store import (
    ClusterStore,
    Fenced,
    Lease,
    LeaseHeld,
    TableLog,
    TableRecord,
)

__all__ = ["ClusterStore", "Fenced", "Lease", "LeaseHeld", "TableLog", "TableRecord"]
