"""Statistics over the saved games, folded from the logs when asked for;
under them, the people's points given up to the coach per hand, game by
game (crib3.saved.progress), worked out after the table (a review costs more)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from crib3.tui.css import STYLESHEET

# The panel's widest (see crib3.tcss), and what its border and padding take.
PANEL_WIDTH = 96
PANEL_EDGES = 4


class StatsScreen(ModalScreen[None]):
    """The statistics in a panel as wide as the screen allows (96 columns):
    at 80 columns the table is drawn narrower and the lines wrapped, so
    nothing is cut; what is taller than the panel scrolls (the arrows)."""

    BINDINGS = [Binding("escape,q,t,enter", "dismiss", "Close", priority=True)]
    CSS_PATH = STYLESHEET
    HORIZONTAL_BREAKPOINTS = [(0, "narrow"), (PANEL_WIDTH + 2, "wide")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Statistics of your saved games", classes="title")
            yield Static("", id="head", markup=False)  # the table's header: it stays
            with VerticalScroll(id="body"):
                yield Static("counting…", id="table", markup=False)  # players' names
                yield Static("", id="progress", markup=False)
            yield Static("Esc: close · ↑/↓: scroll", classes="hint")

    def on_mount(self) -> None:
        self.query_one("#body").focus()
        self.run_worker(self._count, thread=True, group="stats")

    def _show_table(self, head: str, rows: str) -> None:
        self.query_one("#head", Static).update(head)
        self.query_one("#table", Static).update(rows)

    def room(self) -> int:
        """The columns the panel has for its lines."""
        return min(PANEL_WIDTH, self.app.size.width - 2) - PANEL_EDGES

    def _count(self) -> None:
        """Fold the statistics in a thread, stopping as soon as the screen
        (or the app) goes away: the app waits for its threads on quitting."""
        from textual.worker import get_current_worker

        from crib3.saved.games import format_stats, saved_paths, stats_cache_file, stats_from_files

        worker = get_current_worker()
        stats, problems = stats_from_files(saved_paths(), lambda: worker.is_cancelled,
                                           cache=stats_cache_file())
        if worker.is_cancelled:
            return
        text = format_stats(stats, self.room())
        if problems:
            text += f"\n({len(problems)} unreadable file(s) left out)"
        head, _, rows = text.partition("\n") if stats else ("", "", text)
        self.app.call_from_thread(self._show_table, head, rows)
        if not stats:
            return
        from crib3.saved.progress import format_progress, progress_cache_file, progress_from_files
        from crib3.tui.ascii import app_is_ascii

        self.app.call_from_thread(self.query_one("#progress", Static).update,
                                  "looking back at your decisions…")
        games = progress_from_files(saved_paths(), progress_cache_file(),
                                    lambda: worker.is_cancelled)
        if worker.is_cancelled:
            return
        self.app.call_from_thread(self.query_one("#progress", Static).update,
                                  "\n" + format_progress(games, app_is_ascii(self),
                                                         self.room()))
