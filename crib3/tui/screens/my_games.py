"""The card room's "My games" view (`MyGamesScreen`): the finished games
you sat in here (rated or casual), the latest first. Enter opens one in
the replay (`crib3.tui.screens.replay`: step by step, with the coach on);
`e` exports it as your seat saw it (`crib3.room.records.seat_export`),
put on your clipboard by your terminal (OSC 52), over SSH or in the browser
alike.

Only finished games are listed: a game's whole log is replayed only once
it is over, when every hand has been shown anyway. What the export leaves
hidden (the deck's order, the other hands as dealt, who threw which card
to the crib) stays hidden in it. A game whose log is longer than a room
reads back (`crib3.room.records.check_read_back`) is listed, but neither
replayed nor exported. Names are people's text: never markup.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from crib3.common.names import shown_name
from crib3.room.identities import key_identity
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.bindings import QuietBindings
from crib3.tui.css import STYLESHEET
from crib3.tui.screens.players import ordinal
from crib3.tui.widgets.footer import TidyFooter

if TYPE_CHECKING:
    from crib3.room import Presence
    from crib3.room.records import Finished, Records

OTHERS_CELLS = 34  # the other players' names, together


def others_line(names: tuple[str, ...], seat: int) -> str:
    """Whom you played with: the other seats' names (a computer's as
    "computer (level)"), two computers of one level said once ("two
    computers (standard)", not the same words twice, cut off at 80
    columns)."""
    others = [name for i, name in enumerate(names) if i != seat]
    computer = "computer ("
    if len(others) == 2 and others[0] == others[1] and others[0].startswith(computer):
        return "two computers (" + others[0].removeprefix(computer)
    return ", ".join(shown_name(name) for name in others)


class MyGamesScreen(QuietBindings, Screen[None]):
    """Your finished games (see the module's docstring)."""

    BINDINGS = [
        Binding("enter", "replay", "Replay"),
        Binding("e", "export", "Export"),
        Binding("q,escape", "app.pop_screen", "Back"),
    ]
    CSS_PATH = STYLESHEET

    def __init__(self, records: Records, presence: Presence) -> None:
        super().__init__()
        self.records = records
        self.presence = presence
        self.games: list[Finished] = []
        self.loaded = False  # the games found (looked for in a thread)

    def compose(self) -> ComposeResult:
        yield Static("My games", id="title")
        yield Static("", id="me", markup=False)
        yield DataTable(cursor_type="row", zebra_stripes=True, id="games")
        yield Static(in_words("↑/↓ choose · Enter replay with the coach · e export your view · "
                              "Esc back", app_is_ascii(self)), classes="hint")
        yield TidyFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Ended", width=16)
        table.add_column("Place", width=5)
        table.add_column("Score", width=5)
        table.add_column("With", width=OTHERS_CELLS)
        table.add_column("", width=6)
        table.focus()
        self.query_one("#me", Static).update("Looking for your games…")
        # (A room's first look reads every finished game's files: not on
        # the event loop every session of this process shares.)
        self.run_worker(self._look, thread=True, exit_on_error=False)

    def _look(self) -> None:
        games = self.records.finished(key_identity(self.presence.key))
        self.app.call_from_thread(self._show, games)

    def _show(self, games: list[Finished]) -> None:
        self.games = games
        table = self.query_one(DataTable)
        for game in self.games:
            others = others_line(game.names, game.seat)
            table.add_row(time.strftime("%Y-%m-%d %H:%M", time.gmtime(game.ended)),
                          ordinal(game.place), str(game.scores[game.seat]),
                          Text(shown_name(others, OTHERS_CELLS)),
                          "rated" if game.rated else "")
        count = len(self.games)
        self.query_one("#me", Static).update(
            f"{count} finished game{'s' * (count != 1)} (times in UTC)" if count else
            "No finished game of yours here yet (a game you sat in to its end is kept).")
        self.loaded = True

    def selected(self) -> Finished | None:
        row = self.query_one(DataTable).cursor_row
        return self.games[row] if 0 <= row < len(self.games) else None

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_replay()

    def action_replay(self) -> None:
        from crib3.engine.log import LogError, load_log
        from crib3.room.records import TooLong, check_read_back
        from crib3.saved.replay import Replay
        from crib3.tui.screens.replay import ReplayScreen

        game = self.selected()
        if game is None:
            return
        try:
            check_read_back(game.log_path)
            replay = Replay(load_log(game.log_path).events)
        except TooLong as exc:
            self.notify(f"This game cannot be replayed here: {exc}.", severity="warning",
                        markup=False)
            return
        except (LogError, OSError, ValueError) as exc:
            self.notify(f"This game cannot be read back: {exc}", severity="warning",
                        markup=False)
            return
        self.app.push_screen(ReplayScreen(replay, app_is_ascii(self), coach=True,
                                          leave_back=True))

    def action_export(self) -> None:
        from crib3.engine.log import LogError
        from crib3.room.records import TooLong, seat_export

        game = self.selected()
        if game is None:
            return
        try:
            text = seat_export(game.log_path, game.seat)
        except TooLong as exc:
            self.notify(f"This game cannot be exported here: {exc}.", severity="warning",
                        markup=False)
            return
        except (LogError, OSError) as exc:
            self.notify(f"This game cannot be read back: {exc}", severity="warning",
                        markup=False)
            return
        self.app.copy_to_clipboard(text)
        self.notify(f"Table {game.number}'s game as you saw it ({text.count(chr(10))} lines) "
                    "is on your clipboard, if your terminal lets programs put it there.",
                    markup=False)
