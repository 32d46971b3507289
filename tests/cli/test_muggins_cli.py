"""The muggins rules on the command line: `crib3 play --muggins [RULE]` and
`--pegging-claims`, and `crib3 verify` on logs with claims and on old ones."""

from __future__ import annotations

import random

import pytest
from commands import run
from logfiles import ASSETS

import crib3.cli.play as play
from crib3.cli.parser import build_parser
from crib3.engine import Game, PlayerInfo, Rules
from crib3.engine.events import FRIENDLY, MUGGINS_RULES, STRICT, ClaimRefused
from crib3.engine.log import make_header, write_log
from crib3.tui.settings import MUGGINS_RULE_NAMES, GameChoices


def chosen(monkeypatch, *argv: str) -> GameChoices:
    """The choices `crib3 play ARGV` starts its game with."""
    started = []
    monkeypatch.setattr(play, "full_screen_or_exit", lambda why: None)
    monkeypatch.setattr(play, "run_app", lambda app: started.append(app) or 0)
    args = build_parser().parse_args(["play", "--no-save", *argv])
    assert play.cmd_play(args) == 0
    choices = started[0].start_choices
    assert isinstance(choices, GameChoices)
    return choices


@pytest.mark.parametrize(("argv", "rules"), [
    ((), None),  # the new-game screen, as ever
    (("--muggins",), Rules(muggins=True)),  # today's flag: the friendly rule
    (("--muggins", "strict"), Rules(muggins=True, muggins_rule=STRICT)),
    (("--muggins=friendly", "--pegging-claims"), Rules(muggins=True, pegging_claims=True)),
    (("--pegging-claims",), Rules(muggins=True, pegging_claims=True)),
])
def test_play_takes_the_muggins_rule_and_pegging_claims(monkeypatch, crib3_home, argv, rules):
    if rules is None:
        monkeypatch.setattr(play, "full_screen_or_exit", lambda why: None)
        monkeypatch.setattr(play, "run_app", lambda app: 0 if app.start_choices is None else 1)
        assert play.cmd_play(build_parser().parse_args(["play", "--no-save"])) == 0
        return
    assert chosen(monkeypatch, *argv).rules() == rules


def test_an_unknown_muggins_rule_is_a_usage_error(capsys):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "--muggins", "house"])
    assert "invalid choice: 'house'" in capsys.readouterr().err


def test_the_settings_know_the_engine_s_muggins_rules():
    assert MUGGINS_RULE_NAMES == tuple(MUGGINS_RULES) and MUGGINS_RULE_NAMES[0] == FRIENDLY


def test_verify_reads_an_old_log_and_counts_the_refused_claims(tmp_path):
    # A person claiming a few too many now and then, under the strict rule.
    rules = Rules(target=61, muggins=True, muggins_rule=STRICT)
    game = Game.new([PlayerInfo("Ann"), PlayerInfo("Bea", "easy"), PlayerInfo("Cal", "easy")],
                    rules, seed=11)
    rng = random.Random(11)
    from crib3.engine import Count

    while not game.over:
        seat = game.to_act()[0]
        view = game.view(seat)
        command = rng.choice(view.legal)
        if isinstance(command, Count) and rng.random() < 0.5:
            command = Count(seat, max(c.points for c in view.legal if isinstance(c, Count)) + 2)
        game.dispatch(command)
    refused = sum(isinstance(e, ClaimRefused) for e in game.events)
    assert refused
    claims = tmp_path / "claims.jsonl"
    write_log(claims, game.events, make_header(source="crib3 play"))
    old = ASSETS / "muggins-skunks.jsonl"  # a version-1 log, muggins on
    done = run("verify", str(old), str(claims))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{old}: valid, ") and "refused" not in lines[0]
    assert f"events, {refused} claim{'s' * (refused != 1)} refused, " in lines[1]


def test_the_settings_file_keeps_the_rule_and_refuses_one_it_does_not_know(crib3_home):
    import json

    from crib3.tui.settings import load_choices, save_choices, settings_path

    save_choices(GameChoices(muggins=True, muggins_rule=STRICT, pegging_claims=True))
    again = load_choices()
    assert (again.muggins, again.muggins_rule, again.pegging_claims) == (True, STRICT, True)
    data = json.loads(settings_path().read_text())
    data["muggins_rule"] = "house"
    settings_path().write_text(json.dumps(data))
    assert load_choices().muggins_rule == FRIENDLY
    del data["muggins_rule"], data["pegging_claims"]  # a file from before the rules
    settings_path().write_text(json.dumps(data))
    older = load_choices()
    assert (older.muggins, older.muggins_rule, older.pegging_claims) == (True, FRIENDLY, False)
