"""The table as one seat sees it: the two opponents, the middle, the last
word, the board, and the bottom seat's box (its line in the edge, its hand).

One widget for the live table and for replay, so the two cannot draw the
table differently. It is given a seat's view (and what to announce) and
draws it; it never talks to the engine and holds nothing the view does not.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from crib3.cards import Card
from crib3.engine import SeatView
from crib3.engine.events import HandCounted
from crib3.engine.rules import left_of
from crib3.scoring import Score
from crib3.tui.widgets.board import CribBoard
from crib3.tui.widgets.center import TableCenter
from crib3.tui.widgets.hand import HandView, ShownCount
from crib3.tui.widgets.redraw import redraw_line
from crib3.tui.widgets.seat import SeatPanel
from crib3.tui.words import seat_line
from crib3.words.speech import hand_phrases


def opponents(me: int) -> tuple[int, int]:
    """The seats drawn at the upper left and upper right for a person in
    seat `me`: the one on their left first, then the next."""
    left = left_of(me)
    return left, left_of(left)


class TableView(Vertical):
    """Any seat's view of the table, that seat at the bottom.

    `me` is the seat at the bottom; `seat_at_bottom` changes it (replay's
    viewpoint). `show` draws a view; `announce` sets the big line."""

    DEFAULT_CSS = """
    TableView { height: auto; }
    TableView #top { height: 6; }
    TableView #top SeatPanel { width: 26; }
    TableView #announce { height: 1; padding: 0 1; text-style: bold; color: $accent; }
    /* Your seat: boxed like an opponent's, its line in the box's edge, and
       the same heavy accent border when it is your turn. */
    TableView #hand {
        height: 6; border: round $secondary; border-title-color: $text;
        border-title-align: left;
    }
    TableView #hand .hand-view--to-act { border: heavy $accent; border-title-style: bold; }
    """

    def __init__(self, me: int = 0, ascii: bool = False, interactive: bool = True,
                 **kwargs) -> None:
        """`interactive=False` (replay): the hand is shown, never offered."""
        super().__init__(**kwargs)
        self.me = me
        self.ascii = ascii
        self.interactive = interactive
        self._title: Text | None = None  # the bottom seat's line, as last set

    def compose(self) -> ComposeResult:
        left, right = opponents(self.me)
        with Horizontal(id="top"):
            yield SeatPanel(left, self.ascii, id="seat-left")
            yield TableCenter(self.ascii, id="center")
            yield SeatPanel(right, self.ascii, id="seat-right")
        # Lines with names in them are plain text, never markup: a player may
        # be called "[/]" (see crib3.common.names).
        yield Static("", id="announce", markup=False)
        yield CribBoard(ascii=self.ascii, id="board")
        yield HandView(self.ascii, self.interactive, id="hand")

    def on_resize(self) -> None:
        """From 50 rows (the screens' `taller` breakpoint) the table uses the
        room: the board roomy, the pile and the count larger, and the
        opponents' boxes as tall as what they hold (their CSS), which
        measure what they may hold against the row they stand in."""
        roomy = self.screen.has_class("taller")
        self.query_one("#board", CribBoard).roomy = roomy
        self.query_one("#center", TableCenter).roomy = roomy
        for panel in self.panels():
            panel._redraw()

    # --- parts ---------------------------------------------------------------

    @property
    def hand(self) -> HandView:
        return self.query_one("#hand", HandView)

    def panels(self) -> tuple[SeatPanel, SeatPanel]:
        return (self.query_one("#seat-left", SeatPanel),
                self.query_one("#seat-right", SeatPanel))

    def panel(self, seat: int) -> SeatPanel:
        """The panel drawing opponent `seat`."""
        return next(p for p in self.panels() if p.seat == seat)

    # --- drawing -------------------------------------------------------------

    def seat_at_bottom(self, me: int) -> None:
        """Draw the table from seat `me` from now on: its opponents move to
        the top, in the order they sit to its left."""
        self.me = me
        for panel, seat in zip(self.panels(), opponents(me)):
            panel.seat = seat
            panel.revealed = None
            panel.played_by = None

    def show(self, view: SeatView, revealed: Mapping[int, tuple[Card, ...]] | None = None,
             keep_count: bool = False) -> None:
        """Draw `view` (the bottom seat's). `revealed`: opponents' cards to
        show face up (replay with every hand face up). `keep_count`: leave a
        hand being counted in the show where the hand is drawn."""
        # (None: a spectator's view, public facts only, drawn from seat `me`'s chair)
        assert view.seat in (self.me, None), f"a view of seat {view.seat} drawn for seat {self.me}"
        hand = self.hand
        if not keep_count:
            hand.showing = None
        for panel in self.panels():
            panel.revealed = None if revealed is None else revealed.get(panel.seat)
            panel.view = view
        self.query_one("#center", TableCenter).view = view
        hand.view = view
        if view.players:
            self.query_one("#board", CribBoard).set_scores(
                [p.name for p in view.players], view.scores, view.back_pegs,
                view.rules.target, view.dealer)
        # Your line is the edge of your box (a Text: a name is never markup),
        # set only when it says something new: a new title repaints the box.
        title = seat_line(view, self.ascii)
        if title != self._title:
            self._title = title
            hand.border_title = title
        hand.mark(view.my_turn)

    def played_by(self, seat: int, kind: str) -> None:
        """Title the opponent at `seat` as played by `kind` (a computer
        player now plays for the person the game lists there)."""
        for panel in self.panels():
            if panel.seat == seat and panel.played_by != kind:
                panel.played_by = kind
                panel._redraw()

    def announce(self, line: str) -> None:
        redraw_line(self.query_one("#announce", Static), line)

    async def say_count(self, event: HandCounted, whose: str, pause: float,
                        hurried: asyncio.Event) -> None:
        """Say a count in the show phrase by phrase, lighting each phrase's
        cards, `pause` seconds a phrase or until `hurried` is set."""
        hand = self.hand
        title = f"{whose} {'crib' if event.crib else 'hand'}"
        phrases = hand_phrases(Score(event.points + event.missed, event.items)) \
            or [("nineteen: nothing", frozenset())]
        said: tuple[str, ...] = ()
        for phrase, cards in phrases:
            said = (*said, phrase)
            hand.showing = ShownCount(title, event.cards, event.starter, cards, said)
            self.announce(f"{title}: {phrase}")
            if pause and not hurried.is_set():
                try:
                    await asyncio.wait_for(hurried.wait(), pause)
                except TimeoutError:
                    pass
        hand.showing = ShownCount(title, event.cards, event.starter, frozenset(), said,
                                  event.points + event.missed)
