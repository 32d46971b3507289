"""A person's finished games on a cluster (crib3.cluster.finished): a
game played at one node's table is in "My games" at another node, which
never hosted it, and Enter replays it from there, as on one machine."""

from __future__ import annotations

import json

import pytest
from nats_support import nats_server, needs_nats, play_to_the_end, until
from tui_support import room_app, screen_text, wait_for

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.engine import Rules
from crib3.room.results import Results
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.my_games import MyGamesScreen
from crib3.tui.screens.replay import ReplayScreen

pytestmark = needs_nats
ANN = "ssh SHA256:ann"


async def test_my_games_at_another_node_lists_and_replays_a_game_played_at_the_first(
        tmp_path):
    from crib3.cluster.room import ClusterRoom

    with nats_server(tmp_path / "nats") as server:
        rooms = [await ClusterRoom.start([server.url], name, tmp_path / name, think=0.0,
                                         lease_seconds=5.0,
                                         results=Results(tmp_path / name / "ratings"))
                 for name in ("ma", "mb")]
        a, b = rooms
        try:
            ann = await a.enter("Ann", "SHA256:ann", lambda why: None)
            table = a.open_table(ann, Rules(target=61), ("easy", "easy"))
            table.start("Ann")
            await play_to_the_end(table)  # Ann plays her first legal move
            game = table.game
            events = len(game.events)
            a.depart(ann)
            await until(lambda: bool(b.records.finished(ANN)), seconds=20,
                        what="node mb's record of Ann's game")
            await until(lambda: b.results.skill(ANN) is not None, what="node mb rating it")
            await b.enter("Ann", "SHA256:ann", lambda why: None)
            app = room_app(b, "Ann")
            async with app.run_test(size=(80, 24)) as pilot:
                await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
                await pilot.press("g")
                await wait_for(pilot, lambda: isinstance(app.screen, MyGamesScreen)
                               and app.screen.loaded)
                shown = screen_text(app)
                assert "1 finished game" in shown and "rated" in shown, shown
                mine = app.screen
                await pilot.press("enter")
                await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
                assert len(app.screen.replay.events) == events
                await pilot.press("q")
                await wait_for(pilot, lambda: app.screen is mine)
                await pilot.press("e")
                await wait_for(pilot, lambda: bool(app.clipboard))
            lines = [json.loads(line) for line in app.clipboard.splitlines()]
            assert lines[0]["exported_for_seat"] == 0 and lines[0]["table"] == table.number
            assert len(lines) == events + 1
        finally:
            for room in rooms:
                room.close()
                await room.stop()
