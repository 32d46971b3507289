"""A hostile stranger at the web door, in a process of its own: the
door-flood benchmark's HTTP floods, run apart from the clients it measures
so that the flood's own CPU does not slow the measuring clients' loop (on
a real host the attacker is elsewhere; here it shares only the cores).

    python tests/flooder.py minting|malformed URL

floods the door at URL (`http://127.0.0.1:PORT`) until its stdin closes,
then prints what it got, by answer, as one JSON object:

- minting: 64 addresses (127.3.0.x), each asking `POST /api/name` for one
  new name after another (under --open each would be an identity);
- malformed: 8 connections at a time, each sending `GET /` + 8,000 `a` + NUL
  and reading the answer's first line.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections import Counter
from urllib.parse import urlsplit

import aiohttp

MINTERS = 64
MALFORMED_AT_ONCE = 8


async def minting(url: str, stop: asyncio.Event, got: Counter[str]) -> None:
    async def one(a: int) -> None:
        connector = aiohttp.TCPConnector(local_addr=(f"127.3.0.{a + 1}", 0))
        async with aiohttp.ClientSession(connector=connector) as http:
            n = 0
            while not stop.is_set():
                n += 1
                try:
                    async with http.post(f"{url}/api/name", json={"name": f"m{a}x{n}"},
                                         headers={"Origin": url}) as answer:
                        got[f"HTTP {answer.status}"] += 1
                except (aiohttp.ClientError, OSError):
                    got["failed"] += 1
                    await asyncio.sleep(0.1)

    await asyncio.gather(*(one(a) for a in range(MINTERS)))


async def malformed(url: str, stop: asyncio.Event, got: Counter[str]) -> None:
    port = urlsplit(url).port

    async def one() -> None:
        while not stop.is_set():
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                got["refused"] += 1
                await asyncio.sleep(0.1)
                continue
            try:
                writer.write(b"GET /" + b"a" * 8000 + b"\x00 HTTP/1.1\r\nHost: x\r\n\r\n")
                await writer.drain()
                answer = await asyncio.wait_for(reader.read(65536), 5)
                got[answer.split(b"\r\n", 1)[0].decode(errors="replace") or "closed"] += 1
            except (TimeoutError, ConnectionError):
                got["no answer"] += 1
            finally:
                writer.close()

    await asyncio.gather(*(one() for _ in range(MALFORMED_AT_ONCE)))


async def main(kind: str, url: str) -> Counter[str]:
    stop, got = asyncio.Event(), Counter[str]()
    flood = asyncio.ensure_future({"minting": minting, "malformed": malformed}[kind](
        url, stop, got))
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    stop.set()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(flood, 10)
    return got


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(sys.argv[1], sys.argv[2]))))
