"""`crib3 serve --metrics`: what a host's monitoring scrapes while a table
plays: /metrics in the Prometheus text format (parsed here by
prometheus_client's own parser) and /healthz, on a listener of their own."""

from __future__ import annotations

import asyncio
import re

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from ssh_support import Client, free_port, start_serving

pytestmark = pytest.mark.slow


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_metrics_while_a_table_plays(tmp_path):
    port, metrics = free_port(), free_port()
    server = start_serving(tmp_path, "--port", str(port), "--open", "--workers", "2",
                           "--per-address", "2", "--metrics", str(metrics))
    url = f"http://127.0.0.1:{metrics}"

    async def play() -> tuple[str, int, str]:
        ann = await Client.connect(port, "ann", source="127.0.0.2")
        await ann.shows("Open a table")
        ann.press("o")
        await ann.shows("Second seat")
        ann.press("\r")  # a table, the computer players in the other seats
        await ann.shows("start the game")
        ann.press("\r")
        await ann.shows("Enter: go on")
        for _ in range(3):  # keys that draw: the feed opened and closed
            ann.press("f")
            await asyncio.sleep(0.3)
        silent = []
        for _ in range(4):  # past --per-address: refused before signing in
            try:
                silent.append((await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=("127.0.0.9", 0)))[1])
            except OSError:
                pass
        await asyncio.sleep(0.5)
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{url}/metrics") as answer:
                text = await answer.text()
                kind = answer.headers["Content-Type"]
            async with http.get(f"{url}/healthz") as health:
                status = health.status
        for writer in silent:
            writer.close()
        ann.close()
        return text, status, kind

    try:
        text, status, kind = asyncio.run(play())
    finally:
        server.terminate()
        server.wait(timeout=15)
    assert status == 200 and kind.startswith("text/plain")
    found = samples(text)
    assert found[("crib3_sessions", (("door", "ssh"),))] >= 1
    assert found[("crib3_tables_open", ())] >= 1
    assert found[("crib3_key_to_screen_seconds_count", ())] >= 1
    assert found[("crib3_refused_before_sign_in_total", (("reason", "per-address"),))] >= 1
    workers = [key for key in found if key[0] == "crib3_worker_memory_bytes"]
    assert len(workers) == 2 and all(found[key] > 10_000_000 for key in workers)
    assert found[("crib3_main_memory_bytes", ())] > 10_000_000
    log = (tmp_path / "serve.log").read_text()
    assert re.search(rf"metrics at http://127\.0\.0\.1:{metrics}/metrics", log)
    assert "Traceback" not in log


def test_a_metrics_port_in_use_is_one_line(tmp_path):
    import socket

    from commands import assert_clean_failure, crib3

    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        done = crib3("serve", "--open", "--port", "0", "--metrics",
                     str(taken.getsockname()[1]), home=tmp_path)
    finally:
        taken.close()
    assert_clean_failure(done, 1)
    assert "cannot serve the metrics on 127.0.0.1:" in done.stderr
