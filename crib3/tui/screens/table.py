"""The table: where a game is played, from the deal to the last peg.

The screen is a presenter. It knows the game only through its seat's
`SeatFeed`: the events redacted to you, the state they fold to and your view,
which arrive into a queue; the screen shows them one at a time, pausing where
a person wants to read (the cut, each count in the show) and giving the
computer players a moment to "think". Your keys become commands given to the
feed, which takes them for your seat only; nothing here changes the engine's
state any other way, and nothing here ever holds another seat's hidden cards.

The computer players the screen is given (a `BotDriver`) are driven from
here, between the events it presents, so they wait for the one person at the
table; at a shared table (SSH) the table drives its own bots and the screens
are given none.
"""

from __future__ import annotations

import asyncio
import random
import textwrap
from collections import deque
from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import RichLog, Static

from crib3.engine import (
    Count,
    CutStarter,
    Discard,
    Event,
    Game,
    IllegalMove,
    Muggins,
    Play,
    SeatFeed,
    SeatView,
    State,
    project,
)
from crib3.engine import events as ev
from crib3.engine.state import Phase
from crib3.names import shown_name
from crib3.narrate import Voice, describe
from crib3.players.autoplay import BotDriver
from crib3.speech import hand_phrases, say_play
from crib3.scoring import Score
from crib3.tui.ascii import in_words
from crib3.tui.bindings import QuietBindings
from crib3.tui.widgets.board import CribBoard
from crib3.tui.widgets.center import TableCenter
from crib3.tui.widgets.footer import TidyFooter
from crib3.tui.widgets.hand import HandView, ShownCount
from crib3.tui.widgets.seat import SeatPanel

# Events after which the table waits for Enter, so a person can read them.
PAUSE_AFTER = (ev.DealerChosen, ev.HandCounted, ev.MugginsCalled, ev.HandEnded, ev.GameWon)
# Events shown for a moment (scaled by the think time) before the next one.
LINGER_ON = (ev.CardPlayed, ev.GoSaid, ev.GoScored, ev.CountReset, ev.StarterCut, ev.HisHeels,
             ev.CardDiscarded)


def compose_table(ascii: bool, me: int = 0, interactive: bool = True) -> ComposeResult:
    """The table's widgets, the same for live play and replay: the two
    opponents (the one on your left at the upper left, the next at the upper
    right, whatever seat you sit in) and the middle, the last word, the
    board, you and your hand. Panels are found by `#seat<N>`."""
    left, right = (me + 1) % 3, (me + 2) % 3
    with Horizontal(id="top"):
        yield SeatPanel(left, ascii, id=f"seat{left}")
        yield TableCenter(ascii, id="center")
        yield SeatPanel(right, ascii, id=f"seat{right}")
    # Lines with names in them are plain text, never markup: a player may be
    # called "[/]" (see crib3.names).
    yield Static("", id="announce", markup=False)
    yield CribBoard(ascii=ascii, id="board")
    yield Static("", id="me", markup=False)
    yield HandView(ascii, interactive, id="hand")


class TableScreen(QuietBindings, Screen):
    """One game at the table, seen from seat `me`."""

    BINDINGS = [
        Binding("left", "move(-1)", "←", show=False, priority=True),
        Binding("right", "move(1)", "→", show=False, priority=True),
        *[Binding(str(n), f"pick({n})", str(n), show=False, priority=True) for n in range(1, 6)],
        Binding("enter", "next", "Go on", priority=True),
        Binding("enter", "throw", "Throw", priority=True),
        Binding("enter", "play_card", "Play", priority=True),
        Binding("enter", "cut", "Cut", priority=True),
        Binding("h", "coach", "Coach", priority=True),
        Binding("s", "skip_show", "Skip show", priority=True),
        Binding("f", "toggle_feed", "Feed", priority=True),
        Binding("question_mark", "app.help", "Help", key_display="?", priority=True),
        Binding("q", "app.quit_game", "Quit", priority=True),
    ]

    DEFAULT_CSS = """
    TableScreen { layout: vertical; }
    TableScreen #top { height: 5; }
    TableScreen #top SeatPanel { width: 26; }
    TableScreen #announce { height: 1; padding: 0 1; text-style: bold; color: $accent; }
    TableScreen #me { height: 1; padding: 0 1; }
    TableScreen #prompt { height: 1; padding: 0 1; color: $text-muted; }
    TableScreen #recent { height: 1fr; padding: 0 1; color: $text-muted; }
    TableScreen #feed { dock: right; width: 34; border-left: solid $secondary; display: none; }
    TableScreen.wide #feed { display: block; }
    TableScreen.feed-on #feed { display: block; }
    TableScreen.wide.feed-off #feed { display: none; }
    """

    def __init__(self, game: Game, me: int, bots: BotDriver | None = None, think: float = 0.6,
                 ascii: bool = False, on_over: Callable[[State], None] | None = None,
                 resumed: bool = False) -> None:
        """`resumed`: the game's events so far are history, shown at once
        (a resumed game opens where it stood); otherwise they are presented
        like every later event (a new game shows its cut for deal)."""
        super().__init__()
        self.game = game
        self.me = me
        self._others = ((me + 1) % 3, (me + 2) % 3)
        self.bots = bots
        self.think = think
        self.ascii = ascii
        self.on_over = on_over
        self.rng = random.Random()
        self.feed = SeatFeed(game, me)
        self.pending: deque[tuple[Event, State, SeatView]] = deque()
        self.shown = State()
        self.presented = 0  # how many of the game's events are on screen
        self._view = project(self.shown, me)
        self.waiting_for_enter = False
        self.skipping_show = False
        self.narration: list[str] = []  # the game in words, as shown to this seat
        self._continue = asyncio.Event()
        self._idle = False  # the driver waits for the human
        self.history: list[tuple[Event, State, SeatView]] = []
        so_far, self._unsubscribe = self.feed.follow(self._on_engine_event)
        (self.history if resumed else self.pending).extend(so_far)

    # --- layout -------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield from compose_table(self.ascii, self.me)
        yield Static("", id="prompt", markup=False)
        yield Static("", id="recent", markup=False)
        yield RichLog(id="feed", wrap=True, markup=False, auto_scroll=True)
        yield TidyFooter()

    def on_mount(self) -> None:
        self.query_one("#feed", RichLog).can_focus = False
        self._fit(self.app.size.width)
        for event, state, view in self.history:  # a resumed game: straight to where it stood
            self._present(event, state, view)
        self._start_driver()

    def on_resize(self) -> None:
        self._fit(self.app.size.width)

    def _fit(self, width: int) -> None:
        self.set_class(width >= 120, "wide")

    def on_unmount(self) -> None:
        self._unsubscribe()

    # --- the engine's events -------------------------------------------------

    def _on_engine_event(self, event: Event, state: State, view: SeatView) -> None:
        self.pending.append((event, state, view))
        if self._idle and self.is_mounted:
            # Somebody else moved (a person at another seat of a shared
            # table): wake up and show it.
            self.call_later(self._wake)

    def _wake(self) -> None:
        if self._idle and self.pending:
            self._start_driver()

    @property
    def view(self) -> SeatView:
        """What this seat sees of the state on screen (projected once per
        shown event: the footer asks for it on every key-binding check)."""
        return self._view

    def _present(self, event: Event, state: State, view: SeatView) -> None:
        """Show one event (already redacted to this seat), the state it
        leads to and this seat's view of it."""
        self.shown = state
        self.presented += 1
        self._view = view
        if isinstance(event, (ev.DeckShuffled, ev.GameWon)) or state.phase != Phase.SHOW:
            self.query_one("#hand", HandView).showing = None
        for seat in self._others:
            self.query_one(f"#seat{seat}", SeatPanel).view = view
        self.query_one("#center", TableCenter).view = view
        self.query_one("#hand", HandView).view = view
        names = [p.name for p in view.players]
        if names:
            self.query_one("#board", CribBoard).set_scores(
                names, view.scores, view.back_pegs, view.rules.target, view.dealer)
        self._update_me(view)
        line = describe(event, state, self.ascii)
        if line:
            self.query_one("#feed", RichLog).write(line)
            self.narration.append(line)
            self._update_recent()
        announce = self._announcement(event, view)
        if announce is not None:
            self.query_one("#announce", Static).update(announce)
        self._update_prompt()

    def _update_recent(self) -> None:
        """The latest lines of the game in words, above the footer: as many
        as fit, newest last, and the newest always whole (a long count
        wraps, and a cut-off line would hide what just happened)."""
        recent = self.query_one("#recent", Static)
        width = recent.content_region.width or max(20, self.app.size.width - 2)
        rows = recent.content_region.height or 2
        shown: list[str] = []
        used = 0
        for line in reversed(self.narration[-3:]):
            needs = len(textwrap.wrap(line, width)) or 1
            if shown and used + needs > rows:
                break
            shown.insert(0, line)
            used += needs
        recent.update("\n".join(shown))

    def _announcement(self, event: Event, view: SeatView) -> str | None:
        """The big line: what just happened, in a player's words."""
        names = [shown_name(p.name, 20) for p in view.players]
        if isinstance(event, ev.CardPlayed):
            said = say_play(Score(event.points, event.items))
            who = names[event.seat]
            return f"{who}: {event.count}" + (f" — {said}" if said else "")
        if isinstance(event, ev.GoSaid):
            return f"{names[event.seat]}: go"
        if isinstance(event, ev.HandCounted):
            return describe(event, self.shown, self.ascii)
        if isinstance(event, (ev.GoScored, ev.HisHeels, ev.MugginsCalled, ev.MugginsDeclined,
                              ev.StarterCut, ev.DealerChosen, ev.CutTied, ev.GameWon,
                              ev.HandEnded, ev.DeckShuffled)):
            return describe(event, self.shown, self.ascii)
        return None

    def _update_me(self, view: SeatView) -> None:
        me = self.me
        if not view.players:
            return
        text = Text()
        text.append(shown_name(view.players[me].name, 24), style="bold")
        text.append(f"  {view.scores[me]} pts", style="bold")
        if view.dealer == me:
            text.append("  · your deal and crib", style="italic")
        if view.phase == Phase.PLAY and view.gone[me]:
            text.append("  · go", style="bold yellow")
        mine = [c for c, s in zip(view.pile, view.pile_seats) if s == me]
        if mine and view.phase == Phase.PLAY:
            text.append("  · played ", style="dim")
            text.append(" ".join(c.label(self.ascii) for c in mine))
        self.query_one("#me", Static).update(text)

    def _update_prompt(self) -> None:
        self.query_one("#prompt", Static).update(in_words(self._prompt(), self.ascii))
        self.keys_may_have_changed()

    def _prompt(self) -> str:
        if self.waiting_for_enter:
            if self.shown.phase == Phase.OVER:
                return "Enter: the result"
            return "Enter: go on   s: skip the rest of the show" if \
                self.shown.phase == Phase.SHOW else "Enter: go on"
        if not self._idle:
            return ""
        view = self.view
        if view.phase == Phase.DISCARD and view.my_turn:
            owner = "your" if view.dealer == self.me else \
                f"{shown_name(view.name(view.dealer), 16)}'s"
            return f"Throw one card to {owner} crib: ←/→ or 1-5, then Enter   h: coach"
        if view.phase == Phase.CUT_STARTER and view.my_turn:
            return "Enter: cut the deck for the starter"
        if view.phase == Phase.PLAY and view.my_turn:
            return f"Your play, count {view.count}: ←/→ or 1-4, then Enter   h: coach"
        if view.phase == Phase.SHOW and view.my_turn:
            return "Count your hand (muggins is on)"
        return ""

    # --- driving the game ---------------------------------------------------

    def _start_driver(self) -> None:
        self._idle = False
        self.run_worker(self._drive, exclusive=True, group="driver")

    async def _drive(self) -> None:
        game = self.game
        while True:
            while self.pending:
                event, state, view = self.pending.popleft()
                if isinstance(event, ev.HandCounted) and not self.skipping_show:
                    await self._say_count(event, state)
                self._present(event, state, view)
                await self._pace(event)
            if game.over:
                return
            # Only this screen's own bots are driven from here; any other
            # seat is a person elsewhere, whose moves arrive as events.
            seat = self.bots.to_move() if self.bots is not None else None
            if seat is not None:
                await self.bots.move(seat, self._thinking)  # type: ignore[union-attr]
                continue
            self._idle = True
            self._update_prompt()
            self._ask_if_needed()
            return

    def _thinking(self, seat: int, thinking: bool) -> None:
        self.query_one(f"#seat{seat}", SeatPanel).thinking = thinking

    async def _say_count(self, event: ev.HandCounted, state: State) -> None:
        """Say a count phrase by phrase, lighting each phrase's cards, before
        the pegs move. Enter hurries it on."""
        hand = self.query_one("#hand", HandView)
        announce = self.query_one("#announce", Static)
        whose = Voice(state).whose(event.seat, start=True)
        title = f"{whose} {'crib' if event.crib else 'hand'}"
        phrases = hand_phrases(Score(event.points + event.missed, event.items))
        self._continue.clear()
        self.waiting_for_enter = True
        self._update_prompt()
        animate = self.app.animation_level != "none"  # TEXTUAL_ANIMATIONS=none: all at once
        for phrase, cards in phrases or [("nineteen: nothing", frozenset())]:
            hand.showing = ShownCount(title, event.cards, event.starter, cards)
            announce.update(f"{title}: {phrase}")
            if animate and self.think and not self._continue.is_set():
                try:
                    await asyncio.wait_for(self._continue.wait(), self.think * 1.2)
                except asyncio.TimeoutError:
                    pass
        hand.showing = ShownCount(title, event.cards, event.starter, frozenset())
        self.waiting_for_enter = False

    async def _pace(self, event: Event) -> None:
        if isinstance(event, PAUSE_AFTER):
            if isinstance(event, (ev.HandCounted, ev.MugginsCalled)) and self.skipping_show:
                return
            if isinstance(event, ev.HandEnded):
                self.skipping_show = False
            self.waiting_for_enter = True
            self._continue.clear()
            self._update_prompt()
            await self._continue.wait()
            self.waiting_for_enter = False
            if isinstance(event, ev.GameWon) and self.on_over is not None:
                self.on_over(self.shown)
        elif isinstance(event, LINGER_ON) and self.think:
            await asyncio.sleep(self.think / 2)

    def _act(self, command: object) -> None:
        try:
            self.feed.dispatch(command)  # type: ignore[arg-type]
        except IllegalMove as exc:
            self.notify(str(exc), severity="warning", markup=False)
            return
        self._start_driver()

    def _ask_if_needed(self) -> None:
        """Counting (muggins) and calling muggins are asked in a dialog."""
        view = self.view
        if view.phase != Phase.SHOW or not view.my_turn:
            return
        from crib3.tui.screens.dialogs import AskCount, AskMuggins

        if view.muggins_pending is not None:
            caller, victim, points = view.muggins_pending
            self.app.push_screen(AskMuggins(shown_name(view.name(victim), 20), points),
                                 lambda call: self._act(Muggins(self.me, bool(call))))
            return
        assert view.counting is not None
        crib = view.counting[1]
        self.app.push_screen(AskCount("crib" if crib else "hand", view.counting_cards,
                                      view.starter, self.ascii), self._counted)

    def _counted(self, points: int | None) -> None:
        if points is None:
            self._ask_if_needed()
            return
        try:
            self.feed.dispatch(Count(self.me, points))
        except IllegalMove as exc:
            self.notify(str(exc), severity="warning", markup=False)
            self._ask_if_needed()
            return
        self._start_driver()

    # --- keys ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("next", "throw", "play_card", "cut"):
            if action == "next":
                return self.waiting_for_enter
            if self.waiting_for_enter or not self._idle or not self.view.my_turn:
                return False
            phase = {"throw": Phase.DISCARD, "play_card": Phase.PLAY,
                     "cut": Phase.CUT_STARTER}[action]
            return self.view.phase == phase
        if action in ("move", "pick", "coach"):
            view = self.view
            return self._idle and view.my_turn and view.phase in (Phase.DISCARD, Phase.PLAY)
        if action == "skip_show":
            return self.waiting_for_enter and self.shown.phase == Phase.SHOW
        return True

    def action_move(self, step: int) -> None:
        self.query_one("#hand", HandView).move(step)

    def action_pick(self, number: int) -> None:
        hand = self.query_one("#hand", HandView)
        if number <= len(hand.cards()):
            hand.cursor = number - 1

    def action_next(self) -> None:
        self.action_confirm()

    def action_throw(self) -> None:
        self.action_confirm()

    def action_play_card(self) -> None:
        self.action_confirm()

    def action_cut(self) -> None:
        self.action_confirm()

    def action_confirm(self) -> None:
        """Enter: go on, or throw / play the highlighted card, or cut."""
        if self.waiting_for_enter:
            self._continue.set()
            return
        if not self._idle:
            return
        view = self.view
        if not view.my_turn:
            return
        if view.phase == Phase.CUT_STARTER:
            depths = [c.depth for c in view.legal if isinstance(c, CutStarter)]
            self._act(CutStarter(self.me, self.rng.choice(depths)))
            return
        card = self.query_one("#hand", HandView).selected
        if card is None:
            return
        if view.phase == Phase.DISCARD:
            self._act(Discard(self.me, card))
        elif view.phase == Phase.PLAY:
            self._act(Play(self.me, card))

    def action_skip_show(self) -> None:
        if self.waiting_for_enter and self.shown.phase == Phase.SHOW:
            self.skipping_show = True
            self._continue.set()

    def action_coach(self) -> None:
        from crib3.tui.screens.dialogs import CoachScreen

        self.app.push_screen(CoachScreen(self.view, self.ascii))

    def action_toggle_feed(self) -> None:
        wide = self.has_class("wide")
        if wide:
            self.toggle_class("feed-off")
        else:
            self.toggle_class("feed-on")
