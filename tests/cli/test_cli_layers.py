"""Where the command line stands among the layers: it speaks no SSH (the
key policy is `crib3.net.keys`'s), the developers' tools do not load it,
and importing it, the start of every `crib3`, loads nothing heavy."""

from __future__ import annotations

from test_layers import files, loaded_by, offenders, under


def test_the_command_line_imports_no_ssh():
    """Not at the top of a module, not inside a function: `crib3 serve`
    asks `crib3.net` about keys and hands it the rest."""
    assert offenders(files("cli"), ("asyncssh",)) == []


def test_the_key_policy_loads_no_ssh_until_a_key_is_read():
    """So that `crib3 serve` refuses a wrong command line without it."""
    assert under(loaded_by("crib3.net.keys"), ("asyncssh",)) == []


def test_the_developers_tools_load_no_command_line():
    assert under(loaded_by("crib3.players.cribtable"), ("crib3.cli",)) == []


def test_importing_the_command_line_loads_nothing_heavy():
    """`crib3` alone starts from here: the commands import what they need."""
    heavy = ("argparse", "asyncssh", "textual", "rich", "crib3.engine", "crib3.tui",
             "crib3.net", "crib3.cli.parser")
    assert under(loaded_by("crib3.cli"), heavy) == []
