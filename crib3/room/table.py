"""One table of a card room: three seats, then one game that the table
alone owns.

A table is first a waiting list of three seats, then (when its owner
starts it) a `Game`: the table writes the game's log (`storage`), drives
the computer players of its empty or given-up seats (`BotDriver`, the same
driver as at your own keyboard), and hands each person a `SeatFeed`, the
redacted side of the game that their screen is built on. People come and
go; a seat waits for its person, and whoever signs in again with the same
name and key sits down where they were.

What the lobby shows of a table (its seats in words, how the game stands)
is the lobby screens' business: `crib3.tui.screens.lobby_words`.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING

from crib3.engine import Event, Game, PlayerInfo, Rules, SeatFeed, State
from crib3.levels import HUMAN, bot_names
from crib3.names import shown_name
from crib3.players import make_player
from crib3.players.autoplay import BotDriver
from crib3.room.chat import ChatLine, TableChat
from crib3.room.seats import SEATS, Listener, Presence, RoomError, Seat, notify
from crib3.room.storage import StoredTable, TableFiles

if TYPE_CHECKING:
    from crib3.room.room import Room


class Table:
    """One table (see the module's docstring)."""

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
        self.watchers: list[Presence] = []  # spectators, in the order they came
        self.chat = TableChat()  # talk, never a game event: not in the log
        self.files = TableFiles(room.folder, number)
        self._bots: BotDriver | None = None
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self.closed = False

    @classmethod
    def resume(cls, room: Room, stored: StoredTable) -> Table:
        """A table picked up from its files after a restart: its game goes
        on where it stood, its log goes on in the same file, and every
        person is away until they connect again (so the owner's patience
        counts from the restart)."""
        table = cls(room, stored.number, stored.owner, stored.rules, stored.seats)
        table.files.reopen_log()
        game = Game.from_events(stored.events)
        game.subscribe(table._record)
        now = time.monotonic()
        table.away_since = {i: now for i, seat in enumerate(table.seats) if seat.person}
        table._play(game)
        return table

    # --- how it stands -------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        return self.game is not None and self.game.over

    @property
    def state(self) -> State | None:
        return self.game.state if self.game is not None else None

    @property
    def meta_path(self) -> Path:
        return self.files.meta_path

    @property
    def log_path(self) -> Path:
        return self.files.log_path

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

    # --- sitting down ----------------------------------------------------------------

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
        self.save()
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
            self.save()
        elif self.seats[seat].person:
            self.away_since[seat] = time.monotonic()
        self._changed()

    # --- the game ----------------------------------------------------------------------

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
        self.files.start_log()
        game = Game.new(players, self.rules, seed=seed, subscribers=[self._record])
        self._play(game)
        self.save()
        self._changed()

    def _play(self, game: Game) -> None:
        """The table's game from now on: bots in the seats people do not
        play, and the task that plays them."""
        self.game = game
        game.subscribe(lambda event, state: self._wake.set())
        rng = random.Random()
        bots = {index: make_player(seat.level, random.Random(rng.random()))
                for index, seat in enumerate(self.seats) if not seat.person}
        self._bots = BotDriver(game, bots, think=self.room.think, where=f"table {self.number}")
        self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _record(self, event: Event, state: State) -> None:
        self.files.record(event)
        if state.winner is not None:
            self.files.close_log()
            self.save()

    def feed(self, seat: int | None) -> SeatFeed:
        """The side of the game a person's screen is built on (None: a
        spectator's, public facts only)."""
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
        self.save()
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

    # --- spectators and chat ----------------------------------------------------------

    def watch(self, presence: Presence) -> None:
        """`presence` watches the game without a seat. RoomError says why
        not (it has not started, or they play at it)."""
        if not self.started or self.over or self.closed:
            raise RoomError(f"table {self.number} is not playing: there is nothing to watch")
        if self.seat_of(presence.name) is not None:
            raise RoomError(f"you have a seat at table {self.number}: sit down instead")
        if presence not in self.watchers:
            self.watchers.append(presence)
            self._changed()

    def unwatch(self, presence: Presence) -> None:
        if presence in self.watchers:
            self.watchers.remove(presence)
            self._changed()

    def watcher_names(self) -> list[str]:
        """Who is watching, as they signed in (show them literally)."""
        return [p.name for p in self.watchers]

    def say(self, presence: Presence, text: str) -> ChatLine:
        """A line of chat from a seat's person or a spectator of this table
        (RoomError: not theirs to say, not a line, or too fast)."""
        if self.seat_of(presence.name) is None and presence not in self.watchers:
            raise RoomError(f"you are not at table {self.number}")
        return self.chat.say(presence.name, text, presence.chat)

    # --- saving and telling ------------------------------------------------------------

    def save(self) -> None:
        """Put who sits where on disk (the game's log is written as it goes)."""
        self.files.save_seats(self.owner, self.rules, self.seats)

    def _changed(self) -> None:
        notify(self.listeners)
        self.room.changed()

    def close(self) -> None:
        self.closed = True
        self._wake.set()
        if self._driver is not None:
            self._driver.cancel()
        self.files.close_log()
        self.watchers.clear()
        notify(self.listeners)
