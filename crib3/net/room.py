"""The card room: the tables of a `crib3 serve`, who sits where, and the
one authoritative game of each table.

Nothing here knows about SSH or screens. A `Room` holds `Table`s; a table
is first a waiting list of three seats, then (when its owner starts it) a
`Game` that the table alone owns: it writes the game's log, drives the
computer players of its empty (or given-up) seats, and hands each person a
`SeatFeed`, the redacted side of the game that their screen is built on.
People come and go (`Presence`); a seat waits for its person, and whoever
signs in again with the same name and key sits down where they were.

Each table is saved as it goes, under the room's folder: `table-N.json`
(who sits where) and `table-N.jsonl` (the game's log), so a restarted
server picks its games up where they stood.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from crib3 import crash
from crib3.engine import Event, Game, PlayerInfo, Rules, SeatFeed, State
from crib3.engine.log import LogError, LogWriter, load_log, make_header
from crib3.levels import BOT_LEVELS, HUMAN, bot_names
from crib3.names import MAX_LENGTH, check_name, shown_name
from crib3.players import make_player
from crib3.players.autoplay import BotDriver

log = logging.getLogger("crib3.serve")

SEATS = 3
MAX_NAME = MAX_LENGTH  # what a name may be: crib3.names
Listener = Callable[[], None]


class RoomError(Exception):
    """Something a person asked that the room cannot do; the message says
    why in one line, fit to show them."""


@dataclass
class Seat:
    """One of a table's three chairs."""

    name: str | None = None  # the person sitting here; None: a computer player
    key: str | None = None  # the key they sat down with (None under --open)
    level: str = "standard"  # the computer player for this seat when it has none
    replaced: bool = False  # the person was gone too long; the computer plays on

    @property
    def person(self) -> bool:
        """A person plays this seat (rather than a computer player)."""
        return self.name is not None and not self.replaced


@dataclass
class Presence:
    """A person connected to the room (one SSH session). `kick` ends the
    session, with a reason to show, when the same person signs in again
    from elsewhere."""

    name: str
    key: str | None
    kick: Callable[[str], None] = field(repr=False, default=lambda reason: None)


def _notify(listeners: list[Listener]) -> None:
    for listener in list(listeners):
        try:
            listener()
        except Exception as exc:  # one broken screen must not stop the others
            crash.report(log, exc, "a room listener")


class Table:
    """One table: three seats, then one game (see the module's docstring)."""

    def __init__(self, room: Room, number: int, owner: str, rules: Rules,
                 seats: list[Seat]) -> None:
        self.room = room
        self.number = number
        self.owner = owner
        self.rules = rules
        self.seats = seats
        self.game: Game | None = None
        self.online: set[int] = set()  # seats whose person is connected now
        self.away_since: dict[int, float] = {}  # seat -> time.monotonic() they left
        self.listeners: list[Listener] = []
        self._bots: BotDriver | None = None
        self._writer: LogWriter | None = None
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self.closed = False

    # --- what people see in the lobby ------------------------------------------

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    @property
    def state(self) -> State | None:
        return self.game.state if self.game is not None else None

    def seat_of(self, name: str) -> int | None:
        """The seat where `name` sits as a person, if any."""
        for index, seat in enumerate(self.seats):
            if seat.name is not None and seat.name.lower() == name.lower():
                return index
        return None

    def free_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.name is None]

    def away(self, seat: int) -> float | None:
        """How long the person of `seat` has been gone (seconds), or None
        when they are here or the seat is a computer's."""
        if not self.seats[seat].person or seat in self.online:
            return None
        since = self.away_since.get(seat)
        return 0.0 if since is None else time.monotonic() - since

    def replaceable(self, seat: int) -> bool:
        """The owner may give this seat to a computer player: its person has
        been gone at least the room's patience."""
        gone = self.away(seat)
        return self.started and not self.over and gone is not None and \
            gone >= self.room.patience

    def summary(self) -> str:
        """One line for the lobby: the seats and how the game stands. Plain
        text, to be shown as such (a name may look like markup)."""
        parts = []
        for index, seat in enumerate(self.seats):
            if seat.name is None:
                label = "· free ·" if self.state is None else \
                    f"{shown_name(self.state.players[index].name, MAX_LENGTH)} ({seat.level})"
            else:
                label = shown_name(seat.name, MAX_LENGTH)
                if seat.replaced:
                    label += f" ({seat.level})"
                elif self.started and index not in self.online:
                    label += " (away)"
            parts.append(label)
        return ", ".join(parts)

    def standing(self) -> str:
        state = self.state
        if state is None:
            return "waiting"
        if state.winner is not None:
            return f"won by {shown_name(state.name(state.winner), MAX_LENGTH)}"
        return f"hand {max(1, state.hand_number)}: " + "-".join(str(s) for s in state.scores)

    def rules_text(self) -> str:
        rules = [str(self.rules.target)]
        if self.rules.muggins:
            rules.append("muggins")
        if self.rules.skunks:
            rules.append("skunks")
        return " ".join(rules)

    # --- sitting down ------------------------------------------------------------

    def sit(self, presence: Presence) -> int:
        """Seat `presence`: back in their own seat, or in a free one while
        the table waits. RoomError says why not."""
        mine = self.seat_of(presence.name)
        if mine is not None:
            seat = self.seats[mine]
            if seat.key != presence.key:
                raise RoomError(
                    f"{shown_name(seat.name)} sits at table {self.number} with another key")
            self.online.add(mine)
            self.away_since.pop(mine, None)
            self._changed()
            return mine
        if self.started:
            raise RoomError(f"table {self.number} is playing: its seats are taken")
        free = self.free_seats()
        if not free:
            raise RoomError(f"table {self.number} is full")
        index = free[0]
        self.seats[index] = Seat(presence.name, presence.key, self.seats[index].level)
        self.online.add(index)
        self._save()
        self._changed()
        return index

    def leave(self, seat: int) -> None:
        """The person of `seat` goes (quits, or their connection drops).
        Before the start their chair is freed (the owner's going closes the
        table); during the game the seat waits for them."""
        if self.closed:
            return
        self.online.discard(seat)
        if not self.started:
            if self.seats[seat].name == self.owner:
                self.room.close_table(self)
                return
            self.seats[seat] = Seat(level=self.seats[seat].level)
            self._save()
        elif self.seats[seat].person:
            self.away_since[seat] = time.monotonic()
        self._changed()

    # --- the game ------------------------------------------------------------------

    def start(self, by: str) -> None:
        """The owner starts the game; computer players take the free seats."""
        if by.lower() != self.owner.lower():
            raise RoomError(f"only {self.owner} can start table {self.number}")
        if self.started:
            return
        names = [s.name for s in self.seats if s.name is not None]
        spare = iter(bot_names(names, SEATS))
        players = []
        for seat in self.seats:
            if seat.name is None:
                players.append(PlayerInfo(next(spare), seat.level))
            else:
                players.append(PlayerInfo(seat.name, HUMAN))
        seed = random.SystemRandom().randrange(2**31)
        self._writer = LogWriter(self.log_path, make_header(source="crib3 serve",
                                                              table=self.number))
        game = Game.new(players, self.rules, seed=seed,
                        subscribers=[self._record])
        self._begin(game)
        self._save()
        self._changed()

    def _begin(self, game: Game) -> None:
        self.game = game
        game.subscribe(lambda event, state: self._wake.set())
        rng = random.Random()
        bots = {index: make_player(seat.level, random.Random(rng.random()))
                for index, seat in enumerate(self.seats) if not seat.person}
        self._bots = BotDriver(game, bots, think=self.room.think, where=f"table {self.number}")
        self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _record(self, event: Event, state: State) -> None:
        assert self._writer is not None
        self._writer.append(event)
        if state.winner is not None:
            self._writer.close()
            self._save()

    def feed(self, seat: int) -> SeatFeed:
        """The side of the game a person's screen is built on."""
        assert self.game is not None
        return SeatFeed(self.game, seat)

    def replace(self, seat: int, by: str) -> None:
        """The owner gives the seat of a person gone too long to a computer
        player (of the level chosen for the table's empty seats)."""
        if by.lower() != self.owner.lower():
            raise RoomError(f"only {self.owner} can do that")
        if not self.replaceable(seat):
            raise RoomError(f"{shown_name(self.seats[seat].name)} has not been gone long enough")
        self.seats[seat].replaced = True
        assert self._bots is not None
        self._bots.seat_bot(seat, make_player(self.seats[seat].level))
        self._save()
        self._changed()
        self._wake.set()

    async def _drive(self) -> None:
        """Play the computer players' turns (see `BotDriver`) until the game
        ends. People's moves come in through their feeds and wake this up."""
        game = self.game
        assert game is not None and self._bots is not None
        await self._bots.run(self._wake, stopped=lambda: self.closed)
        if game.over:  # it leaves the room (its files stay, for the record)
            self.room.tables.pop(self.number, None)
        self._changed()

    # --- saving and telling -----------------------------------------------------

    @property
    def meta_path(self) -> Path:
        return self.room.folder / f"table-{self.number}.json"

    @property
    def log_path(self) -> Path:
        return self.room.folder / f"table-{self.number}.jsonl"

    def _save(self) -> None:
        data = {"number": self.number, "owner": self.owner, "rules": asdict(self.rules),
                "seats": [asdict(seat) for seat in self.seats]}
        self.room.folder.mkdir(parents=True, exist_ok=True)
        partial = self.meta_path.with_suffix(".json.part")
        partial.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(partial, self.meta_path)

    def _changed(self) -> None:
        _notify(self.listeners)
        self.room.changed()

    def close(self) -> None:
        self.closed = True
        self._wake.set()
        if self._driver is not None:
            self._driver.cancel()
        if self._writer is not None:
            self._writer.close()
        _notify(self.listeners)


class Room:
    """Every table of one server (see the module's docstring)."""

    def __init__(self, folder: Path, think: float = 0.6, patience: float = 60.0) -> None:
        self.folder = folder
        self.think = think
        self.patience = patience  # seconds away before a seat may go to a bot
        self.tables: dict[int, Table] = {}
        self.people: dict[str, Presence] = {}  # lower-cased name -> who is connected
        self.listeners: list[Listener] = []

    # --- people ----------------------------------------------------------------

    def sign_in(self, name: str, key: str | None, kick: Callable[[str], None]) -> Presence:
        """A person arrives. The same person (same name and key) signing in
        again takes over from their older session; another key with a name
        that is here already is refused."""
        try:
            name = check_name(name)
        except ValueError as exc:
            raise RoomError(str(exc)) from None
        for table in self.lobby():
            seat = table.seat_of(name)
            if seat is not None and table.seats[seat].key != key:
                raise RoomError(f"{name} is taken here by someone with another key")
        old = self.people.get(name.lower())
        if old is not None:
            if old.key != key:
                raise RoomError(f"{name} is here already, with another key")
            old.kick("you signed in again from elsewhere")
        presence = Presence(name, key, kick)
        self.people[name.lower()] = presence
        self.changed()
        return presence

    def sign_out(self, presence: Presence) -> None:
        if self.people.get(presence.name.lower()) is presence:
            del self.people[presence.name.lower()]
        self.changed()

    def depart(self, presence: Presence) -> None:
        """A person's session ended (they quit, or the connection dropped).
        Their seat waits for them; a session that was taken over by the same
        person signing in again leaves their seat alone."""
        if self.people.get(presence.name.lower()) is not presence:
            return
        place = self.place_of(presence)
        if place is not None:
            table, seat = place
            table.leave(seat)
        self.sign_out(presence)

    def place_of(self, presence: Presence) -> tuple[Table, int] | None:
        """The table (not yet over) where this person sits, and their seat."""
        for table in self.tables.values():
            seat = table.seat_of(presence.name)
            if seat is not None and not table.over and table.seats[seat].person:
                return table, seat
        return None

    # --- tables -----------------------------------------------------------------

    def open_table(self, owner: Presence, rules: Rules, levels: tuple[str, str]) -> Table:
        """A new table with `owner` in its first seat; `levels` are the
        computer players for the other two seats if nobody takes them."""
        if self.place_of(owner) is not None:
            raise RoomError("you sit at a table already")
        for level in levels:
            if level not in BOT_LEVELS:
                raise RoomError(f"unknown level {level!r}")
        number = max([0, *self.tables, *self._numbers_on_disk()]) + 1
        seats = [Seat(owner.name, owner.key), Seat(level=levels[0]), Seat(level=levels[1])]
        table = Table(self, number, owner.name, rules, seats)
        table.online.add(0)
        self.tables[number] = table
        table._save()
        self.changed()
        return table

    def close_table(self, table: Table) -> None:
        """A table that never started is put away (its owner left)."""
        self.tables.pop(table.number, None)
        with contextlib.suppress(OSError):
            table.meta_path.unlink()
        table.close()
        self.changed()

    def lobby(self) -> list[Table]:
        """The tables people can see: waiting or playing, in order."""
        return [t for _, t in sorted(self.tables.items()) if not t.over]

    def _numbers_on_disk(self) -> list[int]:
        numbers = []
        for path in self.folder.glob("table-*.json"):
            with contextlib.suppress(ValueError):
                numbers.append(int(path.stem.split("-", 1)[1]))
        return numbers

    def restore(self) -> list[str]:
        """Pick up the games this room's folder holds that are not over (a
        server restart). Tables that never started are dropped. Returns a
        line for each table that could not be read (it is left on disk)."""
        problems = []
        for meta_path in sorted(self.folder.glob("table-*.json")):
            try:
                data = json.loads(meta_path.read_text(encoding="utf-8"))
                number = int(data["number"])
                rules = Rules(**data["rules"])
                seats = [Seat(**seat) for seat in data["seats"]]
                log_path = self.folder / f"table-{number}.jsonl"
                if not log_path.exists():
                    meta_path.unlink()  # it never started: nothing to lose
                    continue
                loaded = load_log(log_path)
            except LogError as exc:
                problems.append(str(exc))
                continue
            except (OSError, ValueError, KeyError, TypeError) as exc:
                problems.append(f"{meta_path}: {exc}")
                continue
            if loaded.state.winner is not None:
                continue
            table = Table(self, number, str(data["owner"]), rules, seats)
            table._writer = LogWriter(log_path)
            game = Game.from_events(loaded.events)
            game.subscribe(table._record)
            now = time.monotonic()
            table.away_since = {i: now for i, s in enumerate(seats) if s.person}
            self.tables[number] = table
            table._begin(game)
        return problems

    def changed(self) -> None:
        _notify(self.listeners)

    def close(self) -> None:
        for table in list(self.tables.values()):
            table.close()
