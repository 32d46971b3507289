"""The card room: every table of one `crib3 serve`, and the people in it.

People arrive and leave (`sign_in`, `depart`); a person sits at one table at
a time; tables open, fill, play and leave the lobby when their game ends.
A restarted server calls `restore` to pick up its games where they stood.

Tables that nobody is at never fill the lobby: a started table with nobody
connected for `idle_close` seconds is shelved (saved, out of the lobby);
it comes back, where it stood, as soon as one of its people (same name and
key) signs in again, after a restart too. A table its owner closed stays
closed (its log is kept, for the record).

One person (one key; under `--open`, one address, loopback too: see `Presence.holder`)
may own at most `tables_per_key` tables at once and be signed in under at
most `names_per_key` names at once; 0 is no limit.

A name is a person's to keep: no name may pass for another the room knows
(a person's, a seat's, or one held under `--open`, present or not), nor for
a computer player's; and the one who holds a name is never refused it. Under
`--open` a name used in the last `HOLD_DAYS` is never forgotten to make room
for new ones: one address takes new names at a person's pace and holds a
bounded number of them, and the room a bounded number in all (`NAMES_HELD`).
Past those, the name unused the longest is given up for the new one if
nobody has used it for `HOLD_DAYS` (as long as a browser's identity is kept
without coming back); if none is that old, the new name is refused, and
everyone's held names stay theirs.

An admin's kick ends a session; a ban keeps its person out and a mute
keeps them out of chat, by their key (or under `--open` their address),
across reconnects and restarts: `crib3.room.moderation`, with the message
of the day and the audit log of every admin's action.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from crib3.common.levels import BOT_LEVELS, BOT_NAMES
from crib3.common.lookalikes import look_alike, name_keys
from crib3.common.names import check_name, shown_name
from crib3.common.pace import SHOW_PACE
from crib3.common.rates import TokenBucket
from crib3.engine import Rules, State
from crib3.room.basics import Listener, RoomError, notify
from crib3.room.identities import seat_identity
from crib3.room.live_tables import LiveEvents
from crib3.room.match import BEST_OF, Match
from crib3.room.moderation import BAN, MUTE, Moderation, Sanction
from crib3.room.playnow import PlayNow
from crib3.room.ratings import BOT_PREFIX, Placing
from crib3.room.records import Records
from crib3.room.results import (
    Results,
    best_hands,
    game_id,
    log_digest,
    match_result,
    result_of,
)
from crib3.room.seats import FIRST_USE, Presence, Seat, holder_of
from crib3.room.storage import (
    CLOSED,
    OPEN,
    SHELVED,
    StoredTable,
    TableFiles,
    UnreadableTable,
    last_number,
    numbers_on_disk,
    read_reopenable,
    read_table,
    stored_tables,
    take_out,
    write_reopenable,
)
from crib3.room.table import Table

if TYPE_CHECKING:
    from crib3.room.contract import ClusterExtras, TableView, Wayfinding

log = logging.getLogger("crib3.serve")

FORFEIT_AFTER = 300.0  # seconds gone from a rated game: the computer finishes the seat
OPENS_AT_ONCE = 3  # tables one person may open in a row ...
OPEN_EVERY = 20.0  # ... then one every so many seconds
OPENERS_KEPT = 4096  # people whose openings are counted before the full ones are forgotten
NAMES_HELD = 10_000  # names the room holds in all under --open (then new ones are refused)
NAMES_PER_ADDRESS = 200  # names one address holds under --open
HOLD_DAYS = 30.0  # a name unused so long may make way for a new one, past the caps (as long
#                   as a browser is known without coming back: invites.IDENTITY_DAYS)
NEW_NAMES_AT_ONCE = 20  # new names one address may take in a row under --open ...
NEW_NAME_EVERY = 6.0  # ... then one every so many seconds


@dataclasses.dataclass
class Hold:
    """Under `--open`: a name held by the key (or reconnect code) it first
    signed in with, from `address`, for the room's life, unless it goes
    unused for `HOLD_DAYS` while the room's or the address's names are full."""

    name: str  # as it was written
    key: str
    address: str | None  # `Presence.holder` of the first sign-in: whom the bounds count
    used: float = 0.0  # when its holder last signed in or left (the room's clock)


class Room:
    """Every table of one server (see the module's docstring)."""

    def __init__(self, folder: Path, think: float = 0.6, patience: float = 60.0,
                 idle_close: float = 600.0, tables_per_key: int = 0,
                 names_per_key: int = 0, clock: Callable[[], float] = time.time,
                 results: Results | None = None) -> None:
        self.folder = folder
        # The finished rated games' results and the ratings they make
        # (`crib3.room.results`); None: this room rates no game (--no-ratings).
        self.results = results
        # Each person's own record, read back for the lobby's views.
        self.records = Records(None if results is None else results.folder, folder)
        self.clock = clock  # the wall clock: when a held name was last used
        self.think = think
        self.patience = patience  # seconds away before a seat may go to a bot
        # Seconds a count of the show stays on a seat's screen before it goes
        # on by itself (0: until its person presses Enter): `--show-pace`.
        self.show_pace = SHOW_PACE
        # Seconds away from a rated game before the computer plays the seat
        # to the end, its person ranked last (None: never by itself).
        self.forfeit: float | None = FORFEIT_AFTER
        self.idle_close = idle_close  # seconds with nobody at a started table: shelved
        self.tables_per_key = tables_per_key  # tables one person may own at once (0: any)
        self.names_per_key = names_per_key  # names one person may use at once (0: any)
        self.tables: dict[int, Table] = {}
        self.shelved: dict[int, list[Seat]] = {}  # table number -> its seats, on disk
        # Closed games some of their people may bring back (`close_table`):
        # number -> its seats, those people as persons.
        self.reopenable: dict[int, list[Seat]] = {}
        self.admin_closed: set[int] = set()  # shelved by an admin: back only by `r`
        self.people: dict[str, Presence] = {}  # lower-cased name -> who is connected
        # Under --open: lower-cased name -> who holds it (the key or
        # reconnect code that first signed in with it), the least recently
        # used first.
        self.holds: dict[str, Hold] = {}
        self.hold_keys: dict[str, str] = {}  # each held name's `name_keys` -> it, lower-cased
        self.holds_from: dict[str, int] = {}  # address -> how many names it holds
        self.new_names: dict[str, TokenBucket] = {}  # address -> new names it may take now
        self.listeners: list[Listener] = []
        self.opened: dict[str, TokenBucket] = {}  # person -> how many tables they may open now
        self._last_number: int | None = None  # the highest table number used (see `_next_number`)
        # What only a cluster's node adds (`crib3.room.contract.ClusterExtras`):
        # nothing, on one machine.
        self.cluster: ClusterExtras | None = None
        # Bans, mutes and the message of the day, kept in the folder.
        self.moderation = Moderation(folder, clock)
        # The lobby's play-now queue (`crib3.room.playnow`).
        self.play_now: PlayNow | None = PlayNow(self)
        # Live duplicate events, played at this room's tables (`crib3.room.live_tables`).
        self.events = LiveEvents(self)

    # --- people ----------------------------------------------------------------

    def sign_in(self, name: str, key: str | None, kick: Callable[[str], None],
                address: str | None = None, journey: Wayfinding | None = None) -> Presence:
        """A person arrives. The same person (same name and key) signing in
        again takes over from their older session; another key with a name
        that is here already is refused, and so is one name too many for
        one person. A shelved table of theirs comes back to the lobby.
        Under `--open` (a `FIRST_USE` key) a name is held by the first key
        or code it signs in with (`held_by`; see `_may_hold`).
        `journey`: their session's, told of a table that comes back later
        (see `bring_back`)."""
        name = self._check_shown(name)
        self._check_ban(key, address)
        held = self.held_by(name)
        if held is not None and key is not None and key.startswith(FIRST_USE) and held != key:
            raise RoomError(f"{name} is held here by someone else")
        seated = [t.seats for t in self.lobby()] + list(self.shelved.values())
        own = key is not None and held == key
        for seats in seated:
            for seat in seats:
                if seat.name is not None and seat.name.lower() == name.lower():
                    if seat.key != key:
                        raise RoomError(f"{name} is taken here by someone with another key")
                    own = own or key is not None
        if not own:  # its holder is never refused their own name
            known = [seat.name for seats in seated for seat in seats if seat.name is not None]
            self._check_lookalike(name, known + [p.name for p in self.people.values()])
            self._check_held_lookalike(name)
        old = self.people.get(name.lower())
        if old is not None and old.key != key:
            raise RoomError(f"{name} is here already, with another key")
        presence = Presence(name, key, kick, address=address)
        self._check_names(presence)
        first_use = key is not None and key.startswith(FIRST_USE)
        if first_use and held is None:  # a new name: held from now on
            self._may_hold(presence)
        if old is not None:
            old.kick("you signed in again from elsewhere")
        self.people[name.lower()] = presence
        if first_use and key is not None:
            self._hold(presence, key)
        self.bring_back(presence, closed=False, journey=journey)
        self.changed()
        return presence

    async def enter(self, name: str, key: str | None, kick: Callable[[str], None],
                    address: str | None = None, admin: bool = False,
                    journey: Wayfinding | None = None) -> Presence:
        """`sign_in` as a server's session does it, an admin's or not (a
        cluster's node asks the cluster too: `crib3.cluster.room`)."""
        presence = self.sign_in(name, key, kick, address, journey)
        presence.admin = admin
        return presence

    def _check_ban(self, key: str | None, address: str | None) -> None:
        """RoomError, in one line, if whom this key (or, under --open, this
        address) stands for is banned here (`crib3.room.moderation`)."""
        ban = self.moderation.banned(holder_of(key, address))
        if ban is not None:
            raise RoomError(f"an admin has banned you from this room {ban.until_words()}")

    @staticmethod
    def _check_shown(name: str) -> str:
        """`name` as `check_name` keeps it (it shows something), or
        RoomError: not a computer player's (the lobby would list a person
        and a computer player alike)."""
        try:
            name = check_name(name)
        except ValueError as exc:
            raise RoomError(str(exc)) from None
        for bot in BOT_NAMES:
            if look_alike(name, bot):
                raise RoomError(f"{name} is a computer player's name here: choose another")
        return name

    def _check_held_lookalike(self, name: str) -> None:
        """A name may not pass for one held under --open, its holder here
        or not (`_check_lookalike`, by the held names' index)."""
        lower = name.lower()
        for found in name_keys(name):
            other = self.hold_keys.get(found)
            if other is not None and other != lower:
                raise RoomError(f"{name} looks like {shown_name(self.holds[other].name)}, "
                                "a name here already: choose another")

    @staticmethod
    def _check_lookalike(name: str, known: list[str]) -> None:
        """A name may not pass for another one the room knows (a seat's or
        a person's): compared by their Unicode skeletons, "аlice" with a
        Cyrillic а, or "aIice" with a capital I, is "alice". The same name
        (in any case) is the same person's, and is checked by key."""
        for other in known:
            if other.lower() != name.lower() and look_alike(name, other):
                raise RoomError(f"{name} looks like {shown_name(other)}, a name here "
                                "already: choose another")

    def name_refused(self, name: str) -> str | None:
        """Why a newcomer may not take `name`, or None: someone holds it
        (is signed in under it, sits under it, or, under --open, signed in
        with it first), or it looks like a name here (`_check_lookalike`).
        The web door asks before it ties a name to a browser for good; a
        newcomer has no key yet, so the same name is refused whatever key
        holds it."""
        lower = name.lower()
        seats = [seat for table in self.tables.values() for seat in table.seats]
        seats += [seat for shelved in self.shelved.values() for seat in shelved]
        if lower in self.people or self.held_by(name) is not None or any(
                seat.name is not None and seat.name.lower() == lower for seat in seats):
            return f"{name} is taken here: choose another name"
        known = [seat.name for seat in seats if seat.name is not None]
        try:
            self._check_shown(name)
            self._check_lookalike(name, known + [p.name for p in self.people.values()])
            self._check_held_lookalike(name)
        except RoomError as exc:
            return str(exc)
        return None

    def held_by(self, name: str) -> str | None:
        """The key (or code) that holds `name` under `--open`: the first it
        signed in with (unless given up, unused, for a new name: see
        `_may_hold`), or, after a restart, the one its seat was taken with.
        None: the name is free."""
        lower = name.lower()
        hold = self.holds.get(lower)
        if hold is not None:
            return hold.key
        seated = [t.seats for t in self.lobby()] + list(self.shelved.values())
        for seats in seated:
            for seat in seats:
                if seat.name is not None and seat.name.lower() == lower \
                        and seat.key is not None and seat.key.startswith(FIRST_USE):
                    return seat.key
        return None

    def _may_hold(self, presence: Presence) -> None:
        """RoomError unless `presence` may take a new name to hold under
        --open: its address takes `NEW_NAMES_AT_ONCE` in a row, then one
        every `NEW_NAME_EVERY` seconds, and holds at most
        `NAMES_PER_ADDRESS`; the room holds at most `NAMES_HELD`. Past a
        cap, the name of that cap's unused the longest is given up, if
        nobody has used it for `HOLD_DAYS` and nobody is signed in under
        it; a name used since is never forgotten: its holder may come back."""
        if len(self.holds) >= NAMES_HELD and not self._give_up_unused(None):
            raise RoomError("this room holds all the names it can: sign in under a "
                            "name you have used here before")
        address = presence.holder
        if address is None:
            return
        if self.holds_from.get(address, 0) >= NAMES_PER_ADDRESS and \
                not self._give_up_unused(address):
            raise RoomError(f"your address holds {NAMES_PER_ADDRESS} names here already, "
                            "the most one address may: sign in under one of them")
        bucket = self.new_names.get(address)
        if bucket is None:
            if len(self.new_names) >= NAMES_HELD:  # forget those who may take names in full
                for who, kept in list(self.new_names.items()):
                    if kept.take(0) == 0 and kept.tokens + 1e-9 >= kept.burst:
                        del self.new_names[who]
            bucket = self.new_names[address] = TokenBucket(1 / NEW_NAME_EVERY,
                                                           NEW_NAMES_AT_ONCE)
        if not bucket.take():
            wait = max(1, round((1 - bucket.tokens) * NEW_NAME_EVERY))
            raise RoomError(f"your address took {NEW_NAMES_AT_ONCE} new names just now: "
                            f"you may take another in {wait} s")

    def _give_up_unused(self, address: str | None) -> bool:
        """Forget the held name (`address`'s, or anyone's with None) unused
        the longest, if nobody has used it for `HOLD_DAYS` and nobody is
        signed in under it; whether one was. The holds are kept least
        recently used first, so the search stops at the first one used
        since."""
        since = self.clock() - HOLD_DAYS * 86400
        for lower, hold in self.holds.items():
            if hold.used > since:
                return False
            if lower not in self.people and (address is None or hold.address == address):
                self._drop_hold(lower)
                return True
        return False

    def _drop_hold(self, lower: str) -> None:
        hold = self.holds.pop(lower)
        for found in name_keys(hold.name):
            if self.hold_keys.get(found) == lower:
                del self.hold_keys[found]
        if hold.address is not None:
            self.holds_from[hold.address] -= 1
            if self.holds_from[hold.address] <= 0:
                del self.holds_from[hold.address]
        log.info("the name %r, unused for %.0f days, was given up for a new one",
                 hold.name[:40], HOLD_DAYS)

    def _used(self, name: str, key: str | None) -> None:
        """`key` used the name it holds (signed in, or left): it goes last
        in the order of names to give up."""
        lower = name.lower()
        hold = self.holds.get(lower)
        if hold is not None and hold.key == key:
            hold.used = self.clock()
            self.holds[lower] = self.holds.pop(lower)

    def _hold(self, presence: Presence, key: str) -> None:
        """`key` holds `presence`'s name (once `_may_hold` let it); used now."""
        lower = presence.name.lower()
        if lower in self.holds:
            self._used(presence.name, key)
            return
        hold = Hold(presence.name, key, presence.holder, self.clock())
        self.holds[lower] = hold
        for found in name_keys(presence.name):
            self.hold_keys.setdefault(found, lower)
        if hold.address is not None:
            self.holds_from[hold.address] = self.holds_from.get(hold.address, 0) + 1

    def _check_names(self, presence: Presence) -> None:
        """One person may be signed in under `names_per_key` names at once."""
        holder = presence.holder
        if not self.names_per_key or holder is None:
            return
        others = [p for p in self.people.values()
                  if p.holder == holder and p.name.lower() != presence.name.lower()]
        if len(others) >= self.names_per_key:
            whose = "your key" if holder.startswith("key ") else "your address"
            raise RoomError(f"{whose} has {len(others)} names signed in already, "
                            "the most here at once")

    def sign_out(self, presence: Presence) -> None:
        if self.people.get(presence.name.lower()) is presence:
            del self.people[presence.name.lower()]
            self._used(presence.name, presence.key)
        self.changed()

    def depart(self, presence: Presence) -> None:
        """A person's session ended (they quit, or the connection dropped).
        Their seat waits for them; a session that was taken over by the same
        person signing in again leaves their seat alone."""
        for table in list(self.tables.values()):
            table.unwatch(presence)  # a spectator's going is no one's seat
        if self.play_now is not None:  # leaving the room leaves the queue
            self.play_now.leave(presence)
        if self.people.get(presence.name.lower()) is not presence:
            return
        self.events.departed(presence)  # mid-event: the computer plays their seat
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

    @property
    def rates(self) -> bool:
        """This room rates games (a table is rated unless opened casual)."""
        return self.results is not None

    def open_table(self, owner: Presence, rules: Rules, levels: tuple[str, str],
                   rated: bool | None = None, best_of: int = 1) -> Table:
        """A new table with `owner` in its first seat; `levels` are the
        computer players for the other two seats if nobody takes them.
        `rated`: its game moves ratings (None: when the room rates; never
        when it does not). `best_of`: a match of 3 or 5 games (`crib3.room.match`)."""
        if best_of not in BEST_OF:
            raise RoomError(f"a table plays one game, or best of 3 or 5, not {best_of}")
        self._check_opening(owner, levels)
        self._may_open(owner)
        number = self._next_number()
        seats = [Seat(owner.name, owner.key), Seat(level=levels[0]), Seat(level=levels[1])]
        table = Table(self, number, owner.name, rules, seats)
        table.rated = self.rates and rated is not False
        table.match = Match(best_of)
        table.online.add(0)
        if owner.holder is not None:
            table.holders[0] = owner.holder
        self.tables[number] = table
        table.save()
        self.changed()
        return table

    def _check_opening(self, owner: Presence, levels: tuple[str, str]) -> None:
        """RoomError unless `owner` may open a table with these levels: not
        seated already, known levels, and under the room's tables a key."""
        if self.place_of(owner) is not None:
            raise RoomError("you sit at a table already")
        for level in levels:
            if level not in BOT_LEVELS:
                raise RoomError(f"unknown level {level!r}")
        held = self.tables_held(owner.holder)
        if self.tables_per_key and held >= self.tables_per_key:
            raise RoomError(f"you own {held} open table{'s' * (held != 1)} already, the most "
                            "this room allows: close one or finish its game first")

    def _may_open(self, owner: Presence, asked: str = "opened", again: str = "open another",
                  what: str = "tables") -> None:
        """One person (see `Presence.holder`; by name where there is nothing
        else to count by) opens `OPENS_AT_ONCE` tables in a row, then one
        every `OPEN_EVERY` seconds: a table costs a file, a log and a
        lobby line, and nobody at a club opens one a second. Joining the
        play-now queue asks for a table too, and making a live event for
        its boards' (`asked`, `again`, `what`: their words)."""
        person = owner.holder or f"name {owner.name.lower()}"
        bucket = self.opened.get(person)
        if bucket is None:
            if len(self.opened) >= OPENERS_KEPT:  # forget those who may open again in full
                for who, kept in list(self.opened.items()):
                    if kept.take(0) == 0 and kept.tokens + 1e-9 >= kept.burst:
                        del self.opened[who]
            bucket = self.opened[person] = TokenBucket(1 / OPEN_EVERY, OPENS_AT_ONCE)
        if not bucket.take():
            wait = max(1, round((1 - bucket.tokens) * OPEN_EVERY))
            raise RoomError(f"you {asked} {OPENS_AT_ONCE} {what} just now: you may {again} "
                            f"in {wait} s")

    def _next_number(self) -> int:
        """The next table's number: above every table this folder has files
        of, so a finished game's are never written over (a table that never
        started leaves none: its number may come again). The names in
        `closed/` are read once; the room counts what it puts there since
        (`put_away`)."""
        if self._last_number is None:
            self._last_number = last_number(self.folder)
        return max([self._last_number, *self.tables, *self.shelved, *self.reopenable,
                    *numbers_on_disk(self.folder)]) + 1

    def _save_reopenable(self) -> None:
        try:
            write_reopenable(self.folder, self.reopenable)
        except OSError as exc:  # the games stay closed; only the way back is lost
            log.warning("the closed games' way back could not be saved: %s", exc)

    def put_away(self, number: int) -> None:
        """Table `number`'s files went to `closed/` (see `_next_number`)."""
        if self._last_number is not None:
            self._last_number = max(self._last_number, number)

    def tables_held(self, holder: str | None) -> int:
        """How many tables in the lobby one person (see `Presence.holder`) owns."""
        if holder is None:
            return 0
        return sum(1 for table in self.lobby()
                   if (seat := table.owner_seat()) is not None and table.holder(seat) == holder)

    def close_table(self, table: Table, keep: bool = False) -> None:
        """A table leaves the room: one that never started is put away (its
        last person left); with `keep` (its owner closed it), its files
        stay, marked closed, and the room does not bring it back by itself.
        The people at a closed game who neither closed it nor asked to
        keep a way back: `r` in the lobby brings it back (`bring_back`)."""
        self.tables.pop(table.number, None)
        if keep:
            table.save(CLOSED)
            table.files.put_away()
            self.put_away(table.number)
            seats = table.reopenable_by()
            if table.started and not table.over and any(s.person for s in seats):
                self.reopenable[table.number] = seats
                self._save_reopenable()
        else:
            table.files.forget()
        table.close()
        self.changed()

    def shelve_table(self, table: Table) -> None:
        """A started table nobody has been at for `idle_close` seconds: saved
        and out of the lobby until one of its people signs in again."""
        log.info("table %d: nobody there for %gs; shelved", table.number, self.idle_close)
        self.tables.pop(table.number, None)
        table.save(SHELVED)
        table.close()
        self.shelved[table.number] = table.seats
        self.changed()

    def shelved_for(self, presence: Presence, closed: bool = True) -> int | None:
        """The number of a shelved table where `presence` plays (same name
        and key), if any; or else (`closed`) of a closed game they may
        bring back (see `close_table`)."""
        kept = [self.shelved, self.reopenable] if closed else [self.shelved]
        for games in kept:
            for number, seats in sorted(games.items()):
                if not closed and number in self.admin_closed:
                    continue
                if any(s.person and s.name is not None
                       and s.name.lower() == presence.name.lower()
                       and s.key == presence.key for s in seats):
                    return number
        return None

    def bring_back(self, presence: Presence, closed: bool = True,
                   journey: Wayfinding | None = None) -> Table | None:
        """The shelved table where `presence` plays, back in the lobby, its
        game where it stood (done at sign-in; the lobby offers it too, to
        someone who stayed in the room while it was shelved); with
        `closed` (the lobby's `r`), else a closed game of theirs that they
        did not close (see `close_table`). Here it is back at once, or not
        at all; a cluster's node brings it back later, and tells their
        session's `journey` (`Wayfinding.rejoin`)."""
        if self.place_of(presence) is not None:
            return None
        while (number := self.shelved_for(presence, closed)) is not None:
            self.admin_closed.discard(number)
            if self.shelved.pop(number, None) is None:
                del self.reopenable[number]
                self._save_reopenable()
                try:
                    take_out(self.folder, number)
                except UnreadableTable as exc:
                    log.warning("a closed table could not be brought back: %s", exc)
                    continue
            try:
                stored = read_table(self.folder, number, self._found_over)
            except UnreadableTable as exc:
                log.warning("a shelved table could not be brought back: %s", exc)
                continue
            if stored is None:  # (its game was over: put away for the record)
                self.put_away(number)
                continue
            table = Table.resume(self, stored)
            self.tables[number] = table
            table.save()
            self.changed()
            return table
        return None

    def lobby(self) -> list[Table]:
        """The tables people can see: waiting or playing, in order."""
        return [t for _, t in sorted(self.tables.items()) if not t.over]

    def restore(self) -> list[str]:
        """Pick up the games this room's folder holds that are not over (a
        server restart): open tables go back in the lobby, shelved ones wait
        for their people, closed ones stay closed. One person has one seat
        in the lobby: of two open tables with a person in common, the one
        played last comes back and the other is shelved (an admin closed
        a game under way, and its people sat down elsewhere meanwhile).
        Tables that never started are dropped. Returns a line for each table that could not be read
        (it is left on disk)."""
        stored, problems = stored_tables(self.folder, self._found_over)
        self.reopenable = read_reopenable(self.folder)
        seated: set[tuple[str, str | None]] = set()  # who has a seat in the lobby already
        for record in sorted(stored, key=lambda r: (-r.played_at, -r.number)):
            people = {(s.name.lower(), s.key) for s in record.seats
                      if s.person and s.name is not None}
            if record.status == OPEN and people & seated:
                # Someone of it plays at a table they went on to since: one
                # person, one seat. It waits, shelved, as a table nobody is at.
                record = dataclasses.replace(record, status=SHELVED)
                TableFiles(self.folder, record.number).save_seats(
                    record.owner, record.rules, record.seats, SHELVED, record.started_by,
                    record.rated)
            if record.status == SHELVED:
                self.shelved[record.number] = record.seats
            elif record.status != CLOSED:
                self.tables[record.number] = Table.resume(self, record)
                seated |= people
        return problems

    # --- admins (signed in with a key from --admins) ----------------------------

    def close_by_admin(self, table: TableView, by: Presence) -> None:
        """An admin closes `table`: one that never started is put away; a
        game under way is saved as it stands (its files stay, and a
        restarted server picks it up) and leaves the room. Everyone at it
        goes back to the lobby."""
        if not by.admin:
            raise RoomError("only an admin can close a table")
        if not isinstance(table, Table):
            raise RoomError("that table is not one of this room's")
        if not table.started:
            self.close_table(table)
            return
        table.save()
        self.tables.pop(table.number, None)
        table.close()
        # Its people need not wait for a restart: any of them may bring it
        # back from the lobby (`r`), as a shelved table; not by merely
        # signing in again, which would undo the admin's close at once.
        self.shelved[table.number] = table.seats
        self.admin_closed.add(table.number)
        self.changed()

    def remove(self, name: str, by: Presence) -> None:
        """An admin ends the session of the person called `name`: it is
        told so in one line and closed (their seat waits, as for a dropped
        connection)."""
        if not by.admin:
            raise RoomError("only an admin can remove a session")
        person = self.people.get(name.lower())
        if person is None:
            raise RoomError(f"{shown_name(name)} is not here")
        if person is by:
            raise RoomError("you cannot remove yourself: quit instead")
        self.moderation.record(by.name, "kick", person.name, person.holder, by_key=by.holder)
        person.kick("an admin closed your session; your table is saved")

    # --- ratings ------------------------------------------------------------------------

    def game_over(self, table: Table, state: State) -> None:
        """`table`'s game just ended (in `state`), its log whole on disk: a rated table's
        result goes in the results log, once (see `crib3.room.results`). A
        failure to write it is logged; the game is over all the same. A
        match's game is not rated by itself: its match is (`match_over`)."""
        if table.rated and not table.match.is_match:
            self._record_result(table.number, table.seats, state, table.log_path)

    def match_over(self, table: Table) -> None:
        """`table`'s match was just won: a rated match's ranking is its one
        result (see `crib3.room.match`)."""
        if table.rated:
            assert table.state is not None
            self._record_match(table.number, table.seats, table.match, table.state,
                               table.files.game_logs())

    def _found_over(self, stored: StoredTable, state: State) -> None:
        """A rated game found over at a start: the server stopped between
        its last event and its result. Its result goes in now, unless it
        is in already (`Results.record` keeps one a game)."""
        files = TableFiles(self.folder, stored.number)
        if stored.match.is_match:
            self._record_match(stored.number, stored.seats, stored.match, state,
                               files.game_logs())
            return
        self._record_result(stored.number, stored.seats, state, files.log_path)

    def _record_match(self, number: int, seats: Sequence[Seat], match: Match, last: State,
                      logs: Sequence[Path]) -> None:
        """A won match's result: its seats scored by games won (the names
        from its `last` game's state), under the id of its games' logs."""
        if self.results is None:
            return
        try:
            won, second, third = match.wins()
            best = [max(hands) for hands in zip(*(best_hands(path) for path in logs))]
            placings = self.placings(number, seats, last._replace(scores=(won, second, third)),
                                     best)
            if placings is None:
                return
            if not self.results.record(match_result(number, placings, logs)):
                log.info("table %d: its match's result is in already", number)
        except (OSError, ValueError) as exc:  # (sqlite3.Error is no OSError: a bug, raised)
            log.error("table %d: its match's result could not be recorded, no rating "
                      "moved: %s", number, exc)

    def _record_result(self, number: int, seats: Sequence[Seat], state: State,
                       log_path: Path) -> None:
        if self.results is None:
            return
        try:
            placings = self.placings(number, seats, state, best_hands(log_path))
            if placings is None:
                return
            result = result_of(game_id(log_path), number, placings, log_digest(log_path))
            if not self.results.record(result):
                log.info("table %d: its result is in already", number)
        except (OSError, ValueError) as exc:  # (sqlite3.Error is no OSError: a bug, raised)
            log.error("table %d: its result could not be recorded, no rating moved: %s",
                      number, exc)

    @staticmethod
    def placings(number: int, seats: Sequence[Seat], state: State,
                 best: Sequence[int] = ()) -> list[Placing] | None:
        """A finished game's seats as a result ranks them: each person's
        identity (`crib3.room.identities`) and final score, a seat its
        person left (the computer finished it) marked to be ranked last;
        the computer players by level. None: nothing to rate (fewer than
        two rated seats, or one identity in two seats, which could rate
        itself). `best`: each seat's best hand in the game, if known."""
        placings: list[Placing] = []
        for index, (seat, player, score) in enumerate(zip(seats, state.players, state.scores)):
            identity = seat_identity(seat)
            if identity is None:  # a person with no key: nobody's rating to move
                continue
            name = seat.name if seat.name is not None else player.name
            placings.append(Placing(identity, name, score, left=seat.replaced,
                                    best=best[index] if index < len(best) else 0))
        people = [p.identity for p in placings if not p.identity.startswith(BOT_PREFIX)]
        if len(set(people)) != len(people):
            log.warning("table %d: one key played two seats; its game is not rated", number)
            return None
        return placings if people and len(placings) >= 2 else None

    @property
    def motd(self) -> str:
        """The lobby's message of the day ("": none): text, never markup."""
        return self.moderation.motd

    def set_motd(self, text: str, by: Presence) -> str:
        """An admin sets the message of the day ("" clears it); as kept."""
        if not by.admin:
            raise RoomError("only an admin can set the message of the day")
        text = self.moderation.set_motd(text, by.name, by.holder)
        self.changed()
        return text

    def ban(self, name: str, by: Presence, seconds: float | None) -> str:
        """An admin bans the person called `name`, signed in here, for
        `seconds` (None: for good): by their key, or under --open their
        address (`Presence.holder`). Their session ends, and they are refused
        at sign-in till it ends. Returns how long, in words."""
        person = self._sanctioned(name, by, "ban")
        whom = person.holder
        assert whom is not None  # (`_sanctioned` checked)
        ban = self.moderation.impose(BAN, whom, person.name, seconds, by.name, by.holder)
        person.kick(f"an admin has banned you from this room {ban.until_words()}")
        return ban.until_words()

    def mute(self, name: str, by: Presence, seconds: float | None) -> str:
        """An admin mutes the person called `name`, signed in here: their
        chat is refused (their game goes on) for `seconds` (None: for
        good). Returns how long, in words."""
        person = self._sanctioned(name, by, "mute")
        whom = person.holder
        assert whom is not None  # (`_sanctioned` checked)
        mute = self.moderation.impose(MUTE, whom, person.name, seconds, by.name, by.holder)
        return mute.until_words()

    def sanctions(self, by: Presence) -> list[Sanction]:
        """The bans, then the mutes, in force (the latest first): an admin's
        to see, to lift one."""
        if not by.admin:
            raise RoomError("only an admin can see the bans and mutes")
        return self.moderation.in_force(BAN) + self.moderation.in_force(MUTE)

    def lift(self, what: str, whom: str, by: Presence) -> None:
        """An admin ends the ban (`what` BAN) or the mute (MUTE) on `whom`,
        a `Presence.holder` (see `sanctions`)."""
        if not by.admin:
            raise RoomError(f"only an admin can lift a {what}")
        if what not in (BAN, MUTE):
            raise RoomError(f"no such thing as a {what!r}")
        self.moderation.lift(what, whom, by.name, by.holder)

    def _sanctioned(self, name: str, by: Presence, what: str) -> Presence:
        """The person `by` (an admin) may `what` (ban or mute): here, not
        themselves nor an admin, with a key or an address to hold it to."""
        if not by.admin:
            raise RoomError(f"only an admin can {what} someone")
        person = self.people.get(name.lower())
        if person is None:
            raise RoomError(f"{shown_name(name)} is not here")
        if person is by or person.name.lower() == by.name.lower():
            raise RoomError(f"you cannot {what} yourself")
        if person.admin:
            raise RoomError(f"{shown_name(person.name)} is an admin: take their key out of "
                            f"the admins file instead")
        if person.holder is None:
            raise RoomError(f"{shown_name(person.name)} has no key or address to {what} by")
        return person

    def may_chat(self, presence: Presence) -> None:
        """RoomError, in one line, if an admin has muted `presence`."""
        mute = self.moderation.muted(presence.holder)
        if mute is not None:
            raise RoomError(f"an admin has muted you here {mute.until_words()}: "
                            "your chat is not shown (your game goes on)")

    def changed(self) -> None:
        notify(self.listeners)

    def close(self) -> None:
        """The room closes (the server stops): every table is put away, and
        the computer players' worker processes stop with it (a decision
        still under way would otherwise hold the server's exit)."""
        from crib3.players import workers

        if self.play_now is not None:
            self.play_now.close()
        for table in list(self.tables.values()):
            table.close()
        workers.shut_down()
