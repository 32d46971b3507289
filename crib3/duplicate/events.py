"""A duplicate event kept in the data folder: its boards, and every play
of them as an ordinary game log.

    events/NAME/event.json                  the event: its level and its boards
    events/NAME/boards/07/computer-easy.jsonl  the computer's play of board 7
    events/NAME/boards/07/person-3f9a....jsonl a person's play of board 7

The boards are written out card by card, not only their seed, so an event
stays the same event whatever later versions make of a seed. Results are
never stored: they are read back from the logs, so a play that arrives
later (a person's, or one from another node) simply joins the field.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from crib3.cards import parse_card
from crib3.common.paths import data_dir
from crib3.duplicate.boards import Board, make_boards, seat_of
from crib3.duplicate.play import computer_names, play_with_bots
from crib3.duplicate.scoring import Play
from crib3.engine.log import LogError, load_log, make_header, private_folder, write_log
from crib3.engine.state import Phase

# The baseline field: the computer at each level plays each board in the
# person's seat, against two of the event's level, when the event is made.
BASELINE_LEVELS = ("easy", "standard", "expert")
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
FORMAT = 1


class EventError(Exception):
    """An event that cannot be made, found or read; the message says why."""


def events_dir() -> Path:
    return data_dir() / "events"


def computer_entry(level: str) -> str:
    """How the computer's play at `level` is named in a field."""
    return f"computer ({level})"


@dataclass(frozen=True)
class DuplicateEvent:
    """An event played against the computer: its boards, its level."""

    name: str
    seed: int
    level: str  # the computer opponents' level on every board
    boards: tuple[Board, ...]
    created: str

    @property
    def folder(self) -> Path:
        return events_dir() / self.name

    def board_folder(self, number: int) -> Path:
        return self.folder / "boards" / f"{number:02d}"

    def person_log(self, number: int, person: str) -> Path:
        """A person's play of a board: named by a digest of their name
        (any name, any script, makes a safe file name)."""
        digest = hashlib.sha256(person.encode("utf-8")).hexdigest()[:16]
        return self.board_folder(number) / f"person-{digest}.jsonl"

    def seat(self, number: int) -> int:
        """The board seat everyone holds on board `number` (slot 0)."""
        return seat_of(0, number)

    def next_board(self, person: str) -> Board | None:
        """The first board `person` has not started: a board once dealt
        to someone is theirs, finished or not, never to be played again."""
        return next((b for b in self.boards if not self.person_log(b.number, person).exists()),
                    None)

    def header(self, number: int, who: str, source: str) -> dict[str, Any]:
        return make_header(source=source, event=self.name, board=number, who=who)

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "name": self.name, "seed": self.seed, "level": self.level,
                "created": self.created,
                "boards": [{"number": b.number, "dealer": b.dealer, "cut": b.cut,
                            "deck": " ".join(str(c) for c in b.deck)} for b in self.boards]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DuplicateEvent:
        boards = tuple(Board(number=int(b["number"]), dealer=int(b["dealer"]), cut=int(b["cut"]),
                             deck=tuple(parse_card(c) for c in str(b["deck"]).split()))
                       for b in data["boards"])
        return cls(name=str(data["name"]), seed=int(data["seed"]), level=str(data["level"]),
                   boards=boards, created=str(data["created"]))

    def plays(self) -> tuple[list[Play], list[str]]:
        """Every finished play of every board, and a line for each log
        that could not be read (left out of the field)."""
        plays: list[Play] = []
        problems: list[str] = []
        for board in self.boards:
            for path in sorted(self.board_folder(board.number).glob("*.jsonl")):
                try:
                    loaded = load_log(path)
                except LogError as exc:
                    problems.append(str(exc))
                    continue
                state = loaded.state
                if not (state.phase == Phase.SHUFFLE and state.hand_number >= 1):
                    continue  # left before the show's end: played, but not scored
                person = path.name.startswith("person-")
                who = str(loaded.header.get("who") or state.players[0].name)
                scores = state.scores
                plays.append(Play(board.number, who, person, (scores[0], scores[1], scores[2]),
                                  path))
        return plays, problems


def check_event_name(name: str) -> str:
    if not NAME.fullmatch(name):
        raise EventError(f"an event's name is 1 to 40 small letters, digits and dashes, "
                         f"starting with a letter or digit, not {name!r}")
    return name


def new_event(name: str, seed: int, count: int, level: str) -> DuplicateEvent:
    """Make an event: its file, and the computer's plays of its boards."""
    check_event_name(name)
    if count < 3 or count % 3 or count > 99:
        raise EventError(f"an event has 3 to 99 boards in threes (each person then holds "
                         f"every seat's cards as often), not {count}")
    event = DuplicateEvent(name, seed, level, make_boards(seed, count),
                           datetime.now(UTC).isoformat(timespec="seconds"))
    if event.folder.exists():
        raise EventError(f"there is already an event named {name!r} ({event.folder})")
    # Made aside and moved into place whole: an event cut short by ^C or a
    # full disk is not left half there, its name taken.
    making = event.folder.with_name(f".{name}.making")
    shutil.rmtree(making, ignore_errors=True)
    private_folder(making.parent)
    private_folder(making)
    for board in event.boards:
        folder = making / event.board_folder(board.number).relative_to(event.folder)
        private_folder(folder.parent)
        private_folder(folder)
        for baseline in BASELINE_LEVELS:
            who = computer_entry(baseline)
            game = play_with_bots(board, event.seat(board.number),
                                  (baseline, level, level), computer_names(baseline),
                                  salt=f"{name} {seed}")
            write_log(folder / f"computer-{baseline}.jsonl", game.events,
                      event.header(board.number, who, "crib3 event new"))
    (making / "event.json").write_text(json.dumps(event.to_json(), indent=1) + "\n",
                                       encoding="utf-8")
    making.rename(event.folder)
    return event


def load_event(name: str) -> DuplicateEvent:
    path = events_dir() / check_event_name(name) / "event.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return DuplicateEvent.from_json(data)
    except FileNotFoundError:
        raise EventError(f"there is no event named {name!r} (crib3 event list shows them)"
                         ) from None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise EventError(f"{path}: cannot be read: {exc}") from None


def event_names() -> Iterator[str]:
    folder = events_dir()
    if folder.is_dir():
        yield from sorted(p.parent.name for p in folder.glob("*/event.json"))
