"""What every crib3 app has, at your own keyboard or at a card room.

`BaseApp` is the common part; `crib3.tui.app.Crib3App` (the local game:
new game, resume, replay, statistics, saving) and
`crib3.tui.room_app.CardRoomApp` (one SSH session at a card room) are its
two siblings, so neither has to switch off what only the other needs.

What lives here:
- the too-small notice, and the keys that still work behind it (quit, help);
- help, quitting (with a question while a game is on), the palette guard;
- the one line the command says when the app fails (`crash`), and the
  dropped traceback (`error_console`);
- ASCII mode and colour dropping as line filters, through Textual's public
  `get_line_filters` (a card room sets `no_color` from its client, not from
  the server's environment).
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from rich.console import Console
from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.events import Resize
from textual.filter import LineFilter, Monochrome, NoColor
from textual.geometry import Size
from textual.screen import Screen

from crib3.tui.ascii import ASCII_CSS, AsciiFilter, key_display
from crib3.tui.textual_compat import KeepsUnhandledErrors, native_ansi_color, timers_that_yield

if TYPE_CHECKING:
    from crib3.engine import Game

MIN_WIDTH, MIN_HEIGHT = 80, 24
# The keys that still work while the terminal is too small: quit and help.
KEYS_WHEN_SMALL = frozenset({"q", "ctrl+q", "ctrl+c", "question_mark"})



def _follow_the_terminals_own_size() -> None:
    """Textual sizes the screen by `shutil.get_terminal_size()`, which
    believes COLUMNS and LINES from the environment before the terminal:
    left there by a parent process (readline sets them in a program that
    has no terminal, and its children inherit them), they pinned the game
    at that size and every resize was ignored. In a terminal the terminal
    says its size."""
    if sys.stdout.isatty():
        for name in ("COLUMNS", "LINES"):
            os.environ.pop(name, None)

class BaseApp(KeepsUnhandledErrors, App[None]):
    """The common crib3 app (see the module's docstring). A sibling says
    which screen it opens on (`open_first_screen`) and adds its own
    commands (`own_commands`)."""

    TITLE = "crib3"
    CSS = """
    Screen { background: $background; }
    #too-small {
        dock: top; layer: overlay; width: 100%; height: 100%; display: none;
        background: $error 20%; content-align: center middle; text-style: bold;
    }
    Screen.too-small #too-small { display: block; }
    /* The screen behind the notice would scroll, its scrollbars drawn
       beside the notice: nothing of it shows while it is too small. */
    Screen.too-small { overflow: hidden hidden; }
    """ + ASCII_CSS
    BINDINGS = [
        Binding("ctrl+q", "quit_game", "Quit", priority=True, show=False),
        # Not a priority: a dialog's own Esc comes first.
        Binding("escape", "hide_keys", "Close keys", show=False),
    ]

    def __init__(self, ascii: bool = False, think: float = 0.6) -> None:
        timers_that_yield()  # (once a process: a negative delay would freeze it)
        super().__init__()
        self.ascii = ascii
        # The one switch: borders (CSS), footer keys, every glyph (filter).
        self.ascii_filter: AsciiFilter | None = AsciiFilter() if ascii else None
        if ascii:
            self.add_class("ascii")
        self._plain = {True: NoColor(), False: Monochrome()}  # by native_ansi_color
        self.think = think
        from crib3.tui.attention import Attention

        self.attention = Attention(self)  # the turn bell: off but in the card room
        self.game: Game | None = None  # the game on the table, if any
        self.too_small = False  # the notice hides the screen; input waits
        self._small_note = ""  # said under the too-small notice (how to quit)
        # How the app ended, when not as asked: the command reports it.
        self.crash: BaseException | None = None
        # Textual prints a traceback with local variables when an app fails;
        # crib3 says one line instead (see crib3.common.crash), so that is dropped.
        self.error_console = Console(file=io.StringIO(), markup=False, highlight=False)

    # --- starting ------------------------------------------------------------------

    def run(self, *args: Any, **kwargs: Any) -> Any:
        """The command's start: Textual's parse of the CSS is kept between
        runs (`crib3.tui.css_cache`), and saved once the first screen is up."""
        from crib3.common import startup_gc
        from crib3.tui import css_cache

        css_cache.install()
        _follow_the_terminals_own_size()
        try:
            return super().run(*args, **kwargs)
        finally:
            startup_gc.resume()

    def on_mount(self) -> None:
        self.open_first_screen()
        width, height = self.size
        if width < MIN_WIDTH or height < MIN_HEIGHT:
            # A first screen that is the app's default one (the new-game
            # screen) was not yet mounted at the first resize, and no
            # ScreenResume of a pushed screen checks again.
            self.call_after_refresh(lambda: self._check_size(self.size))
        # The first screen is drawn: the collector the command paused runs
        # again (crib3/common/startup_gc.py).
        self.call_after_refresh(_resume_gc)
        if sys.modules.get("crib3.tui.css_cache") is not None:
            # After the first screen and the warm-up's start: a terminal
            # closed later skips the exit's save.
            self.set_timer(1.0, self._keep_parsed_css)

    def _keep_parsed_css(self) -> None:
        from crib3.tui import css_cache

        if css_cache.installed() is not None:
            self.run_worker(css_cache.save, thread=True, group="css-cache")

    def open_first_screen(self) -> None:
        """The screen the app opens on. (Siblings override this, not
        on_mount: Textual calls the on_mount of every class in the MRO.)"""
        raise NotImplementedError

    # --- what is drawn ---------------------------------------------------------------

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, with colour dropped as `no_color` says now
        (Textual reads NO_COLOR once, from this process's environment; a
        card room's session sets it from its client's), and the ASCII
        filter last, so nothing above 127 is drawn in ASCII mode."""
        filters = [f for f in super().get_line_filters()
                   if not isinstance(f, (NoColor, Monochrome))]
        if self.no_color:
            filters.append(self._plain[native_ansi_color(self)])
        if self.ascii_filter is not None:
            filters.append(self.ascii_filter)
        return filters

    def get_key_display(self, binding: Binding) -> str:
        """As Textual shows a key, unless the screen on top says what the
        key stands for now (the table's "1-5" follows the cards in hand)."""
        own = getattr(self.screen, "key_shown", None)
        shown = (own(binding) if own is not None else None) or super().get_key_display(binding)
        return key_display(binding, shown) if self.ascii else shown

    # --- failing in one line ------------------------------------------------------------

    def keep_failure(self, cause: BaseException) -> None:
        """Remember why the app stopped (the first cause only). An error
        nothing caught arrives here from Textual's last word on it
        (`textual_compat.KeepsUnhandledErrors`); the app then stops as
        Textual stops it, and the command reports the error in one line."""
        if self.crash is None:
            self.crash = cause

    # --- everywhere --------------------------------------------------------------------

    @property
    def in_game(self) -> bool:
        return self.game is not None and not self.game.over

    def action_quit_game(self) -> None:
        from crib3.tui.screens.dialogs import ConfirmQuit

        if not self.in_game:
            self.exit()
            return
        if isinstance(self.screen, ConfirmQuit):
            return
        self.push_screen(ConfirmQuit(self.quit_note()),
                         lambda yes: self.quit_confirmed() if yes else None)

    def action_help_quit(self) -> None:
        """Ctrl+C, which a person presses to quit, says how to: Textual's own
        hint names the key of an action called `quit`, and crib3's is
        `quit_game` (it asks first during a game), so it said nothing. On
        the too-small notice it is said on the notice, which hides the rest."""
        keys = sorted({_key_in_words(key) for key, active in self.active_bindings.items()
                       if active.binding.action in ("quit_game", "app.quit_game")},
                      key=lambda key: (len(key) > 1, key)) or ["Ctrl+Q"]
        said = f"Ctrl+C does not quit crib3: {' or '.join(keys)} quits" + (
            " (it asks first)." if self.in_game else ".")
        if self.too_small:
            self._small_note = said
            self._check_size(self.size)
        else:
            self.notify(said, title="Quit?", markup=False)

    def quit_note(self) -> str | None:
        """What the quit dialog says becomes of the game (a sibling that
        saves it says so, and how to go on)."""
        return None

    def quit_confirmed(self) -> None:
        """The person said yes to quitting a game under way."""
        self.exit()

    def action_command_palette(self) -> None:
        """Open the palette once: two ctrl+p in one burst of input would
        otherwise push it twice, which Textual does not survive."""
        if any(screen.id == "--command-palette" for screen in self.screen_stack):
            return
        super().action_command_palette()

    def action_help(self) -> None:
        from crib3.tui.screens.dialogs import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_rules(self) -> None:
        """How to play: the rules in full (crib3/tui/screens/rules.py)."""
        from crib3.tui.screens.rules import RulesScreen

        if not isinstance(self.screen, RulesScreen):
            self.push_screen(RulesScreen())

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The sibling's own commands first, then help, how to play, the
        table's feed, and Textual's own (less those `textual_command_wanted`
        refuses)."""
        yield from self.own_commands(screen)
        yield SystemCommand("How to play", "The three-handed rules in full", self.action_rules)
        from crib3.tui.screens.table import TableScreen

        if isinstance(screen, TableScreen):
            yield SystemCommand("Event feed", "Show or hide the game told in words",
                                screen.action_toggle_feed)
        for command in super().get_system_commands(screen):
            if command.title == "Quit":
                # Textual's quits at once; ours asks first during a game,
                # as q and Ctrl+Q do.
                yield SystemCommand("Quit", "Quit crib3 (asks first during a game)",
                                    self.action_quit_game)
            elif self.textual_command_wanted(command):
                yield command

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "hide_keys":  # Esc is only taken while the panel is up
            return bool(self.screen.query("HelpPanel"))
        return super().check_action(action, parameters)

    def action_hide_keys(self) -> None:
        """Esc closes Textual's keys panel (the palette's "Keys")."""
        self.action_hide_help_panel()

    def own_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """The palette's commands that belong to this sibling (help among them,
        where it fits)."""
        yield SystemCommand("Help", "Keys and the rules in short", self.action_help)

    def textual_command_wanted(self, command: SystemCommand) -> bool:
        """Whether one of Textual's own palette commands is offered here."""
        return True

    # --- too small ----------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        """While the terminal is too small the table is hidden behind the
        notice, so a key or a click must not act on it unseen: only quit
        and help get through (and the dialogs they open)."""
        if self.too_small and isinstance(event, (events.InputEvent, events.Paste)) \
                and not event.is_forwarded and not self._allowed_when_small(event):
            return
        await super().on_event(event)

    def _allowed_when_small(self, event: events.Event) -> bool:
        from crib3.tui.screens.dialogs import ConfirmQuit, HelpScreen

        if isinstance(self.screen, (ConfirmQuit, HelpScreen)):
            return True
        return isinstance(event, events.Key) and event.key in KEYS_WHEN_SMALL

    def on_resize(self, event: Resize) -> None:
        # The event's size: this handler runs before App's own, which is
        # what updates `self.size`.
        self._check_size(event.size)

    def on_screen_resume(self) -> None:
        self._check_size(self.size)

    def _check_size(self, size: Size) -> None:
        from textual.widgets import Static

        width, height = size
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        self.too_small = small
        if _is_help_or_quit(self.screen):
            return  # asked for while small: shown as they are, over the notice
        notice: Static | None
        try:
            notice = self.screen.query_one("#too-small", Static)
        except NoMatches:
            notice = None
        if small and notice is None:
            if not self.screen.is_mounted:
                return  # a screen on its way in: its ScreenResume checks again
            notice = Static(id="too-small")
            self.screen.mount(notice)
        if notice is not None:
            notice.update(f"crib3 needs {MIN_WIDTH}×{MIN_HEIGHT}; this terminal is "
                          f"{width}×{height}. Make it larger." +
                          (f"\n{self._small_note}" if small and self._small_note else ""))
        if not small:
            self._small_note = ""
        self.screen.set_class(small, "too-small")


def _resume_gc() -> None:
    from crib3.common import startup_gc

    startup_gc.resume()


def _key_in_words(key: str) -> str:
    """A key as a sentence names it: "q", "Ctrl+Q"."""
    if key.startswith("ctrl+"):
        return "Ctrl+" + key.removeprefix("ctrl+").upper()
    return key


def _is_help_or_quit(screen: Screen) -> bool:
    """The help or the quit question is up. Asked on every resize, the first
    at start-up: the dialogs' module (which brings the engine and the coach)
    is not imported for it, since neither can be up before it is."""
    dialogs = sys.modules.get("crib3.tui.screens.dialogs")
    return dialogs is not None and isinstance(screen, (dialogs.ConfirmQuit, dialogs.HelpScreen))
