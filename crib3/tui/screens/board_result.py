"""After a duplicate board: what you made with the cards, what the field
made with the same cards, and your matchpoints. r replays your play, c the
computer's best level's play of the same cards, step by step."""

from __future__ import annotations

from pathlib import Path

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from crib3.cards import format_cards
from crib3.common.names import shown_name
from crib3.duplicate.boards import POSITIONS, Board, position
from crib3.duplicate.scoring import BoardResult
from crib3.tui.ascii import app_is_ascii
from crib3.tui.css import STYLESHEET
from crib3.tui.widgets.footer import TidyFooter

BEST_COMPUTER = "computer (expert)"
FIELD_ROWS = 8  # a board's plays shown at once


def board_line(board: Board, seat: int, ascii: bool) -> str:
    """Where you sat on a board and what you were dealt."""
    return (f"{POSITIONS[position(seat, board.dealer)].capitalize()}: dealt "
            f"{format_cards(board.hand(seat), ascii)}, starter "
            f"{format_cards([board.starter], ascii)}")


def window(count: int, focus: int, rows: int) -> range:
    """The `rows` of `count` to show with row `focus` among them, near
    their middle where it can be (a big field does not fit 80x24)."""
    if count <= rows:
        return range(count)
    start = max(0, min(focus - rows // 2, count - rows))
    return range(start, start + rows)


def field_table(result: BoardResult, me: str | None, selected: int | None = None,
                rows: int = FIELD_ROWS) -> Table:
    """The plays of the board, best first: its points, the others', its
    net and its matchpoints; your row in bold, the `selected` one reversed.
    A field of more than `rows` plays shows those round the selected play
    (or yours), and says how many there are."""
    table = Table(box=None, pad_edge=False, expand=False)
    plays = result.plays
    mine = next((i for i, s in enumerate(plays) if s.play.who == me and s.play.person), 0)
    shown = window(len(plays), selected if selected is not None else mine, rows)
    if len(shown) < len(plays):
        table.caption = f"plays {shown.start + 1} to {shown.stop} of {len(plays)}"
        table.caption_justify = "left"
    for title in ("", "who"):
        table.add_column(title)
    for title in ("made", "left", "right", "net", "score"):
        table.add_column(title, justify="right")
    for row in shown:
        scored = plays[row]
        play = scored.play
        style = "reverse" if row == selected else ""
        if play.who == me and play.person:
            style += " bold"
        mine, left, right = play.points
        table.add_row(str(row + 1), Text(shown_name(play.who, 26)), str(mine), str(left),
                      str(right), f"{play.net:+.1f}", f"{scored.percent:.0f}%",
                      style=style.strip() or None)
    return table


def play_log(result: BoardResult, who: str, person: bool) -> Path | None:
    """The log of `who`'s play of the board, if it is in the field."""
    return next((s.play.log for s in result.plays
                 if s.play.who == who and s.play.person == person), None)


def replay_screen(path: Path, ascii: bool) -> Screen[None]:
    """A play of a board, step by step, q coming back here."""
    from crib3.engine.log import load_log
    from crib3.saved.replay import Replay
    from crib3.tui.screens.replay import ReplayScreen

    return ReplayScreen(Replay(load_log(path).events), ascii, leave_back=True)


class BoardResultScreen(Screen[str]):
    """Dismisses with "next" (the next board, or the event's results after
    the last) or "quit"."""

    BINDINGS = [
        Binding("n,enter", "dismiss('next')", "Next"),
        Binding("r", "replay(True)", "Replay yours"),
        Binding("c", "replay(False)", "Computer's"),
        Binding("q,escape", "dismiss('quit')", "Quit"),
    ]
    CSS_PATH = STYLESHEET
    DEFAULT_CSS = """
    BoardResultScreen { align: center middle; }
    BoardResultScreen > Vertical { width: 78; height: auto; border: round $accent;
                                   padding: 0 1; }
    BoardResultScreen #headline { text-style: bold; color: $accent; margin: 1 0 0 0; }
    BoardResultScreen .hint { color: $text-muted; margin: 1 0 0 0; }
    """

    def __init__(self, board: Board, seat: int, boards: int, result: BoardResult, me: str,
                 last: bool = False) -> None:
        """`board` of `boards`, played holding `seat` by the person `me`;
        `last`: Enter leads to the event's results."""
        super().__init__()
        self.board, self.seat, self.boards = board, seat, boards
        self.result, self.me, self.last = result, me, last

    def compose(self) -> ComposeResult:
        mine = next((s for s in self.result.plays if s.play.who == self.me and s.play.person),
                    None)
        ascii = app_is_ascii(self)
        with Vertical():
            yield Static(f"Board {self.board.number} of {self.boards}", id="headline")
            yield Static(board_line(self.board, self.seat, ascii), markup=False)
            if mine is not None:
                others = len(self.result.plays) - 1
                beaten = round(mine.percent * others / 100, 1)
                yield Static(
                    f"You made {mine.play.points[0]}, net {mine.play.net:+.1f}: "
                    f"{mine.percent:.0f}% of the matchpoints (you beat "
                    f"{beaten:g} of the {others} other plays of these cards).", markup=False)
            yield Static(field_table(self.result, self.me))
            after = "the event's results" if self.last else "next board"
            yield Static(f"Enter: {after}    r: replay yours    c: the expert's    q: quit",
                         classes="hint", markup=False)
        yield TidyFooter()

    def action_replay(self, yours: bool) -> None:
        path = play_log(self.result, self.me if yours else BEST_COMPUTER, yours)
        if path is not None:
            self.app.push_screen(replay_screen(path, app_is_ascii(self)))
