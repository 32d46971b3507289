"""The table for one duplicate board: the game's own table screen, whose
game ends with the hand's show rather than at 121, and whose words name
the board where a game's name the hand ("Board 2", not "Hand 1")."""

from __future__ import annotations

from crib3.engine import events as ev
from crib3.engine.events import Event
from crib3.engine.state import State
from crib3.engine.views import SeatView
from crib3.tui.screens.table import TableScreen
from crib3.words.narrate import hand_named


def board_title(number: int, count: int) -> str:
    """A board's table's heading: "Board 2 of 6" (its game is that one hand)."""
    return f"Board {number} of {count}"


def board_name(number: int) -> str:
    """What the words call a board's hand: "Board 2"."""
    return f"Board {number}"


class BoardWords(TableScreen):
    """A board's table's words (the feed, the lines under the table, the
    show at a glance): its hand called `board` ("Board 2"), as its heading
    calls it (`hand_title`). Each board's table screen has it first among
    its bases, on one machine, in a session worker and on a cluster alike."""

    board: str | None = None  # the board's name (None: the game's "Hand 1")

    def _present(self, event: Event, state: State, view: SeatView) -> None:
        with hand_named(self.board):
            super()._present(event, state, view)

    def _show_at_a_glance(self, ended: ev.HandEnded) -> None:
        from crib3.tui.screens.looking_back import ShowSummaryScreen

        panel = ShowSummaryScreen(self.show_counts, self.view, ended.hand, ended.scores,
                                  self.ascii, hand_name=self.board)
        self.app.push_screen(panel, lambda _: self._continue.set())


class BoardTableScreen(BoardWords):
    """A `TableScreen` over a `BoardGame`: `on_over` is called once the
    hand's show has been seen (its summary gone on from with Enter), as a
    game's is after its win."""

    async def _pace(self, event: Event) -> None:
        await super()._pace(event)
        if isinstance(event, ev.HandEnded) and self.on_over is not None:
            self.on_over(self.shown)
