"""`crib3 serve --admins FILE` (issue 11, point 6): the file is checked
before the server starts, and an admin's key closes tables and removes
sessions through their own lobby (headless asyncssh clients)."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from commands import assert_clean_failure, run


def keys_file(path, *keys: asyncssh.SSHKey) -> None:
    path.write_bytes(b"".join(key.export_public_key() for key in keys))
    path.chmod(0o600)


@pytest.mark.parametrize("what, code, said", [
    ("missing", 2, "no such file"),
    ("a folder", 2, "no such file"),
    ("empty", 2, "has no keys"),
    ("loose", 1, "will not trust the admins' keys"),
])
def test_an_admins_file_that_cannot_serve_is_one_line(tmp_path, what, code, said):
    authorized = tmp_path / "authorized_keys"
    keys_file(authorized, asyncssh.generate_private_key("ssh-ed25519"))
    admins = tmp_path / "admins"
    if what == "a folder":
        admins.mkdir()
    elif what == "empty":
        admins.write_text("# nobody yet\n")
    elif what == "loose":
        keys_file(admins, asyncssh.generate_private_key("ssh-ed25519"))
        admins.chmod(0o666)
    result = run("serve", "--port", "0", "--authorized-keys", str(authorized),
                 "--admins", str(admins))
    assert_clean_failure(result, code)
    assert said in result.stderr and str(admins) in result.stderr


async def test_an_open_rooms_admins_are_its_listed_keys_and_ban_by_address(tmp_path):
    """Under --open (it refused --admins until bans came: an open room had
    no way to keep order): eve's listed key signs in as an admin, whatever
    the name; dan's unlisted key does not. eve bans mal, who came without a
    key from 127.0.0.7: the ban holds that address, so a new name from it is
    refused in one line, and a person from another address still comes in."""
    from ssh_support import Client, serving, until

    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("eve", "dan")}
    admins = tmp_path / "admins"
    keys_file(admins, keys["eve"])
    async with serving(tmp_path, admins=admins) as server:
        eve = await Client.connect(server.port, "eve", key=keys["eve"], source="127.0.0.5")
        dan = await Client.connect(server.port, "dan", key=keys["dan"], source="127.0.0.6")
        await eve.shows("b Ban")
        await dan.shows("Open a table")
        assert server.room.people["eve"].admin and not server.room.people["dan"].admin
        dan.close()
        await until(lambda: "dan" not in server.room.people, what="dan gone")
        mal = await Client.connect(server.port, "mal", source="127.0.0.7")
        await mal.shows("Open a table")
        eve.press("b")
        await eve.shows("Ban whom?")
        eve.press("\r")
        await eve.shows("Ban mal for how long?")
        eve.press("\r")
        await asyncio.wait_for(mal.terminal.closed.wait(), 10)
        assert "crib3: an admin has banned you from this room until " in mal.terminal.text()
        other = await Client.connect(server.port, "mel", source="127.0.0.7")
        await asyncio.wait_for(other.terminal.closed.wait(), 10)
        assert "crib3: an admin has banned you from this room until " in other.terminal.text()
        ivy = await Client.connect(server.port, "ivy", source="127.0.0.8")
        await ivy.shows("Open a table")
        for client in (eve, ivy):
            client.close()


@pytest.mark.slow
async def test_an_admin_closes_a_table_and_removes_a_session_from_the_lobby(tmp_path):
    """Over SSH (asyncssh clients): ann and bob play at ann's table; eve,
    an admin, closes it (saved: both go back to the lobby), then ends
    bob's session, who is told in one line. dan, not an admin, cannot."""
    from ssh_support import Client, serving, until

    keys = {name: asyncssh.generate_private_key("ssh-ed25519")
            for name in ("ann", "bob", "dan", "eve")}
    authorized, admins = tmp_path / "authorized_keys", tmp_path / "admins"
    keys_file(authorized, keys["ann"], keys["bob"], keys["dan"])
    keys_file(admins, keys["eve"])
    async with serving(tmp_path, keys=authorized, admins=admins) as server:
        ann = await Client.connect(server.port, "ann", key=keys["ann"])
        await ann.shows("Nobody else is here yet.")
        ann.press("o")
        await ann.shows("Second seat")
        ann.press("\r")
        await until(lambda: server.room.tables, what="the table")
        table = server.room.tables[1]
        bob = await Client.connect(server.port, "bob", key=keys["bob"])
        await bob.shows("waiting")
        bob.press("\r")
        await until(lambda: table.seats[1].name == "bob", what="bob seated")
        await ann.shows("start the game")
        ann.press("\r")
        await until(lambda: table.started, what="the start")
        events = len(table.game.events)

        dan = await Client.connect(server.port, "dan", key=keys["dan"])
        await dan.shows("hand 1")
        dan.press("xk")  # not an admin: nothing happens
        await asyncio.sleep(0.3)
        assert server.room.lobby() == [table] and not any(
            p.admin for p in server.room.people.values())
        assert "x Close" not in dan.terminal.text()

        eve = await Client.connect(server.port, "eve", key=keys["eve"])
        await eve.shows("x Close")
        assert server.room.people["eve"].admin
        eve.press("x")
        await eve.shows("Close table 1 (its game is saved)?")
        eve.press("y")
        await until(lambda: table.closed, what="the table closed")
        for seated in (ann, bob):
            await seated.shows("Table 1 was closed; it is saved.")
            await seated.shows("No tables yet.")
        assert server.room.lobby() == []
        saved = (tmp_path / "tables" / "table-1.jsonl").read_text().splitlines()
        assert len(saved) - 1 >= events  # every event so far is in the log

        eve.press("k")
        await eve.shows("Remove whose session?")
        eve.press("\r")  # the first, sorted: ann
        await eve.shows("End the session of ann?")
        eve.press("y")
        await asyncio.wait_for(ann.terminal.closed.wait(), 10)
        assert "crib3: an admin closed your session; your table is saved" in ann.terminal.text()
        await until(lambda: "ann" not in server.room.people, what="ann gone")
        assert not bob.terminal.closed.is_set() and not dan.terminal.closed.is_set()
        for client in (bob, dan, eve):
            client.close()
