"""Visits: a session whose app runs on the node that hosts its table, so
that a person can sit at any table from any node.

**Why the app goes to the table, not the table to the app.** A table's
sessions are drawn by the node that hosts it, as on one machine a table's
sessions run in one session worker (`crib3.net.placement`): that node folds
the game, holds its seats' views, and draws what every seat's screen
shares once. The node a person connected to (their *door*) keeps the
connection, their name in the cluster and their limits, and relays their
terminal: keys, window changes and flow one way, the screen the other.
So nothing of a game crosses to the door but that one person's own screen,
which is less than their seat's redacted feed; and the messages that cross
are the wire's (`crib3.room.wire`: `Visit`, `Welcome`, `Input`, `Resize`,
`Flow`, `End`, `Output`, `VisitEnded`), JSON or raw terminal bytes, never
pickle.

**On NATS.** A node answers requests on `crib3.node.<name>.visit` (a
`Visit`, answered by a `Welcome`: taken, or the one line why not, a node
of another wire version included) and `crib3.node.<name>.ping`. A visit
has two subjects, `crib3.visit.<id>.in` (door to host) and `.out` (host to
door); each side publishes in order through one task, so a visit's
messages arrive in the order they were sent (NATS keeps one publisher's
order on a subject).

**A node that stops answering.** Each node pings the nodes it has visits
with, once a second; after `MISSES` pings unanswered in a row (a node
killed, stopped, or cut off from the cluster) each of those visits is
`lost`: the door takes its person back to its own lobby (and to their
table once another node adopts it: `crib3.net.visiting`), the host hangs
up the visitor's app (their seat waits for them, as for a dropped
connection).

**Either side that gives a visit up tells the other**, which may have
been the one paused (a node stopped for a few seconds gives nobody a
chance to tell it anything meanwhile): it sends the other side an `End`
(hang up) on the visit's subject, and each ping names the visits the
pinger holds with that node, answered by those the pinged node does not
hold (any more): a visit the other side forgot `FORGOTTEN` pings in a row
(its `End` lost, or the pinger paused when it came) is given up here too,
as if that `End` had come. So a door whose host gave its visit up takes
its person back (to their seat, the host still hosting it) instead of
relaying keys nobody reads. A node given up is pinged on until it
answers (`answering`), so that a door knows when a host that stopped for
a moment is back (`listeners` are told).

What a visit does with its messages (a terminal, a session) is the net
side's (`crib3.net.visiting`); this module is the transport alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import secrets
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import nats.errors

from crib3.cluster.liveness import round_trip
from crib3.cluster.nats_now import publish_now, subscribe_now
from crib3.cluster.retry import keep_doing
from crib3.room import wire

log = logging.getLogger("crib3.cluster")

PING_EVERY = 1.0  # seconds between two pings of a node with visits
MISSES = 3  # pings unanswered in a row: that node is lost
FORGOTTEN = 2  # pings in a row whose answer says a visit is not held there: it is over
SILENT_FOR = 600.0  # seconds a node given up is pinged on, waiting for it to answer
ASK_TIMEOUT = 5.0  # seconds a door waits for a node to take a visit
NO_RESPONDERS_PATIENCE = 0.8  # the longest wait before asking again a node nobody hears
CHUNK = 256 * 1024  # bytes of output in one NATS message at most (its max payload is 1 MiB)


class VisitRefused(Exception):
    """A node did not take a visit: the one line why."""


def visit_subject(node: str) -> str:
    return f"crib3.node.{node}.visit"


def ping_subject(node: str) -> str:
    return f"crib3.node.{node}.ping"


class VisitLink:
    """One side of one visit: `send` a message to the other side (in order);
    once its user `attach`es, `receive` is given each message from it (those
    that came before, first), and `lost` is called should the other node
    stop answering."""

    def __init__(self, visits: Visits, peer: str, visit: str, outgoing: str,
                 incoming: str) -> None:
        self.visits = visits
        self.peer = peer
        self.visit = visit
        self.outgoing = outgoing
        self.incoming = incoming
        self.receive: Callable[[object], None] | None = None
        self.lost: Callable[[], None] = lambda: None
        # Both sides hold it (the host admitted it, the door was welcomed):
        # from then on the pings ask the other side whether it still does.
        self.confirmed = False
        self._early: list[object] = []  # what came before `attach`
        self._queue: deque[bytes] = deque()
        self.queued = 0  # bytes waiting to be published
        self._wake = asyncio.Event()
        self._closing = False
        self._subscription: Any = None
        self._sender = asyncio.get_running_loop().create_task(self._publish_all())

    def attach(self, receive: Callable[[object], None], lost: Callable[[], None]) -> None:
        self.receive, self.lost = receive, lost
        early, self._early = self._early, []
        for message in early:
            self._give(message)

    async def listen(self) -> None:
        # (each message handed on in the turn it is read: see nats_now)
        self._subscription = await subscribe_now(self.visits.client, self.incoming,
                                                 self._arrived)

    def send(self, message: object) -> None:
        if self._closing:
            return
        if isinstance(message, wire.Output) and len(message.data) > CHUNK:
            for start in range(0, len(message.data), CHUNK):
                self.send(wire.Output(message.session, message.data[start:start + CHUNK]))
            return
        body = wire.encode(message)
        if not self._queue and publish_now(self.visits.client, self.outgoing, body):
            return  # (written in this turn of the loop: see publish_now)
        self._queue.append(body)
        self.queued += len(body)
        self._wake.set()

    async def _publish_all(self) -> None:
        client = self.visits.client
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._queue:
                    body = self._queue.popleft()
                    self.queued -= len(body)
                    await client.publish(self.outgoing, body)
                if self._closing:
                    with contextlib.suppress(Exception):
                        await round_trip(client, 2)  # (no flush(timeout): see liveness)
                    return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the connection closed, or its buffer full in an outage
            # What was queued is lost, and a screen or keys with a gap in
            # them are worse than none: the visit ends here, as when the
            # other side stops answering (its door comes back for it).
            log.info("visit %s: cannot send (%s); ended", self.visit, exc)
            if not self._closing:
                self.close()
                self.lost()

    def _arrived(self, msg: Any) -> None:
        if self._closing:
            return
        try:
            message = wire.decode(msg.data)
        except wire.WireError as exc:
            log.warning("visit %s from %s: %s; closed", self.visit, self.peer, exc)
            self.close()
            self.lost()
            return
        self.deliver(message)

    def deliver(self, message: object) -> None:
        """`message` to this side's user (kept until it attaches)."""
        if self.receive is None:
            if len(self._early) < 1000:
                self._early.append(message)
            return
        self._give(message)

    def _give(self, message: object) -> None:
        assert self.receive is not None
        try:
            self.receive(message)
        except Exception as exc:
            log.warning("visit %s: %s", self.visit, exc)

    def close(self) -> None:
        """Send what is queued, then stop listening."""
        if self._closing:
            return
        self._closing = True
        self._wake.set()
        self.visits._forget(self)
        if self._subscription is not None:
            subscription, self._subscription = self._subscription, None
            asyncio.get_running_loop().create_task(_quietly(subscription.unsubscribe()))

    @property
    def closed(self) -> bool:
        return self._closing

    async def drained(self) -> None:
        """Until what was sent before `close` is published."""
        with contextlib.suppress(BaseException):
            await asyncio.shield(self._sender)


async def _quietly(work: Awaitable[Any]) -> None:
    with contextlib.suppress(Exception):
        await work


# Given a `Visit` and its link, start the visitor's app (the net side's);
# RoomError-like refusals are raised as VisitRefused with their line.
Admit = Callable[[wire.Visit, VisitLink], Awaitable[None]]


class Visits:
    """One node's visits, both ways (see the module's docstring)."""

    version = wire.VERSION  # (a test makes a node of another version)

    def __init__(self, client: Any, node: str) -> None:
        self.client = client
        self.node = node
        self.admit: Admit | None = None
        self.links: dict[str, VisitLink] = {}  # visit id -> this side's link
        self._subscriptions: list[Any] = []
        self._numbers = itertools.count(1)
        self._prefix = secrets.token_hex(4)  # visits of a node started again are new ones
        self._pinging: asyncio.Task[None] | None = None
        # Nodes given up (unanswered pings, or a visit they did not take up
        # in time) and when; pinged on until they answer, for `SILENT_FOR`.
        self.silent: dict[str, float] = {}
        self.listeners: list[Callable[[], None]] = []  # told when a silent node answers again
        self._back: dict[str, list[Callable[[], None]]] = {}  # `on_answer`'s, by node
        self._forgotten: dict[str, int] = {}  # visit id -> pings in a row the other side lacked it
        self._misses: dict[str, int] = {}  # node -> pings in a row it left unanswered

    async def start(self) -> None:
        self._subscriptions = [
            await self.client.subscribe(visit_subject(self.node), cb=self._asked),
            await self.client.subscribe(ping_subject(self.node), cb=self._pinged)]
        self._pinging = asyncio.get_running_loop().create_task(self._ping_peers())

    # --- a door asks ------------------------------------------------------------------

    async def go(self, node: str, **visit: Any) -> VisitLink:
        """Ask `node` to run a visitor's app (the `Visit`'s fields but its
        version, door and id): the door's link once it is taken, or
        VisitRefused with the one line why not."""
        ident = f"{self.node}.{self._prefix}{next(self._numbers)}"
        link = VisitLink(self, node, ident, f"crib3.visit.{ident}.in",
                         f"crib3.visit.{ident}.out")
        self.links[ident] = link
        asked = wire.Visit(version=self.version, door=self.node, visit=ident, **visit)
        try:
            await link.listen()  # (before the host can send its first screen)
            reply = await self._ask(visit_subject(node), wire.encode(asked))
            welcome = _welcome(reply.data, self.version)
        except VisitRefused:
            link.close()
            raise
        except (nats.errors.NoRespondersError, nats.errors.TimeoutError):
            link.close()
            self._silent(node)
            raise VisitRefused(f"the server {node} does not answer just now") from None
        except (nats.errors.Error, wire.WireError, OSError) as exc:
            link.close()
            raise VisitRefused(f"the server {node} cannot be asked just now ({exc})") from None
        if welcome.error is not None:
            link.close()
            raise VisitRefused(welcome.error)
        link.confirmed = not link.closed
        self._answered(node)
        return link

    async def _ask(self, subject: str, body: bytes) -> Any:
        """The node's answer, asked again a moment later when NATS says
        nobody listens: a nats-server says so now and then for a moment
        after the subscription was made, on a busy machine (a node just
        started, its first visitor refused). Within ASK_TIMEOUT in all."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + ASK_TIMEOUT
        wait = 0.1
        while True:
            try:
                return await self.client.request(subject, body,
                                                 timeout=max(0.1, give_up - loop.time()))
            except nats.errors.NoRespondersError:
                if loop.time() + wait >= give_up or wait > NO_RESPONDERS_PATIENCE:
                    raise
            await asyncio.sleep(wait)
            wait *= 2

    def answering(self, node: str) -> bool:
        """Whether `node` answers, as far as this node knows: not given up
        (or it answered since)."""
        return node not in self.silent

    def on_answer(self, node: str, then: Callable[[], None]) -> None:
        """`then()` once `node`, silent now, answers again (before `listeners`)."""
        waiting = self._back.setdefault(node, [])
        if len(waiting) < 10_000:
            waiting.append(then)

    def _silent(self, node: str) -> None:
        self.silent[node] = asyncio.get_running_loop().time()

    # --- a node is asked --------------------------------------------------------------

    async def _asked(self, msg: Any) -> None:
        version = _version_of(msg.data)
        if version != self.version:
            log.warning("a visit from a node of wire version %s refused (this node's is %d)",
                        version, self.version)
            await _quietly(msg.respond(wire.encode(wire.Welcome(
                self.version, f"the server that hosts this table runs another version of "
                              f"crib3 (wire {self.version}, not {version}): it cannot seat "
                              f"you from here"))))
            return
        try:
            visit = wire.decode(msg.data)
            if not isinstance(visit, wire.Visit):
                raise wire.WireError(f"a {type(visit).__name__} where a Visit was asked")
        except wire.WireError as exc:
            log.warning("a visit refused: %s", exc)
            await _quietly(msg.respond(wire.encode(wire.Welcome(self.version, str(exc)))))
            return
        self._answered(visit.door)  # (it asks: it answers as much as a ping's answer)
        link = VisitLink(self, visit.door, visit.visit, f"crib3.visit.{visit.visit}.out",
                         f"crib3.visit.{visit.visit}.in")
        self.links[visit.visit] = link
        try:
            await link.listen()
            if self.admit is None:
                raise VisitRefused("this server is not taking visitors yet")
            await self.admit(visit, link)
        except VisitRefused as exc:
            link.close()
            await _quietly(msg.respond(wire.encode(wire.Welcome(self.version, str(exc)))))
            return
        except Exception as exc:
            link.close()
            log.warning("a visit of %s could not begin: %s", visit.name[:40], exc)
            await _quietly(msg.respond(wire.encode(wire.Welcome(
                self.version, "the server that hosts this table could not seat you"))))
            return
        link.confirmed = not link.closed
        await _quietly(msg.respond(wire.encode(wire.Welcome(self.version))))

    async def _pinged(self, msg: Any) -> None:
        """A ping names the visits its node holds with this one (a JSON
        list, or nothing): the answer, those this node does not hold."""
        try:
            asked = json.loads(msg.data) if msg.data else []
            unknown = [v for v in asked if isinstance(v, str) and v not in self.links]
        except ValueError:
            unknown = []
        await _quietly(msg.respond(json.dumps(unknown).encode() if unknown else b""))

    # --- nodes that stop answering ---------------------------------------------------

    async def _ping_peers(self) -> None:
        await keep_doing(self.ping_once, every=PING_EVERY,
                         what=f"node {self.node}: the pings of the nodes it has visits with",
                         meaning="a visit whose other node stops answering, or gave it up, "
                                 "is not ended here while this lasts")

    async def ping_once(self) -> None:
        """Ping each node this one has visits with (or has given up): a
        node unanswering `MISSES` times in a row is lost, a visit it no
        longer holds ends here too, a node given up that answers is back."""
        loop = asyncio.get_running_loop()
        for node, since in list(self.silent.items()):
            if loop.time() - since > SILENT_FOR:
                del self.silent[node]
                self._back.pop(node, None)
        linked = {link.peer for link in self.links.values()}
        peers = linked | set(self.silent)
        misses = self._misses
        for peer in list(misses):
            if peer not in peers:
                del misses[peer]
        held = {peer: [link.visit for link in self.links.values()
                       if link.peer == peer and link.confirmed] for peer in peers}
        answers = await asyncio.gather(*(self._answers(peer, held[peer]) for peer in peers))
        for peer, unknown in zip(peers, answers):
            if unknown is not None:
                misses[peer] = 0
                self._forgotten_by(peer, held[peer], unknown)
                self._answered(peer)
                continue
            if peer not in linked:  # (silent, and nothing more to lose)
                continue
            misses[peer] = misses.get(peer, 0) + 1
            if misses[peer] >= MISSES:
                log.warning("node %s: node %s does not answer; its visits are lost",
                            self.node, peer)
                del misses[peer]
                self.lose(peer)

    async def _answers(self, peer: str, visits: list[str]) -> list[str] | None:
        """The visits of `visits` that `peer` does not hold; None: no answer."""
        try:
            reply = await self.client.request(ping_subject(peer), json.dumps(visits).encode(),
                                              timeout=PING_EVERY)
        except Exception:
            return None
        try:
            unknown = json.loads(reply.data) if reply.data else []
        except ValueError:
            return []
        return [v for v in unknown if isinstance(v, str)] if isinstance(unknown, list) else []

    def _forgotten_by(self, peer: str, asked: list[str], unknown: list[str]) -> None:
        """The visits `peer` said it does not hold: over, once it says so
        `FORGOTTEN` times in a row (once may be a visit ending just now,
        its last message still on its way here)."""
        for visit in asked:
            if visit not in unknown:
                self._forgotten.pop(visit, None)
                continue
            count = self._forgotten[visit] = self._forgotten.get(visit, 0) + 1
            link = self.links.get(visit)
            if count >= FORGOTTEN and link is not None:
                del self._forgotten[visit]
                log.warning("node %s: node %s no longer holds visit %s; it is over here too",
                            self.node, peer, visit)
                link.deliver(wire.End(0, True))  # (as if its End had come)
                link.close()
        for visit in [v for v in self._forgotten if v not in self.links]:
            del self._forgotten[visit]

    def _answered(self, peer: str) -> None:
        """`peer` answered (a ping, or a visit taken): if it was given up,
        it is back, and whoever waits for it is told, whichever answer
        came first. (A visit taken by a node given up once cleared it
        without a word: a person waiting to go back to their seat there,
        told to wait until it answers, waited until it lost the table. And
        a visit asked by a node given up cleared it without a word too: a
        door that had given its host up, then hosted a visit from it, never
        pinged it again, and its person waited in the lobby for good.)"""
        if self.silent.pop(peer, None) is not None:
            log.info("node %s: node %s answers again", self.node, peer)
            self._tell(self._back.pop(peer, []) + self.listeners)

    def _tell(self, listeners: list[Callable[[], None]]) -> None:
        for listener in listeners:
            try:
                listener()
            except Exception as exc:
                log.warning("node %s: telling of a node back failed: %s", self.node, exc)

    def lose(self, peer: str) -> None:
        """Every visit with `peer` is lost (it stopped answering). (A visit
        whose end fails is logged: the pings go on for the others.)"""
        self._silent(peer)
        for link in [link for link in self.links.values() if link.peer == peer]:
            link.send(wire.End(0, True))  # (should it come back: the visit is over)
            link.close()
            try:
                link.lost()
            except Exception as exc:
                log.warning("visit %s: ending it failed: %s", link.visit, exc)

    def _forget(self, link: VisitLink) -> None:
        if self.links.get(link.visit) is link:
            del self.links[link.visit]

    async def stop(self) -> None:
        if self._pinging is not None:
            self._pinging.cancel()
        for subscription in self._subscriptions:
            await _quietly(subscription.unsubscribe())
        self._subscriptions = []


def _version_of(body: bytes) -> Any:
    """The `version` a visit's JSON gives, read before anything else of it
    (a node of another version may send fields this one does not know)."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    return data.get("version") if type(data) is dict else None


def _welcome(body: bytes, ours: int) -> wire.Welcome:
    version = _version_of(body)
    if version != ours:
        raise VisitRefused(f"the server that hosts this table runs another version of "
                           f"crib3 (wire {version}, not {ours}): it cannot seat you from here")
    message = wire.decode(body)
    if not isinstance(message, wire.Welcome):
        raise wire.WireError(f"a {type(message).__name__} where a Welcome was awaited")
    return message


__all__ = ["VisitLink", "VisitRefused", "Visits", "ping_subject", "visit_subject"]
