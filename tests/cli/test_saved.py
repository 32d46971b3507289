"""Saved games: the list, resume, the transcript, statistics, and a kill -9."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest
from commands import Tmux, crib3, needs_tmux
from games import random_game

from crib3.engine import Game, fold
from crib3.engine.log import load_log, make_header, write_log
from crib3.saved.games import game_stats, latest_unfinished, list_games, transcript
from crib3.saved.summary import GameSummary, summarise_log

GAMES = ("human", "standard", "expert")


@pytest.fixture
def home(crib3_home):
    folder = crib3_home / "data" / "games"
    folder.mkdir(parents=True)
    finished = random_game(1, GAMES)
    write_log(folder / "2026-01-01-100000-000000.jsonl", finished.events, make_header())
    unfinished = random_game(2, GAMES)
    write_log(folder / "2026-01-02-100000-000000.jsonl", unfinished.events[:150], make_header())
    (folder / "2026-01-03-100000-000000.jsonl").write_text("not a log\n")
    return crib3_home, finished, unfinished


def test_games_lists_finished_unfinished_and_unreadable(home):
    tmp, finished, _ = home
    result = crib3("games", home=tmp)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    winner = finished.state.name(finished.state.winner)
    assert f"won by {winner}" in lines[0] and "P0 (human)" in lines[0]
    assert "unfinished, hand" in lines[1]
    assert "unreadable" in lines[2]
    assert [g.finished for g in list_games(tmp / "data" / "games")] == [True, False, False]


def test_the_latest_unfinished_game_is_the_one_to_resume(home):
    tmp, _, unfinished = home
    path = latest_unfinished(tmp / "data" / "games")
    assert path is not None and path.name.startswith("2026-01-02")
    result = crib3("resume", home=tmp)
    assert result.returncode == 1 and "needs a full-screen terminal" in result.stderr


def test_resume_refuses_when_nothing_is_unfinished(tmp_path):
    result = crib3("resume", home=tmp_path)
    assert result.returncode == 2 and "no unfinished game" in result.stderr
    assert "Traceback" not in result.stderr


def test_export_text_and_json(home, tmp_path):
    tmp, finished, _ = home
    path = tmp / "data" / "games" / "2026-01-01-100000-000000.jsonl"
    text = crib3("export", str(path), "--text", home=tmp)
    assert text.returncode == 0
    assert "Hand 1." in text.stdout and "is dealt" in text.stdout and "wins with" in text.stdout
    assert text.stdout == transcript(finished.events)
    again = crib3("export", str(path), "--json", home=tmp)
    lines = again.stdout.splitlines()
    assert json.loads(lines[0])["format"] == "crib3-log"
    copy = tmp_path / "copy.jsonl"
    copy.write_text(again.stdout)
    assert load_log(copy).events == finished.events
    bad = crib3("export", str(tmp / "data" / "games" / "2026-01-03-100000-000000.jsonl"))
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_the_quick_summary_agrees_with_the_full_fold(home):
    tmp, finished, _ = home
    path = tmp / "data" / "games" / "2026-01-01-100000-000000.jsonl"
    assert summarise_log(path) == GameSummary.of(finished.state, finished.events)
    cut = path.read_text()[:-40]                        # a crash mid-line
    path.write_text(cut)
    loaded = load_log(path)
    assert summarise_log(path) == GameSummary.of(loaded.state, loaded.events)


def test_stats_fold_the_saved_games(home):
    tmp, finished, unfinished = home
    result = crib3("stats", home=tmp)
    assert result.returncode == 0
    assert "P0 (human)" in result.stdout and "P2 (expert)" in result.stdout
    assert "skipped" in result.stderr                     # the unreadable file, named
    cut = unfinished.events[:150]
    stats = {(s.name, s.level): s for s in game_stats([
        GameSummary.of(finished.state, finished.events), GameSummary.of(fold(cut), cut)])}
    winner = finished.state.players[finished.state.winner]
    assert stats[(winner.name, winner.kind)].wins == 1
    assert all(s.games == 2 and s.finished == 1 for s in stats.values())
    counted = [e for e in finished.events if e.type == "HandCounted" and e.seat == 0
               and not e.crib]
    assert stats[("P0", "human")].hands == len(counted) + len(
        [e for e in cut if e.type == "HandCounted" and e.seat == 0 and not e.crib])


async def test_a_resumed_game_opens_where_it_stood_and_goes_on_in_its_file(home):
    from tui_support import settled

    from crib3.tui.app import Crib3App

    tmp, _, _ = home
    path = latest_unfinished(tmp / "data" / "games")
    loaded = load_log(path)
    game = Game.from_events(loaded.events)
    app = Crib3App(think=0.0, game=game, resume_path=path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await settled(pilot)
        # opened where it stood (seen from seat 0: the state its redacted
        # events fold to, and its view of the true state),
        from crib3.engine import fold, redact, seat_view

        _, shown_state, shown_view = screen.history[-1]
        assert shown_state == fold([redact(e, 0) for e in loaded.events])
        assert shown_view == seat_view(loaded.state, 0)
        assert not screen.waiting_for_enter or screen.shown.phase != "cut_for_deal"
        assert game.events[: len(loaded.events)] == loaded.events   # then went on
        before = len(game.events)
        await pilot.press("enter")
        await settled(pilot)
        assert len(game.events) > before
    assert load_log(path).events == game.events              # appended to the same file


@needs_tmux
@pytest.mark.parametrize("run", range(5))
def test_kill_9_loses_nothing_that_was_on_screen(tmp_path, run):
    """A real game in a real terminal, killed with SIGKILL at a random
    moment: the file loads, every line of the game shown on screen is in
    it, and it resumes to the state it folds to."""
    import random

    from commands import crib3_command

    from crib3.engine import apply, redact
    from crib3.engine.state import State
    from crib3.words.narrate import describe

    rng = random.Random(run)
    tmux = Tmux(tmp_path)
    try:
        tmux.start(f"{crib3_command()} play --seed {run} --name Ann --players easy,standard "
                   "--think 0.02; sleep 30")
        tmux.wait_for("deals first")
        for _ in range(rng.randrange(3, 40)):
            tmux.keys("Enter")
            time.sleep(rng.uniform(0.01, 0.12))
        screen = tmux.screen()
        pid = subprocess.run(["pgrep", "-f", f"crib3.* play --seed {run} "],
                             capture_output=True, text=True, timeout=30).stdout.split()
        assert pid, "crib3 is not running"
        for p in pid:
            os.kill(int(p), signal.SIGKILL)
    finally:
        tmux.kill()
    saved = list((tmp_path / "data" / "games").glob("*.jsonl"))
    assert len(saved) == 1
    loaded = load_log(saved[0])                                # valid after a kill -9
    told = set()
    state = State()
    for event in loaded.events:
        state = apply(state, event)
        line = describe(redact(event, 0), state)
        if line:
            told.add(line.strip())
    # The last lines above the footer tell the latest events (a long one
    # wraps): every word of them must come from events in the file.
    block = " ".join(" ".join(screen.splitlines()[-4:-1]).split())
    assert block, screen
    rest = block
    for line in sorted(told, key=len, reverse=True):
        rest = rest.replace(" ".join(line.split()), "")
    assert not rest.strip(), (rest, screen)
    resumed = Game.from_events(loaded.events)
    assert resumed.state == loaded.state


async def test_the_new_game_screen_offers_the_unfinished_game(home):
    from tui_support import screen_text, wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen
    from crib3.tui.screens.table import TableScreen

    tmp, _, _ = home
    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await wait_for(pilot, lambda: app.screen.unfinished is not None)
        await wait_for(pilot, lambda: "r: resume your unfinished game" in screen_text(app))
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        assert app.resume_path is not None and app.resume_path.name.startswith("2026-01-02")


async def test_the_new_game_box_fits_80x24_with_the_offer_and_a_blank_before_each_label(home):
    """Each field's label has a blank line above it ("Your name" and the
    seed's alike); with an unfinished game offered the whole box, its
    bottom border included, still fits 80x24 without a scrollbar."""
    from tui_support import screen_text, wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen

    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await wait_for(pilot, lambda: "resume your unfinished game" in screen_text(app))
        await pilot.pause()
        rows = screen_text(app).splitlines()
        for label in ("Your name", "Seed (blank"):
            at = next(i for i, row in enumerate(rows) if label in row)
            assert rows[at - 1].strip(" │") == "", rows[at - 1]
        assert any(row.strip().startswith("╰") for row in rows), "\n".join(rows)
        assert "▇" not in "".join(rows) and "▆" not in "".join(rows)


async def test_the_statistics_screen(home):
    from tui_support import screen_text, wait_for

    from crib3.tui.app import Crib3App
    from crib3.tui.screens.new_game import NewGameScreen
    from crib3.tui.screens.stats import StatsScreen

    app = Crib3App(think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen))
        await wait_for(pilot, lambda: "P0 (human)" in screen_text(app))
        await wait_for(pilot, lambda: "unreadable" in screen_text(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, NewGameScreen))


def test_replay_on_the_command_line_fails_cleanly(home, tmp_path):
    tmp, _, _ = home
    assert crib3("replay", str(tmp_path / "missing.jsonl")).returncode == 2
    foreign = crib3("replay", str(tmp / "data" / "games" / "2026-01-03-100000-000000.jsonl"))
    assert foreign.returncode == 1 and "Traceback" not in foreign.stderr
    good = crib3("replay", str(tmp / "data" / "games" / "2026-01-01-100000-000000.jsonl"))
    assert good.returncode == 1 and "needs a full-screen terminal" in good.stderr


def test_verify_says_a_result_in_the_order_games_says_it(home):
    """`crib3 verify` said "won by Bea 89-121-95" (seat order) where `crib3
    games` said "121-89-95": both say the winner's score first, by the
    winner's name, then the others' in seat order."""
    import re

    tmp, finished, _ = home
    state = finished.state
    listed = crib3("games", home=tmp).stdout.splitlines()[0]
    verified = crib3("verify", "1", home=tmp).stdout
    said = [re.search(r"won by (\S+) (\d+(?:-\d+)+)", text) for text in (listed, verified)]
    assert all(said), (listed, verified)
    assert said[0].groups() == said[1].groups(), (listed, verified)
    others = [score for seat, score in enumerate(state.scores) if seat != state.winner]
    assert said[1][2] == "-".join(map(str, [state.scores[state.winner], *others]))
