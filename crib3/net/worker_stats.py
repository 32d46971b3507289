"""What a session worker measures of itself, for the load benchmark and for
anyone asking where a slow key went (`CRIB3_WORKER_STATS=FOLDER`).

Off unless that variable names a folder; then each worker writes
`worker-PID.json` there when it stops: for each key (a session's input),
the time from its arrival in the worker to the first output of that
session (the worker's share of key -> screen); each synchronous call to
the room, how long the loop waited for it; each move sent without
waiting, how long its answer took (`moves`: the loop did not wait); each
garbage collection, the CPU time it took (CPU, not wall-clock: on a shared
machine the wall-clock pause also counts the time other programs had the
core); how many outputs the sessions sent and their bytes, and the
worker's CPU time (so a key's share of each can be told). Recording is a
clock read and a list append, so the numbers are taken under the load
they describe.

With `CRIB3_WORKER_STATS_GARBAGE=1` as well, the worker also takes a
census, once, after its 150th key: the types of what the collector finds
as cyclic garbage in the next 5 seconds (what only a collection frees; it
keeps them meanwhile, so only for a look, never for a measurement).
"""

from __future__ import annotations

import asyncio
import collections
import gc
import json
import os
import time
from pathlib import Path
from typing import Any

FOLDER_VARIABLE = "CRIB3_WORKER_STATS"


class WorkerStats:
    """Measurements of one worker process (see the module's docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.keys: list[float] = []   # seconds, key arrival -> first output
        self.calls: list[tuple[str, float]] = []  # method, seconds the loop waited
        # seconds from a move sent without waiting (`ReplicaFeed.send`) to its answer
        self.moves: list[float] = []
        self._moving: dict[int, float] = {}  # call -> when it was sent
        # generation, CPU seconds, objects freed:
        self.collections: list[tuple[int, float, int]] = []
        self.garbage: dict[str, int] = {}
        self._waiting: dict[int, float] = {}  # session -> when its unanswered key came
        self.writes = 0  # the sessions' outputs sent to the main process (frames and more)
        self.written = 0  # their bytes
        self._cpu_started = time.process_time()
        self._gc_started = 0.0
        gc.callbacks.append(self._gc)

    def key_in(self, session: int) -> None:
        self._waiting.setdefault(session, time.perf_counter())
        if len(self.keys) == 150 and os.environ.get("CRIB3_WORKER_STATS_GARBAGE") \
                and not self.garbage:
            self.garbage["started"] = 1
            gc.collect()
            gc.set_debug(gc.DEBUG_SAVEALL)
            asyncio.get_running_loop().call_later(5, self._census)

    def _census(self) -> None:
        """What the collector found as cyclic garbage in 5 s, by type."""
        gc.collect()
        gc.set_debug(0)
        kinds = collections.Counter(f"{type(o).__module__}.{type(o).__qualname__}"
                                    for o in gc.garbage)
        self.garbage.update(kinds.most_common(40))
        gc.garbage.clear()

    def output(self, session: int, size: int = 0) -> None:
        self.writes += 1
        self.written += size
        came = self._waiting.pop(session, None)
        if came is not None:
            self.keys.append(time.perf_counter() - came)

    def call_took(self, method: str, seconds: float) -> None:
        self.calls.append((method, seconds))

    def move_sent(self, call: int) -> None:
        self._moving[call] = time.perf_counter()

    def move_answered(self, call: int) -> None:
        sent = self._moving.pop(call, None)
        if sent is not None:
            self.moves.append(time.perf_counter() - sent)

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.thread_time()
        else:
            self.collections.append((int(info["generation"]),
                                     time.thread_time() - self._gc_started,
                                     int(info["collected"])))

    def write(self) -> None:
        """The numbers, as JSON, in the folder (one file per worker)."""
        path = self.folder / f"worker-{os.getpid()}.json"
        path.write_text(json.dumps({"keys": self.keys, "calls": self.calls, "moves": self.moves,
                                    "collections": self.collections,
                                    "garbage": self.garbage, "frozen": gc.get_freeze_count(),
                                    "writes": self.writes, "written": self.written,
                                    "cpu": time.process_time() - self._cpu_started}))


def from_environment() -> WorkerStats | None:
    folder = os.environ.get(FOLDER_VARIABLE)
    return WorkerStats(Path(folder)) if folder else None
