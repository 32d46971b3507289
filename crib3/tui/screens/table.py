"""The table screen: the keys and the pacing of one game, seen from one seat.

The drawing is the `TableView`'s, the words are `crib3.tui.words`'. The game
arrives only through the seat's `SeatFeed` (events redacted to you, the state
they fold to, your view) into a queue, shown one at a time with pauses where a
person reads; your keys become commands the feed takes for your seat only, so
nothing here holds another seat's hidden cards. One `mode` (see
`crib3.tui.words.Mode`) decides the prompt and the footer's keys.

The computer players (a `BotDriver`) are asked from here, between events,
because *when* a bot moves is pacing: at your keyboard the bots wait until you
have read what happened; *how* (off the loop, within a budget, a legal move if
a bot fails) is the driver's. A card-room table drives its own bots.
"""

from __future__ import annotations

import asyncio
import contextvars
import random
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Protocol, cast

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.reactive import reactive
from textual.screen import Screen

from crib3.cards import Card
from crib3.engine import (
    Command,
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
    TakeBack,
    project,
)
from crib3.engine import events as ev
from crib3.engine.feed import FeedItem, FeedSubscriber
from crib3.engine.state import Phase
from crib3.players.autoplay import BotDriver
from crib3.tui.ascii import in_words
from crib3.tui.bindings import QuietBindings
from crib3.tui.css import STYLESHEET
from crib3.tui.settings import AutoMoves
from crib3.tui.textual_compat import app_context, fail_app, going_away
from crib3.tui.widgets.center import TableCenter
from crib3.tui.widgets.feed import Feed
from crib3.tui.widgets.footer import TidyFooter
from crib3.tui.widgets.hand import HandView, ShownCount
from crib3.tui.widgets.recent import RecentLines
from crib3.tui.widgets.redraw import redraw_line
from crib3.tui.widgets.table_view import TableView
from crib3.tui.widgets.turn_marker import PromptLine
from crib3.tui.words import ENTER_GOES_ON, IDLE, Mode, announcement, prompt, refusal
from crib3.words.narrate import Voice, describe

if TYPE_CHECKING:
    from crib3.tui.base_app import BaseApp
    from crib3.tui.screens.looking_back import ShowItem

# Events after which the table waits for Enter, so a person can read them.
PAUSE_AFTER = (ev.DealerChosen, ev.HandCounted, ev.MugginsCalled, ev.HandEnded, ev.GameWon)
# ... of which these go on by themselves after a while, if so chosen (see
# `AutoMoves.continue_after`): the show's counts, all shown again at a
# glance after the last one, which waits for Enter.
GO_ON_AFTER = (ev.HandCounted, ev.MugginsCalled)
# Events shown for a moment (scaled by the think time) before the next one.
LINGER_ON = (ev.CardPlayed, ev.GoSaid, ev.GoScored, ev.CountReset, ev.StarterCut, ev.HisHeels,
             ev.CardDiscarded)
# `u` is taken while a computer player thinks or it is your turn; not in a
# pause to read, a count being said, or after the game.
NOTHING_TO_TAKE_BACK = ("Nothing to take back now: your throw until the starter is cut, "
                        "your play until the show.")
_TAKE_BACK_MODES = frozenset({Mode.PRESENTING, Mode.YOUR_TURN, Mode.OTHERS_TURN})
_CARD_KEYS = {"throw": Phase.DISCARD, "play_card": Phase.PLAY, "cut": Phase.CUT_STARTER}  # Enter


# Reading back (keys the cards do not use): the feed scrolls (and opens,
# where it is not shown), and p shows the last count's cards (see `help`).
READ_BACK_KEYS = [
    *[Binding(key, f"read_feed('{how}')", "Read back", show=False, priority=True)
      for key, how in (("pageup", "page_up"), ("pagedown", "page_down"), ("up", "up"),
                       ("down", "down"), ("home", "home"), ("end", "end"))],
    Binding("p", "last_count", "Last count", show=False, priority=True),
]


# What a feed that takes a move without waiting is given: the move, and what
# to call once the room has answered it (None: carried out; else why not).
# True when it was sent; False: `dispatch` it instead.
SendMove = Callable[[Command, Callable[[str | None], None]], bool]


class TableFeed(Protocol):
    """What the table screen asks of its seat's feed: the engine's
    `SeatFeed` at this keyboard, or a card-room table's own (in a session
    worker, a `ReplicaFeed`). Two parts are a card room's only, declared on
    both so that the screen probes neither: `send`, a move without waiting
    (None: every move is dispatched), and `room_errors`, the room's own
    refusals a move may meet beyond an illegal one (said in one line; none
    at this keyboard)."""

    @property
    def send(self) -> SendMove | None: ...

    @property
    def room_errors(self) -> tuple[type[Exception], ...]: ...

    def follow(self, callback: FeedSubscriber) -> tuple[list[FeedItem], Callable[[], None]]: ...

    def dispatch(self, command: Command) -> None: ...


class TableScreen(QuietBindings, Screen[None]):
    """One game at the table, seen from seat `me`."""

    CSS_PATH = STYLESHEET
    # wide: the feed fits beside; huge: wider seats and feed (see crib3.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "narrow"), (120, "wide"), (180, "huge")]
    VERTICAL_BREAKPOINTS = [(0, "short"), (34, "tall"), (50, "taller")]
    BINDINGS = [
        Binding("left", "move(-1)", "←", show=False, priority=True),
        Binding("right", "move(1)", "→", show=False, priority=True),
        # A number key throws or plays that card at once; Enter confirms the
        # card the arrows highlighted. The footer offers both.
        Binding("1", "throw_number(1)", "Throw", key_display="1-5", priority=True),
        Binding("1", "play_number(1)", "Play", key_display="1-5", priority=True),
        *[Binding(str(n), f"pick({n})", str(n), show=False, priority=True) for n in range(1, 6)],
        Binding("enter", "next", "Go on", priority=True),
        Binding("enter", "throw", "Throw", priority=True),
        Binding("enter", "play_card", "Play", priority=True),
        Binding("enter", "cut", "Cut", priority=True),
        Binding("h", "coach", "Coach", priority=True),
        Binding("u", "take_back", "Take back", priority=True),
        Binding("u", "no_take_back", show=False, priority=True),  # says why not
        Binding("s", "skip_show", "Skip show", priority=True),
        Binding("f", "toggle_feed", "Feed", priority=True),
        *READ_BACK_KEYS,
        Binding("question_mark", "app.help", "Help", key_display="?", priority=True),
        Binding("q", "app.quit_game", "Quit", priority=True),
    ]

    # No repaint: the mode is drawn by the prompt and the footer, which redraw
    # themselves; a repaint of the screen would send every cell again.
    mode: reactive[Mode] = reactive(Mode.PRESENTING, always_update=True, init=False,
                                    repaint=False)
    # The heading's name for the hand (None: "Hand 2"); a duplicate board's
    # table says which board of how many ("Board 2 of 6").
    hand_title: str | None = None

    def __init__(self, game: Game, me: int, bots: BotDriver | None = None, think: float = 0.6,
                 ascii: bool = False, on_over: Callable[[State], None] | None = None,
                 resumed: bool = False, takebacks: bool = False,
                 shown_before: int | None = None, auto: AutoMoves | None = None) -> None:
        """`resumed`: the events so far are shown at once (the game opens
        where it stood), else presented one by one (a new game's cut);
        `shown_before`: how many of them this table had presented when the
        game was left, if that is known (a show goes on from there).
        `takebacks`: `u` takes back your last throw or play (a game at your
        own keyboard against the computer; never a card room's).
        `auto`: what is done for this seat without a key (a go, a forced
        card, going on after a count); the defaults when not given."""
        super().__init__()
        self.auto = auto if auto is not None else AutoMoves()
        self.going_on_by_itself = False  # a pause that ends without Enter (see `_pace`)
        self.takebacks = takebacks
        self.game = game
        self.me = me
        self.bots = bots
        self.think = think
        self.ascii = ascii
        self.on_over = on_over
        self.resumed = resumed
        self.shown_before = shown_before
        self.rng = random.Random()
        self.feed: TableFeed = SeatFeed(game, me)
        self.pending: deque[tuple[Event, State, SeatView]] = deque()
        self.shown = State()
        self.presented = 0  # how many of the game's events are on screen
        # What this seat sees of the state on screen (projected once per shown
        # event: the footer asks for it on every key-binding check).
        self.view: SeatView = project(self.shown, me)
        self.skipped_hand: int | None = None  # the hand whose show goes by unpaused
        self.narration: list[str] = []  # the game in words, as shown to this seat
        self.recent_from = 0  # where the lines under the table start (the show's first)
        self._show_of = 0  # the hand whose show has started
        self.show_counts: list[ShowItem] = []  # ... its counts so far
        self.history: list[tuple[Event, State, SeatView]] = []  # a resumed game's past
        # The plays of the latest hand with any, and if its play is over (`p`).
        self.last_plays: tuple[tuple[tuple[int, Card, int], ...], bool] = ((), False)
        self._continue = asyncio.Event()
        self._unsubscribe: Callable[[], None] = lambda: None  # set on mount
        self._driver: asyncio.Task[None] | None = None  # see `_start_driver`
        self._moving = False  # a move sent, not yet answered (see `_act`)
        self._moved_in: contextvars.Context | None = None  # ... and the key's context
        self._mode_unshown = False  # the mode was set without drawing it (see `_start_driver`)

    @property
    def waiting_for_enter(self) -> bool:
        """Enter goes on (a pause to read, or a count being said)."""
        return self.mode in ENTER_GOES_ON

    @property
    def acting_by_itself(self) -> bool:
        """No key is needed now, though the table waits: a pause that goes
        on by itself, or your forced card about to be played."""
        return self.going_on_by_itself or (
            self.mode == Mode.YOUR_TURN and self._forced_play() is not None)

    @property
    def table_view(self) -> TableView:
        return self.query_one(TableView)

    def compose(self) -> ComposeResult:
        yield TableView(self.me, self.ascii)
        yield PromptLine("", id="prompt", markup=False)
        yield RecentLines(id="recent")
        yield Feed(id="feed")
        yield TidyFooter()

    def on_mount(self) -> None:
        """Follow the game from here (not from `__init__`: a screen built
        but never shown must not stay subscribed)."""
        self.query_one("#feed", Feed).can_focus = False
        self.query_one(TableCenter).hand_title = self.hand_title
        so_far, self._unsubscribe = self.feed.follow(self._on_engine_event)
        if self.resumed:  # straight to where it stood, but for a show left part seen
            self.history = so_far
            at = self.resume_at(so_far)
            for event, state, view in so_far[:at]:
                self._present(event, state, view)
            self.pending.extend(so_far[at:])
        else:
            self.pending.extend(so_far)
        self._start_driver()

    def resume_at(self, so_far: list[tuple[Event, State, SeatView]]) -> int:
        """How many of a resumed game's events are shown at once; the rest
        are presented as they come (a show left part seen: see
        `show_left_unseen`). When it is known how far the table had gone
        (`shown_before`), the show goes on from there: the counts already
        said are shown at once, the pegs where they stood, and no muggins
        claim is made again."""
        first = show_left_unseen(so_far, self.me)
        if self.shown_before is None or first >= len(so_far):
            return first
        return max(first, min(self.shown_before, len(so_far)))

    def on_unmount(self) -> None:
        self._unsubscribe()
        if self._driver is not None:
            self._driver.cancel()

    def watch_mode(self) -> None:
        """The prompt: on your turn it stands out from the log under it
        (the `yours` class: bold, reversed in the accent colour, and a
        marker, so it holds without colour too). Redrawn without a layout,
        and only when it changed (see `redraw_line`)."""
        self._mode_unshown = False
        said = in_words(prompt(self.mode, self.shown.phase, self.view), self.ascii)
        yours = self.mode == Mode.YOUR_TURN and bool(said)
        line = self.query_one("#prompt", PromptLine)
        redraw_line(line, f"▶ {said}" if yours else said)
        line.mark(yours)
        self.turn_told(yours)
        self.keys_may_have_changed()

    def turn_told(self, yours: bool) -> None:
        """The prompt now says whether it is your turn (the card room rings)."""

    # --- the engine's events -------------------------------------------------

    def _on_engine_event(self, event: Event, state: State, view: SeatView) -> None:
        self.pending.append((event, state, view))
        if self.mode not in IDLE:
            return
        if self._moving and self._moved_in is not None:
            # This seat's own move, sent without waiting, has come back:
            # shown now, in the context of the key that made it, as a local
            # move is, not after a turn of this screen's queue (in a busy
            # session worker, a turn of every session's).
            try:
                self._moved_in.run(self._wake)
                return
            except RuntimeError:  # (that context is running: the queue it is)
                pass
        self.call_later(self._wake)  # a person at another seat moved: wake up and show it

    def _wake(self) -> None:
        if self.mode in IDLE and self.pending:
            self._start_driver()

    def _present(self, event: Event, state: State, view: SeatView) -> None:
        """Show one event (redacted to this seat), its state and our view."""
        if isinstance(event, (ev.HandCounted, ev.ClaimRefused)) and state.phase == Phase.SHOW \
                and self._show_of != state.hand_number:
            # The show's first count: the lines under the table start again
            # (the play's last lines are its leftovers; the feed keeps them).
            self._show_of = state.hand_number
            self.recent_from = len(self.narration)
            self.show_counts = []
        if isinstance(event, (ev.HandCounted, ev.MugginsCalled)) or (
                isinstance(event, ev.ClaimRefused) and event.card is None):
            self.show_counts.append(event)  # for the show at a glance, after it
        self.shown = state
        self.presented += 1
        if view.can_take_back != self.view.can_take_back and self.takebacks:
            self.view = view
            self.keys_may_have_changed()  # `u` comes (or goes) while the mode stays
        self.view = view
        if view.hand_plays:  # (kept into the next hand's deal, for `p`)
            self.last_plays = (view.hand_plays, view.phase != Phase.PLAY)
        table = self.table_view
        table.show(view, keep_count=state.phase == Phase.SHOW and not isinstance(
            event, (ev.DeckShuffled, ev.GameWon)))
        line = describe(event, state, self.ascii)
        if line:
            self.query_one("#feed", Feed).say(line)
            self.narration.append(line)
            self.query_one(RecentLines).show(self.narration[self.recent_from:])
        said = announcement(event, state, view, self.ascii)
        if said is not None:
            table.announce(said)

    # --- driving the game ---------------------------------------------------

    def _start_driver(self) -> None:
        """Present what is pending, then drive the bots or wait for a move.

        A plain task the screen owns, not a Textual `Worker`: this runs for
        nearly every event of a card-room table at every seat, and a worker
        (its manager, its state-change messages dispatched up the DOM) cost
        more CPU and garbage than the presenting it drove. It behaves as the
        exclusive worker did: a new start cancels the one running, the app
        ends if it fails (as `exit_on_error`), and it ends with the screen.

        The mode is presenting from now on (the keys wait), but it is drawn
        (the prompt, the footer's keys) only if the driver waits in it
        (`_show_mode`): most often the events are presented at once and the
        mode they end in is drawn with them, in one frame, not a frame for
        the prompt that presenting clears and another for the move."""
        self._presenting_quietly(Mode.PRESENTING)
        if self._driver is not None and not self._driver.done():
            self._driver.cancel()
        app = self.app
        self._driver = driver = asyncio.get_running_loop().create_task(self._driven(app))
        driver.add_done_callback(lambda task: _failed(app, task, self))

    async def _driven(self, app: App[object]) -> None:
        with app_context(app):  # as a Worker runs: in this app's context
            await self._drive()

    def _skipping(self) -> bool:
        """The rest of this hand's show goes by without pauses (`s`)."""
        return self.shown.phase == Phase.SHOW and self.skipped_hand == self.shown.hand_number

    def _presenting(self) -> Mode:
        return Mode.SKIPPING_SHOW if self._skipping() else Mode.PRESENTING

    async def _drive(self) -> None:
        game = self.game
        while True:
            while self.pending:
                event, state, view = self.pending.popleft()
                if isinstance(event, ev.HandCounted) and not self._skipping():
                    await self._say_count(event, state)
                if isinstance(event, ev.GoSaid) and event.seat == self.me and not self.auto.go:
                    await self._wait_for_enter(Mode.YOUR_GO)  # the go said with Enter
                self._present(event, state, view)
                await self._pace(event)
            if game.over:
                self.mode = Mode.OVER
                return
            # Only this screen's own bots are driven from here; any other
            # seat is a person elsewhere, whose moves arrive as events.
            # Everyone throws to the crib at once: the person need not wait
            # for the bots to think, so the bots throw after them.
            bots = self.bots
            seat = bots.to_move() if bots is not None and not self._my_throw_waits() else None
            if bots is not None and seat is not None:
                self._show_mode()
                await bots.move(seat, self._show_thinking)
                continue
            self.mode = Mode.YOUR_TURN if self.view.my_turn else Mode.OTHERS_TURN
            forced = self._forced_play()
            if forced is not None:  # shown as your turn for a moment, then played
                if self.think:
                    self.set_timer(self.think / 2, partial(self._play_forced, forced))
                else:
                    self.call_later(self._play_forced, forced)
            self._ask_if_needed()
            return

    def _forced_play(self) -> Play | None:
        """Your only playable card, to be played for you: with auto-play on,
        when Enter would play a card now (never at a spectator's screen) and
        exactly one card may be played; None when there is a choice."""
        if not self.auto.forced_card or not self.check_action("play_card", ()):
            return None
        # (with pegging claims a card is there once for each claim it may have)
        cards = {c.card for c in self.view.legal if isinstance(c, Play)}
        return Play(self.me, cards.pop()) if len(cards) == 1 else None

    def _play_forced(self, play: Play) -> None:
        """Play the forced card, unless the person has moved meanwhile (a
        key is quicker than the moment it is shown for) or the table has
        moved on."""
        if self.is_attached and self._forced_play() == play:
            self._act(play)

    def _show_thinking(self, seat: int, on: bool) -> None:
        """Light the seat of a bot that thinks (and put it out). A game left
        while a bot thinks ends that thought as the screen goes: then there
        is no seat left to put out."""
        views = self.query(TableView)
        if views:
            views.first().panel(seat).thinking = on

    def _my_throw_waits(self) -> bool:
        """This seat has still to throw to the crib (the discard is
        simultaneous: nobody's throw waits for another's)."""
        return self.view.phase == Phase.DISCARD and self.view.my_turn

    async def _say_count(self, event: ev.HandCounted, state: State) -> None:
        """Say a count phrase by phrase before the pegs move; Enter hurries it."""
        self._continue.clear()
        self.mode = Mode.COUNTING
        animate = self.app.animation_level != "none"  # TEXTUAL_ANIMATIONS=none: all at once
        await self.table_view.say_count(event, Voice(state).whose(event.seat, start=True),
                                   self.think * 1.2 if animate else 0, self._continue)
        self._presenting_quietly(self._presenting())

    def _show_at_a_glance(self, ended: ev.HandEnded) -> None:
        """After a show (or its skip): every hand and the crib counted, in
        one panel, until Enter, which goes on to the next deal."""
        from crib3.tui.screens.looking_back import ShowSummaryScreen

        panel = ShowSummaryScreen(self.show_counts, self.view, ended.hand, ended.scores,
                                  self.ascii)
        self.app.push_screen(panel, lambda _: self._continue.set())

    async def _pace(self, event: Event) -> None:
        if isinstance(event, PAUSE_AFTER):
            if isinstance(event, GO_ON_AFTER) and self._skipping():
                return
            self._continue.clear()
            self.mode = Mode.WAITING_FOR_ENTER
            if isinstance(event, ev.HandEnded) and self.show_counts:
                self._show_at_a_glance(event)
            await self._waited(self.auto.continue_after if isinstance(event, GO_ON_AFTER)
                               else None)
            if isinstance(event, ev.GameWon) and self.on_over is not None:
                self.on_over(self.shown)
        elif isinstance(event, LINGER_ON) and self.think:
            self._show_mode()
            await asyncio.sleep(self.think / 2)

    def _presenting_quietly(self, mode: Mode) -> None:
        """Set `mode` (presenting, or skipping the show), to be drawn only
        if the driver waits in it (`_show_mode`)."""
        self.set_reactive(TableScreen.mode, mode)
        self._mode_unshown = True

    def _show_mode(self) -> None:
        """Draw the mode set without drawing it (see `_start_driver`):
        the driver is about to wait in it."""
        if self._mode_unshown:
            self.mode = self.mode  # (the watcher runs on every assignment)

    async def _wait_for_enter(self, mode: Mode) -> None:
        """Wait in `mode` until Enter."""
        self._continue.clear()
        self.mode = mode
        await self._waited(None)

    async def _waited(self, at_most: float | None) -> None:
        """The pause (its mode set, `_continue` cleared) until Enter (or
        `s`), or at most `at_most` seconds: the pause then ends by itself
        (`going_on_by_itself` says so meanwhile), unless something is open
        over the table then (the help, the last count, the coach): the
        person is reading, and the table waits for their Enter."""
        if at_most is not None:
            self.going_on_by_itself = True
            try:
                await asyncio.wait_for(self._continue.wait(), at_most)
            except TimeoutError:
                if self.app.screen is not self:
                    self.going_on_by_itself = False
                    await self._continue.wait()
            finally:
                self.going_on_by_itself = False
        else:
            await self._continue.wait()
        self._presenting_quietly(self._presenting())

    def _act(self, command: Command) -> bool:
        """Give the feed this seat's command; False (and a warning) when it
        is refused.

        A feed that can take a move without waiting (a session worker's
        replica of the room, `ReplicaFeed.send`) is given it so: the
        screen stays as it is until the move's events come back, as
        another seat's do, or its refusal comes (`_answered_later`); a
        move made meanwhile is ignored, as keys are while presenting."""
        if self._moving:
            return True
        if isinstance(command, Play) and command.claimed is None and self._claims_pegging():
            self._ask_pegging(command.card)
            return True
        send = self.feed.send
        try:
            if send is not None and send(command, self._answer_for(command)):
                self._moving, self._moved_in = True, contextvars.copy_context()
                return True
            self.feed.dispatch(command)
        except IllegalMove as exc:
            self._refused(command, str(exc))
            return False
        except Exception as exc:
            # The card room's own refusals ("that table is gone"), which its
            # feed names, so that the local game never imports the room.
            if not isinstance(exc, self.feed.room_errors):
                raise
            self.notify(str(exc), severity="warning", markup=False)
            return False
        self._start_driver()
        return True

    def _claims_pegging(self) -> bool:
        """You say what your cards score in the play (muggins with pegging
        claims): a card is played once its claim is given."""
        rules = self.view.rules
        return rules.muggins and rules.pegging_claims and self.view.phase == Phase.PLAY

    def _ask_pegging(self, card: Card) -> None:
        """Ask what `card` scores, then play it with that claim; Escape
        leaves the card in hand, to choose another."""
        from crib3.engine.events import STRICT
        from crib3.tui.screens.dialogs import AskPegging

        def answered(points: int | None) -> None:
            if points is not None and self.is_attached:
                self._act(Play(self.me, card, points))

        view = self.view
        self.app.push_screen(AskPegging(card, view.count + card.value, self.ascii,
                                        strict=view.rules.muggins_rule == STRICT), answered)

    def _refused(self, command: object, reason: str) -> None:
        said = refusal(command, self.view, reason, self.ascii)
        if said is not None:  # (None: overtaken by a move still on its way, nothing to say)
            self.notify(said, severity="warning", markup=False)

    def _answer_for(self, command: Command) -> Callable[[str | None], None]:
        """What the feed calls when the room has answered `command` (from
        the worker's reader, so a refusal is shown in turn, on the screen's
        own queue: after the events that came before it)."""

        def answered(refused: str | None) -> None:
            self._moving, self._moved_in = False, None
            if refused is not None:
                self.call_later(self._answered_later, command, refused)

        return answered

    def _answered_later(self, command: object, reason: str) -> None:
        """The room refused a move sent without waiting: say why, and ask
        again (the prompt, or the count's dialog), as `_act` does at once."""
        if not self.is_attached:
            return
        self._refused(command, reason)
        if self.mode in IDLE:
            self._start_driver()

    def _ask_if_needed(self) -> None:
        """Counting (muggins) and calling muggins are asked in a dialog."""
        from crib3.tui.screens.dialogs import asked_in_show

        dialog = asked_in_show(self.view, self.ascii)
        if dialog is not None:
            self._show_what_is_counted()
            self.app.push_screen(dialog, self._answered)

    def _show_what_is_counted(self) -> None:
        """Your count asked: the hand panel shows the cards you count (not
        the hand counted before yours, still drawn there)."""
        view = self.view
        if view.counting is None or view.counting[0] != self.me or not view.counting_cards \
                or view.starter is None or view.muggins_pending is not None:
            return
        whose = Voice(view).whose(self.me, start=True)
        self.table_view.hand.showing = ShownCount(
            f"{whose} {'crib' if view.counting[1] else 'hand'}", view.counting_cards,
            view.starter, frozenset())

    def _answered(self, answer: bool | int | None) -> None:
        """A muggins call (bool) or a count (int; None: asked again)."""
        if isinstance(answer, bool):
            self._act(Muggins(self.me, answer))
        elif answer is None or not self._act(Count(self.me, answer)):
            self._ask_if_needed()

    # --- keys ------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        mode, phase = self.mode, self.view.phase
        if action in ("next", "skip_show"):
            return mode in ENTER_GOES_ON and (action == "next" or self.shown.phase == Phase.SHOW)
        if action in _CARD_KEYS:
            return mode == Mode.YOUR_TURN and phase == _CARD_KEYS[action]
        if action in ("move", "pick", "coach"):
            return mode == Mode.YOUR_TURN and phase in (Phase.DISCARD, Phase.PLAY)
        if action == "take_back":
            return self.takebacks and self.view.can_take_back and mode in _TAKE_BACK_MODES
        if action == "no_take_back":  # u when there is nothing to take back: one line why
            return self.takebacks and not self.check_action("take_back", ())
        if action in ("throw_number", "play_number"):  # the footer's "1-5", by phase
            return mode == Mode.YOUR_TURN and phase == (
                Phase.DISCARD if action == "throw_number" else Phase.PLAY)
        return True

    def _key_states(self) -> list[object]:
        """The keys' states, and the card keys as the footer says them
        ("1-3"): a card played on your turn changes that alone when the
        turn comes back to you with no other mode drawn between."""
        return [*super()._key_states(), self.key_shown(Binding("1", "play_number(1)"))]

    def key_shown(self, binding: Binding) -> str | None:
        """The footer's card keys as the prompt says them: the numbers of
        the cards in hand ("1-3", or "1" for the last card)."""
        if binding.action not in ("throw_number(1)", "play_number(1)"):
            return None
        try:
            held = len(self.table_view.hand.cards())
        except NoMatches:
            return None
        return None if held < 1 else "1" if held == 1 else f"1-{held}"

    def action_move(self, step: int) -> None:
        self.table_view.hand.move(step)

    def action_pick(self, number: int) -> None:
        """A number key: throw or play that card at once (a card that may
        not be played is refused as Enter would refuse it, and stays
        highlighted)."""
        hand = self.table_view.hand
        if number <= len(hand.cards()):
            hand.cursor = number - 1
            self.action_confirm()

    action_throw_number = action_play_number = action_pick

    def on_hand_view_picked(self, message: HandView.Picked) -> None:
        """A click on a card in the hand: as its number key, when that key
        would be taken now."""
        if self.check_action("pick", (message.number,)):
            self.action_pick(message.number)

    def action_confirm(self) -> None:
        """Enter: go on, or throw / play the highlighted card, or cut."""
        if self.mode in ENTER_GOES_ON:
            self._continue.set()
            return
        view, card = self.view, self.table_view.hand.selected
        if self.mode != Mode.YOUR_TURN:
            return
        if view.phase == Phase.CUT_STARTER:
            depths = [c.depth for c in view.legal if isinstance(c, CutStarter)]
            self._act(CutStarter(self.me, self.rng.choice(depths)))
        elif card is not None and view.phase in (Phase.DISCARD, Phase.PLAY):
            self._act((Discard if view.phase == Phase.DISCARD else Play)(self.me, card))

    # One key, Enter, under four names: the footer says what it does now.
    action_next = action_throw = action_play_card = action_cut = action_confirm

    def action_skip_show(self) -> None:
        if self.mode in ENTER_GOES_ON and self.shown.phase == Phase.SHOW:
            self.skipped_hand = self.shown.hand_number
            self._continue.set()

    def action_no_take_back(self) -> None:
        """u with nothing to take back says so, with the rule, rather than
        nothing at all (a player who pressed it after the cut wonders)."""
        self.notify(NOTHING_TO_TAKE_BACK, severity="information", markup=False)

    def action_take_back(self) -> None:
        """u: take back your last throw or play, and what the computer
        players did after it; you choose again (see `TakenBack` for what
        may be taken back, and why a throw only until the starter is cut).

        The driver is stopped first, so no bot's move (one thinking now, its
        answer still to come from its worker) lands after the take-back;
        the events after your decision that were still waiting to be shown
        are dropped unshown (they are undone), and the take-back itself is
        presented, which puts the table back as it stood."""
        if not self.check_action("take_back", ()):
            return
        if self._driver is not None:
            self._driver.cancel()
        command = TakeBack(self.me)
        try:
            self.feed.dispatch(command)
        except IllegalMove as exc:
            self._refused(command, str(exc))
            self._start_driver()
            return
        while self.pending and not isinstance(self.pending[0][0], ev.TakenBack):
            self.pending.popleft()
            self.presented += 1  # (passed over: undone before it was shown)
        self._start_driver()

    def action_coach(self) -> None:
        from crib3.tui.screens.dialogs import CoachScreen

        self.app.push_screen(CoachScreen(self.view, self.ascii), self._after_coach)

    def _after_coach(self, key: str | None) -> None:
        """The coach closed with one of the table's keys: the table does
        what that key does here (the footer under the coach offers them)."""
        if key is None:
            return
        if key.isdigit():
            if self.check_action("pick", (int(key),)):
                self.action_pick(int(key))
        elif key == "enter":
            if self.mode == Mode.YOUR_TURN:
                self.action_confirm()
        elif key == "q":
            self._crib_app().action_quit_game()
        elif key == "question_mark":
            self._crib_app().action_help()
        elif key == "f":
            self.action_toggle_feed()

    def _crib_app(self) -> BaseApp:
        """The app, as the table is shown in: a crib3 app, with its keys
        (not checked: a test may show the table in a plain `App`)."""
        return cast("BaseApp", self.app)

    def action_toggle_feed(self) -> None:
        """f: the feed shown or hidden; shown again, at its newest lines."""
        if self._toggle_feed():
            self.query_one("#feed", Feed).show_newest()

    def _toggle_feed(self) -> bool:
        """Show the feed, or hide it; whether it is shown now."""
        beside = self.has_class("wide") or self.has_class("huge")
        self.toggle_class("feed-off" if beside else "feed-on")
        return not self.has_class("feed-off") if beside else self.has_class("feed-on")

    def action_read_feed(self, how: str) -> None:
        """Read the feed back (PageUp, ↑...): the whole game so far, opened
        first where it is not shown (at 80 columns, in the place of the
        last lines), the card keys untouched."""
        feed = self.query_one("#feed", Feed)
        if feed.display:
            feed.read(how)
            return
        self._toggle_feed()
        feed.read_back(how)

    def action_last_count(self) -> None:
        """p: the last count's cards, cleared from the table, until a key."""
        from crib3.tui.screens.looking_back import LastCountScreen

        self.app.push_screen(LastCountScreen(self.view, self.last_plays, self.ascii))


def show_left_unseen(so_far: list[tuple[Event, State, SeatView]], me: int) -> int:
    """Where a game opened where it stood goes on presenting: from the
    first count of the last show in it, when this seat has not moved since
    (the game was left, or the connection lost, while that show was being
    presented: it is shown again from its first count, paced as it was);
    else after the last event (everything at once).

    The log cannot say how far the show had been presented, only that this
    seat had not yet thrown in the next hand: a game left at the next
    hand's discard, before a throw, shows that show once more."""
    first_count: int | None = None
    for at, (event, _, _) in enumerate(so_far):
        if isinstance(event, ev.HandCounted):
            if first_count is None:
                first_count = at
        elif isinstance(event, ev.HandEnded) and first_count is not None:
            # the show is over; the next hand's cards may have been dealt
            continue
        elif isinstance(event, ev.DeckShuffled):
            continue  # (the next hand's shuffle and deal, after a show)
        elif isinstance(event, ev.CardsDealt):
            continue
        elif isinstance(event, (ev.MugginsCalled, ev.MugginsDeclined)) or (
                isinstance(event, ev.ClaimRefused) and event.card is None):
            continue  # (part of the show: a call, or a count claimed too high)
        elif isinstance(event, ev.CardDiscarded) and event.seat != me:
            continue  # another seat threw first (a card room's)
        else:
            first_count = None  # this seat moved, or a new hand's play is under way
    return len(so_far) if first_count is None else first_count


def _failed(app: App[object], task: asyncio.Task[None], screen: Screen[Any]) -> None:
    """A driver that failed ends the app, as a Textual worker's failure does
    (the command then says what happened in one line).

    Except a widget not found on a screen that is being taken down: the
    driver may be between two awaits of a presentation when its session
    ends (a card room closing, a player leaving) and look for a seat panel
    already removed before its cancellation arrives. That is the end it
    was going to have anyway, not an error to log as unexpected."""
    if task.cancelled():
        return
    exc = task.exception()
    if exc is None or isinstance(exc, NoMatches) and going_away(app, screen):
        return
    fail_app(app, exc)

