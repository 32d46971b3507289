"""The `crib3` command, run as a real subprocess the way a user runs it."""

from __future__ import annotations

import json
import subprocess

import pytest
from commands import CRIB3, assert_clean_failure, lines_from, run, serve_says
from logfiles import ASSETS


def test_help_lists_every_command_and_version_works():
    result = run("--help")
    assert result.returncode == 0
    for command in ("score", "sim", "verify"):
        assert command in result.stdout
    version = run("--version")
    assert version.returncode == 0 and version.stdout.startswith("crib3 ")


def test_score_says_the_count_and_the_total():
    result = run("score", "5H", "5C", "5S", "JD", "5D")
    assert result.returncode == 0
    assert "fifteen two, fifteen four" in result.stdout
    assert "nobs is twenty-nine" in result.stdout
    assert result.stdout.strip().endswith("total 29")


def test_score_json_and_crib():
    data = json.loads(run("score", "2h", "4h", "6h", "9h", "ks", "--json").stdout)
    assert data["total"] == 4 + 4 and {i["kind"] for i in data["items"]} == {"flush", "fifteen"}
    crib = json.loads(run("score", "2h", "4h", "6h", "9h", "ks", "--crib", "--json").stdout)
    assert crib["total"] == 4 and crib["crib"] is True
    assert all(set(item) == {"kind", "cards", "points"} for item in data["items"])


@pytest.mark.parametrize("args, words", [
    (("score", "5H", "ZZ", "5S", "JD", "5D"), "'ZZ'"),
    (("score", "5H", "5C"), "five"),
    (("score", "5H", "5H", "5S", "JD", "5D"), "twice"),
    (("sim", "--players", "easy,wizard,easy"), "wizard"),
    (("sim", "--players", "easy,easy"), "three"),
    (("sim", "--games", "0"), "--games"),
    # A stray argument is the command's mistake, named by the command.
    (("sim", "expert,standard,standard"),
     "crib3 sim: unrecognized arguments: expert,standard,standard (see crib3 sim --help)"),
    (("--seed", "4", "extra"), "crib3 play: unrecognized arguments: extra"),
    (("bogus",), "crib3: argument COMMAND: invalid choice"),
])
def test_bad_input_gets_one_line_and_exit_2(args, words):
    result = run(*args)
    assert_clean_failure(result, 2)
    assert words in result.stderr


def test_sim_json_summary_and_logs_that_verify(tmp_path):
    result = run("sim", "--games", "6", "--seed", "4", "--players", "easy,easy,easy",
                 "--log-dir", str(tmp_path), "--json", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["games"] == 6 and data["seconds"] > 0
    assert [p["level"] for p in data["players"]] == ["easy", "easy", "easy"]
    assert sum(p["wins"] for p in data["players"]) == 6
    logs = sorted(tmp_path.glob("*.jsonl"))
    assert len(logs) == 6
    verified = run("verify", *map(str, logs))
    assert verified.returncode == 0 and verified.stdout.count("valid") == 6


def test_sim_is_repeatable_and_independent_of_jobs():
    one = json.loads(run("sim", "--games", "8", "--seed", "9", "--json", "--jobs", "1").stdout)
    two = json.loads(run("sim", "--games", "8", "--seed", "9", "--json", "--jobs", "2").stdout)
    assert one["players"] == two["players"]


def test_sim_text_summary():
    result = run("sim", "--games", "3", "--seed", "1", "--jobs", "1")
    assert result.returncode == 0
    assert "games/s" in result.stdout and "easy-1" in result.stdout and "95% CI" in result.stdout


def test_verify_exit_codes(tmp_path):
    good = ASSETS / "easy-121.jsonl"
    assert run("verify", str(good)).returncode == 0
    bad = tmp_path / "bad.jsonl"
    lines = good.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if '"CardPlayed"' in line)
    play = json.loads(lines[n])
    play["seat"] = (play["seat"] + 1) % 3
    lines[n] = json.dumps(play)
    bad.write_text("\n".join(lines) + "\n")
    result = run("verify", str(good), str(bad))
    assert_clean_failure(result, 1)
    assert (result.stderr.startswith(f"crib3 verify: {bad}:{n + 1}: ")
            and "cannot play" in result.stderr)
    assert_clean_failure(run("verify", str(tmp_path / "nope.jsonl")), 2)
    usage = run("verify")
    assert usage.returncode == 2 and "Traceback" not in usage.stderr


def test_sim_takes_every_level_and_reports_them_in_order():
    data = json.loads(run("sim", "--games", "3", "--seed", "2", "--players",
                          "expert,standard,easy", "--json", "--jobs", "1").stdout)
    assert [p["level"] for p in data["players"]] == ["expert", "standard", "easy"]
    for p in data["players"]:
        low, high = p["win_share_95ci"]
        assert 0 <= low <= p["win_share"] <= high <= 1
        assert set(p["mean_points"]) >= {"pegging", "hand", "crib", "heels"}


def test_serve_says_what_is_missing_in_one_line(tmp_path):
    keys = tmp_path / "nowhere" / "authorized_keys"
    result = run("serve", "--authorized-keys", str(keys))
    assert_clean_failure(result, 2)
    assert "no authorized keys" in result.stderr and "--open" in result.stderr
    assert_clean_failure(run("serve", "--port", "70000", "--open"), 2)
    both = run("serve", "--open", "--authorized-keys", str(keys))
    assert both.returncode == 2 and "not allowed with" in both.stderr


@pytest.mark.slow
def test_serve_on_a_taken_port_fails_cleanly_and_open_warns(tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = run("serve", "--open", "--port", str(port), "--host-key",
                     str(tmp_path / "host_key"))
        assert result.returncode == 1 and "Traceback" not in result.stderr
        assert "address already in use" in result.stderr.lower()
    lines = serve_says(tmp_path, "--open", "--port", "0", "--host-key",
                       str(tmp_path / "host_key"))
    assert any("warning: --open: anyone" in line for line in lines), lines
    assert any("listening on 127.0.0.1:" in line for line in lines), lines
    assert oct((tmp_path / "host_key").stat().st_mode & 0o777) == "0o600"


@pytest.mark.slow
def test_serve_reports_a_damaged_table_then_stops_on_a_signal_with_every_table_saved(tmp_path):
    """The serve loop (crib3.net.serving): a table it cannot resume is
    one warning line, and SIGINT ends the server cleanly (exit 0)."""
    import os
    import signal

    tables = tmp_path / "data" / "tables"
    tables.mkdir(parents=True)
    (tables / "table-4.json").write_text("{not json", encoding="utf-8")
    server = subprocess.Popen([*CRIB3, "serve", "--open", "--port", "0", "--host-key",
                               str(tmp_path / "host_key")], stderr=subprocess.PIPE, text=True,
                              env={**os.environ, "CRIB3_HOME": str(tmp_path)})
    try:
        lines = lines_from(server.stderr, 3, what="crib3 serve's stderr")
        server.send_signal(signal.SIGINT)
        _, rest = server.communicate(timeout=20)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=10)
    assert " WARNING " in lines[0], lines  # a console line of the log: dated, levelled
    assert "crib3.serve.console: warning: a table could not be resumed: " in lines[0], lines
    assert "table-4.json" in lines[0]
    assert any("listening on 127.0.0.1:" in line for line in lines), lines
    assert server.returncode == 0 and "Traceback" not in rest
    assert rest.strip().splitlines()[-1].endswith(
        " crib3.serve.console: crib3 serve: stopping; every table is saved")
