"""A hostile stranger against the room's live events (`crib3.room.live_tables`,
the lobby's `e`): anyone may make an event (`n`), and each costs its boards,
the computer's nine yardstick games and a folder kept for good, so making
them is paced as opening tables is."""

from __future__ import annotations

import itertools

from tui_support import room_app, wait_for

from crib3.common.rates import TokenBucket
from crib3.room import Room
from crib3.tui.screens.live_event import LiveEventScreen
from crib3.tui.screens.lobby import LobbyScreen


class Clock:
    """`time` for the events screen: each event made ten seconds after the last
    (its name is the second it starts: two in one second would share one)."""

    def __init__(self) -> None:
        self.ticks = itertools.count(2_000_000_000, 10)

    def time(self) -> float:
        return float(next(self.ticks))


async def test_a_stranger_pressing_n_again_and_again_makes_three_events(tmp_path, monkeypatch):
    from crib3.room import live_event
    from crib3.room import room as room_module
    from crib3.tui.screens import live_event as screen_module

    monkeypatch.setattr(room_module, "TokenBucket",
                        lambda rate, burst: TokenBucket(rate, burst, clock=lambda: 1000.0))
    monkeypatch.setattr(screen_module, "time", Clock())
    monkeypatch.setattr(live_event, "play_baseline", lambda event, folder: None)  # (quick)
    room = Room(tmp_path / "tables", think=3600)
    room.sign_in("Eve", None, lambda r: None, address="10.0.0.66")
    app = room_app(room, "Eve")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveEventScreen))
        screen = app.screen
        for made in range(1, 4):
            await pilot.press("n")
            await wait_for(pilot, lambda made=made: len(room.events.events) == made
                           and not screen._making)
        for _ in range(3):
            await pilot.press("n")
            await pilot.pause()
            assert not screen._making
        said = [str(n.message) for n in app._notifications]
        assert said[-1].startswith(f"you made {room_module.OPENS_AT_ONCE} events just now: "
                                   "you may make another in "), said
    assert len(room.events.events) == 3
    room.close()
