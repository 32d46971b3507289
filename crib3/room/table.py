"""One table of a card room: three seats, then one game that the table
alone owns.

A table is first a waiting list of three seats, then (when its owner
starts it) a `Game`: the table writes the game's log (`storage`), drives
the computer players of its empty or given-up seats (`BotDriver`, the same
driver as at your own keyboard), and hands each person a `SeatFeed`, the
redacted side of the game that their screen is built on. People come and
go; a seat waits for its person, and whoever signs in again with the same
name and key sits down where they were.

A table never strands: its owner is always one of the people at it while
anyone is. When the owner leaves, the next person here (in seat order after
the owner's seat) owns it; when a person comes back to a table whose owner
is away, they own it. Any person at a started table may give the seat of
someone gone longer than the room's patience to a computer player; at a
rated table the seat goes to one by itself once its person has been gone
the room's `forfeit` time (leaving does not save a rating: the seat is
ranked last for them). A started table with nobody connected for the room's idle time is shelved
(`Room.shelve_table`: saved, out of the lobby, back when one of its people
signs in again); its owner may close it (`close_by`, its log kept: the
owner who started the game at once, an owner who inherited it with the
agreement of everyone seated, and its other people may bring it back).
Before the start, the table is put away when its last person leaves.

A table may be opened for a match (`crib3.room.match`: best of 3 or 5,
the same three seats): as each game ends its log is filed beside the
table's and the next game begins at once (the deal cut for anew), until
someone has won the match; only then does the table leave the room, and a
rated table's result is the match's ranking, recorded once
(`Room.match_over`), its games moving no rating each. A seat whose person
left stays the computer's for the rest of the match, and counts last.

What the lobby shows of a table (its seats in words, how the game stands)
is the lobby screens' business: `crib3.tui.screens.lobby_words`.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING

from crib3.common.levels import HUMAN, bot_names
from crib3.common.names import shown_name
from crib3.engine import (
    Command,
    Count,
    Event,
    Game,
    IllegalMove,
    Play,
    PlayerInfo,
    Rules,
    SeatFeed,
    State,
)
from crib3.engine.events import ClaimRefused
from crib3.engine.log import load_log
from crib3.players import make_player
from crib3.players.autoplay import BotDriver
from crib3.room.basics import Listener, RoomError, notify
from crib3.room.chat import ChatLine, TableChat
from crib3.room.match import Match, Played
from crib3.room.seats import SEATS, Presence, Seat, SeatLookup, holder_of
from crib3.room.storage import OPEN, StoredTable, TableFiles

if TYPE_CHECKING:
    from crib3.room.room import Room

log = logging.getLogger("crib3.serve")

REFUSED_CLAIMS = 10  # over-claims refused a seat a hand (friendly muggins); then no more


class Table(SeatLookup):
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
        self.holders: dict[int, str] = {}  # seat -> who sat there (`Presence.holder`)
        self.passed_from: str | None = None  # the owner before the last change, if any
        self.listeners: list[Listener] = []
        self.watchers: list[Presence] = []  # spectators, in the order they came
        self.chat = TableChat()  # talk, never a game event: not in the log
        self.files = TableFiles(room.folder, number)
        self._bots: BotDriver | None = None
        self._wake = asyncio.Event()
        self._driver: asyncio.Task[None] | None = None
        self._idle: asyncio.TimerHandle | None = None
        self._forfeits: dict[int, asyncio.TimerHandle] = {}  # seat -> its person's time is up
        self.closed = False
        # A cluster's table only (`crib3.cluster.hosted`): this node may no
        # longer host it (another one does now); its people should reconnect.
        self.moved = False
        self.closed_by: str | None = None  # the owner who closed it (None: the room did)
        self.started_by: str | None = None  # the owner as its game started
        self.close_asked: list[str] = []  # who asked (or agreed) to close its game, in order
        self.rated = False  # its finished game moves ratings (chosen as it opened)
        self.match = Match()  # its match (chosen as it opened; a single game: best of 1)
        # seat -> (the game and hand, how many of its claims were refused in it)
        self.refused: dict[int, tuple[tuple[int, int], int]] = {}

    @classmethod
    def resume(cls, room: Room, stored: StoredTable) -> Table:
        """A table picked up from its files after a restart: its game goes
        on where it stood, its log goes on in the same file, and every
        person is away until they connect again (so the owner's patience
        counts from the restart)."""
        table = cls(room, stored.number, stored.owner, stored.rules, stored.seats)
        table.pick_up(stored)
        return table

    def pick_up(self, stored: StoredTable) -> None:
        """Go on with `stored`'s game (see `resume`; a cluster's node that
        adopts a table calls it too)."""
        self.started_by = stored.started_by
        self.rated = stored.rated
        self.match = stored.match
        if stored.events:
            game = self._go_on(stored.events)
        else:  # a match between two games: its next one begins now
            game = self._new_game(self._match_players(), random.SystemRandom().randrange(2**31))
        now = time.monotonic()
        self.away_since = {i: now for i, seat in enumerate(self.seats) if seat.person}
        self._play(game)
        for seat in self.away_since:
            self._forfeit_later(seat)
        self._nobody_here()

    # --- where its log is kept ----------------------------------------------------------
    #
    # A table's log is written through `_new_game` and `_go_on`: here to its
    # file, each event written (`_record`, the game's first subscriber) before
    # any other subscriber (a screen) is told of it, and fsynced off the loop. A cluster's table
    # (`crib3.cluster.hosted`) keeps it on a replicated stream instead, its
    # game telling its subscribers of an event only once the cluster holds it.

    def _new_game(self, players: list[PlayerInfo], seed: int) -> Game:
        """A new game at this table, its log begun."""
        self.files.start_log()
        return Game.new(players, self.rules, seed=seed, subscribers=[self._record])

    def _go_on(self, events: list[Event]) -> Game:
        """The game `events` make, its log going on where they stop."""
        self.files.reopen_log()
        game = Game.from_events(events)
        game.subscribe(self._record)
        return game

    # --- how it stands -------------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.game is not None

    @property
    def over(self) -> bool:
        """Its game is over (a match's: its last game, the match won)."""
        return self.game is not None and self.game.over and \
            (not self.match.is_match or self.match.over)

    @property
    def state(self) -> State | None:
        return self.game.state if self.game is not None else None

    @property
    def meta_path(self) -> Path:
        return self.files.meta_path

    @property
    def log_path(self) -> Path:
        return self.files.log_path

    def away(self, seat: int) -> float | None:
        """How long the person of `seat` has been gone (seconds), or None
        when they are here or the seat is a computer's."""
        if not self.seats[seat].person or seat in self.online:
            return None
        since = self.away_since.get(seat)
        return 0.0 if since is None else time.monotonic() - since

    def owner_seat(self) -> int | None:
        """The owner's seat (None only before anyone has sat down again
        after the owner's chair was freed)."""
        return self.seat_of(self.owner)

    def holder(self, seat: int) -> str | None:
        """Who sits at `seat`, for the room's per-person limits (see
        `Presence.holder`): as they sat down, or by the seat's key after a
        restart."""
        return self.holders.get(seat) or holder_of(self.seats[seat].key, None)

    def present(self, seat: int) -> bool:
        """A person plays `seat` and is connected now."""
        return seat in self.online and self.seats[seat].person

    def replaceable(self, seat: int) -> bool:
        """Anyone at the table may give this seat to a computer player: its
        person has been gone at least the room's patience."""
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
            self._arrived(mine, presence)
            self._changed()
            return mine
        if self.started:
            raise RoomError(f"table {self.number} is playing: its seats are taken")
        place = self.room.place_of(presence)
        if place is not None and place[0] is not self:
            raise RoomError(f"your seat at table {place[0].number} waits for you: one "
                            "table at a time")
        free = self.free_seats()
        if not free:
            raise RoomError(f"table {self.number} is full")
        index = free[0]
        self.seats[index] = Seat(presence.name, presence.key, self.seats[index].level)
        self.online.add(index)
        self._arrived(index, presence)
        self.save()
        self._changed()
        return index

    def _arrived(self, seat: int, presence: Presence) -> None:
        """Someone sat down (or came back): remember who, for the limits;
        and if the owner is away, the table is theirs now."""
        if presence.holder is not None:
            self.holders[seat] = presence.holder
        self._cancel_idle()
        self._cancel_forfeit(seat)
        owner = self.owner_seat()
        if owner is None or not self.present(owner):
            self._pass_ownership_to(seat)

    def leave(self, seat: int) -> None:
        """The person of `seat` goes (quits, leaves the table, or their
        connection drops). Before the start their chair is freed; during the
        game the seat waits for them. If they owned the table the next
        person here owns it; before the start, the table is put away when
        nobody is left."""
        if self.closed:
            return
        was_owner = seat == self.owner_seat()
        self.online.discard(seat)
        if not self.started:
            self.seats[seat] = Seat(level=self.seats[seat].level)
            self.holders.pop(seat, None)
            if not any(self.present(s) for s in range(SEATS)):
                self.room.close_table(self)
                return
            if was_owner:
                self._pass_ownership(seat)
            self.save()
        elif self.seats[seat].person:
            self.away_since[seat] = time.monotonic()
            if was_owner:
                self._pass_ownership(seat)
            self._forfeit_later(seat)
            self._nobody_here()
        self._changed()

    # --- who owns it ---------------------------------------------------------------

    def _pass_ownership(self, after: int) -> None:
        """The owner (of seat `after`) is gone: the next person here, in seat
        order after theirs, owns the table. With nobody here it stays, to
        pass to whoever comes back first."""
        for step in range(1, SEATS):
            seat = (after + step) % SEATS
            if self.present(seat):
                self._pass_ownership_to(seat)
                return

    def _pass_ownership_to(self, seat: int) -> None:
        name = self.seats[seat].name
        assert name is not None
        if name == self.owner:
            return
        self.passed_from = self.owner
        self.owner = name
        self.save()

    # --- nobody here -----------------------------------------------------------------

    def _nobody_here(self) -> None:
        """A started table with nobody connected: in the room's idle time it
        is shelved, unless someone comes back first."""
        if not self.started or self.over or self.closed or self._idle is not None:
            return
        if any(self.present(s) for s in range(SEATS)):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test of the model alone): no clock
            return
        self._idle = loop.call_later(self.room.idle_close, self._idle_out)

    def _cancel_idle(self) -> None:
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def _idle_out(self) -> None:
        self._idle = None
        if self.closed or self.over or any(self.present(s) for s in range(SEATS)):
            return
        self.room.shelve_table(self)

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
        self.started_by = self.owner
        seed = random.SystemRandom().randrange(2**31)
        game = self._new_game(players, seed)
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
        if state.winner is None:
            return
        if self.match.is_match:
            self.match = self.match.add(Played(state.winner, tuple(state.scores)))
            self.files.file_game()
        else:
            self.files.close_log()
        self.save()
        self.room.game_over(self, state)
        if self.match.is_match and self.match.over:
            self.room.match_over(self)

    def _match_players(self) -> list[PlayerInfo]:
        """The players of a match's next game: its last game's."""
        logs = self.files.game_logs()
        return list(load_log(logs[-1], keep_events=False).state.players)

    def _next_game(self, players: list[PlayerInfo]) -> None:
        """A match's game is over and the match is not: the next begins."""
        game = self._new_game(players, random.SystemRandom().randrange(2**31))
        self._play(game)
        self.save()
        self._changed()

    def feed(self, seat: int | None) -> SeatFeed:
        """The side of the game a person's screen is built on (None: a
        spectator's, public facts only)."""
        assert self.game is not None
        return TableFeed(self, seat)

    def replace(self, seat: int, by: str) -> None:
        """Anyone at the table gives the seat of a person gone too long to a
        computer player (of the level chosen for the table's empty seats)."""
        mine = self.seat_of(by)
        if mine is None or not self.present(mine):
            raise RoomError(f"only the people at table {self.number} can do that")
        if not self.replaceable(seat):
            raise RoomError(f"{shown_name(self.seats[seat].name)} has not been gone long enough")
        self._to_computer(seat, mine)

    def _to_computer(self, seat: int, new_owner: int | None) -> None:
        """The computer plays `seat` from now on (its person is gone); if it
        was the owner's, `new_owner` (None: the next person here) owns the table."""
        was_owner = seat == self.owner_seat()
        self.seats[seat].replaced = True
        self.holders.pop(seat, None)
        self._cancel_forfeit(seat)
        assert self._bots is not None
        self._bots.seat_bot(seat, make_player(self.seats[seat].level))
        if was_owner:  # a computer player owns nothing
            if new_owner is None:
                self._pass_ownership(seat)
            else:
                self._pass_ownership_to(new_owner)
        self.save()
        self._changed()
        self._wake.set()

    # --- leaving a rated game ---------------------------------------------------------

    def _forfeit_later(self, seat: int) -> None:
        """`seat`'s person left a rated game under way: unless they are back
        within the room's `forfeit` time, the computer finishes it for them."""
        wait = self.room.forfeit
        if not self.rated or wait is None or self.over or self.closed \
                or not self.seats[seat].person:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a test of the model alone): no clock
            return
        self._cancel_forfeit(seat)
        self._forfeits[seat] = loop.call_later(wait, self._forfeited, seat)

    def _cancel_forfeit(self, seat: int) -> None:
        handle = self._forfeits.pop(seat, None)
        if handle is not None:
            handle.cancel()

    def _forfeited(self, seat: int) -> None:
        self._forfeits.pop(seat, None)
        if self.closed or self.over or not self.seats[seat].person or seat in self.online:
            return
        log.info("table %d: seat %d gone %gs from a rated game; the computer finishes it",
                 self.number, seat, self.room.forfeit)
        self._to_computer(seat, None)

    def close_by(self, by: str) -> bool:
        """`by` closes the table's game for everyone, or asks to: True when
        it closed. The game stops where it stands and its log stays on disk
        (for the record, `crib3 replay`); the room does not bring it back
        by itself, but the people at it who did not ask for the close may
        (`Room.close_table`).

        Who may: the owner, at once, when they started this game or nobody
        else plays it (the other seats are computer players). An owner who
        came by the table later (its first owner left) only asks: the table
        closes when every person seated has asked or agreed (pressed `x`
        too), so nobody's game is ended by someone who inherited it."""
        mine = self.seat_of(by)
        asking = bool(self.close_asked) and mine is not None and self.present(mine)
        if by.lower() != self.owner.lower() and not asking:
            raise RoomError(f"only {shown_name(self.owner)} can close table {self.number}")
        name = self.seats[mine].name if mine is not None else by
        assert name is not None
        if by.lower() == self.owner.lower() and self._closes_at_once(name):
            self.closed_by = self.owner
            self.room.close_table(self, keep=True)
            return True
        if name not in self.close_asked:
            self.close_asked.append(name)
        people = {s.name for s in self.seats if s.person and s.name is not None}
        if people <= set(self.close_asked):
            self.closed_by = self.close_asked[0]
            self.room.close_table(self, keep=True)
            return True
        self._changed()
        return False

    def _closes_at_once(self, by: str) -> bool:
        """The owner `by` may close the table without asking anyone (see
        `close_by`)."""
        if not self.started or (self.started_by is not None
                                and self.started_by.lower() == by.lower()):
            return True
        return not any(s.person and s.name is not None and s.name.lower() != by.lower()
                       for s in self.seats)

    def reopenable_by(self) -> list[Seat]:
        """The seats as the room keeps them for a way back once this game is
        closed: the people who neither closed it nor asked to are persons
        (they may bring it back); the others are marked replaced."""
        asked = {name.lower() for name in self.close_asked}
        if self.closed_by is not None:
            asked.add(self.closed_by.lower())
        return [Seat(s.name, s.key, s.level,
                     s.replaced or (s.name is not None and s.name.lower() in asked))
                for s in self.seats]

    async def _drive(self) -> None:
        """Play the computer players' turns (see `BotDriver`) until the game
        ends. People's moves come in through their feeds and wake this up."""
        game = self.game
        assert game is not None and self._bots is not None
        await self._bots.run(self._wake, stopped=lambda: self.closed)
        if game.over and self.match.is_match and not self.match.over and not self.closed:
            self._next_game(list(game.state.players))
            return
        if game.over:  # it leaves the room (its files stay, for the record)
            self.room.tables.pop(self.number, None)
            if not self.closed:
                self.files.put_away()
                self.room.put_away(self.number)
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
        self.room.may_chat(presence)
        return self.chat.say(presence.name, text, presence.chat)

    # --- saving and telling ------------------------------------------------------------

    def save(self, status: str = OPEN) -> None:
        """Put who sits where on disk (the game's log is written as it goes)."""
        self.files.save_seats(self.owner, self.rules, self.seats, status, self.started_by,
                              self.rated, self.match.best_of)

    def _changed(self) -> None:
        notify(self.listeners)
        self.room.changed()

    def halt(self) -> None:
        """Stopped where it stands, as when its process dies: its computer
        players no longer driven, nothing written and nobody told (a
        cluster's node that dies: another node adopts the table)."""
        self.closed = True
        for seat in list(self._forfeits):
            self._cancel_forfeit(seat)
        if self._driver is not None:
            self._driver.cancel()

    def close(self) -> None:
        self.closed = True
        self._cancel_idle()
        for seat in list(self._forfeits):
            self._cancel_forfeit(seat)
        self._wake.set()
        if self._driver is not None:
            self._driver.cancel()
        self.files.close_log()
        self.watchers.clear()
        notify(self.listeners)


class TableFeed(SeatFeed):
    """A seat's side of a room table's game: the engine's (`SeatFeed`), with
    the claims the friendly muggins rule refuses bounded. That rule refuses
    an over-claim at no cost and lets the player count again, as often as
    they like, and each refusal is an event: logged, kept in memory, sent to
    every seat and spectator and replayed to each newcomer. So a seat's
    `REFUSED_CLAIMS` refused claims a hand are taken, then an over-claim is
    turned down before it reaches the game (a claim the cards hold still
    goes). Honest slips stay far inside the bound."""

    def __init__(self, table: Table, seat: int | None) -> None:
        assert table.game is not None
        super().__init__(table.game, seat)
        self.table = table

    def dispatch(self, command: Command) -> None:
        seat = self.seat
        if seat is None or not isinstance(command, (Count, Play)) or command.seat != seat \
                or (isinstance(command, Play) and command.claimed is None):
            super().dispatch(command)
            return
        from crib3.engine.rules import root_event

        state = self.game.state
        hand = (id(self.game), state.hand_number)
        refused = isinstance(root_event(state, command), ClaimRefused)
        counted, before = self.table.refused.get(seat, (hand, 0))
        before = before if counted == hand else 0
        if refused and before >= REFUSED_CLAIMS:
            raise IllegalMove(f"{REFUSED_CLAIMS} claims refused this hand: claim at most "
                              "what the cards hold")
        super().dispatch(command)
        if refused:
            self.table.refused[seat] = (hand, before + 1)
