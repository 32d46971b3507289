"""A session's way between the lobby, the tables here and those of other
nodes: one `Journey` per session, which the door makes and hands to each
app the session runs (`crib3.room.contract.Wayfinding` says what its fields
mean). It lives as long as the session, across its apps and its visits to
other nodes, which is why it is not the room's (`Presence`) nor an app's.

Where a session goes when a visit to another node ends without the
person's word, or cannot begin, is decided here (`back_from_visit`,
`refused_visit`): whenever a person has a seat, the node they are on takes
them to it as soon as it is hosted anywhere, however they arrived. Their
seat is followed as the cluster's lobby lists it now, not the table a visit
began for: a visitor may have moved to another table during a visit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from crib3.room.contract import ClusterExtras, RoomView, TableView
    from crib3.room.seats import Presence


@dataclass
class Journey:
    """One session's way (see `crib3.room.contract.Wayfinding`)."""

    go_to: tuple[int, bool] | None = None
    joining: tuple[int, bool] | None = None
    notice: str | None = None
    rejoin: tuple[int, str] | None = None
    rewatch: tuple[int, str] | None = None
    watching: TableView | None = None
    from_start: bool = False

    def back_from_visit(self, room: RoomView, presence: Presence, number: int,
                        peer: str, *, moved: bool = False,
                        given_up: bool = False) -> tuple[int, bool] | None:
        """A visit to node `peer` (begun for table `number`) ended without
        the person's word: that node stopped (`moved`), stopped answering,
        or gave the visit up (`given_up`: it runs still, but heard nothing
        from this node for a while, as when this node was paused). The
        table to visit again at once, or None: this node's lobby, with a
        `notice` that says why, and the seat to go back to (`rejoin`) as
        soon as it is hosted by a node that answers."""
        cluster = room.cluster
        assert cluster is not None  # (only a cluster's node has visits)
        here = room.place_of(presence)
        if here is not None:  # adopted by this node already: the next app opens at the seat
            self.notice = f"The server of table {here[0].number} stopped; this server hosts it now."
            return None
        seat = cluster.seat_elsewhere(presence)
        if seat is None:
            self.notice = (
                f"The server of table {number} did not hear from this server for a few "
                f"seconds: you are back in this server's lobby." if given_up else
                f"The server of table {number} stopped{'' if moved else ' answering'}: you "
                f"are back in this server's lobby.")
            return None
        host = next((t.node for t in cluster.elsewhere() if t.number == seat), peer)
        if given_up and cluster.answering(host):
            return seat, False  # straight back to the seat, on the node that still hosts it
        self.notice = (
            f"The server of table {seat} stopped. Another server takes the table over in a "
            f"few seconds, and you are taken back to your seat." if moved else
            f"The server of table {seat} stopped answering. You are taken back to your seat "
            f"as soon as it answers again, or another server takes the table over.")
        self.rejoin = (seat, host)
        if not moved:  # (a node that stops does not come back: another adopts the table)
            cluster.on_answer(host, lambda: self._back(seat, host))
        return None

    def _back(self, number: int, node: str) -> None:
        """`node`, which hosts table `number`, answers again: the lobby may
        take its person there (it waited for the table on another node)."""
        if self.rejoin == (number, node):
            self.rejoin = (number, "")

    def refused_visit(self, cluster: ClusterExtras, presence: Presence, number: int,
                      watch: bool, host: str | None, why: str) -> None:
        """A visit to table `number` (hosted by `host`, as the lobby listed
        it) could not begin: `why`, said in this node's lobby; and when
        that node does not answer and the person has a seat there (they
        reconnected through this node before the table was adopted), the
        lobby takes them to it as soon as it is hosted again."""
        self.notice = why
        if watch or host is None or cluster.answering(host) \
                or cluster.seat_elsewhere(presence) != number:
            return
        self.notice = (f"The server of table {number} does not answer just now: you are "
                       f"taken to your seat as soon as it does, or another server takes the "
                       f"table over.")
        self.rejoin = (number, host)
        cluster.on_answer(host, lambda: self._back(number, host))
