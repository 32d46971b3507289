"""The hardened edges of the command: an unexpected error, a folder that
cannot be written, a disk that fills, numbers out of range, a terminal too
small to show the table. Each ends in one line and a non-zero exit, and
nothing that was played is lost. Run the way a user meets them: the real
command in a real terminal (tmux), or as a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from commands import (
    crib3_argv,
    crib3_command,
    ended,
    exit_status,
    needs_tmux,
    serve_says,
    terminal,
)


def _can_mount_in_a_namespace() -> bool:
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", "mount -t tmpfs tmpfs /mnt"],
                           capture_output=True, timeout=30)
    return probe.returncode == 0


needs_mounts = pytest.mark.skipif(not _can_mount_in_a_namespace(),
                                  reason="needs unshare and tmpfs in a user namespace")


def on_a_mount(folder: Path, options: str, command: str) -> str:
    """`command`, run in a private mount namespace where `folder` is a
    fresh tmpfs mounted with `options` (ro, or a tiny size)."""
    folder.mkdir(parents=True, exist_ok=True)
    return (f"unshare -rm sh -c \"mount -t tmpfs -o {options} tmpfs {folder} "
            f"&& exec {command}\"")


# --- 1. an unexpected error inside the game ----------------------------------------------

@needs_tmux
def test_an_internal_error_ends_in_one_line_a_log_file_and_exit_1(tmp_path):
    """A bug (forced here: the coach raises) ends the game with one line
    that names the error, where the game is saved and how to go on; the
    whole traceback is in errors.log in the data folder; exit status 1."""
    inject = tmp_path / "inject"
    inject.mkdir()
    (inject / "sitecustomize.py").write_text(
        "import crib3.tui.screens.table as t\n"
        "def broken(self):\n"
        "    raise RuntimeError('the coach fell over')\n"
        "t.TableScreen.action_coach = broken\n")
    with terminal(tmp_path, f"PYTHONPATH={inject} {crib3_command()} play --seed 3 "
                            "--name Ann --think 0") as tmux:
        tmux.wait_for("deals first")
        tmux.keys("Enter")
        tmux.wait_for("coach")
        tmux.keys("h")
        status, lines = ended(tmux)
    assert status == 1
    assert len(lines) == 1, lines
    errors_log = tmp_path / "data" / "errors.log"
    saved = list((tmp_path / "data" / "games").glob("*.jsonl"))
    line = lines[0]
    assert "unexpected error (RuntimeError: the coach fell over)" in line
    assert "crib3 resume" in line and str(errors_log) in line
    assert len(saved) == 1 and saved[0].name in line
    log = errors_log.read_text()
    assert "Traceback" in log and "the coach fell over" in log and "action_coach" not in line
    # the game so far is there to go on with
    from crib3.engine.log import load_log

    assert load_log(saved[0]).state.winner is None


# --- 2. a data folder that cannot be written ---------------------------------------------

@needs_tmux
@needs_mounts
@pytest.mark.parametrize("command", ["play --seed 3", ""])
def test_a_read_only_data_folder_is_refused_before_the_game(tmp_path, command):
    home = tmp_path / "home"
    with terminal(tmp_path, on_a_mount(home, "ro", f"env CRIB3_HOME={home} "
                                       f"{crib3_command()} {command}")) as tmux:
        status, lines = ended(tmux)
    assert status == 1, lines
    assert lines == [f"crib3 play: cannot save games in {home}/data/games: read-only (on a "
                     "read-only file system); use --no-save to play without saving"]


@needs_tmux
@needs_mounts
def test_resuming_in_a_read_only_folder_is_refused_and_no_save_plays_on(tmp_path):
    from games import random_game

    from crib3.engine.log import make_header, write_log

    games = tmp_path / "home" / "data" / "games"
    games.mkdir(parents=True)
    saved = games / "2026-01-01-100000-000000.jsonl"
    write_log(saved, random_game(4, kinds=("human", "easy", "easy")).events[:60], make_header())
    before = saved.read_bytes()
    command = (f"unshare -rm sh -c \"mount --bind {games} {games} && "
               f"mount -o remount,bind,ro {games} && exec env CRIB3_HOME={tmp_path / 'home'} "
               f"{crib3_command()} resume %s\"")
    with terminal(tmp_path, command % "") as tmux:
        status, lines = ended(tmux)
    assert status == 1, lines
    assert lines == [f"crib3 resume: cannot save the game in {saved}: read-only (on a "
                     "read-only file system); use --no-save to play on without saving"]
    with terminal(tmp_path, command % "--no-save") as tmux:
        tmux.wait_for("Quit")  # the table is up, where the game stood
        tmux.keys("q")
        tmux.wait_for("Quit this game?")
        tmux.keys("y")
        assert exit_status(tmux) == 0
    assert saved.read_bytes() == before


# --- 15. a disk that fills during the game -----------------------------------------------

@needs_tmux
@needs_mounts
def test_a_full_disk_stops_the_game_saved_up_to_the_last_move(tmp_path):
    home = tmp_path / "home"
    games = home / "data" / "games"
    with terminal(tmp_path, on_a_mount(games, "size=8k", f"env CRIB3_HOME={home} "
                                       f"{crib3_command()} play --seed 3 --name Ann "
                                       "--think 0")) as tmux:
        tmux.wait_for("deals first")
        deadline = time.monotonic() + 60
        while "EXIT=" not in tmux.screen() and time.monotonic() < deadline:
            tmux.keys("Enter")
            time.sleep(0.05)
        status, lines = ended(tmux)
    assert status == 1, lines
    assert len(lines) == 1, lines
    line = lines[0]
    assert line.startswith(f"crib3 play: cannot save to {games}/")
    assert "No space left on device" in line
    assert "saved up to the last move" in line and "crib3 resume" in line


# --- 5. keys while the table is hidden ---------------------------------------------------

async def test_keys_do_nothing_while_the_terminal_is_too_small(crib3_home):
    from tui_support import make_app, screen_text, settled, table, wait_for

    from crib3.tui.screens.dialogs import ConfirmQuit

    app = make_app(seed=1)
    async with app.run_test(size=(60, 20)) as pilot:
        await settled(pilot)
        await wait_for(pilot, lambda: "needs 80×24" in screen_text(app))
        before = len(app.game.events)
        for key in ("enter", "enter", "3", "enter", "h", "s", "f", "1", "enter"):
            await pilot.press(key)
        await pilot.pause(0.2)
        assert len(app.game.events) == before                   # no card was thrown
        assert app.screen is table(app)                          # no coach opened
        await pilot.press("q")                                   # quit still asks
        await wait_for(pilot, lambda: isinstance(app.screen, ConfirmQuit))
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen is table(app))
        await pilot.resize_terminal(80, 24)
        await wait_for(pilot, lambda: not app.too_small)
        await settled(pilot)
        await pilot.press("3", "enter")                          # now the keys play
        await settled(pilot)
        await pilot.press("3")                                   # (the bots throw after you)
        await wait_for(pilot, lambda: len(app.game.events) > before)


# --- 13, 14. numbers and the server's words ----------------------------------------------

def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([*crib3_argv(), *args], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL, env={**os.environ, **env})


@pytest.mark.parametrize("args", [
    ("play", "--think", "inf"), ("play", "--think", "nan"), ("play", "--think", "-1"),
    ("resume", "--think", "nan"), ("serve", "--patience", "nan"), ("serve", "--think", "-2"),
    ("sim", "--jobs", "-1"), ("sim", "--jobs", "0"), ("sim", "--games", "0"),
    ("sim", "--games", "many"),
])
def test_numbers_out_of_range_get_one_line_and_exit_2(args):
    result = run(*args)
    assert result.returncode == 2, result
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"crib3 {args[0]}: argument {args[1]}: ")
    assert "Traceback" not in result.stderr


def test_sim_log_dir_that_is_a_file_is_named(tmp_path):
    file = tmp_path / "logs"
    file.write_text("")
    result = run("sim", "--games", "1", "--log-dir", str(file), "--quiet")
    assert result.returncode == 2
    assert result.stderr.strip() == f"crib3 sim: --log-dir {file}: that is a file; give a folder"


@pytest.mark.parametrize("content, words", [("", "has no keys"), ("# nobody yet\n", "has no keys")])
def test_serve_warns_when_nobody_can_sign_in(tmp_path, content, words):
    keys = tmp_path / "authorized_keys"
    keys.write_text(content)
    lines = serve_says(tmp_path, "--port", "0", "--authorized-keys", str(keys),
                       "--host-key", str(tmp_path / "host_key"))
    assert lines[0].strip() == f"warning: nobody can sign in: {keys} {words}", lines
    assert "listening on" in lines[1]


def test_serve_on_a_bad_host_names_the_host(tmp_path):
    result = run("serve", "--open", "--host", "no-such-host.invalid", "--port", "0",
                 "--host-key", str(tmp_path / "host_key"), CRIB3_HOME=str(tmp_path))
    assert result.returncode == 1, result
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("crib3 serve: cannot listen on no-such-host.invalid:0: ")
    assert "Traceback" not in result.stderr


# --- 17. the crib table's generator writes only where it is told --------------------------

def test_the_crib_table_generator_never_overwrites_the_packaged_table(tmp_path):
    import crib3.players.cribtable as cribtable

    packaged = cribtable.PACKAGED
    before = packaged.read_bytes()
    for args in ([], ["--out", str(packaged)], ["--samples", "10", "--out", str(packaged)]):
        result = subprocess.run([sys.executable, "-m", "crib3.players.cribtable", *args],
                                capture_output=True, text=True, timeout=60)
        assert result.returncode == 2, result
        assert len(result.stderr.strip().splitlines()) <= 2 and "Traceback" not in result.stderr
    assert packaged.read_bytes() == before
    out = tmp_path / "table.json"
    result = subprocess.run([sys.executable, "-m", "crib3.players.cribtable", "--samples", "20",
                             "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result
    assert json.loads(out.read_text())["samples"] == 20
    assert packaged.read_bytes() == before


@pytest.mark.parametrize("module, args, said", [
    # Five deals cannot show every rank.
    pytest.param("crib3.players.cribtable", ("--samples", "5"), "samples dealt no",
                 id="crib-table-from-5-samples"),
    # One deal cannot throw every rank.
    pytest.param("crib3.players.discardtable", ("--deals", "1"), "deals threw no",
                 id="discard-table-from-1-deal"),
])
def test_too_few_deals_for_a_players_table_is_one_line(tmp_path, module, args, said):
    """The generator says so in one line instead of dividing by zero (a
    ZeroDivisionError), and writes no table."""
    out = tmp_path / "table.json"
    result = subprocess.run([sys.executable, "-m", module, *args,
                             "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2, result
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert said in result.stderr
    assert not out.exists()
