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
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time

import asyncssh
import pytest
from ssh_support import Client, serving, until
from test_ssh_hostile import chat_key

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
