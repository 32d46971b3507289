"""An event's results for export: as JSON, and as a plain-text result
sheet such as a club pins up (the ranking, then every board's field)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from crib3.cards import format_cards
from crib3.common.names import shown_name
from crib3.duplicate.boards import POSITIONS, position
from crib3.duplicate.events import DuplicateEvent
from crib3.duplicate.scoring import BoardResult, Standing


def results_json(event: DuplicateEvent, results: Sequence[BoardResult],
                 table: Sequence[Standing]) -> dict[str, Any]:
    """Everything the sheet says, for programs: the ranking and each
    board's cards and field (each play's log named, to replay it)."""
    boards = {b.number: b for b in event.boards}

    def board_json(result: BoardResult) -> dict[str, Any]:
        board = boards[result.board]
        seat = event.seat(board.number)
        return {
            "board": result.board,
            "seat": seat,
            "place": POSITIONS[position(seat, board.dealer)],
            "hand": [str(c) for c in board.hand(seat)],
            "starter": str(board.starter),
            "plays": [{"who": s.play.who, "person": s.play.person,
                       "points": list(s.play.points), "net": s.play.net,
                       "matchpoints_percent": round(s.percent, 2),
                       "log": str(s.play.log)} for s in result.plays],
        }

    return {
        "event": event.name,
        "seed": event.seed,
        "level": event.level,
        "boards": len(event.boards),
        "scale": "matchpoints, percent",
        "ranking": [{"rank": rank, "who": s.who, "person": s.person, "boards": s.boards,
                     "percent": round(s.percent, 2), "net": s.net}
                    for rank, s in enumerate(table, start=1)],
        "results": [board_json(r) for r in results],
    }


def sheet_lines(event: DuplicateEvent, results: Sequence[BoardResult],
                table: Sequence[Standing], ascii: bool = False) -> list[str]:
    """The result sheet, line by line, in 80 columns."""
    lines = [f"Event {event.name}: {len(event.boards)} boards against the computer "
             f"({event.level}), seed {event.seed}",
             "Scored in matchpoints: the share of the field each board's play beat "
             "(ties half).", "", "Ranking",
             f"{'':>4}  {'who':<28}{'boards':>7}{'score':>9}{'net':>8}"]
    for rank, s in enumerate(table, start=1):
        lines.append(f"{rank:>4}. {shown_name(s.who, 28):<28}{s.boards:>7}{s.percent:>8.1f}%"
                     f"{s.net:>+8.1f}")
    boards = {b.number: b for b in event.boards}
    for result in results:
        board = boards[result.board]
        seat = event.seat(board.number)
        lines += ["", f"Board {board.number}: {POSITIONS[position(seat, board.dealer)]}, "
                      f"dealt {format_cards(board.hand(seat), ascii)}, "
                      f"starter {format_cards([board.starter], ascii)}",
                  f"{'':>6}{'who':<28}{'you':>5}{'left':>6}{'right':>6}{'net':>8}{'score':>9}"]
        for scored in result.plays:
            play = scored.play
            mine, left, right = play.points
            lines.append(f"{'':>6}{shown_name(play.who, 28):<28}{mine:>5}{left:>6}{right:>6}"
                         f"{play.net:>+8.1f}{scored.percent:>8.1f}%")
    return lines
