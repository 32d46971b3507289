"""The events screen's dialog for making a live event (`NewEventScreen`),
shown where the room rates games: whether the event is rated (its one
result moves its people's ratings, `crib3.room.event_ratings`) or casual,
as opening a table chooses. A room that rates nothing (`--no-ratings`)
makes its events unrated at `n` without asking."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.screens.dialogs import Dialog
from crib3.tui.screens.new_game import OptionRow


class NewEventScreen(Dialog["bool | None"]):
    """A new live event of `boards` boards starting in `minutes`: True,
    rated; False, casual; None, not made (Esc)."""

    BINDINGS = [
        Binding("enter", "make", "Make"),
        Binding("escape", "dismiss(None)", "Cancel"),
    ]

    def __init__(self, boards: int, minutes: int) -> None:
        super().__init__()
        self.boards = boards
        self.minutes = minutes

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Make a live event", classes="title")
            yield Static(f"{self.boards} boards against the standard computer, starting in "
                         f"{self.minutes} minutes.", classes="hint")
            yield OptionRow("Rating", ("rated", "casual"), "rated",
                            {"rated": "its result moves everyone's rating once",
                             "casual": "no rating moves"}, id="rated")
            yield Static(in_words("←/→ change · Enter make · Esc cancel", app_is_ascii(self)),
                         classes="hint")

    def on_mount(self) -> None:
        self.query_one("#rated", OptionRow).focus()

    def action_make(self) -> None:
        self.dismiss(self.query_one("#rated", OptionRow).value == "rated")
