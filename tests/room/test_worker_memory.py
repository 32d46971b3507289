"""What a session worker (`crib3.net.worker`) holds before its first
session, and what the first session adds (issue 11: <= 5 MB a session).

The load benchmark weighs the server when it says it listens, which is once
every worker has warmed up; whatever the first session of a worker then
brings in (modules, their libraries) is charged to the sessions. Measured:
the first session of each worker imported `crib3.net.server` for one
function, and with it asyncssh and its cryptography, some 18 MB a worker;
and the warm-up ended its app on the pointer's shape, before any screen
was drawn."""

from __future__ import annotations

import subprocess
import sys

import pytest

A_WORKER = '''
import asyncio, socket, sys
from crib3.tui.textual_compat import many_terminals_in_one_process
many_terminals_in_one_process()
import crib3.net.worker as worker
from crib3.room import wire

writes = []
for_channel = worker.ChannelDriver.for_channel

def spied(channel):
    class Spy:
        def write(self, data):
            writes.append(len(data))
            channel.write(data)
    return for_channel(Spy())

async def main():
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    one = worker.Worker(theirs, worker.app_factory("crib3.tui.room_app:CardRoomApp"))
    worker.ChannelDriver.for_channel = staticmethod(spied)
    await one.warm_up()
    worker.ChannelDriver.for_channel = for_channel
    warm = set(sys.modules)
    print("warm-up wrote", max(writes, default=0))
    one.receive(wire.OpenSession(1, "ann", None, False, False, 0.0, "xterm-256color"),
                later=False)
    frames, drawn = wire.Frames(), 0
    loop = asyncio.get_running_loop()
    while drawn <= worker.FRAME_AT_LEAST:
        data = await loop.sock_recv(ours, 1 << 20)
        assert data, "the worker closed its socket"
        drawn = max([drawn] + [len(m.data) for m in frames.feed(data)
                               if isinstance(m, wire.Output)])
    print("the first session imported:", " ".join(sorted(set(sys.modules) - warm)))
    one.collector.stop()
    ours.close()

asyncio.run(main())
'''


def run_worker(tmp_path) -> list[str]:
    env = {"CRIB3_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
    done = subprocess.run([sys.executable, "-c", A_WORKER], capture_output=True, text=True,
                          env=env, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def test_a_workers_warm_up_draws_a_screen_and_its_first_session_imports_nothing(tmp_path):
    from crib3.net.worker import FRAME_AT_LEAST

    warm_up, first = run_worker(tmp_path)
    assert int(warm_up.split()[-1]) > FRAME_AT_LEAST, "the warm-up drew no screen"
    assert first.rstrip() == "the first session imported:", first


def test_the_lines_kept_for_every_app_share_their_styles():
    """Before: each kept line held the Rich styles of the drawing that made
    it, equal to every other drawing's yet objects of their own (some
    13,000 in a worker after a minute of play)."""
    import gc
    from types import SimpleNamespace

    from rich.segment import Segment
    from rich.style import Style
    from rich.terminal_theme import DEFAULT_TERMINAL_THEME
    from textual.color import Color
    from textual.filter import ANSIToTruecolor
    from textual.strip import Strip
    from textual.widget import Widget

    from crib3.tui.textual_compat import many_terminals_in_one_process

    many_terminals_in_one_process()
    widget = SimpleNamespace(app=SimpleNamespace(
        get_line_filters=lambda: [ANSIToTruecolor(DEFAULT_TERMINAL_THEME)]))
    (truecolor,) = Widget.get_line_filters(widget)  # type: ignore[arg-type]
    background = Color(1, 2, 3)

    def drawn(text: str, color: str) -> Strip:  # a drawing's own style object
        return Strip([Segment(text, Style(color=color, bold=True)), Segment(" 15 for 2")])

    lines = [drawn(f"seat {n}", "#ff0000").apply_filter(truecolor, background)
             for n in range(50)]
    assert [line.text for line in lines[:2]] == ["seat 0 15 for 2", "seat 1 15 for 2"]
    del lines
    gc.collect()
    alike = Style(color="#ff0000", bold=True)
    kept = [o for o in gc.get_objects() if type(o) is Style and o == alike and o is not alike]
    assert len(kept) <= 2, len(kept)  # (before: one for each of the 50 lines)
    # a colour the filter changes, and the same line again: the kept one
    first = drawn("Ann", "red").apply_filter(truecolor, background)
    assert first._segments[0].style.color.triplet is not None  # (truecolor now)
    assert drawn("Ann", "red").apply_filter(truecolor, background) is first


@pytest.mark.slow
def test_a_workers_memory_comes_back_after_its_sessions_have_gone(tmp_path):
    """Before: Textual's terminal parser kept, in a cache of the whole
    process, each session's parser and (through its keys) its app: every
    ended session stayed, some 150 KB each, and a worker only grew. Now the
    ended sessions' apps are freed, and what the worker holds levels off
    after its bounded caches fill (the first sessions)."""
    from worker_sessions import run_sessions

    # (Warm until the bounded caches have filled: on the lowest Textual the
    # range allows, that takes some 90 short sessions, not 30.)
    found = run_sessions(tmp_path, warm=90, sessions=60, every=30)
    warm, middle, last = found["rows"]
    assert found["apps_alive"] == 0, found
    # Without the fix: some 800 more objects a session, and 5 MB more each
    # 30 sessions; bounded, what the last 30 sessions left is near nothing.
    assert last["objects"] - middle["objects"] < 6000, found
    assert last["rss_mb"] - warm["rss_mb"] < 6, found
