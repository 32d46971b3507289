"""The crib3 app at your own keyboard: the new-game screen, the table, the
end; resuming and replaying saved games, statistics, and saving each game
as it is played. What it shares with the card room's app (the too-small
notice, help, quitting, failing in one line, ASCII mode) is `BaseApp`."""

from __future__ import annotations

import random
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import SystemCommand
from textual.screen import Screen

from crib3.common.levels import bot_names
from crib3.common.paths import games_dir
from crib3.tui.base_app import BaseApp
from crib3.tui.settings import GameChoices, load_choices, save_choices

if TYPE_CHECKING:  # loaded when a game starts, to keep the first screen fast
    from crib3.engine import Event, Game, State
    from crib3.engine.log import LogWriter
    from crib3.saved.replay import Replay



def resume_hint() -> str:
    """How to go on with the game, as the person must type it."""
    from crib3.common.invocation import as_typed

    return f"`{as_typed()} resume` goes on where you left off."


def saved_line() -> str:
    """What the terminal says after a saved game was quit part way."""
    return f"Saved. {resume_hint()}"


class SaveFailed(Exception):
    """The game's log could not be written (a full disk, a folder gone
    read-only): the game stops, saved up to the last move that reached the
    disk, and the command says so in one line."""

    def __init__(self, path: Path | None, error: OSError) -> None:
        super().__init__(f"{path}: {error.strerror or error}")
        self.path = path
        self.error = error


def opponent_names(you: str) -> tuple[str, str]:
    left, right = bot_names([you], 2)
    return left, right


def _warm_up() -> None:
    """While the new-game screen is up, load what the table needs (the
    engine, the bots, the scoring tables), so the first deal is instant."""
    import crib3.players.coach  # noqa: F401
    import crib3.tui.screens.table  # noqa: F401
    from crib3.players.analysis import crib_table, discard_table
    from crib3.players.keeps import warm_keep_chances
    from crib3.scoring import rank_table

    rank_table()
    crib_table()
    discard_table()
    warm_keep_chances()


class Crib3App(BaseApp):
    """Three-handed cribbage against two computer players."""

    def __init__(self, choices: GameChoices | None = None, ascii: bool = False,
                 think: float = 0.6, autosave: bool = True, game: Game | None = None,
                 resume_path: Path | None = None, replay: Replay | None = None) -> None:
        """Open the new-game screen, or with `choices` start that game at
        once, or with `game` go on with a game already under way (its
        human seat is seat 0; the others are played by bots of their level)."""
        super().__init__(ascii=ascii, think=think)
        self.autosave = autosave
        self.start_choices = choices
        self.start_game_object = game
        self.resume_path = resume_path  # a resumed game goes on in its own file
        self.replay = replay  # a saved game to step through
        self.replay_coach = False  # open the replay with the coach on (crib3 replay --coach)
        self.log_writer: LogWriter | None = None
        self.log_path: Path | None = None
        # A save that failed, for the command to report (see `keep_failure`).
        self.save_failed: SaveFailed | None = None
        self.left_saved = False  # quit part way through a game that is saved

    # --- starting --------------------------------------------------------------

    def on_load(self) -> None:
        """crib3's stylesheet joins the app's own CSS before anything is
        styled, after it (where pushing the first screen would add it, so
        the rules weigh the same): the push then finds it there, instead of
        parsing all the CSS again and restyling the app."""
        from crib3.tui.css import STYLESHEET

        self.stylesheet.read(STYLESHEET)
        theme = load_choices().theme  # the one chosen last time, if it is still one
        if theme and theme != self.theme and theme in self.available_themes:
            self.theme = theme
        self._remember_theme = True  # (from now on: a theme the person chose)

    _remember_theme = False

    def watch_theme(self, theme: str) -> None:
        """A theme chosen (Ctrl+P, "Theme") is remembered like the new-game
        screen's choices, for the next start."""
        if not self._remember_theme:
            return
        choices = load_choices()
        if choices.theme != theme:
            choices.theme = theme
            save_choices(choices)

    def _opens_on_new_game(self) -> bool:
        return self.replay is None and self.start_game_object is None \
            and self.start_choices is None

    def get_default_screen(self) -> Screen:
        """Opening on the new-game screen, it is the app's first screen
        itself, rather than one pushed over Textual's empty default screen
        (which was styled, laid out and shown for nothing). It hands on what
        was chosen through `on_chosen`, since the bottom screen cannot be
        dismissed; a later new game is pushed over it as before."""
        if not self._opens_on_new_game():
            return super().get_default_screen()
        from crib3.tui.screens.new_game import NewGameScreen

        return NewGameScreen(self._new_game_choices(), on_chosen=self._chosen)

    def open_first_screen(self) -> None:
        if self.replay is not None:
            from crib3.tui.screens.replay import ReplayScreen

            self.push_screen(ReplayScreen(self.replay, self.ascii, coach=self.replay_coach))
        elif self.start_game_object is not None:
            self.continue_game(self.start_game_object)
        elif self.start_choices is not None:
            self.start_game(self.start_choices)
        else:  # the new-game screen is the default screen: see get_default_screen
            self._warm_up_soon()

    def _new_game_choices(self) -> GameChoices:
        choices = load_choices()
        choices.think = self.think  # the setting, or this run's --think
        return choices

    def new_game(self) -> None:
        from crib3.tui.screens.new_game import NewGameScreen

        self.push_screen(NewGameScreen(self._new_game_choices()), self._chosen)
        self._warm_up_soon()

    def _warm_up_soon(self) -> None:
        self.set_timer(0.5, lambda: self.run_worker(_warm_up, thread=True, group="warm-up"))

    def _chosen(self, choices: GameChoices | Path | None) -> None:
        if choices is None:
            self.exit()
            return
        if isinstance(choices, Path):
            self.resume(choices)
            return
        save_choices(choices)
        self.think = choices.think
        self.start_game(choices)

    def resume(self, path: Path) -> None:
        """Go on with a saved game, where it stood, in its own file."""
        from crib3.engine import Game
        from crib3.engine.log import LogError
        from crib3.saved.games import open_for_resume

        try:
            game = open_for_resume(path)
        except LogError as exc:
            self.notify(str(exc), severity="error", markup=False)  # a file's text
            self.new_game()
            return
        game.keep()
        for note in [game.problem] * bool(game.problem) + game.notes:
            # a damaged log goes on from its last good line: say so
            self.notify(note, severity="warning", timeout=10, markup=False)
        self.resume_path = game.path
        self.continue_game(Game.from_events(game.events, takebacks=True))

    def action_stats(self) -> None:
        from crib3.tui.screens.stats import StatsScreen

        if not isinstance(self.screen, StatsScreen):
            self.push_screen(StatsScreen())

    def start_game(self, choices: GameChoices) -> None:
        from crib3.engine import Game, PlayerInfo
        from crib3.engine.log import make_header
        from crib3.players import make_player
        from crib3.players.autoplay import BotDriver
        from crib3.tui.screens.table import TableScreen

        self._close_log()
        left, right = opponent_names(choices.name)
        players = (
            PlayerInfo(choices.name, "human"),
            PlayerInfo(left, choices.left),
            PlayerInfo(right, choices.right),
        )
        seed = choices.seed if choices.seed is not None else random.SystemRandom().randrange(
            2**31)
        subscribers = []
        if self.autosave:
            self._open_log(games_dir() / (datetime.now().strftime("%Y-%m-%d-%H%M%S-%f") +
                                          ".jsonl"), make_header(source="crib3 play"))
            subscribers.append(self._save)
        self.game = Game.new(players, choices.rules(), seed=seed, subscribers=subscribers,
                             takebacks=True)
        bot_rng = random.Random(seed ^ 0x5EED)
        bots = {1: make_player(choices.left, random.Random(bot_rng.random())),
                2: make_player(choices.right, random.Random(bot_rng.random()))}
        table = TableScreen(self.game, 0, BotDriver(self.game, bots, think=self.think),
                            self.think, self.ascii, on_over=self._game_over, takebacks=True,
                            auto=choices.auto_moves())
        self.switch_screen(table) if self._table_showing() else self.push_screen(table)

    def continue_game(self, game: Game) -> None:
        """Sit down at a game already under way, as seat 0."""
        from crib3.players import make_player
        from crib3.players.autoplay import BotDriver
        from crib3.tui.screens.table import TableScreen

        self.game = game
        if self.autosave and self.resume_path is not None:
            self._open_log(self.resume_path)
            game.subscribe(self._save)
        seed = random.SystemRandom().randrange(2**31)
        bots = {s: make_player(p.kind, random.Random(seed + s))
                for s, p in enumerate(game.state.players) if s != 0}
        shown = None
        if self.resume_path is not None:
            from crib3.tui.shown import recall_shown

            shown = recall_shown(self.resume_path)
        self.push_screen(TableScreen(game, 0, BotDriver(game, bots, think=self.think),
                                     self.think, self.ascii,
                                     on_over=self._game_over,
                                     resumed=self.resume_path is not None,
                                     takebacks=game.takebacks, shown_before=shown,
                                     auto=load_choices().auto_moves()))

    def _open_log(self, path: Path, header: dict[str, object] | None = None) -> None:
        """The game's log, new or to go on with; a folder or disk that will
        not take it stops the game as a failed save."""
        from crib3.engine.log import LogWriter

        self.log_path = path
        try:
            self.log_writer = LogWriter(path, header)
        except OSError as exc:
            raise SaveFailed(path, exc) from exc

    def _save(self, event: Event, state: State) -> None:
        """Put each event on disk before it is shown; a write that fails
        stops the game (what reached the disk is the saved game)."""
        assert self.log_writer is not None  # (subscribed once it is open, until the game is over)
        try:
            self.log_writer.append(event)
        except OSError as exc:
            raise SaveFailed(self.log_path, exc) from exc

    def keep_failure(self, cause: BaseException) -> None:
        """A save that failed is reported as such (the game is saved up to
        its last good line); anything else as an unexpected error."""
        if isinstance(cause, SaveFailed):
            self.save_failed = self.save_failed or cause
        else:
            super().keep_failure(cause)

    def _table_showing(self) -> bool:
        from crib3.tui.screens.table import TableScreen

        return isinstance(self.screen, TableScreen)

    def _game_over(self, state: State) -> None:
        from crib3.tui.screens.game_over import GameOverScreen

        self._close_log()
        self.push_screen(GameOverScreen(state, review=self.game is not None), self._after_game)

    def _after_game(self, choice: str | None) -> None:
        if choice == "review" and self.game is not None:
            self._review_game(self.game.state)
            return
        if choice == "new":
            self.pop_screen()  # the table
            self.game = None
            self.new_game()
        else:
            self.exit()

    def _review_game(self, state: State) -> None:
        """The game just played in the replay with the coach on; q there
        comes back to the result screen."""
        from crib3.saved.replay import Replay
        from crib3.tui.screens.replay import ReplayScreen

        assert self.game is not None
        replay = ReplayScreen(Replay(self.game.events), self.ascii, coach=True, leave_back=True)
        self.push_screen(replay, lambda _: self._game_over(state))

    def _close_log(self) -> None:
        if self.log_writer is not None:
            writer, self.log_writer = self.log_writer, None
            try:
                writer.close()
            except OSError as exc:  # only a write that already failed is left to flush
                self.save_failed = self.save_failed or SaveFailed(self.log_path, exc)

    # --- quitting -------------------------------------------------------------------

    def quit_note(self) -> str | None:
        if self.saving:
            return f"The game is saved: {resume_hint()}"
        return "This game is not being saved (--no-save): quitting ends it."

    def quit_confirmed(self) -> None:
        """Leave; a saved game is said to be saved once the screen is gone
        (`left_saved`, for the command to print `saved_line()`)."""
        self.left_saved = self.saving
        self._remember_shown()
        super().quit_confirmed()

    def _remember_shown(self) -> None:
        """How far the table had presented the saved game, for `crib3
        resume` to go on from there (see crib3.tui.shown)."""
        from crib3.tui.screens.table import TableScreen

        tables = [s for s in self.screen_stack if isinstance(s, TableScreen)]
        if self.saving and self.log_path is not None and tables:
            from crib3.tui.shown import remember_shown

            remember_shown(self.log_path, tables[-1].presented)

    @property
    def saving(self) -> bool:
        """The game under way is being written to its log."""
        return self.in_game and self.log_writer is not None

    # --- everywhere ---------------------------------------------------------------

    def action_new_game(self) -> None:
        if self.in_game:
            from crib3.tui.screens.dialogs import ConfirmNewGame

            def confirmed(yes: bool | None) -> None:
                if yes:
                    self._restart()

            if not isinstance(self.screen, ConfirmNewGame):
                self.push_screen(ConfirmNewGame(), confirmed)
        else:
            self._restart()

    def _restart(self) -> None:
        from crib3.tui.screens.new_game import NewGameScreen

        self._close_log()
        self.game = None
        left = len(self.screen_stack) > 1
        while len(self.screen_stack) > 1:
            self.pop_screen()
        # Back at the first new-game screen (the app's bottom one) from
        # elsewhere: a fresh one, with the choices as saved since.
        if left or not isinstance(self.screen, NewGameScreen):
            self.new_game()

    def own_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        yield SystemCommand("New game", "Leave this game and set up a new one",
                            self.action_new_game)
        yield SystemCommand("Help", "Keys and the rules in short", self.action_help)
        yield SystemCommand("Statistics", "Wins, skunks and averages over your saved games",
                            self.action_stats)

    def on_unmount(self) -> None:
        self._close_log()
