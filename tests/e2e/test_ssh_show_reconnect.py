"""Issue 32, point 1 in the card room: a connection lost while a show is
being presented comes back to that show, from the hand that was being
counted, and goes on presenting it (it opened at the next hand's discard:
the rest of the show went by unseen and the scores jumped)."""

from __future__ import annotations

import asyncio

import pytest
from ssh_support import Client, plain, seat_three, serving, until

from crib3.engine import events as ev

SKIP = "s: skip the rest of the show"


async def wait_for(condition, seconds: float) -> None:
    """Wait until `condition` holds or `seconds` pass, whichever is first."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while loop.time() < deadline:
        if condition():
            return
        await asyncio.sleep(0.02)


def since(client: Client, mark: int) -> str:
    return plain(bytes(client.terminal.received[mark:]))


@pytest.mark.slow
async def test_a_reconnect_mid_show_goes_on_from_the_hand_being_counted(tmp_path, room_workers):
    # The show waits for ann's Enter (`--show-pace 0`): at the room's usual
    # pace it went on by itself, and a slow machine saw her screen a count
    # ahead of the presses the test counts.
    async with serving(tmp_path, workers=room_workers, show_pace=0) as server:
        clients, table = await seat_three(server.port, server.room)
        ann, bob, cat = clients
        game = table.game

        def counts() -> list[int]:
            return [i for i, e in enumerate(game.events) if isinstance(e, ev.HandCounted)]

        names = {p.name.lower(): s for s, p in enumerate(game.state.players)}

        def ann_moved(before: int) -> bool:
            """Whether a move of ann's has landed since the log held `before` events."""
            if len(game.events) <= before:
                return False
            last = game.events[-1]
            return names["ann"] not in game.to_act() or getattr(last, "seat", None) == names["ann"]

        # Everyone plays the first hand out; ann presses only to go on from
        # the cut for the deal and when a move of hers is awaited, so her
        # screen stops at the show's first count, waiting.
        ann.press("\r")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while len(counts()) < 4:
            assert loop.time() < deadline, "the first hand never reached its show"
            for client, name in zip(clients, ("ann", "bob", "cat")):
                if name != "ann":
                    client.press("\r")
                elif names["ann"] in game.to_act() and any(
                        move in client.footer() for move in ("⏎ Play", "⏎ Throw", "⏎ Cut")):
                    # One Enter for each move awaited of her, once her footer
                    # offers Enter for it (before, an Enter only hurries a
                    # pause), then wait for it to land: a second Enter still
                    # in flight when her last card is played would go on past
                    # the show's first count.
                    before = len(game.events)
                    client.press("\r")
                    await wait_for(lambda before=before: ann_moved(before), seconds=10)
                await asyncio.sleep(0.05)
        first, second, third = counts()[:3]
        whose = {s: f"{p.name}'s hand" for s, p in enumerate(game.state.players)}
        second_owner = whose[game.events[second].seat]
        third_owner = whose[game.events[third].seat]
        await ann.shows(SKIP)  # the first count on her screen, waiting for Enter
        mark = len(ann.terminal.received)
        ann.press("\r")  # on to the second count
        await until(lambda: second_owner in since(ann, mark), what="the second count")
        await asyncio.sleep(0.3)
        assert third_owner not in since(ann, mark) or third_owner == second_owner
        ann.close()  # the connection lost while the second hand is counted
        await until(lambda: table.away(names["ann"]) is not None, what="ann gone")

        ann = await Client.connect(server.port, "ann")
        await ann.shows(SKIP)  # back in the show, not at the next hand's discard
        await ann.shows(second_owner)
        if room_workers == 1:  # (with workers, the screen is in another process)
            screen = next(s.app.screen for s in server.sessions
                          if s.presence is not None and s.presence.name == "ann")
            assert screen.auto.continue_after is None  # the room's pace: until Enter
            await until(lambda: screen.presented == second + 1, what="the second count shown")
            assert screen.pending and screen.pending[0][0] is not None
            assert isinstance(screen.pending[0][0], ev.HandCounted)  # the third, still to come
        mark = len(ann.terminal.received)
        ann.press("\r")  # and the show goes on: the third count
        await until(lambda: third_owner in since(ann, mark), what="the third count")
        for client in (ann, bob, cat):
            client.close()
