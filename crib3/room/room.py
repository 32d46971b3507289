"""The card room: every table of one `crib3 serve`, and the people in it.

People arrive and leave (`sign_in`, `depart`); a person sits at one table at
a time; tables open, fill, play and leave the lobby when their game ends.
A restarted server calls `restore` to pick up its games where they stood.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from crib3.engine import Rules
from crib3.levels import BOT_LEVELS
from crib3.names import check_name, shown_name
from crib3.room.seats import Listener, Presence, RoomError, Seat, notify
from crib3.room.storage import numbers_on_disk, stored_tables
from crib3.room.table import Table


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
        for table in list(self.tables.values()):
            table.unwatch(presence)  # a spectator's going is no one's seat
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
        number = max([0, *self.tables, *numbers_on_disk(self.folder)]) + 1
        seats = [Seat(owner.name, owner.key), Seat(level=levels[0]), Seat(level=levels[1])]
        table = Table(self, number, owner.name, rules, seats)
        table.online.add(0)
        self.tables[number] = table
        table.save()
        self.changed()
        return table

    def close_table(self, table: Table) -> None:
        """A table that never started is put away (its owner left)."""
        self.tables.pop(table.number, None)
        table.files.forget()
        table.close()
        self.changed()

    def lobby(self) -> list[Table]:
        """The tables people can see: waiting or playing, in order."""
        return [t for _, t in sorted(self.tables.items()) if not t.over]

    def restore(self) -> list[str]:
        """Pick up the games this room's folder holds that are not over (a
        server restart). Tables that never started are dropped. Returns a
        line for each table that could not be read (it is left on disk)."""
        stored, problems = stored_tables(self.folder)
        for record in stored:
            self.tables[record.number] = Table.resume(self, record)
        return problems

    # --- admins (signed in with a key from --admins) ----------------------------

    def close_by_admin(self, table: Table, by: Presence) -> None:
        """An admin closes `table`: one that never started is put away; a
        game under way is saved as it stands (its files stay, and a
        restarted server picks it up) and leaves the room. Everyone at it
        goes back to the lobby."""
        if not by.admin:
            raise RoomError("only an admin can close a table")
        if not table.started:
            self.close_table(table)
            return
        table.save()
        self.tables.pop(table.number, None)
        table.close()
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
        person.kick("an admin closed your session; your table is saved")

    def changed(self) -> None:
        notify(self.listeners)

    def close(self) -> None:
        for table in list(self.tables.values()):
            table.close()
