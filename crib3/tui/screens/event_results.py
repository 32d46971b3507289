"""An event's results: the ranking, and board by board every play of the
same cards; any of them replayed step by step."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from crib3.common.names import shown_name
from crib3.duplicate.events import DuplicateEvent
from crib3.duplicate.scoring import BoardResult, Standing
from crib3.tui.ascii import app_is_ascii
from crib3.tui.css import STYLESHEET
from crib3.tui.screens.board_result import board_line, field_table, replay_screen
from crib3.tui.widgets.footer import TidyFooter

RANKED = 5  # the ranking's rows at 80x24, the board's field below them


def ranking_table(table: Sequence[Standing], me: str | None, rows: int = RANKED) -> Table:
    """The best `rows` entries, and yours if you are further down."""
    shown = list(enumerate(table, start=1))
    top = shown[:rows]
    if me is not None and not any(s.who == me and s.person for _, s in top):
        top += [(rank, s) for rank, s in shown[rows:] if s.who == me and s.person]
    out = Table(box=None, pad_edge=False, expand=False)
    out.add_column("")
    out.add_column("who")
    for title in ("boards", "score", "net"):
        out.add_column(title, justify="right")
    for rank, s in top:
        out.add_row(f"{rank}.", Text(shown_name(s.who, 30)), str(s.boards), f"{s.percent:.1f}%",
                    f"{s.net:+.1f}", style="bold" if s.who == me and s.person else None)
    return out


class EventResultsScreen(Screen[None]):
    """The ranking on top; below it one board's field at a time."""

    BINDINGS = [
        Binding("right,right_square_bracket", "board(1)", "Next board", key_display="→"),
        Binding("left,left_square_bracket", "board(-1)", "Board back", key_display="←"),
        Binding("down", "row(1)", "Down", show=False),
        Binding("up", "row(-1)", "Up", show=False),
        Binding("enter,r", "replay", "Replay"),
        Binding("q,escape", "leave", "Quit"),
    ]
    CSS_PATH = STYLESHEET
    DEFAULT_CSS = """
    EventResultsScreen { align: center top; }
    EventResultsScreen > Vertical { width: 78; height: auto; padding: 0 1; }
    EventResultsScreen #title { text-style: bold; color: $accent; }
    EventResultsScreen #board { text-style: bold; margin: 1 0 0 0; }
    EventResultsScreen .hint { color: $text-muted; }
    """

    def __init__(self, event: DuplicateEvent, results: Sequence[BoardResult],
                 table: Sequence[Standing], me: str | None = None) -> None:
        super().__init__()
        self.event, self.results, self.table, self.me = event, list(results), table, me
        self.at = 0  # which board's field is shown
        self.row = 0  # which of its plays r replays

    def compose(self) -> ComposeResult:
        event = self.event
        with Vertical():
            yield Static(Text(f"Event {event.name}: {len(event.boards)} boards against the "
                              f"computer ({event.level}), in matchpoints"), id="title")
            yield Static(ranking_table(self.table, self.me), id="ranking")
            yield Static(id="board", markup=False)
            yield Static(id="deal", markup=False)
            yield Static(id="field")
            yield Static("←/→: board    ↑/↓ and Enter: replay a play    q: quit",
                         classes="hint")
        yield TidyFooter()

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        if not self.results:
            self.query_one("#board", Static).update("No board has been played yet.")
            return
        result = self.results[self.at]
        board = next(b for b in self.event.boards if b.number == result.board)
        self.query_one("#board", Static).update(
            f"Board {board.number} of {len(self.event.boards)}")
        self.query_one("#deal", Static).update(
            board_line(board, self.event.seat(board.number), app_is_ascii(self)))
        self.query_one("#field", Static).update(field_table(result, self.me, self.row))

    def action_board(self, step: int) -> None:
        if self.results:
            self.at = (self.at + step) % len(self.results)
            self.row = 0
            self._show()

    def action_row(self, step: int) -> None:
        if self.results:
            plays = len(self.results[self.at].plays)
            self.row = (self.row + step) % plays
            self._show()

    def action_replay(self) -> None:
        if self.results:
            play = self.results[self.at].plays[self.row].play
            self.app.push_screen(replay_screen(play.log, app_is_ascii(self)))

    def action_leave(self) -> None:
        self.app.exit()
