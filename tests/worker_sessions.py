"""Short lobby sessions, one after another, through one session worker
(`crib3.net.worker.Worker`) in a fresh interpreter, as a card room's
visitors make them: the lobby is drawn, `?` opens the help, the
connection hangs up. What the worker holds is weighed after a warm-up and
after the sessions have come and gone (a test and a benchmark share it).
Or many at once (`at_once`): each draws its lobby and waits, idle, till
all are there, then all hang up. A browser's sessions come as the web
door opens them (`browser`: its environment, 24-bit colour)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SESSIONS = r'''
import asyncio, gc, json, os, socket, sys
from crib3.tui.textual_compat import many_terminals_in_one_process
many_terminals_in_one_process()
import crib3.net.worker as worker
from crib3.room import wire
from textual.app import App

WARM, SESSIONS, EVERY, AT_ONCE = (int(a) for a in sys.argv[1:5])
ENV = json.loads(sys.argv[5])


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6


def weigh(done):
    gc.collect()  # (what is frozen stays: the worker's own bookkeeping decides that)
    return {"sessions": done, "rss_mb": round(rss_mb(), 2), "frozen": gc.get_freeze_count(),
            "objects": len(gc.get_objects()) + gc.get_freeze_count()}


async def main():
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    one = worker.Worker(theirs, worker.app_factory("crib3.tui.room_app:CardRoomApp"))
    await one.warm_up()
    loop = asyncio.get_running_loop()
    frames, drawn, ended = wire.Frames(), {}, set()

    async def pump():
        while data := await loop.sock_recv(ours, 1 << 20):
            for m in frames.feed(data):
                if isinstance(m, wire.Output) and len(m.data) > worker.FRAME_AT_LEAST:
                    drawn[m.session] = drawn.get(m.session, 0) + 1
                elif isinstance(m, wire.Ended):
                    ended.add(m.session)

    async def until(ready):
        for _ in range(2000):
            if ready():
                return
            await asyncio.sleep(0.005)
        raise SystemExit("a session stopped drawing")

    def open_one(n):
        one.receive(wire.OpenSession(n, f"p{n}", None, False, False, 0.0, "xterm-256color",
                                     ENV), later=False)

    async def session(n):
        open_one(n)
        await until(lambda: drawn.get(n, 0) >= 1)
        one.receive(wire.Input(n, b"?"), later=False)
        await until(lambda: drawn.get(n, 0) >= 2)
        one.receive(wire.End(n, True), later=False)
        await until(lambda: n in ended)

    pumping = loop.create_task(pump())
    for n in range(1, WARM + 1):
        await session(n)
    rows = [weigh(WARM)]
    if AT_ONCE == 1:
        for n in range(WARM + 1, WARM + SESSIONS + 1):
            await session(n)
            if (n - WARM) % EVERY == 0:
                rows.append(weigh(n))
    else:
        for first in range(WARM + 1, WARM + SESSIONS + 1, AT_ONCE):
            batch = range(first, min(first + AT_ONCE, WARM + SESSIONS + 1))
            for n in batch:
                open_one(n)
                await until(lambda: drawn.get(n, 0) >= 1)
            rows.append({**weigh(batch[-1]), "open": len(batch)})
            for n in batch:
                one.receive(wire.End(n, True), later=False)
            await until(lambda: all(n in ended for n in batch))
            rows.append(weigh(batch[-1]))
    gc.unfreeze()
    gc.collect()
    apps = sum(1 for o in gc.get_objects() if isinstance(o, App))
    kept = {name: sum(1 for o in gc.get_objects() if type(o).__name__ == name)
            for name in ("StylesCache", "Strip")}
    print(json.dumps({"rows": rows, "apps_alive": apps, "kept": kept}))
    one.collector.stop()
    pumping.cancel()
    ours.close()

asyncio.run(main())
'''


BROWSER = {"LANG": "C.UTF-8", "COLORTERM": "truecolor"}  # what the web door sends


def run_sessions(home: Path, warm: int, sessions: int, every: int,
                 timeout: float = 600, at_once: int = 1, browser: bool = False) -> dict:
    """Run `warm` sessions, weigh, then `sessions` more, weighing every
    `every` (or, `at_once` above 1, that many at once, weighing while they
    are all there and after they have gone); returns {"rows": [...],
    "apps_alive": n, "kept": {...}} (apps, and the widgets' styles caches
    and lines, still in memory once every session has ended and
    everything was collected)."""
    env = {"CRIB3_HOME": str(home), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
    done = subprocess.run([sys.executable, "-c", SESSIONS, str(warm), str(sessions), str(every),
                           str(at_once), json.dumps(BROWSER if browser else {})],
                          capture_output=True, text=True, env=env, timeout=timeout)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.splitlines()[-1])
