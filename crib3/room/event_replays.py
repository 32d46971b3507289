"""Which table's play of which board of a live event may be replayed.

Any table's play of a board, step by step, once the board is over at every
table: before that its cards are still in someone's hand, and a replay of
table 1's play would show them to a person at table 2 who has yet to
finish it (the no-leak rule a live event keeps, see `crib3.room.live_event`).
So the boards offered are those the results show, and a board asked for
before its time is refused in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from crib3.room.basics import RoomError
from crib3.room.live_event import OVER, PLAYING, LiveEvent


@dataclass(frozen=True, slots=True)
class TablePlay:
    """One table's play of one board: who sat where, and its log."""

    board: int
    table: int  # the event's table, from 0
    names: tuple[str, ...]  # each slot's, as the fields name them
    log: Path

    @property
    def words(self) -> str:
        return f"Board {self.board}, table {self.table + 1}: {', '.join(self.names)}"


def last_over(live: LiveEvent) -> int:
    """The last board over at every table (0: none yet)."""
    if live.status == OVER:
        return live.board
    if live.status == PLAYING:
        return live.board - 1 if len(live.done) < len(live.seating) else live.board
    return 0


def table_plays(live: LiveEvent) -> list[TablePlay]:
    """Every table's play of every board over everywhere, board by board."""
    over = last_over(live)
    return [TablePlay(board, table, tuple(who for who, _ in live.entries(table, board)), path)
            for (board, table), path in sorted(live.logs.items()) if board <= over]


def replay_log(live: LiveEvent, board: int, table: int) -> Path:
    """The log of table `table`'s play of `board`, to replay; RoomError says
    why not (the board is still played somewhere, or was never dealt)."""
    if not 1 <= board <= len(live.boards) or not 0 <= table < len(live.seating):
        raise RoomError(f"event {live.name} has no board {board} at table {table + 1}")
    if board > last_over(live):
        raise RoomError(f"board {board} of event {live.name} is still being played: any "
                        "table's play of it can be replayed once every table is through it")
    path = live.logs.get((board, table))
    if path is None or not path.is_file():
        raise RoomError(f"table {table + 1}'s play of board {board} has no log here")
    return path
