"""What a card-room session's start costs the server: the CPU time from
making a session's app to its first lobby frame, then its end.

Run on demand:
`python -m pytest tests/benchmarks/test_session_start.py --benchmark-only -s`

Every SSH connection runs an app of its own on the server's one event loop,
so a burst of people connecting (or a client reconnecting in a loop) is paid
for by everybody's screens. This makes sessions the way the server does
(`CardRoomApp` on a `ChannelDriver`, a 256-colour client) on a channel that
only counts bytes, one after another in one process, and prints the median
and p90 CPU seconds (`time.process_time`) a session took from its app being
made to its first lobby frame and its app ending. The first session is left
out: it pays for imports and caches the others share.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from crib3.net.console import client_console
from crib3.net.driver import ChannelDriver
from crib3.room import Room
from crib3.tui.room_app import CardRoomApp
from crib3.tui.textual_compat import many_terminals_in_one_process

SESSIONS = 21


class FirstFrame:
    """A channel that keeps nothing but notices the lobby's first frame."""

    def __init__(self) -> None:
        self.seen = asyncio.Event()
        self.text = b""

    def write(self, data: bytes) -> None:
        if not self.seen.is_set():
            self.text += data
            if b"You are" in self.text:
                self.seen.set()


async def one_session(room: Room, name: str) -> float:
    """CPU seconds for one session, from its app to its first frame and end."""
    started = time.process_time()
    presence = room.sign_in(name, None, lambda reason: None)
    channel = FirstFrame()
    app = CardRoomApp(room, presence, think=0)
    client_console(app, "xterm-256color", {})
    app.driver_class = ChannelDriver.for_channel(channel)
    task = asyncio.get_running_loop().create_task(app.run_async(size=(80, 24)))
    await asyncio.wait_for(channel.seen.wait(), 30)
    app.exit()
    await task
    room.depart(presence)
    return time.process_time() - started


async def measure(folder: Path, sessions: int = SESSIONS) -> list[float]:
    many_terminals_in_one_process()
    room = Room(folder, think=0)
    costs = [await one_session(room, f"p{n}") for n in range(sessions)]
    room.close()
    return costs[1:]


@pytest.mark.short
def test_short_session_starts(benchmark, tmp_path):
    """The short version `.ci/run` runs: a few sessions made, each to its
    first lobby frame and its end; asserted only that each did and was
    measured, never a time."""
    found: dict[str, list[float]] = {}
    benchmark.pedantic(lambda: found.update(costs=asyncio.run(measure(tmp_path, 4))),
                       rounds=1, iterations=1)
    print(f"\na card-room session's start, CPU ms: "
          f"{', '.join(f'{c * 1000:.1f}' for c in found['costs'])}")
    assert len(found["costs"]) == 3 and all(c > 0 for c in found["costs"]), found


def test_a_session_start_costs(benchmark, tmp_path):
    found: dict[str, list[float]] = {}
    benchmark.pedantic(lambda: found.update(costs=asyncio.run(measure(tmp_path))),
                       rounds=1, iterations=1)
    costs = sorted(found["costs"])
    median, p90 = costs[len(costs) // 2], costs[int(len(costs) * 0.9)]
    benchmark.extra_info.update(sessions=len(costs), cpu_median_ms=round(median * 1000, 1),
                                cpu_p90_ms=round(p90 * 1000, 1))
    print(f"\na card-room session's start, {len(costs)} sessions: CPU median "
          f"{median * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms")
