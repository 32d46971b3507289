"""The card room's live duplicate events, from the lobby (`e`).

`LiveEventScreen` lists the room's live events (`crib3.room.live_tables`):
when each starts, who entered, the board in play, and the selected event's
results so far (only the boards that are over at every table: nobody sees a
board's cards here before they have played it). `j` enters you (or takes
your entry back before the start), `n` makes a new event that starts in
five minutes (rated or casual where the room rates: `NewEventScreen`;
unrated where it does not), `s` starts the selected event now (its host's
key, or an admin's), `r` replays any table's play of a board over at every table.
Once the event is under way this screen seats you at each board
as it is dealt (`LiveBoardScreen`, the room's table screen whose game ends
with the board's show) and comes back after it with the results.

The screen reads the room's events through `RoomView.events`: the room's
own in its main process, or a session worker's copy of them
(`crib3.room.replica.ReplicaEvents`: what the screen does there is a call
to the main process, and a board's cards reach it only through the seat's
feed), or a cluster node's (`crib3.cluster.live_events.ClusterLiveEvents`:
every node's events; a board's table another node hosts is visited, as
any table of another node).
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from crib3.common.names import shown_name
from crib3.duplicate.events import EventError, load_event
from crib3.engine import events as ev
from crib3.engine.events import Event
from crib3.room import Presence, RoomError
from crib3.room.contract import LiveEventsView, LiveEventView, RoomView, TableView
from crib3.room.event_ratings import mark_rated
from crib3.room.live_event import (
    CALLED_OFF,
    ENTERING,
    OVER,
    PLAYING,
    WITH_COMPUTER,
    LiveEvent,
    load_live,
    new_live_event,
)
from crib3.tui.css import STYLESHEET
from crib3.tui.screens.board_table import BoardWords, board_name, board_title
from crib3.tui.screens.new_event import NewEventScreen
from crib3.tui.screens.room_table import RoomTableScreen
from crib3.tui.screens.table_plays import TablePlaysScreen
from crib3.tui.widgets.footer import TidyFooter

if TYPE_CHECKING:
    from crib3.tui.room_app import CardRoomApp

STARTS_IN = 300.0  # seconds from `n` to the start of an event made in the lobby
BOARDS = 3  # boards of an event made in the lobby


class LiveBoardScreen(BoardWords, RoomTableScreen):
    """A board at an event table: `on_over` once the hand's show has been
    seen, as a game's is after its win (`BoardTableScreen` does the same
    for an event against the computer)."""

    async def _pace(self, event: Event) -> None:
        await super()._pace(event)
        if isinstance(event, ev.HandEnded) and self.on_over is not None:
            self.on_over(self.shown)


class LiveEventScreen(Screen[None]):
    """The room's live events (see the module's docstring)."""

    BINDINGS = [
        Binding("j", "join", "Enter"),
        Binding("n", "new", "New event"),
        Binding("s", "start", "Start now"),
        Binding("r", "replays", "Replay a table"),
        Binding("down", "pick(1)", "Next event", show=False),
        Binding("up", "pick(-1)", "Event back", show=False),
        Binding("q,escape", "leave", "Lobby"),
    ]
    CSS_PATH = STYLESHEET
    DEFAULT_CSS = """
    LiveEventScreen #title { text-style: bold; color: $accent; }
    """

    def __init__(self, room: RoomView, events: LiveEventsView, presence: Presence) -> None:
        super().__init__()
        self.room = room
        self.events = events
        self.presence = presence
        self.picked = 0
        self._queued = False
        self._seated_at: int | None = None  # the board table this screen last sat you at
        self._making = False  # a new event's boards are being dealt

    @property
    def room_app(self) -> CardRoomApp:
        return cast("CardRoomApp", self.app)

    def compose(self) -> ComposeResult:
        yield Static("Live duplicate events", id="title")
        with VerticalScroll():
            yield Static("", id="events")
            yield Static("", id="results")
        yield TidyFooter()

    def on_mount(self) -> None:
        self.events.find()
        self.room.listeners.append(self._room_changed)
        self._redraw()

    def on_unmount(self) -> None:
        if self._room_changed in self.room.listeners:
            self.room.listeners.remove(self._room_changed)

    def on_screen_resume(self) -> None:
        self._redraw()

    def _room_changed(self) -> None:
        if not self._queued:  # (only queue work: see LobbyScreen._room_changed)
            self._queued = True
            self.call_later(self._changed)

    def _changed(self) -> None:
        self._queued = False
        if self._replaying() and self._dealt_anew():  # your board first: back from replays
            while self.app.screen is not self:
                self.app.pop_screen()
        if self.app.screen is self:  # (under a board: redrawn as it comes back)
            self._redraw()

    def _replaying(self) -> bool:
        """Every screen over this one is a replay of a table's board."""
        from crib3.tui.screens.replay import ReplayScreen

        stack = self.app.screen_stack
        above = stack[stack.index(self) + 1:] if self in stack else []
        return bool(above) and all(isinstance(s, (TablePlaysScreen, ReplayScreen))
                                   for s in above)

    def _dealt_anew(self) -> bool:
        table = self.events.table_of(self.presence)
        return table is not None and table.number != self._seated_at

    def selected(self) -> LiveEventView | None:
        listed = self.events.listed()
        if not listed:
            return None
        self.picked = max(0, min(self.picked, len(listed) - 1))
        return listed[self.picked]

    def _redraw(self) -> None:
        if not self.is_attached:
            return
        listed = self.events.listed()
        lines = Text()
        if not listed:
            lines.append("No live event here yet: n makes one (or crib3 event new --live).")
        for index, item in enumerate(listed):
            mark = "> " if index == self.picked else "  "
            entered = item.entrant(self.presence.name) is not None
            mine = {ENTERING: " (you are entered)", PLAYING: " (you play)",
                    OVER: " (you played)"}.get(item.status, "") if entered else ""
            lines.append(f"{mark}{item.name}: {self._state_words(item)}{mine}\n",
                         style="bold" if index == self.picked else "")
        live = self.selected()
        if live is not None and live.note:
            lines.append(f"\n{live.note}\n")
        self.query_one("#events", Static).update(lines)
        self.query_one("#results", Static).update(self._results_text(live))
        if live is not None and live.status == PLAYING:
            # (After this turn: a board's screen pushed while this one mounts
            # is never composed.)
            self.call_later(self._sit_if_dealt)

    def _state_words(self, live: LiveEventView) -> str:
        people = len(live.entered)
        who = f"{people} {'person' if people == 1 else 'people'}"
        if live.status == ENTERING:
            return (f"{live.board_count} boards, starts {live.starts_words()}, "
                    f"{who} entered, host {shown_name(live.host)}")
        if live.status == PLAYING:
            return (f"board {live.board} of {live.board_count} at {len(live.seating)} "
                    f"table{'s' * (len(live.seating) != 1)}")
        return "called off" if live.status == CALLED_OFF else f"over ({who})"

    def _results_text(self, live: LiveEventView | None) -> Text:
        if live is None or live.status not in (PLAYING, OVER):
            return Text("")
        lines = live.sheet()
        if not lines:
            return Text("\nNo board is over at every table yet.")
        return Text("\n" + "\n".join(lines))

    def _sit_if_dealt(self) -> None:
        """The board dealt to you now: you are seated at it."""
        if self.app.screen is not self:
            return  # (not `is_current`: that is true under a table screen too)
        table = self.events.table_of(self.presence)
        if table is None:
            number = self.events.elsewhere(self.presence)
            if number is not None and number != self._seated_at:
                self._seated_at = number
                self.room_app.go_elsewhere(number)  # (a cluster's: this session visits it)
            return
        if table.number == self._seated_at:
            return
        try:
            seat = table.sit(self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self._seated_at = table.number
        app = self.room_app
        app.table, app.seat = table, seat
        assert table.game is not None
        # (In a worker, a `ReplicaGame`: the app asks it only whether it is over.)
        app.game = table.game  # type: ignore[assignment]  # see the line above
        screen = LiveBoardScreen(table, seat, app.think, app.ascii,
                                 lambda state: self._board_over(table), resumed=False)
        playing = self._playing()
        if playing is not None:
            screen.hand_title = board_title(playing.board, playing.board_count)
            screen.board = board_name(playing.board)
        self.app.push_screen(screen)

    def _playing(self) -> LiveEventView | None:
        """The event whose board this person is dealt now, if any."""
        return next((live for live in self.events.listed()
                     if live.status == PLAYING and live.entrant(self.presence.name) is not None),
                    None)

    def _board_over(self, table: TableView) -> None:
        """Back here after the board's show: its results once every table is through."""
        app = self.room_app
        screen = self.app.screen
        if isinstance(screen, LiveBoardScreen) and screen.table is table:
            app.table = app.seat = None
            app.game = None
            self.app.pop_screen()
            board = self.selected()
            if board is not None and board.status == PLAYING:
                self.notify("Board over: the next one is dealt when every table is through.",
                            markup=False)

    def action_pick(self, step: int) -> None:
        self.picked += step
        self._redraw()

    def action_join(self) -> None:
        live = self.selected()
        if live is None:
            return
        try:
            if live.entrant(self.presence.name) is not None and live.status == ENTERING:
                self.events.withdraw(live.name, self.presence)
                self.notify(f"Your entry in {live.name} is taken back.", markup=False)
            else:
                self.events.join(live.name, self.presence)
                self.notify(f"You are entered in {live.name}: it starts "
                            f"{live.starts_words()}; stay here to be seated.", markup=False)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
        self._redraw()

    def action_new(self) -> None:
        if self._making:
            return
        try:
            self.events.may_make(self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        if self.room.rates:  # rated or casual, as a table is opened
            self.app.push_screen(NewEventScreen(BOARDS, round(STARTS_IN / 60)), self._chosen)
        else:
            self._chosen(False)

    def _chosen(self, rated: bool | None) -> None:
        if rated is None or self._making:
            return
        self._making = True
        self.notify("Dealing a new event's boards...", markup=False)
        self.run_worker(self._make(rated), exclusive=True)

    async def _make(self, rated: bool = False) -> None:
        """A new event of `BOARDS` boards against the standard computer,
        starting in `STARTS_IN` seconds, `rated` or not; its boards and the
        computer's yardstick are played off the room's loop (a second or
        two). The host's choice that it is rated is kept beside it before
        the room hears of it (`made`), so every room that reads it (a
        worker's main process, a cluster's bucket) knows."""
        start = time.time() + STARTS_IN
        name = f"live-{datetime.fromtimestamp(start, UTC):%Y%m%d-%H%M%S}"

        def make() -> LiveEvent:
            live = new_live_event(name, int(start), BOARDS, "standard", self.presence.name,
                                  start, WITH_COMPUTER)
            if rated:
                mark_rated(live.event)
            return live
        try:
            live = await asyncio.to_thread(make)
        except (EventError, OSError) as exc:
            self.notify(f"No event made: {exc}", severity="warning", markup=False)
            return
        finally:
            self._making = False
        try:
            self.events.made(live.name)
        except RoomError as exc:
            self.notify(f"No event made: {exc}", severity="warning", markup=False)
            return
        self.notify(f"Event {live.name}: {BOARDS} boards{', rated' * rated}, starts "
                    f"{live.starts_words()}; j enters you, s starts it now.", markup=False)
        self.picked = [e.name for e in self.events.listed()].index(live.name)
        self._redraw()

    def action_start(self) -> None:
        live = self.selected()
        if live is None:
            return
        try:
            line = self.events.start(live.name, self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        if line:
            self.notify(line, markup=False)
        self._redraw()

    def action_replays(self) -> None:
        """Any table's play of a board over everywhere, step by step."""
        chosen = self.selected()
        if chosen is None:
            return
        try:  # (a worker's copy of the event holds no logs: read it from the data folder)
            live = chosen if isinstance(chosen, LiveEvent) else load_live(load_event(chosen.name))
        except (EventError, RoomError, OSError) as exc:
            self.notify(f"No replays of {chosen.name} here: {exc}", severity="warning",
                        markup=False)
            return
        if live is None:
            return
        self.app.push_screen(TablePlaysScreen(live))

    def action_leave(self) -> None:
        self.room_app.back_to_lobby()  # (the lobby under this screen, or a new one)
