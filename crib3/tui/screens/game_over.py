"""The end: who won, the skunks, the scores hand by hand, points by source."""

from __future__ import annotations

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from crib3.common.names import shown_name
from crib3.engine import State
from crib3.engine.state import SOURCES
from crib3.tui.ascii import app_is_ascii
from crib3.tui.css import STYLESHEET
from crib3.tui.widgets.footer import TidyFooter
from crib3.words.narrate import reached

SPARK_COLOURS = ("green", "cyan", "magenta")
BARS = "▁▂▃▄▅▆▇█"
ASCII_BARS = "_.:-=+*#"  # from a little to a lot, as ink on the line


def score_chart(state: State, ascii: bool = False, width: int | None = None,
                rows: int = 1) -> Text:
    """One row per player: a bar per hand, all on the scale 0..target, so the
    rows compare; the final score at the end.

    The tallest bar is kept for reaching the target, so a winner's 121 never
    looks like a loser's 120; the winner's row is also drawn in reverse with
    "won" after the score. On a big screen the chart is scaled to it: the
    bars as wide as `width` columns allow (two at least), and each player's
    bars `rows` lines tall (a blank line between players), the name and the
    score on the bottom line."""
    target = state.rules.target
    bars = ASCII_BARS if ascii else BARS
    hands = max(1, len(state.hand_scores))
    bar_width = 2 if width is None else max(2, min(8, (width - 11 - 9) // hands))
    rows = max(1, rows)
    out = Text()
    for seat, player in enumerate(state.players):
        if seat:
            out.append("\n\n" if rows > 1 else "\n")
        won = seat == state.winner
        colour = SPARK_COLOURS[seat]
        for row in range(rows - 1, -1, -1):  # the top line first
            if row < rows - 1:
                out.append("\n")
            if row:
                out.append(" " * 11)
            else:
                name = shown_name(player.name, 10)  # cut by cells: an emoji is two
                out.append(name, style=f"bold reverse {colour}" if won else colour)
                out.append(" " * (11 - cell_len(name)))
            for scores in state.hand_scores:
                level = bar_level(scores[seat], target, len(bars) * rows)  # in eighths
                part = level - row * len(bars)
                if part < 0:
                    glyph = " "
                elif part >= len(bars):
                    glyph = bars[-1]
                else:
                    glyph = bars[part]
                out.append(glyph * bar_width, style=colour)
            if not row:
                out.append(f" {reached(state.scores[seat], target)}", style="bold")
                if won:
                    out.append(" won", style=f"bold {colour}")
    return out


def bar_level(score: int, target: int, levels: int) -> int:
    """Which bar a score is drawn with: the top one only at the target (a
    win), the others share 0..target-1."""
    if score >= target:
        return levels - 1
    return min(levels - 2, score * (levels - 1) // target)


class GameOverScreen(Screen[str]):
    """Dismisses with "new" or "quit" (or, when `review`, "review")."""

    BINDINGS = [
        Binding("n,enter", "dismiss('new')", "New game"),
        Binding("r", "review", "Review"),
        Binding("q,escape", "dismiss('quit')", "Quit"),
    ]
    CSS_PATH = STYLESHEET
    # Bigger terminals, a bigger result (see crib3.tcss): a wider box and
    # a chart scaled to it.
    HORIZONTAL_BREAKPOINTS = [(0, "narrow"), (120, "wide")]
    VERTICAL_BREAKPOINTS = [(0, "short"), (34, "tall")]

    def __init__(self, state: State, me: int = 0, again: str = "new game",
                 review: bool = False, match_line: str | None = None) -> None:
        """`again`: what n or Enter leads to (at a card room, the lobby);
        `review`: r reviews the game just played (the app has its events);
        `match_line`: how the match this game was part of stands, if any."""
        super().__init__()
        self.state = state
        self.me = me
        self.again = again
        self.review = review
        self.match_line = match_line

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.review if action == "review" else True

    def action_review(self) -> None:
        if self.review:
            self.dismiss("review")

    def compose(self) -> ComposeResult:
        s = self.state
        # Shown as Text or with markup off: a name is never markup ("[/]").
        names = [shown_name(p.name, 24) for p in s.players]
        winner = s.winner if s.winner is not None else 0
        headline = "You win!" if winner == self.me else f"{names[winner]} wins."
        with Vertical():
            yield Static(f"{headline}  {reached(s.scores[winner], s.rules.target)} to "
                         + " and ".join(str(s.scores[x]) for x in range(3) if x != winner),
                         id="winner", markup=False)
            if self.match_line is not None:
                yield Static(self.match_line, id="match", markup=False)
            skunked = [f"{names[x]} is {'double-' if s.skunks[x] > 1 else ''}skunked"
                       for x in range(3) if s.skunks[x]]
            if skunked:
                yield Static("; ".join(skunked) + ".", markup=False)
            yield Static(self._table())
            yield Static("Scores after each hand, on one scale (0 to "
                         f"{s.rules.target})", classes="hint")
            yield Static(self._chart(), id="chart")
            review = "    r: review it with the coach" if self.review else ""
            yield Static(f"n or Enter: {self.again}{review}    q: quit", classes="hint")
        yield TidyFooter()

    def on_resize(self) -> None:
        """The chart is drawn to the screen's size: redrawn at a new one."""
        self.query_one("#chart", Static).update(self._chart())

    def _chart(self) -> Text:
        """The chart at this screen's size: as before at 80x24 (bars two
        columns wide, a line a player); on a wide screen the bars fill the
        box; on a tall one each player's bars grow as tall as rows allow."""
        width, height = self.app.size
        wide, tall = width >= 120, height >= 34
        inner = min(int(width * 0.8), 150) - 6 if wide else None  # see crib3.tcss
        rows = max(1, min(6, (height - 24) // 3)) if tall else 1
        return score_chart(self.state, app_is_ascii(self), inner, rows)

    def _table(self) -> Table:
        s = self.state
        table = Table(box=None, pad_edge=False, expand=False)
        table.add_column("")
        for source in SOURCES:
            if source == "muggins" and not s.rules.muggins:
                continue
            table.add_column(source, justify="right")
        table.add_column("total", justify="right", style="bold")
        for seat, player in enumerate(s.players):
            row: list[Text | str] = [
                Text(f"{shown_name(player.name, 20)} ({shown_name(player.kind, 10)})")]
            for i, source in enumerate(SOURCES):
                if source == "muggins" and not s.rules.muggins:
                    continue
                row.append(str(s.sources[seat][i]))
            row.append(str(s.scores[seat]))
            table.add_row(*row)
        return table
