"""A visit's pings name the visits the pinger holds with the pinged node,
answered by those it does not hold (`crib3.cluster.visits`): a visit the
other side forgot twice in a row ends here as if its `End` had come, and a
node of the older wire (an empty ping, an empty answer) still counts as
answering with every visit held. No NATS: a fake client records."""

from __future__ import annotations

import asyncio
import json

from crib3.cluster.visits import FORGOTTEN, VisitLink, Visits
from crib3.room import wire


class Client:
    def __init__(self) -> None:
        self.published: list[tuple[str, bytes]] = []

    async def publish(self, subject: str, body: bytes) -> None:
        self.published.append((subject, body))

    async def flush(self, timeout: float = 2) -> None:
        pass


class Asked:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.answer: bytes | None = None

    async def respond(self, body: bytes) -> None:
        self.answer = body


def held(visits: Visits, ident: str, peer: str = "b") -> VisitLink:
    link = VisitLink(visits, peer, ident, f"crib3.visit.{ident}.out", f"crib3.visit.{ident}.in")
    visits.links[ident] = link
    link.confirmed = True
    return link


async def test_a_ping_is_answered_by_the_visits_not_held_here():
    visits = Visits(Client(), "a")
    held(visits, "b.x1")
    asked = Asked(json.dumps(["b.x1", "b.x2"]).encode())
    await visits._pinged(asked)
    assert json.loads(asked.answer) == ["b.x2"]
    older = Asked(b"")  # (a node of the older wire names none)
    await visits._pinged(older)
    assert older.answer == b""
    garbled = Asked(b"{not json")
    await visits._pinged(garbled)
    assert garbled.answer == b""


async def test_a_visit_the_other_side_forgot_twice_in_a_row_ends_here():
    visits = Visits(Client(), "a")
    link = held(visits, "b.x1")
    kept = held(visits, "b.x2")
    heard: list[object] = []
    link.attach(heard.append, lambda: None)
    visits._forgotten_by("b", ["b.x1", "b.x2"], ["b.x1"])
    assert not link.closed and heard == []  # (once: it may be ending just now)
    visits._forgotten_by("b", ["b.x1", "b.x2"], [])  # held again: counted from zero
    for _ in range(FORGOTTEN):
        visits._forgotten_by("b", ["b.x1", "b.x2"], ["b.x1"])
    assert heard == [wire.End(0, True)] and link.closed
    assert "b.x1" not in visits.links and not kept.closed
    await asyncio.sleep(0)


class Subscription:
    async def unsubscribe(self) -> None:
        pass


class Welcoming(Client):
    """A client whose every request is answered by a node that takes the visit."""

    async def subscribe(self, subject: str, cb=None) -> Subscription:
        return Subscription()

    async def request(self, subject: str, body: bytes, timeout: float = 1.0) -> Asked:
        return Asked(wire.encode(wire.Welcome(wire.VERSION)))


async def test_a_node_given_up_that_takes_a_visit_is_back_for_whoever_waits_for_it():
    """Node b stopped answering (given up); a person waits to go back to
    their seat there until it answers again. Another person's visit that
    b takes is its answer as much as a ping's: the one waiting is told
    (they waited until b lost the table, 43 s in a soak, when a visit
    cleared b's silence without a word)."""
    visits = Visits(Welcoming(), "c")
    visits.lose("b")
    told: list[str] = []
    visits.on_answer("b", lambda: told.append("back"))
    assert not visits.answering("b")
    link = await visits.go("b", name="sam", key=None, admin=False, address=None, ascii=False,
                           think=0.0, term="xterm", env={}, size=(80, 24), table=3,
                           watch=False)
    assert visits.answering("b") and told == ["back"]
    link.close()
    await link.drained()


async def test_a_node_given_up_that_asks_for_a_visit_is_back_for_whoever_waits_for_it():
    """Node b gave node c up during an outage; a person in b's lobby waits
    for c, their table's host, to answer again. A visit c's door asks of b
    is c's answer: the one waiting is told. (It cleared c's silence without
    a word: b stopped pinging c, and in a soak the person waited in b's
    lobby for good, while c heard b at once.)"""
    visits = Visits(Welcoming(), "b")
    admitted: list[str] = []

    async def admit(visit: wire.Visit, link: VisitLink) -> None:
        admitted.append(visit.name)
    visits.admit = admit
    visits.lose("c")
    told: list[str] = []
    visits.on_answer("c", lambda: told.append("back"))
    asked = Asked(wire.encode(wire.Visit(
        version=wire.VERSION, door="c", visit="c.x1", name="sam", key=None, admin=False,
        address=None, ascii=False, think=0.0, term="xterm", env={}, size=(80, 24), table=3,
        watch=False)))
    await visits._asked(asked)
    assert admitted == ["sam"] and wire.decode(asked.answer) == wire.Welcome(wire.VERSION)
    assert visits.answering("c") and told == ["back"]
    link = visits.links["c.x1"]
    link.close()
    await link.drained()
