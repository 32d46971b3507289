"""A log fsynced later (`sync=LATER`, the card room's): the writer never
waits on the disk, one fsync covers the lines written while another was
under way, and a failed fsync is logged once and fails the next write."""

from __future__ import annotations

import errno
import logging
import os
import threading

import pytest

from crib3.engine.events import GameStarted, PlayerInfo, Rules
from crib3.engine.log import LATER, LogWriter, parse_log

EVENT = GameStarted((PlayerInfo("Ann", "human"), PlayerInfo("Bob", "easy"),
                     PlayerInfo("Cat", "easy")), Rules(), 1)


class HeldFsync:
    """`os.fsync` that waits at a gate until the test opens it, and counts
    its calls and the threads they came from."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.calls = 0
        self.threads: set[int] = set()
        self.started = threading.Event()

    def __call__(self, fd: int) -> None:
        self.calls += 1
        self.threads.add(threading.get_ident())
        self.started.set()
        self.gate.wait(5)


def test_appending_does_not_wait_for_the_fsync_and_one_fsync_covers_a_burst(tmp_path,
                                                                             monkeypatch):
    held = HeldFsync()
    monkeypatch.setattr(os, "fsync", held)
    path = tmp_path / "g.jsonl"
    writer = LogWriter(path, sync=LATER)  # the header: its fsync starts, and is held
    assert held.started.wait(5)
    for _ in range(10):
        writer.append(EVENT)  # returns while the disk is busy
    # Every line is with the operating system already: a crash would lose none.
    assert len(parse_log(path)[1]) == 10
    assert threading.get_ident() not in held.threads
    assert held.calls == 1
    held.gate.set()
    writer.close()  # waits for the last fsync
    assert held.calls == 2  # the header's, and one for the ten lines written meanwhile


def test_a_failed_fsync_is_logged_once_and_fails_the_next_write(tmp_path, monkeypatch,
                                                                 caplog):
    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    path = tmp_path / "g.jsonl"
    writer = LogWriter(path, sync=LATER)
    writer.append(EVENT)
    writer.close()
    monkeypatch.setattr(os, "fsync", full)
    caplog.set_level(logging.ERROR, "crib3.log")
    writer = LogWriter(path, sync=LATER)
    writer.append(EVENT)  # written; its fsync fails in the background
    assert writer._group.wait(30), "the failed fsync never ended"  # type: ignore[union-attr]  # (the test waits for the thread)
    for _ in range(2):
        with pytest.raises(OSError) as failed:
            writer.append(EVENT)
        assert failed.value.errno == errno.ENOSPC
    writer.close()
    errors = [r for r in caplog.records if r.name == "crib3.log"]
    assert len(errors) == 1 and str(path) in errors[0].getMessage()
    assert "No space left" in errors[0].getMessage()
    # What was written before the failure is there; nothing after it.
    monkeypatch.undo()
    assert len(parse_log(path)[1]) == 2
