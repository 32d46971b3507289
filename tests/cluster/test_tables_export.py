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


def test_a_matchs_games_are_exported_one_by_one_the_last_by_default(crib3_home, tmp_path):
    """A match's table keeps a log a game: `--game K` exports game K, and
    without it the game under way is exported, with a line that says it is
    one of several; a game it does not have is one line."""
    room = crib3_home / "data" / "tables"
    second = random_game(8).events
    files = a_room_table(room, 5, GAME)
    files.start_log()
    files.file_game()  # (the first game won: filed as game 1)
    files.start_log()
    for event in second:
        files.record(event)
    files.file_game()
    files.start_log()
    for event in GAME[:40]:
        files.record(event)
    files.close_log()
    for game, events in ((1, GAME), (2, second), (3, GAME[:40]), (None, GAME[:40])):
        out = tmp_path / f"game-{game}.jsonl"
        chosen = [] if game is None else ["--game", str(game)]
        done = crib3("tables", "export", "5", *chosen, "-o", str(out), home=crib3_home)
        assert done.returncode == 0, done.stderr
        assert load_log(out).events == list(events), game
        assert ("game 3 of 3" in done.stderr) == (game is None), done.stderr
    assert_clean_failure(crib3("tables", "export", "5", "--game", "4", home=crib3_home), 1)
    assert_clean_failure(crib3("tables", "export", "5", "--game", "0", home=crib3_home), 2)
