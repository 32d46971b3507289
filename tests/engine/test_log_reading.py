"""Reading saved games: linear, streamed, bounded, one error style."""

from __future__ import annotations

import tracemalloc

from logfiles import ASSETS, tied_cuts_log

from crib3.engine.log import load_log
from crib3.saved.replay import Replay


def test_a_long_log_is_folded_without_copying_what_came_before(tmp_path):
    """Point 8's cause: every cut for the deal was kept in a tuple copied per
    event, so a long run of tied cuts made a fold quadratic (and a replay,
    which keeps every state, quadratic in memory). 4,000 rounds kept a
    tuple-per-state of up to 8,000 cuts: over 100 MB; shared, well under 10."""
    path = tied_cuts_log(tmp_path / "long.jsonl", 4000)
    events = load_log(path).events
    tracemalloc.start()
    try:
        replay = Replay(events)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(replay.states[-1].deal_cuts) == 8003
    assert peak < 10_000_000


# --- helpers -------------------------------------------------------------------------

import os  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402
from commands import crib3  # noqa: E402
from games import random_game  # noqa: E402

from crib3.engine import fold  # noqa: E402
from crib3.engine.log import make_header, write_log  # noqa: E402
from crib3.saved.listing import glance  # noqa: E402

SAMPLE = ASSETS / "easy-121.jsonl"
READERS = ("verify", "export", "replay", "resume", "stats")


def one_line(result: subprocess.CompletedProcess, command: str, code: int) -> str:
    """The one stderr line of a failed command, in the shared style."""
    assert result.returncode == code, result
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"crib3 {command}: "), lines[0]
    return lines[0]


def reports(result: subprocess.CompletedProcess, command: str, where: str, reason: str) -> None:
    """A bad line, told in the shared style: verify, export and stats fail
    with that one line (exit 1); replay and resume say it and go on with the
    events before it (here they then stop: no terminal, or no person in the
    first seat)."""
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert all(line.startswith(f"crib3 {command}: ") for line in lines), lines
    if command in ("replay", "resume"):
        stop = 1 if command == "replay" else 2  # replay: no terminal; resume: no person
        assert result.returncode == stop and len(lines) == 2, result
        assert lines[0].startswith(f"crib3 {command}: warning: {where}: {reason}"), lines
    else:
        assert one_line(result, command, 1).startswith(f"crib3 {command}: {where}: {reason}")


def with_line_3(tmp_path: Path, line: bytes, name: str = "bad.jsonl") -> Path:
    """The sample game with its line 3 replaced."""
    lines = SAMPLE.read_bytes().split(b"\n")
    lines[2] = line
    path = tmp_path / name
    path.write_bytes(b"\n".join(lines))
    return path


# --- point 4: deep nesting ------------------------------------------------------------


@pytest.mark.parametrize("depth, reason", [(200_000, "line too long"),
                                           (50_000, "not JSON (nested too deeply)")])
def test_a_deeply_nested_line_is_a_bad_line_for_every_reader(tmp_path, depth, reason):
    path = with_line_3(tmp_path, b"[" * depth)
    for command in READERS:
        reports(crib3(command, str(path), home=tmp_path), command, f"{path}:3", reason)


def test_deep_nesting_inside_an_event_field_is_a_bad_line(tmp_path):
    path = with_line_3(tmp_path, b'{"type": "CardCutForDeal", "seat": ' + b"[" * 900
                       + b"0" + b"]" * 900 + b', "card": "2C"}')
    line = one_line(crib3("verify", str(path)), "verify", 1)
    assert f"{path}:3: " in line


# --- point 9: read as a stream, bounded -------------------------------------------------


def test_reading_stops_at_the_first_bad_line_in_the_memory_of_one_line(tmp_path):
    """A 30 MB file bad at line 3 was read and decoded whole (a 200 MB one
    took 1.2 GB); now it is read up to line 3 only."""
    path = with_line_3(tmp_path, b'{"type": "Nonsense"}')
    with open(path, "ab") as f:
        filler = b'{"type": "GoSaid", "seat": 0, "count": 30}\n' * 1000
        for _ in range(700):
            f.write(filler)
    assert path.stat().st_size > 30_000_000
    from crib3.engine.log import LogError

    tracemalloc.start()
    try:
        with pytest.raises(LogError) as caught:
            load_log(path, keep_events=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert caught.value.line == 3 and "unknown event type" in caught.value.reason
    assert peak < 2_000_000


def test_a_line_over_64_kib_is_refused_without_being_read_whole(tmp_path):
    path = with_line_3(tmp_path, b'{"type": "GoSaid", "note": "' + b"x" * 5_000_000 + b'"}')
    from crib3.engine.log import LogError

    tracemalloc.start()
    try:
        with pytest.raises(LogError) as caught:
            load_log(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (caught.value.line, caught.value.reason.split(" (")[0]) == (3, "line too long")
    assert peak < 1_000_000
    one_line(crib3("verify", str(path)), "verify", 1)
    first = tmp_path / "first.jsonl"
    first.write_bytes(b"x" * 3_000_000)
    assert one_line(crib3("verify", str(first)), "verify", 1).startswith(
        f"crib3 verify: {first}:1: line too long")


# --- point 8: the list of games ----------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_listing_agrees_with_the_fold_at_every_point_of_a_game(tmp_path, seed):
    """The list reads only a log's first lines and its end: what it says is
    what folding the whole log says, finished or cut anywhere."""
    game = random_game(seed, ("human", "easy", "standard"))
    events = game.events
    for cut in [1, 2, 5, 9, 30, len(events) // 3, len(events) // 2, len(events) - 1,
                len(events)]:
        path = tmp_path / f"g{cut}.jsonl"
        write_log(path, events[:cut], make_header())
        seen, state = glance(path), fold(events[:cut])
        assert not seen.problem, seen.problem
        assert (seen.players, seen.scores, seen.hand_number, seen.winner) == \
            (state.players, state.scores, state.hand_number, state.winner), cut


def test_the_listing_reads_a_bounded_amount_of_each_log(tmp_path, monkeypatch):
    """Constant work per file: a 4 MB log costs the list what a short one does."""
    long = tied_cuts_log(tmp_path / "long.jsonl", 40_000)
    assert long.stat().st_size > 4_000_000
    tracemalloc.start()
    try:
        seen = glance(long)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert not seen.problem and seen.players[0].name == "Ann" and seen.winner is None
    assert peak < 2_000_000


async def test_quitting_the_new_game_screen_does_not_wait_for_the_scan(tmp_path, monkeypatch):
    """The scan for an unfinished game runs in a thread that the app waits
    for on quitting; it now stops at the first file after `q`."""
    import time

    from tui_support import wait_for

    import crib3.saved.games
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    folder = tmp_path / "data" / "games"
    folder.mkdir(parents=True)
    finished = random_game(1)
    write_log(folder / "g0000.jsonl", finished.events, make_header())
    for n in range(1, 200):
        shutil.copy(folder / "g0000.jsonl", folder / f"g{n:04}.jsonl")
    seen: list[Path] = []
    real = crib3.saved.games.glance

    def slow(path):
        seen.append(path)
        time.sleep(0.05)  # a slow disk: 200 files take 10 s
        return real(path)

    monkeypatch.setattr(crib3.saved.games, "glance", slow)
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen) and seen)
        await pilot.press("escape")
    assert len(seen) < 100


# --- point 10: resume and a damaged latest game -----------------------------------------


@pytest.fixture
def damaged_home(crib3_home):
    """An older unfinished game, and a newer one damaged at its line 60."""
    folder = crib3_home / "data" / "games"
    folder.mkdir(parents=True)
    older = random_game(2, ("human", "easy", "easy"))
    write_log(folder / "2026-01-01-100000-000000.jsonl", older.events[:100], make_header())
    newer = random_game(3, ("human", "easy", "easy"))
    damaged = folder / "2026-01-02-100000-000000.jsonl"
    write_log(damaged, newer.events[:150], make_header())
    lines = damaged.read_text().split("\n")
    lines[59] = lines[59].replace('"seat": ', '"seat": 7', 1) if '"seat": ' in lines[59] \
        else "garbage"
    damaged.write_text("\n".join(lines))
    return crib3_home, damaged, newer


def test_resume_says_the_latest_game_is_damaged_and_goes_on_with_it(damaged_home):
    home, damaged, newer = damaged_home
    before = damaged.read_bytes()
    result = crib3("resume", home=home)
    assert result.returncode == 1 and "Traceback" not in result.stderr    # 1: no terminal
    lines = result.stderr.strip().splitlines()
    assert lines[0].startswith(f"crib3 resume: warning: {damaged}:60: ")
    assert lines[1].startswith("crib3 resume: needs a full-screen terminal (")
    assert damaged.read_bytes() == before                      # left as it was
    from crib3.saved.games import open_for_resume

    game = open_for_resume(damaged)
    assert game.problem == lines[0].removeprefix("crib3 resume: warning: ")
    assert game.events == newer.events[:58] and game.damaged == damaged
    assert game.notes == [f"going on from the 58 events before line 60 of {damaged.name}, "
                          f"in {damaged.stem}-recovered.jsonl ({damaged.name} is kept as it was)"]


async def test_the_new_game_screen_resumes_a_damaged_game_from_its_last_good_line(
        damaged_home):
    from tui_support import wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen
    from crib3.tui.screens.table import TableScreen

    home, damaged, newer = damaged_home
    before = damaged.read_bytes()
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await wait_for(pilot, lambda: app.screen.unfinished == damaged)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        recovered = damaged.with_name(damaged.stem + "-recovered.jsonl")
        assert app.resume_path == recovered
        assert load_log(recovered).events[:58] == newer.events[:58]
        told = [str(n.message) for n in app._notifications]
        assert any(f"{damaged}:60: " in note for note in told)
        assert any("going on from the 58 events before line 60" in note for note in told)
    assert damaged.read_bytes() == before


# --- point 11: stats -----------------------------------------------------------------


def test_stats_reads_like_verify(tmp_path):
    missing = tmp_path / "missing.jsonl"
    assert one_line(crib3("stats", str(missing)), "stats", 2) == \
        f"crib3 stats: {missing}: no such file"
    assert one_line(crib3("stats", str(tmp_path)), "stats", 2) == \
        f"crib3 stats: {tmp_path}: is a folder, not a log"
    illegal = with_line_3(tmp_path, b'{"type": "CardCutForDeal", "seat": 0, "card": "ZZ"}')
    verify = one_line(crib3("verify", str(illegal)), "verify", 1)
    stats = crib3("stats", str(SAMPLE), str(illegal))
    assert one_line(stats, "stats", 1) == verify.replace("crib3 verify:", "crib3 stats:")
    assert "P0 (easy)" in stats.stdout and "     1" in stats.stdout  # the good one only
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + SAMPLE.read_bytes())
    for command in ("stats", "verify"):
        result = crib3(command, str(bom))
        assert result.returncode == 0 and not result.stderr, result
    for result in (crib3("stats", str(missing)), stats):
        assert not any(name in result.stderr for name in
                       ("KeyError", "JSONDecodeError", "IsADirectoryError", "utf-8-sig"))


# --- point 12: one error style -----------------------------------------------------------


def test_every_reader_reports_a_missing_file_alike(tmp_path):
    missing = tmp_path / "missing.jsonl"
    for command in READERS:
        assert one_line(crib3(command, str(missing)), command, 2) == \
            f"crib3 {command}: {missing}: no such file"


def test_every_reader_reports_a_bad_line_alike(tmp_path):
    path = with_line_3(tmp_path, b"{not json")
    for command in READERS:
        reports(crib3(command, str(path)), command, f"{path}:3", "not JSON")
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"format": "something else"}\n')
    for command in READERS:
        line = one_line(crib3(command, str(foreign)), command, 1)
        assert line.startswith(f"crib3 {command}: {foreign}:1: not a crib3 game log"), line


def test_a_trail_reads_like_the_tuple_it_replaces():
    import copy
    import pickle

    from crib3.engine.trail import Trail

    items = list(range(10))
    trail = Trail(items)
    grown = trail.plus(10)
    assert tuple(trail) == tuple(items) and trail == tuple(items) and tuple(items) == trail
    assert len(grown) == 11 and len(trail) == 10 and grown[-1] == 10 and grown[0] == 0
    assert grown[-3:] == (8, 9, 10) and grown[2:5] == (2, 3, 4) and list(reversed(grown))[0] == 10
    assert not Trail() and Trail() == () and hash(trail) == hash(tuple(items))
    long = Trail(range(100_000))
    assert pickle.loads(pickle.dumps(long)) == long and copy.deepcopy(trail) == trail


async def test_closing_the_statistics_screen_stops_its_count(tmp_path, monkeypatch):
    """The statistics are counted in a thread the app waits for on quitting:
    closing the screen stops the count at the next file."""
    import time

    from tui_support import wait_for

    import crib3.saved.games
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen
    from crib3.tui.screens.stats import StatsScreen

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    folder = tmp_path / "data" / "games"
    folder.mkdir(parents=True)
    for n in range(200):
        shutil.copy(SAMPLE, folder / f"g{n:04}.jsonl")
    counted: list[Path] = []
    real = crib3.saved.games.summarise_log

    def slow(path):
        counted.append(path)
        time.sleep(0.05)
        return real(path)

    monkeypatch.setattr(crib3.saved.games, "summarise_log", slow)
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen) and counted)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("escape")
    assert len(counted) < 100


def test_statistics_keep_their_summaries_until_a_log_changes(tmp_path):
    """Statistics verify every log (8 ms a game); the summaries of unchanged
    logs are kept in a cache beside the games, which is derived data: a
    changed log is read again, and a damaged cache is rebuilt."""
    folder = tmp_path / "data" / "games"
    folder.mkdir(parents=True)
    for n in range(3):
        shutil.copy(SAMPLE, folder / f"g{n}.jsonl")
    first = crib3("stats", home=tmp_path)
    cache = tmp_path / "data" / "stats-cache.json"
    assert first.returncode == 0 and not first.stderr and cache.exists()
    assert crib3("stats", home=tmp_path).stdout == first.stdout
    damaged = folder / "g1.jsonl"
    data = bytearray(damaged.read_bytes())
    data[data.index(b'"seat": 1')+8] = ord("7")                # same size, now invalid
    damaged.write_bytes(bytes(data))
    os.utime(damaged, ns=(1, 1))
    again = crib3("stats", home=tmp_path)
    assert one_line(again, "stats", 0).startswith(f"crib3 stats: {damaged}:")
    assert again.stdout != first.stdout and "     2" in again.stdout
    cache.write_text("[[[ not a cache")
    shutil.copy(SAMPLE, damaged)
    assert crib3("stats", home=tmp_path).stdout == first.stdout
