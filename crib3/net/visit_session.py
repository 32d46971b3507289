"""A visitor's session (`crib3 serve --cluster`): the host's door for a
person connected to another node whose table this node hosts.

That node (their door) relays their terminal (`crib3.net.visiting`); here
it is a `PlaySession` like any other, on a `VisitChannel`, signed in here
only (the door holds their name in the cluster). How it ends goes back to
the door in a `VisitEnded`: a farewell, a table elsewhere to go on to, or
that this node is stopping (the table goes to another node).
"""

from __future__ import annotations

from crib3.net.session import Identity, PlaySession, Service
from crib3.net.visiting import Link, VisitChannel
from crib3.room import Presence, wire


class VisitSession(PlaySession):
    """One visitor's session at this node (see the module's docstring)."""

    may_visit = False
    door = "visit"  # (a person at another node's door, at a table of this one)

    def __init__(self, service: Service, visit: wire.Visit, link: Link) -> None:
        super().__init__(service, Identity(visit.name, visit.key, visit.admin, visit.address))
        self.visit = visit
        self.link = link
        self.moved = False
        self.channel = VisitChannel(link, dict(visit.env))
        self.attach(self.channel)
        self.set_terminal(visit.term, *visit.size)

    def begin(self) -> None:
        """Sign the visitor in here (RoomError: why not), then start their
        app, sitting at (or watching) the table they came for."""
        cluster = self.service.room.cluster
        assert cluster is not None  # (only a cluster's node admits visits)
        presence = cluster.visit_in(self.username, self.key, self.kick, self.address,
                                    self.admin, journey=self.journey)
        self.journey.joining = (self.visit.table, self.visit.watch)
        self.presence = presence
        self.channel.attach(self)
        self.start()

    def _ascii(self, env: dict[str, str]) -> bool:
        return bool(self.visit.ascii)

    def close_room(self) -> None:
        """This node stops: the visitor goes back to their door, and on to
        their table once another node has adopted it."""
        self.moved = True
        self._end()

    def _close(self, presence: Presence) -> None:
        self.service.sessions.discard(self)
        self.service.room.depart(presence)
        go_to = self.journey.go_to
        if self.moved:
            ended = wire.VisitEnded(moved=True)
        elif self.farewell:
            ended = wire.VisitEnded(farewell=self.farewell)
        elif go_to is not None:
            ended = wire.VisitEnded(table=go_to[0], watch=go_to[1])
        else:
            ended = wire.VisitEnded()
        self.link.send(ended)
        self.link.close()
        self.closed = True


def admit_visit(service: Service, visit: wire.Visit, link: Link) -> None:
    """A person connected to another node comes to a table hosted here;
    RoomError when they may not."""
    VisitSession(service, visit, link).begin()
