"""A board played in the engine: a one-hand game on the board's cards.

`BoardGame` is an engine `Game` whose chance is the board's: the cut for
deal makes the board's dealer deal, the shuffle lays out the board's deck,
and a cut for the starter turns the board's starter whoever cuts and
however deep they asked. It ends when the hand's show ends. Its events are
an ordinary game's, so its log is written, verified, replayed and reviewed
like any other.

The entry being scored always sits in the game's seat 0 (a person at the
table screen does): the game's seats are the board's turned so that the
entry's board seat comes first. Turning the seats moves nobody relative
to the dealer, so the cards and the order of play are the board's.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from crib3.duplicate.boards import Board
from crib3.engine import Game, PlayerInfo, Rules
from crib3.engine.commands import Command, CutStarter, DrawCutCard, Shuffle
from crib3.engine.events import Event
from crib3.engine.game import Subscriber
from crib3.engine.rules import begin, needs_chance, step
from crib3.engine.state import Phase
from crib3.players import make_player

BOARD_RULES = Rules()  # to 121, no muggins: one hand never reaches the end


class BoardGame(Game):
    """One board's hand, with the entry scored in seat 0 holding the
    board's `seat`."""

    def __init__(self, board: Board, seat: int) -> None:
        super().__init__(random.Random(0), takebacks=False)  # chance is the board's
        self.board = board
        self.seat = seat
        self.dealer = (board.dealer - seat) % 3  # the game's seat that deals

    @classmethod
    def start(cls, board: Board, seat: int, players: Sequence[PlayerInfo],
              subscribers: Iterable[Subscriber] = ()) -> BoardGame:
        """The board's game, run up to the discard (as `Game.new`)."""
        game = cls(board, seat)
        for subscriber in subscribers:
            game.subscribe(subscriber)
        game._emit([begin(tuple(players), BOARD_RULES, None)])
        game._resolve_chance()
        return game

    def dispatch(self, command: Command) -> list[Event]:
        """As `Game.dispatch`; a cut for the starter is the board's cut."""
        if isinstance(command, CutStarter):
            command = CutStarter(command.seat, self.board.cut)
        return super().dispatch(command)

    def _resolve_chance(self) -> None:
        # The cut for first deal: the board's dealer draws the lowest card
        # (low card deals), from cards nobody sees in the hand (`Board.deal_cuts`).
        dealer_cut, *other_cuts = self.board.deal_cuts()
        others = iter(other_cuts)
        while needs_chance(self.state):
            state = self.state
            if state.phase == Phase.SHUFFLE:
                if state.hand_number >= 1:
                    return  # the board's one hand is over
                command: Command = Shuffle(self.board.deck)
            else:
                seat = state.cutters[0]
                command = DrawCutCard(seat, dealer_cut if seat == self.dealer else next(others))
            events, after = step(state, command)
            self._emit(events, after)

    @property
    def over(self) -> bool:
        """The hand's show is over (or, never on a board, the game)."""
        state = self.state
        return state.phase == Phase.OVER or (state.phase == Phase.SHUFFLE
                                             and state.hand_number >= 1)


def board_points(game: Game) -> tuple[int, int, int]:
    """What each of the game's seats made on the board (it started at 0)."""
    scores = game.state.scores
    return (scores[0], scores[1], scores[2])


def computer_names(level: str) -> tuple[str, str, str]:
    return (f"{level} (you)", f"{level} left", f"{level} right")


def play_with_bots(board: Board, seat: int, levels: Sequence[str],
                   names: Sequence[str] | None = None, salt: str = "") -> BoardGame:
    """The board played to its end by bots of `levels` (seat 0's first),
    seat 0 holding the board's `seat`. The bots draw from the board and
    `salt` alone: the same call plays the same game."""
    names = names if names is not None else computer_names(levels[0])
    from crib3.study.sim import engine_kind

    infos = [PlayerInfo(name, engine_kind(level)) for name, level in zip(names, levels)]
    bots = [make_player(level, random.Random(f"{salt} {board.number} {seat} {g}"))
            for g, level in enumerate(levels)]
    game = BoardGame.start(board, seat, infos)
    while not game.over:
        acting = game.to_act()[0]
        game.dispatch(bots[acting].choose(game.view(acting)))
    return game
