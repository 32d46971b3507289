"""The card room's screen at a table that has not started
(`WaitingScreen`): who sits here, and (for the owner) the key that starts
the game. When the game starts it hands the seat to the table screen
(`crib3.tui.screens.room_table`). Its layout is in crib3.tcss.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from crib3.common.names import shown_name
from crib3.tui.bindings import QuietBindings
from crib3.tui.css import STYLESHEET
from crib3.tui.screens.lobby_words import rules_line
from crib3.tui.screens.new_owner import tell_new_owner
from crib3.tui.screens.room_dialogs import InviteLink
from crib3.tui.widgets.footer import TidyFooter

if TYPE_CHECKING:
    from crib3.room.contract import TableView
    from crib3.tui.room_app import CardRoomApp


def lost_before_start(number: int) -> str:
    """What the people waiting at a cluster's table are told when its
    server loses hold of it before its game starts (its lease or its
    registry entry gone, as after a pause): no node adopts a table with no
    event (the first node to find it free forgets it), so it is gone."""
    return (f"Table {number} is gone: its server lost hold of it before the game started. "
            "Open another.")


class WaitingScreen(QuietBindings, Screen[None]):
    """At a table that has not started: who sits here, and (for the owner)
    the key that starts the game."""

    BINDINGS = [
        Binding("enter", "start", "Start the game", priority=True),
        Binding("l,escape", "leave", "Leave the table"),
        Binding("i", "invite", "Invite"),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q", "app.quit", "Quit", show=False),  # (ctrl+q is the browser's)
    ]
    CSS_PATH = STYLESHEET  # the layout: crib3.tcss

    def __init__(self, table: TableView, seat: int) -> None:
        super().__init__()
        self.table = table
        self.seat = seat
        self._owner = table.owner

    @property
    def room_app(self) -> CardRoomApp:
        """The card room's app this screen is one of."""
        return cast("CardRoomApp", self.app)

    @property
    def owner(self) -> bool:
        return self.table.seats[self.seat].name == self.table.owner

    def compose(self) -> ComposeResult:
        with Vertical():
            rules = rules_line(self.table.rules, best_of=self.table.match.best_of)
            yield Static(f"Table {self.table.number} · {rules}",
                         classes="title")
            yield Static("", id="seats")
            yield Static("", id="status", classes="hint", markup=False)  # the owner's name
        yield TidyFooter()

    def on_mount(self) -> None:
        self.table.listeners.append(self._table_changed)
        self.update_seats()

    def action_invite(self) -> None:
        self.app.push_screen(InviteLink(self.room_app.presence.name,
                                        self.table.number))

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
            if table.moved:  # (crib3 serve --cluster) nobody closed it: see `lost_before_start`
                self.notify(lost_before_start(table.number), markup=False)
            else:
                self.notify(f"{shown_name(table.owner)} closed table {table.number}.",
                            markup=False)
            self.room_app.back_to_lobby()
            return
        if table.started:
            self.room_app.sit_at(table, self.seat)
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
            self.room_app.back_to_lobby()
