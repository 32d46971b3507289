"""Damaged logs, at random: every reader answers in one line, never a traceback.

Real logs are cut, have bytes flipped, lines swapped, a line nested deeply,
a huge line, or a value of the wrong type; then every reader (verify,
export, stats, games, resume, replay) reads them. Most examples call the
command in-process (`crib3.cli.main`); a few run the real command.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import tempfile
from pathlib import Path

from commands import crib3_argv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from logfiles import SAMPLES

from crib3.cli import main
from crib3.engine.log import LogError, load_log, parse_log
from crib3.saved.games import open_for_resume
from crib3.saved.listing import glance
from crib3.saved.summary import summarise_log

READERS = ("verify", "export", "stats", "resume", "replay")


@st.composite
def damaged_logs(draw: st.DrawFn) -> bytes:
    """A sample log, damaged one to three times."""
    data = draw(st.sampled_from(SAMPLES)).read_bytes()
    for _ in range(draw(st.integers(1, 3))):
        lines = data.split(b"\n")
        kind = draw(st.sampled_from(["truncate", "flip", "swap", "nest", "huge", "type",
                                     "bom", "blank"]))
        at = draw(st.integers(0, max(0, len(lines) - 1)))
        if kind == "truncate":
            data = data[: draw(st.integers(0, len(data)))]
            continue
        if kind == "flip":
            where = draw(st.integers(0, max(0, len(data) - 1)))
            byte = draw(st.integers(0, 255))
            data = data[:where] + bytes([byte]) + data[where + 1:]
            continue
        if kind == "swap":
            other = draw(st.integers(0, max(0, len(lines) - 1)))
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "nest":
            depth = draw(st.sampled_from([100, 2_000, 30_000, 200_000]))
            lines[at] = b"[" * depth + b"]" * draw(st.sampled_from([0, depth]))
        elif kind == "huge":
            lines[at] = b'{"type": "GoSaid", "x": "' + b"y" * 70_000 + b'"}'
        elif kind == "type":
            try:
                obj = json.loads(lines[at])
            except (ValueError, RecursionError):  # a line nested too deep above
                continue
            if isinstance(obj, dict) and obj:
                key = draw(st.sampled_from(sorted(obj)))
                obj[key] = draw(st.sampled_from([None, "x", 3, -1, 1.5, [], {}, [[[]]], True,
                                                 10**30]))
                lines[at] = json.dumps(obj).encode()
        elif kind == "bom":
            lines[0] = b"\xef\xbb\xbf" + lines[0]
        elif kind == "blank":
            lines.insert(at, b"   ")
        data = b"\n".join(lines)
    return data


def call(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def assert_one_answer(command: str, code: int, err: str) -> None:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert all(line.startswith(f"crib3 {command}: ") for line in lines), lines
    errors = [line for line in lines if not line.startswith(f"crib3 {command}: warning: ")]
    assert len(errors) <= 1, lines
    assert code in (0, 1, 2)
    assert (code == 0) == (not errors), (code, lines)


def saved_in(home: Path, data: bytes) -> tuple[Path, Path]:
    """A crib3 home whose one saved game holds `data`: (home, the file)."""
    games = home / "data" / "games"
    games.mkdir(parents=True)
    path = games / "2026-01-01-100000-000000.jsonl"
    path.write_bytes(data)
    return home, path


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_logs())
def test_every_reader_answers_a_damaged_log_in_one_line(data):
    with tempfile.TemporaryDirectory() as folder:
        home, path = saved_in(Path(folder), data)
        for reader in (load_log, parse_log, summarise_log, open_for_resume):
            try:
                reader(path)
            except LogError as exc:
                assert "\n" not in str(exc) and str(exc).startswith(str(path))
        seen = glance(path)
        assert "\n" not in seen.problem
        old = os.environ.get("CRIB3_HOME")
        os.environ["CRIB3_HOME"] = str(home)
        try:
            for command in READERS:
                code, _, err = call(command, str(path))
                assert_one_answer(command, code, err)
            code, out, err = call("games")
            assert code == 0 and not err and len(out.strip().splitlines()) == 1
            code, _, err = call("resume")
            assert_one_answer("resume", code, err)
        finally:
            if old is None:
                del os.environ["CRIB3_HOME"]
            else:
                os.environ["CRIB3_HOME"] = old


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_logs())
def test_the_real_commands_answer_a_damaged_log_in_one_line(data):
    with tempfile.TemporaryDirectory() as folder:
        home, path = saved_in(Path(folder), data)
        env = {**os.environ, "CRIB3_HOME": str(home), "PYTHONIOENCODING": "utf-8"}
        for argv in [(c, str(path)) for c in READERS] + [("games",)]:
            result = subprocess.run([*crib3_argv(), *argv], capture_output=True, text=True,
                                    env=env, stdin=subprocess.DEVNULL, timeout=120)
            if argv[0] == "games":
                assert result.returncode == 0 and not result.stderr, result
            else:
                assert_one_answer(argv[0], result.returncode, result.stderr)
