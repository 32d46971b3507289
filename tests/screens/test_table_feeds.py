"""What the table screen asks of its seat's feed (`TableFeed`): both feeds it
is given, the engine's at this keyboard and a card room's replica in a
session worker, declare every part of it, so the screen never probes one."""

from __future__ import annotations

import ast
import inspect

import pytest

from crib3.engine import Game, PlayerInfo, Rules, SeatFeed
from crib3.engine.rules import IllegalMove
from crib3.room import RoomError
from crib3.room.replica import ReplicaFeed
from crib3.tui.screens import practice, table
from crib3.tui.screens.table import TableFeed

# `TableFeed`'s members, read from its own body (kept in step with it).
MEMBERS = {node.name for node in ast.parse(inspect.getsource(TableFeed)).body[0].body
           if isinstance(node, ast.FunctionDef)}


def test_the_contract_is_what_the_screen_uses():
    assert MEMBERS == {"send", "room_errors", "follow", "dispatch"}


@pytest.mark.parametrize("feed", [SeatFeed, ReplicaFeed])
def test_both_feeds_declare_every_member(feed):
    assert MEMBERS <= set(dir(feed))


def test_at_this_keyboard_a_move_is_dispatched_and_only_the_rules_refuse_it():
    game = Game.new([PlayerInfo("You"), PlayerInfo("L", "easy"), PlayerInfo("R", "easy")],
                    Rules(), seed=3)
    feed = SeatFeed(game, 0)
    assert feed.send is None
    assert feed.room_errors == ()
    with pytest.raises(IllegalMove):
        feed.dispatch(game.view(1).legal[0])  # another seat's move


def test_a_card_room_feed_sends_without_waiting_and_names_the_rooms_refusals():
    assert callable(ReplicaFeed.send)
    assert ReplicaFeed.room_errors == (RoomError,)


@pytest.mark.parametrize("module", [table, practice])
def test_the_table_and_practice_screens_probe_no_attribute(module):
    tree = ast.parse(inspect.getsource(module))
    probes = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Call)
              and isinstance(node.func, ast.Name) and node.func.id in ("getattr", "hasattr")]
    assert probes == []
