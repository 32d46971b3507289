"""Who holds a name: a name held by a key or a code keeps its lookalikes
out while its holder is away, and its holder is never refused it; under
`--open` no flood of new names makes the room forget who holds one; and
nobody passes for a computer player."""

from __future__ import annotations

import asyncssh
import pytest
from ssh_support import Client, serving, until

from crib3.engine import Rules
from crib3.room import Room, RoomError
from crib3.room import room as room_module
from crib3.room.seats import FIRST_USE, Presence

BOB = FIRST_USE + "key bob's"  # a key's fingerprint under --open, as the doors make it
CYRILLIC_BOB = "\u0412\u041e\u0412"  # ВОВ


def nobody(why: str) -> None:
    """A session's kick, in a test where nobody is kicked."""


def test_a_held_name_keeps_its_lookalikes_out_while_its_holder_is_away(tmp_path):
    room = Room(tmp_path)
    bob = room.sign_in("bob", BOB, nobody, address="10.0.0.2")
    room.depart(bob)
    assert "bob" not in room.people and room.held_by("bob") == BOB
    for name in (CYRILLIC_BOB, "bo\u0331b", "bob\u0358"):
        with pytest.raises(RoomError) as caught:
            room.sign_in(name, FIRST_USE + "code x", nobody, address="10.0.0.9")
        assert str(caught.value) == f"{name} looks like bob, a name here already: choose another"
        assert room.name_refused(name) == str(caught.value)
    assert room.sign_in("bob", BOB, nobody, address="10.0.0.3").name == "bob"


def test_the_holder_of_a_name_is_never_refused_it(tmp_path):
    """A lookalike that got in before the name was held here (a restarted
    room, another node of a cluster) does not lock the holder out."""
    room = Room(tmp_path)
    other = room.sign_in(CYRILLIC_BOB, FIRST_USE + "code x", nobody, address="10.0.0.9")
    room.open_table(other, Rules(), ("easy", "easy"))
    room.depart(other)  # ВОВ's table waits for them in the lobby
    room._hold(Presence("bob", BOB, address="10.0.0.2"), BOB)  # as a restart can leave it
    assert room.sign_in("bob", BOB, nobody, address="10.0.0.2").name == "bob"
    with pytest.raises(RoomError, match="held here by someone else"):
        room.sign_in("bob", FIRST_USE + "code y", nobody)


def test_a_flood_of_new_names_never_takes_a_held_name_from_its_holder(tmp_path, monkeypatch):
    monkeypatch.setattr(room_module, "NAMES_HELD", 40)
    room = Room(tmp_path)
    ann_key = FIRST_USE + "key ann's"
    room.depart(room.sign_in("ann", ann_key, nobody, address="10.0.0.1"))
    refused: list[str] = []
    for n in range(120):  # strangers, each from an address of their own, one name each
        try:
            room.depart(room.sign_in(f"x{n}", FIRST_USE + f"code {n}", nobody,
                                     address=f"10.1.{n // 250}.{n % 250}"))
        except RoomError as exc:
            refused.append(str(exc))
    assert refused and set(refused) == {
        "this room holds all the names it can: sign in under a name you have used here before"}
    assert room.held_by("ann") == ann_key
    with pytest.raises(RoomError, match="ann is held here by someone else"):
        room.sign_in("ann", FIRST_USE + "code thief", nobody, address="10.2.0.1")
    assert room.name_refused("ann") == "ann is taken here: choose another name"
    assert room.sign_in("ann", ann_key, nobody, address="10.0.0.5").name == "ann"


def test_one_address_takes_new_names_at_a_persons_pace(tmp_path):
    room = Room(tmp_path)
    taken, refused = 0, ""
    for n in range(room_module.NEW_NAMES_AT_ONCE + 5):
        try:
            room.depart(room.sign_in(f"x{n}", FIRST_USE + f"code {n}", nobody,
                                     address="10.0.0.9"))
            taken += 1
        except RoomError as exc:
            refused = str(exc)
    assert taken == room_module.NEW_NAMES_AT_ONCE
    assert refused.startswith(f"your address took {room_module.NEW_NAMES_AT_ONCE} new names "
                              "just now: you may take another in ")
    # A name it holds already is its own at any pace; another address is not held back.
    assert room.sign_in("x0", FIRST_USE + "code 0", nobody, address="10.0.0.9").name == "x0"
    assert room.sign_in("ann", FIRST_USE + "code a", nobody, address="10.0.0.1").name == "ann"


@pytest.mark.parametrize("name", ["Cal", "cal", "BEA", "CaI", "Gus"])
def test_nobody_takes_a_computer_players_name(tmp_path, name):
    room = Room(tmp_path)
    with pytest.raises(RoomError) as caught:
        room.sign_in(name, "key-m", nobody)
    assert str(caught.value) == f"{name} is a computer player's name here: choose another"
    assert room.name_refused(name) == str(caught.value)


async def test_over_ssh_a_lookalike_of_an_absent_holder_is_refused_and_the_holder_let_in(
        tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    bob_key = asyncssh.generate_private_key("ssh-ed25519")
    async with serving(tmp_path) as server:
        bob = await Client.connect(server.port, "bob", key=bob_key)
        await bob.shows("choose a table")
        bob.close()
        await until(lambda: "bob" not in server.room.people, what="bob gone")
        strangers = []
        for name in (CYRILLIC_BOB, "bo\u0331b", "bo\u1e05"):
            stranger = await Client.connect(server.port, name, source="127.0.0.7")
            await stranger.shows("looks like bob, a name here already")
            strangers.append(stranger)
        assert "bob" not in server.room.people and len(server.room.people) == 0
        bob = await Client.connect(server.port, "bob", key=bob_key, source="127.0.0.3")
        await bob.shows("choose a table")
        for client in (*strangers, bob):
            client.close()
