"""The README's two set-up commands: they work as written, in a venv of
their own (so a system Python that refuses `pip install` outside a venv is
no obstacle), and CI runs exactly the test one."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = text.split("## Set up", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.+?)\n```", setup)


def test_the_readme_gives_two_set_up_commands_each_in_a_venv():
    play, tests = readme_commands()
    for command in (play, tests):
        assert command.startswith("python3 -m venv .venv && .venv/bin/pip install ")
    assert play.endswith("&& .venv/bin/crib3")
    assert tests.endswith("&& .venv/bin/python -m pytest -n 4")  # four processes, two cores


def test_ci_runs_the_readmes_test_command_exactly():
    _, tests = readme_commands()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert tests in ci


@pytest.mark.slow
@pytest.mark.own_venv
def test_the_play_command_works_as_written_in_a_fresh_copy(tmp_path):
    """Run the play command word for word in a clean copy of the project.
    With no terminal the game itself refuses in one line, which proves the
    install worked and the command ran."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs the git checkout")
    copy = tmp_path / "crib3"
    subprocess.run(["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(copy)], check=True,
                   timeout=300)
    for path in ("pyproject.toml", "README.md"):  # the working tree's, not only HEAD's
        shutil.copy(ROOT / path, copy / path)
    shutil.rmtree(copy / "crib3")
    shutil.copytree(ROOT / "crib3", copy / "crib3",
                    ignore=shutil.ignore_patterns("__pycache__"))
    play, _ = readme_commands()
    result = subprocess.run(["bash", "-c", play], cwd=copy, capture_output=True, text=True,
                            stdin=subprocess.DEVNULL, timeout=600)
    assert (copy / ".venv" / "bin" / "crib3").exists(), result.stderr[-2000:]
    assert "full-screen terminal" in result.stderr or "needs a terminal" in result.stderr, \
        result.stderr[-2000:]
    assert "Traceback" not in result.stderr
