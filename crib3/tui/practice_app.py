"""`crib3 practice`: the practice screen as an app of its own (no game is
on, so q quits at once; nothing is saved)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from crib3.tui.base_app import BaseApp

if TYPE_CHECKING:
    from crib3.tui.screens.practice import Positions


class PracticeApp(BaseApp):
    """A trainer of one `kind` ("discard" or "play") over `positions`."""

    def __init__(self, kind: str, positions: Positions, ascii: bool = False) -> None:
        super().__init__(ascii=ascii)
        self.kind = kind
        self.positions = positions

    def open_first_screen(self) -> None:
        from crib3.tui.screens.practice import PracticeScreen

        self.push_screen(PracticeScreen(self.kind, self.positions, self.ascii))
