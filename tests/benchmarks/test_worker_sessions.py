"""A session worker's memory over 2,000 short lobby sessions (sign in,
open the help, hang up), one after another, in one worker.

Run on demand:
`python -m pytest tests/benchmarks/test_worker_sessions.py --benchmark-only -s`

It prints the worker's resident size and the objects it holds (collected
ones and frozen ones) after a warm-up of 50 sessions and every 250
sessions after that; the worker's size after them all should be within a
few MB of its warm size (before: it grew some 150 KB a session, for ever).

And many idle sessions at once, in a card room of two workers, by SSH and
from browsers (`CRIB3_IDLE_SESSIONS`, 240): the workers' sizes before,
during and after.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from worker_sessions import run_sessions


def test_a_workers_memory_over_two_thousand_sessions(benchmark, tmp_path):
    found: dict = {}
    benchmark.pedantic(lambda: found.update(run_sessions(tmp_path, warm=50, sessions=2000,
                                                         every=250, timeout=1800)),
                       rounds=1, iterations=1)
    rows = found["rows"]
    for row in rows:
        print(f"{row['sessions']:5d} sessions: {row['rss_mb']:6.1f} MB, "
              f"{row['objects']} objects ({row['frozen']} frozen)")
    print(f"apps still in memory at the end: {found['apps_alive']}")
    warm, last = rows[0], rows[-1]
    benchmark.extra_info.update(warm_mb=warm["rss_mb"], last_mb=last["rss_mb"],
                                peak_mb=max(r["rss_mb"] for r in rows),
                                apps_alive=found["apps_alive"])
    assert found["apps_alive"] == 0
    assert last["rss_mb"] - warm["rss_mb"] < 10


# --- many idle sessions at once, SSH and browsers --------------------------------------

IDLE_SESSIONS = int(os.environ.get("CRIB3_IDLE_SESSIONS", "240"))


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


async def _idle_sessions(folder: Path, door_kind: str, count: int) -> dict[str, list[float]]:
    """A card room with two workers; `count` people come in at once by
    `door_kind` ("ssh" or "browser"), each idle in the lobby, then all go.
    The workers' sizes before, with them all there, and once they are gone."""
    import aiohttp
    from ssh_support import Client, until
    from web_support import WebClient, web_serving

    from crib3.room.invites import HOST

    weighed: dict[str, list[float]] = {}
    async with web_serving(folder, workers=2) as (server, door):
        def weigh(when: str) -> None:
            weighed[when] = [round(_rss_mb(w.pid), 1) for w in server.pool.workers]

        await until(lambda: all(w.pid for w in server.pool.workers), timeout=60, what="workers")
        weigh("before")
        people: list = []
        for n in range(count):
            source = f"127.0.{1 + n // 20}.{2 + n % 20}"  # (the doors' limits per address)
            if door_kind == "ssh":
                person = await Client.connect(server.port, f"p{n}", source=source)
            else:
                http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True),
                                             connector=aiohttp.TCPConnector(local_addr=(source, 0)))
                person = WebClient(http, door.url)
                token = door.book.invite(HOST, name=f"p{n}")
                async with http.post(f"{door.url}/api/redeem", json={"token": token},
                                     headers={"Origin": door.url}) as response:
                    assert response.status == 200, await response.text()
                await person.open()
            await person.shows("You are", timeout=60)
            people.append(person)
        weigh("during")
        for person in people:
            if door_kind == "ssh":
                person.close()
            else:
                await person.aclose()
        await until(lambda: not any(w.sessions for w in server.pool.workers), timeout=120,
                    what="every session gone")
        await asyncio.sleep(5)  # (the workers sort out what the sessions left)
        weigh("after")
    return weighed


@pytest.mark.parametrize("door_kind", ["ssh", "browser"])
def test_two_workers_memory_with_idle_sessions_at_once(benchmark, tmp_path, monkeypatch,
                                                       door_kind):
    """`CRIB3_IDLE_SESSIONS` (240) people idle in the lobby at once, by SSH
    or from a browser, in a card room of two workers, then gone: the
    workers' sizes before, during and after. A browser's session should
    leave what an SSH one leaves (before: each kept its highest size, some
    80 MB a worker for 120 sessions, whichever the door)."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    found: dict = {}
    benchmark.pedantic(lambda: found.update(asyncio.run(
        _idle_sessions(tmp_path, door_kind, IDLE_SESSIONS))), rounds=1, iterations=1)
    for when in ("before", "during", "after"):
        print(f"{door_kind}, {IDLE_SESSIONS} idle sessions, {when}: workers "
              f"{' + '.join(map(str, found[when]))} = {sum(found[when]):.1f} MB")
    benchmark.extra_info.update({when: sum(found[when]) for when in found})
    rise = sum(found["during"]) - sum(found["before"])
    kept = sum(found["after"]) - sum(found["before"])
    assert kept < rise, found  # (some of it comes back)
