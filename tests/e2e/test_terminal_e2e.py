"""The real `crib3` command in a real terminal (tmux), played by send-keys."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from commands import POLL, Tmux, crib3_command, needs_tmux

pytestmark = needs_tmux


@pytest.fixture
def tmux(tmp_path):
    t = Tmux(tmp_path)
    yield t
    t.kill()


def test_play_a_hand_in_a_real_terminal(tmux):
    tmux.start(f"{crib3_command()} play --seed 3 --name Ann --players easy,standard "
               "--think 0.05; sleep 5")
    tmux.wait_for("deals first")
    # The footer's keys are drawn a frame after the table (Textual updates
    # the Footer's bindings once the screen has settled): wait for them,
    # as a person would, rather than catch the frame between.
    tmux.wait_for("Go on")
    tmux.keys("Enter")
    tmux.wait_for("Throw one card")
    tmux.wait_for("┌───┐")  # (the prompt can be drawn a moment before the table)
    tmux.wait_for("Ann")
    tmux.keys("2", "Enter")
    for _ in range(60):                      # play on until it is our turn in the play
        screen = tmux.screen()
        if "Your play" in screen:
            break
        # (A bot past its budget on a loaded machine plays its first legal
        # card instead: the play can then come to a go of ours first.)
        if any(asked in screen for asked in ("Enter: cut", "Enter: go on", "Enter says go")):
            tmux.keys("Enter")
        time.sleep(0.3)
    else:
        saved = [line for path in (tmux.home / "data" / "games").glob("*.jsonl")
                 for line in path.read_text().splitlines()]
        raise AssertionError("never our turn to play:\n" + tmux.screen()
                             + "\nthe game so far:\n" + "\n".join(saved[-15:]))
    tmux.keys("Enter")
    log = tmux.home / "data" / "games"
    deadline = time.monotonic() + 20             # the autosave has our card at once
    while time.monotonic() < deadline:
        saved = list(log.glob("*.jsonl"))
        if saved and '"CardPlayed", "seat": 0' in saved[0].read_text():
            break
        time.sleep(POLL)
    else:
        raise AssertionError("our play never reached the saved game")
    tmux.keys("q")
    tmux.wait_for("Quit this game?")
    tmux.keys("y")
    deadline = time.monotonic() + 10
    while "Quit this game?" in tmux.screen() and time.monotonic() < deadline:
        time.sleep(POLL)
    assert "Traceback" not in tmux.screen()
    saved = list((tmux.home / "data" / "games").glob("*.jsonl"))
    assert len(saved) == 1
    text = saved[0].read_text()
    assert '"type": "CardDiscarded", "seat": 0' in text and '"CardPlayed", "seat": 0' in text


def won(tmux) -> bool:
    """The game's log says it is won: its result screen is on its way."""
    return any('"type": "GameWon"' in path.read_text()
               for path in (tmux.home / "data" / "games").glob("*.jsonl"))


@pytest.mark.slow
def test_a_whole_short_game_in_a_real_terminal_at_120x40(tmux):
    """A game from the cut to the result, by Enter alone, in tmux at
    120x40: the tall table's layout carries a whole game, and the result
    fills the big screen."""
    tmux.start(f"{crib3_command()} play --seed 5 --short --name Ann --players easy,easy "
               "--think 0; sleep 10", width=120, height=40)
    tmux.wait_for("deals first")
    deadline = time.monotonic() + 150
    fewest_blank_rows = 40
    while time.monotonic() < deadline:
        screen = tmux.screen()
        assert "Traceback" not in screen, screen
        if "Scores after each hand" in screen:
            break
        if "Your play" in screen:  # the table uses the height: no band of blank rows
            fewest_blank_rows = min(fewest_blank_rows, sum(
                1 for line in screen.splitlines()[:39] if not line.strip()))
        tmux.keys("Enter")
        # Once the game is won, the screen is given time to draw each step
        # before the next look: an Enter on the result screen, sent after a
        # look that came too soon, would start a new game.
        time.sleep(0.8 if won(tmux) else 0.15)
    else:
        raise AssertionError("the game never ended:\n" + tmux.screen())
    assert fewest_blank_rows <= 2
    assert max(len(line.rstrip()) for line in screen.splitlines()) > 80  # the result is wide
    assert "win" in screen and "pegging" in screen
    saved = list((tmux.home / "data" / "games").glob("*.jsonl"))
    assert len(saved) == 1 and '"type": "GameWon"' in saved[0].read_text()


def test_the_terminals_own_size_wins_over_columns_and_lines_in_the_environment(tmux):
    """COLUMNS and LINES left in the environment (readline sets them in a
    parent without a terminal) pinned the game at 80x24 in a 120x40
    terminal, and it ignored every resize."""
    tmux.start(f"env COLUMNS=80 LINES=24 {crib3_command()} play --seed 5 --name Ann "
               "--think 0; sleep 5", width=120, height=40)
    screen = tmux.wait_for("deals first")
    deadline = time.monotonic() + 10
    while max(len(line.rstrip()) for line in screen.splitlines()) <= 80:
        assert time.monotonic() < deadline, "drawn at 80 columns:\n" + screen
        time.sleep(POLL)
        screen = tmux.screen()
    tmux.run("resize-window", "-t", "t", "-x", "100", "-y", "30")
    deadline = time.monotonic() + 10
    while not 80 < max(len(line.rstrip()) for line in tmux.screen().splitlines()) <= 100:
        assert time.monotonic() < deadline, "the resize was not followed:\n" + tmux.screen()
        time.sleep(POLL)


def test_play_without_a_terminal_says_so():
    result = subprocess.run([*crib3_command().split(), "play", "--seed", "1"],
                            capture_output=True, text=True, stdin=subprocess.DEVNULL,
                            timeout=60, env={**os.environ, "CRIB3_HOME": "/nonexistent"})
    assert result.returncode == 1 and "needs a full-screen terminal" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.slow
def test_a_game_quit_mid_show_resumes_presenting_that_show(tmux):
    """Quit while the show of hand 1 is being presented (at "s: skip the
    rest of the show"), then `crib3 resume`: the game goes on presenting
    hand 1's show from its first count (every hand and the crib shown, the
    pegs moving as each is counted), not at hand 2's discard with the
    scores already jumped."""
    tmux.start(f"{crib3_command()} play --players expert,standard --name Nina --think 0 "
               "--seed 7; sleep 1; "
               f"{crib3_command()} resume; sleep 5")
    tmux.wait_for("deals first")
    tmux.wait_for("Go on")
    for _ in range(80):
        screen = tmux.screen()
        if "skip the rest of the show" in screen:
            break
        tmux.keys("Enter")
        time.sleep(0.3)
    else:
        raise AssertionError("never reached the show:\n" + tmux.screen())
    assert "Hand 1" in screen and "Bea's hand" not in screen
    tmux.keys("q")
    tmux.wait_for("Quit this game?")
    tmux.keys("y")
    # `crib3 resume` opens the game again: at hand 1's show, not hand 2's discard
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        screen = tmux.screen()
        if "Hand 1" in screen and "Enter: go on" in screen and "Quit this game?" not in screen:
            break
        assert "Hand 2" not in screen, "resumed past the show:\n" + screen
        time.sleep(POLL)
    else:
        raise AssertionError("the resumed game never showed hand 1's show:\n" + screen)
    assert "skip the rest of the show" in screen and "Throw" not in screen
    seen = screen
    for _ in range(12):                       # the rest of the show, count by count
        tmux.keys("Enter")
        time.sleep(0.5)
        screen = tmux.screen()
        seen += screen
        if "Hand 2" in screen:
            break
    assert "Bea's hand" in seen and "Bea's crib" in seen, seen
    assert "Traceback" not in seen


@pytest.mark.parametrize("size", [(80, 24), (60, 20)])
def test_ctrl_c_in_a_real_terminal_says_how_to_quit(tmux, size):
    """Ctrl+C, at the table and on the too-small notice, says which keys
    quit (Textual's own hint looks for an action crib3 does not have)."""
    tmux.start(f"{crib3_command()} play --seed 3 --name Ann --think 0; sleep 5",
               width=size[0], height=size[1])
    tmux.wait_for("deals first" if size == (80, 24) else "Make it larger")
    time.sleep(0.5)
    tmux.keys("C-c")
    screen = tmux.wait_for("does not quit")
    assert "Ctrl+Q" in screen and "Traceback" not in screen
    assert tmux.alive() and "deals first" in tmux.screen() or size != (80, 24)
