"""The way from typing `crib3` to its first screen: the cyclic garbage
collector is paused until the first screen is drawn
(crib3/common/startup_gc.py), and then runs as always; a command without a screen
never touches it. `crib3` alone is read by play's options only, which must
read it as the whole parser reads `crib3 play`. (What each of these saves:
assets/measurements/command-line.md.)"""

from __future__ import annotations

import json
import subprocess
import sys

START = r'''
import gc, json, sys
from textual.app import App
from crib3 import cli
from crib3.cli import play

seen = {}
display = App._display
def watched(self, screen, renderable):
    if renderable is not None and type(screen).__name__ == "NewGameScreen" and "drawn" not in seen:
        seen["drawn"] = gc.isenabled()
        self.set_timer(0.3, lambda: (seen.__setitem__("running", gc.isenabled()), self.exit()))
    return display(self, screen, renderable)
App._display = watched

run = App.run
def headless(self, *args, **kwargs):
    seen["started"] = gc.isenabled()
    return run(self, headless=True, size=(80, 24))
App.run = headless
play.full_screen_or_exit = lambda *args: None  # no terminal here: headless instead

code = cli.main(sys.argv[1:])
seen["after"] = gc.isenabled()
print(json.dumps(seen))
'''


def run(tmp_path, *argv: str) -> dict:
    env = {"CRIB3_HOME": str(tmp_path), "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"}
    done = subprocess.run([sys.executable, "-c", START, *argv], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_crib3_starts_with_the_collector_paused_and_runs_it_once_the_screen_is_up(tmp_path):
    seen = run(tmp_path)
    assert seen["started"] is False  # paused from the command's start
    assert seen["drawn"] is False  # the first frame itself is drawn paused
    assert seen["running"] is True  # and then it runs, while the screen is up
    assert seen["after"] is True


def test_crib3_play_is_paused_alike(tmp_path):
    seen = run(tmp_path, "play")
    assert (seen["started"], seen["running"]) == (False, True)


def test_a_command_without_a_screen_leaves_the_collector_alone(tmp_path):
    code = ("import gc, sys; from crib3 import cli; cli.main(['score', '5H 5D 5S JC', '5C']); "
            "print(gc.isenabled())")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"CRIB3_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}, timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "True"


def test_crib3_alone_is_read_as_the_whole_parser_reads_crib3_play():
    from crib3.cli.parser import build_parser, play_alone_parser
    from crib3.cli.play import play_defaults

    assert vars(play_alone_parser().parse_args([])) == vars(build_parser().parse_args(["play"]))
    assert vars(play_defaults()) == vars(play_alone_parser().parse_args([]))


def test_crib3_alone_imports_no_argparse():
    """`crib3` alone is read without argparse (importing it and building a
    parser would delay the first screen: assets/measurements/command-line.md)."""
    import subprocess
    import sys

    probe = ("import sys; import crib3.cli as c, crib3.cli.play as p; "
             "c.startup_gc.pause = lambda: None; "
             "p.cmd_play = lambda args: print('argparse' in sys.modules) or 0; "
             "sys.exit(c.main([]))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
