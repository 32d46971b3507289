"""`crib3 serve --workers N`: the sessions' apps run in worker processes,
the room stays in the main process. Headless asyncssh clients in this
process; the workers are real processes."""

from __future__ import annotations

import logging
import os
import signal

import pytest
from ssh_support import Client, seat_three, serving, until, worker_pids

pytestmark = pytest.mark.slow


async def test_the_sessions_of_one_room_run_in_two_processes(tmp_path):
    async with serving(tmp_path, workers=2) as server:
        clients, table = await seat_three(server.port, server.room)
        for client in clients:
            await client.shows("deals first")
        # A table's sessions run in one worker (crib3.net.placement); the
        # next one in the lobby goes to the worker with the fewest.
        clients.append(await Client.connect(server.port, "dee"))
        await clients[-1].shows("open a table of your own")
        pids = worker_pids(server)
        assert sorted(pids) == ["ann", "bob", "cat", "dee"]
        assert len(set(pids.values())) == 2  # the fewest sessions first
        assert os.getpid() not in pids.values()
        for pid in set(pids.values()):  # live worker processes, children of the server
            with open(f"/proc/{pid}/stat") as stat:
                assert int(stat.read().rsplit(")", 1)[1].split()[1]) == os.getpid()
        for client in clients:
            client.close()


async def test_a_worker_that_dies_ends_its_sessions_with_one_line_and_the_room_goes_on(
        tmp_path, caplog):
    caplog.set_level(logging.INFO, "crib3.serve")
    async with serving(tmp_path, workers=2) as server:
        clients, table = await seat_three(server.port, server.room)
        for client in clients:
            await client.shows("deals first")
        # (the table's sessions run in one worker: someone in the other one)
        clients.append(await Client.connect(server.port, "eve"))
        await clients[-1].shows("open a table of your own")
        people = ("ann", "bob", "cat", "eve")
        pids = worker_pids(server)
        doomed = pids["ann"]
        gone = [c for c, n in zip(clients, people) if pids[n] == doomed]
        stay = [c for c, n in zip(clients, people) if pids[n] != doomed]
        assert gone and stay
        os.kill(doomed, signal.SIGKILL)
        for client in gone:
            await until(client.terminal.closed.is_set, what="the session ended")
            text = client.terminal.text()
            assert text.count("crib3: the card room lost your session") == 1
            assert text.rstrip().endswith("connect again")
            assert b"\x1b[?1049l" in client.terminal.received[-400:]  # the terminal put back
        # the others play on, and the room takes new sessions (on a new worker too)
        await until(lambda: len([w for w in server.pool.workers if w.ready.done()]) == 2,
                    what="the worker started again")
        assert doomed not in [w.pid for w in server.pool.workers]
        for client in stay:
            assert not client.terminal.closed.is_set()
        names = [n for n in people if pids[n] == doomed]
        again = [await Client.connect(server.port, name) for name in names]
        for client in again:
            await client.shows("Hand 1")  # back at their seat
        dee = await Client.connect(server.port, "dee")
        await dee.shows("open a table of your own")
        assert table.started and not table.over and table in server.room.lobby()
        for client in [*stay, *again, dee]:
            client.close()
    assert "stopped; starting it again" in caplog.text
