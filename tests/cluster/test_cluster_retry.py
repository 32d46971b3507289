"""A node's background loop when the cluster fails it (crib3.cluster.retry),
without a server: the waits back off, jittered, to their bound; a failure
is logged once however long it lasts, the recovery once, and the loop goes
on through both."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster.retry import Backoff, keep_doing


def test_the_waits_double_to_their_bound_each_jittered():
    backoff = Backoff(0.5, 4.0, random.Random(7))
    waits = [backoff.failed() for _ in range(7)]
    for wait, base in zip(waits, [0.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0]):
        assert 0.75 * base <= wait <= 1.25 * base
    assert len(set(waits)) == len(waits)  # (jittered: no two nodes in step)
    assert backoff.reset() == 7 and backoff.failures == 0
    assert 0.375 <= backoff.failed() <= 0.625  # from the start again


async def test_a_failing_loop_says_so_once_and_once_again_when_it_recovers(caplog):
    caplog.set_level(logging.INFO, logger="crib3.cluster")
    calls: list[bool] = []
    failing = True
    failed, worked = asyncio.Event(), asyncio.Event()

    async def work() -> None:
        calls.append(failing)
        if calls.count(True) >= 5:
            failed.set()
        if calls.count(False) >= 3:
            worked.set()
        if failing:
            raise ConnectionError("registry unreachable")

    task = asyncio.get_running_loop().create_task(keep_doing(
        work, every=0.01, most=0.02, what="the test loop", meaning="nothing is done"))
    try:
        await asyncio.wait_for(failed.wait(), 10)
        failing = False
        await asyncio.wait_for(worked.wait(), 10)
        assert not task.done()  # (it went on through both)
    finally:
        task.cancel()
    said = [r.getMessage() for r in caplog.records]
    assert said == ["the test loop failed: nothing is done: registry unreachable",
                    f"the test loop works again (after {calls.count(True)} failed tries)"]
