"""What `crib3 serve --help` and `crib3 invite` say of the card room's
limits is true: loopback is an address like any other under --open, and a
link's hours are hours, more than none and at most 30 days."""

from __future__ import annotations

import pytest

from crib3.cli.parser import build_parser


def help_of(command: str) -> None:
    """Print `crib3 COMMAND --help` (argparse exits after it)."""
    with pytest.raises(SystemExit):
        build_parser().parse_args([command, "--help"])


def test_serve_help_says_loopback_counts_as_an_address(capsys):
    help_of("serve")
    text = " ".join(capsys.readouterr().out.split())
    assert "loopback not counted" not in text
    assert "one client address (loopback too" in text


@pytest.mark.parametrize("given", ["-1", "0", "1e9", "721", "inf", "nan"])
def test_invite_hours_out_of_range_are_refused_in_one_line(capsys, given):
    with pytest.raises(SystemExit):
        build_parser().parse_args(["invite", f"--hours={given}"])
    error = capsys.readouterr().err
    assert error == (f"crib3 invite: argument --hours: {given!r}: give hours, more than 0 "
                     "and at most 720 (30 days) (see crib3 invite --help)\n")


@pytest.mark.parametrize("given, hours", [("0.5", 0.5), ("24", 24.0), ("720", 720.0)])
def test_invite_hours_in_range_are_taken(given, hours):
    assert build_parser().parse_args(["invite", "--hours", given]).hours == hours
