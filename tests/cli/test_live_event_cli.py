"""`crib3 event new --live`: a live event made for the card room, its start
read as the next such time, and its results (none before any board is over)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from commands import crib3

from crib3.cli.events import start_time
from crib3.cli.failures import UsageError
from crib3.duplicate.events import load_event
from crib3.room.live_event import CALL_OFF, ENTERING, baseline_folder, load_live


def test_a_live_event_is_made_with_its_start_host_and_choice(tmp_path, monkeypatch):
    made = crib3("event", "new", "--live", "--start", "23:59", "--boards", "3", "--seed", "8",
                 "--name", "friday", "--host", "ann", "--short", "call-off", home=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "live event friday: 3 boards, starts 23:59 UTC" in made.stdout
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    live = load_live(load_event("friday"))
    assert live is not None and live.status == ENTERING
    assert (live.host, live.short) == ("ann", CALL_OFF)
    assert len(list(baseline_folder(live.event).glob("*/slot-*.jsonl"))) == 9
    results = json.loads(crib3("event", "results", "friday", "--json", home=tmp_path).stdout)
    assert results["live"] is True and results["results"] == []  # no board is over yet
    played = crib3("event", "play", "friday", home=tmp_path)  # never one's own boards early
    assert played.returncode != 0 and "friday is a live event" in played.stderr
    refused = crib3("event", "new", "--live", "--name", "late", home=tmp_path)
    assert refused.returncode != 0 and "--live needs --start HH:MM" in refused.stderr


def test_the_start_is_the_next_such_time_utc():
    now = datetime(2026, 12, 6, 14, 30, tzinfo=UTC)
    assert start_time("15:00", now) == datetime(2026, 12, 6, 15, 0, tzinfo=UTC).timestamp()
    assert start_time("9:05", now) == datetime(2026, 12, 7, 9, 5, tzinfo=UTC).timestamp()
    for bad in ("25:00", "noon", "12:60"):
        with pytest.raises(UsageError, match="--start"):
            start_time(bad, now)


def test_a_live_event_is_rated_when_its_host_says_so_and_only_a_live_one(tmp_path, monkeypatch):
    from crib3.room.event_ratings import is_rated

    made = crib3("event", "new", "--live", "--start", "23:59", "--boards", "3", "--seed", "8",
                 "--name", "rated", "--rated", home=tmp_path)
    assert made.returncode == 0, made.stderr
    assert made.stdout.rstrip().endswith("; rated")
    plain = crib3("event", "new", "--live", "--start", "23:59", "--boards", "3", "--seed", "8",
                  "--name", "casual", home=tmp_path)
    assert plain.returncode == 0, plain.stderr
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    assert is_rated(load_event("rated")) and not is_rated(load_event("casual"))
    refused = crib3("event", "new", "--boards", "3", "--rated", home=tmp_path)
    assert refused.returncode != 0 and "--rated is for a live event" in refused.stderr
    # --cluster likewise; and a cluster's address that is none refused before anything is made.
    refused = crib3("event", "new", "--boards", "3", "--cluster", "nats://10.0.0.5:4222",
                    home=tmp_path)
    assert refused.returncode != 0 and "--cluster is for a live event" in refused.stderr
    refused = crib3("event", "new", "--live", "--start", "23:59", "--name", "web",
                    "--cluster", "http://10.0.0.5", home=tmp_path)
    assert refused.returncode == 2 and "--cluster: a URL is nats://" in refused.stderr
    assert not (tmp_path / "data" / "events" / "web").exists()
