"""Told when it is your turn: in the card room, where people look
away between turns, the terminal's bell rings and the window's title says
so when your turn comes, or when someone at the table says your name in
chat. `m` turns it off (and on again) for the session; local games leave it
off (the computer players move at once, and you are at the keyboard).

The bell is Textual's (`App.bell`); the title is Rich's escape sequence for
it (`rich.control.Control.title`, OSC 0), sent as Textual sends its bell.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rich.control import Control

from crib3.common.names import shown_name
from crib3.tui.textual_compat import write_to_terminal

TITLE = "crib3"


class Attention:
    """One session's bell and title."""

    def __init__(self, app: Any, on: bool = False) -> None:
        self.app = app
        self.on = on
        self._turn: object = None  # the turn last rung for
        self._titled = False  # the title says something: put back when it is over

    def turn(self, key: object, yours: bool) -> None:
        """The table's mode changed: `yours` is whether a move of yours is
        awaited now, `key` which turn that is (rung for once)."""
        if yours and key != self._turn:
            self._turn = key
            self.call("your turn")
        elif yours and self.on and not self._titled:  # the same turn, after others' throws
            self._title(f"▶ your turn · {TITLE}")
            self._titled = True
        elif not yours and self._titled:
            self._title(TITLE)
            self._titled = False

    def name_said(self, by: str) -> None:
        self.call(f"{shown_name(by, 20)} said your name")

    def call(self, why: str) -> None:
        if not self.on:
            return
        self.app.bell()
        self._title(f"▶ {why} · {TITLE}")
        self._titled = True

    def _title(self, title: str) -> None:
        if getattr(self.app, "ascii", False):
            title = title.replace("▶ ", "> ").replace("·", "-")
        write_to_terminal(self.app, str(Control.title(title)))


def says_name(text: str, name: str) -> bool:
    """Whether a chat line names `name` (as a word, any case)."""
    return re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", text.casefold()) is not None


def new_lines(before: Sequence[object], now: Sequence[object]) -> list[object]:
    """The lines of `now` that were not in `before` (a window of the last
    lines said, which slides when it is full)."""
    for shift in range(len(before) + 1):
        kept = len(before) - shift
        if list(now[:kept]) == list(before[shift:]):
            return list(now[kept:])
    return list(now)
