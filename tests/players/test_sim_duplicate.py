"""`crib3 sim --duplicate A,B`: two levels on the same shuffles in every
seating, and the frozen expert it measures against."""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from commands import run

from crib3.common.levels import BOT_LEVELS, SIM_ONLY_LEVELS
from crib3.engine import Rules
from crib3.players import make_player
from crib3.study import duplicate, sim


def test_duplicate_reports_shares_and_difference_with_intervals():
    result = run("sim", "--duplicate", "standard,easy", "--games", "3", "--seed", "5",
                 "--json", "--jobs", "1")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["mode"] == "duplicate" and data["deal_sets"] == 3 and data["games"] == 18
    share = data["a_share"]
    assert share["ci95"][0] <= share["value"] <= share["ci95"][1]
    assert data["a_minus_b"]["value"] == pytest.approx(2 * share["value"] - 1, abs=1e-3)
    for key in ("a_alone_vs_two_b", "b_alone_vs_two_a", "score_margin"):
        assert set(data[key]) == {"value", "ci95"}
    text = run("sim", "--duplicate", "standard,easy", "--games", "2", "--seed", "5", "--jobs", "1")
    assert text.returncode == 0
    assert "12 games" in text.stdout and "standard minus easy" in text.stdout


def test_a_wider_interval_is_wider_by_its_z_around_the_same_mean():
    """The benchmark that asks a 99% interval of a duplicate's gain gets one
    that is Z99/Z95 (2.576/1.960) as wide as the 95% one, around the same value."""
    values = [0.0, 1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0]
    mean, low, high = duplicate.mean_interval(values)
    mean99, low99, high99 = duplicate.mean_interval(values, z=duplicate.Z99)
    assert mean99 == mean == 0.625
    assert (high99 - low99) / (high - low) == pytest.approx(duplicate.Z99 / duplicate.Z95)
    sets = [duplicate.DealSet(n, tuple(won), (0.0,) * 6) for n, won in enumerate(
        [(True, False, True, True, True, False), (False, False, True, True, False, True),
         (True, True, True, False, True, True)])]
    summary = duplicate.DuplicateSummary("a", "b", Rules(), 5, sets=sets)
    value, lo95, hi95 = summary.difference()
    value99, lo99, hi99 = summary.difference(duplicate.Z99)
    assert value99 == value and lo99 < lo95 <= value <= hi95 < hi99


def test_a_level_against_itself_is_exactly_even():
    """The six seatings see the same cards: a level against itself wins
    exactly half, with no luck left over."""
    summary = duplicate.run("standard", "standard", 4, seed=3, jobs=1)
    assert summary.a_share() == (0.5, 0.5, 0.5)
    assert summary.margin() == (0.0, 0.0, 0.0)


def test_every_seating_gets_the_same_deal():
    hands = []
    for seating in duplicate.SEATINGS:
        levels = ["easy" if is_a else "standard" for is_a in seating]
        game = sim._play_seated(["a", "b", "c"], levels, Rules(), sim.game_seed(1, 0))
        first = next(e for e in game.events if type(e).__name__ == "CardsDealt")
        hands.append(first)
    assert all(h == hands[0] for h in hands)


def test_the_frozen_expert_is_for_the_simulator_only():
    assert "expert-2026-12" in SIM_ONLY_LEVELS and "expert-2026-12" not in BOT_LEVELS
    assert make_player("expert-2026-12").level == "expert-2026-12"
    played = run("sim", "--players", "expert-2026-12,standard,easy", "--games", "1", "--seed", "2",
                 "--json", "--jobs", "1")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["players"][0]["level"] == "expert-2026-12"
    refused = run("play", "--players", "expert-2026-12,standard")
    assert refused.returncode != 0 and "Traceback" not in refused.stderr
    assert "unknown player level 'expert-2026-12'" in refused.stderr


def test_duplicate_names_two_known_levels():
    for bad, words in (("expert", "--duplicate names two levels"),
                       ("expert,wizard", "unknown player level 'wizard'")):
        result = run("sim", "--duplicate", bad, "--games", "1")
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_discard_table_generator_writes_only_where_it_is_told(tmp_path):
    import sys

    import crib3.players.discardtable as discardtable

    packaged = discardtable.PACKAGED
    before = packaged.read_bytes()
    refused = subprocess.run([sys.executable, "-m", "crib3.players.discardtable", "--deals", "5",
                              "--out", str(packaged)], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "Traceback" not in refused.stderr
    out = tmp_path / "table.json"
    made = subprocess.run([sys.executable, "-m", "crib3.players.discardtable", "--deals", "40",
                           "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    data = json.loads(out.read_text())
    assert data["deals"] == 40 and len(data["play"]) == 3 and len(data["crib_given_kept"]) == 13
    assert packaged.read_bytes() == before


def test_the_play_from_its_first_card_matches_the_engine_with_standard_players():
    """The table's playouts score the play as the engine does when every
    seat plays the standard way."""
    import random as rnd

    from crib3.engine import Game, PlayerInfo
    from crib3.engine.state import Phase
    from crib3.players.analysis import pack_ranks
    from crib3.players.discardtable import play_points

    for seed in range(6):
        game = Game.new([PlayerInfo(f"p{i}", "standard") for i in range(3)], Rules(), seed=seed)
        bots = [make_player("standard", rnd.Random(s)) for s in range(3)]
        while game.state.phase != Phase.PLAY:
            seat = game.to_act()[0]
            game.dispatch(bots[seat].choose(game.view(seat)))
        state = game.state
        dealer = state.dealer
        hands = [pack_ranks(sorted(c.rank for c in state.hands[(dealer + 1 + i) % 3]))
                 for i in range(3)]
        before = list(state.scores)
        while game.state.phase == Phase.PLAY:
            seat = game.to_act()[0]
            game.dispatch(bots[seat].choose(game.view(seat)))
        pegged = [game.state.sources[(dealer + 1 + i) % 3][0] for i in range(3)]
        expected = play_points(hands)
        assert pegged == expected, (seed, before)


@pytest.mark.slow
def test_a_variant_of_the_expert_is_named_on_the_command_line():
    """`expert:name=value:...` changes the expert's refinements for the
    simulator alone, so two settings meet in a duplicate run without a
    code edit; a variant that names nothing real is one line, exit 2, and
    no player menu offers variants."""
    played = run("sim", "--duplicate", "expert:play_weight=0.5:skunk_discard=off,expert-2026-12",
                 "--games", "1", "--seed", "4", "--json", "--jobs", "1")
    assert played.returncode == 0, played.stderr
    assert json.loads(played.stdout)["a"] == "expert:play_weight=0.5:skunk_discard=off"
    player = make_player("expert:play_weight=0.25:peg_out=off")
    assert player.style.play_weight == 0.25 and not player.style.peg_out  # type: ignore[attr-defined]
    for bad, words in (("expert:play_weight=lots", "play_weight is a number"),
                       ("expert:wisdom=on", "'wisdom=on': give name=value"),
                       ("expert:peg_out=maybe", "peg_out is on or off")):
        result = run("sim", "--duplicate", f"{bad},expert", "--games", "1")
        assert result.returncode == 2 and "Traceback" not in result.stderr
        assert words in result.stderr and len(result.stderr.strip().splitlines()) == 1
    refused = run("play", "--players", "expert:play_weight=0.5,standard")
    assert refused.returncode != 0 and "Traceback" not in refused.stderr


def test_sim_stops_at_max_seconds_and_says_how_it_stands_as_it_goes():
    """A long run can be bounded and watched: it starts no game after
    --max-seconds, reports the games it finished, and says on stderr how
    it stands every --progress-every seconds (here after every batch)."""
    result = run("sim", "--players", "easy,easy,easy", "--games", "100000", "--seed", "4",
                 "--max-seconds", "1", "--progress-every", "0", "--json", "--jobs", "1")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    data = json.loads(result.stdout)
    assert data["stopped_early"] is True and 0 < data["games"] < 100000
    lines = result.stderr.strip().splitlines()
    assert lines and all("of 100000 games" in line and "easy-1" in line for line in lines)
    assert "%" in lines[-1] and "[" in lines[-1]  # the running share with its interval
    text = run("sim", "--players", "easy,easy,easy", "--games", "100000", "--seed", "4",
               "--max-seconds", "0.5", "--quiet", "--jobs", "1")
    assert text.returncode == 0 and text.stderr == ""
    assert "stopped at --max-seconds" in text.stdout and "of 100000 games played" in text.stdout


def test_duplicate_stops_at_max_seconds_and_says_how_it_stands_as_it_goes():
    result = run("sim", "--duplicate", "standard,easy", "--games", "10000", "--seed", "4",
                 "--max-seconds", "1", "--progress-every", "0", "--json", "--jobs", "1")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    data = json.loads(result.stdout)
    assert data["stopped_early"] is True and 0 < data["deal_sets"] < 10000
    assert data["games"] == 6 * data["deal_sets"]
    lines = result.stderr.strip().splitlines()
    assert lines and all("of 10000 deal sets" in line for line in lines)
    assert "standard minus easy" in lines[-1] and "[" in lines[-1]


def test_a_run_past_its_deadline_starts_nothing_and_says_so():
    """A deadline already past: no game is started, and the summary knows it."""
    full = sim.run(["standard", "easy", "easy"], 4, seed=9, jobs=1)
    cut = sim.run(["standard", "easy", "easy"], 4, seed=9, jobs=1, max_seconds=0)
    assert cut.games == 0 and cut.stopped_early and not full.stopped_early
    dup = duplicate.run("standard", "easy", 2, seed=9, jobs=1, max_seconds=0)
    assert dup.sets == [] and dup.stopped_early and dup.difference() == (0.0, 0.0, 0.0)


def _fail_the_first(numbers: list[int]) -> list[int]:
    """A batch of a run: the first fails at once, every other takes a while
    and leaves a mark that it ran (in the folder CRIB3_TEST_MARKS names)."""
    import time

    if numbers[0] == 0:
        raise RuntimeError("a bot failed")
    time.sleep(0.05)
    mark = os.path.join(os.environ["CRIB3_TEST_MARKS"], str(numbers[0]))
    with open(mark, "w"):
        pass
    return numbers


def test_a_batch_that_fails_ends_the_run_without_playing_the_rest(tmp_path, monkeypatch):
    """A worker's error reaches the caller at once: the batches still
    queued are not played first (a run with a crashing bot went on for its
    whole --max-seconds, silent, before the error was told)."""
    monkeypatch.setenv("CRIB3_TEST_MARKS", str(tmp_path))
    work = [[n] for n in range(400)]
    with pytest.raises(RuntimeError, match="a bot failed"):
        sim.run_batches(_fail_the_first, work, 2, lambda done: None)
    assert len(list(tmp_path.iterdir())) < 100
