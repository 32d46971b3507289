"""The card room (`crib3 serve`) as a model: tables, seats, who is here,
and one authoritative game per table.

It sits beside the engine and imports the engine and the computer players,
never the screens and never SSH: `crib3.net` carries people to it, and the
card room's screens (`crib3.tui.screens.lobby`, `open_table`, `waiting`,
`room_table`) show it.

- `basics`: the one error a person can meet (`RoomError`), and how the
  screens are told of a change.
- `seats`: who sits where (`Seat`), who is connected (`Presence`).
- `chat`: a table's talk (checked, rate-limited, unsaved).
- `table`: one `Table`, from its waiting list to its game's end.
- `room`: the `Room`, every table of one server and the people in it.
- `storage`: a table's files, and reading them back after a restart.
"""

from crib3.room.basics import RoomError
from crib3.room.room import Room
from crib3.room.seats import SEATS, Presence, Seat
from crib3.room.table import Table

__all__ = ["Presence", "Room", "RoomError", "SEATS", "Seat", "Table"]
