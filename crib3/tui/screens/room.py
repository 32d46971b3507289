"""The card room's screens (`crib3 serve`): the lobby, opening a table,
waiting for the owner to start, and the table itself with people away.

They read the room (`crib3.room`) and call its few methods (open, sit,
leave, start, replace, close); the room tells them when something changed,
and they redraw. The game itself reaches them only through their seat's feed.

A table never strands, and these screens say so as it happens, in toasts:
who owns the table now (when its owner left), who has been away long
enough that anyone here may press `b`, and that a table was closed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from crib3.common.levels import BOT_LEVELS
from crib3.common.names import shown_name
from crib3.room import SEATS, Presence, Room, RoomError, Table
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.bindings import QuietBindings
from crib3.tui.screens.dialogs import ConfirmQuit, Dialog
from crib3.tui.screens.game_over import GameOverScreen
from crib3.tui.screens.lobby_words import rules_line, seats_line, standing
from crib3.tui.screens.new_game import LEVEL_HINTS, OptionRow
from crib3.tui.screens.room_dialogs import ChatPrompt, ConfirmAdmin, PickPerson
from crib3.tui.screens.table import TableScreen
from crib3.tui.textual_compat import clear_data_table_caches, shrink_data_table_caches
from crib3.tui.widgets.chat import ChatPanel
from crib3.tui.widgets.footer import TidyFooter

if TYPE_CHECKING:
    from crib3.engine import Rules, State


class TableList(DataTable):
    """The lobby's list of tables: Enter sits you at the highlighted one.

    Textual's DataTable keeps what it drew in caches sized for big tables
    (10,000 cells, 1,000 rows and lines), keyed by the table's update: so a
    lobby redrawn as the room fills keeps every drawing before until those
    caches are full. Seating 20 tables, each card-room worker held some
    500,000 objects of them (most of its memory). The lobby shows at most 16
    rows of 4 columns: its caches hold a few drawings of that
    (`DRAWINGS_KEPT`), and are emptied as it goes (the lobby left when its
    person sits may wait for the collector: what it drew need not)."""

    BINDINGS = [Binding("enter", "select_cursor", "Join")]
    DRAWINGS_KEPT = 4  # drawings of 16 rows (of 4 cells) each cache holds

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shrink_data_table_caches(self, 16 * self.DRAWINGS_KEPT)

    def on_unmount(self) -> None:
        clear_data_table_caches(self)


class LobbyScreen(QuietBindings, Screen[None]):
    """The tables of the room, who sits where, and the free seats."""

    BINDINGS = [
        Binding("o", "open", "Open a table"),
        Binding("w", "watch", "Watch"),
        Binding("x", "close_table", "Close"),  # an admin's: the highlighted table
        Binding("k", "remove", "Remove"),  # an admin's: someone's session
        Binding("r", "bring_back", "Back to my table"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q,escape", "app.quit", "Quit"),
    ]
    DEFAULT_CSS = """
    LobbyScreen { align: center top; }
    LobbyScreen #title { text-style: bold; color: $accent; padding: 1 2 0 2; }
    LobbyScreen #who { color: $text-muted; padding: 0 2 1 2; }
    LobbyScreen DataTable { height: auto; max-height: 16; margin: 0 2; }
    LobbyScreen #empty { padding: 1 2; color: $text-muted; height: 1fr; }
    LobbyScreen .hint { color: $text-muted; padding: 0 2; }
    """

    def __init__(self, room: Room, presence: Presence) -> None:
        super().__init__()
        self.room = room
        self.presence = presence
        self._numbers: list[int] = []
        self._stale = False
        self._queued = False  # a redraw is on its way: more changes join it
        self._rows: dict[int, tuple[str, ...]] = {}  # what each row shows now
        self._columns: list[ColumnKey] = []

    def compose(self) -> ComposeResult:
        yield Static("crib3 card room", id="title")
        yield Static("", id="who")
        # Enter is the list's own key (RowSelected, below), not a priority
        # key of the screen: so it comes after any arrow keys that came
        # before it in the same burst of input.
        yield TableList(cursor_type="row", zebra_stripes=True, id="tables")
        yield Static("", id="empty")
        yield Static(in_words("↑/↓ choose a table · Enter sit down · w watch · "
                              "o open a table of your own",
                              app_is_ascii(self)), classes="hint")
        yield TidyFooter()

    def on_mount(self) -> None:
        tables = self.query(DataTable)
        if not tables:  # the app ended (a session kicked or closed) as the lobby came up
            return
        table = tables.first()
        self._columns = table.add_columns("Table", "Seats", "Rules", "Game")
        self.room.listeners.append(self._room_changed)
        self.refresh_tables()
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
        people = sorted(p.name for p in self.room.people.values())
        others = [shown_name(p) for p in people if p.lower() != self.presence.name.lower()]
        # Plain Text, never markup: people choose their names ("[/]", "[@click=…]").
        who = Text(f"You are {shown_name(self.presence.name)}.")
        if not others:
            who.append(" Nobody else is here yet.")
        elif len(others) <= 6:
            who.append(f" Also here: {', '.join(others)}.")
        else:  # one line, however busy the room: the tables come first
            who.append(f" Also here: {', '.join(others[:5])} and {len(others) - 5} more.")
        shelved = self.room.shelved_for(self.presence)
        if shelved is not None:
            who.append(f"\nYour table {shelved} was put away while nobody was at it: "
                       "r brings it back.")
        said = self.query_one("#who", Static)
        if not isinstance(said.content, Text) or said.content != who:
            said.update(who)
        tables = self.room.lobby()
        self._show_rows({t.number: (str(t.number), seats_line(t), rules_line(t.rules), standing(t))
                         for t in tables})
        empty = self.query_one("#empty", Static)
        line = "" if tables else "No tables yet. Press o to open one; your friends join it."
        if empty.content != line:
            empty.update(line)
        self.keys_may_have_changed()

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

    def selected(self) -> Table | None:
        grid = self.query_one(DataTable)
        if not self._numbers or grid.cursor_row < 0:
            return None
        return self.room.tables.get(self._numbers[min(grid.cursor_row, len(self._numbers) - 1)])

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "join":
            return self.selected() is not None
        if action == "watch":
            table = self.selected()
            return table is not None and table.started and not table.over \
                and table.seat_of(self.presence.name) is None
        if action == "close_table":
            return self.presence.admin and self.selected() is not None
        if action == "remove":  # an admin's keys: nobody else sees them
            return self.presence.admin and len(self.room.people) > 1
        if action == "bring_back":
            return self.room.shelved_for(self.presence) is not None
        return True

    def on_data_table_row_highlighted(self) -> None:
        self.keys_may_have_changed()  # Watch, for a table that is playing

    def action_watch(self) -> None:
        table = self.selected()
        if table is None:
            return
        try:
            self.app.watch(table)  # type: ignore[attr-defined]
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)

    def action_close_table(self) -> None:
        table = self.selected()
        if table is None or not self.presence.admin:
            return
        how = "its game is saved" if table.started else "it has not started"
        self.app.push_screen(ConfirmAdmin(f"Close table {table.number} ({how})?"),
                             lambda yes: self._close(table) if yes else None)

    def _close(self, table: Table) -> None:
        try:
            self.room.close_by_admin(table, self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.notify(f"Table {table.number} is closed.", markup=False)

    def action_remove(self) -> None:
        names = sorted(p.name for p in self.room.people.values() if p is not self.presence)
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

    def action_bring_back(self) -> None:
        table = self.room.bring_back(self.presence)
        if table is None:
            self.notify("Your table could not be brought back (the server's log says why).",
                        severity="warning", markup=False)
            return
        self.app.sit_at(table, table.sit(self.presence))  # type: ignore[attr-defined]

    def action_join(self) -> None:
        table = self.selected()
        if table is None:
            return
        try:
            seat = table.sit(self.presence)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.app.sit_at(table, seat)  # type: ignore[attr-defined]

    def action_open(self) -> None:
        self.app.push_screen(OpenTableScreen(), self._opened)

    def _opened(self, choice: tuple[Rules, tuple[str, str]] | None) -> None:
        if choice is None:
            return
        rules, levels = choice
        try:
            table = self.room.open_table(self.presence, rules, levels)
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.app.sit_at(table, 0)  # type: ignore[attr-defined]


class OpenTableScreen(Dialog["tuple[Rules, tuple[str, str]] | None"]):
    """The rules of a new table, and who plays the seats nobody takes."""

    BINDINGS = [
        Binding("enter", "open", "Open"),
        Binding("down", "app.focus_next", "Next", show=False),
        Binding("up", "app.focus_previous", "Previous", show=False),
        Binding("escape", "dismiss(None)", "Cancel"),
    ]
    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Open a table", classes="title")
            yield Static("Seats nobody takes are played by the computer.", classes="hint")
            yield OptionRow("Second seat", BOT_LEVELS, "standard", LEVEL_HINTS, id="left")
            yield OptionRow("Third seat", BOT_LEVELS, "standard", LEVEL_HINTS, id="right")
            yield OptionRow("Skunks", ("off", "on"), "off", id="skunks")
            yield OptionRow("Muggins", ("off", "on"), "off",
                            {"on": "everyone counts their own hands"}, id="muggins")
            yield OptionRow("Game", ("121", "61"), "121", {"61": "the short game"}, id="short")
            yield Static(in_words("↑/↓ move · ←/→ change · Enter open · Esc cancel",
                                  app_is_ascii(self)), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#left", OptionRow).focus()

    def action_open(self) -> None:
        from crib3.engine import Rules

        def on(name: str) -> bool:
            return self.query_one(f"#{name}", OptionRow).value == "on"

        rules = Rules(target=61 if self.query_one("#short", OptionRow).value == "61" else 121,
                      skunks=on("skunks"), muggins=on("muggins"))
        levels = (self.query_one("#left", OptionRow).value,
                  self.query_one("#right", OptionRow).value)
        self.dismiss((rules, levels))


class WaitingScreen(QuietBindings, Screen[None]):
    """At a table that has not started: who sits here, and (for the owner)
    the key that starts the game."""

    BINDINGS = [
        Binding("enter", "start", "Start the game", priority=True),
        Binding("l,escape", "leave", "Leave the table"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
    ]
    DEFAULT_CSS = """
    WaitingScreen { align: center middle; }
    WaitingScreen > Vertical { width: 64; height: auto; border: round $accent; padding: 0 2; }
    WaitingScreen .title { text-style: bold; color: $accent; margin: 1 0; }
    WaitingScreen #seats { margin: 0 0 1 0; }
    WaitingScreen .hint { color: $text-muted; margin: 0 0 1 0; }
    """

    def __init__(self, table: Table, seat: int) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self._owner = table.owner

    @property
    def owner(self) -> bool:
        return self.table.seats[self.seat].name == self.table.owner

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Table {self.table.number} · {rules_line(self.table.rules)}",
                         classes="title")
            yield Static("", id="seats")
            yield Static("", id="status", classes="hint", markup=False)  # the owner's name
        yield TidyFooter()

    def on_mount(self) -> None:
        self.table.listeners.append(self._table_changed)
        self.update_seats()

    def on_unmount(self) -> None:
        if self._table_changed in self.table.listeners:
            self.table.listeners.remove(self._table_changed)

    def _table_changed(self) -> None:
        self.call_later(self.update_seats)

    def update_seats(self) -> None:
        if not self.is_attached or not self.is_current:
            return
        table = self.table
        if table.closed:
            self.notify(f"{shown_name(table.owner)} closed table {table.number}.", markup=False)
            self.app.back_to_lobby()  # type: ignore[attr-defined]
            return
        if table.started:
            self.app.sit_at(table, self.seat)  # type: ignore[attr-defined]
            return
        self._owner = tell_new_owner(self, table, self.seat, self._owner)
        lines = Text()
        for index, seat in enumerate(table.seats):
            if index:
                lines.append("\n")
            lines.append(f"Seat {index + 1}  ", style="dim")
            if seat.name is None:
                lines.append(f"free (the {seat.level} computer player if nobody sits)",
                             style="italic")
            else:
                lines.append(shown_name(seat.name), style="bold")
                if seat.name == table.owner:
                    lines.append("  owner", style="dim")
                if index == self.seat:
                    lines.append("  (you)", style="dim")
        self.query_one("#seats", Static).update(lines)
        self.query_one("#status", Static).update(
            "Enter: start the game. Free seats get computer players." if self.owner else
            f"Waiting for {shown_name(table.owner)} to start the game.   l: leave the table")
        self.keys_may_have_changed()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "start":
            return self.owner
        return True

    def action_start(self) -> None:
        if self.owner:
            self.table.start(self.table.owner)

    def action_leave(self) -> None:
        self.table.leave(self.seat)
        if not self.table.closed:
            self.app.back_to_lobby()  # type: ignore[attr-defined]


def tell_new_owner(screen: Screen[object], table: Table, me: int, before: str) -> str:
    """A toast when the table has a new owner (its owner left): to the new
    owner, what they may do now; to the others, who it is. Returns the
    owner, to compare with next time."""
    if table.owner == before:
        return before
    mine = table.seats[me].name == table.owner
    if mine:
        keys = "x closes it for everyone" if table.started else "Enter starts the game"
        screen.notify(f"{shown_name(before)} left: you own table {table.number} now ({keys}).",
                      markup=False)
    else:
        screen.notify(f"{shown_name(before)} left: {shown_name(table.owner)} owns table "
                      f"{table.number} now.", markup=False)
    return table.owner


class ConfirmCloseTable(ConfirmQuit):
    """Asks the owner before a table under way is closed for everyone."""

    BINDINGS = [
        Binding("y", "dismiss(True)", "Close it", priority=True),
        Binding("n,escape", "dismiss(False)", "Keep playing", priority=True),
    ]
    QUESTION = "Close this table for everyone?"
    HINT = "Its game is saved, but nobody can go on with it here.\ny: close it    n: keep playing"


class RoomTableScreen(TableScreen):
    """The table at a card room: the same table, driven by the room's game
    (its computer players are the table's), with the comings and goings of
    the people at it; for everyone here a key that gives the seat of a
    person gone too long to a computer player, and one to leave (the seat
    waits); for the owner, one that closes the table."""

    BINDINGS = [
        *TableScreen.BINDINGS,
        Binding("b", "replace", "Bot for the absent", priority=True),
        Binding("c", "chat", "Chat", priority=True),
        Binding("l", "leave_table", "Leave", priority=True),
        Binding("x", "close_table", "Close", priority=True),
    ]

    def __init__(self, table: Table, seat: int, think: float, ascii: bool,
                 on_over: object, resumed: bool) -> None:
        assert table.game is not None
        super().__init__(table.game, seat, None, think, ascii, on_over=on_over,  # type: ignore[arg-type]
                         resumed=resumed)
        self.table = table
        self.feed = table.feed(seat)  # the table's own (a replica's, in a session worker)
        self._away: set[int] = self._absent()
        self._owner = table.owner
        self._may_replace: set[int] = set()
        self._room_keys: tuple[object, ...] | None = None  # see `_room_keys_now`

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if isinstance(widget, TidyFooter):  # the table's chat, just above the keys
                yield ChatPanel(id="chat")
            yield widget

    # (Textual also calls TableScreen's on_mount and on_unmount, after these.)
    def on_mount(self) -> None:
        self.table.listeners.append(self._table_changed)
        self.table.chat.listeners.append(self._chat_changed)
        # Once patience runs out: b. It ticks only while someone is away (an
        # idle session wakes its server process for nothing otherwise).
        self._patience = self.set_interval(min(1.0, max(self.table.room.patience, 0.1)),
                                           self._patience_check, pause=not self._others_away())
        self._show_chat()
        self._room_keys = self._room_keys_now()  # (the footer is told the keys as it mounts)
        self.call_after_refresh(self._title_replaced_seats)  # once the seats are placed

    def on_unmount(self) -> None:
        if self._table_changed in self.table.listeners:
            self.table.listeners.remove(self._table_changed)
        if self._chat_changed in self.table.chat.listeners:
            self.table.chat.listeners.remove(self._chat_changed)

    def _chat_changed(self) -> None:
        self.call_later(self._show_chat)  # called from the session of whoever spoke

    def _show_chat(self) -> None:
        if self.is_attached:
            self.query_one(ChatPanel).show(self.table.chat.lines, self.table.watcher_names())

    def action_chat(self) -> None:
        self.app.push_screen(ChatPrompt(self.table.number), self._said)

    def _said(self, text: str | None) -> None:
        if not text:
            return
        try:
            self.table.say(self.app.presence, text)  # type: ignore[attr-defined]
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)

    def _absent(self) -> set[int]:
        return {s for s in range(SEATS) if self.table.away(s) is not None}

    def _others_away(self) -> bool:
        """Someone else's seat waits for them (whom patience may run out on)."""
        return bool(self._absent() - {self.me})

    def _table_changed(self) -> None:
        self.call_later(self._tell_comings_and_goings)

    def _patience_check(self) -> None:
        """Say once, when someone has been away the room's patience, who may
        give their seat to a computer player, and how."""
        if not self.is_attached or self.table.closed:
            return
        ready = {s for s in range(SEATS) if self.table.replaceable(s)}
        for seat in sorted(ready - self._may_replace):
            person = self.table.seats[seat]
            self.notify(f"{shown_name(person.name)} has been away a while: anyone at the table "
                        f"may press b to give their seat to the {person.level} computer player.",
                        markup=False)
        if ready != self._may_replace:
            self._may_replace = ready
            self.keys_may_have_changed()

    def _tell_comings_and_goings(self) -> None:
        if not self.is_attached:
            return
        self._show_chat()  # who is watching
        table = self.table
        if table.closed:
            if table.closed_by is not None and table.closed_by != table.seats[self.me].name:
                self.notify(f"{shown_name(table.closed_by)} closed table {table.number}; "
                            "its game is saved.", markup=False)
            elif table.closed_by is None:  # an admin closed it (or the room is closing)
                self.notify(f"Table {table.number} was closed; it is saved.", markup=False)
            self.app.back_to_lobby()  # type: ignore[attr-defined] (over any dialog, too)
            return
        self._owner = tell_new_owner(self, table, self.me, self._owner)
        away = self._absent() - {self.me}  # (this screen's person is told as they leave)
        for seat in away - self._away:
            name = self.table.seats[seat].name or ""
            # Still signed in: back in the lobby by choice. Else gone from the
            # room: they quit, or their connection dropped (the seat waits
            # either way). The room's people are in the same change (one
            # delta), and this runs after it (`_table_changed`).
            where = "table" if name.lower() in self.table.room.people else "room"
            self.notify(f"{shown_name(name)} has left the {where}; their seat waits.",
                        markup=False)
        for seat in self._away - away:
            person = self.table.seats[seat]
            if person.replaced:
                self.notify(f"The {person.level} computer player now plays for "
                            f"{shown_name(person.name)}.", markup=False)
            else:
                self.notify(f"{shown_name(person.name)} is back.", markup=False)
        self._away = away
        if self._others_away():
            self._patience.resume()
        else:
            self._patience.pause()
            self._patience_check()  # (nobody may be replaced now: said again next time)
        self._title_replaced_seats()
        keys = self._room_keys_now()
        if keys != self._room_keys:  # (most changes are a move or a score: no key changes)
            self._room_keys = keys
            self.keys_may_have_changed()

    def _room_keys_now(self) -> tuple[object, ...]:
        """What the room's keys (b, l, x) depend on (see `check_action`):
        the footer is told the keys again only when it changed."""
        table = self.table
        return (tuple(s for s in range(SEATS) if table.replaceable(s)), self._mine(),
                table.over)

    def _title_replaced_seats(self) -> None:
        """A seat given to a computer player is titled with its level, not
        "human" (the game still lists the person who sat there)."""
        for seat, person in enumerate(self.table.seats):
            if person.replaced and seat != self.me:
                self.table_view.played_by(seat, person.level)

    def _mine(self) -> bool:
        """This screen's person owns the table."""
        return self.table.seats[self.me].name == self.table.owner

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replace":
            return any(self.table.replaceable(s) for s in range(SEATS))
        if action == "close_table":
            return self._mine() and not self.table.over
        if action == "leave_table":
            return not self.table.over
        return super().check_action(action, parameters)

    def action_replace(self) -> None:
        name = self.table.seats[self.me].name
        for seat in range(SEATS):
            if self.table.replaceable(seat) and name is not None:
                try:
                    self.table.replace(seat, name)
                except RoomError as exc:
                    self.notify(str(exc), severity="warning", markup=False)
                return

    def action_leave_table(self) -> None:
        """Back to the lobby; the seat waits (and, after the room's
        patience, the others may give it to a computer player)."""
        self.notify(f"You left table {self.table.number}; your seat waits for you: sit at "
                    "it again from the lobby.", markup=False)
        self.app.back_to_lobby()  # type: ignore[attr-defined]

    def action_close_table(self) -> None:
        if self._mine():
            self.app.push_screen(ConfirmCloseTable(), self._close_confirmed)

    def _close_confirmed(self, yes: bool | None) -> None:
        if not yes:
            return
        try:
            self.table.close_by(self.table.seats[self.me].name or "")
        except RoomError as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.notify(f"You closed table {self.table.number}; its game is saved.", markup=False)


class RoomGameOverScreen(GameOverScreen):
    """The result, at a card room: n or Enter goes back to the lobby."""

    BINDINGS = [Binding("n,enter", "dismiss('new')", "Lobby")]

    def __init__(self, state: State, me: int) -> None:
        super().__init__(state, me, again="back to the lobby")
