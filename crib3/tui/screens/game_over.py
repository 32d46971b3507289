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

from crib3.engine import State
from crib3.engine.state import SOURCES
from crib3.tui.ascii import app_is_ascii
from crib3.names import shown_name
from crib3.tui.widgets.footer import TidyFooter
from crib3.tui.css import STYLESHEET

SPARK_COLOURS = ("green", "cyan", "magenta")
BARS = "▁▂▃▄▅▆▇█"
ASCII_BARS = "_.:-=+*#"  # from a little to a lot, as ink on the line


def score_chart(state: State, ascii: bool = False) -> Text:
    """One row per player: a bar per hand, all on the scale 0..target, so the
    rows compare; the final score at the end.

    The tallest bar is kept for reaching the target, so a winner's 121 never
    looks like a loser's 120; the winner's row is also drawn in reverse with
    "won" after the score."""
    target = state.rules.target
    bars = ASCII_BARS if ascii else BARS
    out = Text()
    for seat, player in enumerate(state.players):
        if seat:
            out.append("\n")
        won = seat == state.winner
        colour = SPARK_COLOURS[seat]
        name = shown_name(player.name, 10)  # cut by cells: an emoji is two
        out.append(name, style=f"bold reverse {colour}" if won else colour)
        out.append(" " * (11 - cell_len(name)))
        for scores in state.hand_scores:
            out.append(bars[bar_level(scores[seat], target, len(bars))] * 2, style=colour)
        out.append(f" {state.scores[seat]}", style="bold")
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

    def __init__(self, state: State, me: int = 0, again: str = "new game",
                 review: bool = False) -> None:
        """`again`: what n or Enter leads to (at a card room, the lobby);
        `review`: r reviews the game just played (the app has its events)."""
        super().__init__()
        self.state = state
        self.me = me
        self.again = again
        self.review = review

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
            yield Static(f"{headline}  {s.scores[winner]} to "
                         + " and ".join(str(s.scores[x]) for x in range(3) if x != winner),
                         id="winner", markup=False)
            skunked = [f"{names[x]} is {'double-' if s.skunks[x] > 1 else ''}skunked"
                       for x in range(3) if s.skunks[x]]
            if skunked:
                yield Static("; ".join(skunked) + ".", markup=False)
            yield Static(self._table())
            yield Static("Scores after each hand, on one scale (0 to "
                         f"{s.rules.target})", classes="hint")
            yield Static(score_chart(s, app_is_ascii(self)), id="chart")
            review = "    r: review it with the coach" if self.review else ""
            yield Static(f"n or Enter: {self.again}{review}    q: quit", classes="hint")
        yield TidyFooter()

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
