"""Small dialogs over the table: the coach, your count, muggins, help, quit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from crib3.cards import Card
from crib3.common.names import shown_name
from crib3.engine import SeatView
from crib3.engine.state import Phase
from crib3.players.coach import advise
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.css import STYLESHEET
from crib3.tui.widgets.cards import cards_label

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A small box in the middle, over the screen it was opened from: a
    `Vertical` whose `.title` and `.hint` lines are styled alike in every
    dialog (the rules are `Dialog`'s, in crib3.tcss)."""

    CSS_PATH = STYLESHEET


class CoachScreen(Dialog[str | None]):
    """The coach's ranked options for your discard or play, in a panel at
    the side: the count, the pile and your hand stay in view beside it.

    The table's keys, which its footer still offers under the panel, work
    here too: the panel closes with the key, for the table to act on it (a
    card's number throws or plays it, Enter the highlighted card, q asks to
    quit, ? opens the help, f the feed); Esc or h only closes it."""

    BINDINGS = [
        Binding("escape,h", "dismiss", "Close", priority=True),
        *[Binding(str(n), f"dismiss('{n}')", str(n), show=False, priority=True)
          for n in range(1, 6)],
        *[Binding(key, f"dismiss('{key}')", key, show=False, priority=True)
          for key in ("enter", "q", "question_mark", "f")],
    ]

    def __init__(self, view: SeatView, ascii: bool = False) -> None:
        super().__init__()
        self.view_ = view
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        advice = advise(self.view_)
        titles = {"discard": "Coach: which card to throw",
                  "play": "Coach: which card to play"}
        with Vertical() as panel:
            panel.border_title = titles.get(advice.kind, "Coach: nothing to decide just now")
            verb = {"discard": "throw", "play": "play"}.get(advice.kind)
            panel.border_subtitle = f"1-{len(self.view_.hand)} or Enter: {verb} · Esc: close" \
                if verb else "Esc or h: close"
            for i, (numbers, why) in enumerate(advice.rows(self.ascii)):
                yield Static(("▶ " if i == 0 else "  ") + numbers, markup=False,
                             classes="option best" if i == 0 else "option")
                yield Static(why, markup=False, classes="why")  # wraps under its option


class AskCount(Dialog[int | None]):
    """Muggins is on: you count your own hand or crib."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Later", priority=True)]

    def __init__(self, what: str, cards: Sequence[Card], starter: Card | None,
                 ascii: bool = False) -> None:
        super().__init__()
        self.what = what
        self.cards = tuple(cards)
        self.starter = starter
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Count your {self.what}", classes="title")
            shown = cards_label(self.cards, self.ascii)
            if self.starter is not None:
                shown.append("  with ")
                shown.append_text(cards_label([self.starter], self.ascii))
            yield Static(shown)
            yield Input(placeholder="points", type="integer", id="points", max_length=2)
            yield Static("Enter to claim. Claim too little and your left-hand "
                         "opponent may call muggins.", classes="hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            points = int(event.value)
        except ValueError:
            self.notify("Type your count as a number.", severity="warning")
            return
        self.dismiss(points)


class AskMuggins(Dialog[bool]):
    """Another player counted short: take the points they missed?"""

    BINDINGS = [
        Binding("y,enter", "dismiss(True)", "Muggins!", priority=True),
        Binding("n,escape", "dismiss(False)", "Let it go", priority=True),
    ]

    def __init__(self, victim: str, points: int) -> None:
        super().__init__()
        self.victim = victim
        self.points = points

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"{self.victim} missed {self.points}", classes="title", markup=False)
            yield Static("y: call muggins and take them    n: let them go", classes="hint")


# Keys in two columns that fit the help panel (46 cells); the rules as
# paragraphs, wrapped to the panel.
HELP_TEXT = """\
[b]Keys[/b]
  1-5        throw or play that card now
  ←/→        highlight a card
  Enter      throw or play it, cut, go on
  h          the coach, beside the table
  s          skip the rest of the show
  f PgUp p   feed · read back · last count
  q, Ctrl+Q  quit (asks first; it is saved)
  Ctrl+P     commands: new game, theme…
  The pile: ▼ you played it, ◀ your left
  opponent, ▶ the other; a score is labelled
  under its card ("pair +2"); the count is
  the large number.

[b]Three-handed cribbage[/b]
Five cards each; everyone throws one to the dealer's crib, with one card \
from the deck. The player left of the dealer cuts the starter: a jack is 2 \
for the dealer (his heels).
The play: left of the dealer leads; count to 31 at most. 15 or 31 is 2, \
pairs 2/6/12, runs of 3+. Can't play: "go". Play goes on to the left among \
those who can; the last to play keeps playing alone, then scores 1 for the go \
(or 2 for 31). The next count starts left of that player.
The show: left of the dealer first, then the next, the dealer, the crib. \
Fifteens 2, pairs 2, runs, a flush of 4 (crib: 5 only), nobs 1.
First to 121 wins at once, even mid-show.

[b]The coach's numbers[/b] (h)
  hand    your four's mean count (any cut)
  crib    crib's mean count, - if theirs
  net     hand + crib + the play, in points
  now     points this card scores as played
  expect  your points, rest of the play
  margin  expect less the opponents'
  Near the end, chances as chances: to count
  out first, to win the hand, and how much
  less than the best option's.

[b]Reading back[/b]
PgUp/PgDn and ↑/↓ scroll the feed (at 80 \
columns they open it), Home and End go to its start and its end, and \
new lines wait below while you read. p shows the last count's cards, \
cleared from the table, until any key."""


class HelpScreen(Dialog[None]):
    """Keys and rules in a panel at the side, the table in view beside it."""

    BINDINGS = [Binding("escape,question_mark,q,enter", "dismiss", "Close", priority=True)]

    def compose(self) -> ComposeResult:
        with VerticalScroll() as panel:
            panel.border_title = "Help"
            panel.border_subtitle = "Esc: close"
            yield Static(in_words(self.help_text(), app_is_ascii(self)))

    def help_text(self) -> str:
        """What the panel says (the card room adds its own keys)."""
        return HELP_TEXT


class ConfirmQuit(Dialog[bool]):
    """Asks before a game under way is left: y leaves, n or Esc stays.
    `note` says what becomes of the game (saved, and how to go on)."""

    BINDINGS = [
        Binding("y", "dismiss(True)", "Quit", priority=True),
        Binding("n,escape", "dismiss(False)", "Keep playing", priority=True),
    ]
    QUESTION = "Quit this game?"
    HINT = "y: quit    n: keep playing"

    def __init__(self, note: str | None = None) -> None:
        super().__init__()
        self.note = note

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.QUESTION, classes="title")
            if self.note:
                yield Static(self.note, markup=False)  # may hold a file's name
            yield Static(self.HINT, classes="hint")


class ConfirmNewGame(ConfirmQuit):
    """The same question for the palette's "New game": it too leaves the
    game under way, but says so in its own words."""

    BINDINGS = [
        Binding("y", "dismiss(True)", "New game", priority=True),
        Binding("n,escape", "dismiss(False)", "Keep playing", priority=True),
    ]
    QUESTION = "Leave this game for a new one?"
    HINT = "y: set up a new game    n: keep playing"


def asked_in_show(view: SeatView, ascii: bool = False) -> AskMuggins | AskCount | None:
    """The question the show puts to the seat of `view` now, if any: call
    muggins on a short count, or (muggins on) count your own hand or crib."""
    if view.phase != Phase.SHOW or not view.my_turn:
        return None
    if view.muggins_pending is not None:
        _caller, victim, points = view.muggins_pending
        return AskMuggins(shown_name(view.name(victim), 20), points)
    assert view.counting is not None
    return AskCount("crib" if view.counting[1] else "hand", view.counting_cards, view.starter,
                    ascii)
