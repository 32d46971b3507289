"""One way to drive computer players on a game, for every place that has
them: the local table and the card room's tables.

A bot is asked off the event loop (in a worker process shared by every
table: `crib3.players.workers`), after a moment's "thought", within a time
budget. Whatever goes wrong with a bot, a bug or
a decision that takes too long, is written to the error log and the seat
plays its first legal move instead: a bot never ends a game, and never
holds up the screens that share the loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping

from crib3.common import crash
from crib3.engine import Command, Game, IllegalMove, SeatView
from crib3.players import Player, workers

log = logging.getLogger("crib3.bots")

BUDGET = 5.0  # seconds a bot may take over one decision before its seat plays for it


class BotDriver:
    """The computer players at one game, by seat."""

    def __init__(self, game: Game, bots: Mapping[int, Player], think: float = 0.0,
                 budget: float = BUDGET, where: str = "the table") -> None:
        self.game = game
        self.bots = dict(bots)
        self.think = think
        self.budget = budget
        self.where = where  # for the error log: "table 3"
        if self.bots:
            workers.warm()  # the workers start while the game is being dealt

    def seat_bot(self, seat: int, bot: Player) -> None:
        """A computer player takes `seat` (a person's, given up)."""
        self.bots[seat] = bot

    def to_move(self) -> int | None:
        """The first seat that a bot plays and that must act now."""
        return next((s for s in self.game.to_act() if s in self.bots), None)

    async def choose(self, seat: int) -> Command:
        """The bot's move from its seat's view, asked in a worker process;
        on a bug or past the budget, the first legal move (a decision past
        the budget goes on in its worker, and its answer is dropped)."""
        view = self.game.view(seat)
        await workers.ready()  # their start is not thinking time
        try:
            command = await asyncio.wait_for(workers.decide(self.bots[seat], view), self.budget)
            if command not in view.legal:
                raise ValueError(f"{command!r} is not one of the seat's legal moves")
            return command
        except TimeoutError:
            log.warning("%s: the bot of seat %s took over %ss; it plays its first legal move",
                        self.where, seat, self.budget)
        except Exception as exc:
            crash.report(log, exc, f"{self.where}: the bot of seat {seat}")
        return fallback(view)

    async def move(self, seat: int,
                   thinking: Callable[[int, bool], None] | None = None,
                   stopped: Callable[[], bool] = lambda: False) -> bool:
        """Think a moment, choose, and play the move. False when it could
        not be played because the game moved on meanwhile (a person at
        another seat): ask `to_move` again; or because the table stopped
        while the bot thought (its log closed: Python 3.11's wait_for can
        return a choice that came in with the cancel)."""
        if thinking:
            thinking(seat, True)
        try:
            if self.think:
                await asyncio.sleep(self.think)
            command = await self.choose(seat)
        finally:
            if thinking:
                thinking(seat, False)
        if stopped():
            return False
        try:
            self.game.dispatch(command)
        except IllegalMove:
            return False
        return True

    async def run(self, wake: asyncio.Event, stopped: Callable[[], bool] = lambda: False,
                  thinking: Callable[[int, bool], None] | None = None) -> None:
        """Play the bots' turns until the game ends (or `stopped()`),
        sleeping until `wake` is set whenever it is a person's turn."""
        while not self.game.over and not stopped():
            seat = self.to_move()
            if seat is None:
                wake.clear()
                await wake.wait()
                continue
            await self.move(seat, thinking, stopped)


def fallback(view: SeatView) -> Command:
    """The move a seat makes when its bot cannot: the first legal one."""
    return view.legal[0]
