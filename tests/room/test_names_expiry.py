"""Under `--open` the room's held names are capped, but the cap does not
last until a restart: a name nobody has used for `HOLD_DAYS` makes way for
a new one, the longest unused first and only then; a name used since, or
signed in now, is never given up (the room's clock injected)."""

from __future__ import annotations

import pytest

from crib3.room import Room, RoomError, invites
from crib3.room import room as room_module
from crib3.room.seats import FIRST_USE

DAY = 86400.0
FULL = "this room holds all the names it can: sign in under a name you have used here before"


def nobody(why: str) -> None:
    """A session's kick, in a test where nobody is kicked."""


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def days(self, count: float) -> None:
        self.now += count * DAY


def visit(room: Room, name: str, n: int | str, address: str) -> None:
    """`name` signs in with its code (`n`) from `address`, and leaves."""
    room.depart(room.sign_in(name, FIRST_USE + f"code {n}", nobody, address=address))


@pytest.fixture
def clock() -> Clock:
    return Clock()


def fill(room: Room, count: int) -> None:
    for n in range(count):
        visit(room, f"x{n}", n, address=f"10.2.{n // 250}.{n % 250}")


def test_the_longest_unused_name_makes_way_once_unused_for_its_days(tmp_path, clock,
                                                                    monkeypatch):
    monkeypatch.setattr(room_module, "NAMES_HELD", 20)
    room = Room(tmp_path, clock=clock)
    visit(room, "ann", "ann", "10.0.0.1")
    clock.days(1)
    fill(room, 19)
    with pytest.raises(RoomError) as caught:
        visit(room, "new0", "new0", "10.3.0.1")
    assert str(caught.value) == FULL
    clock.days(room_module.HOLD_DAYS - 2)
    visit(room, "ann", "ann", "10.0.0.7")               # ann comes back: used now
    clock.days(3)                                       # the others: unused for HOLD_DAYS + 1
    visit(room, "new1", "new1", "10.3.0.2")
    assert room.held_by("x0") is None                   # the longest unused, given up
    assert room.held_by("x1") == FIRST_USE + "code 1"
    visit(room, "new2", "new2", "10.3.0.3")
    assert room.held_by("x1") is None and room.held_by("x2") == FIRST_USE + "code 2"
    assert room.held_by("ann") == FIRST_USE + "code ann"
    assert room.held_by("new1") == FIRST_USE + "code new1"
    visit(room, "x0", "thief", "10.3.0.4")              # a name given up is free again
    assert len(room.holds) == 20


def test_a_name_used_within_its_days_is_never_given_up(tmp_path, clock, monkeypatch):
    monkeypatch.setattr(room_module, "NAMES_HELD", 20)
    room = Room(tmp_path, clock=clock)
    fill(room, 20)
    clock.days(room_module.HOLD_DAYS - 0.01)
    for n in range(5):
        with pytest.raises(RoomError) as caught:
            visit(room, f"new{n}", f"new{n}", f"10.3.0.{n}")
        assert str(caught.value) == FULL
    assert all(room.held_by(f"x{n}") == FIRST_USE + f"code {n}" for n in range(20))
    clock.days(0.02)
    visit(room, "new0", "new0", "10.3.0.0")
    assert room.held_by("x0") is None and len(room.holds) == 20


def test_a_name_signed_in_now_is_never_given_up(tmp_path, clock, monkeypatch):
    """Someone signed in for longer than the days (a long session) is
    using their name: it stays theirs while the others' make way."""
    monkeypatch.setattr(room_module, "NAMES_HELD", 3)
    room = Room(tmp_path, clock=clock)
    ann = room.sign_in("ann", FIRST_USE + "code ann", nobody, address="10.0.0.1")
    visit(room, "bob", "bob", "10.0.0.2")
    visit(room, "cat", "cat", "10.0.0.3")
    clock.days(room_module.HOLD_DAYS + 1)
    visit(room, "dan", "dan", "10.0.0.4")
    visit(room, "eve", "eve", "10.0.0.5")
    assert [room.held_by(n) is not None for n in ("ann", "bob", "cat", "dan", "eve")] == \
        [True, False, False, True, True]
    with pytest.raises(RoomError) as caught:
        visit(room, "gil", "gil", "10.0.0.6")
    assert str(caught.value) == FULL
    room.depart(ann)                                    # ann leaves: used now, kept
    with pytest.raises(RoomError):
        visit(room, "gil", "gil", "10.0.0.6")
    assert room.held_by("ann") == FIRST_USE + "code ann"


def test_an_address_full_of_names_gives_up_its_own_unused_one(tmp_path, clock, monkeypatch):
    monkeypatch.setattr(room_module, "NAMES_PER_ADDRESS", 3)
    room = Room(tmp_path, clock=clock)
    visit(room, "other", "other", "10.0.0.9")           # another address's, as old
    for n in range(3):
        visit(room, f"a{n}", n, "10.0.0.1")
    with pytest.raises(RoomError, match="your address holds 3 names here already"):
        visit(room, "a3", 3, "10.0.0.1")
    clock.days(room_module.HOLD_DAYS + 1)
    visit(room, "a1", 1, "10.0.0.1")                    # one of them used again
    visit(room, "a3", 3, "10.0.0.1")
    assert room.held_by("a0") is None                   # its own, unused the longest
    assert room.held_by("other") == FIRST_USE + "code other"
    assert [room.held_by(f"a{n}") is not None for n in (1, 2, 3)] == [True, True, True]
    assert room.holds_from["address 10.0.0.1"] == 3


def test_below_the_caps_an_unused_name_stays_held(tmp_path, clock):
    """The days only matter when a cap is reached: a name is not given up
    for nothing."""
    room = Room(tmp_path, clock=clock)
    visit(room, "ann", "ann", "10.0.0.1")
    clock.days(10 * room_module.HOLD_DAYS)
    visit(room, "bob", "bob", "10.0.0.2")
    with pytest.raises(RoomError, match="held here by someone else"):
        visit(room, "ann", "thief", "10.0.0.3")
    visit(room, "ann", "ann", "10.0.0.4")


def test_a_name_is_held_as_long_as_a_browser_is_known():
    assert room_module.HOLD_DAYS == invites.IDENTITY_DAYS
