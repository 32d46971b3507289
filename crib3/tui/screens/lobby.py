"""The card room's lobby (`crib3 serve`): the tables of the room, who sits
where, and the free seats; Enter sits you at one, o opens a table of your
own (`OpenTableScreen`), p plays now (the room's queue seats you with two
people of near rating, or offers the computer at your level after a
wait; Esc leaves the queue), w watches one playing, and an admin's keys close a
table, end someone's session, ban someone or mute them, lift a ban or a
mute, or write the message of the day. The room's message
of the day, if it has one, is shown under the title.

It reads the room (any of the three: `crib3.room.contract.RoomView`) and
calls its few methods (open, sit, bring back, close, remove, ban, mute, lift, the
message of the day); the room
tells it when something changed, and it redraws. On a cluster's node
(`room.cluster`) it lists the other nodes' tables and people too, and
takes the session to them through its `journey`. Its layout is in
crib3.tcss.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from crib3.common.names import shown_name
from crib3.room import Presence, RoomError
from crib3.room.matcher import level_near
from crib3.room.ratings import BOT_SKILLS, bot_identity
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.bindings import QuietBindings
from crib3.tui.css import STYLESHEET
from crib3.tui.screens.lobby_words import queue_line, rules_line, seats_line, standing
from crib3.tui.screens.open_table import OpenTableScreen
from crib3.tui.screens.room_dialogs import (
    ConfirmAdmin,
    MotdPrompt,
    PickDuration,
    PickPerson,
    PickSanction,
)
from crib3.tui.textual_compat import keep_cell_drawings
from crib3.tui.widgets.footer import TidyFooter
from crib3.tui.widgets.table_list import TableList

if TYPE_CHECKING:
    from collections.abc import Sequence

    from textual.timer import Timer

    from crib3.engine import Rules
    from crib3.room.contract import ElsewhereTable, ListedTable, RoomView, TableView, Wayfinding
    from crib3.room.moderation import Sanction
    from crib3.tui.room_app import CardRoomApp


# An admin's keys, on a line of their own above the footer (its keys bold,
# as the footer's stand out).
ADMIN_KEYS = (("x", "Close"), ("k", "Remove"), ("b", "Ban"), ("u", "Mute"), ("l", "Lift"),
              ("d", "Message"))
ADMIN_LINE = "Admin:" + "".join(f"  {key} {what}" for key, what in ADMIN_KEYS)
ADMIN_ACTIONS = frozenset({"close_table", "remove", "ban", "mute", "lift", "motd"})


class LobbyScreen(QuietBindings, Screen[None]):
    """The tables of the room, who sits where, and the free seats."""

    BINDINGS = [
        Binding("o", "open", "Open a table"),
        Binding("p", "play_now", "Play now"),
        Binding("c", "computer", "Computer"),  # in the queue, after its wait (p's place)
        Binding("w", "watch", "Watch", show=False),  # the line above the footer says it
        # An admin's keys: their own line above the footer says them (in
        # the footer they pushed ? and Quit past 80 columns).
        Binding("x", "close_table", "Close", show=False),  # the highlighted table
        Binding("k", "remove", "Remove", show=False),  # someone's session
        Binding("b", "ban", "Ban", show=False),  # someone, across reconnects
        Binding("u", "mute", "Mute", show=False),  # someone's chat
        Binding("l", "lift", "Lift", show=False),  # a ban or a mute in force
        Binding("d", "motd", "Message", show=False),  # the message of the day
        Binding("r", "bring_back", "Back to my table", show=False),  # the greeting says it
        Binding("s", "players", "Players"),  # the leaderboard and profiles
        Binding("g", "my_games", "My games"),  # your finished games
        Binding("e", "live_events", "Events"),  # live duplicate events
        Binding("m", "app.toggle_bell", "Bell", show=False),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("escape", "leave_queue", "Leave the queue", show=False),  # else: quit
        Binding("q,escape", "app.quit", "Quit"),
    ]
    CSS_PATH = STYLESHEET  # the layout: crib3.tcss

    def __init__(self, room: RoomView, presence: Presence,
                 journey: Wayfinding | None = None) -> None:
        super().__init__()
        self.room = room
        self.presence = presence
        self.journey = journey  # the session's way (None: it goes nowhere else)
        self._numbers: list[int] = []
        self._stale = False
        self._queued = False  # a redraw is on its way: more changes join it
        self._rows: dict[int, tuple[str, ...]] = {}  # what each row shows now
        self._columns: list[ColumnKey] = []
        # In the play-now queue: since when (this loop's clock) and at what
        # rating; None: not in it.
        self._queue: tuple[float, int] | None = None
        self._queue_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static("crib3 card room", id="title")
        yield Static("", id="motd")
        yield Static("", id="who")
        yield Static("", id="queue")
        # Enter is the list's own key (RowSelected, below), not a priority
        # key of the screen: so it comes after any arrow keys that came
        # before it in the same burst of input.
        yield TableList(cursor_type="row", zebra_stripes=True, id="tables")
        yield Static("", id="empty")
        yield Static(in_words("↑/↓ choose a table · Enter sit down · w watch · "
                              "o open a table of your own",
                              app_is_ascii(self)), classes="hint")
        admin = Static(Text.assemble("Admin:", *(part for key, what in ADMIN_KEYS
                                                 for part in ("  ", (key, "bold"), f" {what}"))),
                       classes="hint", id="admin")
        admin.display = self.presence.admin
        yield admin
        yield TidyFooter()

    @property
    def room_app(self) -> CardRoomApp:
        """The card room's app this lobby is a screen of."""
        return cast("CardRoomApp", self.app)

    def _names_here(self) -> list[str]:
        """Everyone signed in (on a cluster's node: on every node)."""
        cluster = self.room.cluster
        if cluster is not None:
            return cluster.names_here()
        return [p.name for p in self.room.people.values()]

    def _elsewhere(self) -> Sequence[ElsewhereTable]:
        """The tables other nodes host (a cluster's node; none elsewhere)."""
        cluster = self.room.cluster
        return [] if cluster is None else cluster.elsewhere()

    def on_mount(self) -> None:
        tables = self.query(DataTable)
        if not tables:  # the app ended (a session kicked or closed) as the lobby came up
            return
        table = tables.first()
        keep_cell_drawings(table)  # (a seat taken anywhere redraws a column, not the list)
        self._columns = table.add_columns("Table", "Seats", "Rules", "Game")
        self.room.listeners.append(self._room_changed)
        self.refresh_tables()
        self.query_one("#queue", Static).display = False
        table.focus()

    def on_unmount(self) -> None:
        if self._room_changed in self.room.listeners:
            self.room.listeners.remove(self._room_changed)

    def _room_changed(self) -> None:
        # Called from whichever session changed the room: only queue work
        # here (Textual's `self.app` is the app of the session running now).
        # Changes that come before the redraw runs are drawn by it: seating a
        # busy room is one redraw a session per turn of the loop, not one
        # per change.
        if not self._queued:
            self._queued = True
            self.call_later(self._redraw_if_seen)

    def _redraw_if_seen(self) -> None:
        self._queued = False
        if self.is_current:
            self.refresh_tables()
        else:  # under a table: redrawn when it is back on top
            self._stale = True

    def on_screen_resume(self) -> None:
        if self._stale:
            self._stale = False
            self.refresh_tables()

    def on_data_table_row_selected(self) -> None:
        self.action_join()

    def refresh_tables(self) -> None:
        if not self.is_attached:
            return
        people = sorted(self._names_here())
        others = [shown_name(p) for p in people if p.lower() != self.presence.name.lower()]
        # Plain Text, never markup: people choose their names ("[/]", "[@click=…]").
        who = Text(f"You are {shown_name(self.presence.name)}.")
        if not others:
            who.append(" Nobody else is here yet.")
        elif len(others) <= 6:
            who.append(f" Also here: {', '.join(others)}.")
        else:  # one line, however busy the room: the tables come first
            who.append(f" Also here: {', '.join(others[:5])} and {len(others) - 5} more.")
        code = self.presence.code
        if code:
            who.append(f"\nYour reconnect code: {code} (ssh asks for it when you come "
                       f"back as {shown_name(self.presence.name)}; it holds the name for you).")
        shelved = self.room.shelved_for(self.presence)
        cluster = self.room.cluster
        if shelved is not None and (shelved in self.room.shelved
                                    or (cluster is not None and cluster.brings_back_soon)):
            who.append(f"\nYour table {shelved} was put away while nobody was at it: "
                       "r brings it back.")
        elif shelved is not None:
            who.append(f"\nYour game at table {shelved} was closed: r brings it back.")
        said = self.query_one("#who", Static)
        if not isinstance(said.content, Text) or said.content != who:
            said.update(who)
        self._show_motd()
        tables = self.room.lobby()
        rows = {t.number: (str(t.number), seats_line(t),
                           rules_line(t.rules, t.rated, t.match.best_of), standing(t))
                for t in tables}
        # A cluster's node (crib3 serve --cluster) lists the other nodes' tables too.
        for other in self._elsewhere():
            rows[other.number] = (f"{other.number} on {shown_name(other.node, 16)}",
                                  seats_line(other), rules_line(other.rules, other.rated),
                                  standing(other))
        self._show_rows(dict(sorted(rows.items())))
        empty = self.query_one("#empty", Static)
        line = "" if rows else "No tables yet. Press o to open one; your friends join it."
        if empty.content != line:
            empty.update(line)
        self.keys_may_have_changed()
        self._seated_from_queue()
        if self.journey is not None and (self.journey.rejoin is not None
                                         or self.journey.rewatch is not None):
            self.call_later(self._rejoin)

    def _show_motd(self) -> None:
        """The room's message of the day, as the host or an admin wrote it
        (plain Text, never markup); no row at all when there is none."""
        motd = self.room.motd
        shown = self.query_one("#motd", Static)
        shown.display = bool(motd)
        if motd and (not isinstance(shown.content, Text) or shown.content.plain != motd):
            shown.update(Text(motd))

    def _rejoin(self) -> None:
        """Back to the table whose node stopped (crib3 serve --cluster), once
        a node has adopted it: here, or on another node than the one lost;
        or, with no seat to go back to, on watching the table that moved as
        it was watched (`_watch_again`)."""
        journey = self.journey
        if journey is None or not self.is_attached or self.app.screen is not self:
            return
        rejoin = journey.rejoin
        if rejoin is None:  # (a seat first: a table watched only when none waits)
            if journey.rewatch is not None:
                self._watch_again(journey)
            return
        number, lost = rejoin
        table = self.room.tables.get(number)
        if table is not None:
            journey.rejoin = None
            if table.seat_of(self.presence.name) is not None and not table.over:
                try:
                    self.room_app.sit_at(table, table.sit(self.presence))
                except RoomError as exc:
                    self.notify(str(exc), severity="warning", markup=False)
            return
        other = next((t for t in self._elsewhere() if t.number == number), None)
        if other is not None and other.node != lost:
            journey.rejoin = None
            if other.seat_of(self.presence.name) is not None:
                self.room_app.go_elsewhere(number)

    def _watch_again(self, journey: Wayfinding) -> None:
        """On watching the table that moved from node `lost` while it was
        watched (crib3 serve --cluster), once a node hosts it: here, or
        another node than the one lost; unless the person went to another
        table meanwhile (`CardRoomApp` forgets it then)."""
        assert journey.rewatch is not None
        number, lost = journey.rewatch
        table = self.room.tables.get(number)
        if table is not None:
            journey.rewatch = None
            try:
                self.room_app.spectate(table)
            except RoomError as exc:  # (its game ended meanwhile)
                self.notify(str(exc), severity="warning", markup=False)
            return
        if any(t.number == number and t.node != lost for t in self._elsewhere()):
            journey.rewatch = None
            self.room_app.go_elsewhere(number, watch=True)

    def _show_rows(self, rows: dict[int, tuple[str, ...]]) -> None:
        """Bring the list up to `rows` (table number -> its cells, in the
        lobby's order) by the rows that changed: a change at one table
        redraws one row in every lobby, not every row (with every lobby
        redrawing every table for every change, seating a room took time
        that grew with the square of its size)."""
        grid = self.query_one(DataTable)
        row = grid.cursor_row
        numbers = list(rows)
        kept = [n for n in self._numbers if n in rows]
        if kept != numbers[:len(kept)]:  # not the old order plus new tables: all again
            grid.clear()
            self._rows.clear()
            kept = []
        for number in self._numbers:
            if number not in rows and number in self._rows:
                grid.remove_row(str(number))
                del self._rows[number]
        for number, cells in rows.items():
            before = self._rows.get(number)
            if before is None:  # a str cell would be read as markup: Text
                grid.add_row(*(Text(cell) for cell in cells), key=str(number))
            elif before != cells:
                for column, old, new in zip(self._columns, before, cells):
                    if old != new:
                        grid.update_cell(str(number), column, Text(new), update_width=True)
            self._rows[number] = cells
        self._numbers = numbers
        if numbers and grid.cursor_row != min(max(row, 0), len(numbers) - 1):
            grid.move_cursor(row=min(max(row, 0), len(numbers) - 1))

    def selected(self) -> TableView | None:
        grid = self.query_one(DataTable)
        if not self._numbers or grid.cursor_row < 0:
            return None
        return self.room.tables.get(self._numbers[min(grid.cursor_row, len(self._numbers) - 1)])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ADMIN_ACTIONS and not self.presence.admin:  # nobody else sees them
            return False
        if action == "join":
            return self.selected() is not None or self._selected_elsewhere() is not None
        if action == "watch":
            table = self.selected() or self._selected_elsewhere()
            return table is not None and table.started and not table.over \
                and table.seat_of(self.presence.name) is None
        if action == "close_table":
            return self.selected() is not None
        if action in ("remove", "ban", "mute"):
            return len(self._names_here()) > 1
        if action == "bring_back":
            return self.room.shelved_for(self.presence) is not None
        if action == "play_now":
            return self.room.play_now is not None and self._queue is None
        if action == "computer":
            return self._queue is not None and self._waited() >= self._wait()
        return True

    def keys_may_have_changed(self) -> None:
        """(And the admin's line: shown while this person is an admin.)"""
        super().keys_may_have_changed()
        if self.is_attached:
            line = self.query_one("#admin", Static)
            if line.display != self.presence.admin:
                line.display = self.presence.admin

    def on_data_table_row_highlighted(self) -> None:
        self.keys_may_have_changed()  # Watch, for a table that is playing

    def action_watch(self) -> None:
        table = self.selected()
        if table is None:
            if self._selected_elsewhere() is not None:
                self._hosted_elsewhere(watch=True)
            return
        try:
            self.room_app.spectate(table)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)

    def action_close_table(self) -> None:
        table = self.selected()
        if table is None or not self.presence.admin:
            return
        how = "its game is saved" if table.started else "it has not started"
        self.app.push_screen(ConfirmAdmin(f"Close table {table.number} ({how})?"),
                             lambda yes: self._close(table) if yes else None)

    def _close(self, table: TableView) -> None:
        try:
            self.room.close_by_admin(table, self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.notify(f"Table {table.number} is closed.", markup=False)

    def action_remove(self) -> None:
        names = sorted(n for n in self._names_here()  # (a cluster's: every node's)
                       if n.lower() != self.presence.name.lower())
        if self.presence.admin and names:
            self.app.push_screen(PickPerson(names), self._remove_asked)

    def _remove_asked(self, name: str | None) -> None:
        if name is not None:
            self.app.push_screen(ConfirmAdmin(f"End the session of {shown_name(name)}?"),
                                 lambda yes: self._remove(name) if yes else None)

    def _remove(self, name: str) -> None:
        try:
            self.room.remove(name, self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.notify(f"{shown_name(name)}'s session is closed.", markup=False)

    def action_ban(self) -> None:
        self._sanction("ban")

    def action_mute(self) -> None:
        self._sanction("mute")

    def _sanction(self, what: str) -> None:
        """An admin bans (or mutes) someone here: whom, then for how long."""
        names = sorted(n for n in self._names_here()
                       if n.lower() != self.presence.name.lower())
        if not self.presence.admin or not names:
            return

        def picked(name: str | None) -> None:
            if name is not None:
                self.app.push_screen(PickDuration(what, name),
                                     lambda seconds: self._sanctioned(what, name, seconds))

        self.app.push_screen(PickPerson(names, f"{what.capitalize()} whom?", "pick"), picked)

    def _sanctioned(self, what: str, name: str, seconds: float | None | bool) -> None:
        if seconds is False:  # (cancelled)
            return
        length = None if seconds is True else seconds
        try:
            if what == "ban":
                until = self.room.ban(name, self.presence, length)
            else:
                until = self.room.mute(name, self.presence, length)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        done = "banned" if what == "ban" else "muted"
        self.notify(f"{shown_name(name)} is {done} {until}.", markup=False)

    def action_lift(self) -> None:
        """An admin lifts a ban or a mute in force: which, then asked first."""
        if not self.presence.admin:
            return
        try:
            sanctions = list(self.room.sanctions(self.presence))
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        if not sanctions:
            self.notify("No bans or mutes are in force.", markup=False)
            return

        def picked(index: int | None) -> None:
            if index is None:
                return
            sanction = sanctions[index]
            self.app.push_screen(
                ConfirmAdmin(f"Lift the {sanction.what} on {shown_name(sanction.name)}?"),
                lambda yes: self._lift(sanction) if yes else None)

        self.app.push_screen(PickSanction(sanctions), picked)

    def _lift(self, sanction: Sanction) -> None:
        try:
            self.room.lift(sanction.what, sanction.whom, self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.notify(f"The {sanction.what} on {shown_name(sanction.name)} is lifted.",
                    markup=False)

    def action_motd(self) -> None:
        """An admin writes the message of the day (empty: none)."""
        if self.presence.admin:
            self.app.push_screen(MotdPrompt(self.room.motd), self._motd_written)

    def _motd_written(self, text: str | None) -> None:
        if text is None:
            return
        try:
            kept = self.room.set_motd(text, self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.notify("The message of the day is set." if kept else
                    "There is no message of the day now.", markup=False)

    def action_bring_back(self) -> None:
        self._leave_queue()
        number = self.room.shelved_for(self.presence)
        table = self.room.bring_back(self.presence, journey=self.journey)
        cluster = self.room.cluster
        if table is None and cluster is not None and cluster.brings_back_soon:
            self.notify(f"Table {number} is on its way back; you are seated as soon as it is "
                        "here.", markup=False)  # (a cluster's: crib3.cluster.room)
            return
        if table is None:
            self.notify("Your table could not be brought back (the server's log says why).",
                        severity="warning", markup=False)
            return
        self.room_app.sit_at(table, table.sit(self.presence))

    def action_live_events(self) -> None:
        from crib3.tui.screens.live_event import LiveEventScreen

        events = self.room.events
        if events is None:
            self.notify("This card room holds no live events.", severity="warning",
                        markup=False)
            return
        self.app.push_screen(LiveEventScreen(self.room, events, self.presence))

    def action_join(self) -> None:
        table = self.selected()
        if table is None:
            self._leave_queue()
            self._hosted_elsewhere()
            return
        try:
            seat = table.sit(self.presence)
        except RoomError as exc:  # (a place in the queue is kept)
            self.notify(str(exc), severity="warning", markup=False)
            return
        self._leave_queue()
        self.room_app.sit_at(table, seat)

    def _hosted_elsewhere(self, watch: bool = False) -> None:
        """The highlighted table is another node's (crib3 serve --cluster):
        the session goes there, to sit (or watch)."""
        number = self._highlighted_number()
        if number is not None and self.room.cluster is not None:
            self.room_app.go_elsewhere(number, watch)

    def _selected_elsewhere(self) -> ListedTable | None:
        """The highlighted table when another node hosts it (its lobby entry)."""
        number = self._highlighted_number()
        return next((t for t in self._elsewhere() if t.number == number), None)

    def _highlighted_number(self) -> int | None:
        grid = self.query_one(DataTable)
        if not self._numbers or grid.cursor_row < 0:
            return None
        return self._numbers[min(grid.cursor_row, len(self._numbers) - 1)]

    def action_players(self) -> None:
        from crib3.tui.screens.players import PlayersScreen

        self.app.push_screen(PlayersScreen(self.room.records, self.presence))

    def action_my_games(self) -> None:
        from crib3.tui.screens.my_games import MyGamesScreen

        self.app.push_screen(MyGamesScreen(self.room.records, self.presence))

    def action_open(self) -> None:
        self.app.push_screen(OpenTableScreen(self.room.rates),
                             self._opened)

    def _opened(self, choice: tuple[Rules, tuple[str, str], bool | None, int] | None) -> None:
        if choice is None:
            return
        rules, levels, rated, best_of = choice
        try:
            table = self.room.open_table(self.presence, rules, levels, rated, best_of)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self._leave_queue()
        self.room_app.sit_at(table, 0)

    # --- play now (`crib3.room.playnow`) -----------------------------------------------

    def action_play_now(self) -> None:
        """Into the room's queue: seated with two people of near rating as
        soon as it finds them (`_seated_from_queue`), the line under the
        greeting counting the wait."""
        play_now = self.room.play_now
        if play_now is None or self._queue is not None:
            return
        try:
            rating = play_now.join(self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        if self.room.place_of(self.presence) is not None:  # seated as it joined
            self._queue = (0.0, rating)
            self._seated_from_queue()
            return
        self._queue = (time.monotonic(), rating)
        self._queue_timer = self.set_interval(1.0, self._show_queue)
        self._show_queue()

    def action_leave_queue(self) -> None:
        """Esc: out of the queue (and Esc quits, as ever, outside it)."""
        if self._queue is None:
            raise SkipAction()
        self._leave_queue()
        self.notify("You left the queue.", markup=False)

    def action_computer(self) -> None:
        """After the queue's wait: a rated table with the computer at your level."""
        play_now = self.room.play_now
        if play_now is None or self._queue is None:
            return
        self._stop_queue()
        try:
            table = play_now.computer(self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.room_app.sit_at(table, table.sit(self.presence))

    def _leave_queue(self) -> None:
        """Out of the queue, if in it (before sitting down any other way)."""
        play_now = self.room.play_now
        if self._queue is None or play_now is None:
            return
        self._stop_queue()
        try:
            play_now.leave(self.presence)
        except RoomError as exc:  # (a worker's session that ended meanwhile)
            self.notify(str(exc), severity="warning", markup=False)

    def _stop_queue(self) -> None:
        self._queue = None
        if self._queue_timer is not None:
            self._queue_timer.stop()
            self._queue_timer = None
        if self.is_attached:
            self.query_one("#queue", Static).display = False
            self.keys_may_have_changed()

    def _seated_from_queue(self) -> bool:
        """The queue seated this person at a new table: to it (on a
        cluster, maybe one another node hosts). Whether it did."""
        if self._queue is None or not self.is_current:  # (under a dialog: once it closes)
            return False
        place = self.room.place_of(self.presence)
        cluster = self.room.cluster
        elsewhere = None if place is not None or cluster is None \
            else cluster.seat_elsewhere(self.presence)
        if place is None and elsewhere is None:
            return False
        self._stop_queue()
        play_now = self.room.play_now
        if play_now is not None:
            play_now.leave(self.presence)  # (its place, done with)
        if place is not None:
            table, _ = place
            self.room_app.sit_at(table, table.sit(self.presence))
        elif elsewhere is not None:
            self.room_app.go_elsewhere(elsewhere)
        return True

    def _waited(self) -> float:
        return 0.0 if self._queue is None else time.monotonic() - self._queue[0]

    def _wait(self) -> float:
        play_now = self.room.play_now
        return float("inf") if play_now is None else play_now.wait

    def _show_queue(self) -> None:
        if self._queue is None or not self.is_attached or self._seated_from_queue():
            return
        play_now = self.room.play_now
        if play_now is not None and not play_now.queued(self.presence):
            self._stop_queue()
            self.notify("You are no longer in the queue (in it from elsewhere?): p to "
                        "join it again.", severity="warning", markup=False)
            return
        rating = self._queue[1]
        level = level_near(rating)
        line = queue_line(rating, self._waited(), self._wait(), level,
                          BOT_SKILLS[bot_identity(level)].shown)
        shown = self.query_one("#queue", Static)
        shown.display = True
        shown.update(Text(in_words(line, app_is_ascii(self))))
        self.keys_may_have_changed()
