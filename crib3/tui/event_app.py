"""`crib3 event play`: a duplicate event's boards, one after another, at
the game's own table against the computer, each followed by its result
against the field; after the last, the event's results.

A board is dealt to the person once: its log is opened as it is dealt, so
quitting part way leaves the board played (unscored), never to be dealt
again. The logs go in the event's folder, not among the saved games (a
board is not a game to resume)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from textual.app import SystemCommand
from textual.screen import Screen

from crib3.duplicate.events import DuplicateEvent
from crib3.duplicate.play import BoardGame
from crib3.duplicate.scoring import BoardResult, score_boards, standings
from crib3.engine import PlayerInfo, State
from crib3.tui.app import Crib3App, opponent_names
from crib3.tui.settings import load_choices


class EventApp(Crib3App):
    """`person` plays `event`'s boards they have not had yet."""

    def __init__(self, event: DuplicateEvent, person: str, ascii: bool = False,
                 think: float = 0.6) -> None:
        super().__init__(ascii=ascii, think=think, autosave=True)
        self.event = event
        self.person = person
        self.board_number: int | None = None

    def _opens_on_new_game(self) -> bool:
        return False

    def open_first_screen(self) -> None:
        self.next_board()

    def next_board(self) -> None:
        """Deal the person's next board, or show the event's results."""
        from crib3.players import make_player
        from crib3.players.autoplay import BotDriver
        from crib3.tui.screens.board_table import BoardTableScreen, board_name, board_title

        self._close_log()
        board = self.event.next_board(self.person)
        if board is None:
            self.game = None
            self.show_results()
            return
        event, number = self.event, board.number
        self.board_number = number
        self._open_log(event.person_log(number, self.person),
                       event.header(number, self.person, "crib3 event play"))
        left, right = opponent_names(self.person)
        players = (PlayerInfo(self.person, "human"), PlayerInfo(left, event.level),
                   PlayerInfo(right, event.level))
        game = BoardGame.start(board, event.seat(number), players, subscribers=[self._save])
        self.game = game
        rng = random.Random(f"{event.name} {event.seed} {number}")
        bots = {seat: make_player(event.level, random.Random(rng.random())) for seat in (1, 2)}
        # Opened as a game resumed, on the cards dealt: the cut for deal
        # before them is the board's, nothing to watch or wait through.
        table = BoardTableScreen(game, 0, BotDriver(game, bots, think=self.think), self.think,
                                 self.ascii, on_over=self._board_over, resumed=True,
                                 auto=load_choices().auto_moves())
        table.hand_title = board_title(number, len(event.boards))
        table.board = board_name(number)
        self._replace_top(table)

    def _replace_top(self, screen: Screen[Any]) -> None:
        """The next screen in place of the one before (the app's first
        screen stays underneath)."""
        if len(self.screen_stack) > 1:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def results(self) -> list[BoardResult]:
        """Every board's field, read from the logs; one that cannot be read
        is left out, and said so."""
        plays, problems = self.event.plays()
        for problem in problems:
            self.notify(f"{problem}; left out of the results", severity="warning",
                        markup=False)
        return score_boards(plays)

    def _board_over(self, state: State) -> None:
        from crib3.tui.screens.board_result import BoardResultScreen

        self._close_log()
        number = self.board_number
        assert number is not None
        result = next(r for r in self.results() if r.board == number)
        board = self.event.boards[number - 1]
        last = self.event.next_board(self.person) is None
        self.push_screen(BoardResultScreen(board, self.event.seat(number),
                                           len(self.event.boards), result, self.person,
                                           last=last), self._after_board)

    def _after_board(self, choice: str | None) -> None:
        if choice == "next":
            self.next_board()
        else:
            self.exit()

    def show_results(self) -> None:
        from crib3.tui.screens.event_results import EventResultsScreen

        results = self.results()
        self._replace_top(EventResultsScreen(self.event, results, standings(results),
                                             self.person))

    def quit_note(self) -> str | None:
        return ("This board counts as played once dealt: left now, it is not scored. "
                "`crib3 event play` goes on with the next one.")

    def quit_confirmed(self) -> None:
        self.exit()

    def action_new_game(self) -> None:
        self.notify("An event's boards come in their order: q quits, and `crib3 event "
                    "play` goes on with the next board.", markup=False)

    def own_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield SystemCommand("Help", "Keys and the rules in short", self.action_help)
