"""A live duplicate event's board played at a cluster's table: hosted by
one node, its log on the table's stream, adopted by another node when its
host dies, as any of the cluster's tables (`crib3.cluster.hosted`).

`AckedBoardGame` is the board's one hand (`crib3.duplicate.play.BoardGame`:
the board's deck, dealer and cut) told to its screens only once the stream
holds each event (`crib3.cluster.acked.AckedGame`). Its chance is drawn
from the board, never from a random generator: the node that adopts the
table draws what its former host had not stored, and draws the same.

`HostedBoardTable` is a hosted table whose game is such a board. Its
registry entry names the event, the board and the event's table
(`"board"`), so a node adopting it rebuilds the board's game, not an
ordinary one that would deal a second hand; it is never shelved (the event
goes on without whoever is gone), and when the board's show is over it
tells `on_over` (the event's driver, `crib3.cluster.live_events`) on
whichever node hosts it then.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from crib3.cluster.acked import AckedGame
from crib3.cluster.hosted import Host, HostedTable
from crib3.cluster.store import TableLog
from crib3.duplicate.boards import Board, seat_of
from crib3.duplicate.play import BOARD_RULES
from crib3.engine import Game, PlayerInfo
from crib3.engine.commands import Command, CutStarter, DrawCutCard, Shuffle
from crib3.engine.events import Event
from crib3.engine.rules import begin, needs_chance, step
from crib3.engine.state import Phase, State
from crib3.room.basics import RoomError
from crib3.room.room import Room
from crib3.room.seats import Presence, Seat

log = logging.getLogger("crib3.cluster")

class AckedBoardGame(AckedGame):
    """One board's hand on a cluster's table (see the module's docstring);
    the event's slot 0 sits in the game's seat 0, holding board seat `seat`."""

    board: Board
    seat: int

    def on(self, board: Board, seat: int) -> AckedBoardGame:
        """This game (new, or rebuilt from its stream by `hosting`) is the board's."""
        self.board, self.seat = board, seat
        return self

    def begin_board(self, players: Sequence[PlayerInfo]) -> None:
        self._emit([begin(tuple(players), BOARD_RULES, None)])
        self._resolve_chance()

    def dispatch(self, command: Command) -> list[Event]:
        if isinstance(command, CutStarter):  # whoever cuts, the board's starter
            command = CutStarter(command.seat, self.board.cut)
        return super().dispatch(command)

    def _resolve_chance(self) -> None:
        dealer = (self.board.dealer - self.seat) % 3
        # The cut for first deal, as `BoardGame`'s (`Board.deal_cuts`): the
        # dealer draws the lowest card, from cards nobody sees in the hand.
        dealer_cut, *other_cuts = self.board.deal_cuts()
        others = iter(other_cuts)
        while needs_chance(self._chance_state()):
            state = self._chance_state()
            if state.phase == Phase.SHUFFLE:
                if state.hand_number >= 1:
                    return  # the board's one hand is over
                command: Command = Shuffle(self.board.deck)
            else:
                cutter = state.cutters[0]
                # (A card for the others not cut yet: a node adopting the table
                # after one of the two was stored draws the other, as its host
                # would have.)
                taken = {c for c in state.cuts if c is not None}
                command = DrawCutCard(cutter, dealer_cut if cutter == dealer else
                                      next(c for c in others if c not in taken))
            events, after = step(state, command)
            self._emit(events, after)

    @property
    def over(self) -> bool:
        """The hand's show is on the stream (what the screens have been told)."""
        state = self.state
        return state.phase == Phase.OVER or (state.phase == Phase.SHUFFLE
                                             and state.hand_number >= 1)


class HostedBoardTable(HostedTable):
    """A live event's board at a cluster's table (see the module's docstring)."""

    def __init__(self, room: Room, number: int, owner: str, seats: list[Seat], node: Host,
                 log_: TableLog, event: str, board: Board, index: int,
                 on_over: Callable[[HostedBoardTable], None],
                 entered: Iterable[str] = ()) -> None:
        super().__init__(room, number, owner, BOARD_RULES, seats, node, log_)
        self.event = event
        self.board = board
        self.index = index  # the event's table, from 0
        self.on_over = on_over
        self.entered = frozenset(name.lower() for name in entered)  # the event's people
        self._told = False

    def watch(self, presence: Presence) -> None:
        """Nobody entered in the event may watch it: they would see cards of
        a board they may not have played (as at one machine's board table)."""
        if presence.name.lower() in self.entered:
            raise RoomError(f"table {self.number} plays board {self.board.number} of event "
                            f"{self.event}: you may not see its cards")
        super().watch(presence)

    def _new_game(self, players: list[PlayerInfo], seed: int) -> Game:
        game = AckedBoardGame(self.log, self._lost).on(self.board,
                                                       seat_of(0, self.board.number))
        game.subscribe(self._record)
        game.begin_board(players)
        return game

    def _go_on(self, events: list[Event]) -> Game:
        game = AckedBoardGame.hosting(self.log, self._lost, events)
        assert isinstance(game, AckedBoardGame)
        game.on(self.board, seat_of(0, self.board.number))
        game.subscribe(self._record)
        game.go_on()  # (what its former host had not stored: the board's draws again)
        return game

    def _record(self, event: Event, state: State) -> None:
        super()._record(event, state)
        if self.over:  # (no winner ends a board: the registry is told it is over here)
            self.node.publish(self)

    def entry(self) -> dict[str, Any]:
        out = super().entry()
        out["board"] = {"event": self.event, "board": self.board.number, "index": self.index}
        return out

    def _nobody_here(self) -> None:
        """Never shelved: the event goes on (the computer plays whoever left)."""

    def tell_if_over(self) -> None:
        """The board's show is over here: the event is told, once."""
        game = self.game
        if game is not None and game.over and not self._told and not self.moved:
            self._told = True
            try:
                self.on_over(self)
            except Exception:
                log.exception("event %s: board %d is over at table %d, but the event could "
                              "not be told; it waits for this table", self.event,
                              self.board.number, self.number)

    async def _drive(self) -> None:
        await super()._drive()
        self.tell_if_over()


def board_entry(data: dict[str, Any]) -> tuple[str, int, int] | None:
    """The event, board and event table a registry entry's table plays, or
    None (an ordinary table)."""
    found = data.get("board")
    if not isinstance(found, dict):
        return None
    return str(found["event"]), int(found["board"]), int(found["index"])


def seats_of(slots: Iterable[tuple[str | None, str | None, bool]], level: str) -> list[Seat]:
    """An event table's seats: (name, key, replaced) a slot, None for the computer."""
    return [Seat(level=level) if name is None else Seat(name, key, level, replaced=replaced)
            for name, key, replaced in slots]


__all__ = ["AckedBoardGame", "HostedBoardTable", "board_entry", "seats_of"]
