"""The crib3 app as a card room serves it: one per SSH session.

A sibling of the local app (`Crib3App`), on the same `BaseApp`: the table,
help, quitting and the too-small notice are the same; it opens on the room's
lobby, sits you at a shared table, and goes back to the lobby after a game.
It keeps no files of its own (the room saves the tables), so it has no
statistics, no saved games and no screenshots.

`crib3.net.server` builds one per session through the factory `crib3 serve`
hands it (this class itself: `CardRoomApp(room, presence, ascii, think,
journey)`), so the SSH side never imports a screen. The room is any of the
three (`crib3.room.contract.RoomView`); the session's way between the lobby,
tables and other nodes is its `journey` (`Wayfinding`), which the door owns
and which outlives the app.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.screen import Screen

from crib3.tui.base_app import BaseApp

if TYPE_CHECKING:
    from crib3.engine import State
    from crib3.room import Presence
    from crib3.room.contract import RoomView, TableView, Wayfinding


class CardRoomApp(BaseApp):
    """One person's window on the card room. No command palette: its
    commands are few here, and Textual's palette does not survive a burst of
    input that opens it while it is opening (seen with garbage input)."""

    ENABLE_COMMAND_PALETTE = False

    def __init__(self, room: RoomView, presence: Presence, ascii: bool = False,
                 think: float = 0.6, journey: Wayfinding | None = None) -> None:
        super().__init__(ascii=ascii, think=think)
        self.room = room
        self.presence = presence
        # The session's way (None: a session that goes nowhere else, as a
        # test's may).
        self.journey = journey
        self.table: TableView | None = None
        self.seat: int | None = None
        self.attention.on = True  # people look away between turns: m turns it off

    def action_toggle_bell(self) -> None:
        """m: the bell and the title for your turn (and your name in chat), off or on."""
        self.attention.on = not self.attention.on
        self.notify("The bell for your turn is on (m turns it off)." if self.attention.on
                    else "The bell for your turn is off (m turns it on).")

    def open_first_screen(self) -> None:
        from crib3.room import RoomError
        from crib3.tui.screens.lobby import LobbyScreen

        presence, journey = self.presence, self.journey
        joining = notice = None
        if journey is not None:
            joining, notice = journey.joining, journey.notice
            journey.joining = journey.notice = None
        if joining is not None:  # come for a table (crib3 serve --cluster: from another node)
            number, watch = joining
            table = self.room.tables.get(number)
            try:
                if table is None:
                    raise RoomError(f"table {number} is not here any more")
                if watch:
                    self.spectate(table)
                else:
                    self.sit_at(table, table.sit(presence))
                return
            except RoomError as exc:
                notice = str(exc)
                cluster = self.room.cluster
                if table is None and not watch and cluster is not None and journey is not None:
                    # Come to a table this node let go of a moment ago (a
                    # failed write): the lobby takes them to their seat as
                    # soon as a node adopts it, this one or another.
                    journey.rejoin = (number, cluster.node_name)
        place = self.room.place_of(presence)
        if place is not None:  # back after a dropped connection: straight to the seat
            table, seat = place
            table.sit(presence)
            # (moved to its table's worker as it waited, the game starting
            # meanwhile: from its first event, as for the others)
            self.sit_at(table, seat, fresh=journey is not None and journey.from_start)
        elif journey is not None and journey.watching is not None:
            # A spectator moved to its table's worker (crib3.net.placement).
            try:
                self.spectate(journey.watching)
            except RoomError:  # (the game ended meanwhile)
                self.push_screen(LobbyScreen(self.room, presence, journey))
        else:
            self.push_screen(LobbyScreen(self.room, presence, journey))
        if notice:
            self.notify(notice, severity="warning", timeout=10, markup=False)

    # The app ends, and the terminal is left as it is (no putting it back):
    # the session goes on with another app, on another node (`go_elsewhere`).
    keeps_terminal = False

    def go_elsewhere(self, number: int, watch: bool = False) -> None:
        """Sit at (or watch) table `number`, which another node of the
        cluster hosts: this app ends, and the session goes on there."""
        cluster, journey = self.room.cluster, self.journey
        if cluster is None or journey is None:  # (only a cluster's node has tables elsewhere)
            return
        why_not = cluster.may_visit(self.presence, number, watch)
        if why_not is not None:
            self.notify(why_not, severity="warning", markup=False)
            return
        journey.go_to = (number, watch)
        self._at_a_table()
        self.keeps_terminal = True
        self.exit()

    def _at_a_table(self) -> None:
        """The person is at (or on the way to) a table now: the one they
        watched as it moved to another node is followed no more
        (`Wayfinding.rewatch`)."""
        if self.journey is not None:
            self.journey.rewatch = None

    def _in_place_of_the_lobby(self, screen: Screen[None]) -> None:
        """Show `screen` over the lobby's place: the lobby (or the waiting
        list) it leaves is dropped, not kept underneath. A lobby under a
        table held its list of every table and its widgets for the whole
        game (memory growing with the room: assets/measurements/card-room.md),
        and was told of every change in the room; `back_to_lobby` makes a
        new one, up to date."""
        from crib3.tui.screens.lobby import LobbyScreen
        from crib3.tui.screens.waiting import WaitingScreen

        if isinstance(self.screen, (LobbyScreen, WaitingScreen)):
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def sit_at(self, table: TableView, seat: int, fresh: bool = False) -> None:
        """Show `table` from `seat`: the waiting list, or the game (from its
        first event when it has just started, or when `fresh`, else where it
        stands)."""
        from crib3.tui.screens.room_table import RoomTableScreen
        from crib3.tui.screens.waiting import WaitingScreen

        self._at_a_table()
        events = self.room.events
        # A live event's table: the event's screen seats them.
        if events is not None and events.board_of(table) is not None:
            from crib3.tui.screens.live_event import LiveEventScreen

            self.push_screen(LiveEventScreen(self.room, events, self.presence))
            return
        resumed = not fresh and not isinstance(self.screen, WaitingScreen)
        self.table, self.seat = table, seat
        if table.game is None:
            screen: Screen[None] = WaitingScreen(table, seat)
        else:
            # (In a worker, a `ReplicaGame`: the app asks it only whether it is over.)
            self.game = table.game  # type: ignore[assignment]  # see the line above
            screen = RoomTableScreen(table, seat, self.think, self.ascii, self._game_over,
                                     resumed=resumed, show_pace=self.room.show_pace)
        self._in_place_of_the_lobby(screen)

    def back_to_lobby(self) -> None:
        from crib3.tui.screens.lobby import LobbyScreen

        if self.table is not None and self.seat is not None and self.table.started \
                and not self.table.over:
            self.table.leave(self.seat)  # away: the seat waits; after patience, a bot may take it
        self.table = self.seat = None
        self.game = None
        while len(self.screen_stack) > 2 and not isinstance(self.screen, LobbyScreen):
            self.pop_screen()
        if not isinstance(self.screen, LobbyScreen):  # (the one left was in the lobby's place)
            lobby = LobbyScreen(self.room, self.presence, self.journey)
            if len(self.screen_stack) > 1:
                self.switch_screen(lobby)
            else:
                self.push_screen(lobby)

    def spectate(self, table: TableView) -> None:
        """Watch `table` without a seat (RoomError: it cannot be watched)."""
        from crib3.tui.screens.watch import BoardSpectatorScreen, SpectatorScreen

        table.watch(self.presence)
        self.table, self.seat = table, None
        self._at_a_table()
        events = self.room.events
        board = events.board_of(table) if events is not None else None
        self._in_place_of_the_lobby(
            SpectatorScreen(table, self.think, self.ascii) if board is None
            else BoardSpectatorScreen(table, self.think, self.ascii, board))

    def stop_watching(self) -> None:
        """Back to the lobby from a table watched (the seats see you go)."""
        if self.table is not None:
            self.table.unwatch(self.presence)
        self.back_to_lobby()

    def action_help(self) -> None:
        """The help, with the card room's keys (and an admin's, for one);
        in the lobby, the lobby's first."""
        from crib3.tui.screens.dialogs import HelpScreen
        from crib3.tui.screens.lobby import LobbyScreen
        from crib3.tui.screens.watch import RoomHelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(RoomHelpScreen(self.presence.admin,
                                            lobby=isinstance(self.screen, LobbyScreen)))

    def _game_over(self, state: State) -> None:
        from crib3.room.match import Played
        from crib3.tui.screens.room_table import RoomGameOverScreen

        match = self.table.match if self.table is not None else None
        if match is not None and match.is_match and state.winner is not None \
                and not match.over and (not match.games
                                        or match.games[-1].scores != tuple(state.scores)):
            # (In a worker the table's match may come a moment after its
            # game's last event: this game, not counted in yet, is.)
            match = match.add(Played(state.winner, tuple(state.scores)))
        self.push_screen(RoomGameOverScreen(state, self.seat or 0, match), self._after_game)

    def _after_game(self, choice: str | None) -> None:
        if choice == "new":
            self.back_to_lobby()
        elif choice == "next":
            self._next_game()
        else:
            self.exit()

    def _next_game(self) -> None:
        """A match's next game: to the table again once it has begun (the
        table begins it as the last one ends: at once, but not within the
        very keypress), or to the lobby if the table is gone."""
        table, seat = self.table, self.seat
        if table is None or seat is None or table.closed or table.over:
            self.back_to_lobby()
        elif table.state is None or table.state.winner is not None:  # (not begun yet)
            self.set_timer(0.05, self._next_game)
        else:
            self.sit_at(table, seat, fresh=True)

    def action_new_game(self) -> None:
        """At a card room a new game starts at the lobby; a game in progress
        keeps your seat for you."""
        self.back_to_lobby()

    def own_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield SystemCommand("Lobby", "Back to the tables (your seat waits for you)",
                            self.action_new_game)
        yield SystemCommand("Help", "Keys and the rules in short", self.action_help)

    def textual_command_wanted(self, command: SystemCommand) -> bool:
        return command.title != "Screenshot"  # it would write a file on the server

    def action_screenshot(self, filename: str | None = None, path: str | None = None) -> None:
        """Textual's screenshot writes a file: none on the server from a session."""
