"""User names at the card room are shown literally (issue 11 point 1): names
that look like markup sign in and everyone's screens keep working; names
that cannot be names get one line and a closed connection."""

from __future__ import annotations

import asyncio
import logging
import shlex

import pytest
from ssh_support import Client, needs_openssh, openssh_room, seat_three, serving, until

pytestmark = pytest.mark.slow

MARKUP_NAMES = ("[/]", "[b]BOLD", "[@click=app.quit]zz")


def click(x: int, y: int) -> bytes:
    """A left click at column `x`, row `y` (from 0), as an xterm sends it (SGR)."""
    return f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m".encode()


async def test_markup_names_sign_in_and_the_lobby_shows_them_literally(tmp_path):
    async with serving(tmp_path) as server:
        ann = await Client.connect(server.port, "ann")
        await ann.shows("Nobody else is here yet.")
        people = []
        for name in MARKUP_NAMES:
            person = await Client.connect(server.port, name)
            await person.shows(f"You are {name}.")
            people.append(person)
        # Sorted, as the lobby lists them: every one literal, none styled away.
        also = "Also here: [/], [@click=app.quit]zz, [b]BOLD."
        await ann.shows(f"You are ann. {also}")
        # A name in a table's row: the one who opens it.
        people[0].press("o")
        await people[0].shows("Second seat")
        people[0].press("\r")
        await until(lambda: server.room.tables, what="the table")
        await ann.shows("[/], · free ·, · free ·")
        # Clicking the name that looks like a link does nothing: ann stays.
        line = f"You are ann. {also}"
        x = 2 + line.index("[@click") + 5  # the lobby's "who" line: row 2, padding 2
        ann.press(click(x, 2))
        await asyncio.sleep(0.5)
        # The lobby still answers ann's keys, and everyone is still here.
        ann.press("o")
        await ann.shows("Second seat")
        ann.press("\x1b")
        assert not any(p.terminal.closed.is_set() for p in (ann, *people))
        assert len(server.room.people) == 4 and len(server.sessions) == 4
        for client in (ann, *people):
            client.close()


async def test_markup_names_at_a_table_in_titles_and_toasts(tmp_path):
    async with serving(tmp_path) as server:
        clients, table = await seat_three(server.port, server.room, names=MARKUP_NAMES)
        first, second, third = clients
        # Each seat's title names its person as typed.
        await first.shows("[b]BOLD · human")
        await first.shows("[@click=app.quit]zz")
        await second.shows("[/] · human")
        # The toast when someone goes away names them literally too.
        second.close()
        await first.shows("[b]BOLD has left the room")
        await third.shows("[b]BOLD has left the room")
        first.press("\r")
        assert not first.terminal.closed.is_set() and not third.terminal.closed.is_set()
        first.close()
        third.close()


# (Control characters never get this far: SSH's own rules for user names,
# which asyncssh applies, refuse them first; see the OpenSSH test below.)
@pytest.mark.parametrize("name, why", [
    ("x" * 40, "this one has 40"),
    ("Ann" + "\u00e9" * 30, "this one has 33"),
])
async def test_a_name_that_cannot_be_one_gets_one_line_and_is_let_go(tmp_path, caplog, name,
                                                                     why):
    caplog.set_level(logging.INFO, logger="crib3.serve")
    async with serving(tmp_path) as server:
        ann = await Client.connect(server.port, "ann")
        await ann.shows("Nobody else is here yet.")
        refused = await Client.connect(server.port, name)
        await asyncio.wait_for(refused.terminal.closed.wait(), 10)
        said = bytes(refused.terminal.received).decode()
        assert said.startswith("crib3: a name is 1 to 20 printable characters (")
        assert said.endswith(")\r\n")
        assert why in said and said.count("\n") == 1
        assert refused.chan.get_exit_status() == 1
        # Nothing about them reached the room, the others' screens or a traceback.
        assert [p.name for p in server.room.people.values()] == ["ann"]
        assert not any(r.exc_info for r in caplog.records)
        assert all("\x1b" not in r.getMessage() for r in caplog.records)
        ann.press("o")
        await ann.shows("Second seat")
        ann.close()


@pytest.fixture
def open_room(tmp_path):
    """`crib3 serve --open` on a free port, and a tmux server for clients."""
    with openssh_room(tmp_path, "--open") as (port, terminals):
        yield port, terminals
    log = (tmp_path / "serve.log").read_text()
    assert "\x1b" not in log, log


@needs_openssh
def test_openssh_users_named_like_markup_or_refused(open_room):
    port, terminals = open_room

    def ssh(name: str) -> str:
        return (f"ssh -t -o PubkeyAuthentication=no -o BatchMode=no "
                f"-o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null "
                f"-o LogLevel=ERROR -p {port} -l {shlex.quote(name)} 127.0.0.1; echo rc=$?")

    terminals.open("ann", ssh("ann"))
    terminals.wait_for("ann", "Nobody else is here yet.")
    terminals.open("markup", ssh("[/]"))
    terminals.wait_for("markup", "You are [/].")
    terminals.wait_for("ann", "You are ann. Also here: [/].")
    terminals.open("long", ssh("x" * 40))
    screen = terminals.wait_for("long", "rc=1")
    assert "crib3: a name is 1 to 20 printable characters (this one has 40)" in screen
    terminals.open("control", ssh("red\x1b[31m"))
    # Refused by SSH's rules for names, in one line: by the server's (asyncssh,
    # naming the character), or, since Debian's OpenSSH 9.2p1-2+deb12u10,
    # by the client itself before it connects.
    screen = terminals.wait_for("control", "rc=255")
    said = screen.split("rc=255")[0].strip().splitlines()
    assert len(said) == 1
    assert ("Prohibited character" in said[0] and "x1b" in said[0]
            or said[0] == "remote username contains invalid characters"), said
    terminals.keys("ann", "o")  # ann's lobby goes on answering
    terminals.wait_for("ann", "Second seat")

