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

A_WORKER = '''
import asyncio, socket, sys
from crib3.net.sharing import many_terminals_in_one_process
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
