"""The table for one duplicate board: the game's own table screen, whose
game ends with the hand's show rather than at 121."""

from __future__ import annotations

from crib3.engine import events as ev
from crib3.engine.events import Event
from crib3.tui.screens.table import TableScreen


def board_title(number: int, count: int) -> str:
    """A board's table's heading: "Board 2 of 6" (its game is that one hand)."""
    return f"Board {number} of {count}"


class BoardTableScreen(TableScreen):
    """A `TableScreen` over a `BoardGame`: `on_over` is called once the
    hand's show has been seen (its summary gone on from with Enter), as a
    game's is after its win."""

    async def _pace(self, event: Event) -> None:
        await super()._pace(event)
        if isinstance(event, ev.HandEnded) and self.on_over is not None:
            self.on_over(self.shown)
