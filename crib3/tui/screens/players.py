"""The card room's "Players" view (`PlayersScreen`): the leaderboard, a
page at a time, with your own place above it; Enter opens the highlighted
player's profile (`crib3.tui.screens.profile`), `i` your own.

The leaderboard lists the people who played a rated game recently and are
no longer rated provisionally (`crib3.room.records`); the computer levels
are not on it. It is read from the room's records at each page, one
indexed query, so paging through a room of a hundred thousand rated people
costs what paging through ten does.

Names are people's text: shown with `shown_name` (escapes for what a
terminal would not draw, cut to the column's cells), in `rich.text.Text`,
never as markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Static

from crib3.common.names import shown_name
from crib3.room.identities import key_identity
from crib3.room.records import PAGE, Ranked
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.bindings import QuietBindings
from crib3.tui.css import STYLESHEET
from crib3.tui.widgets.footer import TidyFooter

if TYPE_CHECKING:
    from crib3.room import Presence
    from crib3.room.records import Records

NAME_CELLS = 36  # the name column's width: a longer name is cut to it


def steady_name(name: str, cells: int) -> str:
    """A name as a list draws it, cut to `cells`: what `shown_name` escapes,
    and also what terminals draw at widths of their own or as nothing
    (skin-tone modifiers, a flag's letters, joiners, fillers) written as
    its escape, so every row's columns line up on every terminal. (The
    room refuses such names at sign-in; a result's line may be older.)"""
    from crib3.common.lookalikes import is_ignorable, is_unsteady

    def steady(c: str) -> str:
        if not (is_unsteady(c) or is_ignorable(c)):
            return c
        return f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}"

    if not name.isascii():
        name = "".join(steady(c) for c in name)
    return shown_name(name, cells)


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st..."""
    tail = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10,
                                                                                   "th")
    return f"{number}{tail}"


class PlayersScreen(QuietBindings, Screen[None]):
    """The leaderboard, a page at a time (see the module's docstring)."""

    BINDINGS = [
        Binding("enter", "profile", "Profile"),
        Binding("i", "mine", "My profile"),
        Binding("pagedown,right_square_bracket", "page(1)", "Next page", key_display="PgDn",
                priority=True),
        Binding("pageup,left_square_bracket", "page(-1)", "Previous page", key_display="PgUp",
                priority=True),
        Binding("q,escape", "app.pop_screen", "Back"),
    ]
    CSS_PATH = STYLESHEET

    def __init__(self, records: Records, presence: Presence) -> None:
        super().__init__()
        self.records = records
        self.presence = presence
        self.identity = key_identity(presence.key)
        self.page = 0
        self.shown: list[Ranked] = []

    def compose(self) -> ComposeResult:
        yield Static("Players", id="title")
        yield Static("", id="me", markup=False)
        yield DataTable(cursor_type="row", zebra_stripes=True, id="board")
        yield Static("", id="pages", markup=False)
        yield Static(in_words("↑/↓ choose · Enter profile · i your profile · "
                              "PgUp/PgDn page · Esc back", app_is_ascii(self)), classes="hint")
        yield TidyFooter()

    def on_mount(self) -> None:
        board = self.query_one(DataTable)
        board.add_column("Place", width=6)
        board.add_column("Rating", width=6)
        board.add_column("Games", width=6)
        board.add_column("Name", width=NAME_CELLS)
        board.add_column("Last game", width=10)
        place = self.records.place_of(self.identity)
        if place is not None:  # open on the page you are on
            self.page = (place - 1) // PAGE
        self.draw()
        board.focus()

    def pages(self) -> int:
        return max(1, -(-self.records.size() // PAGE))

    def draw(self) -> None:
        """The page `self.page` of the board, and your place above it."""
        self.query_one("#me", Static).update(self._me_line())
        self.shown = self.records.leaderboard(self.page * PAGE, PAGE)
        board = self.query_one(DataTable)
        board.clear()
        for row in self.shown:
            mine = row.identity == self.identity
            style = "bold" if mine else ""
            board.add_row(Text(f"{row.place:>5}", style=style),
                          Text(f"{row.skill.label:>6}", style=style),
                          Text(f"{row.skill.games:>5}", style=style),
                          Text(steady_name(row.name, NAME_CELLS), style=style),
                          Text(row.last[:10], style=style))
        pages = self.pages()
        self.query_one("#pages", Static).update(
            f"page {self.page + 1} of {pages}" if self.shown else
            "Nobody is on the board yet: it lists the people with a settled rating "
            "who played a rated game in the last month.")

    def _me_line(self) -> str:
        profile = self.records.profile(self.identity)
        if profile is None:
            return "You: not rated yet (a rated table's finished game rates its players)."
        place = self.records.place_of(self.identity)
        games = f"{profile.skill.games} game{'s' * (profile.skill.games != 1)}"
        if place is None:
            why = "provisional" if profile.skill.provisional else "no rated game this month"
            return f"You: {profile.skill.label}, {games}, not on the board ({why})."
        return f"You: {profile.skill.label}, {games}, {ordinal(place)} of {self.records.size()}."

    def action_page(self, step: int) -> None:
        page = min(max(0, self.page + step), self.pages() - 1)
        if page != self.page:
            self.page = page
            self.draw()

    def action_profile(self) -> None:
        board = self.query_one(DataTable)
        if 0 <= board.cursor_row < len(self.shown):
            self._open(self.shown[board.cursor_row].identity)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_profile()

    def action_mine(self) -> None:
        if self.identity is None or self.records.profile(self.identity) is None:
            self.notify("You are not rated yet.", markup=False)
            return
        self._open(self.identity)

    def _open(self, identity: str) -> None:
        from crib3.tui.screens.profile import ProfileScreen

        profile = self.records.profile(identity)
        if profile is not None:
            self.app.push_screen(ProfileScreen(profile))
