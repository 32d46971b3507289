"""Small dialogs over the table: the coach, your count, muggins, help, quit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.geometry import Region
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from crib3.cards import Card
from crib3.common.names import shown_name
from crib3.engine import SeatView
from crib3.engine.events import STRICT
from crib3.engine.state import Phase
from crib3.players.coach import advise
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.css import STYLESHEET
from crib3.tui.widgets.cards import cards_label
from crib3.tui.widgets.center import TableCenter
from crib3.tui.widgets.table_view import TableView

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A small box in the middle, over the screen it was opened from: a
    `Vertical` whose `.title` and `.hint` lines are styled alike in every
    dialog (the rules are `Dialog`'s, in crib3.tcss)."""

    CSS_PATH = STYLESHEET


class CoachRow(Static):
    """A line of the coach's panel about one card (its numbers, or why):
    a click highlights that card in the hand. An option's line carries the
    ▶ when it is the one highlighted (the one Enter takes)."""

    def __init__(self, text: str, card: Card, **kwargs: Any) -> None:
        super().__init__(text, markup=False, **kwargs)
        self.text = text
        self.card = card
        self.folded = False  # the numbers under the card (a narrow panel)

    def mark(self, on: bool) -> None:
        """Show this option as the highlighted one, or not (options only)."""
        text = ("▶ " if on else "  ") + self.text
        if self.folded:
            verb, card, numbers = self.text.split(maxsplit=2)
            text = f"{text[:2]}{verb} {card}\n  {numbers}"
        self.update(text)


class CoachScreen(Dialog[str | None]):
    """The coach's ranked options for your discard or play, in a panel in
    the room the table leaves: the middle's free rows under the pile when
    they are enough (a big terminal); else, where the feed sits beside the
    table (120 columns and more), in the feed's column, the feed giving way
    while it is open (its latest lines are those under the table) and the
    table a few columns narrower; else (80 columns) at the side. The count,
    the pile and your hand stay in view.

    One option is highlighted (the ▶), and its card in your hand with it:
    the coach's best when it opens. ↑/↓ go from option to option in the
    coach's order, ←/→ from card to card in the hand's (past a card the
    coach has no option for), and a click on an option picks it: the hand's
    highlight and the coach's are always the same card, so Enter does what
    the highlighted option says.

    The table's keys, which its footer still offers under the panel, work
    here too: the panel closes with the key, for the table to act on it (a
    card's number throws or plays it, Enter the highlighted card, q asks to
    quit, ? opens the help, f the feed); Esc or h only closes it."""

    BINDINGS = [
        Binding("escape,h", "dismiss", "Close", priority=True),
        *[Binding(str(n), f"dismiss('{n}')", str(n), show=False, priority=True)
          for n in range(1, 6)],
        Binding("enter", "choose", "Enter", show=False, priority=True),
        *[Binding(key, f"dismiss('{key}')", key, show=False, priority=True)
          for key in ("q", "question_mark", "f")],
        Binding("up", "option(-1)", "↑", show=False, priority=True),
        Binding("down", "option(1)", "↓", show=False, priority=True),
        Binding("left", "card(-1)", "←", show=False, priority=True),
        Binding("right", "card(1)", "→", show=False, priority=True),
    ]
    # The panel in the middle: as wide as this at most, and at least this
    # wide and tall for it to go there.
    WIDEST = 64
    MIDDLE_FROM = (50, 12)
    # The panel in the feed's column: this wide (the table keeps 80
    # columns at 120, as at 80x24: the pile is drawn whole).
    BESIDE = 40

    def __init__(self, view: SeatView, ascii: bool = False) -> None:
        super().__init__()
        self.view_ = view
        self.ascii = ascii
        self.placed: str = "side"  # where the panel went: "middle", "beside" or "side" (tests)
        self._made_room: Screen[object] | None = None  # the table that gave way to the panel
        self.options: list[Card] = []  # the options' cards, best first
        self.chosen: Card | None = None  # the highlighted option's (and the hand's)

    def compose(self) -> ComposeResult:
        advice = advise(self.view_)
        titles = {"discard": "Coach: which card to throw",
                  "play": "Coach: which card to play"}
        cards = [o.card for o in advice.discards] + [o.card for o in advice.plays]
        self.options = cards
        with Vertical() as panel:
            panel.border_title = titles.get(advice.kind, "Coach: nothing to decide just now")
            verb = {"discard": "throw", "play": "play"}.get(advice.kind)
            panel.border_subtitle = \
                f"↑↓ · 1-{len(self.view_.hand)} or Enter: {verb} · Esc: close" \
                if verb else "Esc or h: close"
            for i, ((numbers, why), card) in enumerate(zip(advice.rows(self.ascii), cards)):
                yield CoachRow(numbers, card, classes="option best" if i == 0 else "option")
                yield CoachRow(why, card, classes="why")  # wraps under its option

    def on_mount(self) -> None:
        self._choose(self.options[0] if self.options else None)  # the best, lit in the hand too
        self.call_after_refresh(self._place)

    # --- the highlighted option -----------------------------------------------

    def _choose(self, card: Card | None) -> None:
        """Highlight `card`'s option in the panel and the card in the hand
        (the one place both are set: they cannot disagree)."""
        self.chosen = card
        for row in self.query(CoachRow):
            picked = card is not None and row.card == card
            row.set_class(picked, "picked")
            if row.has_class("option"):
                row.mark(picked)
                if picked and row.is_mounted:
                    row.scroll_visible(animate=False)
        table = self._table()
        if card is None or table is None:
            return
        cards = table.hand.cards()
        if card in cards:
            table.hand.cursor = cards.index(card)

    def action_option(self, step: int) -> None:
        """↑/↓: the next or previous option, in the coach's order."""
        if not self.options:
            return
        at = self.options.index(self.chosen) if self.chosen in self.options else -step
        self._choose(self.options[max(0, min(len(self.options) - 1, at + step))])

    def action_card(self, step: int) -> None:
        """←/→: the next or previous card in the hand that is an option
        (in a play, the cards that may not be played are passed over)."""
        table = self._table()
        if table is None or not self.options:
            return
        cards = [c for c in table.hand.cards() if c in self.options]
        if not cards:
            return
        at = cards.index(self.chosen) if self.chosen in cards else 0
        self._choose(cards[(at + step) % len(cards)])

    def action_choose(self) -> None:
        """Enter: what the highlighted option says, the table's Enter on
        the card highlighted in the hand (the same card)."""
        self._choose(self.chosen)
        self.dismiss("enter")

    # --- where it sits --------------------------------------------------------

    def _table(self) -> TableView | None:
        """The table under this panel, if it is one."""
        return table_under(self)

    def _place(self) -> None:
        """Into the middle's free rows, under the pile, when there are
        enough of them (a big terminal: the panel then covers no box, no
        feed, nothing drawn); else into the feed's column where the feed
        sits beside the table (the table makes room); else it stays at the
        side (80 columns: there is no room to make)."""
        table = self._table()
        if table is None:
            return
        center = table.query_one("#center", TableCenter)
        region = center.region
        top = region.y + center.drawn_rows + 1  # a blank row under the pile
        wide, tall = self.MIDDLE_FROM
        width = min(region.width - 2, self.WIDEST)  # a column clear of each box beside
        if width >= wide and region.bottom - top >= tall:
            self._place_at(Region(region.x + (region.width - width) // 2, top,
                                  width, region.bottom - top), "middle")
            return
        under = table.screen
        if under.has_class("wide") or under.has_class("huge"):
            self._made_room = under
            under.add_class("coach-beside")  # the feed gives way, the table narrows
            size = self.app.size
            self._place_at(Region(size.width - self.BESIDE, 0, self.BESIDE, size.height - 1),
                           "beside")
            self._fold_options()
            panel = self.query_one(Vertical)  # its keys, said shorter to fit the column
            panel.border_subtitle = str(panel.border_subtitle).replace(" · 1-", " 1-") \
                .replace(" or Enter", " Enter")

    def _place_at(self, room: Region, where: str) -> None:
        self.placed = where
        self.add_class("placed")
        panel = self.query_one(Vertical)
        panel.styles.margin = (room.y, 0, 0, room.x)
        panel.styles.width = room.width
        panel.styles.max_width = room.width
        panel.styles.max_height = room.height
        if where == "beside":
            panel.styles.height = room.height  # the feed's whole column

    def _fold_options(self) -> None:
        """An option's numbers that would not fit the panel's width go
        under its card ("▶ throw 9♣", then "hand 6.21 crib ..."), rather
        than wrapped wherever a space falls."""
        text_width = self.BESIDE - 4  # (the border and the padding)
        for row in self.query(CoachRow).filter(".option"):
            if len(row.text) + 2 <= text_width:  # (the ▶ and its space)
                continue
            row.styles.text_wrap = "nowrap"  # (a wrap would drop the indent; it fits)
            row.folded = True
            row.mark(row.card == self.chosen)

    def dismiss(self, result: str | None = None) -> AwaitComplete:
        """Closed: the table's layout comes back as it was."""
        self._give_room_back()
        return super().dismiss(result)

    def on_unmount(self) -> None:
        self._give_room_back()  # (however it went)

    def _give_room_back(self) -> None:
        if self._made_room is not None:
            self._made_room.remove_class("coach-beside")
            self._made_room = None

    # --- clicks ---------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        """A click on an option (its numbers or its why) highlights it, and
        its card in the hand, as the arrows would (Enter then throws or
        plays it)."""
        row: DOMNode | None = event.widget
        while row is not None and not isinstance(row, CoachRow):
            row = row.parent
        table = self._table()
        if row is None or table is None:
            return
        event.stop()
        if row.card in self.options:
            self._choose(row.card)


def table_under(screen: Screen[Any]) -> TableView | None:
    """The table under a dialog, if it is one (a dialog may be shown over
    any screen)."""
    stack = screen.app.screen_stack
    at = stack.index(screen) if screen in stack else 0
    if at == 0:
        return None
    views = stack[at - 1].query(TableView)
    return views.first() if views else None


class ShowQuestion(Dialog[ResultType]):
    """A question in the show (your count, a muggins call). On a table wide
    enough to leave your cards clear (a big terminal) it sits right above
    its prompt, at the table's right; elsewhere in the middle, as any
    dialog (at 80x24 there is no room beside the cards)."""

    BY_PROMPT_FROM = 120  # the table's columns from which it sits by the prompt

    def on_mount(self) -> None:
        self.call_after_refresh(self._place_by_prompt)

    def _place_by_prompt(self) -> None:
        table = table_under(self)
        if table is None or table.region.width < self.BY_PROMPT_FROM:
            return
        prompt = table.screen.query("#prompt")
        if not prompt:
            return
        panel = self.query_one(Vertical)
        width, height = panel.outer_size
        top = max(0, prompt.first().region.y - height)
        self.add_class("by-prompt")
        panel.styles.margin = (top, 0, 0, max(0, table.region.right - width - 1))


class AskCount(ShowQuestion[int | None]):
    """Muggins is on: you count your own hand or crib."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Later", priority=True)]

    def __init__(self, what: str, cards: Sequence[Card], starter: Card | None,
                 ascii: bool = False, strict: bool = False) -> None:
        super().__init__()
        self.what = what
        self.cards = tuple(cards)
        self.starter = starter
        self.ascii = ascii
        self.strict = strict  # the strict muggins rule: a claim too high costs

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(f"Count your {self.what}", classes="title")
            shown = cards_label(self.cards, self.ascii)
            if self.starter is not None:
                shown.append("  with ")
                shown.append_text(cards_label([self.starter], self.ascii))
            yield Static(shown)
            yield Input(placeholder="points", type="integer", id="points", max_length=2)
            too_much = "; too much and they take the excess" if self.strict else ""
            yield Static("Enter to claim. Claim too little and your left-hand "
                         f"opponent may call muggins{too_much}.", classes="hint")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            points = int(event.value)
        except ValueError:
            self.notify("Type your count as a number.", severity="warning")
            return
        self.dismiss(points)


class AskPegging(ShowQuestion[int | None]):
    """Pegging claims are on: you say what the card you play scores (Enter
    alone: nothing)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Another card", priority=True)]

    def __init__(self, card: Card, count: int, ascii: bool = False,
                 strict: bool = False) -> None:
        super().__init__()
        self.card = card
        self.count = count  # the count it makes
        self.ascii = ascii
        self.strict = strict

    def compose(self) -> ComposeResult:
        with Vertical():
            shown = Text("What does ")
            shown.append_text(cards_label([self.card], self.ascii))
            shown.append(f" score? (the count: {self.count})")
            yield Static(shown, classes="title")
            yield Input(placeholder="0", type="integer", id="points", max_length=2)
            too_much = "; too much and they take the excess" if self.strict else ""
            yield Static("Enter to claim (blank: nothing), Escape for another card. Claim "
                         f"too little and your left-hand opponent may call muggins{too_much}.",
                         classes="hint")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            points = int(event.value) if event.value.strip() else 0
        except ValueError:
            self.notify("Type your claim as a number.", severity="warning")
            return
        self.dismiss(points)


class AskMuggins(ShowQuestion[bool]):
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
# The local game's own keys (the card room's help leaves them out: it takes
# nothing back and has no palette).
TAKE_BACK_KEY = "  u          take back your throw or play\n"
PALETTE_KEY = "  Ctrl+P     commands: new game, theme…\n"
HELP_TEXT = """\
[b]Keys[/b]
  1-5        throw or play that card now
  ←/→        highlight a card
  Enter      throw or play it, cut, go on
  h          the coach, beside the table
{TAKE_BACK_KEY}  s          skip the rest of the show
  f PgUp p   feed · read back · last count
  q, Ctrl+Q  quit (asks first; it is saved)
{PALETTE_KEY}  The pile: ▼ you played it, ◀ your left
  opponent, ▶ the other; a score is labelled
  under its card ("pair +2"); the count is
  the large number.

[b]Three-handed cribbage[/b] (r: in full)
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
  ↑/↓ or ←/→ pick an option (its card lit
  in your hand); Enter takes it.
  hand    your four's mean count (any cut)
  crib    crib's mean count, - if theirs
  net     hand + crib + the play, in points
  now     points this card scores as played
  expect  your points, rest of the play
  margin  expect less the opponents'
  Near the end, chances as chances: to count
  out first, to win the hand, and how much
  less than the best option's.
  In a review, "+20% win": you that much
  likelier to win than an opponent; "20%
  lose": an opponent that much likelier.

[b]Reading back[/b]
PgUp/PgDn and ↑/↓ scroll the feed (at 80 \
columns they open it), Home and End go to its start and its end, and \
new lines wait below while you read. p shows the last count's cards, \
cleared from the table, until any key.""".replace("{TAKE_BACK_KEY}", TAKE_BACK_KEY) \
    .replace("{PALETTE_KEY}", PALETTE_KEY)


class HelpScreen(Dialog[None]):
    """Keys and rules in a panel at the side, the table in view beside it."""

    BINDINGS = [Binding("escape,question_mark,q,enter", "dismiss", "Close", priority=True),
                Binding("r", "app.rules", "How to play", priority=True)]

    def compose(self) -> ComposeResult:
        with VerticalScroll() as panel:
            panel.border_title = "Help"
            panel.border_subtitle = "r: how to play · Esc: close"
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
    muggins on a short count (or, with pegging claims, on a short claim in
    the play), or (muggins on) count your own hand or crib."""
    if view.phase not in (Phase.SHOW, Phase.PLAY) or not view.my_turn:
        return None
    if view.muggins_pending is not None:  # (in the play: a short pegging claim)
        _caller, victim, points = view.muggins_pending
        return AskMuggins(shown_name(view.name(victim), 20), points)
    if view.phase == Phase.PLAY:
        return None
    assert view.counting is not None
    return AskCount("crib" if view.counting[1] else "hand", view.counting_cards, view.starter,
                    ascii, strict=view.rules.muggins_rule == STRICT)
