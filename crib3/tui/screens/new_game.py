"""The new-game screen: your name, the opponents, the optional rules, what
the table does for you (a go, a forced card, going on after a count), a seed."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, Static

from crib3.common.levels import BOT_LEVELS
from crib3.common.names import MAX_LENGTH, check_name
from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.css import STYLESHEET
from crib3.tui.settings import MUGGINS_RULE_NAMES, GameChoices
from crib3.tui.textual_compat import css_update_count
from crib3.tui.widgets.footer import TidyFooter

# The pace of the computer players: seconds a move, as `--think` takes them.
PACES = {0.0: "at once", 0.3: "brisk", 0.6: "steady", 1.0: "unhurried", 2.0: "slow"}


def pace_label(seconds: float) -> str:
    return f"{seconds:g} s"


def pace_options(current: float) -> tuple[list[str], dict[str, str]]:
    """The pace row's choices and hints, with `current` among them (a
    `--think` of 0.45 is offered as itself)."""
    paces = sorted({*PACES, current})
    return [pace_label(p) for p in paces], {pace_label(p): PACES.get(p, "your own")
                                           for p in paces}


# What the table does for you: the go when no card can be played, and your
# only playable card (GameChoices.auto_go, auto_play).
FOR_ME = {"go + card": (True, True), "go": (True, False), "nothing": (False, False)}
FOR_ME_HINTS = {"go + card": "a go, and your one playable card",
                "go": "a go when you cannot play",
                "nothing": "you say go, play every card"}


def for_me_label(go: bool, card: bool) -> str:
    return "go + card" if go and card else "go" if go else "nothing"


# After a count in the show: seconds until the next, or Enter (0).
CONTINUE_AFTER = (0.0, 2.0, 4.0)


def continue_label(seconds: float) -> str:
    return "Enter" if not seconds else f"{seconds:g} s"


def continue_options(current: float) -> tuple[list[str], dict[str, str]]:
    """The row's choices and hints, with `current` among them (a wait
    from the settings file that is none of these is offered as itself)."""
    waits = sorted({*CONTINUE_AFTER, current})
    labels = [continue_label(w) for w in waits]
    return labels, {label: "waits for Enter" if label == "Enter" else "then goes on; Enter sooner"
                    for label in labels}


def continue_seconds(label: str) -> float:
    return 0.0 if label == "Enter" else float(label.split()[0])


LEVEL_HINTS = {
    "easy": "plays any legal card",
    "standard": "best hand, greedy pegging",
    "expert": "weighs the crib, looks ahead",
}


# The muggins row: off, or a muggins rule (crib3.engine.events.MUGGINS_RULES:
# what a claim too high costs), "+" when you claim your pegging too. One row,
# as every row of 80x24 is used; a hint fits in 32 columns.
MUGGINS: dict[str, tuple[bool, str, bool]] = {  # muggins, its rule, pegging claims
    "off": (False, MUGGINS_RULE_NAMES[0], False),
    "friendly": (True, "friendly", False),
    "strict": (True, "strict", False),
    "friendly+": (True, "friendly", True),
    "strict+": (True, "strict", True),
}
MUGGINS_HINTS = {
    "friendly": "you count; too high: count again",
    "strict": "you count; too high costs points",
    "friendly+": "hands, pegging; too high: again",
    "strict+": "hands, pegging; too high costs",
}


def muggins_label(choices: GameChoices) -> str:
    """The muggins row's value for the choices remembered."""
    if not choices.muggins:
        return "off"
    return choices.muggins_rule + ("+" if choices.pegging_claims else "")


def muggins_choices(label: str) -> tuple[bool, str, bool]:
    """Muggins, its rule and pegging claims, for the muggins row's value."""
    return MUGGINS.get(label, MUGGINS["off"])


class OptionRow(Widget, can_focus=True):
    """A labelled choice changed with ←/→ (or space): "Left  ◀ expert ▶"."""

    # The focused row is drawn reversed and marked "▶": plain to see in any
    # theme, with NO_COLOR (reverse is not a colour) and in --ascii (">").
    DEFAULT_CSS = """
    OptionRow { height: 1; width: 1fr; padding: 0 1; }
    OptionRow:focus { text-style: bold; }
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
                 hints: dict[str, str] | None = None, **kwargs: Any) -> None:
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

    def on_focus(self) -> None:
        self.refresh()  # the marker is drawn in `render`

    def on_blur(self) -> None:
        self.refresh()

    def render(self) -> Text:
        # Focused: every part reversed, whatever its own style (NO_COLOR keeps it).
        on = " reverse" if self.has_focus else ""
        text = Text("▶ " if self.has_focus else "  ", style=on.strip())
        text.append(f"{self.label:<15}", style=on.strip())
        text.append("◀ ", style="dim" + on)
        text.append(f"{self.value:<9}", style="bold" + on)
        text.append(" ▶", style="dim" + on)
        hint = self.hints.get(self.value)
        if hint:
            text.append(f"  {hint}", style="italic dim" + on)
        return text


class NewGameScreen(Screen[GameChoices | Path]):
    """Asks for the game's set-up; dismisses with the choices on Enter, or
    with the path of an unfinished game to resume on r. As the app's first
    screen (its default screen, which cannot be dismissed) it hands them to
    `on_chosen` instead."""

    BINDINGS = [
        Binding("enter", "start", "Start", priority=True),  # in a text field too
        # Letters type letters in a text field (the name, the seed): the
        # commands are also on keys that no text field takes, and the footer
        # offers those. The letters still work on the option rows.
        Binding("ctrl+r", "resume", "Resume", show=False),
        Binding("ctrl+t", "app.stats", "Statistics"),
        Binding("r", "resume", "Resume", show=False),
        Binding("t", "app.stats", "Statistics", show=False),
        Binding("down", "app.focus_next", "Next", show=False),
        Binding("up", "app.focus_previous", "Previous", show=False),
        Binding("question_mark", "app.help", "Help", key_display="?"),
        Binding("ctrl+g", "app.rules", "How to play"),
        Binding("f1", "app.rules", "How to play", show=False),
        Binding("escape", "app.quit", "Quit"),
        Binding("q", "app.quit", "Quit", show=False),
    ]
    CSS_PATH = STYLESHEET

    def __init__(self, choices: GameChoices,
                 on_chosen: Callable[[GameChoices | Path], None] | None = None) -> None:
        super().__init__()
        self.choices = choices
        self.on_chosen = on_chosen
        self.unfinished: Path | None = None
        # The app's CSS as the widgets were styled at mount (on_screen_resume).
        self._styled_with: int | None = None

    def compose(self) -> ComposeResult:
        c = self.choices
        with Vertical():
            # The title and the name's label in one widget: each widget on
            # the first screen costs time to start, and these two are plain
            # text.
            yield Static(Content.assemble(("crib3 · three-handed cribbage", "bold $accent"),
                                          "\n\n Your name"),
                         classes="title", id="title")
            yield Input(c.name, placeholder="your name", id="name", max_length=MAX_LENGTH)
            yield OptionRow("Left opponent", BOT_LEVELS, c.left, LEVEL_HINTS, id="left")
            yield OptionRow("Right opponent", BOT_LEVELS, c.right, LEVEL_HINTS, id="right")
            yield OptionRow("Skunks", ("off", "on"), "on" if c.skunks else "off", id="skunks")
            yield OptionRow("Muggins", list(MUGGINS), muggins_label(c), MUGGINS_HINTS,
                            id="muggins")
            yield OptionRow("Game", ("121", "61"), "61" if c.short else "121",
                            {"61": "the short game"}, id="short")
            paces, hints = pace_options(c.think)
            yield OptionRow("Computer pace", paces, pace_label(c.think), hints, id="think")
            yield OptionRow("Play for me", list(FOR_ME), for_me_label(c.auto_go, c.auto_play),
                            FOR_ME_HINTS, id="for-me")
            waits, hints = continue_options(c.auto_continue)
            yield OptionRow("After a count", waits, continue_label(c.auto_continue), hints,
                            id="continue")
            yield Static("Seed (blank for a new shuffle)", classes="label")
            yield Input("" if c.seed is None else str(c.seed), placeholder="random",
                        type="integer", id="seed")
            yield Static(in_words("↑/↓ move · ←/→ change · Enter start", app_is_ascii(self)),
                         classes="hint")
            # "#unfinished" (a game to resume) is mounted when one is found.
        yield TidyFooter()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Shown the first time, the widgets were styled as they were mounted,
        a moment before: Textual's second styling of them all (a tenth of
        the time to the first screen) is skipped, unless the app's CSS has
        changed since (a theme, say: its count of CSS updates tells). Shown
        again later (after the statistics), it is styled as usual."""
        styled_with, self._styled_with = self._styled_with, None
        if styled_with is not None and styled_with == css_update_count(self.app):
            event.refresh_styles = False

    def on_mount(self) -> None:
        self._styled_with = css_update_count(self.app)
        # Your name first, all of it selected: typing replaces it.
        self.query_one("#name", Input).focus()
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

        from crib3.saved.games import latest_unfinished, read_saved

        worker = get_current_worker()
        path = latest_unfinished(cancelled=lambda: worker.is_cancelled)
        if path is None or worker.is_cancelled:
            return
        seen = read_saved(path)
        scores = "-".join(str(x) for x in seen.scores)
        line = (f"ctrl+r: resume your unfinished game ({path.stem[:10]}, hand "
                f"{seen.hand_number}, {scores})")
        if seen.problem:
            line = (f"ctrl+r: resume your unfinished game ({path.stem[:10]}, "
                    "damaged near the end)")
        self.app.call_from_thread(self._offer, path, line)

    def _offer(self, path: Path, line: str) -> None:
        self.unfinished = path
        # (markup off: the line holds a file's name)
        notice = Static(line, id="unfinished", classes="hint offered", markup=False)
        self.query_one(Vertical).mount(notice)
        self.add_class("offering")  # one line more: the box gives up its top blank (80x24)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "resume":
            return self.unfinished is not None
        return True

    def action_resume(self) -> None:
        if self.unfinished is not None:
            self._chosen(self.unfinished)

    def on_input_submitted(self) -> None:
        self.action_start()

    def action_start(self) -> None:
        focused = self.focused
        if isinstance(focused, Input):
            # Enter is the screen's before the field reads the keys typed
            # before it (a name typed or pasted in one burst with Enter was
            # lost): start once the field has read them.
            focused.call_later(self._start)
        else:
            self._start()

    def _start(self) -> None:
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
        muggins, muggins_rule, pegging_claims = muggins_choices(
            self.query_one("#muggins", OptionRow).value)
        choices = GameChoices(
            name=name,
            left=self.query_one("#left", OptionRow).value,
            right=self.query_one("#right", OptionRow).value,
            skunks=self.query_one("#skunks", OptionRow).value == "on",
            muggins=muggins, muggins_rule=muggins_rule, pegging_claims=pegging_claims,
            short=self.query_one("#short", OptionRow).value == "61",
            seed=seed,
            think=float(self.query_one("#think", OptionRow).value.split()[0]),
            auto_go=FOR_ME[self.query_one("#for-me", OptionRow).value][0],
            auto_play=FOR_ME[self.query_one("#for-me", OptionRow).value][1],
            auto_continue=continue_seconds(self.query_one("#continue", OptionRow).value),
        )
        self._chosen(choices)

    def _chosen(self, result: GameChoices | Path) -> None:
        if self.on_chosen is not None:
            self.on_chosen(result)
        else:
            self.dismiss(result)
