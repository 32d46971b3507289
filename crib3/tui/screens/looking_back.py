"""Looking back at what went by: the last count's cards, cleared
from the table (`LastCountScreen`, p, until any key), and the show at a
glance (`ShowSummaryScreen`: every hand and the crib of a hand's show,
with their totals and what made them, after its last count, until Enter).

Both are drawn from what this seat was shown (its view's plays, the
show's `HandCounted` events), so neither holds a card the seat did not
see. Names are people's text: built as `Text`, never markup.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from itertools import groupby

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from crib3.cards import Card
from crib3.common.names import shown_name
from crib3.engine import SeatView
from crib3.engine import events as ev
from crib3.engine.state import Phase
from crib3.scoring import FIFTEEN, HAND_KINDS, PAIR, RUN, ScoreItem, score_play
from crib3.tui.screens.dialogs import Dialog
from crib3.tui.widgets.cards import card_label, cards_label
from crib3.tui.words import go_label, pile_label
from crib3.words.narrate import Voice

Plays = tuple[tuple[int, Card, int], ...]  # (seat, card, count number), as `SeatView.hand_plays`
SEAT_MARKS = ("▼", "◀", "▶")


def won_in_the_play(view: SeatView) -> bool:
    """The game was won in the play (a go, a pair, a fifteen reached the
    target), before its show: the count it was won in ended there, with
    no last card (and with no go, unless the winning point was one)."""
    return view.phase == Phase.OVER and all(hand is None for hand in view.shown)


def last_count(view: SeatView, plays: Plays, over: bool) -> tuple[list[tuple[int, Card]], bool]:
    """The cards of the last count that ended (who played each), from the
    plays of the latest hand with any, and whether it was the play's last
    count (the go is then "last card"). While a count is under way, the
    one before it; from its end until the next card, that one; after the
    play, its last; in the next hand's deal, the last hand's last; a game
    won in the play, the count it was won in (never the play's last)."""
    if not plays:
        return [], False
    last = plays[-1][2]
    if view.phase == Phase.PLAY and view.pile and not over:
        last -= 1  # the count on the table is not over: the one before it
    cards = [(seat, card) for seat, card, number in plays if number == last]
    return cards, over and last == plays[-1][2] and not won_in_the_play(view)


def last_count_lines(view: SeatView, plays: Plays, over: bool, ascii: bool = False,
                     me: int = 0) -> list[Text]:
    """The last count as lines: a card each, who played it, the count and
    what it scored ("fifteen +2"), and how the count ended."""
    cards, final = last_count(view, plays, over)
    if not cards:
        return [Text("No count has ended yet in this hand.")]
    names = [shown_name(p.name, 12) for p in view.players] or ["seat 0", "seat 1", "seat 2"]
    width = max(len(n) for n in names)
    out: list[Text] = []
    running = 0
    played: list[Card] = []
    for i, (seat, card) in enumerate(cards):
        played.append(card)
        running += card.value
        line = Text(f"{SEAT_MARKS[(seat - me) % 3]} ", style="bold")
        line.append(names[seat].ljust(width))
        line.append("  ")
        label = card_label(card, ascii)
        line.append_text(label)
        line.append(" " * (4 - label.cell_len))
        line.append(f"{running:>3}", style="bold")
        said = pile_label(score_play(played))
        # The last card's go (or last card), unless the game was won on
        # that card's own points, before any go.
        if i == len(cards) - 1 and running < 31 and (view.count_over
                                                     or not won_in_the_play(view)):
            said = f"{said} {go_label(1, final)} to {Voice(view).object(seat)}".strip()
        if said:
            line.append(f"  {said}", style="bold yellow")
        out.append(line)
    return out


class LastCountScreen(Dialog[None]):
    """p at the table: the last count's cards, until any key."""

    def __init__(self, view: SeatView, plays: tuple[Plays, bool], ascii: bool = False) -> None:
        super().__init__()
        self.view_ = view
        self.plays, self.over = plays
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        me = self.view_.seat if self.view_.seat is not None else 0
        lines = last_count_lines(self.view_, self.plays, self.over, self.ascii, me)
        cards, final = last_count(self.view_, self.plays, self.over)
        with Vertical() as panel:
            panel.border_title = "The last count of the play" if final else "The last count"
            panel.border_subtitle = "any key: back"
            for line in lines:
                yield Static(line)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self._back()

    def on_click(self) -> None:
        self._back()

    def _back(self) -> None:
        # Keys that arrive together (a paste, a held key) all reach this
        # screen before the first has closed it: only that one may, or the
        # next ones would close the screens under it, the last one too.
        if self.is_active:
            self.dismiss(None)


# --- the show at a glance -------------------------------------------------------

def breakdown(items: Sequence[ScoreItem]) -> list[str]:
    """What a hand's points were for, as players sum them up: "fifteens 2
    for 4", "pair 2", "2 runs of 3 for 6", "flush 4", "nobs 1"."""
    parts: list[str] = []
    ordered = sorted(items, key=lambda item: (HAND_KINDS.index(item.kind), item.points))
    for kind, group in groupby(ordered, key=lambda item: item.kind):
        found = list(group)
        points = sum(item.points for item in found)
        if kind == RUN:
            for length, runs in groupby(found, key=lambda item: item.points):
                n = len(list(runs))
                parts.append(f"run of {length} for {length}" if n == 1
                             else f"{n} runs of {length} for {n * length}")
        elif kind in (FIFTEEN, PAIR):
            name = "fifteen" if kind == FIFTEEN else "pair"
            parts.append(f"{name} {points}" if len(found) == 1
                         else f"{name}s {len(found)} for {points}")
        else:  # flush, nobs
            parts.append(f"{kind} {points}")
    return parts


# What the show at a glance lists: the counts, the muggins calls and the
# counts claimed too high, in the order they came.
ShowItem = ev.HandCounted | ev.MugginsCalled | ev.ClaimRefused


def summary_lines(counts: Sequence[ShowItem], view: SeatView,
                  width: int, ascii: bool = False) -> list[Text]:
    """The show's counts in the order they were made, each its cards (the
    starter apart), its total and what made it, wrapped to `width` (never
    cut); a muggins call, or a claim refused, where it was made."""
    voice = Voice(view)
    out: list[Text] = []
    shown = [c for c in counts if isinstance(c, ev.HandCounted)]
    titles = [f"{voice.whose(c.seat, start=True)} {'crib' if c.crib else 'hand'}"
              for c in shown]
    pad = max((len(t) for t in titles), default=0)
    for count in counts:
        if isinstance(count, ev.MugginsCalled):
            out.append(Text(f"  Muggins! {voice.subject(count.seat)} "
                            f"{voice.verb(count.seat, 'takes', 'take')} {count.points} "
                            f"from {voice.object(count.victim)}", style="italic"))
            continue
        if isinstance(count, ev.ClaimRefused):
            taken = (f"; {voice.subject(count.taker)} {voice.verb(count.taker, 'takes', 'take')}"
                     f" {count.points}") if count.points else ""
            out.append(Text(f"  {voice.says(count.seat, 'claims', 'claim')} {count.claimed}, "
                            f"refused{taken}", style="italic"))
            continue
        title = titles[shown.index(count)]
        total = count.points + count.missed
        line = Text(title.ljust(pad), style="bold")
        line.append("  ")
        line.append_text(cards_label(count.cards, ascii))
        line.append("  ")
        line.append(f"{total:>2}", style="bold yellow")
        if count.missed:
            line.append(f" (counted {count.points})", style="dim")
        out.append(line)
        said = " · ".join(breakdown(count.items)) or "nothing"
        for row in textwrap.wrap(said, max(20, width - 4), break_long_words=False,
                                 break_on_hyphens=False):
            out.append(Text(f"    {row}", style="italic"))
    return out


class ShowSummaryScreen(Dialog[None]):
    """After a hand's show (or its skip): every hand and the crib, in the
    order counted, with their totals and what made them, until Enter."""

    BINDINGS = [
        Binding("enter,escape,space", "dismiss", "Next deal", priority=True),
        # The table's footer, under the panel, offers these too.
        Binding("question_mark", "app.help", "Help", priority=True),
        Binding("q", "app.quit_game", "Quit", priority=True),
    ]

    def __init__(self, counts: Sequence[ShowItem], view: SeatView,
                 hand: int, scores: Sequence[int], ascii: bool = False,
                 hand_name: str | None = None) -> None:
        """`hand_name`: what the hand is called (None: "Hand 2"; a duplicate
        board's, "Board 2")."""
        super().__init__()
        self.counts = list(counts)
        self.view_ = view
        self.hand = hand
        self.hand_name = hand_name
        self.scores = tuple(scores)
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        width = min(74, max(40, self.app.size.width - 6))
        starter = next((c.starter for c in self.counts if isinstance(c, ev.HandCounted)), None)
        with Vertical(id="show-summary") as panel:
            panel.border_title = f"{self.hand_name or f'Hand {self.hand}'}: the show"
            panel.border_subtitle = "Enter: next deal"
            # One Static for every line: the panel opens at each seat after
            # every hand, and a widget a line was most of what its opening
            # cost (each mounted, styled and laid out); it draws the same.
            lines: list[Text] = []
            if starter is not None:
                top = Text("starter ")
                top.append_text(card_label(starter, self.ascii))
                lines.append(top)
            lines.extend(summary_lines(self.counts, self.view_, width, self.ascii))
            if self.view_.players:
                names = [shown_name(p.name, 12) for p in self.view_.players]
                lines.append(Text("  ".join(f"{n} {s}" for n, s in zip(names, self.scores)),
                                  style="dim"))
            yield Static(Text("\n").join(lines))
