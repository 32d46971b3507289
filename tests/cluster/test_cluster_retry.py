"""A node's background loop when the cluster fails it (crib3.cluster.retry),
without a server: the waits back off, jittered, to their bound; a failure
is logged once however long it lasts, the recovery once, and the loop goes
on through both."""

from __future__ import annotations

import asyncio
import logging
import random

import pytest
from nats_support import until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster.retry import Backoff, ended, keep_doing


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


async def test_a_loop_woken_works_at_once_and_its_waits_start_again_from_the_first():
    """A loop backed off to a long wait (a cluster away for a while) is woken
    when the cause is gone (its connection back): it works at once, not
    at the end of that wait, and a failure then waits the first wait."""
    calls: list[float] = []
    wake = asyncio.Event()
    loop = asyncio.get_running_loop()

    async def work() -> None:
        calls.append(loop.time())
        raise ConnectionError("the cluster is away")

    task = loop.create_task(keep_doing(work, every=0.01, first=0.01, most=60.0,
                                       what="the test loop", meaning="nothing is done",
                                       wake=wake))
    try:
        await until(lambda: len(calls) >= 9, what="eight failures")  # (its wait now 2.56 s)
        await asyncio.sleep(0.1)
        assert len(calls) == 9  # (asleep in that wait)
        woken = loop.time()
        wake.set()
        await until(lambda: len(calls) >= 11, seconds=5.0, what="the woken loop working")
        assert calls[9] - woken < 0.5 and calls[10] - calls[9] < 0.5, (woken, calls)
    finally:
        task.cancel()


async def test_a_loop_whose_work_swallowed_its_cancel_stops_all_the_same():
    """On Python 3.11 a request whose answer comes in the turn its task is
    cancelled returns the answer and drops the cancel (asyncio.wait_for's
    race, inside nats-py): the loop must stop all the same, or whoever
    stops it waits for good (the suite hung so in a cluster test's
    teardown). Here the work's inner task takes the cancel and returns."""
    started = asyncio.Event()

    async def answer_despite_the_cancel() -> str:
        started.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            return "the answer, come in the same turn"
        return "never"

    async def work() -> None:
        await asyncio.ensure_future(answer_despite_the_cancel())

    loop = asyncio.create_task(keep_doing(work, every=0.01, what="t", meaning="m"))
    await asyncio.wait_for(started.wait(), 10)
    loop.cancel()
    done, _ = await asyncio.wait({loop}, timeout=10)
    assert done, "the loop went on after its cancel was swallowed"
    assert loop.cancelled()


async def test_a_stop_asks_again_and_gives_up_in_bounded_time(caplog):
    """`ended` cancels again a task that swallowed a cancel; one that
    swallows every cancel is left, said once, within the bound."""
    caplog.set_level(logging.INFO, logger="crib3.cluster")
    swallowed = 0
    released = False

    async def swallows(times: float) -> None:
        """Takes the first `times` cancels and goes on (till `released`)."""
        nonlocal swallowed
        while True:
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                if released or swallowed >= times:
                    raise
                swallowed += 1

    once = asyncio.create_task(swallows(1))
    await asyncio.sleep(0)
    assert await ended(once, "the once-deaf task") and once.cancelled() and swallowed == 1
    deaf = asyncio.create_task(swallows(float("inf")))
    await asyncio.sleep(0)
    assert not await ended(deaf, "the deaf task", within=0.5)
    assert [r.getMessage() for r in caplog.records] == [
        "the deaf task did not end within 0.5 s of being stopped: left running"]
    released = True
    deaf.cancel()
    await asyncio.wait({deaf}, timeout=5)


def test_what_fails_for_want_of_an_answer_is_said_once_and_a_defect_is_reported(
        caplog, tmp_path, monkeypatch):
    """After an outage a node tries each table at every scan: a table's
    adoption that times out (or meets NATS's own errors) is one warning
    until it works again, then a line that it does, then one warning
    again if it fails again; anything else is a crash report (errors.log)."""
    import nats.errors

    from crib3.cluster.retry import Failing

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    caplog.set_level(logging.INFO, logger="crib3.cluster")
    failing = Failing(logging.getLogger("crib3.cluster"), "node a")
    for _ in range(5):
        failing.failed("adopting table 7", nats.errors.TimeoutError())
        failing.failed("adopting table 8", TimeoutError())
        failing.failed("adopting table 9", nats.errors.NoRespondersError())
    said = [r for r in caplog.records if r.name == "crib3.cluster"]
    assert [r.levelno for r in said] == [logging.WARNING] * 3, [r.getMessage() for r in said]
    assert "adopting table 7 failed, the cluster not answering" in said[0].getMessage()
    failing.worked("adopting table 7")
    failing.worked("adopting table 7")
    failing.failed("adopting table 7", nats.errors.TimeoutError())
    said = [r for r in caplog.records if r.name == "crib3.cluster"][3:]
    assert [r.levelno for r in said] == [logging.INFO, logging.WARNING], \
        [r.getMessage() for r in said]
    failing.failed("adopting table 7", ValueError("a defect"))
    last = caplog.records[-1]
    assert last.levelno == logging.ERROR and "unexpected error" in last.getMessage()
