"""The commands that read saved games, run as subprocesses: each takes a game
as `crib3 games` names it, `stats --json` gives each player's results, and
`practice --from-games` says where the costly plays are when it has no
costly discard."""

from __future__ import annotations

import pytest
from games import random_game


@pytest.mark.slow
def test_every_command_takes_the_game_as_games_names_it(tmp_path):
    import re

    from commands import crib3

    from crib3.engine.log import write_log

    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    finished = [random_game(seed) for seed in (3, 4)]
    for n, game in enumerate(finished):
        write_log(games / f"2026-12-05-07141{n}-882466.jsonl", game.events)
    listed = crib3("games", home=tmp_path)
    assert listed.returncode == 0, listed
    lines = listed.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["1", "2"]
    for line, game in zip(lines, finished):
        state = game.state
        won = re.search(r"won by \S+ (\d+)-(\d+)-(\d+)", line)
        assert int(won[1]) == state.scores[state.winner] >= 121, line  # the winner's first
        assert sorted(map(int, won.groups())) == sorted(state.scores)
    name = re.search(r"\[(.+)\]", lines[1])[1]
    whole = crib3("export", str(games / name), home=tmp_path).stdout
    assert whole
    for given in (name, name.removesuffix(".jsonl"), "2", "latest"):
        for command in ("export", "review", "verify", "stats"):
            result = crib3(command, given, home=tmp_path)
            assert result.returncode == 0 and "no such file" not in result.stderr, \
                (command, given, result)
        assert crib3("export", given, home=tmp_path).stdout == whole
        for command in ("replay", "resume"):  # found: then no terminal, or no person to play
            result = crib3(command, given, home=tmp_path)
            assert "no such file" not in result.stderr and result.returncode != 0, result
            assert "full-screen terminal" in result.stderr or "finished" in result.stderr
    assert crib3("export", "1", home=tmp_path).stdout != whole      # the first in the list
    for missing in ("3", "0", "nosuch", "nosuch.jsonl"):
        result = crib3("export", missing, home=tmp_path)
        assert result.returncode == 2 and "no such file" in result.stderr, result


def test_stats_json_gives_each_players_results(tmp_path):
    import json

    from commands import crib3

    from crib3.engine.log import write_log

    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    played = [random_game(seed) for seed in (3, 4, 5)]
    for n, game in enumerate(played):
        write_log(games / f"2026-12-05-07141{n}-882466.jsonl", game.events)
    result = crib3("stats", "--json", home=tmp_path)
    assert result.returncode == 0, result
    players = {p["name"]: p for p in json.loads(result.stdout)["players"]}
    for name, stats in players.items():
        seat = int(name[1:])
        assert stats["results"] == [game.state.winner == seat for game in played]
        assert stats["wins"] == sum(stats["results"])


def test_practice_from_games_with_only_costly_plays_suggests_the_pegging_trainer(tmp_path):
    """A saved hand whose discard was the coach's and whose plays were not:
    the discard trainer has nothing, and says where the costly plays are."""
    from commands import assert_clean_failure, crib3

    from crib3.engine.log import write_log
    from crib3.study.review import review_events

    events = random_game(7, ("human", "easy", "easy")).events
    events = events[: next(i for i, e in enumerate(events) if e.type == "HandEnded") + 1]
    decisions = review_events(events, 0).decisions
    assert all(d.matched for d in decisions if d.kind == "discard")
    assert any(not d.matched for d in decisions if d.kind == "play")
    games = tmp_path / "data" / "games"
    games.mkdir(parents=True)
    write_log(games / "2026-12-05-071410-882466.jsonl", events)
    result = crib3("practice", "--from-games", home=tmp_path)
    assert_clean_failure(result, 2)
    assert "no costly discards" in result.stderr
    assert "crib3 practice --from-games --pegging" in result.stderr
