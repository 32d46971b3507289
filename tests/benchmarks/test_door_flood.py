"""The card room's door under a pre-auth flood: a seated table's key→screen
before, during and after.

Run on demand:
`python -m pytest tests/benchmarks/test_door_flood.py --benchmark-only -s`

A card room (with keys, in this process) with a table of three started;
the first player's key→screen (c opens the chat line, Esc closes it) is
measured 20 times before; then `CRIB3_FLOOD_SOCKETS` (1,200, or as many as
this process's open-file limit, raised to its hard limit, allows) silent
TCP connections from 60 loopback addresses, and 50 clients cycling wrong
keys (ten keys a connection, again and again, from five addresses), while
it is measured 20 times more; then again once the flood has stopped. Printed:
p50 and p95 of each period, and what the door did (refused, made way,
keys looked at).

`test_web_and_input_floods_against_a_seated_table`: a real `crib3 serve
--open --web` (its own process, its session workers, none of its limits
lifted) with a started table of three: ann over SSH and bob in a browser
(each measured: c opens the chat line, Esc closes it), cat over SSH; and
two spectators, eve over SSH and ivy in a browser. Then, one after the
other, each for `CRIB3_FLOOD_SECONDS` (8) at least and while ann and bob
are measured `CRIB3_FLOOD_KEYS` (10) times each, then measured as many
times again once it stopped:

- slow headers: `CRIB3_FLOOD_SLOW` (16) addresses, 16 connections each,
  each sending a header byte every 5 s (and again as soon as closed);
- identity minting: 64 addresses, each asking `POST /api/name` for one
  new name after another (from `tests/flooder.py`, a process of its own,
  so that the flood's CPU does not slow the measuring clients' event
  loop: on a real host the attacker is elsewhere);
- malformed requests: 8 connections at a time sending `GET /` + 8,000
  `a` + NUL, again and again (from `tests/flooder.py` too), and ivy's
  websocket sending `{"cols": Infinity}` frames;
- focus reports: eve and ivy sending `ESC [ O ESC [ I` x 50 every 80 ms
  (just inside the byte allowance) from their seats beside the table.

Printed: p50 and p95 of ann's and bob's key→screen before, during and
after each flood, what serve.log (the server's stderr) grew by during it
and after, how many of three page loads by a new browser (from an address
of its own) succeeded during it, and what the flood got (answers by
status); and the machine's load average. Asserted only that every key
was answered, a new browser still loads the page at the end, and
serve.log holds no traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import asyncssh
import pytest
from helpers import finished
from ssh_support import Client, person_address, serving, until
from test_ssh_hostile import chat_key
from test_web_door_hostile import page_loads, slow_loris
from web_support import WebClient

from benchmarks.test_ssh_load import _start_server, _stop_server, _tail, _web_port
from crib3.net.gate import open_files_limit, raise_open_files


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, int(len(values) * 0.95) - 1)]


@pytest.mark.slow
def test_pre_auth_flood_against_a_seated_table(benchmark, tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    raise_open_files()
    sockets = min(int(os.environ.get("CRIB3_FLOOD_SOCKETS", "1200")),
                  open_files_limit() // 2 - 200)
    results: dict[str, list[float]] = {}

    async def run() -> str:
        names = ("ann", "bob", "cat")
        friends = {n: asyncssh.generate_private_key("ssh-ed25519") for n in names}
        keys = tmp_path / "authorized_keys"
        keys.write_bytes(b"".join(k.export_public_key() for k in friends.values()))
        async with serving(tmp_path, keys=keys) as server:
            clients = [await Client.connect(server.port, n, key=friends[n]) for n in names]
            owner = clients[0]
            await owner.shows("Open a table")
            owner.press("o")
            await owner.shows("Second seat")
            owner.press("\r")
            await until(lambda: server.room.tables, what="the table")
            table = next(iter(server.room.tables.values()))
            for client in clients[1:]:
                await client.shows("waiting")
                client.press("\r")
            await until(lambda: all(s.name for s in table.seats), what="three seated")
            await owner.shows("start the game")
            owner.press("\r")
            await until(lambda: table.started, what="the start")
            results["before"] = [await chat_key(owner) for _ in range(20)]
            stop = asyncio.Event()
            writers = []
            for i in range(sockets):
                try:
                    _, writer = await asyncio.open_connection(
                        "127.0.0.1", server.port, local_addr=(f"127.0.7.{i % 60 + 1}", 0))
                    writers.append(writer)
                except OSError:
                    break
            wrong = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(10)]

            async def cycler(index: int) -> None:
                while not stop.is_set():
                    try:
                        await Client.connect(server.port, "eve", key=wrong,
                                             source=f"127.0.8.{index % 5 + 1}")
                    except (OSError, asyncssh.Error):
                        pass
                    await asyncio.sleep(0.05)

            tries = server.tries
            cyclers = [asyncio.ensure_future(cycler(i)) for i in range(50)]
            results["during"] = [await chat_key(owner) for _ in range(20)]
            stop.set()
            await asyncio.gather(*cyclers)
            for writer in writers:
                writer.close()
            looked_at = server.tries - tries
            await asyncio.sleep(1)
            results["after"] = [await chat_key(owner) for _ in range(20)]
            gate = server.gate
            for client in clients:
                client.close()
            return (f"{len(writers)} silent sockets, {gate.refused} refused, {gate.evicted} made "
                    f"way, {looked_at} keys looked at; pending cap {gate.full}")

    started = time.monotonic()
    said = benchmark.pedantic(lambda: asyncio.run(run()), rounds=1, iterations=1)
    print(f"\n{said}; {time.monotonic() - started:.0f} s")
    for period, values in results.items():
        print(f"{period}: p50 {statistics.median(values) * 1000:.0f} ms, "
              f"p95 {p95(values) * 1000:.0f} ms")


# --- the web door's floods and the input's, against a real `crib3 serve` ---------------

FLOOD_SECONDS = float(os.environ.get("CRIB3_FLOOD_SECONDS", "8"))
FLOOD_KEYS = int(os.environ.get("CRIB3_FLOOD_KEYS", "10"))
SLOW_ADDRESSES = int(os.environ.get("CRIB3_FLOOD_SLOW", "16"))
CTRL_END = "\x1b[1;5F"
FOCUS = b"\x1b[O\x1b[I" * 50


async def _measure(ssh: Client, browser: WebClient) -> tuple[list[float], list[float]]:
    """`FLOOD_KEYS` key→screens of each seated player, in turns."""
    ssh_times, browser_times = [], []
    for _ in range(FLOOD_KEYS):
        ssh_times.append(await chat_key(ssh))
        browser_times.append(await chat_key(browser))  # type: ignore[arg-type]
    return ssh_times, browser_times


async def _slow_headers(port: int, stop: asyncio.Event, got: Counter[str]) -> None:
    got["connections"] = SLOW_ADDRESSES * 16
    await asyncio.gather(*(slow_loris(port, person_address(a, block=2), stop, every=5.0)
                           for a in range(SLOW_ADDRESSES) for _ in range(16)))


async def _apart(kind: str, url: str, stop: asyncio.Event, got: Counter[str]) -> None:
    """`tests/flooder.py KIND URL` in a process of its own until `stop`;
    what it got, counted into `got`."""
    flooder = await asyncio.create_subprocess_exec(
        sys.executable, str(Path(__file__).parent.parent / "flooder.py"), kind, url,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    try:
        await stop.wait()
        out, _ = await finished(flooder.communicate(b""), 30, f"the {kind} flooder's report")
    finally:
        if flooder.returncode is None:
            flooder.kill()
            await finished(flooder.wait(), 10, f"the {kind} flooder, killed")
    got.update(json.loads(out.decode().splitlines()[-1]))


async def _frames(ivy: WebClient, stop: asyncio.Event, got: Counter[str]) -> None:
    """A browser's websocket control frames the server cannot take
    (a size of Infinity), beside the malformed requests."""
    while not stop.is_set():
        ivy.send_text('{"cols": Infinity, "rows": 24}')
        got["Infinity frames"] += 1
        await asyncio.sleep(0.05)


async def _focus(eve: Client, ivy: WebClient, stop: asyncio.Event, got: Counter[str]) -> None:
    while not stop.is_set():
        eve.press(FOCUS)
        ivy.press(FOCUS)
        got["focus reports"] += 2 * 100
        await asyncio.sleep(0.08)


async def _sit(clients: list, names: list[str]) -> None:
    """The first opens a table, the others sit at it (Ctrl+End to the
    newest, then Enter), the first starts it."""
    owner, *joiners = clients
    owner.press("o")
    await owner.shows("Seats nobody takes", timeout=60)
    owner.press("\r")
    await owner.shows("start the game", timeout=60)
    for joiner in joiners:
        joiner.press(CTRL_END)
        await asyncio.sleep(0.5)
        joiner.press("\r")
        await joiner.shows(f"Waiting for {names[0]}", timeout=60)
    await owner.shows(names[-1], timeout=60)
    owner.press("\r")
    for client in clients:
        await client.shows("pts", timeout=60)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


@pytest.mark.slow
def test_web_and_input_floods_against_a_seated_table(benchmark, tmp_path):
    raise_open_files()
    log = tmp_path / "serve.log"
    server, port = _start_server(tmp_path / "home", log, tmp_path / "stats", web=True)
    web_port = _web_port(log)
    door = SimpleNamespace(url=f"http://127.0.0.1:{web_port}")
    rows: list[tuple[str, str, list[float], list[float], int]] = []
    effects: dict[str, Counter[str]] = {}
    said: dict[str, bool] = {}

    async def run() -> None:
        ssh: list[Client] = []
        browsers: list[WebClient] = []
        try:
            for n, name in enumerate(("ann", "cat", "eve")):
                ssh.append(await Client.connect(port, name, source=person_address(n)))
            for name in ("bob", "ivy"):
                browsers.append(await WebClient.connect(door, name=name))  # type: ignore[arg-type]
            (ann, cat, eve), (bob, ivy) = ssh, browsers
            for client in (ann, bob, cat, eve, ivy):
                await client.shows("Open a table", timeout=60)
            await _sit([ann, bob, cat], ["ann", "bob", "cat"])
            for spectator in (eve, ivy):
                spectator.press("w")
                await spectator.shows("(you are watching)", timeout=60)
            rows.append(("none", "before", *await _measure(ann, bob), 0))
            floods = {
                "slow headers": lambda stop, got: _slow_headers(web_port, stop, got),
                "identity minting": lambda stop, got: _apart("minting", door.url, stop, got),
                "malformed requests": lambda stop, got: asyncio.gather(
                    _apart("malformed", door.url, stop, got), _frames(ivy, stop, got)),
                "focus reports": lambda stop, got: _focus(eve, ivy, stop, got),
            }
            for name, flood in floods.items():
                stop, got = asyncio.Event(), Counter[str]()
                size = log.stat().st_size
                task = asyncio.ensure_future(flood(stop, got))
                started = time.monotonic()
                await asyncio.sleep(1)  # (the flood well begun)
                during = await _measure(ann, bob)
                # and a new browser, from an address of its own, loads the page
                loads = [await page_loads(f"{door.url}/", person_address(10 + len(rows) * 3 + n))
                         for n in range(3)]
                got["new browser's page loads"] = sum(loads)
                await asyncio.sleep(max(0.0, FLOOD_SECONDS - (time.monotonic() - started)))
                stop.set()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.gather(task, return_exceptions=True), 15)
                grew = log.stat().st_size - size
                got["seconds"] = round(time.monotonic() - started)
                effects[name] = got
                rows.append((name, "during", *during, grew))
                rows.append((name, "after", *await _measure(ann, bob),
                             log.stat().st_size - size - grew))
            said["page loads"] = await page_loads(f"{door.url}/", person_address(3))
        finally:
            for one in ssh:
                one.close()
            for browser in browsers:
                await browser.aclose()

    started = time.monotonic()
    try:
        benchmark.pedantic(lambda: asyncio.run(run()), rounds=1, iterations=1)
    except BaseException:
        print(f"\nserve.log, the end:\n{_tail(log)}")
        raise
    finally:
        _stop_server(server)
    print(f"\nweb and input floods, {time.monotonic() - started:.0f} s, load average "
          f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; key→screen ms (c, the chat "
          f"line), {FLOOD_KEYS} keys a player a period")
    print("flood               period   SSH p50  p95   browser p50  p95   serve.log +bytes")
    for name, period, ssh_times, browser_times, grew in rows:
        print(f"{name:19s} {period:7s} {_p(ssh_times, 0.5) * 1000:8.0f} "
              f"{_p(ssh_times, 0.95) * 1000:4.0f} {_p(browser_times, 0.5) * 1000:12.0f} "
              f"{_p(browser_times, 0.95) * 1000:4.0f} {grew:18d}")
    for name, got in effects.items():
        print(f"{name}: " + ", ".join(f"{what} {n}" for what, n in got.most_common()))
    text = log.read_text(errors="replace")
    print(f"serve.log at the end: {len(text.encode())} bytes")
    benchmark.extra_info.update(rows=[(n, p, round(_p(s, 0.5), 4), round(_p(s, 0.95), 4),
                                       round(_p(b, 0.5), 4), round(_p(b, 0.95), 4), g)
                                      for n, p, s, b, g in rows])
    assert said.get("page loads"), "a new browser could not load the page after the floods"
    assert "Traceback" not in text, text[-3000:]
