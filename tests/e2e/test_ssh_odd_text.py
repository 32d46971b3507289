"""Names and chat that could spoil a card room for others, with the real
OpenSSH client in tmux (issue 33 points 7 to 9): a chat line whose emoji
Rich and the terminal count at different widths keeps every row of every
screen its width; a name SSH refuses (an emoji: asyncssh's SASLprep allows
only characters Unicode 3.2 had) or crib3 refuses (invisible, mixed
scripts) gets one line and the connection closes."""

from __future__ import annotations

import time

import pytest
from ssh_support import needs_openssh, openssh_room, ssh

pytestmark = [needs_openssh, pytest.mark.slow]


@pytest.fixture
def open_room(tmp_path):
    """`crib3 serve --open` on a free port, and a tmux server for clients."""
    with openssh_room(tmp_path, "--open") as (port, terminals):
        yield port, terminals


def rows(screen: str) -> list[str]:
    return screen.split("\n")[:24]


def test_a_chat_line_of_emoji_keeps_every_rows_width(open_room):
    port, terminals = open_room
    terminals.open("ann", ssh(port, "ann", None))
    terminals.wait_for("ann", "Open a table")
    terminals.keys("ann", "o")
    terminals.wait_for("ann", "Second seat")
    terminals.keys("ann", "Enter")
    terminals.wait_for("ann", "Seat 1  ann  owner  (you)")
    terminals.keys("ann", "Enter")  # computer players in the other seats
    terminals.wait_for("ann", "deals first")
    terminals.open("dan", ssh(port, "dan", None))
    terminals.wait_for("dan", "hand 1")
    terminals.keys("dan", "w")
    terminals.wait_for("dan", "(you are watching)")
    # A long line first: a row drawn narrower than Rich counts would leave
    # some of it behind; one drawn wider would push the row into the next.
    # (Slowly: a session's keys are limited to a few dozen at once.)
    terminals.say("dan", "x" * 50)
    terminals.wait_for("ann", "dan: " + "x" * 50)
    before = {name: rows(terminals.wait_for(name, "x" * 50)) for name in ("ann", "dan")}
    time.sleep(2)
    terminals.say("dan", "👍🏽 👍🏽 👍🏽 👍🏽 👍🏽 end")
    for name in ("ann", "dan"):
        after = rows(terminals.wait_for(name, " end"))
        assert after[-1] == before[name][-1], (before[name], after)  # the footer, whole
        assert after[0] == before[name][0]
        said = next(row for row in after if " end" in row)
        assert said.rstrip().endswith("dan: 👍 👍 👍 👍 👍 end"), after
    terminals.keys("dan", "l")
    terminals.wait_for("dan", "open a table of your own")


@pytest.mark.parametrize("name, said", [
    # SSH's rule, before crib3 sees the name: one line from the client.
    # (The client writes the character's bytes in octal.)
    ("🃏joker", "Unassigned character: '\\360\\237\\203\\217'"),
    ("ann\U0001f3fd", "Unassigned character: '\\360\\237\\217\\275'"),
    # crib3's: SASLprep lets these through (U+3164 HANGUL FILLER becomes
    # U+1160, as invisible).
    ("ann\u3164", "crib3: a name is 1 to 20 printable characters (this one has \\u1160, "
                  "which is invisible)"),
    ("\u0430lice", "crib3: a name is in one script, or Latin with Chinese, Japanese or "
                   "Korean (this one mixes Cyrillic and Latin)"),
])
def test_an_odd_name_gets_one_line_and_the_connection_closes(open_room, name, said):
    port, terminals = open_room
    terminals.open("ann", ssh(port, "ann", None))
    terminals.wait_for("ann", "Nobody else is here yet.")
    terminals.open("odd", ssh(port, name, None) + "; echo rc=$?")
    terminals.wait_for("odd", "rc=")
    screen = terminals.run("capture-pane", "-p", "-J", "-t", "odd")  # its lines unwrapped
    lines = [line for line in screen.split("rc=")[0].splitlines() if line.strip()]
    assert len(lines) == 1 and said in lines[0], screen
    assert "rc=255" in screen if said.startswith("Unassigned") else "rc=1" in screen
    assert "Nobody else is here yet." in terminals.screen("ann")  # the room never saw them
