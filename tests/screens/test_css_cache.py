"""Textual's parse of the CSS is kept between runs (issue 12, point 18;
crib3/tui/css_cache.py): the second start parses no CSS, draws the same
screens, and a cache that is damaged, stale, someone else's or cannot be
written is never an error, only a slower start that rewrites it.

Each start is a fresh Python process (as a user's is), running the crib3 app
through `BaseApp.run` (which installs the cache) headless until its first
screen is drawn; it reports how many pieces of CSS Textual parsed.
"""

from __future__ import annotations

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

START = r'''
import json, sys
import textual.css.stylesheet as stylesheet
from textual.app import App

parses = []
parse = stylesheet.parse
def counted(*args, **kwargs):
    parses.append(1)
    return parse(*args, **kwargs)
stylesheet.parse = counted  # what Stylesheet._parse_rules calls

from crib3.tui.app import Crib3App
from crib3.tui.screens.new_game import NewGameScreen

WANT = sys.argv[1]  # "new-game" or "table"
SCREEN, TEXT = {"new-game": ("NewGameScreen", "three-handed"),
                "table": ("TableScreen", "Ann")}[WANT]
shown = {}

class FirstScreen(Crib3App):
    def open_first_screen(self):
        super().open_first_screen()
        self.set_interval(0.05, self.check)

    def check(self):
        """Once the screen is drawn whole (its footer's keys too), keep its
        picture and leave."""
        if type(self.screen).__name__ != SCREEN or "svg" in shown:
            return
        for field in self.screen.query("Input"):
            field.cursor_blink = False  # the same picture whatever the moment
        svg = self.export_screenshot(simplify=True)
        if TEXT in svg and self.screen.query("FooterKey"):
            if shown.get("steady") == svg:  # the same twice running: drawn, settled
                shown["svg"] = svg
                self.exit()
            shown["steady"] = svg

if WANT == "table":
    from crib3.tui.settings import GameChoices
    app = FirstScreen(GameChoices(name="Ann", seed=7), think=0.0, autosave=False)
else:
    app = FirstScreen(think=0.0)
app.animation_level = "none"
app.run(headless=True, size=(80, 24))
from crib3.tui import css_cache
cache = css_cache.installed()
print(json.dumps({"parsed": len(parses), "svg": shown.get("svg", ""),
                  "loaded": cache.loaded if cache else None}))
'''


def start(home: Path, want: str = "new-game") -> dict:
    """One start of the app in its own process, with `home` as CRIB3_HOME."""
    env = {"CRIB3_HOME": str(home), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
    done = subprocess.run([sys.executable, "-c", START, want], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stderr == "", done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def cache_file(home: Path) -> Path:
    return home / "cache" / "parsed-css.pickle"


def test_the_second_start_parses_no_css_and_draws_the_same_screen(tmp_path):
    first = start(tmp_path)
    assert first["parsed"] > 10  # Textual's defaults, the widgets', crib3.tcss
    assert cache_file(tmp_path).is_file()
    second = start(tmp_path)
    assert second["parsed"] == 0
    assert second["loaded"] >= first["parsed"] - 1
    assert "three-handed" in second["svg"]
    assert second["svg"] == first["svg"]


def test_the_table_drawn_from_the_cache_is_the_table_parsed(tmp_path):
    first = start(tmp_path, "table")
    second = start(tmp_path, "table")
    assert first["parsed"] > 0 and second["parsed"] == 0
    assert "Ann" in second["svg"]
    assert second["svg"] == first["svg"]


def test_a_damaged_cache_is_parsed_again_and_rewritten(tmp_path):
    start(tmp_path)
    cache_file(tmp_path).write_bytes(b"\x80\x05garbage, not a pickle")
    again = start(tmp_path)
    assert again["parsed"] > 10
    assert start(tmp_path)["parsed"] == 0  # rewritten whole


def test_a_damaged_entry_costs_only_itself(tmp_path):
    start(tmp_path)
    data = pickle.loads(cache_file(tmp_path).read_bytes())
    name = next(iter(data["entries"]))
    data["entries"][name] = b"not rules"
    cache_file(tmp_path).write_bytes(pickle.dumps(data))
    assert start(tmp_path)["parsed"] == 1
    assert start(tmp_path)["parsed"] == 0


def test_a_cache_from_another_textual_is_ignored_and_rewritten(tmp_path):
    start(tmp_path)
    data = pickle.loads(cache_file(tmp_path).read_bytes())
    data["stamp"] = {**data["stamp"], "textual": "0.0.1"}
    cache_file(tmp_path).write_bytes(pickle.dumps(data))
    assert start(tmp_path)["parsed"] > 10
    assert pickle.loads(cache_file(tmp_path).read_bytes())["stamp"]["textual"] != "0.0.1"
    assert start(tmp_path)["parsed"] == 0


def test_a_file_of_other_things_is_not_used(tmp_path):
    start(tmp_path)
    cache_file(tmp_path).write_bytes(pickle.dumps(["a list", "not the cache"]))
    assert start(tmp_path)["parsed"] > 10
    assert start(tmp_path)["parsed"] == 0


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0,
                    reason="needs root to give the file to another user")
def test_a_cache_file_owned_by_someone_else_is_not_read(tmp_path):
    start(tmp_path)
    os.chown(cache_file(tmp_path), 65534, -1)
    assert start(tmp_path)["parsed"] > 10


def test_a_cache_folder_that_cannot_be_written_only_goes_without(tmp_path):
    (tmp_path / "cache").write_text("a file where the folder would be")
    first = start(tmp_path)
    assert first["parsed"] > 10 and "three-handed" in first["svg"]
    assert start(tmp_path)["parsed"] > 10
    assert (tmp_path / "cache").read_text() == "a file where the folder would be"


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() == 0,
                    reason="root writes into a read-only folder")
def test_a_read_only_cache_folder_only_goes_without(tmp_path):
    folder = tmp_path / "cache"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        assert start(tmp_path)["parsed"] > 10
        assert not cache_file(tmp_path).exists()
    finally:
        folder.chmod(0o700)


def test_the_pilot_tests_parse_as_textual_does():
    """Only the command's start (`BaseApp.run`) installs the cache; the
    screens' snapshots are drawn from Textual's own parse."""
    from textual.css.stylesheet import Stylesheet

    from crib3.tui import css_cache

    if css_cache.installed() is None:
        # Textual's own parse, or the card room's in-memory sharing of it
        # (`crib3.tui.textual_compat`, installed by any test that ran a room app
        # before this one), but never the cache on disk.
        assert Stylesheet._parse_rules.__module__ in ("textual.css.stylesheet",
                                                      "crib3.tui.textual_compat")
