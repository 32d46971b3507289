"""Replay: a saved game stepped through in the widgets of the table.

What is on screen is a function of (event number, viewpoint) alone, so a
step back draws exactly what was drawn going forwards.

With the coach on (`c`, `crib3 replay --coach`, or `r` on the result
screen) the replay is also a review (`crib3.study.review`): beside each
decision of the reviewed seat, what it cost and the coach's ranking from
that seat's own view; the cost on the feed; `n`/`p` to the next or previous
costly decision, `t` to change what counts as costly. Face up, the people
at the table are reviewed; in one seat's view (`v`), that seat alone, so
the coach shows only what that seat could see. The review is worked out
off the event loop, once a seat, and kept.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from crib3.common.names import shown_name
from crib3.engine import Event, project, redact
from crib3.engine.state import Phase
from crib3.saved.replay import Replay
from crib3.study.review import Decision, Review, review_events, reviewed_seats
from crib3.tui.css import STYLESHEET
from crib3.tui.screens.review_words import (
    THRESHOLDS,
    coach_panel,
    coach_rows,
    cost_words,
    review_status,
    wrapped,
)
from crib3.tui.widgets.footer import TidyFooter
from crib3.tui.widgets.table_view import TableView, opponents
from crib3.words.narrate import describe

SPEEDS = (2.0, 1.0, 0.5, 0.25, 0.1)  # seconds per event in autoplay


class GoTo(ModalScreen[int | None]):
    """Ask for an event number."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    CSS_PATH = STYLESHEET

    def __init__(self, last: int) -> None:
        super().__init__()
        self.last = last

    def compose(self) -> ComposeResult:
        yield Input(placeholder=f"event 1 to {self.last}", type="integer")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        try:
            self.dismiss(int(event.value))
        except ValueError:
            self.dismiss(None)


class ReplayScreen(Screen[None]):
    """Every hand face up by default; `v` switches to one seat's view."""

    BINDINGS = [
        Binding("right", "step(1)", "Next", key_display="→"),
        Binding("left", "step(-1)", "Back", key_display="←"),
        Binding("right_square_bracket", "hand(1)", "Hand", key_display="]"),
        Binding("left_square_bracket", "hand(-1)", "Hand back", key_display="[", show=False),
        Binding("home", "jump('start')", "Start", show=False),
        Binding("end", "jump('end')", "End", show=False),
        Binding("g", "go_to", "Go to"),
        Binding("space", "autoplay", "Play/pause"),
        Binding("plus,equals_sign", "speed(1)", "Faster", key_display="+", show=False),
        Binding("minus", "speed(-1)", "Slower", key_display="-", show=False),
        Binding("v", "viewpoint", "View"),
        Binding("c", "coach", "Coach", show=False),  # the status line offers it: room for q
        Binding("n", "costly(1)", "Next costly", show=False),
        Binding("p", "costly(-1)", "Previous costly", show=False),
        Binding("t", "threshold", "Threshold", show=False),
        Binding("q,escape", "leave", "Quit"),
        # (opened from another screen, q closes it, back to that screen)
        Binding("q,escape", "back", "Close"),
    ]
    CSS_PATH = STYLESHEET
    # The table grows with the terminal as at play (see crib3.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "narrow"), (180, "huge")]
    VERTICAL_BREAKPOINTS = [(0, "short"), (34, "tall"), (50, "taller")]

    def __init__(self, replay: Replay, ascii: bool = False, start: int = 0,
                 coach: bool = False, leave_back: bool = False) -> None:
        """`coach`: open with the review on; `leave_back`: q goes back to the
        screen below (the result screen) instead of quitting."""
        super().__init__()
        self.replay = replay
        self.ascii = ascii
        self.index = replay.clamp(start)
        self.viewpoint: int | None = None  # None: every hand face up
        self.speed = 1
        self.autoplaying = False
        self._timer: Timer | None = None
        self.coach_on = coach
        self.leave_back = leave_back
        self.reviews: dict[int, Review] = {}  # by seat, once worked out
        self.decisions: dict[int, Decision] = {}  # by event index, every reviewed seat
        self.threshold = THRESHOLDS[1]
        self._reviewing: set[int] = set()
        self._status_lines = 1

    def compose(self) -> ComposeResult:
        yield TableView(0, self.ascii, interactive=False)
        yield Static("", id="coach", markup=False)
        yield Static("", id="status", markup=False)  # names: plain text, never markup
        yield Static("", id="recent", markup=False)
        yield TidyFooter()

    def on_mount(self) -> None:
        self.show(self.index)

    # --- drawing ------------------------------------------------------------------

    def show(self, index: int) -> None:
        """Draw the table as it stood after event `index`: with a viewpoint,
        exactly what that seat saw when it was played (its hand at the
        bottom, the others' cards hidden, the event as it was told to it)."""
        replay = self.replay
        self.index = index = replay.clamp(index)
        state = replay.states[index]
        seen_by = self.viewpoint
        table = self.query_one(TableView)
        bottom = 0 if seen_by is None else seen_by
        if table.me != bottom:
            table.seat_at_bottom(bottom)
        revealed = None
        view = project(state, bottom)
        if seen_by is None:  # face up means face up: the hands, the discards, the crib
            if state.phase in (Phase.DISCARD, Phase.CUT_STARTER, Phase.PLAY):
                revealed = {seat: state.hands[seat] for seat in opponents(bottom)}
            if state.crib and view.crib is None:
                view = view._replace(crib=tuple(state.crib))
        table.show(view, revealed)
        told = self._told(replay.events[index])
        table.announce(describe(told, state, self.ascii) or "")
        earlier = [describe(self._told(e), s, self.ascii)
                   for e, s in zip(replay.events[max(0, index - 2):index],
                                   replay.states[max(0, index - 2):index])]
        if self.coach_on:  # the cost on the feed, after each reviewed decision
            first = max(0, index - 2)
            earlier = [f"{line} · {cost_words(self.decisions[first + i].cost)}"
                       if line and self._decision_at(first + i) is not None else line
                       for i, line in enumerate(earlier)]
        self.query_one("#recent", Static).update("\n".join(x for x in earlier if x))
        self._update_status()  # first: the coach has the rows the status line leaves
        self._update_coach()

    def _told(self, event: Event) -> Event:
        """`event` as it is told here: whole when every hand is face up (a
        discard names its card), else as the viewpoint's seat was told it."""
        return event if self.viewpoint is None else redact(event, self.viewpoint)

    def _update_status(self) -> None:
        replay = self.replay
        hand = replay.hand_of(self.index)
        who = "face up" if self.viewpoint is None else \
            f"{shown_name(replay.states[self.index].name(self.viewpoint), 16)}'s view"
        play = f" · autoplay {SPEEDS[self.speed]:g}s" if self.autoplaying else ""
        hand_text = f"hand {hand} of {replay.hands}" if hand else "the cut for deal"
        review = " · c: the coach"
        if self.coach_on:
            seats = self._coach_seats()
            names = ", ".join(shown_name(replay.states[-1].name(s), 12) for s in seats)
            review = " · " + review_status(len(self._costly()), self.threshold, names,
                                           busy=any(s not in self.reviews for s in seats))
        # Said short ("event 38/431", "face up"), and on a second line rather
        # than cut when the names make it longer than the screen is wide.
        said = wrapped(Text(f"{hand_text} · event {self.index + 1}/{len(replay)} · "
                            f"{who}{play}{review}"), self._line_width())
        self._status_lines = len(said)
        self.query_one("#status", Static).update(Text("\n").join(said))

    def _line_width(self) -> int:
        """The columns of a line under the table (the screen's, less the padding)."""
        return max(20, self.app.size.width - 2)

    # --- the coach looks back -----------------------------------------------------------

    def _coach_seats(self) -> list[int]:
        """Whose decisions the coach speaks of: in a seat's view that seat
        only (nothing else is that seat's to see), face up the people."""
        if self.viewpoint is not None:
            return [self.viewpoint]
        return reviewed_seats(self.replay.states[-1].players)

    def _decision_at(self, index: int) -> Decision | None:
        decision = self.decisions.get(index)
        if decision is not None and decision.seat in self._coach_seats():
            return decision
        return None

    def _costly(self) -> list[int]:
        """The event indexes of the shown seats' costly decisions, in order."""
        seats = self._coach_seats()
        return sorted(i for i, d in self.decisions.items()
                      if d.seat in seats and d.cost >= self.threshold)

    def _update_coach(self) -> None:
        panel = self.query_one("#coach", Static)
        self.set_class(self.coach_on, "coach-on")
        self.remove_class("coach-tall")
        if not self.coach_on:
            return
        self._review_missing()
        decision = self._decision_at(self.index)
        if decision is None:
            if any(s not in self.reviews for s in self._coach_seats()):
                panel.update("coach: looking at the decisions…")
            else:
                panel.update("coach: n and p go to the next and previous costly decision")
            return
        # A row of the lines under it left to them (a decision's cost on
        # them), unless the coach's words need it (then they give it up).
        rows, room = coach_rows(self, self._status_lines + 1)
        name = self.replay.states[-1].name(decision.seat)
        said = coach_panel(decision, name, self.threshold, self.ascii, rows, self._line_width(),
                           room)
        needs_more = rows <= 2 and len(said.split()) > room
        if needs_more:
            room += 1
            said = coach_panel(decision, name, self.threshold, self.ascii, rows,
                               self._line_width(), room)
        self.set_class(needs_more, "coach-tall")
        panel.styles.max_height = room
        panel.update(said)

    def _review_missing(self) -> None:
        """Start working out the review of every shown seat not yet done."""
        missing = [s for s in self._coach_seats()
                   if s not in self.reviews and s not in self._reviewing]
        if not missing:
            return
        self._reviewing.update(missing)
        events = list(self.replay.events)

        def work() -> None:
            worker = get_current_worker()
            for seat in missing:
                review = review_events(events, seat)
                if worker.is_cancelled:
                    return
                self.app.call_from_thread(self._reviewed, review)

        self.run_worker(work, thread=True, group="review", exit_on_error=False)

    def _reviewed(self, review: Review) -> None:
        if not self.is_attached:  # left (q back to the result) while the coach worked
            return
        self.reviews[review.seat] = review
        self._reviewing.discard(review.seat)
        for decision in review.decisions:
            self.decisions[decision.index] = decision
        self.show(self.index)

    @property
    def reviewing(self) -> bool:
        """Whether the coach is still working a review out (for tests)."""
        return bool(self._reviewing)

    # --- keys --------------------------------------------------------------------------

    def action_step(self, step: int) -> None:
        self.show(self.index + step)

    def action_hand(self, step: int) -> None:
        replay = self.replay
        self.show(replay.next_hand(self.index) if step > 0 else replay.previous_hand(self.index))

    def action_jump(self, where: str) -> None:
        self.show(0 if where == "start" else len(self.replay) - 1)

    def action_go_to(self) -> None:
        def chosen(number: int | None) -> None:
            if number is not None:
                self.show(number - 1)

        self.app.push_screen(GoTo(len(self.replay)), chosen)

    def action_coach(self) -> None:
        self.coach_on = not self.coach_on
        self.show(self.index)

    def action_costly(self, step: int) -> None:
        """To the next (1) or previous (-1) costly decision of the shown seats."""
        if not self.coach_on:
            self.action_coach()
        costly = self._costly()
        later = [i for i in costly if (i > self.index if step > 0 else i < self.index)]
        if not later:
            self.app.bell()
            # Said, not only rung: many terminals make no sound.
            where = "after" if step > 0 else "before"
            if self.reviewing:
                self.notify("The coach is still looking at the decisions.", timeout=3)
                return
            self.notify(f"No costly decision {where} this one ({len(costly)} in all at "
                        f"{self.threshold:g}+ points; t changes what counts).",
                        timeout=4, markup=False)
            return
        self.show(later[0] if step > 0 else later[-1])

    def action_threshold(self) -> None:
        """What counts as costly: the next of THRESHOLDS, round and round."""
        self.threshold = THRESHOLDS[(THRESHOLDS.index(self.threshold) + 1) % len(THRESHOLDS)]
        if not self.coach_on:
            self.action_coach()
        else:
            self.show(self.index)

    def action_leave(self) -> None:
        self.app.exit()

    def action_back(self) -> None:
        self.dismiss(None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """q (and Escape) quits a replay opened on its own, and goes back
        to the screen below one opened from another (`leave_back`): one of
        the two bindings is offered, with the word for what it does."""
        if action == "leave":
            return not self.leave_back
        if action == "back":
            return self.leave_back
        return True

    def action_viewpoint(self) -> None:
        order = [None, 0, 1, 2]
        self.viewpoint = order[(order.index(self.viewpoint) + 1) % len(order)]
        self.show(self.index)

    def action_speed(self, step: int) -> None:
        self.speed = max(0, min(len(SPEEDS) - 1, self.speed + step))
        if self.autoplaying:
            self._start_timer()
        self._update_status()

    def action_autoplay(self) -> None:
        self.autoplaying = not self.autoplaying
        if self.autoplaying:
            self._start_timer()
        elif self._timer is not None:
            self._timer.stop()
        self._update_status()

    def _start_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_interval(SPEEDS[self.speed], self._tick)

    def _tick(self) -> None:
        if self.index >= len(self.replay) - 1:
            self.action_autoplay()  # stop at the end
            return
        self.show(self.index + 1)
