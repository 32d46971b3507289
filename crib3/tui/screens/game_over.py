"""The end: who won, the skunks, the scores hand by hand, points by source."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Sparkline, Static

from crib3.engine import State
from crib3.engine.state import SOURCES

SPARK_COLOURS = ("green", "cyan", "magenta")


class GameOverScreen(Screen[str]):
    """Dismisses with "new" or "quit"."""

    BINDINGS = [
        Binding("n,enter", "dismiss('new')", "New game"),
        Binding("q,escape", "dismiss('quit')", "Quit"),
    ]
    DEFAULT_CSS = """
    GameOverScreen { align: center middle; }
    GameOverScreen > Vertical { width: 76; height: auto; border: round $accent; padding: 0 2; }
    GameOverScreen #winner { text-style: bold; color: $accent; margin: 1 0; }
    GameOverScreen .chart { height: 2; margin: 0 0; }
    GameOverScreen .chart-label { width: 12; height: 2; }
    GameOverScreen Sparkline { width: 1fr; height: 2; }
    GameOverScreen .hint { color: $text-muted; margin: 1 0 0 0; }
    """

    def __init__(self, state: State, me: int = 0) -> None:
        super().__init__()
        self.state = state
        self.me = me

    def compose(self) -> ComposeResult:
        s = self.state
        names = [p.name for p in s.players]
        winner = s.winner if s.winner is not None else 0
        headline = "You win!" if winner == self.me else f"{names[winner]} wins."
        with Vertical():
            yield Static(f"{headline}  {s.scores[winner]} to "
                         + " and ".join(str(s.scores[x]) for x in range(3) if x != winner),
                         id="winner")
            skunked = [f"{names[x]} is {'double-' if s.skunks[x] > 1 else ''}skunked"
                       for x in range(3) if s.skunks[x]]
            if skunked:
                yield Static("; ".join(skunked) + ".")
            yield Static(self._table())
            yield Static("Scores after each hand", classes="hint")
            for seat in range(3):
                data = [0.0] + [float(h[seat]) for h in s.hand_scores]
                with Horizontal(classes="chart"):
                    yield Static(Text(f"{names[seat][:10]:<10}", style=SPARK_COLOURS[seat]),
                                 classes="chart-label")
                    yield Sparkline(data, min_color=SPARK_COLOURS[seat],
                                    max_color=SPARK_COLOURS[seat])
            yield Static("n or Enter: new game    q: quit", classes="hint")
        yield Footer()

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
            row = [f"{player.name} ({player.kind})"]
            for i, source in enumerate(SOURCES):
                if source == "muggins" and not s.rules.muggins:
                    continue
                row.append(str(s.sources[seat][i]))
            row.append(str(s.scores[seat]))
            table.add_row(*row)
        return table
