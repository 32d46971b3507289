"""`crib3 event new --live --cluster` and `crib3 event results --cluster`:
a live event put in a cluster's `crib3-events` bucket, where every node's
lobby hears of it, and an event's results read from the cluster (its
bucket and its board tables' streams), as a node reads them
(`crib3.cluster.event_bucket`). Each connects once, does its one thing and
closes; one line says why when the cluster cannot be reached or has no
such event.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from crib3.cli.cluster_urls import ServerURL, cluster_urls, shown
from crib3.cli.failures import CannotRun, UsageError

if TYPE_CHECKING:
    from crib3.cluster import ClusterStore
    from crib3.room.live_event import FieldResult, LiveEvent

T = TypeVar("T")


def _on_cluster(text: str, what: str,
                work: Callable[[ClusterStore, list[ServerURL]], Awaitable[T]]) -> T:
    """`work(store)` on the cluster of `--cluster TEXT`, connected as a
    reader; nats-py's failures in one line."""
    servers = cluster_urls(text)
    try:
        from crib3.cluster import ClusterStore
        from crib3.cluster.retry import unanswered
    except ImportError:
        raise CannotRun("--cluster needs nats-py: pip install 'crib3[cluster]'") from None

    async def run() -> T:
        store = await ClusterStore.connect([server.url for server in servers],
                                           f"{what}-{os.getpid()}", make=False,
                                           allow_reconnect=False, connect_timeout=5,
                                           max_reconnect_attempts=1)
        try:
            return await work(store, servers)
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except (CannotRun, UsageError):
        raise
    except Exception as exc:  # nats-py's own: it cannot reach the cluster, or refused us
        if not unanswered(exc):
            raise
        raise CannotRun(f"cannot reach the cluster at {shown(servers)}: "
                        f"{exc or type(exc).__name__}") from None


def put_live(text: str, live: LiveEvent) -> None:
    """`live` (just made here) in the cluster's events bucket; an event of
    its name there already is refused in one line."""
    import nats.js.errors

    from crib3.cluster.event_bucket import BUCKET, put_event
    from crib3.cluster.store import kv_bucket
    from crib3.room.event_ratings import is_rated

    async def put(store: ClusterStore, servers: list[ServerURL]) -> None:
        kv = await kv_bucket(store.js, BUCKET, store.replicas)
        try:
            await put_event(kv, live, is_rated(live.event))
        except nats.js.errors.KeyWrongLastSequenceError:
            raise UsageError(f"the cluster at {shown(servers)} has an event {live.name} "
                             "already: give another --name") from None

    _on_cluster(text, "event-new", put)


def cluster_results(text: str, name: str) -> tuple[LiveEvent, list[FieldResult], list[Any],
                                                   list[str]]:
    """Event `name`'s results as the cluster's nodes read them: the event,
    its fields, its ranking, the logs left out."""
    import nats.js.errors

    from crib3.cluster.event_bucket import BUCKET, event_results

    async def read(store: ClusterStore, servers: list[ServerURL]) -> tuple[
            LiveEvent, list[FieldResult], list[Any], list[str]]:
        try:
            kv = await store.js.key_value(BUCKET)
            return await event_results(store, kv, name)
        except (nats.js.errors.BucketNotFoundError, nats.js.errors.KeyNotFoundError):
            raise CannotRun(f"no live event {name} in the cluster at {shown(servers)}") \
                from None

    return _on_cluster(text, "event-results", read)
