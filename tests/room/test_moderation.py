"""Moderation for an open room: bans and mutes that outlast a reconnect and a
restart, with an expiry; the message of the day; the audit log of every
admin's action (`crib3.room.moderation`)."""

from __future__ import annotations

import asyncio
import json
import stat

import asyncssh
import pytest
from commands import assert_clean_failure, run

from crib3.engine import Rules
from crib3.room import Room, RoomError
from crib3.room.moderation import AUDIT, FILE, MOTD_CHARS
from crib3.room.seats import FIRST_USE


class Clock:
    """A wall clock a test turns."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def room_at(tmp_path, clock=None) -> Room:
    return Room(tmp_path / "tables", think=0, clock=clock or Clock())


def arrive(room: Room, name: str, key: str | None, address: str | None = None,
           admin: bool = False, kicked: list | None = None):
    presence = room.sign_in(name, key, kicked.append if kicked is not None else lambda r: None,
                            address)
    presence.admin = admin
    return presence


def audit(tmp_path) -> list[dict]:
    path = tmp_path / "tables" / AUDIT
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_ban_ends_the_session_refuses_the_key_and_outlasts_a_restart(tmp_path):
    clock = Clock()
    room = room_at(tmp_path, clock)
    eve = arrive(room, "eve", "admin-key", admin=True)
    kicked: list[str] = []
    arrive(room, "bob", "bob-key", kicked=kicked)
    room.remove("bob", eve)  # a kick: bob may come straight back
    room.depart(room.people["bob"])
    arrive(room, "bob", "bob-key", kicked=kicked)
    assert room.ban("bob", eve, 3600) == "until 2027-01-15 09:00 UTC"
    assert kicked[-1] == "an admin has banned you from this room until 2027-01-15 09:00 UTC"
    room.depart(room.people["bob"])
    for again in (room, room_at(tmp_path, clock)):  # the same room, and a restarted one
        with pytest.raises(RoomError, match="^an admin has banned you from this room until "
                                            "2027-01-15 09:00 UTC$"):
            arrive(again, "bob", "bob-key")
        with pytest.raises(RoomError, match="banned"):  # by key, whatever the name
            arrive(again, "robert", "bob-key")
        arrive(again, "cat", "cat-key")  # others come in
    kept = tmp_path / "tables" / FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    clock.now += 3600  # the hour is up
    restarted = room_at(tmp_path, clock)
    arrive(restarted, "bob", "bob-key")
    assert restarted.moderation.in_force("ban") == []


def test_a_ban_for_good_never_ends_and_an_admin_lifts_it(tmp_path):
    clock = Clock()
    room = room_at(tmp_path, clock)
    eve = arrive(room, "eve", "admin-key", admin=True)
    arrive(room, "bob", "bob-key")
    assert room.ban("bob", eve, None) == "for good"
    clock.now += 10 * 365 * 86400
    restarted = room_at(tmp_path, clock)
    with pytest.raises(RoomError, match="banned you from this room for good"):
        arrive(restarted, "bob", "bob-key")
    eve = arrive(restarted, "eve", "admin-key", admin=True)
    [ban] = restarted.moderation.in_force("ban")
    assert (ban.whom, ban.name, ban.by) == ("key bob-key", "bob", "eve")
    assert restarted.sanctions(eve) == [ban]
    with pytest.raises(RoomError, match="only an admin"):
        restarted.sanctions(arrive(restarted, "cat", "cat-key"))
    restarted.lift("ban", ban.whom, eve)
    with pytest.raises(RoomError, match="no such ban in force"):
        restarted.lift("ban", ban.whom, eve)
    arrive(room_at(tmp_path, clock), "bob", "bob-key")  # lifted for good too


def test_under_open_a_ban_holds_the_address_whatever_the_key_or_name(tmp_path):
    room = room_at(tmp_path)
    eve = arrive(room, "eve", "admin-key", admin=True)
    arrive(room, "bob", FIRST_USE + "one", "203.0.113.7")
    room.ban("bob", eve, 86400)
    with pytest.raises(RoomError, match="banned"):
        arrive(room, "newname", FIRST_USE + "two", "203.0.113.7")
    arrive(room, "cat", FIRST_USE + "three", "203.0.113.8")  # another address


def test_only_an_admin_bans_and_never_themselves_or_another_admin(tmp_path):
    room = room_at(tmp_path)
    eve = arrive(room, "eve", "admin-key", admin=True)
    ida = arrive(room, "ida", "ida-key", admin=True)
    bob = arrive(room, "bob", "bob-key")
    with pytest.raises(RoomError, match="only an admin can ban"):
        room.ban("eve", bob, None)
    with pytest.raises(RoomError, match="only an admin can mute"):
        room.mute("eve", bob, None)
    with pytest.raises(RoomError, match="cannot ban yourself"):
        room.ban("eve", eve, None)
    with pytest.raises(RoomError, match="ida is an admin"):
        room.ban(ida.name, eve, None)
    with pytest.raises(RoomError, match="nobody is not here"):
        room.ban("nobody", eve, None)
    assert room.moderation.in_force("ban") == []


async def test_a_muted_person_cannot_chat_but_plays_on_till_the_mute_ends(tmp_path):
    clock = Clock()
    room = room_at(tmp_path, clock)
    eve = arrive(room, "eve", "admin-key", admin=True)
    bob = arrive(room, "bob", "bob-key")
    table = room.open_table(bob, Rules(target=61), ("easy", "easy"))
    table.say(bob, "hello")
    assert room.mute("bob", eve, 3600).startswith("until ")
    assert "bob" in room.people  # a mute ends no session
    with pytest.raises(RoomError, match="^an admin has muted you here until .*: your chat is "
                                        r"not shown \(your game goes on\)$"):
        table.say(bob, "hello again")
    assert [line.text for line in table.chat.lines] == ["hello"]
    table.start("bob")  # play goes on
    assert table.started
    with pytest.raises(RoomError, match="muted"):  # a restart keeps it
        room_at(tmp_path, clock).may_chat(bob)
    clock.now += 3600
    bob.chat.tokens = bob.chat.burst  # (the chat's own allowance is not what is tested)
    table.say(bob, "back")
    assert table.chat.lines[-1].text == "back"
    table.close()


def test_every_admin_action_is_one_audit_line(tmp_path, caplog):
    caplog.set_level("INFO", logger="crib3.serve")
    clock = Clock()
    room = room_at(tmp_path, clock)
    eve = arrive(room, "eve", "admin-key", admin=True)
    arrive(room, "bob", "bob-key")
    arrive(room, "cat", "cat-key")
    room.remove("cat", eve)
    clock.now += 1
    room.mute("bob", eve, 60)
    clock.now += 1
    room.ban("bob", eve, None)
    room.lift("ban", "key bob-key", eve)
    assert room.set_motd("  Welcome   [b]all[/b] ", eve) == "Welcome [b]all[/b]"
    room.set_motd("Welcome [b]all[/b]", eve)  # no change, no line
    now = clock.now
    assert [(a["by"], a["what"], a["name"], a["whom"], a["until"]) for a in audit(tmp_path)] == [
        ("eve", "kick", "cat", "key cat-key", None),
        ("eve", "mute", "bob", "key bob-key", now - 1 + 60),
        ("eve", "ban", "bob", "key bob-key", None),
        ("eve", "unban", "bob", "key bob-key", None),
        ("eve", "motd", None, None, None),
    ]
    lines = audit(tmp_path)
    assert [a["when"] for a in lines] == [now - 2, now - 1, now, now, now]
    assert {a["by_key"] for a in lines} == {"key admin-key"}  # the admin's key, not a name
    said = [r for r in caplog.records if getattr(r, "event", "").startswith("crib3.serve.mod")]
    assert [r.event for r in said] == [f"crib3.serve.moderation.{a['what']}" for a in lines]
    assert "ban by 'eve': 'bob' (key bob-key) for good" in caplog.text  # and the server's log
    assert "kick by 'eve': 'cat' (key cat-key)\n" in caplog.text
    assert lines[-1]["text"] == "Welcome [b]all[/b]"
    path = tmp_path / "tables" / AUDIT
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    # Appended to, never rewritten: a restarted room adds to what is there.
    before = path.read_text()
    again = room_at(tmp_path, clock)
    again.set_motd("", arrive(again, "eve", "admin-key", admin=True))
    assert path.read_text().startswith(before) and audit(tmp_path)[-1]["what"] == "motd"


def test_a_message_of_the_day_is_checked_and_outlasts_a_restart(tmp_path):
    room = room_at(tmp_path)
    eve = arrive(room, "eve", "admin-key", admin=True)
    bob = arrive(room, "bob", "bob-key")
    with pytest.raises(RoomError, match="only an admin"):
        room.set_motd("mine now", bob)
    with pytest.raises(RoomError, match=f"at most {MOTD_CHARS} characters"):
        room.set_motd("x" * (MOTD_CHARS + 1), eve)
    with pytest.raises(RoomError, match="printable"):
        room.set_motd("bell\x07", eve)
    assert room.set_motd("Tournament at 8 \U0001F1EB\U0001F1F7", eve) == "Tournament at 8 FR"
    assert room_at(tmp_path).motd == "Tournament at 8 FR"


def test_an_unreadable_moderation_file_is_set_aside_not_written_over(tmp_path, caplog):
    folder = tmp_path / "tables"
    folder.mkdir()
    (folder / FILE).write_text("{not json")
    room = room_at(tmp_path)
    assert room.moderation.in_force("ban") == [] and room.motd == ""
    assert (folder / (FILE + ".unreadable")).read_text() == "{not json"
    assert "could not be read" in caplog.text


def test_serve_refuses_a_motd_it_cannot_show_in_one_line(tmp_path):
    result = run("serve", "--port", "0", "--open", "--motd", "x" * (MOTD_CHARS + 1))
    assert_clean_failure(result, 2)
    assert f"--motd: a message of the day is at most {MOTD_CHARS}" in result.stderr
    result = run("serve", "--port", "0", "--open", "--motd-file", str(tmp_path / "none"))
    assert_clean_failure(result, 2)
    assert "--motd-file" in result.stderr and "cannot read it" in result.stderr


def keys_file(path, *keys: asyncssh.SSHKey) -> None:
    path.write_bytes(b"".join(key.export_public_key() for key in keys))
    path.chmod(0o600)


@pytest.mark.parametrize("workers", [1, 2])
async def test_over_ssh_an_admin_bans_a_kicked_key_and_it_is_refused_at_sign_in(
        tmp_path, workers):
    """Over SSH (asyncssh clients; with 2, the lobby runs in a session
    worker): the lobby shows the message of the day literally; eve, an
    admin, kicks bob, who comes back; she bans him for an hour (b, whom,
    how long); his session ends in one line, and so does his next try.
    She lifts it (l), and he is back; she writes a new message of the day
    (d), and his lobby shows it."""
    from ssh_support import Client, serving, until

    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("bob", "eve")}
    authorized, admins = tmp_path / "authorized_keys", tmp_path / "admins"
    keys_file(authorized, keys["bob"])
    keys_file(admins, keys["eve"])
    async with serving(tmp_path, keys=authorized, admins=admins, workers=workers) as server:
        server.room.moderation.set_motd("Tournament [b]tonight[/b] at 8", "the host")
        bob = await Client.connect(server.port, "bob", key=keys["bob"])
        await bob.shows("Tournament [b]tonight[/b] at 8")  # text, never markup
        eve = await Client.connect(server.port, "eve", key=keys["eve"])
        await eve.shows("b Ban")
        eve.press("k")
        await eve.shows("Remove whose session?")
        eve.press("\r")
        await eve.shows("End the session of bob?")
        eve.press("y")
        await asyncio.wait_for(bob.terminal.closed.wait(), 10)
        await until(lambda: "bob" not in server.room.people, what="bob gone")
        bob = await Client.connect(server.port, "bob", key=keys["bob"])  # a kick: back
        await bob.shows("Also here: eve")
        eve.press("b")
        await eve.shows("Ban whom?")
        eve.press("\r")
        await eve.shows("Ban bob for how long?")
        eve.press("\r")  # the first: an hour
        await asyncio.wait_for(bob.terminal.closed.wait(), 10)
        assert "crib3: an admin has banned you from this room until " in bob.terminal.text()
        await eve.shows("bob is banned until ")
        again = await Client.connect(server.port, "bob", key=keys["bob"])
        await asyncio.wait_for(again.terminal.closed.wait(), 10)
        assert "crib3: an admin has banned you from this room until " in again.terminal.text()
        assert "bob" not in server.room.people
        eve.press("l")
        await eve.shows("Lift which ban or mute?")
        await eve.shows("ban bob until ")
        eve.press("\r")
        await eve.shows("Lift the ban on bob?")
        eve.press("y")
        await eve.shows("The ban on bob is lifted.")
        back = await Client.connect(server.port, "bob", key=keys["bob"])
        await back.shows("Also here: eve")
        eve.press("d")
        await eve.shows("The message of the day, for everyone")
        eve.press("\x15")  # Ctrl+U: the old one gone, ...
        await eve.shows("empty: no message")  # ... the prompt's placeholder there instead
        eve.press("Cards at [i]nine[/i]")
        await eve.shows("Cards at [i]nine[/i]")  # in the prompt
        eve.press("\r")
        await back.shows("Cards at [i]nine[/i]")
        assert server.room.motd == "Cards at [i]nine[/i]"
        assert [a["what"] for a in audit(tmp_path)] == ["motd", "kick", "ban", "unban", "motd"]
        for client in (again, back, eve):
            client.close()


async def test_a_banned_browser_is_refused_by_its_identity_and_another_comes_in(
        tmp_path, monkeypatch):
    """A browser seated by a link is its identity (its cookie) to the room:
    banned, its session ends in one line, and so does its page's next
    try; another browser, from the same address, comes in."""
    from ssh_support import until
    from web_support import WebClient, web_serving

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    authorized = tmp_path / "authorized_keys"
    keys_file(authorized, asyncssh.generate_private_key("ssh-ed25519"))
    async with web_serving(tmp_path, keys=authorized) as (server, door):
        ann = await WebClient.connect(door, token=door.book.invite("the host", name="ann"))
        await ann.shows("Open a table")
        boss = server.room.sign_in("boss", "SHA256:boss", lambda reason: None)
        boss.admin = True
        assert server.room.ban("ann", boss, 86400).startswith("until ")
        [ban] = server.room.sanctions(boss)
        assert ban.whom.startswith("key web:")
        await asyncio.wait_for(ann.terminal.closed.wait(), 10)
        assert "crib3: an admin has banned you from this room until " in ann.terminal.text()
        await until(lambda: not door.sessions, what="the session's end")
        ann.terminal.received.clear()
        await ann.open()  # the same cookie
        await asyncio.wait_for(ann.terminal.closed.wait(), 10)
        assert "crib3: an admin has banned you from this room until " in ann.terminal.text()
        assert "ann" not in server.room.people
        cat = await WebClient.connect(door, token=door.book.invite("the host", name="cat"))
        await cat.shows("Open a table")
        await cat.aclose()
    await ann.http.close()


async def test_an_admin_mutes_from_the_lobby_for_a_day(tmp_path):
    """The lobby's u (Pilot): whom, then how long; the toast says until
    when, and the mute is the room's."""
    from tui_support import room_app, wait_for

    from crib3.tui.screens.lobby import LobbyScreen
    from crib3.tui.screens.room_dialogs import PickDuration, PickPerson

    clock = Clock()
    room = room_at(tmp_path, clock)
    arrive(room, "Ann", "ann-key")
    arrive(room, "Dan", "dan-key", admin=True)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, PickPerson))
        await pilot.press("enter")  # Ann, the only other
        await wait_for(pilot, lambda: isinstance(app.screen, PickDuration))
        await pilot.press("down", "enter")  # a day
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        mute = room.moderation.muted("key ann-key")
        assert mute is not None and mute.until == clock.now + 86400
        assert [str(n.message) for n in app._notifications][-1] == \
            f"Ann is muted {mute.until_words()}."
        assert "ann" in room.people  # still here: a mute ends no session
