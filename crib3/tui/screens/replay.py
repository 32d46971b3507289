"""Replay: a saved game stepped through in the widgets of the table.

What is on screen is a function of (event number, viewpoint) alone, so a
step back draws exactly what was drawn going forwards.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import ModalScreen, Screen
from textual.widgets import Input, Static

from crib3.engine import Event, project, redact
from crib3.engine.state import Phase
from crib3.names import shown_name
from crib3.narrate import describe
from crib3.replay import Replay
from crib3.tui.css import STYLESHEET
from crib3.tui.widgets.footer import TidyFooter
from crib3.tui.widgets.table_view import TableView, opponents

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
        Binding("q,escape", "app.quit", "Quit"),
    ]
    CSS_PATH = STYLESHEET

    def __init__(self, replay: Replay, ascii: bool = False, start: int = 0) -> None:
        super().__init__()
        self.replay = replay
        self.ascii = ascii
        self.index = replay.clamp(start)
        self.viewpoint: int | None = None  # None: every hand face up
        self.speed = 1
        self.autoplaying = False
        self._timer = None

    def compose(self) -> ComposeResult:
        yield TableView(0, self.ascii, interactive=False)
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
        self.query_one("#recent", Static).update("\n".join(x for x in earlier if x))
        self._update_status()

    def _told(self, event: Event) -> Event:
        """`event` as it is told here: whole when every hand is face up (a
        discard names its card), else as the viewpoint's seat was told it."""
        return event if self.viewpoint is None else redact(event, self.viewpoint)

    def _update_status(self) -> None:
        replay = self.replay
        hand = replay.hand_of(self.index)
        who = "all hands face up" if self.viewpoint is None else \
            f"{shown_name(replay.states[self.index].name(self.viewpoint), 16)}'s view"
        play = f" · autoplay {SPEEDS[self.speed]:g}s" if self.autoplaying else ""
        hand_text = f"hand {hand} of {replay.hands}" if hand else "the cut for deal"
        self.query_one("#status", Static).update(
            f"{hand_text} · event {self.index + 1} of {len(replay)} · {who}{play}")

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
