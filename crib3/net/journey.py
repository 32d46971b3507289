"""A session's way between the lobby, the tables here and those of other
nodes: one `Journey` per session, which the door makes and hands to each
app the session runs (`crib3.room.contract.Wayfinding` says what its fields
mean). It lives as long as the session, across its apps and its visits to
other nodes, which is why it is not the room's (`Presence`) nor an app's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crib3.room.contract import TableView


@dataclass
class Journey:
    """One session's way (see `crib3.room.contract.Wayfinding`)."""

    go_to: tuple[int, bool] | None = None
    joining: tuple[int, bool] | None = None
    notice: str | None = None
    rejoin: tuple[int, str] | None = None
    watching: TableView | None = None
    from_start: bool = False
