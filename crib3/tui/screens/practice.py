"""The practice screen: a position drawn as the table
draws any seat's view (`TableView`), the player chooses a card by its
number, and the coach answers with its ranking, the reason and the cost; a
running score of points given up. Enter goes on to the next position.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from crib3.cards import Card
from crib3.engine import Discard, Play
from crib3.study.practice import Position
from crib3.study.review import Decision, assess
from crib3.tui.css import STYLESHEET
from crib3.tui.screens.review_words import coach_panel, coach_rows, wrapped
from crib3.tui.widgets.footer import TidyFooter
from crib3.tui.widgets.table_view import TableView

TRAINERS = {"discard": "discard trainer", "play": "pegging trainer"}

# Positions one after another: a list's, or a dealt game's, which goes on
# from the card the player chose when it is sent back (`dealt_positions`).
Positions = Iterator[Position] | Generator[Position, Card | None, None]


class PracticeScreen(Screen[None]):
    """Positions one after another from `positions`; the player answers
    with 1-6 (the card's number under it)."""

    BINDINGS = [
        *(Binding(str(n), f"choose({n})", "Choose", show=False) for n in range(1, 7)),
        Binding("enter,space", "next", "Next position"),
        Binding("q,escape", "app.quit", "Quit"),
    ]
    CSS_PATH = STYLESHEET
    # The table grows with the terminal as at play (see crib3.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "narrow"), (180, "huge")]
    VERTICAL_BREAKPOINTS = [(0, "short"), (34, "tall"), (50, "taller")]

    def __init__(self, kind: str, positions: Positions, ascii: bool = False) -> None:
        super().__init__()
        self.kind = kind
        self.positions = positions
        self.ascii = ascii
        self.position: Position | None = None
        self.answer: Decision | None = None
        self.answered: list[Decision] = []
        self.chosen: Card | None = None  # the card of the answer, for a dealt game to go on

    def compose(self) -> ComposeResult:
        yield TableView(0, self.ascii, interactive=False)
        yield Static("", id="coach", markup=False)
        yield Static("", id="status", markup=False)
        yield TidyFooter()

    def on_mount(self) -> None:
        self.action_next()

    @property
    def given_up(self) -> float:
        """Points given up. Near the end the coach's one measure counts a
        whole win as `WIN_BONUS` points; that chance is said apart
        (`chance_given_up`), as the review says it."""
        return sum(d.points_cost for d in self.answered)

    @property
    def chance_given_up(self) -> float:
        """The chances to win given up near the end, summed."""
        return sum(d.win_cost for d in self.answered)

    def action_next(self) -> None:
        if self.position is not None and self.answer is None:
            return  # answer this one first
        # A dealt game goes on from the card you chose (see `dealt_positions`).
        chosen, positions = self.chosen, self.positions
        try:
            self.position = positions.send(chosen) \
                if isinstance(positions, Generator) and chosen is not None else next(positions)
        except StopIteration:
            self.position = None
        self.answer = None
        self.chosen = None
        if self.position is None:
            self.query_one("#coach", Static).update("No more positions: q to quit.")
            self._update_status()
            return
        view = self.position.view
        table = self.query_one(TableView)
        if view.seat is not None and table.me != view.seat:  # (a position is a seat's)
            table.seat_at_bottom(view.seat)
        table.show(view)
        what = "Which card to the crib?" if self.kind == "discard" else "Which card to play?"
        table.announce(f"{what}  (1-{len(view.hand)})")
        self.query_one("#coach", Static).update(
            Text("\n").join(wrapped(Text(self.position.source), self._line_width())))
        self._update_status()

    def _line_width(self) -> int:
        """The columns of a line under the table (the screen's, less the padding)."""
        return max(20, self.app.size.width - 2)

    def action_choose(self, number: int) -> None:
        """The player's answer: the `number`th card of the hand (from 1)."""
        position = self.position
        if position is None or self.answer is not None:
            return
        view = position.view
        if not 1 <= number <= len(view.hand):
            self.app.bell()
            return
        card = view.hand[number - 1]
        allowed = {c.card for c in view.legal if isinstance(c, (Discard, Play))}
        if card not in allowed:
            self.app.bell()  # over 31
            return
        self.chosen = card
        self.answer = assess(view, position.kind, str(card))
        self.answered.append(self.answer)
        rows, room = coach_rows(self)
        panel = self.query_one("#coach", Static)
        panel.styles.max_height = room
        panel.update(coach_panel(self.answer, "You", threshold=1.0, ascii=self.ascii, rows=rows,
                                 width=self._line_width(), lines=room))
        self.query_one(TableView).announce("Enter: the next position")
        self._update_status()

    def _update_status(self) -> None:
        n = len(self.answered)
        matched = sum(1 for d in self.answered if d.matched)
        # One row of 78 at 80 columns ("1 answered, 0 as the coach" was cut there).
        if self.chance_given_up >= 0.005:
            each = f" and {self.chance_given_up:.0%} of a win"
        else:
            each = f" ({self.given_up / n:.2f} each)" if n else ""
        self.query_one("#status", Static).update(
            f"{TRAINERS[self.kind]} · {matched} of {n} as the coach · "
            f"points given up {self.given_up:.2f}{each}")
