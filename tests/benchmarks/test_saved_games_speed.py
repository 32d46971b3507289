"""Reading saved games, on demand:
`python -m pytest tests/benchmarks/test_saved_games_speed.py --benchmark-only -s`.

Targets: `crib3 games` over 10,000 finished games under 1 s; `q` on the
new-game screen quits within 0.2 s while its scan of those games is going;
`crib3 verify` on a 200 MB log stops at its bad line 3 at once, in the
memory of one line (it took 91 s and 1.2 GB).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from commands import crib3_argv, crib3_command
from games import random_game
from logfiles import tied_cuts_log

from crib3.engine.log import make_header, write_log

GAMES = 10_000


@pytest.fixture(scope="module")
def many_games(tmp_path_factory) -> Path:
    """A crib3 home with 10,000 finished games (five real games, copied)."""
    home = tmp_path_factory.mktemp("home")
    folder = home / "data" / "games"
    folder.mkdir(parents=True)
    sources = []
    for seed in range(5):
        source = home / f"source{seed}.jsonl"
        write_log(source, random_game(seed, ("human", "standard", "easy")).events,
                  make_header())
        sources.append(source.read_bytes())
    for n in range(GAMES):
        (folder / f"2026-01-01-{n:06}-000000.jsonl").write_bytes(sources[n % 5])
    return home


def _run(*args: str, home: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*crib3_argv(), *args], capture_output=True, text=True,
                          env={**os.environ, "CRIB3_HOME": str(home)},
                          stdin=subprocess.DEVNULL, timeout=600)


def test_games_lists_10000_finished_games(benchmark, many_games):
    result = benchmark.pedantic(lambda: _run("games", home=many_games), rounds=3,
                                iterations=1)
    assert result.returncode == 0 and len(result.stdout.splitlines()) == GAMES
    seconds = benchmark.stats.stats.mean
    benchmark.extra_info["seconds"] = round(seconds, 3)
    print(f"\ncrib3 games over {GAMES:,} finished games: {seconds:.2f} s")
    assert seconds < 1.0


def _quit_time(home: Path, folder: Path) -> float:
    """Seconds from q on the new-game screen to the end of the process, in
    tmux; q is pressed as the screen appears, when the scan has begun."""
    socket = f"crib3-quit-{uuid.uuid4().hex[:8]}"
    marker = folder / f"{socket}.done"
    tmux = ["tmux", "-L", socket]
    subprocess.run([*tmux, "new-session", "-d", "-s", "t", "-x", "80", "-y", "24",
                    f"env CRIB3_HOME={home} {crib3_command()}; touch {marker}"], check=True)
    try:
        started = time.perf_counter()
        while "three-handed cribbage" not in subprocess.run(
                [*tmux, "capture-pane", "-p", "-t", "t"], capture_output=True,
                text=True).stdout:
            assert time.perf_counter() - started < 20, "no new-game screen"
            time.sleep(0.005)
        time.sleep(0.05)  # the scan starts when the screen is mounted
        subprocess.run([*tmux, "send-keys", "-t", "t", "q"], check=True)
        pressed = time.perf_counter()
        while not marker.exists():
            assert time.perf_counter() - pressed < 60, "crib3 did not quit"
            time.sleep(0.002)
        return time.perf_counter() - pressed
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
def test_quitting_the_new_game_screen_during_the_scan(benchmark, many_games, tmp_path):
    """In a real terminal: the screen is up, the scan of 10,000 finished
    games has begun (none is unfinished, so it would read them all); q, and
    the time until the process has ended, against the same with no saved
    games at all. Textual's own exit takes 0.2-0.35 s here (its key thread
    waits out two 0.1 s selects), so the target is on what the scan adds."""
    empty = tmp_path / "empty"
    empty.mkdir()
    with_scan: list[float] = []
    without: list[float] = []

    def once() -> None:
        with_scan.append(_quit_time(many_games, tmp_path))
        without.append(_quit_time(empty, tmp_path))

    benchmark.pedantic(once, rounds=5, iterations=1)
    scan, bare = sorted(with_scan)[2], sorted(without)[2]
    benchmark.extra_info.update(quit_during_scan_s=[round(t, 3) for t in with_scan],
                                quit_no_games_s=[round(t, 3) for t in without])
    print(f"\nq during the scan of {GAMES:,} games: median {scan:.3f} s "
          f"({', '.join(f'{t:.3f}' for t in with_scan)}); with no saved games: median "
          f"{bare:.3f} s ({', '.join(f'{t:.3f}' for t in without)})")
    assert scan - bare < 0.2


_MEASURE = """
import resource, subprocess, sys, time
started = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
seconds = time.perf_counter() - started
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(repr((done.returncode, done.stderr, seconds, peak)))
"""


def _measured(*args: str) -> tuple[int, str, float, int]:
    """Exit status, stderr, seconds and peak memory (KiB) of one crib3 run,
    measured by a fresh process that runs nothing else."""
    out = subprocess.run([sys.executable, "-c", _MEASURE, *crib3_argv(), *args],
                         capture_output=True, text=True, check=True).stdout
    return eval(out)  # noqa: S307 (our own repr)


@pytest.fixture(scope="module")
def big_logs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("big")
    sample = (Path(__file__).parents[2] / "assets" / "logs" / "easy-121.jsonl").read_bytes()
    lines = sample.split(b"\n")
    bad3 = folder / "bad-line-3.jsonl"
    filler = b"\n".join(lines[3:-1]) + b"\n"
    with open(bad3, "wb") as f:
        f.write(lines[0] + b"\n" + lines[1] + b"\n" + b'{"type": "Nonsense"}\n')
        while f.tell() < 200_000_000:
            f.write(filler * 100)
    bad1 = folder / "bad-first-line.jsonl"
    with open(bad1, "wb") as f:
        chunk = json.dumps({"format": "x" * 1_000_000}).encode()[:-2]
        while f.tell() < 200_000_000:
            f.write(chunk)
    valid = tied_cuts_log(folder / "valid-20mb.jsonl", 200_000)
    return {"bad3": bad3, "bad1": bad1, "valid": valid}


@pytest.mark.parametrize("which", ["bad3", "bad1", "valid"])
def test_verify_a_big_log(benchmark, big_logs, which):
    path = big_logs[which]
    size = path.stat().st_size / 1e6
    code, err, seconds, peak_kib = benchmark.pedantic(lambda: _measured("verify", str(path)),
                                                      rounds=1, iterations=1)
    benchmark.extra_info.update(megabytes=round(size), seconds=round(seconds, 3),
                                peak_mib=round(peak_kib / 1024, 1))
    print(f"\nverify {path.name} ({size:.0f} MB): exit {code}, {seconds:.2f} s, "
          f"peak {peak_kib / 1024:.0f} MiB; {err.strip()[:80]}")
    if which == "valid":
        assert code == 0
    else:
        assert code == 1 and seconds < 1.0 and peak_kib < 100 * 1024
