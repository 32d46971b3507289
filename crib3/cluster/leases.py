"""A node's leases, kept: each renewed at a third of its term, in the
background, all at once (one after the other, a busy node's last renewals
can come after their leases ran out while the node is alive). A lease that
cannot be renewed (refused, or its term ran out meanwhile) is dropped and
its `lost` callback called: the table is hosted elsewhere now."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from crib3.cluster.store import ClusterStore, Fenced, Lease

log = logging.getLogger("crib3.cluster")


class LeaseKeeper:
    """Renews a node's leases at a third of their term, in the background;
    a lease it cannot renew (refused, or its term ran out meanwhile) is
    dropped and its `lost` callback called."""

    def __init__(self, store: ClusterStore) -> None:
        self.store = store
        self.leases: dict[str, tuple[Lease, Callable[[], None]]] = {}
        self.paused = False  # (tests: a node stopped, as by SIGSTOP)
        self._task: asyncio.Task[None] | None = None

    def keep(self, lease: Lease, lost: Callable[[], None]) -> None:
        self.leases[lease.table] = (lease, lost)
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def drop(self, table: str) -> Lease | None:
        kept = self.leases.pop(table, None)
        return kept[0] if kept else None

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.store.lease_seconds / 3)
            if self.paused:
                continue
            # All at once (see the module's docstring; the measurement is in
            # assets/measurements/cluster.md).
            await asyncio.gather(*(self._renew(table, lease, lost)
                                   for table, (lease, lost) in list(self.leases.items())))

    async def _renew(self, table: str, lease: Lease, lost: Callable[[], None]) -> None:
        try:
            await self.store.renew(lease)
            return
        except Fenced as exc:  # (said, so that a log tells why a table moved)
            log.info("%s", exc)
        except Exception as exc:
            if lease.held():
                log.info("table %s: a renewal failed (%s); trying again", table, exc)
                return
            log.info("table %s: its lease ran out before a renewal was answered (%s)",
                     table, str(exc) or type(exc).__name__)
        if self.leases.get(table, (None,))[0] is lease:
            self.drop(table)
            lost()

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None


__all__ = ["LeaseKeeper"]
