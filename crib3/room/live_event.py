"""A live duplicate event in the card room: who entered, how they sit, which
board is in play, who left, and the results. A model: it opens no table
and runs no clock (`crib3.room.live_tables` does, at the room's tables).

People enter before the start, one entry a person: by name, and by who
they are for the room's limits (`Presence.holder`: their key, or under
`--open` their address), so nobody enters twice under two names. At the
start they sit three to a table in the order they entered, the tables as
even as they go (seven people: 3, 2 and 2); the computer fills a short
table's empty slots, and says so. A table's slot `p` holds board seat
`seat_of(p, n)` on board `n` (`crib3.duplicate.boards`), so over three
boards everyone holds each seat once.

Every table plays board 1, then board 2, ...: a table that is through
with a board waits for the others before the next one is dealt. Waiting
costs the fast tables a minute; it buys two things worth more: nobody is
dealt a board while anyone else is still playing it (its cards cannot pass
from a finished table to one still at it), and everyone sees a board's
whole result as soon as it is dealt with.

The field of a board is everyone who held the same cards: the same slot at
every table, the computer's fills in it too, and the computer at the
event's level playing that slot's seat against two of its kind (a
yardstick, so that a lone table is still compared with something). The
plays are scored as a daylong event's are (`crib3.duplicate.scoring`):
net points, matchpoints as a percentage. A person who leaves mid-event is
replaced by the computer from that board on; those boards are scored as
the computer's ("computer for NAME"), never as theirs.

Too few people (fewer than three at the start): one line says so, and the
event runs with the computer in the empty slots or is called off, as the
host chose when making it.
"""

from __future__ import annotations

import json
import shutil
import tempfile
import threading
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from crib3.common.names import name_column, shown_name
from crib3.duplicate.boards import Board, make_boards, seat_of
from crib3.duplicate.events import (
    DuplicateEvent,
    EventError,
    check_event_name,
    computer_entry,
    events_dir,
)
from crib3.duplicate.play import play_with_bots
from crib3.duplicate.scoring import BoardResult, Play, Standing, score_boards, standings
from crib3.engine.log import LogError, load_log, write_log
from crib3.engine.state import Phase
from crib3.room.basics import RoomError

SLOTS = 3
WITH_COMPUTER, CALL_OFF = "computer", "call off"  # what a short event does (the host's choice)
ENTERING, PLAYING, OVER, CALLED_OFF = "entering", "playing", "over", "called off"
LIVE_FILE = "live.json"


@dataclass(frozen=True)
class Entrant:
    """A person entered in the event."""

    name: str
    key: str | None
    holder: str | None  # `Presence.holder`: one entry per key (or --open address)


@dataclass(frozen=True)
class FieldResult:
    """A board's field in one slot: everyone who held those cards."""

    board: int
    slot: int
    result: BoardResult


def fill_name(table: int, slot: int) -> str:
    """How the computer filling an empty slot is named in a field."""
    return f"computer at table {table + 1}, seat {slot + 1}"


def stand_in_name(name: str) -> str:
    """How a person's boards played by the computer (they left) are named."""
    return f"computer for {name}"


def table_sizes(people: int) -> list[int]:
    """How many people sit at each table: as few tables as hold everyone,
    as even as they go (the short tables last)."""
    if people <= 0:
        return []
    tables = -(-people // SLOTS)
    base, extra = divmod(people, tables)
    return [base + 1] * extra + [base] * (tables - extra)


@dataclass
class LiveEvent:
    """One live event (see the module's docstring). `start_at`: seconds
    since the epoch; `short`: WITH_COMPUTER or CALL_OFF."""

    event: DuplicateEvent
    host: str
    start_at: float
    short: str = WITH_COMPUTER
    entrants: list[Entrant] = field(default_factory=list)
    status: str = ENTERING
    seating: list[list[str | None]] = field(default_factory=list)  # table -> slot -> name
    board: int = 0  # the board in play (from 1); 0 before the first
    done: set[int] = field(default_factory=set)  # tables through with `board`
    left: dict[str, int] = field(default_factory=dict)  # lower name -> first board not theirs
    logs: dict[tuple[int, int], Path] = field(default_factory=dict)  # (board, table) -> log
    note: str = ""  # the line said at the start (too few people), if any
    # The result sheet's lines as last read from the logs, and what they were read at.
    _sheet: tuple[tuple[Any, ...], tuple[str, ...]] | None = field(
        default=None, compare=False, repr=False)

    @property
    def name(self) -> str:
        return self.event.name

    @property
    def boards(self) -> tuple[Board, ...]:
        return self.event.boards

    @property
    def board_count(self) -> int:
        return len(self.event.boards)

    @property
    def entered(self) -> list[str]:
        return [e.name for e in self.entrants]

    def starts_words(self) -> str:
        return datetime.fromtimestamp(self.start_at, UTC).strftime("%H:%M UTC")

    # --- entering -------------------------------------------------------------------

    def entrant(self, name: str) -> Entrant | None:
        return next((e for e in self.entrants if e.name.lower() == name.lower()), None)

    def join(self, name: str, key: str | None, holder: str | None) -> Entrant:
        """`name` enters (RoomError, one line, says why not). Entering
        again under the same name and key is no second entry."""
        if self.status != ENTERING:
            raise RoomError(f"event {self.name} has started: entries are closed")
        mine = self.entrant(name)
        if mine is not None:
            if mine.key != key:
                raise RoomError(f"{shown_name(name)} is entered in event {self.name} "
                                "with another key")
            return mine
        if holder is not None:
            twin = next((e for e in self.entrants if e.holder == holder), None)
            if twin is not None:
                raise RoomError(f"you are entered in event {self.name} already, as "
                                f"{shown_name(twin.name)}: one entry a person")
        entrant = Entrant(name, key, holder)
        self.entrants.append(entrant)
        return entrant

    def withdraw(self, name: str) -> None:
        """`name` takes their entry back (before the start only)."""
        if self.status == ENTERING:
            self.entrants = [e for e in self.entrants if e.name.lower() != name.lower()]

    # --- the start and the boards ----------------------------------------------------

    def begin(self) -> str:
        """Seat the entrants (see the module's docstring). Returns the line
        to say when there are too few people ("" when there are enough);
        the event is then PLAYING, or CALLED_OFF."""
        if self.status != ENTERING:
            raise RoomError(f"event {self.name} has started already")
        people = [e.name for e in self.entrants]
        if len(people) < SLOTS:
            if not people or self.short == CALL_OFF:
                self.status = CALLED_OFF
                self.note = (f"event {self.name} is called off: {len(people)} "
                             f"{'person' if len(people) == 1 else 'people'} entered, "
                             f"it needs {SLOTS}")
                return self.note
            self.note = (f"event {self.name}: only {len(people)} entered; the computer "
                         "plays the empty seats")
        names = iter(people)
        self.seating = [[next(names) if slot < size else None for slot in range(SLOTS)]
                        for size in table_sizes(len(people))]
        self.status = PLAYING
        return self.note

    def next_board(self) -> Board | None:
        """The next board, now in play at every table (None: the event is
        over, its last board played)."""
        if self.status != PLAYING:
            return None
        if self.board >= len(self.boards):
            self.status = OVER
            return None
        self.board += 1
        self.done = set()
        return self.boards[self.board - 1]

    def started_at(self, table: int, log: Path) -> None:
        """Table `table` began the board in play; its log is `log`."""
        self.logs[self.board, table] = log

    def finished(self, table: int, log: Path) -> bool:
        """Table `table` is through with the board in play (its log now at
        `log`): True when every table is, and the next board may be dealt."""
        self.logs[self.board, table] = log
        self.done.add(table)
        return len(self.done) == len(self.seating)

    def leaves(self, name: str) -> bool:
        """`name` left mid-event: the computer plays their seat from the
        board in play on (True: they were playing; their seat is the
        computer's now)."""
        if self.status != PLAYING or self.place(name) is None or name.lower() in self.left:
            return False
        self.left[name.lower()] = max(self.board, 1)
        return True

    def playing(self, name: str, board: int) -> bool:
        """`name` (entered and seated) plays `board` themself."""
        first_not = self.left.get(name.lower())
        return first_not is None or board < first_not

    def place(self, name: str) -> tuple[int, int] | None:
        """Where `name` sits: (table, slot), both from 0."""
        for table, slots in enumerate(self.seating):
            for slot, who in enumerate(slots):
                if who is not None and who.lower() == name.lower():
                    return table, slot
        return None

    # --- results -----------------------------------------------------------------------

    def entries(self, table: int, board: int) -> list[tuple[str, bool]]:
        """Who each slot of `table` is on `board`, as the field names them,
        and whether a person played it."""
        out = []
        for slot, who in enumerate(self.seating[table]):
            if who is None:
                out.append((fill_name(table, slot), False))
            elif self.playing(who, board):
                out.append((who, True))
            else:
                out.append((stand_in_name(who), False))
        return out

    def plays(self, baseline: Path | None = None) -> tuple[list[tuple[int, Play]], list[str]]:
        """Every finished play of every board dealt with everywhere, each
        with its slot; `baseline`: the folder of the computer's yardstick
        plays (`play_baseline`). And a line for each log left out."""
        plays: list[tuple[int, Play]] = []
        problems: list[str] = []
        over = self.board if self.status == OVER else self.board - 1
        for (number, table), path in sorted(self.logs.items()):
            if number > over:
                continue  # not over at every table yet: shown to nobody
            scores = _final_scores(path, problems)
            if scores is None:
                continue
            for slot, (who, person) in enumerate(self.entries(table, number)):
                points = (scores[slot], scores[(slot + 1) % 3], scores[(slot + 2) % 3])
                plays.append((slot, Play(number, who, person, points, path)))
        if baseline is not None:
            for number in range(1, over + 1):
                for slot in range(SLOTS):
                    path = baseline_log(baseline, number, slot)
                    scores = _final_scores(path, problems)
                    if scores is not None:
                        plays.append((slot, Play(number, computer_entry(self.event.level),
                                                 False, scores, path)))
        return plays, problems

    def results(self) -> tuple[list[FieldResult], list[Standing], list[str]]:
        """Each board's fields (a slot's each, with the computer's yardstick
        if the event has one), the ranking over them, and the logs that
        could not be read."""
        baseline = baseline_folder(self.event)
        plays, problems = self.plays(baseline if baseline.is_dir() else None)
        by_slot: dict[int, list[Play]] = defaultdict(list)
        for slot, play in plays:
            by_slot[slot].append(play)
        fields = [FieldResult(result.board, slot, result)
                  for slot, slot_plays in by_slot.items() for result in score_boards(slot_plays)]
        fields.sort(key=lambda f: (f.board, f.slot))
        return fields, standings([f.result for f in fields]), problems

    def sheet(self) -> tuple[str, ...]:
        """The result sheet's lines below its heading: the ranking and the
        fields of the boards over at every table (none yet: empty). Read
        from the logs again only when a board is over or someone left:
        every screen of the room asks at each of its redraws."""
        at = self.sheet_at()
        if self._sheet is None or self._sheet[0] != at:
            fields, ranking, _ = self.results()
            lines = tuple(sheet_lines(self, fields, ranking)[3:]) if fields else ()
            self._sheet = (at, lines)
        return self._sheet[1]

    def sheet_at(self) -> tuple[Any, ...]:
        """What the sheet depends on: the boards over everywhere, who left."""
        over = self.board if self.status == OVER else self.board - 1
        return (self.status, over, tuple(sorted(self.left.items())))

    def show_sheet(self, lines: tuple[str, ...]) -> None:
        """The sheet's lines as read elsewhere (a cluster's node reads the
        plays from the tables' streams, in the background): shown as they
        are until they are read again."""
        self._sheet = (self.sheet_at(), lines)

    # --- kept on disk ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"host": self.host, "start_at": self.start_at, "short": self.short,
                "entrants": [[e.name, e.key, e.holder] for e in self.entrants],
                "status": self.status, "seating": self.seating, "board": self.board,
                "done": sorted(self.done), "left": self.left, "note": self.note,
                "logs": [[b, t, str(p)] for (b, t), p in sorted(self.logs.items())]}

    @classmethod
    def from_json(cls, event: DuplicateEvent, data: dict[str, Any]) -> LiveEvent:
        live = cls(event, str(data["host"]), float(data["start_at"]), str(data["short"]))
        live.entrants = [Entrant(str(n), k, h) for n, k, h in data.get("entrants", [])]
        live.status = str(data.get("status", ENTERING))
        live.seating = [list(slots) for slots in data.get("seating", [])]
        live.board = int(data.get("board", 0))
        live.done = set(data.get("done", []))
        live.left = {str(k): int(v) for k, v in data.get("left", {}).items()}
        live.note = str(data.get("note", ""))
        live.logs = {(int(b), int(t)): Path(p) for b, t, p in data.get("logs", [])}
        return live

    def save(self) -> None:
        (self.event.folder / LIVE_FILE).write_text(json.dumps(self.to_json(), indent=1) + "\n",
                                                   encoding="utf-8")


def _final_scores(path: Path, problems: list[str]) -> tuple[int, int, int] | None:
    """A board's log's final scores by game seat; None when it cannot be
    read (said in `problems`) or its hand never reached the show's end."""
    try:
        state = load_log(path).state
    except (LogError, OSError) as exc:
        problems.append(f"{path}: {exc}")
        return None
    if not (state.phase == Phase.SHUFFLE and state.hand_number >= 1):
        return None
    return (state.scores[0], state.scores[1], state.scores[2])


def baseline_folder(event: DuplicateEvent) -> Path:
    """Where a live event's computer yardstick plays are kept."""
    return event.folder / "live-baseline"


def new_live_event(name: str, seed: int, count: int, level: str, host: str, start_at: float,
                   short: str) -> LiveEvent:
    """Make a live event: its boards, the computer's yardstick plays of
    them in every slot's seat (a second or two: run it off the room's
    loop), and its live file. EventError says why not."""
    check_event_name(name)
    if count < 3 or count % 3 or count > 99:
        raise EventError(f"an event has 3 to 99 boards in threes (each person then holds "
                         f"every seat's cards as often), not {count}")
    if short not in (WITH_COMPUTER, CALL_OFF):
        raise EventError(f"too few people: {WITH_COMPUTER!r} or {CALL_OFF!r}, not {short!r}")
    event = DuplicateEvent(name, seed, level, make_boards(seed, count),
                           datetime.now(UTC).isoformat(timespec="seconds"))
    if (events_dir() / name).exists():
        raise EventError(f"there is already an event named {name!r} ({event.folder})")
    event.folder.mkdir(parents=True)
    play_baseline(event, baseline_folder(event))
    live = LiveEvent(event, host, start_at, short)
    live.save()
    (event.folder / "event.json").write_text(json.dumps(event.to_json(), indent=1) + "\n",
                                             encoding="utf-8")
    return live


def baseline_log(folder: Path, board: int, slot: int) -> Path:
    return folder / f"{board:02d}" / f"slot-{slot}.jsonl"


_BASELINE_MADE = threading.Lock()  # one thread of a process plays a missing yardstick


def ensure_baseline(event: DuplicateEvent) -> Path:
    """The event's yardstick plays (`baseline_folder`), played here first if
    they are missing, as a cluster's node or `crib3 event results
    --cluster` finds them on a machine that did not make the event. They
    are played in a scratch folder beside their place and renamed into it
    whole: a reader (another task of this node reading the results, or
    another process on the same data folder) finds them complete or not at
    all, never the boards played so far (it once scored a board's field
    without two of its yardsticks, and a rated result would differ between
    nodes). Blocking (a second or two): run it off the loop."""
    folder = baseline_folder(event)
    with _BASELINE_MADE:
        if folder.is_dir():
            return folder
        folder.parent.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
        try:
            play_baseline(event, scratch)
            try:
                scratch.rename(folder)
            except OSError:
                if not folder.is_dir():  # (else another process's came first: the same plays)
                    raise
        finally:
            shutil.rmtree(scratch, ignore_errors=True)
    return folder


def play_baseline(event: DuplicateEvent, folder: Path) -> None:
    """The computer at the event's level plays each board in each slot's
    seat against two of its kind: the yardstick in every field."""
    for board in event.boards:
        for slot in range(SLOTS):
            seat = seat_of(slot, board.number)
            levels = (event.level,) * 3
            game = play_with_bots(board, seat, levels, salt=f"{event.name} {event.seed} live")
            path = baseline_log(folder, board.number, slot)
            path.parent.mkdir(parents=True, exist_ok=True)
            write_log(path, game.events, event.header(board.number,
                                                      computer_entry(event.level),
                                                      "crib3 event new --live"))


def load_live(event: DuplicateEvent) -> LiveEvent | None:
    """The live side of `event`, if it is a live event."""
    path = event.folder / LIVE_FILE
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise RoomError(f"{path}: cannot be read: {exc}") from None
    return LiveEvent.from_json(event, data)


def sheet_lines(live: LiveEvent, fields: Sequence[FieldResult],
                table: Sequence[Standing]) -> list[str]:
    """The result sheet of a live event, line by line, in 80 columns."""
    lines = [f"Live event {live.name}: {len(live.boards)} boards, "
             f"{len(live.seating)} table{'s' * (len(live.seating) != 1)}, "
             f"seed {live.event.seed} ({live.status})",
             "Scored in matchpoints: the share of the field each board's play beat "
             "(ties half).", "", "Ranking",
             f"{'':>4}  {'who':<36}{'boards':>7}{'score':>9}{'net':>8}"]
    for rank, s in enumerate(table, start=1):
        lines.append(f"{rank:>4}. {name_column(s.who, 36)}{s.boards:>7}{s.percent:>8.1f}%"
                     f"{s.net:>+8.1f}")
    for f in fields:
        lines += ["", f"Board {f.board}, seat {f.slot + 1}",
                  f"{'':>6}{'who':<36}{'you':>5}{'left':>6}{'right':>6}{'net':>8}{'score':>9}"]
        for scored in f.result.plays:
            play = scored.play
            mine, left, right = play.points
            lines.append(f"{'':>6}{name_column(play.who, 36)}{mine:>5}{left:>6}{right:>6}"
                         f"{play.net:>+8.1f}{scored.percent:>8.1f}%")
    return lines


def results_json(live: LiveEvent, fields: Sequence[FieldResult],
                 table: Sequence[Standing]) -> dict[str, Any]:
    """The sheet's facts for programs (each play's log named, to replay it)."""
    return {
        "event": live.name, "live": True, "seed": live.event.seed, "level": live.event.level,
        "status": live.status, "boards": len(live.boards), "tables": live.seating,
        "scale": "matchpoints, percent",
        "ranking": [{"rank": rank, "who": s.who, "person": s.person, "boards": s.boards,
                     "percent": round(s.percent, 2), "net": s.net}
                    for rank, s in enumerate(table, start=1)],
        "results": [{"board": f.board, "slot": f.slot, "seat": seat_of(f.slot, f.board),
                     "plays": [{"who": s.play.who, "person": s.play.person,
                                "points": list(s.play.points), "net": s.play.net,
                                "matchpoints_percent": round(s.percent, 2),
                                "log": str(s.play.log)} for s in f.result.plays]}
                    for f in fields],
    }
