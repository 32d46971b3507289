"""`crib3 review`, run as a real subprocess the way a user runs it."""

from __future__ import annotations

import json

import pytest
from commands import assert_clean_failure, run
from logfiles import ASSETS


def test_review_json_is_one_object_a_seat_and_the_same_byte_for_byte():
    log = str(ASSETS / "short-61.jsonl")  # three computer players: every seat
    first = run("review", log, "--json")
    assert first.returncode == 0, first.stderr
    assert run("review", log, "--json").stdout == first.stdout
    reviews = [json.loads(line) for line in first.stdout.splitlines()]
    assert [r["seat"] for r in reviews] == [0, 1, 2]
    for r in reviews:
        assert set(r["summary"]) >= {"discard", "play", "count", "total"}
        assert r["decisions"] and {d["kind"] for d in r["decisions"]} <= {
            "discard", "play", "count", "muggins"}
        for d in r["decisions"]:
            assert d["cost"] >= 0 and (d["cost"] == 0) == d["matched"]
            assert d["ranking"][0]["option"] == d["best"]
        total = r["summary"]["discard"] + r["summary"]["play"] + r["summary"]["count"]
        assert abs(total - r["summary"]["total"]) < 0.02


def test_review_reviews_the_people_by_default_and_says_where_the_points_went():
    result = run("review", str(ASSETS / "muggins-skunks.jsonl"), "--ascii")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Review of P0 (seat 0)" in out and "Review of P2 (seat 2)" in out
    assert "Review of P1" not in out  # the computer player is not reviewed unasked
    assert "Points given up: discard" in out and "The costliest:" in out
    assert "why " in out and "count" in out
    assert "\N{BLACK HEART SUIT}" not in out  # --ascii


def test_review_by_seat_and_by_name():
    log = str(ASSETS / "muggins-skunks.jsonl")
    by_seat = json.loads(run("review", log, "--seat", "1", "--json").stdout)
    by_name = json.loads(run("review", log, "--name", "p1", "--json").stdout)
    assert by_seat == by_name and by_seat["seat"] == 1 and by_seat["name"] == "P1"


@pytest.mark.parametrize("args, code, words", [
    (("missing.jsonl",), 2, "no such file"),
    ((str(ASSETS / "short-61.jsonl"), "--seat", "3"), 2, "the seats are 0, 1 and 2"),
    ((str(ASSETS / "short-61.jsonl"), "--name", "Zed"), 2, "nobody of that name"),
    ((str(ASSETS / "short-61.jsonl"), "--seat", "1", "--name", "P1"), 2, "not allowed"),
])
def test_review_bad_input_is_one_line(args, code, words, tmp_path):
    result = run("review", *args, cwd=tmp_path)
    assert_clean_failure(result, code)
    assert words in result.stderr


def test_review_of_something_that_is_not_a_game_log_is_one_line(tmp_path):
    # As `crib3 replay` and `verify` tell it: FILE:LINE: reason, exit 1.
    text = tmp_path / "notes.txt"
    text.write_text("shopping: eggs\n")
    result = run("review", str(text))
    assert_clean_failure(result, 1)
    assert "notes.txt:1:" in result.stderr


def test_a_damaged_game_is_reviewed_up_to_its_last_good_line(tmp_path):
    # As `crib3 replay` does: a warning, and nothing played before the damage lost.
    lines = (ASSETS / "short-61.jsonl").read_text().splitlines(keepends=True)
    damaged = tmp_path / "damaged.jsonl"
    damaged.write_text("".join(lines[:120]) + '{"type": "CardPlayed", "oops": 1}\n'
                       + "".join(lines[121:]))
    result = run("review", str(damaged), "--seat", "0", "--json")
    assert result.returncode == 0, result.stderr
    assert "damaged.jsonl:121:" in result.stderr and "reviewing the 119 valid events" \
        in result.stderr
    assert "Traceback" not in result.stderr
    review = json.loads(result.stdout)
    whole = json.loads(run("review", str(ASSETS / "short-61.jsonl"), "--seat", "0",
                           "--json").stdout)
    assert review["decisions"] and review["decisions"] == \
        [d for d in whole["decisions"] if d["event"] < 119]
