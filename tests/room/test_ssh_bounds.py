"""No one session can take the card room from the others (issue 11, points
2 to 4): a flood of keys is cut to a rate and a short queue, a client that
stops reading is not buffered without end, a huge terminal is drawn at
300×100, a storm of resizes is drawn once, and connections that come and
go at once print no traceback. Headless asyncssh clients, in this process."""

from __future__ import annotations

import asyncio
import logging
import time

import asyncssh
import pytest
from helpers import finished
from ssh_support import Client, Terminal, Visitor, serving, until
from textual import constants

from crib3.net.bounds import KEY_BURST, KEYS_PER_SECOND, MAX_BACKLOG
from crib3.net.gate import Limits

pytestmark = pytest.mark.slow


def session_of(server, name: str):
    return next(s for s in server.sessions if s.username == name)


async def open_and_close_the_dialog(client: Client) -> float:
    """Key→screen latency: seconds from pressing o to the dialog drawn."""
    client.terminal.received.clear()
    started = time.monotonic()
    client.press("o")
    await client.shows("Second seat", timeout=30)
    took = time.monotonic() - started
    client.press("\x1b")
    await client.gone("Second seat")
    # (The dialog's own title says "Open a table" too: the next o, sent at
    # once, came with the Esc as one key, Alt+O, and the dialog stayed.
    # Esc is a key of its own once nothing follows it for ESCAPE_DELAY.)
    await asyncio.sleep(constants.ESCAPE_DELAY * 3)
    return took


async def test_a_flood_of_keys_is_cut_short_and_the_others_play_on(tmp_path, monkeypatch,
                                                                   room_workers):
    """(With session workers the flood is cut in the worker, by the same
    driver: what is seen from here is that bob's keys are answered.)"""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with serving(tmp_path, workers=room_workers) as server:
        eve = await Client.connect(server.port, "eve")
        bob = await Client.connect(server.port, "bob")
        await eve.shows("Also here: bob")
        await bob.shows("Open a table")
        flooder = session_of(server, "eve")
        started = time.monotonic()
        cpu = time.process_time()
        for _ in range(25):                       # 25,000 bytes of keys at once
            eve.press(b"fh?" * 333 + b"f")
        latencies = [await open_and_close_the_dialog(bob) for _ in range(3)]
        assert max(latencies) < 2.0, latencies    # not minutes, as before
        if room_workers > 1:
            eve.close()
            await until(lambda: flooder not in server.sessions, timeout=5, what="eve's app ended")
            bob.close()
            return
        count = flooder.driver.count
        assert count.dropped_bytes + count.dropped > 20_000
        assert count.most_waiting <= MAX_BACKLOG
        elapsed = time.monotonic() - started
        assert count.delivered <= KEY_BURST + KEYS_PER_SECOND * elapsed + 1
        eve.close()
        await until(lambda: flooder not in server.sessions, timeout=5, what="eve's app ended")
        assert not flooder.app.is_running
        delivered = count.delivered
        await asyncio.sleep(0.3)
        assert count.delivered == delivered       # nothing more done for her
        print(f"\nflood: bob's key→screen {max(latencies):.3f} s at most; "
              f"CPU {time.process_time() - cpu:.2f} s over {elapsed:.2f} s; {count}")
        bob.close()


async def test_a_client_that_stops_reading_is_not_buffered_without_end(tmp_path, monkeypatch,
                                                                       room_workers):
    """(With session workers the main process tells the worker that the
    client is behind, and its driver skips frames: what is seen from here
    is the bounded buffer and the screen drawn afresh.)"""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    monkeypatch.setattr("crib3.net.session.OUTPUT_HIGH_WATER", 8192)
    monkeypatch.setattr("crib3.net.session.OUTPUT_LOW_WATER", 1024)
    async with serving(tmp_path, workers=room_workers) as server:
        conn = await asyncssh.connect("127.0.0.1", server.port, username="ann",
                                      known_hosts=None, client_keys=None, agent_path=None,
                                      preferred_auth="keyboard-interactive",
                                      client_factory=Visitor)
        chan, terminal = await conn.create_session(  # a small window: her side fills fast
            Terminal, term_type="xterm-256color", term_size=(120, 40), encoding=None,
            window=16384)
        ann = Client(conn, chan, terminal)
        await ann.shows("Open a table")
        session = session_of(server, "ann")
        ann.chan.pause_reading()                  # she reads no more
        most = 0
        for width in (100, 120) * 6:              # a dozen whole screens to send
            ann.chan.change_terminal_size(width, 40)
            await asyncio.sleep(0.12)
            most = max(most, session.chan.get_write_buffer_size())
        assert most < 8192 + 64 * 1024           # the mark and one screen, no more
        if room_workers > 1:
            ann.terminal.received.clear()
            ann.chan.resume_reading()             # back: the whole screen, afresh
            await ann.shows("Open a table")
            ann.close()
            return
        assert session.driver.count.frames_skipped > 0
        # The window's last change is drawn before counting (on a loaded
        # machine it could still be on its way, or waiting out its quiet
        # moment, and was then counted as the redraw's): one more size,
        # unlike the others, and its redraw waited for.
        ann.chan.change_terminal_size(110, 40)
        await until(lambda: session.driver._terminal_size == (110, 40)
                    and session.driver._resize_timer is None, what="the last resize drawn")
        redrawn = session.driver.count.resizes
        ann.terminal.received.clear()
        ann.chan.resume_reading()                 # back: the whole screen, afresh
        await until(lambda: not session.driver._behind, what="caught up")
        # One redraw for the screen afresh, not one for each frame skipped
        # (a dozen): a second can come when the client's last size message
        # is still in flight as she reads again (seen in a clean-clone CI
        # run, 15 against 13 + 1), so one or two, never a replay.
        assert redrawn + 1 <= session.driver.count.resizes <= redrawn + 2 \
            < redrawn + session.driver.count.frames_skipped
        await ann.shows("Open a table")
        ann.close()


async def test_a_huge_terminal_is_drawn_at_300_by_100(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with serving(tmp_path) as server:
        ann = await Client.connect(server.port, "ann", size=(1000, 1000))
        await ann.shows("Open a table")
        session = session_of(server, "ann")
        assert tuple(session.app.size) == (300, 100)
        ann.chan.change_terminal_size(5000, 4000)
        ann.chan.change_terminal_size(200, 60)
        await until(lambda: tuple(session.app.size) == (200, 60), what="200×60")
        ann.close()


async def test_a_storm_of_resizes_is_drawn_once(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with serving(tmp_path) as server:
        ann = await Client.connect(server.port, "ann")
        await ann.shows("Open a table")
        session = session_of(server, "ann")
        before = session.driver.count.resizes
        for step in range(10):
            ann.chan.change_terminal_size(90 + step, 30)
            await asyncio.sleep(0.005)
        await until(lambda: tuple(session.app.size) == (99, 30), what="the last size")
        await asyncio.sleep(0.2)
        assert session.driver.count.resizes - before == 1
        ann.close()


async def test_twenty_connections_at_once_print_no_traceback(tmp_path, monkeypatch, caplog,
                                                              capfd):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    caplog.set_level(logging.INFO, logger="crib3.serve")
    # (Twenty at once from one address: more than the door lets wait to
    # sign in from one address unless told; each name's own key holds it.)
    keys = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]
    async with serving(tmp_path, limits=Limits(start=20, per_address=20)) as server:
        bob = await Client.connect(server.port, "bob")
        await bob.shows("Open a table")

        async def come_and_go(index: int) -> None:
            # three names among twenty: each sign-in kicks the one before it,
            # often while that one's app is still starting
            client = await Client.connect(server.port, f"x{index % 3}", key=keys[index % 3])
            await asyncio.sleep(0.01 * (index % 5))
            client.close()

        await finished(asyncio.gather(*(come_and_go(i) for i in range(20))), 120,
                       "twenty sign-ins coming and going")
        assert await open_and_close_the_dialog(bob) < 2.0   # bob plays on
        await until(lambda: {s.username for s in server.sessions} == {"bob"},
                    what="the twenty gone")
        assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []
        bob.close()
    printed = capfd.readouterr()
    assert "Traceback" not in printed.err + printed.out
