"""`crib3 event`: an event made, listed and its results printed, as a
person runs the commands (subprocesses); the same seed, the same event."""

from __future__ import annotations

import json

from commands import crib3

from crib3.duplicate.events import load_event
from crib3.duplicate.play import play_with_bots
from crib3.engine.log import write_log


def test_an_event_made_listed_and_its_result_sheet(tmp_path):
    made = crib3("event", "new", "--boards", "3", "--seed", "41", "--name", "club",
                 home=tmp_path)
    assert made.returncode == 0, made.stderr
    assert "event club: 3 boards" in made.stdout and "crib3 event play club" in made.stdout
    assert crib3("event", "list", home=tmp_path).stdout.split() == ["club"]
    sheet = crib3("event", "results", "club", "--ascii", home=tmp_path)
    assert sheet.returncode == 0, sheet.stderr
    text = sheet.stdout
    assert "Event club: 3 boards against the computer (standard), seed 41" in text
    assert "matchpoints" in text
    for level in ("easy", "standard", "expert"):
        assert f"computer ({level})" in text
    assert "Board 1: dealer, dealt" in text and "Board 2: dealer's left" in text \
        and "Board 3: dealer's right" in text
    assert all(ord(ch) < 128 for ch in text)                      # suits as letters


def test_the_same_seed_makes_the_same_event_and_the_json_says_it_all(tmp_path):
    homes = [tmp_path / "a", tmp_path / "b"]
    for home in homes:
        assert crib3("event", "new", "--boards", "3", "--seed", "5", home=home).returncode == 0
    first, second = (json.loads(crib3("event", "results", "standard-5", "--json",
                                      home=home).stdout) for home in homes)
    for data in (first, second):
        for board in data["results"]:
            for play in board["plays"]:
                play.pop("log")                                    # (each home's own path)
    assert first == second
    assert first["event"] == "standard-5" and first["boards"] == 3
    assert [r["rank"] for r in first["ranking"]] == [1, 2, 3]
    assert sum(r["percent"] for r in first["ranking"]) == 150      # the field's mean is 50%
    board = first["results"][0]
    assert len(board["hand"]) == 5 and board["place"] == "dealer"
    assert {p["who"] for p in board["plays"]} == {"computer (easy)", "computer (standard)",
                                                  "computer (expert)"}
    events = [json.loads((home / "data/events/standard-5/event.json").read_text())
              for home in homes]
    assert events[0]["boards"] == events[1]["boards"]


def test_a_persons_play_joins_the_field_and_is_never_dealt_again(tmp_path, monkeypatch):
    assert crib3("event", "new", "--boards", "3", "--seed", "9", "--level", "easy",
                 "--name", "ev", home=tmp_path).returncode == 0
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    event = load_event("ev")
    assert event.next_board("Zoë").number == 1
    board = event.boards[0]
    game = play_with_bots(board, event.seat(1), ("expert", "easy", "easy"), ("Zoë", "L", "R"))
    write_log(event.person_log(1, "Zoë"), game.events, event.header(1, "Zoë", "test"))
    assert event.next_board("Zoë").number == 2                     # board 1 is Zoë's, done
    assert event.next_board("Ann").number == 1                     # and nobody else's
    data = json.loads(crib3("event", "results", "ev", "--json", home=tmp_path).stdout)
    zoe = next(r for r in data["ranking"] if r["who"] == "Zoë")
    assert zoe["person"] and zoe["boards"] == 1
    assert len(data["results"][0]["plays"]) == 4
    assert [b["board"] for b in data["results"]] == [1, 2, 3]
    hers = json.loads(crib3("event", "results", "ev", "--json", "--name", "Zoë",
                            home=tmp_path).stdout)
    assert [b["board"] for b in hers["results"]] == [1]             # none still to come


def test_what_cannot_be_done_is_said_in_one_line(tmp_path, monkeypatch, capsys):
    from crib3.cli import main

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    for args, said in (
            (("new", "--boards", "4"), "in threes"),
            (("new", "--name", "No Caps"), "event's name"),
            (("new", "--level", "grandmaster"), "unknown player level"),
            (("results", "nowhere"), "no event named 'nowhere'"),
            (("new", "--seed", "1", "--name", "x"), None),
            (("new", "--seed", "2", "--name", "x"), "already an event named 'x'")):
        code = main(["event", *args])
        err = capsys.readouterr().err
        if said is None:
            assert code == 0, err
            continue
        assert code == 2 and said in err, (args, err)
        assert len(err.strip().splitlines()) == 1
    play = crib3("event", "play", "x", home=tmp_path)              # as run, without a terminal
    assert play.returncode == 1 and "full-screen terminal" in play.stderr \
        and "crib3 event results" in play.stderr


def test_a_name_in_the_sheet_is_shown_never_sent_to_the_terminal(tmp_path, monkeypatch, capsys):
    from crib3.cli import main

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    assert main(["event", "new", "--boards", "3", "--seed", "2", "--name", "odd"]) == 0
    event = load_event("odd")
    name = "Bob\x1b[2J"
    board = event.boards[0]
    game = play_with_bots(board, event.seat(1), ("easy", "easy", "easy"), (name, "L", "R"))
    write_log(event.person_log(1, name), game.events, event.header(1, name, "test"))
    capsys.readouterr()
    assert main(["event", "results", "odd"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "Bob" in out
    assert main(["event", "results", "odd", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert any(r["who"] == name for r in data["ranking"])          # JSON keeps it as typed


def test_paths_says_where_the_events_are(tmp_path, monkeypatch, capsys):
    from crib3.cli import main
    from crib3.duplicate.events import events_dir

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    assert main(["paths", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["events"] == str(events_dir())


def test_a_log_that_cannot_be_read_is_left_out_and_said_so(tmp_path, monkeypatch, capsys):
    from crib3.cli import main

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    assert main(["event", "new", "--boards", "3", "--seed", "4", "--name", "torn"]) == 0
    event = load_event("torn")
    event.person_log(2, "Ann").write_text("not a log\n")
    capsys.readouterr()
    assert main(["event", "results", "torn", "--json"]) == 0
    out, err = capsys.readouterr()
    assert "person-" in err and "left out" in err
    data = json.loads(out)
    assert all(not p["person"] for board in data["results"] for p in board["plays"])
    assert event.next_board("Ann").number == 1
