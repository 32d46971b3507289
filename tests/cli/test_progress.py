"""Progress: points given up to the coach per hand, game
by game, in `crib3 stats` (and --json) and the statistics screen, kept in
a cache like the statistics' own."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from commands import crib3_argv
from games import random_game

from crib3.engine.log import load_log, write_log
from crib3.saved import progress
from crib3.saved.progress import format_progress, progress_from_files, sparkline
from crib3.study.review import review_events


@pytest.fixture
def games(tmp_path):
    folder = tmp_path / "data" / "games"
    folder.mkdir(parents=True)
    paths = []
    for seed in range(3):
        path = folder / f"2026-12-0{seed + 1}-100000-000000.jsonl"
        write_log(path, random_game(seed, ("human", "easy", "easy")).events)
        paths.append(path)
    return tmp_path, paths


def test_each_game_is_its_review_summed_by_phase(games):
    _, paths = games
    found = progress_from_files(paths)
    assert [g.game for g in found] == [p.name for p in paths]  # the person only, in order
    for g, path in zip(found, paths):
        review = review_events(load_log(path).events, 0)
        assert g.name == "P0" and g.hands == review.hands
        assert g.total == pytest.approx(review.given_up("total"), abs=0.02)
        assert g.per_hand == pytest.approx(g.total / g.hands)


@pytest.mark.slow
def test_the_cache_spares_the_reviews_and_notices_a_changed_file(games, monkeypatch):
    home, paths = games
    cache = home / "progress-cache.json"
    first = progress_from_files(paths, cache)
    reviewed = []
    real = progress.game_progress
    monkeypatch.setattr(progress, "game_progress", lambda p: reviewed.append(p) or real(p))
    assert progress_from_files(paths, cache) == first and reviewed == []
    write_log(paths[1], random_game(9, ("human", "easy", "easy")).events)  # changed
    again = progress_from_files(paths, cache)
    assert reviewed == [paths[1]] and again[0] == first[0] and again[1] != first[1]
    cache.write_text("{ not json")
    assert progress_from_files(paths, cache) == again  # a broken cache is rebuilt


def test_sparkline_and_words():
    assert sparkline([0, 2, 4]) == "▁▅█" and sparkline([0, 0]) == "▁▁"
    assert all(c in progress.ASCII_BARS for c in sparkline([1, 2, 3], ascii=True))
    assert "no game of yours" in format_progress([])


def test_stats_shows_progress_and_gives_it_in_json(games):
    home, paths = games
    env = {**os.environ, "CRIB3_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
    text = subprocess.run([*crib3_argv(), "stats"], capture_output=True, text=True,
                          timeout=120, env=env)
    assert text.returncode == 0, text.stderr
    assert "Points given up to the coach per hand" in text.stdout
    assert "P0 " in text.stdout.split("Points given up")[1]
    data = json.loads(subprocess.run([*crib3_argv(), "stats", "--json"], capture_output=True,
                                     text=True, timeout=120, env=env).stdout)
    assert [p["name"] for p in data["players"]] == ["P0", "P1", "P2"]
    assert [g["game"] for g in data["progress"]] == [p.name for p in paths]
    for g in data["progress"]:
        assert {"discard", "play", "count", "total", "per_hand", "hands"} <= set(g)
        assert g["total"] == pytest.approx(g["discard"] + g["play"] + g["count"], abs=0.02)


async def test_the_statistics_screen_shows_progress(games, monkeypatch):
    from tui_support import screen_text, wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen
    from crib3.tui.screens.stats import StatsScreen

    home, _ = games
    monkeypatch.setenv("CRIB3_HOME", str(home))
    app = Crib3App(think=0.0)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("ctrl+t")  # (t types in the name field)
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
        await wait_for(pilot, lambda: "Points given up to the coach" in screen_text(app))
        assert "last " in screen_text(app) and "mean " in screen_text(app)
