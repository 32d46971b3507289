"""The command line's grammar (crib3.cli.parser): options that several
commands share are written once, as parent parsers, and every command
still lists its options in the order its help always has."""

from __future__ import annotations

import pytest

from crib3.cli.parser import build_parser

# Each command's usage line, as `crib3 COMMAND --help` has always begun.
USAGE = {
    "score": "[-h] [--crib] [--json] [--ascii] CARD [CARD ...]",
    "sim": "[-h] [--games N] [--seed S] [--players A,B,C] [--log-dir DIR] [--json] [--jobs J] "
           "[--short] [--skunks] [--quiet] [--max-seconds S] [--progress-every S] "
           "[--duplicate A,B]",
    "play": "[-h] [--players L,R] [--seed S] [--name NAME] [--skunks] [--muggins [RULE]] "
            "[--pegging-claims] [--short] [--ascii] [--think SECONDS] [--no-save]",
    "games": "[-h]",
    "resume": "[-h] [--ascii] [--think SECONDS] [--no-save] [log]",
    "replay": "[-h] [--coach] [--ascii] LOG",
    "review": "[-h] [--seat N | --name NAME] [--json] [--ascii] LOG",
    "practice": "[-h] [--pegging] [--seed S] [--from-games] [--ascii]",
    "export": "[-h] [--text | --json] [--ascii] LOG",
    "stats": "[-h] [--json] [--ascii] [LOG ...]",
    "verify": "[-h] LOG [LOG ...]",
    "serve": "[-h] [--host HOST] [--port PORT] [--host-key FILE] [--authorized-keys FILE | "
             "--open] [--admins FILE] [--motd TEXT | --motd-file FILE] [--think SECONDS] "
             "[--patience SECONDS] [--show-pace SECONDS] "
             "[--idle-close SECONDS] [--tables-per-key N] [--names-per-key N] "
             "[--web [HOST:]PORT] [--public-url URL] [--tls-cert FILE] [--tls-key FILE] "
             "[--workers N] [--max-startups START:RATE:FULL] [--per-address N] "
             "[--login-grace SECONDS] [--auth-tries N] [--lobby-idle SECONDS] "
             "[--metrics [HOST:]PORT] [--log-format {text,json}] "
             "[--log-level {debug,info,warning,error}] "
             "[--cluster URL[,URL...]] [--node NAME] [--cluster-creds FILE] "
             "[--cluster-tls-ca FILE] [--cluster-lease SECONDS] [--config FILE] "
             "[--print-config] [--no-ratings]",
    "invite": "[-h] [--table N] [--hours H] [--list] [--revoke ID] [NAME]",
    "tables": "[-h] COMMAND ...",
    "paths": "[-h] [--json]",
    "completion": "[-h] SHELL",
    "man": "[-h]",
    "ratings": "[-h] [--top N] [--people] [--json] COMMAND ...",
    "event": "[-h] COMMAND ...",
}


def commands() -> dict:
    parser = build_parser()
    return next(action.choices for action in parser._actions if action.dest == "command")


@pytest.mark.parametrize("command", list(USAGE))
def test_every_command_lists_its_options_in_the_order_it_always_has(command, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # one line, whatever the terminal
    assert commands()[command].format_usage() == f"usage: crib3 {command} {USAGE[command]}\n"


def test_the_commands_are_those_and_in_that_order():
    assert list(commands()) == list(USAGE)


def test_a_shared_option_is_one_definition():
    """--ascii with the same words is the same option in every command that
    takes it, and so are the saved game (LOG) and --think at the table."""
    found = commands()

    def action(command: str, dest: str):
        return next(a for a in found[command]._actions if a.dest == dest)

    for dest, sharing in (("ascii", ("resume", "replay", "review", "practice", "export")),
                          ("log", ("replay", "review", "export")),
                          ("think", ("play", "resume")),
                          ("json", ("score", "review"))):
        assert len({id(action(command, dest)) for command in sharing}) == 1, dest
    assert action("serve", "think").default == 0.6  # serve's own pace, not the table's
    assert action("play", "think").default is None
