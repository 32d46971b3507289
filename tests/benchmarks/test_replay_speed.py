"""Replay and statistics speed, on demand:
`python -m pytest tests/benchmarks/test_replay_speed.py --benchmark-only -s`.

Targets: one replay step within a frame (16 ms); opening a log for replay
within 100 ms (reported per 1,500 events, since one game has about 400);
`crib3 stats` over 1,000 saved games.
"""

from __future__ import annotations

import asyncio
import time

from games import games_totalling, random_game

from crib3.engine.log import load_log
from crib3.saved.games import saved_paths, stats_from_files
from crib3.saved.replay import Replay
from crib3.study import sim


def _games_of_1500_events(tmp_path):
    return games_totalling(tmp_path, kinds=("human", "standard", "expert"))


def test_open_for_replay(benchmark, tmp_path):
    paths, events = _games_of_1500_events(tmp_path)
    benchmark(lambda: [Replay(load_log(p).events) for p in paths])
    per = benchmark.stats.stats.mean * 1000 * 1500 / events
    benchmark.extra_info["ms_per_1500_events"] = round(per, 2)
    print(f"\nopen for replay: {per:.1f} ms per 1,500 events")
    assert per < 100


def test_replay_step_on_screen(benchmark, tmp_path):
    """A step as one frame: find the state, update the widgets, lay out and
    render what changed (Textual's own compositor calls, as a frame does).
    A full repaint of the screen is reported as well, for the record."""
    from crib3.tui.app import Crib3App

    game = random_game(3, ("human", "standard", "expert"))
    replay = Replay(game.events)
    frames: list[float] = []
    repaints: list[float] = []

    async def run() -> None:
        app = Crib3App(replay=replay, autosave=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            for i in list(range(len(replay))) + list(range(len(replay) - 1, -1, -1)):
                started = time.perf_counter()
                screen.show(i)
                screen._refresh_layout(app.size)
                screen._compositor.render_update(full=False)
                frames.append(time.perf_counter() - started)
                started = time.perf_counter()
                screen._compositor.render_update(full=True)
                repaints.append(time.perf_counter() - started)
                await pilot.pause()

    benchmark.pedantic(lambda: asyncio.run(run()), rounds=1, iterations=1)

    def p95(values: list[float]) -> float:
        return sorted(values)[int(len(values) * 0.95)] * 1000

    benchmark.extra_info.update(frame_p95_ms=round(p95(frames), 2),
                                full_repaint_p95_ms=round(p95(repaints), 2),
                                steps=len(frames))
    print(f"\nreplay step, forwards and back: p95 {p95(frames):.1f} ms a frame; "
          f"a full repaint p95 {p95(repaints):.1f} ms")
    assert p95(frames) < 16


def test_stats_over_1000_games(benchmark, tmp_path):
    sim.run(["standard", "standard", "easy"], 1000, seed=5, log_dir=str(tmp_path),
            jobs=sim.default_jobs(1000))
    paths = saved_paths(tmp_path)
    assert len(paths) == 1000
    stats, problems = benchmark.pedantic(lambda: stats_from_files(paths), rounds=1,
                                         iterations=1)
    assert not problems and sum(s.games for s in stats) == 3000
    print(f"\nstats over 1,000 games: {benchmark.stats.stats.mean:.2f} s")
