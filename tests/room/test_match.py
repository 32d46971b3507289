"""Match play: the rules of a match (crib3.room.match), a table playing one
to its end with one rating update, and a match coming back after a restart."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st
from room.test_room import arrive, play_people

from crib3.engine import Rules
from crib3.room import Room
from crib3.room.match import Match, Played, standing_words
from crib3.room.results import MATCH, Results
from crib3.room.storage import put_away_folder
from crib3.tui.screens.lobby_words import rules_line, standing


def won_by(*winners: int, best_of: int = 3) -> Match:
    match = Match(best_of)
    for winner in winners:
        match = match.add(Played(winner, tuple(121 if s == winner else 90 for s in range(3))))
    return match


def test_the_first_to_a_majority_wins_the_match():
    assert won_by(0, best_of=1).winner == 0
    assert won_by(1, 1).winner == 1 and won_by(1, 1).over
    assert won_by(1, 0).winner is None
    assert won_by(2, 0, 2, best_of=5).winner is None
    assert won_by(2, 0, 2, 1, 2, best_of=5).winner == 2
    with pytest.raises(ValueError, match="over"):
        won_by(1, 1).add(Played(0, (121, 0, 0)))
    with pytest.raises(ValueError, match="best of"):
        Match(2)


def test_when_the_games_run_out_without_a_majority_the_match_plays_on():
    level = won_by(0, 1, 2)  # 1-1-1: nobody has two
    assert not level.over and level.extra
    assert "played on" in standing_words(level, ["Ann", "Bob", "Cy"])
    assert won_by(0, 1, 2, 1).winner == 1
    assert won_by(0, 1, 0, 1, 2, best_of=5).extra  # 2-2-1
    assert won_by(0, 1, 0, 1, 2, 2, best_of=5).winner is None  # 2-2-2: on again
    assert won_by(0, 1, 0, 1, 2, 2, 2, best_of=5).winner == 2


def test_the_ranking_is_by_games_won_and_a_seat_left_is_last():
    match = Match(3, (Played(0, (121, 100, 80)), Played(0, (121, 70, 110))))
    assert match.places() == [1, 2, 2]  # Bob and Cy won nothing: they share second
    assert match.places((False, False, True)) == [1, 2, 3]
    assert match.places((True, False, False)) == [3, 1, 1]  # the winner left: last
    assert Match(3, (*match.games[:1], Played(2, (0, 0, 121)), Played(0, (121, 0, 0)))
                 ).places() == [1, 3, 2]


@given(st.sampled_from([1, 3, 5]), st.lists(st.integers(0, 2), max_size=40))
def test_a_match_ends_at_the_first_majority_and_its_winner_ranks_first(best_of, winners):
    match = Match(best_of)
    for winner in winners:
        if match.over:
            break
        before = match.wins()
        match = match.add(Played(winner, (0, 0, 0)))
        assert sum(match.wins()) == len(match.games)
        if max(before) < match.needed <= max(match.wins()):
            assert match.winner == winner  # the game that reached the majority decides
    if match.over:
        assert match.winner is not None
        assert len(match.games) >= match.needed
        assert sorted(match.wins())[-2] < match.needed  # nobody else got there
        assert match.places()[match.winner] == 1 and match.places().count(1) == 1
    else:
        assert max(match.wins(), default=0) < match.needed


# --- a table plays a match ----------------------------------------------------------------


async def waited(check, what: str, step: float = 0.01, seconds: float = 30.0) -> None:
    """Until `check()` (looked at every `step` seconds), within `seconds`,
    or the test fails saying `what` it waited for."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not check():
        assert loop.time() < deadline, f"waited {seconds:.0f} s for {what}"
        await asyncio.sleep(step)


async def play_match(table, seats=(0,)) -> None:
    """Play the people's seats of `table`'s match, game after game, to its end."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not table.over:
        game = table.game
        await play_people(table, seats)
        while table.game is game and not table.over:  # the next game begins
            assert loop.time() < deadline, "the next game never began"
            await asyncio.sleep(0.001)


async def test_a_rated_best_of_3_plays_game_after_game_and_rates_the_match_once(tmp_path):
    room = Room(tmp_path / "tables", think=0, results=Results(tmp_path / "ratings"))
    ann = arrive(room, "Ann", "SHA256:ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"), best_of=3)
    table.start("Ann")
    await play_match(table)
    match = table.match
    assert match.over and 2 <= len(match.games) <= 5
    assert room.results is not None
    [(_, line)] = list(room.results.read())  # one result: the match's, not each game's
    assert line.game.startswith(MATCH)
    assert [p.score for p in line.placings] == match.wins()
    assert line.placings[0].best > 0  # the best hand over the match's games, for profiles
    assert room.results.skill("ssh SHA256:ann").games == 1
    away = put_away_folder(tmp_path / "tables")
    await waited((away / f"table-{table.number}.json").exists, "the match's table put away")
    logs = sorted(p.name for p in away.glob(f"table-{table.number}-game-*.jsonl"))
    assert len(logs) == len(match.games)  # each game's log kept
    assert room.lobby() == []
    mine = room.records.finished("ssh SHA256:ann")  # each game in the player's own record
    assert sorted(game.log_path.name for game in mine) == logs


async def test_a_match_comes_back_after_a_restart_with_its_games_won(tmp_path):
    room = Room(tmp_path / "tables", think=0)
    ann = arrive(room, "Ann", "SHA256:ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"), best_of=5)
    table.start("Ann")
    first = table.game
    await play_people(table, (0,))
    await waited(lambda: table.game is not first, "the next game begun by the table's task",
                 step=0.001)
    won = table.match
    assert len(won.games) == 1
    table.close()  # the server stops, the second game just begun
    again = Room(tmp_path / "tables", think=0)
    again.restore()
    [back] = again.lobby()
    assert back.match == won and back.game is not None and not back.game.over
    wins = "-".join(str(w) for w in won.wins())
    assert standing(back).startswith(f"game 2 ({wins}), hand ")  # the lobby's words
    assert rules_line(back.rules, back.rated, back.match.best_of) == "61 best of 5"
    back.close()
    # Stopped between two games (the first filed, the next not begun): it
    # comes back to begin the next.
    (tmp_path / "tables" / f"table-{table.number}.jsonl").unlink()
    third = Room(tmp_path / "tables", think=0)
    third.restore()
    [back] = third.lobby()
    assert back.match == won and back.game is not None and back.game.state.hand_number <= 1
    back.close()


async def test_a_person_who_leaves_a_rated_match_is_finished_by_the_computer_and_last(tmp_path):
    import json

    room = Room(tmp_path / "tables", think=0, results=Results(tmp_path / "ratings"))
    room.forfeit = 0.05
    ann, bob = arrive(room, "Ann", "SHA256:ann"), arrive(room, "Bob", "SHA256:bob")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"), best_of=3)
    table.sit(bob)
    table.start("Ann")
    table.leave(1)  # Bob goes, mid-match, and does not come back
    await waited(lambda: table.seats[1].replaced, "Bob's seat given to the computer by the "
                 "room's timer")
    await play_match(table)
    assert room.results is not None
    [(_, line)] = list(room.results.read())
    assert json.loads(line.line())["seats"][1]["place"] == 3


async def test_a_match_won_just_before_a_stop_is_rated_once_at_the_next_start(tmp_path):
    import os

    room = Room(tmp_path / "tables", think=0)  # (it records nothing: as if it stopped)
    ann = arrive(room, "Ann", "SHA256:ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"), best_of=3)
    table.rated = True
    table.start("Ann")
    await play_match(table)
    away = put_away_folder(tmp_path / "tables")
    await waited((away / table.meta_path.name).exists, "the stopped match put away")
    for path in (table.meta_path, *table.files.game_logs()):  # where the stop left them
        os.replace(path, tmp_path / "tables" / path.name)
    for _ in range(2):  # a start, and another
        again = Room(tmp_path / "tables", think=0, results=Results(tmp_path / "ratings"))
        again.restore()
        assert again.lobby() == [] and again.results is not None
        [(_, line)] = list(again.results.read())
        assert line.game.startswith(MATCH)
        assert [p.score for p in line.placings] == table.match.wins()
        again.results.close()
