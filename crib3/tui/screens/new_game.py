"""The new-game screen: your name, the opponents, the optional rules, a seed."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static

from crib3.levels import BOT_LEVELS
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.names import MAX_LENGTH, check_name
from crib3.tui.settings import GameChoices
from crib3.tui.widgets.footer import TidyFooter
from crib3.tui.css import STYLESHEET

LEVEL_HINTS = {
    "easy": "plays any legal card",
    "standard": "best hand, greedy pegging",
    "expert": "weighs the crib, looks ahead",
}


class OptionRow(Widget, can_focus=True):
    """A labelled choice changed with ←/→ (or space): "Left  ◀ expert ▶"."""

    DEFAULT_CSS = """
    OptionRow { height: 1; width: 1fr; padding: 0 1; }
    OptionRow:focus { background: $boost; text-style: bold; }
    """
    BINDINGS = [
        Binding("left", "step(-1)", "Change", show=False),
        Binding("right,space", "step(1)", "Change"),
    ]

    index: reactive[int] = reactive(0)

    class Changed(Message):
        def __init__(self, row: OptionRow) -> None:
            super().__init__()
            self.row = row

    def __init__(self, label: str, options: Sequence[str], value: str,
                 hints: dict[str, str] | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.label = label
        self.options = list(options)
        self.hints = hints or {}
        self.index = self.options.index(value) if value in self.options else 0

    @property
    def value(self) -> str:
        return self.options[self.index]

    def action_step(self, step: int) -> None:
        self.index = (self.index + step) % len(self.options)
        self.post_message(self.Changed(self))

    def render(self) -> Text:
        text = Text(f"{self.label:<16}")
        text.append("◀ ", style="dim")
        text.append(f"{self.value:<9}", style="bold")
        text.append(" ▶", style="dim")
        hint = self.hints.get(self.value)
        if hint:
            text.append(f"  {hint}", style="italic dim")
        return text


class NewGameScreen(Screen[GameChoices | Path]):
    """Asks for the game's set-up; dismisses with the choices on Enter, or
    with the path of an unfinished game to resume on r."""

    BINDINGS = [
        Binding("enter", "start", "Start"),
        Binding("r", "resume", "Resume", show=False),
        Binding("t", "app.stats", "Statistics"),
        Binding("down", "app.focus_next", "Next", show=False),
        Binding("up", "app.focus_previous", "Previous", show=False),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("q,escape", "app.quit", "Quit"),
    ]
    CSS_PATH = STYLESHEET

    def __init__(self, choices: GameChoices) -> None:
        super().__init__()
        self.choices = choices
        self.unfinished: Path | None = None

    def compose(self) -> ComposeResult:
        c = self.choices
        with Vertical():
            yield Static("crib3 · three-handed cribbage", classes="title")
            yield Static("Your name", classes="label")
            yield Input(c.name, placeholder="your name", id="name", max_length=MAX_LENGTH)
            yield OptionRow("Left opponent", BOT_LEVELS, c.left, LEVEL_HINTS, id="left")
            yield OptionRow("Right opponent", BOT_LEVELS, c.right, LEVEL_HINTS, id="right")
            yield OptionRow("Skunks", ("off", "on"), "on" if c.skunks else "off", id="skunks")
            yield OptionRow("Muggins", ("off", "on"), "on" if c.muggins else "off",
                            {"on": "you count your own hands"}, id="muggins")
            yield OptionRow("Game", ("121", "61"), "61" if c.short else "121",
                            {"61": "the short game"}, id="short")
            yield Static("Seed (blank for a new shuffle)", classes="label")
            yield Input("" if c.seed is None else str(c.seed), placeholder="random",
                        type="integer", id="seed")
            yield Static(in_words("↑/↓ move · ←/→ change · Enter start", app_is_ascii(self)),
                         classes="hint")
            yield Static("", id="unfinished", classes="hint", markup=False)  # a file's name
        yield TidyFooter()

    def on_mount(self) -> None:
        self.query_one("#left", OptionRow).focus()
        # After the first frame: the scan's thread (and its imports) would
        # hold the GIL while the screen is drawn for the first time.
        self.call_after_refresh(self.run_worker, self._find_unfinished, thread=True,
                                group="unfinished")

    def _find_unfinished(self) -> None:
        """Look for a game to resume, after the screen is up (reading the
        saved games must not slow the first screen). The scan stops as soon
        as the worker is cancelled (q quits at once: the app waits for its
        threads), and reads each log's first lines and end only."""
        from textual.worker import get_current_worker

        from crib3.saved import latest_unfinished, read_saved

        worker = get_current_worker()
        path = latest_unfinished(cancelled=lambda: worker.is_cancelled)
        if path is None or worker.is_cancelled:
            return
        seen = read_saved(path)
        scores = "-".join(str(x) for x in seen.scores)
        line = (f"r: resume your unfinished game ({path.stem[:10]}, hand "
                f"{seen.hand_number}, {scores})")
        if seen.problem:
            line = f"r: resume your unfinished game ({path.stem[:10]}, damaged near the end)"
        self.app.call_from_thread(self._offer, path, line)

    def _offer(self, path: Path, line: str) -> None:
        self.unfinished = path
        notice = self.query_one("#unfinished", Static)
        notice.update(line)
        notice.add_class("offered")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":
            return self.unfinished is not None
        return True

    def action_resume(self) -> None:
        if self.unfinished is not None:
            self.dismiss(self.unfinished)  # type: ignore[arg-type]

    def on_input_submitted(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        typed = self.query_one("#name", Input).value
        try:
            name = check_name(typed) if typed.strip() else "You"
        except ValueError as exc:  # a pasted control character, say
            self.notify(f"Your name: {exc}.", severity="warning", markup=False)
            return
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            self.notify("The seed is a whole number, or blank.", severity="warning")
            return
        choices = GameChoices(
            name=name,
            left=self.query_one("#left", OptionRow).value,
            right=self.query_one("#right", OptionRow).value,
            skunks=self.query_one("#skunks", OptionRow).value == "on",
            muggins=self.query_one("#muggins", OptionRow).value == "on",
            short=self.query_one("#short", OptionRow).value == "61",
            seed=seed,
        )
        self.dismiss(choices)
