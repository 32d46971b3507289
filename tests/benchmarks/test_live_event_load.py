"""A live duplicate event under load, at human pace: 30 tables of scripted
people (90 of them) play a live event of three boards in one `crib3
serve`, against the same 30 tables playing ordinary games in the same run.

Run on demand:
`python -m pytest tests/benchmarks/test_live_event_load.py --benchmark-only -s`
(`-m short`: the short version `.ci/run` runs, an event at two tables,
asserting only that it ran and measured). `CRIB3_EVENT_TABLES` changes the
30; `CRIB3_LOAD_PACE` is the seconds a person takes over a key (0.6).

Live events are played in the server's main process (`--workers 1`: the
sessions' apps there too), so both halves run so, each in a fresh server
(`crib3 serve --open --think 0 --workers 1`), with the headless SSH clients
of `test_ssh_load` (an 80x24 xterm each, from an address of their own):

- ordinary: `test_ssh_load`'s point at the same number of tables, measured
  for as long as the event's play took (at most `test_ssh_load`'s 45 s).
- the event: made in the server's data folder before it starts (as `crib3
  event new --live` makes it); everyone connects, opens the events screen
  (`e`) and enters (`j`); the first person, its host, starts it (`s`); the
  events screen seats each at their board's table as it is dealt and brings
  them back after its show. Everyone presses Enter whenever the footer
  offers it, a person's moment after (`PACE`, jittered), till the event is
  over (every board played at every table).

Measured, as in `test_ssh_load`: each Enter's key -> first bytes back (p50,
p95, max), the server's memory a session ((playing - idle) / sessions) and
its CPU; and, for the event, how long its results take to compute from the
tables' logs (`LiveEvent.results`, in this process once it is over).
Printed; nothing is asserted of the times (the machine is shared; a key
unanswered after `ANSWER_TIMEOUT` counts as the slowest, and is counted).
Asserted: the event ran to its end, every client had keys answered, its
results were computed, and the server logged no traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import time
from pathlib import Path

import pytest
from ssh_support import person_address, until

import benchmarks.test_ssh_load as load
from benchmarks.test_ssh_load import (
    ANSWER_TIMEOUT,
    CONNECT_AT_ONCE,
    ENTER,
    STEP_TIMEOUT,
    Player,
    _connect,
    _cpu_seconds,
    _quiet,
    _rss_each_mb,
    _rss_mb,
    _start_server,
    _stop_server,
    _tail,
)

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(),
                                reason="reads the server's memory and CPU from /proc")

TABLES = int(os.environ.get("CRIB3_EVENT_TABLES", "30"))
PACE = load.PACE
EVENT = "bench"
BOARDS = 3
EVENT_LIMIT = 900.0  # seconds the event may take to play at all before the run gives up
SHORT_TABLES = 2
SHORT_PACE = 0.05  # the short version goes quicker than a person: it only shows that it runs


def _status(home: Path) -> dict:
    """The event's live file, as the server last saved it."""
    with contextlib.suppress(OSError, ValueError):
        return json.loads((home / "data" / "events" / EVENT / "live.json").read_text())
    return {}


async def _enter(player: Player) -> None:
    await player.expect(f"You are {player.name}.")
    player.press(b"e")
    await player.expect(f"{EVENT}: {BOARDS} boards")
    player.press(b"j")
    # "(you are entered)" on the event's line, wherever its line wraps
    end = time.monotonic() + STEP_TIMEOUT
    while "(you are entered)" not in " ".join(player.term.screen.text().split()):
        assert time.monotonic() < end and not player.term.closed, player.term.screen.text()
        player.term.changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(player.term.changed.wait(), 1)


async def _play_event(player: Player, over: asyncio.Event, rng: random.Random,
                      pace: float) -> None:
    """Press Enter whenever the footer offers it (at a board's table), a
    person's moment after, till the event is over."""
    term = player.term
    while not over.is_set() and not term.closed:
        if "⏎" not in term.screen.footer():
            term.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(term.changed.wait(), 0.5)
            continue
        await asyncio.sleep(rng.uniform(pace * 0.6, pace * 1.4))
        if "⏎" not in term.screen.footer():
            continue
        term.answered.clear()
        term.pressed_at = time.perf_counter()
        player.press(ENTER)
        try:
            await asyncio.wait_for(term.answered.wait(), ANSWER_TIMEOUT)
        except TimeoutError:
            term.pressed_at = None
            player.unanswered += 1


def _event_point(tables: int, folder: Path, pace: float) -> dict[str, float]:
    """A live event at `tables` tables (see the module's docstring)."""
    from crib3.duplicate.events import load_event
    from crib3.room.live_event import OVER, PLAYING, WITH_COMPUTER, load_live, new_live_event

    folder.mkdir()
    home, log = folder / "home", folder / "server.log"
    os.environ["CRIB3_HOME"] = str(home)  # (the test's own folder: see conftest's crib3_home)
    new_live_event(EVENT, 2026, BOARDS, "standard", "e0", time.time() + 3600, WITH_COMPUTER)
    server, port = _start_server(home, log, folder / "stats", web=False)
    players: list[Player] = []
    found: dict[str, float] = {"tables": tables}
    rng = random.Random(5)

    async def run() -> None:
        try:
            await asyncio.sleep(1)
            found["rss_idle"] = _rss_mb(server.pid)
            started = time.monotonic()
            gate = asyncio.Semaphore(CONNECT_AT_ONCE)

            async def arrive(n: int) -> None:
                async with gate:
                    player = await _connect(port, f"e{n}", person_address(n))
                    players.append(player)
                    await _enter(player)

            await asyncio.gather(*(arrive(n) for n in range(tables * 3)))
            found["entering_s"] = time.monotonic() - started
            host = next(p for p in players if p.name == "e0")
            host.press(b"s")
            await until(lambda: _status(home).get("status") == PLAYING, timeout=60,
                        what="the event's start")
            found["rss_seated"] = _rss_mb(server.pid)
            over = asyncio.Event()

            async def watch() -> None:
                """Once a second: the event over (or the time up) ends the play."""
                for _ in range(int(EVENT_LIMIT)):
                    if _status(home).get("status") == OVER:
                        break
                    await asyncio.sleep(1)
                over.set()

            cpu, play_started = _cpu_seconds(server.pid), time.monotonic()
            await asyncio.gather(watch(), *(_play_event(p, over, random.Random(rng.random()),
                                                        pace) for p in players))
            found["played_s"] = time.monotonic() - play_started
            found["server_cpu"] = (_cpu_seconds(server.pid) - cpu) / found["played_s"]
            found["rss_playing"] = sum(_rss_each_mb(server.pid).values())
            found["log_while_playing"] = log.stat().st_size
        finally:
            for player in players:
                player.conn.close()  # type: ignore[attr-defined]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(
                    *(p.conn.wait_closed() for p in players),  # type: ignore[attr-defined]
                    return_exceptions=True), 15)
            await _quiet(server.pid)

    try:
        asyncio.run(run())
    except BaseException:
        print(f"\nserver stderr, the end:\n{_tail(log)}")
        raise
    finally:
        _stop_server(server)

    live = load_live(load_event(EVENT))
    assert live is not None and live.status == OVER, (
        f"the event did not end: {_status(home).get('status')}, board "
        f"{_status(home).get('board')}\n{_tail(log)}")
    began = time.perf_counter()
    fields, ranking, problems = live.results()
    found["results_s"] = time.perf_counter() - began
    assert problems == [] and len(fields) == BOARDS * 3 and ranking
    found.update(_latencies(players))
    found["mb_per_session"] = (found["rss_playing"] - found["rss_idle"]) / max(1, len(players))
    text = log.read_bytes()[:int(found["log_while_playing"])].decode(errors="replace")
    assert "Traceback" not in text, text[-3000:]
    assert len(players) == tables * 3, found
    # Every client's keys were answered (a key unanswered in ANSWER_TIMEOUT
    # counts as the slowest: a measure of a loaded machine, not a failure).
    assert not [p.name for p in players if not p.term.latencies], found
    return found


def _latencies(players: list[Player]) -> dict[str, float]:
    unanswered = sum(p.unanswered for p in players)
    latencies = sorted(x for p in players for x in p.term.latencies)
    latencies += [ANSWER_TIMEOUT] * unanswered
    keys = len(latencies)

    def at(q: float) -> float:
        return latencies[min(keys - 1, int(keys * q))] if keys else float("nan")

    return {"keys": keys, "unanswered": unanswered, "p50": at(0.5), "p95": at(0.95),
            "max": at(1.0), "sessions": len(players)}


def _print(points: dict[str, dict[str, float]], pace: float) -> None:
    print(f"\nlive event load at {pace:.2f} s a key, {os.cpu_count()} cores, --workers 1; "
          f"load average before the end {os.getloadavg()[0]:.2f}")
    print("what      tables  keys  unanswered  p50 ms  p95 ms  max ms  MB/session  server CPU"
          "  played s  results s")
    for what, p in points.items():
        print(f"{what:<9} {int(p['tables']):6d} {int(p['keys']):5d} {int(p['unanswered']):11d}"
              f" {p['p50'] * 1000:7.0f} "
              f"{p['p95'] * 1000:7.0f} {p['max'] * 1000:7.0f} {p['mb_per_session']:11.2f} "
              f"{p['server_cpu']:10.0%} {p.get('played_s', 0):9.0f}"
              f"  {p.get('results_s', float('nan')):9.3f}")


def test_a_live_event_against_ordinary_tables(benchmark, tmp_path, monkeypatch):
    monkeypatch.setattr(load, "WORKERS", "1")  # (live events play in the main process)
    points: dict[str, dict[str, float]] = {}

    def both() -> None:
        points["event"] = _event_point(TABLES, tmp_path / "event", PACE)
        seconds = min(load.PLAY_SECONDS, points["event"]["played_s"])
        points["ordinary"] = load._one_point(TABLES, tmp_path / "ordinary", browsers=False,
                                             seconds=seconds)

    try:
        benchmark.pedantic(both, rounds=1, iterations=1)
    finally:
        _print(points, PACE)
    benchmark.extra_info.update(pace_s=PACE, points={
        what: {k: round(v, 4) for k, v in p.items()} for what, p in points.items()})


@pytest.mark.short
def test_short_live_event_at_two_tables(benchmark, tmp_path, monkeypatch):
    """The event at `SHORT_TABLES` tables, quicker than a person: that it
    runs to its end and measures, as `.ci/run` runs it."""
    monkeypatch.setattr(load, "WORKERS", "1")
    point = benchmark.pedantic(lambda: _event_point(SHORT_TABLES, tmp_path / "event",
                                                    SHORT_PACE), rounds=1, iterations=1)
    _print({"event": point}, SHORT_PACE)
    assert point["keys"] > 0 and point["server_cpu"] > 0 and point["rss_playing"] > 0
    assert point["unanswered"] == 0, point
    assert point["results_s"] > 0
