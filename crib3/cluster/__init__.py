"""A card room over several machines, on NATS JetStream: each table's log
on a replicated stream, appended by one node at a time, fenced by a lease
(`store`); the tables listed in a registry (`registry`), each hosted by one
node (`node`, `hosted`, `acked`, `leases`) and adopted by another when its
host dies; people signed in once across nodes (`presence`); every node's
tables in every lobby (`lobby`); a table's chat kept for the node that
adopts it (`chat`); a person at another node's table by a visit (`visits`);
and the room of a `crib3 serve --cluster` node (`room`). A background loop
that fails says so once and retries (`retry`).

Needs nats-py (`pip install 'crib3[cluster]'`); nothing else in crib3
imports this package but the commands that are given a cluster's address,
and the engine knows nothing of it."""

from crib3.cluster.store import (
    ClusterStore,
    Fenced,
    Lease,
    LeaseHeld,
    TableLog,
    TableRecord,
)

__all__ = ["ClusterStore", "Fenced", "Lease", "LeaseHeld", "TableLog", "TableRecord"]
