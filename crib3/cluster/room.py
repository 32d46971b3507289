"""The room of one `crib3 serve --cluster` node: the room the
screens know (`crib3.room.Room`), its tables hosted through the cluster
(`crib3.cluster.node`), its people signed in cluster-wide
(`crib3.cluster.presence`), and its lobby listing every node's tables
(`crib3.cluster.lobby`).

**Opening a table without waiting.** The screens call the room's methods
from their handlers, on the event loop, and cannot wait for the cluster.
So the node keeps one table ready (`_spare`): a number claimed in the
registry (status "spare": no lobby lists it, no node adopts it), its
lease held and renewed, its stream's header written. A node that stops
gives its spare back (`Node.forget`: the entry and its stream's
messages gone); a node that dies leaves it to the others' scans, which
forget it once its lease has run out. `open_table` takes it
at once, as a room on one machine takes the next number, and the node
makes the next one in the background; when the cluster is slow to give one,
the lobby says so in one line and the person presses o again.

**Signing in** is the room's own checks, then the cluster's (`enter`: a
name held once across every node, lookalikes refused, one person's names
counted cluster-wide); a session that ends frees its name (`depart`).

**A person at another node's table** visits that node: the session's
terminal is relayed there (`crib3.cluster.visits`, `crib3.net.visiting`),
and this room answers what the server asks of it for that (`host_of`,
`seat_elsewhere`, `may_visit`, `visit_elsewhere`; and, for a visitor come
from another node, `visit_in`: signed in here only, their door holds their
name in the cluster).

**A table nobody is at** is shelved as on one machine, but through the
cluster: its registry entry says so and its lease is given back, and the
node a person of it signs in through brings it back (`bring_back`, in the
background: the lobby seats them once it is here).

**Live events** are the cluster's (`crib3.cluster.live_events`): the room's
`events` hears of every node's, and a board's table is a cluster table.

**What a node does not do yet**: run the sessions' apps in worker
processes (`--workers`), and bring a closed game back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from crib3.cluster.bans import ClusterBans
from crib3.cluster.chat import ensure_stream
from crib3.cluster.finished import FinishedGames
from crib3.cluster.hosted import HostedTable
from crib3.cluster.live_events import ClusterLiveEvents
from crib3.cluster.lobby import ClusterLobby, LobbyTable
from crib3.cluster.matcher import ClusterPlayNow
from crib3.cluster.node import FLUSH_SECONDS, Node, NodeRoom
from crib3.cluster.presence import ClusterPeople, holder_key
from crib3.cluster.registry import SPARE
from crib3.cluster.results import ClusterResults, match_table_result, table_result
from crib3.cluster.store import Lease, TableLog, patiently
from crib3.cluster.verify import ResultCheck
from crib3.cluster.visits import VisitLink, VisitRefused, Visits
from crib3.common.names import shown_name
from crib3.engine import Rules, State
from crib3.room import wire
from crib3.room.basics import RoomError
from crib3.room.contract import Wayfinding
from crib3.room.match import BEST_OF
from crib3.room.moderation import BAN, MUTE, until_words
from crib3.room.results import Result, Results
from crib3.room.seats import FIRST_USE, Presence
from crib3.room.storage import SHELVED

NOT_READY = "the card room is still getting a table ready: press o again in a moment"
log = logging.getLogger("crib3.cluster")


class ClusterRoom(NodeRoom):
    """One node's room (see the module's docstring)."""

    def __init__(self, folder: Path, think: float = 0.6, patience: float = 60.0,
                 tables_per_key: int = 0, names_per_key: int = 0,
                 results: Results | None = None) -> None:
        super().__init__(folder, think=think, patience=patience, idle_close=600.0,
                         tables_per_key=tables_per_key, names_per_key=names_per_key,
                         results=results)
        # The rated results on the cluster's stream, folded into `results`
        # (`crib3.cluster.results`); None: this node rates no game.
        self.cluster_results: ClusterResults | None = None
        # The cluster's finished games copied here, for My games (`crib3.cluster.finished`).
        self.finished: FinishedGames | None = None
        self.people_: ClusterPeople | None = None
        self.cluster_lobby: ClusterLobby | None = None
        self._spare: tuple[int, Lease, TableLog] | None = None
        self._making: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.visits: Visits | None = None
        self.bans: ClusterBans | None = None  # every node's bans and mutes, in step
        self.cluster = self  # what only a node adds (`crib3.room.contract.ClusterExtras`)
        # The cluster's play-now queue (`crib3.cluster.matcher`), from `start`.
        self.play_now: ClusterPlayNow | None = None

    @classmethod
    async def start(cls, servers: list[str], name: str, folder: Path, *,
                    lease_seconds: float = 10.0, think: float = 0.6, patience: float = 60.0,
                    tables_per_key: int = 0, names_per_key: int = 0,
                    results: Results | None = None, **options: Any) -> ClusterRoom:
        """Connect to the cluster as node `name`; its room, ready to serve
        (`results`: its ratings' store; None: it rates no game)."""
        room = cls(folder, think=think, patience=patience, tables_per_key=tables_per_key,
                   names_per_key=names_per_key, results=results)
        node = await Node.start(servers, name, folder, lease_seconds=lease_seconds,
                                think=think, room=room, **options)
        try:
            replicas = node.store.replicas
            await ensure_stream(node.store.js, replicas)  # (a table's chat is kept there)
            room.people_ = await ClusterPeople.start(node.store, replicas=replicas)
            room.people_.listeners.append(room.changed)
            room.cluster_lobby = await ClusterLobby.start(node.store, replicas=replicas,
                                                          known=node.known)
            # (A cluster's buckets just made have no leader for a moment: the
            # first sign-in found "no response from stream". Listen once
            # each answers.)
            people = room.people_
            for kv in (people.people, people.holders, people.names, node.registry):
                await patiently(kv.status)
            room.cluster_lobby.listeners.append(room.changed)
            room.bans = await ClusterBans.start(node.store, room.moderation, replicas=replicas)
            await patiently(room.bans.kv.status)
            room.moderation.on_change = room._tell_bans
            await asyncio.wait_for(room.bans.ready.wait(), 10)
            room.visits = Visits(node.store.client, name)
            room.visits.listeners.append(room.changed)  # (a node back: its visitors' lobbies go)
            await room.visits.start()
            if results is not None:
                room.cluster_results = ClusterResults(
                    node.store.js, name, results, ResultCheck(node.store, node.registry))
                await room.cluster_results.start(replicas)
            room.finished = FinishedGames(node.store, node.known, folder)
            room.finished.start()
            await asyncio.wait_for(room.cluster_lobby.ready.wait(), 10)
            room.play_now = await ClusterPlayNow.start(room, replicas)
            # Live events in the cluster's bucket (`crib3.cluster.live_events`).
            room.events = await ClusterLiveEvents.connect(room, node, room.cluster_results)
            await room._make_spare()
        except BaseException:
            await node.close()
            raise
        return room

    # --- people -------------------------------------------------------------------------

    async def enter(self, name: str, key: str | None, kick: Any, address: str | None = None,
                    admin: bool = False, journey: Wayfinding | None = None) -> Presence:
        """`Room.sign_in`, then the cluster's (a name held once across nodes)."""
        presence = self.sign_in(name, key, kick, address, journey)
        presence.admin = admin
        assert self.people_ is not None
        try:
            await self.people_.sign_in(presence, self.names_per_key)
            if key is not None and key.startswith(FIRST_USE):  # --open: held for the room's life
                await self.people_.hold(presence.name, key)
        except BaseException as exc:
            self.sign_out(presence)
            self._background(self.people_.sign_out(presence))  # (if it got that far)
            if isinstance(exc, Exception) and not isinstance(exc, RoomError):
                log.warning("signing %r in through the cluster failed: %s", name[:40], exc)
                raise RoomError("the card room cannot reach its cluster just now: "
                                "try again in a moment") from None
            raise
        return presence

    def held_by(self, name: str) -> str | None:
        """Under --open: the key or code that holds `name`, on any node."""
        held = super().held_by(name)
        if held is None and self.people_ is not None:
            held = self.people_.held_proof(name)
        return held

    def leases_held(self) -> int:
        return len(self.node.keeper.leases)

    def adoptions(self) -> int:
        return len(self.node.adopted)

    def results_refused(self) -> int:
        return 0 if self.cluster_results is None else self.cluster_results.refused

    def names_here(self) -> list[str]:
        """Everyone signed in, on this node or another (the lobby's "Also
        here"): this node's people, and those the cluster's bucket lists."""
        seen = {p.name.lower(): p.name for p in self.people.values()}
        if self.people_ is not None:
            for name in self.people_.signed_in():
                seen.setdefault(name.lower(), name)
        return list(seen.values())

    def remove(self, name: str, by: Presence) -> None:
        """An admin ends a session on whichever node runs it: here at once,
        elsewhere by a word to that node (`ClusterPeople.remove`)."""
        if name.lower() in self.people or not by.admin or name.lower() == by.name.lower():
            super().remove(name, by)
            return
        if name.lower() not in {n.lower() for n in self.names_here()}:
            raise RoomError(f"{shown_name(name)} is not here")
        assert self.people_ is not None
        self.moderation.record(by.name, "kick", name, None,  # (their key: the other node's)
                               by_key=by.holder)
        self._background(self.people_.remove(name, by))

    def ban(self, name: str, by: Presence, seconds: float | None) -> str:
        """An admin bans someone signed in on any node: here at once (and
        every node holds it: `crib3.cluster.bans`), elsewhere as soon as
        the cluster says who they are and where (`_sanction_elsewhere`)."""
        return self._sanction(BAN, name, by, seconds)

    def mute(self, name: str, by: Presence, seconds: float | None) -> str:
        """An admin mutes someone signed in on any node (as `ban`)."""
        return self._sanction(MUTE, name, by, seconds)

    def _sanction(self, what: str, name: str, by: Presence, seconds: float | None) -> str:
        if name.lower() in self.people or not by.admin or name.lower() == by.name.lower():
            return super().ban(name, by, seconds) if what == BAN else \
                super().mute(name, by, seconds)
        if name.lower() not in {n.lower() for n in self.names_here()}:
            raise RoomError(f"{shown_name(name)} is not here")
        self._background(self._sanction_elsewhere(what, name, by, seconds))
        return until_words(None if seconds is None else self.clock() + seconds)

    async def _sanction_elsewhere(self, what: str, name: str, by: Presence,
                                  seconds: float | None) -> None:
        """A ban (or mute) of someone whose session another node runs: by
        the key (or address) the cluster's people bucket has them signed
        in with; a banned one's session there ends in one line."""
        assert self.people_ is not None
        held = await self.people_.where(name)
        holder = None if held is None else held.get("holder")
        if held is None or holder is None or held.get("admin"):
            log.info("node %s: %s %s not done: %s", self.node.name, what, name,
                     "not signed in" if held is None else
                     "an admin" if held.get("admin") else "nothing to hold it to")
            return
        sanction = self.moderation.impose(what, str(holder), str(held["name"]), seconds,
                                          by.name, by.holder)
        if what == BAN:
            await self.people_.end_session(
                str(held["node"]), str(held["name"]),
                f"an admin has banned you from this room {sanction.until_words()}")

    def depart(self, presence: Presence) -> None:
        super().depart(presence)
        if self.people_ is not None:
            self._background(self.people_.sign_out(presence))

    # --- visits: a person here at another node's table, and back ---------------------------

    def admit_visits(self, admit: Callable[[wire.Visit, VisitLink], None]) -> None:
        """The server's way of starting a visitor's session (`admit(visit,
        link)`, RoomError when they may not come)."""
        async def admitting(visit: wire.Visit, link: VisitLink) -> None:
            try:
                admit(visit, link)
            except RoomError as exc:
                raise VisitRefused(str(exc)) from None

        assert self.visits is not None
        self.visits.admit = admitting

    def visit_in(self, name: str, key: str | None, kick: Any, address: str | None,
                 admin: bool = False, journey: Wayfinding | None = None) -> Presence:
        """A person of another node (their door, which holds their name in
        the cluster) signs in here to visit a table: the room's own checks."""
        presence = self.sign_in(name, key, kick, address, journey)
        presence.admin = admin
        return presence

    @property
    def node_name(self) -> str:
        """This node's name."""
        return self.node.name

    def host_of(self, number: int) -> str | None:
        """The node that hosts table `number`, as far as this node knows."""
        if number in self.tables:
            return self.node.name
        found = next((t for t in self.elsewhere() if t.number == number), None)
        return None if found is None else found.node

    def seat_elsewhere(self, presence: Presence) -> int | None:
        """The table another node hosts where this person has a seat (a
        game not over), if any: they go back to it as they connect, or as
        a visit ends that they did not end. Where they have more than one,
        the one they were last at (present there, as its host last said):
        a visitor may have moved from one table to another during a visit."""
        name = presence.name.lower()
        seated = [(index not in table.online, table.number)
                  for table in self.elsewhere()
                  for index, seat in enumerate(table.seats)
                  if seat.name is not None and seat.name.lower() == name]
        return min(seated)[1] if seated else None

    def answering(self, node: str) -> bool:
        """Whether `node` answers, as far as this node knows (it was not
        given up, or has answered since): `crib3.cluster.visits`."""
        return self.visits is None or self.visits.answering(node)

    def on_answer(self, node: str, then: Callable[[], None]) -> None:
        """`then()` once `node`, given up, answers again (the lobbies are
        told after it); at once if it answers now."""
        if self.visits is None or self.visits.answering(node):
            then()
        else:
            self.visits.on_answer(node, then)

    def may_visit(self, presence: Presence, number: int, watch: bool) -> str | None:
        """Why this person may not sit at (or watch) table `number`, hosted
        elsewhere, as its own room would say it; None: they may go."""
        table = next((t for t in self.elsewhere() if t.number == number), None)
        if table is None:
            return f"table {number} is not here any more"
        if watch:
            return None if table.started else f"table {number} has not started yet"
        name = presence.name.lower()
        if any(s.name is not None and s.name.lower() == name for s in table.seats):
            return None
        if table.started:
            return f"table {number} is playing: its seats are taken"
        place = self.place_of(presence)
        if place is not None:
            return f"your seat at table {place[0].number} waits for you: one table at a time"
        if all(seat.name is not None for seat in table.seats):
            return f"table {number} is full"
        return None

    async def visit_elsewhere(self, presence: Presence, number: int, watch: bool,
                              **session: Any) -> VisitLink | None:
        """Ask the node that hosts table `number` to run this person's app
        there: the door's link to it; None when the table is hosted here;
        RoomError with the one line why not."""
        node = self.host_of(number)
        if node is None:
            raise RoomError(f"table {number} is not here any more")
        if node == self.node.name:
            return None
        assert self.visits is not None
        try:
            return await self.visits.go(node, name=presence.name, key=presence.key,
                                        admin=presence.admin, address=presence.address,
                                        table=number, watch=watch, **session)
        except VisitRefused as exc:
            raise RoomError(str(exc)) from None

    # --- ratings --------------------------------------------------------------------------

    def game_over(self, table: Any, state: State) -> None:
        """A hosted table's game just ended, its log on the cluster's
        stream: a rated game's result goes on the results' stream, once a
        game whichever node tells it (`crib3.cluster.results`)."""
        if not table.rated or self.cluster_results is None or not isinstance(table, HostedTable) \
                or table.match.is_match:  # (a match's game: its match is rated, `match_over`)
            return
        try:
            result = table_result(table, state)
        except (OSError, ValueError) as exc:
            log.error("table %d: its result could not be made, no rating moved: %s",
                      table.number, exc)
            return
        if result is not None:
            self._background(self._record(result))

    def match_over(self, table: Any) -> None:
        """A hosted table's match was just won, its games on the cluster's
        stream: a rated match's one result goes on the results' stream,
        once whichever node tells it, as a game's does (`game_over`)."""
        if not table.rated or self.cluster_results is None or not isinstance(table, HostedTable):
            return
        try:
            result = match_table_result(table)
        except ValueError as exc:
            log.error("table %d: its match's result could not be made, no rating moved: %s",
                      table.number, exc)
            return
        if result is not None:
            self._background(self._record(result))

    async def _record(self, result: Result) -> None:
        assert self.cluster_results is not None
        try:
            if not await self.cluster_results.record(result):
                log.info("table %d: its result is in already", result.table)
        except Exception as exc:
            log.error("table %d: its result could not be written to the cluster, no rating "
                      "moved: %s", result.table, exc)

    # --- tables ---------------------------------------------------------------------------

    def open_table(self, owner: Presence, rules: Rules, levels: tuple[str, str],
                   rated: bool | None = None, best_of: int = 1) -> HostedTable:
        if best_of not in BEST_OF:
            raise RoomError(f"a table plays one game, or best of 3 or 5, not {best_of}")
        self._check_opening(owner, levels)
        if self._spare is not None and not self._spare[1].held():
            # Its lease ran out unrenewed (this node or its NATS server was
            # paused), and the keeper has not said so yet: a table opened on
            # it would be let go at its first event. Another is made.
            self.node.keeper.drop(self._spare[1].table)
            log.info("table %d: the spare table's lease ran out; another is made",
                     self._spare[0])
            self._spare = None
        if self._spare is None:
            self._spare_soon()
            raise RoomError(NOT_READY)
        self._may_open(owner)
        number, lease, table_log = self._spare
        self._spare = None
        table = self.node.seat_owner(owner, rules, levels, number, lease, table_log,
                                     rated=self.rates and rated is not False, best_of=best_of)
        self.changed()
        self._spare_soon()
        return table

    def _spare_soon(self) -> None:
        if self._spare is None and (self._making is None or self._making.done()):
            self._making = self._background(self._make_spare())

    async def _make_spare(self) -> None:
        node = self.node
        number, lease, table_log = await node.prepare_table(
            {"number": 0, "owner": node.name, "rules": asdict(Rules()), "seats": [],
             "status": SPARE, "started_by": None, "node": node.name})
        self._spare = (number, lease, table_log)
        node.keeper.keep(lease, self._spare_lost)

    def _spare_lost(self) -> None:
        self._spare = None
        self._spare_soon()

    def tables_held(self, holder: str | None) -> int:
        """The tables one person owns, on every node (`--tables-per-key`),
        as this node's lobby knows them: two tables opened at once on two
        nodes may both get in, a moment before each lobby lists the other."""
        if holder is None:
            return 0
        mine = holder_key(holder)
        return super().tables_held(holder) + sum(
            1 for table in self.elsewhere() if table.owner_holder == mine)

    def elsewhere(self) -> list[LobbyTable]:
        """The tables other nodes host, as the lobby lists them."""
        if self.cluster_lobby is None:
            return []
        return [t for t in self.cluster_lobby.tables() if t.number not in self.tables]

    # A shelved table comes back in the background (`bring_back`): the lobby
    # says so, and sits its person once it is here.
    brings_back_soon = True

    def shelve_table(self, table: Any) -> None:
        """A started table nobody has been at for `idle_close` seconds: out
        of every lobby, its lease given back (no node hosts it), until one
        of its people signs in again on any node (`bring_back`)."""
        log.info("table %d: nobody there for %gs; shelved", table.number, self.idle_close)
        self.tables.pop(table.number, None)
        table.save(SHELVED)
        table.close()
        self.changed()

    def shelved_for(self, presence: Presence, closed: bool = True) -> int | None:
        """A shelved table of the cluster where `presence` plays (same name
        and key). (A closed game cannot be brought back through the cluster
        yet: `closed` finds none.)"""
        if self.cluster_lobby is None:
            return None
        for number, seats in sorted(self.cluster_lobby.shelved.items()):
            if any(s.person and s.name is not None and s.name.lower() == presence.name.lower()
                   and s.key == presence.key for s in seats):
                return number
        return None

    def bring_back(self, presence: Presence, closed: bool = True,
                   journey: Wayfinding | None = None) -> HostedTable | None:
        """Their shelved table, adopted by this node in the background, its
        game where it stood; they are taken to their seat once it is here
        (their session's `journey.rejoin`). None now, always (see
        `brings_back_soon`)."""
        if self.place_of(presence) is not None:
            return None
        number = self.shelved_for(presence)
        if number is not None:
            self._background(self._bring_back(number, journey))
        return None

    async def _bring_back(self, number: int, journey: Wayfinding | None) -> None:
        table = await self.node.adopt(str(number), statuses=(SHELVED,))
        if table is not None:
            if journey is not None:
                journey.rejoin = (number, "")
            self.changed()

    def close_table(self, table: Any, keep: bool = False) -> None:
        super().close_table(table, keep)
        self.reopenable.pop(table.number, None)  # (no way back through the cluster yet)

    def close_by_admin(self, table: Any, by: Presence) -> None:
        super().close_by_admin(table, by)
        self.shelved.pop(table.number, None)
        self.admin_closed.discard(table.number)

    def restore(self) -> list[str]:
        """A node has no tables of its own to pick up: the cluster's open
        tables whose host is gone are adopted by its scan."""
        return []

    # --- stopping ---------------------------------------------------------------------------

    def _tell_bans(self, what: str, whom: str, sanction: Any) -> None:
        """A ban or a mute imposed (or lifted) here: every node holds it."""
        if self.bans is not None:
            self._background(self.bans.tell(what, whom, sanction))

    def _background(self, work: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)
        return task

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("cluster: %s", task.exception())

    async def stop(self) -> None:
        """After `close`: the spare given back, the node's tables let go (to
        be adopted by another node at once), its people's names freed."""
        for task in list(self._tasks):
            if task is self._making:
                task.cancel()
        if self._tasks:  # (each a request or two, bounded by their timeouts: this bounds all)
            await asyncio.wait(set(self._tasks), timeout=FLUSH_SECONDS)
        node = self.node
        if self._spare is not None:
            number, lease, _ = self._spare
            self._spare = None
            node.keeper.drop(str(number))
            await node.forget(lease)
        if self.cluster_results is not None:
            await self.cluster_results.stop()
        if self.finished is not None:
            await self.finished.stop()
        if self.play_now is not None:
            await self.play_now.stop()
        if isinstance(self.events, ClusterLiveEvents):
            await self.events.stop()
        if self.visits is not None:
            await self.visits.stop()
        if self.cluster_lobby is not None:
            await self.cluster_lobby.stop()
        if self.bans is not None:
            await self.bans.stop()
        if self.people_ is not None:
            with contextlib.suppress(Exception):
                await self.people_.stop()
        await node.stop()


__all__ = ["ClusterRoom", "NOT_READY"]
