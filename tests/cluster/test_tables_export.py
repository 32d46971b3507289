"""`crib3 tables export`: a card-room table's game as the JSON Lines log
that `crib3 verify` (and replay, review, stats) read, from this machine's
room (open tables and closed ones). From a cluster's stream: test_cluster.py."""

from __future__ import annotations

from commands import assert_clean_failure, crib3
from games import random_game

from crib3.engine import Rules
from crib3.engine.log import event_line, load_log
from crib3.room.seats import Seat
from crib3.room.storage import TableFiles

GAME = random_game(7).events


def a_room_table(folder, number, events, closed=False) -> TableFiles:
    """Table `number` of a room in `folder`, as `crib3 serve` writes it."""
    files = TableFiles(folder, number)
    files.save_seats("ann", Rules(), [Seat("ann")])
    files.start_log()
    for event in events:
        files.record(event)
    files.close_log()
    if closed:
        files.put_away()
    return files


def test_a_tables_log_exported_from_this_machines_room_verifies(crib3_home, tmp_path):
    room = crib3_home / "data" / "tables"
    a_room_table(room, 3, GAME[:120])
    a_room_table(room, 4, GAME, closed=True)
    outs = []
    for number, events in ((3, GAME[:120]), (4, GAME)):
        out = tmp_path / f"t{number}.jsonl"
        done = crib3("tables", "export", str(number), "-o", str(out), home=crib3_home)
        assert done.returncode == 0, done.stderr
        assert load_log(out).events == list(events)
        assert out.stat().st_mode & 0o077 == 0  # it tells every hidden card: its owner's alone
        outs.append(str(out))
    verified = crib3("verify", *outs, home=crib3_home)
    assert verified.returncode == 0, verified.stderr
    assert "valid, 120 events, unfinished" in verified.stdout
    assert f"valid, {len(GAME)} events, won by" in verified.stdout
    to_stdout = crib3("tables", "export", "3", home=crib3_home)
    assert to_stdout.stdout.splitlines()[1:] == [event_line(e) for e in GAME[:120]]


def test_a_table_that_is_not_there_is_one_line(crib3_home):
    assert_clean_failure(crib3("tables", "export", "9", home=crib3_home), 1)
    assert_clean_failure(crib3("tables", "export", "nine", home=crib3_home), 2)
