"""Match play on the screen: the open-table dialog's choice, the lobby's
line, and the result between a match's games going on to the next game."""

from __future__ import annotations

import os

from room.test_room import arrive, play_people
from tui_support import room_app, screen_text, wait_for

from crib3.engine import Rules
from crib3.room import Room
from crib3.room.results import Results
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.open_table import OpenTableScreen
from crib3.tui.screens.room_table import RoomGameOverScreen, RoomTableScreen
from crib3.tui.screens.waiting import WaitingScreen


async def test_the_owner_opens_a_best_of_3_and_the_lobby_says_so(tmp_path):
    room = Room(tmp_path / "tables", think=3600, results=Results(tmp_path / "ratings"))
    room.sign_in("Dan", "SHA256:dan", lambda r: None)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("o")
        await wait_for(pilot, lambda: isinstance(app.screen, OpenTableScreen))
        assert "one game" in screen_text(app)
        await pilot.press(*["down"] * 6, "right")  # the Match row, the dialog's last
        await wait_for(pilot, lambda: "first to win 2 games" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, WaitingScreen))
        assert "121 best of 3" in screen_text(app)
    [table] = room.lobby()
    assert table.match.best_of == 3 and table.rated
    viewer = room.sign_in("Eve", "SHA256:eve", lambda r: None)
    assert viewer is not None
    app = room_app(room, "Eve")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await wait_for(pilot, lambda: "121 rated best of 3" in screen_text(app))


async def test_between_a_matchs_games_the_result_says_the_standing_and_enter_goes_on(tmp_path):
    room = Room(tmp_path / "tables", think=0)
    ann = arrive(room, "Ann", "SHA256:ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"), best_of=3)
    table.start("Ann")
    app = room_app(room, "Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen))
        first = table.game
        # The game played to its end (by its feed, not key by key: the
        # screen's own pacing is the table screen's tests' business), then
        # its end as the table screen tells the app of it.
        await play_people(table, (0,))
        await wait_for(pilot, lambda: table.game is not first)
        app.game = first
        app._game_over(first.state)
        await wait_for(pilot, lambda: isinstance(app.screen, RoomGameOverScreen)
                       and "n or Enter" in screen_text(app))
        shown = screen_text(app)
        assert "Match, best of 3, games won:" in shown and "first to win 2" in shown
        assert "n or Enter: next game" in shown and "Next game" in shown.splitlines()[-1]
        if os.environ.get("CRIB3_MATCH_SVG"):  # to look at it: CRIB3_MATCH_SVG=path.svg
            with open(os.environ["CRIB3_MATCH_SVG"], "w") as f:
                f.write(app.export_screenshot())
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen)
                       and app.game is table.game)
        assert not table.game.over and len(table.match.games) == 1
    table.close()


async def test_the_result_of_a_matchs_last_game_says_who_won_it_and_goes_to_the_lobby():
    from crib3.room.match import Match, Played
    from crib3.tui.screens.room_table import match_words

    won = Match(3, (Played(1, (100, 121, 90)), Played(1, (80, 121, 120))))
    line = match_words(won, ["Ann", "Bob", "Cy"], 0)
    assert line.endswith("Bob wins the match.") and "Bob 2" in line
    assert match_words(won, ["Ann", "Bob", "Cy"], 1).endswith("You win the match!")
    level = Match(3, (Played(0, (121, 0, 0)), Played(1, (0, 121, 0)), Played(2, (0, 0, 121))))
    assert "Nobody has 2 yet: the match goes on." in match_words(level, ["A", "B", "C"], 0)
    assert RoomGameOverScreen(won.games and _state(), 0, won).again == "back to the lobby"


def _state():
    from crib3.engine import Game, PlayerInfo

    return Game.new([PlayerInfo("Ann", "human"), PlayerInfo("Bob", "easy"),
                     PlayerInfo("Cy", "easy")], Rules(target=61), seed=1).state


def test_the_room_help_says_how_a_match_is_won_when_the_games_run_out():
    from crib3.tui.screens.watch import RoomHelpScreen

    text = " ".join(RoomHelpScreen().help_text().split())
    assert "the first to win 2 games (of 3) or 3 (of 5) wins the match" in text
    assert "(1-1-1, 2-2-1), the match goes on until someone is" in text


async def test_in_a_session_worker_a_match_opens_and_goes_on_to_its_next_game(tmp_path):
    """The same, on a worker's replica of the room: the match opened over
    the wire, its standing carried in the table's snapshot."""
    from test_room_replica import Pipe

    from crib3.room.host import RoomHost
    from crib3.room.replica import CALLER, ReplicaRoom
    from crib3.tui.room_app import CardRoomApp

    room = Room(tmp_path / "tables", think=0)
    room.sign_in("Ann", None, lambda r: None)
    pipes: dict[str, Pipe] = {}
    host = RoomHost(room, lambda worker, message: pipes[worker].deliver(message))
    pipe = pipes["w1"] = Pipe(host, "w1")
    pipe.replica = ReplicaRoom(pipe)
    pipe.auto = True
    host.add_worker("w1")
    pipe.pump()
    host.add_session(1, "w1", room.people["ann"])
    presence = pipe.replica.presence("Ann", None, False, 1)
    CALLER.set(1)
    mine = pipe.replica.open_table(presence, Rules(target=61), ("easy", "easy"), None, 3)
    table = room.tables[mine.number]
    assert table.match.best_of == 3 and mine.match.best_of == 3
    app = CardRoomApp(pipe.replica, presence, think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, WaitingScreen))
        await pilot.press("enter")  # start
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen))
        first = table.game
        await play_people(table, (0,))
        await wait_for(pilot, lambda: table.game is not first and len(mine.match.games) == 1)
        app._game_over(first.state)
        await wait_for(pilot, lambda: isinstance(app.screen, RoomGameOverScreen)
                       and "next game" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, RoomTableScreen)
                       and app.screen.presented >= 1)
        assert mine.state is not None and mine.state.winner is None
    table.close()


async def test_a_room_whose_tables_play_no_matches_does_not_offer_one(tmp_path):
    from textual.app import App

    class Dialog(App[None]):
        def on_mount(self) -> None:
            self.push_screen(OpenTableScreen(rates=True, matches=False))

    app = Dialog()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Open a table" in screen_text(app))
        assert "Match" not in screen_text(app) and "Rating" in screen_text(app)


async def test_a_spectator_of_a_match_watches_its_next_game_too(tmp_path):
    from crib3.tui.screens.watch import SpectatorScreen

    room = Room(tmp_path / "tables", think=0)
    ann = arrive(room, "Ann", "SHA256:ann")
    table = room.open_table(ann, Rules(target=61), ("easy", "easy"), best_of=3)
    table.start("Ann")
    arrive(room, "Eve", "SHA256:eve")
    app = room_app(room, "Eve")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: "Ann" in screen_text(app))
        app.spectate(table)
        await wait_for(pilot, lambda: isinstance(app.screen, SpectatorScreen)
                       and app.screen.presented >= 1)
        watching, first, depth = app.screen, table.game, len(app.screen_stack)
        await play_people(table, (0,))
        watching._game_over(first.state)  # (as its pacing would, at the game's end)
        await wait_for(pilot, lambda: isinstance(app.screen, SpectatorScreen)
                       and app.screen is not watching and app.screen.presented >= 1)
        assert table.game is not first and app.table is table
        assert len(app.screen_stack) == depth  # in its place, not one more a game
    table.close()


def test_a_cluster_nodes_lobby_offers_a_match_too():
    """A cluster's tables play matches as one machine's do: its lobby's
    open-table dialog has the Match row."""
    from types import SimpleNamespace

    pushed: list[OpenTableScreen] = []
    lobby = SimpleNamespace(room=SimpleNamespace(rates=True, cluster=object()),
                            app=SimpleNamespace(push_screen=lambda s, then: pushed.append(s)),
                            _opened=None)
    LobbyScreen.action_open(lobby)  # (a node's lobby: its room's `cluster` is set)
    [dialog] = pushed
    assert dialog.matches and dialog.rates
