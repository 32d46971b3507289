"""A card-room table's log: written before an event is relayed, so the
server killed right after (kill -9) keeps it; fsynced off the event loop,
and a failed fsync stops the table's next event as a full disk does."""

from __future__ import annotations

import errno
import logging
import os
import subprocess
import sys
import textwrap

import pytest

from crib3.engine import Rules
from crib3.engine.log import event_line, parse_log
from crib3.room import Room

# The server, in a process of its own: three people at a table, seat 0's
# screen following it. The first event relayed to that screen after the
# deal is printed, and the process kills itself at once (no exit handler,
# no flush, no pending fsync runs).
SERVER = textwrap.dedent("""
    import asyncio, os, pathlib, signal, sys
    from crib3.engine import Rules
    from crib3.engine.commands import Discard
    from crib3.engine.log import event_line
    from crib3.room import Room

    async def main():
        room = Room(pathlib.Path(sys.argv[1]), think=0)
        people = [room.sign_in(n, None, lambda r: None) for n in ("Ann", "Bob", "Cat")]
        table = room.open_table(people[0], Rules(target=61), ("easy", "easy"))
        table.sit(people[1]), table.sit(people[2])
        table.start("Ann")

        def relay(event, state, view):
            sys.stdout.write(event_line(event) + "\\n")
            sys.stdout.flush()
            os.kill(os.getpid(), signal.SIGKILL)

        feed = table.feed(0)
        feed.follow(relay)
        feed.dispatch(feed.game.legal_moves(0)[0])

    asyncio.run(main())
""")


def test_a_server_killed_right_after_relaying_an_event_has_it_in_the_log(tmp_path):
    folder = tmp_path / "tables"
    done = subprocess.run([sys.executable, "-c", SERVER, str(folder)], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == -9, done.stderr
    relayed = done.stdout.strip()
    assert relayed.startswith("{"), done.stderr
    _, events, _ = parse_log(folder / "table-1.jsonl")
    assert event_line(events[-1][1]) == relayed


async def test_a_failed_fsync_stops_the_tables_next_event_as_a_full_disk(tmp_path,
                                                                         monkeypatch,
                                                                         caplog):
    room = Room(tmp_path / "tables", think=0)
    people = [room.sign_in(n, None, lambda r: None) for n in ("Ann", "Bob", "Cat")]
    table = room.open_table(people[0], Rules(target=61), ("easy", "easy"))
    table.sit(people[1]), table.sit(people[2])
    table.start("Ann")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    caplog.set_level(logging.ERROR, "crib3.log")
    feed = table.feed(0)
    feed.dispatch(feed.game.legal_moves(0)[0])  # written; its fsync fails meanwhile
    assert table.files._writer._group.wait(30), "the failed fsync never ended"  # type: ignore[union-attr]  # (the test waits for it)
    feed = table.feed(1)
    with pytest.raises(OSError) as failed:  # as a write to a full disk raises
        feed.dispatch(feed.game.legal_moves(1)[0])
    assert failed.value.errno == errno.ENOSPC
    errors = [r for r in caplog.records if r.name == "crib3.log"]
    assert len(errors) == 1 and "table-1.jsonl" in errors[0].getMessage()
    monkeypatch.undo()
    table.close_by("Ann")
