"""The card room (`crib3 serve`) as a model: tables, seats, who is here,
and one authoritative game per table.

It sits beside the engine and imports the engine and the computer players,
never the screens and never SSH: `crib3.net` carries people to it, and the
card room's screens (`crib3.tui.screens.lobby`, `open_table`, `waiting`,
`room_table`) show it.

- `contract`: what a screen or a session may ask of a room and of its
  tables, whichever of the three it is (`Room`, a worker's `ReplicaRoom`,
  a cluster node's), what only a cluster's node adds (`room.cluster`), and
  a session's way between the lobby, tables and nodes (`Wayfinding`).
- `basics`: the one error a person can meet (`RoomError`), and how the
  screens are told of a change.
- `seats`: who sits where (`Seat`), who is connected (`Presence`).
- `chat`: a table's talk (checked, rate-limited, unsaved).
- `table`: one `Table`, from its waiting list to its game's end.
- `room`: the `Room`, every table of one server and the people in it.
- `storage`: a table's files, and reading them back after a restart.
- `invites`: the web door's links and identities (kept as digests).
- for `--workers`: `wire` (the messages), `host` (the main process's side)
  and `replica` (the room a worker's screens read).
"""

from crib3.room.basics import RoomError
from crib3.room.room import Room
from crib3.room.seats import SEATS, Presence, Seat
from crib3.room.table import Table

__all__ = ["Presence", "Room", "RoomError", "SEATS", "Seat", "Table"]
