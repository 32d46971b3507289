"""Statistics over the saved games, folded from the logs when asked for;
under them, the people's points given up to the coach per hand, game by
game (crib3.saved.progress), worked out after the table (a review costs more)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from crib3.tui.css import STYLESHEET


class StatsScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,t,enter", "dismiss", "Close", priority=True)]
    CSS_PATH = STYLESHEET

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Statistics of your saved games", classes="title")
            yield Static("counting…", id="table", markup=False)  # players' names
            yield Static("", id="progress", markup=False)
            yield Static("Esc: close", classes="hint")

    def on_mount(self) -> None:
        self.run_worker(self._count, thread=True, group="stats")

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
        text = format_stats(stats)
        if problems:
            text += f"\n({len(problems)} unreadable file(s) left out)"
        self.app.call_from_thread(self.query_one("#table", Static).update, text)
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
                                  "\n" + format_progress(games, app_is_ascii(self)))
