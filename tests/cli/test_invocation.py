"""A hint names crib3 as the person must type it (crib3.common.invocation):
after the README's install `crib3` is `.venv/bin/crib3`, not on PATH."""

import sys

import pytest

from crib3.common import invocation


@pytest.fixture(autouse=True)
def fresh():
    invocation.as_typed.cache_clear()
    yield
    invocation.as_typed.cache_clear()


def test_started_by_a_path_not_on_path_it_says_that_path(monkeypatch, tmp_path):
    program = tmp_path / ".venv" / "bin" / "crib3"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [".venv/bin/crib3", "play"])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert invocation.as_typed() == ".venv/bin/crib3"


def test_started_as_crib3_on_path_it_says_crib3(monkeypatch, tmp_path):
    program = tmp_path / "bin" / "crib3"
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [str(program)])
    monkeypatch.setenv("PATH", f"{program.parent}:/usr/bin:/bin")
    assert invocation.as_typed() == "crib3"


def test_started_as_a_module_it_says_so(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/x/crib3/__main__.py"])
    assert invocation.as_typed().endswith("-m crib3")


def test_a_new_events_hint_names_crib3_as_it_was_started(monkeypatch, tmp_path, capsys):
    from crib3.cli import main

    program = tmp_path / ".venv" / "bin" / "crib3"
    program.parent.mkdir(parents=True)
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setattr(sys, "argv", [".venv/bin/crib3", "event", "new"])
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path / "home"))
    assert main(["event", "new", "--boards", "3", "--seed", "4", "--name", "club"]) == 0
    assert "play it with: .venv/bin/crib3 event play club" in capsys.readouterr().out
