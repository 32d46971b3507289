"""The card room's dialog for opening a table (`OpenTableScreen`): its
rules, the computer players of the seats nobody takes, in a room that
rates games whether this one is rated or casual, and whether it plays one
game or a match (best of 3 or 5: `crib3.room.match`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from crib3.common.levels import BOT_LEVELS
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.screens.dialogs import Dialog
from crib3.tui.screens.new_game import LEVEL_HINTS, OptionRow

if TYPE_CHECKING:
    from crib3.engine import Rules  # noqa: F401 (in the Dialog's result type, a string)


MATCHES = {"one game": 1, "best of 3": 3, "best of 5": 5}
MATCH_HINTS = {"best of 3": "the first to win 2 games", "best of 5": "the first to win 3 games"}


class OpenTableScreen(Dialog["tuple[Rules, tuple[str, str], bool | None, int] | None"]):
    """The rules of a new table, who plays the seats nobody takes, (`rates`:
    the room rates games) whether its game is rated, and how many games it
    plays (1, or a match's best of 3 or 5); the third of its answer is None
    where the room rates nothing."""

    BINDINGS = [
        Binding("enter", "open", "Open"),
        Binding("down", "app.focus_next", "Next", show=False),
        Binding("up", "app.focus_previous", "Previous", show=False),
        Binding("escape", "dismiss(None)", "Cancel"),
    ]

    def __init__(self, rates: bool = False, matches: bool = True) -> None:
        """`matches`: the room's tables may play matches (every room's do:
        False leaves the choice out)."""
        super().__init__()
        self.rates = rates
        self.matches = matches

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Open a table", classes="title")
            yield Static("Seats nobody takes are played by the computer.", classes="hint")
            yield OptionRow("Second seat", BOT_LEVELS, "standard", LEVEL_HINTS, id="left")
            yield OptionRow("Third seat", BOT_LEVELS, "standard", LEVEL_HINTS, id="right")
            yield OptionRow("Skunks", ("off", "on"), "off", id="skunks")
            yield OptionRow("Muggins", ("off", "on"), "off",
                            {"on": "everyone counts their own hands"}, id="muggins")
            yield OptionRow("Game", ("121", "61"), "121", {"61": "the short game"}, id="short")
            if self.rates:
                yield OptionRow("Rating", ("rated", "casual"), "rated",
                                {"rated": "the result moves everyone's rating",
                                 "casual": "no rating moves"}, id="rated")
            if self.matches:
                yield OptionRow("Match", tuple(MATCHES), "one game", MATCH_HINTS, id="match")
            yield Static(in_words("↑/↓ move · ←/→ change · Enter open · Esc cancel",
                                  app_is_ascii(self)), classes="hint")

    def on_mount(self) -> None:
        self.query_one("#left", OptionRow).focus()

    def action_open(self) -> None:
        from crib3.engine import Rules

        def on(name: str) -> bool:
            return self.query_one(f"#{name}", OptionRow).value == "on"

        rules = Rules(target=61 if self.query_one("#short", OptionRow).value == "61" else 121,
                      skunks=on("skunks"), muggins=on("muggins"))
        levels = (self.query_one("#left", OptionRow).value,
                  self.query_one("#right", OptionRow).value)
        rated = self.query_one("#rated", OptionRow).value == "rated" if self.rates else None
        best_of = MATCHES[self.query_one("#match", OptionRow).value] if self.matches else 1
        self.dismiss((rules, levels, rated, best_of))
