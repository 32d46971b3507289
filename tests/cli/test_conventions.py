"""`crib3 paths`, `crib3 completion SHELL` and `crib3 man`: what a person
and a packager expect of a command-line program, each made from the parser
the commands read, so none can fall behind it."""

import json
import shutil
import subprocess

import pytest
from commands import crib3

from crib3.cli.parser import build_parser


def commands() -> list[str]:
    parser = build_parser()
    found = next(a.choices for a in parser._actions if a.dest == "command")
    return list(found)


def test_paths_names_every_kind_of_file_under_crib3_home(tmp_path):
    done = crib3("paths", "--json", home=tmp_path)
    assert done.returncode == 0, done.stderr
    where = json.loads(done.stdout)
    assert {"settings", "games", "errors", "host key", "keys", "tables"} <= set(where)
    assert all(path.startswith(str(tmp_path)) for path in where.values()), where
    text = crib3("paths", home=tmp_path).stdout
    assert str(tmp_path / "data" / "games") in text and "settings" in text


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_knows_every_command(tmp_path, shell):
    done = crib3("completion", shell, home=tmp_path)
    assert done.returncode == 0, done.stderr
    for command in commands():
        assert command in done.stdout
    assert "--log-format" in done.stdout  # an option of a command, too


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_the_bash_completion_is_bash_that_completes(tmp_path):
    script = tmp_path / "crib3.bash"
    script.write_text(crib3("completion", "bash", home=tmp_path).stdout)
    probe = (f"source {script}; COMP_WORDS=(crib3 se); COMP_CWORD=1; COMP_LINE='crib3 se'; "
             "COMP_POINT=${#COMP_LINE}; _shtab_crib3 crib3 se crib3; "
             "printf '%s\\n' \"${COMPREPLY[@]}\"")
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30)
    assert "serve" in done.stdout.split(), (done.stdout, done.stderr)


def test_the_manual_page_is_roff_with_every_command(tmp_path):
    done = crib3("man", home=tmp_path)
    assert done.returncode == 0, done.stderr
    page = done.stdout
    assert page.startswith(".TH CRIB3 \"1\"") and "crib3 Manual" in page
    for command in commands():
        assert f"crib3 {command}" in page, command
    assert "\\-\\-print\\-config" in page
    if shutil.which("man"):
        (tmp_path / "crib3.1").write_text(page)
        shown = subprocess.run(["man", "-l", str(tmp_path / "crib3.1")], capture_output=True,
                               text=True, timeout=30, env={"MANWIDTH": "80", "PATH": "/usr/bin"})
        assert "three-player cribbage" in shown.stdout
