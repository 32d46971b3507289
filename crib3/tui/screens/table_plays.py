"""A live event's boards as every table played them, to replay (the live
events screen's `r`).

Only the boards over at every table are listed (`crib3.room.event_replays`):
a replay shows every hand, and nobody may see a board's cards while any
table still plays it. ↑/↓ choose a table's play, Enter replays it step by
step (q comes back here), q goes back to the events.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from crib3.common.names import shown_name
from crib3.engine.log import LogError
from crib3.room import RoomError
from crib3.room.event_replays import TablePlay, last_over, replay_log, table_plays
from crib3.room.live_event import PLAYING, LiveEvent
from crib3.tui.ascii import app_is_ascii
from crib3.tui.css import STYLESHEET
from crib3.tui.screens.board_result import replay_screen
from crib3.tui.widgets.footer import TidyFooter


class TablePlaysScreen(Screen[None]):
    """Every table's play of each board over everywhere (see the module's docstring)."""

    BINDINGS = [
        Binding("enter,r", "replay", "Replay"),
        Binding("down", "pick(1)", "Next", show=False),
        Binding("up", "pick(-1)", "Back", show=False),
        Binding("q,escape", "app.pop_screen", "Events"),
    ]
    CSS_PATH = STYLESHEET
    DEFAULT_CSS = """
    TablePlaysScreen #title { text-style: bold; color: $accent; }
    TablePlaysScreen .hint { color: $text-muted; }
    """

    def __init__(self, live: LiveEvent) -> None:
        super().__init__()
        self.live = live
        self.plays: list[TablePlay] = table_plays(live)
        self.picked = 0

    def compose(self) -> ComposeResult:
        yield Static(Text(f"Event {self.live.name}: replay any table's board"), id="title")
        yield Static("Only boards over at every table are here: nobody sees a board's cards "
                     "while a table still plays it.", classes="hint", markup=False)
        with VerticalScroll():
            yield Static("", id="plays")
        yield Static("↑/↓: a table's play    Enter: replay it step by step    q: the events",
                     classes="hint", markup=False)
        yield TidyFooter()

    def on_mount(self) -> None:
        self._show()

    def on_screen_resume(self) -> None:
        self.plays = table_plays(self.live)  # (a board may have ended meanwhile)
        self._show()

    def _show(self) -> None:
        lines = Text()
        if not self.plays:
            lines.append("No board is over at every table yet.")
        self.picked = max(0, min(self.picked, len(self.plays) - 1))
        board = 0
        for index, play in enumerate(self.plays):
            if play.board != board:
                board = play.board
                lines.append(f"{'' if index == 0 else chr(10)}Board {board} of "
                             f"{len(self.live.boards)}\n", style="bold")
            names = ", ".join(shown_name(name, 24) for name in play.names)
            lines.append(f"table {play.table + 1}: {names}\n",
                         style="reverse" if index == self.picked else "")
        playing = self.live.board
        if self.live.status == PLAYING and playing > last_over(self.live):
            lines.append(f"\nBoard {playing} of {len(self.live.boards)} is being played: its "
                         "tables are here once every table is through it.\n", style="italic")
        self.query_one("#plays", Static).update(lines)

    def action_pick(self, step: int) -> None:
        if self.plays:
            self.picked = (self.picked + step) % len(self.plays)
            self._show()

    def action_replay(self) -> None:
        if not self.plays:
            return
        play = self.plays[self.picked]
        try:
            screen = replay_screen(replay_log(self.live, play.board, play.table),
                                   app_is_ascii(self))
        except (RoomError, LogError, OSError) as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self.app.push_screen(screen)
