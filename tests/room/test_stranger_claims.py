"""A hostile stranger at a room table with muggins on: the friendly rule
refuses an over-claim at no cost and lets the player count again, and each
refusal is an event, logged, kept in memory, sent to every seat and
spectator and replayed to each newcomer. So a seat's refused claims are
bounded, a hand at a time; honest mistakes stay far inside the bound."""

from __future__ import annotations

import asyncio
import random

import pytest

from crib3.engine import Count, IllegalMove, Rules
from crib3.engine.events import ClaimRefused
from crib3.players.easy import EasyPlayer
from crib3.room import Room
from crib3.room.table import REFUSED_CLAIMS


async def test_a_seat_over_claiming_at_every_key_is_stopped_a_hand_at_a_time(tmp_path):
    room = Room(tmp_path / "tables", think=0.0)
    ann = room.sign_in("Ann", "SHA256:ann", lambda why: None)
    table = room.open_table(ann, Rules(muggins=True), ("easy", "easy"))
    table.start("Ann")
    game = table.game
    assert game is not None
    feed = table.feed(0)
    mine = EasyPlayer(random.Random(3))
    refused_in = {}  # hand -> her refused claims in it
    for _ in range(3000):
        if game.over or len(refused_in) >= 2:
            break
        if game.to_act() != (0,):
            await asyncio.sleep(0.005)  # the computer players' turn
            continue
        view = game.view(0)
        if isinstance(view.legal[0], Count) and game.state.hand_number not in refused_in:
            hand = game.state.hand_number
            for _ in range(REFUSED_CLAIMS):
                feed.dispatch(Count(0, 29))
            with pytest.raises(IllegalMove, match="claims refused"):
                feed.dispatch(Count(0, 29))
            refused_in[hand] = sum(1 for e in game.events
                                   if isinstance(e, ClaimRefused) and e.seat == 0) - sum(
                refused_in.values())
        feed.dispatch(mine.choose(game.view(0)))
    assert len(refused_in) == 2 and set(refused_in.values()) == {REFUSED_CLAIMS}
    room.close()
