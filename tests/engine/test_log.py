"""The game log: round trips, the sample logs, and every kind of bad file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from games import random_game
from hypothesis import given
from hypothesis import strategies as st
from logfiles import SAMPLES

from crib3.engine import Game, Rules, fold
from crib3.engine.log import LogError, LogWriter, load_log, make_header, parse_log, write_log


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_sample_logs_replay_and_verify(path):
    loaded = load_log(path)
    assert loaded.warnings == []
    assert loaded.state.winner is not None
    assert fold(loaded.events) == loaded.state
    game = Game.from_events(loaded.events)
    assert game.state == loaded.state


def test_there_are_sample_logs_for_every_optional_rule():
    names = {p.name for p in SAMPLES}
    assert {"easy-121.jsonl", "muggins-skunks.jsonl", "short-61.jsonl"} <= names


def test_writer_appends_and_reader_gets_the_same_game(tmp_path):
    path = tmp_path / "g.jsonl"
    with LogWriter(path) as log:
        game = random_game(3, rules=Rules(skunks=True), on_event=lambda e, s: log.append(e))
    loaded = load_log(path)
    assert loaded.events == game.events
    assert loaded.state == game.state


def test_a_game_in_progress_resumes_from_its_log(tmp_path):
    path = tmp_path / "g.jsonl"
    game = random_game(5)
    write_log(path, game.events[:100])
    loaded = load_log(path)
    resumed = Game.from_events(loaded.events)
    assert resumed.state == fold(game.events[:100])
    assert not resumed.over


def lines_of(path: Path) -> list[str]:
    return path.read_text().splitlines()


@pytest.fixture
def good_log(tmp_path) -> Path:
    path = tmp_path / "game.jsonl"
    write_log(path, random_game(9).events)
    return path


def rewrite(path: Path, lines: list[str], newline: bool = True) -> Path:
    path.write_text("\n".join(lines) + ("\n" if newline else ""))
    return path


def edit_event(path: Path, index: int, **changes) -> Path:
    """Change fields of the event on line `index` (0-based; the header is 0)."""
    lines = lines_of(path)
    data = json.loads(lines[index])
    data.update(changes)
    lines[index] = json.dumps(data)
    return rewrite(path, lines)


def find_line(path: Path, type_: str, nth: int = 0) -> int:
    found = [i for i, line in enumerate(lines_of(path)) if f'"type": "{type_}"' in line]
    return found[nth]


def error_of(path: Path) -> LogError:
    with pytest.raises(LogError) as info:
        load_log(path)
    return info.value


def test_truncated_last_line_loads_what_came_before_with_a_warning(good_log):
    lines = lines_of(good_log)
    rewrite(good_log, lines[:-1] + [lines[-1][:25]], newline=False)
    loaded = load_log(good_log)
    assert len(loaded.events) == len(lines) - 2
    assert "cut off" in loaded.warnings[0] and f":{len(lines)}:" in loaded.warnings[0]


def test_not_json_in_the_middle_names_the_line(good_log):
    lines = lines_of(good_log)
    lines[10] = "{oops"
    error = error_of(rewrite(good_log, lines))
    assert error.line == 11 and "not JSON" in str(error) and str(good_log) in str(error)
    assert len(error.valid) == 9


def test_unknown_version_and_foreign_files(tmp_path, good_log):
    assert "newer" in str(error_of(edit_event(good_log, 0, version=99)))
    foreign = tmp_path / "notes.jsonl"
    foreign.write_text('{"hello": 1}\n')
    assert "not a crib3 game log" in str(error_of(foreign))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert "empty" in str(error_of(empty))
    binary = tmp_path / "b.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert "UTF-8" in str(error_of(binary))
    assert error_of(tmp_path / "missing.jsonl").line == 0


def test_unknown_event_type(good_log):
    error = error_of(edit_event(good_log, 5, type="CardsStolen"))
    assert error.line == 6 and "unknown event type 'CardsStolen'" in str(error)


def test_bad_field_values_are_named(good_log):
    line = find_line(good_log, "CardPlayed")
    error = error_of(edit_event(good_log, line, card="ZZ"))
    assert error.line == line + 1 and "card" in error.reason
    assert "seat" in error_of(edit_event(good_log, line, seat="two")).reason


def test_an_illegal_move_is_refused_with_the_rules_reason(good_log):
    lines = lines_of(good_log)
    line = find_line(good_log, "CardPlayed")
    data = json.loads(lines[line])
    data["seat"] = (data["seat"] + 1) % 3
    lines[line] = json.dumps(data)
    error = error_of(rewrite(good_log, lines))
    assert error.line == line + 1
    assert "cannot play" in error.reason


def test_a_duplicated_card_in_the_shuffle_is_refused(good_log):
    line = find_line(good_log, "DeckShuffled")
    data = json.loads(lines_of(good_log)[line])
    deck = data["deck"]
    deck[1] = deck[0]
    error = error_of(edit_event(good_log, line, deck=deck))
    assert "twice" in error.reason and error.line == line + 1


def test_scores_that_do_not_follow_from_the_moves_are_refused(good_log):
    line = find_line(good_log, "HandCounted")
    data = json.loads(lines_of(good_log)[line])
    error = error_of(edit_event(good_log, line, scores=[s + 1 for s in data["scores"]]))
    assert error.line == line + 1 and "scores" in error.reason and "rules give" in error.reason


def test_an_event_that_cannot_happen_here(good_log):
    lines = lines_of(good_log)
    line = find_line(good_log, "GoSaid")
    del lines[line]
    error = error_of(rewrite(good_log, lines))
    assert error.line == line + 1


def test_events_after_the_win_are_refused(good_log):
    lines = lines_of(good_log)
    error = error_of(rewrite(good_log, lines + [lines[-2]]))
    assert "after the game was won" in error.reason


def test_reading_never_changes_the_file(good_log):
    before = good_log.read_bytes()
    load_log(good_log)
    parse_log(good_log)
    assert good_log.read_bytes() == before


def test_header_names_format_and_version():
    header = make_header()
    assert header["format"] == "crib3-log" and header["version"] == 3  # 2: take-backs, 3: claims


def test_a_version_1_log_is_still_read_but_cannot_hold_a_takeback(tmp_path):
    from test_takeback import LOCAL, game_with_takebacks

    from crib3.engine import events as ev

    game = game_with_takebacks(5)
    old = {**LOCAL, "version": 1}
    plain = tmp_path / "plain.jsonl"
    write_log(plain, game_with_takebacks(6, chance=0.0).events, old)
    assert load_log(plain).header["version"] == 1
    taken = tmp_path / "taken.jsonl"
    write_log(taken, game.events, old)
    first = next(i for i, e in enumerate(game.events) if isinstance(e, ev.TakenBack))
    error = error_of(taken)
    assert error.line == first + 2 and "take-back" in error.reason


_GAME_LINES = None


def game_lines() -> list[str]:
    global _GAME_LINES
    if _GAME_LINES is None:
        from crib3.engine.log import event_line

        game = random_game(21, ("human", "easy", "easy"), Rules(muggins=True))
        _GAME_LINES = [json.dumps(make_header())] + [event_line(e) for e in game.events]
    return list(_GAME_LINES)


mutation = st.one_of(
    st.tuples(st.just("cut"), st.integers(0, 10**6)),
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
    st.tuples(st.just("swap"), st.integers(0, 10**6), st.integers(0, 10**6)),
    st.tuples(st.just("drop"), st.integers(0, 10**6)),
    st.tuples(st.just("dup"), st.integers(0, 10**6)),
    st.tuples(st.just("number"), st.integers(0, 10**6), st.integers(-5, 200)),
    st.tuples(st.just("card"), st.integers(0, 10**6),
              st.sampled_from(["5H", "JD", "ZZ", "", "10X"])),
)


@given(st.lists(mutation, min_size=1, max_size=4))
def test_any_mutated_log_loads_or_fails_cleanly(tmp_path_factory, mutations):
    import re

    lines = game_lines()
    for m in mutations:
        kind, a = m[0], m[1]
        if kind == "cut":
            text = "\n".join(lines)
            lines = text[: a % (len(text) + 1)].split("\n")
        elif kind == "flip" and lines:
            i = a % len(lines)
            if lines[i]:
                j = m[2] % len(lines[i])
                lines[i] = (lines[i][:j] + chr((ord(lines[i][j]) + m[2]) % 0x7F or 1)
                            + lines[i][j + 1:])
        elif kind == "swap" and lines:
            i, j = a % len(lines), m[2] % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "drop" and lines:
            del lines[a % len(lines)]
        elif kind == "dup" and lines:
            i = a % len(lines)
            lines.insert(i, lines[i])
        elif kind == "number" and lines:
            i = a % len(lines)
            lines[i] = re.sub(r"\b\d+\b", str(m[2]), lines[i], count=1)
        elif kind == "card" and lines:
            i = a % len(lines)
            lines[i] = re.sub(r'"(10|[2-9AJQK])[SHDC]"', f'"{m[2]}"', lines[i], count=1)
    path = tmp_path_factory.mktemp("mut") / "g.jsonl"
    path.write_text("\n".join(lines))
    try:
        loaded = load_log(path)
    except LogError as error:
        assert error.line >= 0 and str(path) in str(error)
        assert "\n" not in str(error)
    else:
        assert fold(loaded.events) == loaded.state


def test_writing_on_after_a_crash_drops_the_cut_off_line(tmp_path):
    from crib3.engine.log import event_line

    path = tmp_path / "g.jsonl"
    game = random_game(13)
    with LogWriter(path) as log:
        for event in game.events[:50]:
            log.append(event)
    with open(path, "a") as f:
        f.write(event_line(game.events[50])[:17])  # the crash, mid-line
    assert len(load_log(path).events) == 50
    with LogWriter(path) as log:
        for event in game.events[50:]:
            log.append(event)
    assert load_log(path).state == game.state


def test_the_writer_refuses_to_append_to_a_foreign_file(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("my shopping list\n")
    with pytest.raises(LogError, match="not a crib3 game log"):
        LogWriter(path)
    assert path.read_text() == "my shopping list\n"


def test_players_must_be_three_known_kinds_with_different_names(good_log):
    line = json.loads(lines_of(good_log)[1])
    players = line["players"]
    players[1]["kind"] = "robot"
    assert "'robot'" in error_of(edit_event(good_log, 1, players=players)).reason
    players[1] = dict(players[0])
    assert "different names" in error_of(edit_event(good_log, 1, players=players)).reason


def test_cards_in_logs_are_written_one_way_only(good_log):
    line = find_line(good_log, "CardPlayed")
    card = json.loads(lines_of(good_log)[line])["card"]
    assert "card" in error_of(edit_event(good_log, line, card=card.lower())).reason


def test_a_redacted_copy_cannot_pass_for_a_log(tmp_path):
    from crib3.engine import redact

    game = random_game(2)
    path = tmp_path / "seat0.jsonl"
    write_log(path, [redact(e, 0) for e in game.events])
    assert "redacted" in error_of(path).reason
