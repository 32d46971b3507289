"""The toast a card-room table's people get when it has a new owner (its
owner left): said by the waiting screen and by the table screen alike.

A table never strands, and the card room's screens say so as it happens, in
toasts: who owns the table now, who has been away long enough that anyone
here may press `b`, and that a table was closed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crib3.common.names import shown_name

if TYPE_CHECKING:
    from textual.screen import Screen

    from crib3.room import Table


def tell_new_owner(screen: Screen[Any], table: Table, me: int, before: str) -> str:
    """A toast when the table has a new owner (its owner left): to the new
    owner, what they may do now; to the others, who it is. Returns the
    owner, to compare with next time."""
    if table.owner == before:
        return before
    mine = table.seats[me].name == table.owner
    if mine:
        keys = "x closes it for everyone" if table.started else "Enter starts the game"
        screen.notify(f"{shown_name(before)} left: you own table {table.number} now ({keys}).",
                      markup=False)
    else:
        screen.notify(f"{shown_name(before)} left: {shown_name(table.owner)} owns table "
                      f"{table.number} now.", markup=False)
    return table.owner
