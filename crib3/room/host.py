"""The main process's side of the room's replicas (`crib3 serve --workers N`).

The one `Room` stays in the main process; sessions run in worker
processes on a replica of it (`crib3.room.replica`). `RoomHost` is what
keeps the replicas true and carries out what their screens ask:

- it listens to the room, its tables and their chat, and after a change
  (coalesced to one per turn of the event loop) sends every worker a
  `RoomDelta` with the tables that changed;
- it answers each `Call` for the session that made it, as that session's
  own `Presence`: the checks are the room's own (`RoomError`), plus one
  more here: a seat's events and commands are only for the person who
  sits there (a spectator's feed, public facts only, is anyone's);
- a screen that follows a game gets the seat-redacted events its
  `SeatFeed` gives, with the seat's view (`FeedItems`), never the game.

It knows nothing of sockets: it is handed `send(worker, message)`, and
the worker is whatever the caller uses to tell its workers apart.
Everything it sends to one worker goes in order, and a `Reply` is sent
only after the changes its call made: so a worker that has its answer has
the room as it stands after it.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import time
import weakref
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from crib3.common import crash
from crib3.engine import IllegalMove
from crib3.room import wire
from crib3.room.basics import RoomError
from crib3.room.live_event import LiveEvent
from crib3.room.room import Room
from crib3.room.seats import Presence, Seat
from crib3.room.table import Table

log = logging.getLogger("crib3.serve")

Send = Callable[[Hashable, object], None]
# The calls after which a session may be at a table whose other sessions
# run in another worker (see `RoomHost.placed`).
PLACING = frozenset({"sit", "watch", "bring_back"})


class RoomHost:
    """See the module's docstring."""

    def __init__(self, room: Room, send: Send) -> None:
        self.room = room
        self.send = send
        self.workers: set[Hashable] = set()
        self.version = 0
        self._dirty = False
        self._flush_soon: asyncio.Handle | None = None
        self._uids: weakref.WeakKeyDictionary[Table, int] = weakref.WeakKeyDictionary()
        # Every table a worker may still hold, by uid: one that has left the
        # room (its game over, say) still takes a spectator's leaving.
        self._by_uid: weakref.WeakValueDictionary[int, Table] = weakref.WeakValueDictionary()
        self._counter = itertools.count(1)
        self._known: dict[int, Table] = {}  # uid -> a table the workers have been told of
        self._sent: dict[int, wire.TableSnap] = {}  # uid -> what they were told of it last
        self._hooked: weakref.WeakSet[Table] = weakref.WeakSet()
        self._subs = itertools.count(1)
        self.sessions: dict[int, tuple[Hashable, Presence]] = {}
        # sub -> worker, session, unsubscribe, the table's uid
        self.follows: dict[int, tuple[Hashable, int, Callable[[], None], int]] = {}
        self._told: dict[Hashable, set[int]] = {}  # worker -> tables it was told whole
        self._events: tuple[wire.EventSnap, ...] = ()  # the live events, as last told
        # Told the session's number after a call that may have put it at a
        # table (sat, watched, came back), once its reply is sent: the
        # workers' pool may then move it to its table's worker.
        self.placed: Callable[[int], None] | None = None
        room.listeners.append(self.changed)

    # --- telling the workers -------------------------------------------------------

    def changed(self) -> None:
        """Something in the room changed: the workers hear of it once this
        turn of the event loop is over (many changes, one delta)."""
        self._dirty = True
        if self._flush_soon is None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return  # (a test of the model alone: it flushes by hand)
            self._flush_soon = loop.call_soon(self.flush)

    def flush(self) -> None:
        """Send the workers what changed since the last delta, if anything."""
        if self._flush_soon is not None:
            self._flush_soon.cancel()
            self._flush_soon = None
        if not self._dirty:
            return
        self._dirty = False
        for worker, delta in self._deltas():
            self.send(worker, delta)

    def add_worker(self, worker: Hashable) -> None:
        """A worker is up: it is told the whole room (the others, what
        changed first, so that from now on they all hear the same)."""
        self.flush()
        self.workers.add(worker)
        self._told[worker] = set()  # (no session there yet: the lobby's summary of each)
        self._events = self._event_snaps()
        in_room = {self._uid(t): t for t in self.room.tables.values()}
        self.send(worker, self._room_delta(tuple(
            summary(snap(uid, t, True)) for uid, t in in_room.items())))

    def remove_worker(self, worker: Hashable) -> None:
        """A worker is gone (stopped, or died): its follows end."""
        self.workers.discard(worker)
        self._told.pop(worker, None)
        for sub, (where, _, unsubscribe, _) in list(self.follows.items()):
            if where == worker:
                unsubscribe()
                del self.follows[sub]
        for session, (where, _) in list(self.sessions.items()):
            if where == worker:
                del self.sessions[session]

    def _uid(self, table: Table) -> int:
        uid = self._uids.get(table)
        if uid is None:
            uid = self._uids[table] = next(self._counter)
            self._by_uid[uid] = table
            self._hook(table)
        return uid

    def _hook(self, table: Table) -> None:
        if table not in self._hooked:
            self._hooked.add(table)
            table.listeners.append(self.changed)
            table.chat.listeners.append(self.changed)

    def _deltas(self) -> list[tuple[Hashable, wire.RoomDelta]]:
        """What each worker is to hear of the changes since the last delta:
        a table whole (chat, watchers, who is away since when) where the
        worker has a session at it (seated, watching, or following its
        game), else the lobby's summary of it, and only if that changed;
        nothing at all for a worker to which nothing it holds changed."""
        in_room = {self._uid(t): t for t in self.room.tables.values()}
        changed: dict[int, wire.TableSnap] = {}
        summary_changed: set[int] = set()
        for uid, table in {**self._known, **in_room}.items():
            made = snap(uid, table, uid in in_room)
            before = self._sent.get(uid)
            if before != made:
                changed[uid] = made
                if before is None or summary(before) != summary(made):
                    summary_changed.add(uid)
                self._sent[uid] = made
            if uid not in in_room:  # its last word is said: forget it
                self._sent.pop(uid, None)
        self._known = in_room
        room_changed = self._room_changed()
        interest = self._interest(in_room)
        deltas: list[tuple[Hashable, wire.RoomDelta]] = []
        for worker in list(self.workers):
            mine, told = interest.get(worker, set()), self._told.get(worker, set())
            tables: list[wire.TableSnap] = []
            for uid in mine - told - changed.keys():  # newly theirs: told it whole
                tables.append(self._sent.get(uid) or snap(uid, in_room[uid], True))
            for uid, made in changed.items():
                if uid in mine:
                    tables.append(made)
                elif uid in summary_changed or not made.in_room:
                    tables.append(summary(made))
            self._told[worker] = mine
            if tables or room_changed:
                deltas.append((worker, self._room_delta(tuple(tables))))
        return deltas

    def _interest(self, in_room: dict[int, Table]) -> dict[Hashable, set[int]]:
        """The tables (by uid) each worker has a session at: seated in it,
        watching it, or following its game."""
        where: dict[str, list[Hashable]] = {}
        for worker, presence in self.sessions.values():
            where.setdefault(presence.name.lower(), []).append(worker)
        interest: dict[Hashable, set[int]] = {}
        for uid, table in in_room.items():
            names = [s.name for s in table.seats if s.name is not None and s.person]
            for name in [*names, *table.watcher_names()]:
                for worker in where.get(name.lower(), ()):
                    interest.setdefault(worker, set()).add(uid)
        for worker, _, _, uid in self.follows.values():
            if uid in in_room:
                interest.setdefault(worker, set()).add(uid)
        return interest

    def _room_delta(self, tables: tuple[wire.TableSnap, ...]) -> wire.RoomDelta:
        self.version += 1
        return wire.RoomDelta(
            version=self.version, clock=time.monotonic(), patience=self.room.patience,
            show_pace=self.room.show_pace,
            rates=self.room.rates,
            people=tuple(wire.Person(p.name, p.key, p.admin) for p in self.room.people.values()),
            shelved=kept_games(self.room.shelved), tables=tables,
            reopenable=kept_games(self.room.reopenable), motd=self.room.motd,
            records=self.room.records.paths, events=self._events)

    def _event_snaps(self) -> tuple[wire.EventSnap, ...]:
        events = self.room.events
        return tuple(event_snap(live, events.tables.get(live.name, ()))
                     for live in events.listed())

    def _room_changed(self) -> bool:
        self._events = self._event_snaps()
        now = (tuple((p.name, p.key, p.admin) for p in self.room.people.values()),
               kept_games(self.room.shelved), kept_games(self.room.reopenable), self.room.motd,
               self._events)
        before, self._room_was = getattr(self, "_room_was", None), now
        return before != now

    # --- sessions and their calls -------------------------------------------------------

    def add_session(self, session: int, worker: Hashable, presence: Presence) -> None:
        self.sessions[session] = (worker, presence)
        self._dirty = True  # back at their table: the next delta tells that worker all of it

    def drop_session(self, session: int) -> None:
        """A session ended: what it followed, it follows no more."""
        self.sessions.pop(session, None)
        for sub, (_, whose, unsubscribe, _) in list(self.follows.items()):
            if whose == session:
                unsubscribe()
                del self.follows[sub]

    def unfollow(self, sub: int) -> None:
        found = self.follows.pop(sub, None)
        if found is not None:
            found[2]()

    def answer(self, worker: Hashable, call: wire.Call) -> None:
        """Carry out `call` for its session and send the `Reply` (after
        whatever the call changed)."""
        try:
            value = self._carry_out(worker, call)
            reply = wire.Reply(call.call, value)
        except RoomError as exc:
            reply = wire.Reply(call.call, error=str(exc))
        except IllegalMove as exc:
            reply = wire.Reply(call.call, error=str(exc), illegal=True)
        except Exception as exc:  # a bug here must not take the room down
            crash.report(log, exc, f"a call to the room ({call.method})")
            reply = wire.Reply(call.call, error="something went wrong on the server (it is "
                                                "logged)")
        self.flush()
        self.send(worker, reply)
        if reply.error is None and call.method in PLACING and self.placed is not None:
            self.placed(call.session)

    def uid_of(self, table: Table) -> int:
        """How the workers know `table`."""
        return self._uid(table)

    def _carry_out(self, worker: Hashable, call: wire.Call) -> Any:
        found = self.sessions.get(call.session)
        if found is None or found[0] != worker:
            raise RoomError("your session has ended")
        me = found[1]
        args = tuple(me if a == wire.ME else a for a in call.args)
        if call.target == "room":
            return self._room_call(me, call.method, args)
        table = self._table(call.target)
        return self._table_call(worker, call.session, me, table, call.method, args)

    def _table(self, uid: object) -> Table:
        table = self._by_uid.get(uid) if isinstance(uid, int) else None
        if table is None or table.closed:  # (closed: a worker may not have heard yet)
            raise RoomError("that table is gone")
        return table

    def _room_call(self, me: Presence, method: str, args: tuple[Any, ...]) -> Any:
        room = self.room
        if method in ("open_table", "open_match"):
            return self._uid(room.open_table(me, *args[1:]))
        if method == "bring_back":
            table = room.bring_back(me)
            return None if table is None else self._uid(table)
        if method == "close_by_admin":
            room.close_by_admin(self._table(args[0]), me)
            return None
        if method == "remove":
            room.remove(args[0], me)
            return None
        if method in ("ban", "mute"):
            return getattr(room, method)(args[0], me, args[2])
        if method == "sanctions":
            return room.sanctions(me)
        if method == "lift":
            room.lift(args[0], args[1], me)
            return None
        if method == "set_motd":
            return room.set_motd(args[0], me)
        if method.startswith("play_now_") and room.play_now is not None:
            return self._play_now_call(me, method.removeprefix("play_now_"))
        if method.startswith("event_"):
            return self._event_call(me, method.removeprefix("event_"), args[0])
        raise RoomError(f"the room has no {method!r}")

    def _play_now_call(self, me: Presence, method: str) -> Any:
        """A worker's lobby uses the play-now queue (`crib3.room.playnow`)."""
        play_now = self.room.play_now
        assert play_now is not None
        if method == "join":
            return play_now.join(me)
        if method == "leave":
            play_now.leave(me)
            return None
        if method == "computer":
            return self._uid(play_now.computer(me))
        raise RoomError(f"the queue has no {method!r}")

    def _event_call(self, me: Presence, method: str, name: str) -> Any:
        """A worker's events screen enters, withdraws, starts or has made
        a live event (`crib3.room.live_tables`), as its session."""
        events = self.room.events
        if method == "may_make":
            events.may_make(me)
            return None
        if method == "made":
            events.made(name)
            return None
        if method == "join":
            events.join(name, me)
            return None
        if method == "withdraw":
            events.withdraw(name, me)
            return None
        if method == "start":
            return events.start(name, me)
        raise RoomError(f"the events have no {method!r}")

    def _table_call(self, worker: Hashable, session: int, me: Presence, table: Table,
                    method: str, args: tuple[Any, ...]) -> Any:
        if method in ("sit", "watch", "unwatch", "say"):
            return getattr(table, method)(me, *args[1:])
        if method == "leave":
            self._check_seat(table, me, args[0])
            table.leave(args[0])
            return None
        if method == "start":  # as the caller: the room checks who may
            table.start(me.name)
            return None
        if method == "close_by":  # (True: it closed; False: the others are asked)
            return table.close_by(me.name)
        if method == "replace":
            table.replace(args[0], me.name)
            return None
        if method == "follow":
            return self._follow(worker, session, me, table, args[0], self._uid(table))
        if method == "dispatch":
            seat, command = args
            self._check_seat(table, me, seat)
            if table.game is None:
                raise IllegalMove("the game has not started")
            table.feed(seat).dispatch(command)
            return None
        raise RoomError(f"a table has no {method!r}")

    def _check_seat(self, table: Table, me: Presence, seat: int | None) -> None:
        """`me` sits at `seat` of `table` (None, a spectator's, is anyone's)."""
        if seat is None:
            return
        mine = table.seat_of(me.name)
        if mine != seat or table.seats[seat].key != me.key:
            raise RoomError(f"you do not sit in that seat at table {table.number}")

    def _follow(self, worker: Hashable, session: int, me: Presence, table: Table,
                seat: int | None, uid: int) -> wire.Followed:
        """The caller's screen follows `table` from `seat`: the events so
        far and, from now on, each new one, redacted to the seat."""
        self._check_seat(table, me, seat)
        if table.game is None:
            raise RoomError(f"table {table.number} has not started")
        sub = next(self._subs)

        def forward(event: Any, state: Any, view: Any) -> None:
            self.send(worker, wire.FeedItems(sub, ((event, view),)))

        history, unsubscribe = table.feed(seat).follow(forward)
        self.follows[sub] = (worker, session, unsubscribe, uid)
        return wire.Followed(sub, tuple((event, view) for event, _, view in history))


def event_snap(live: LiveEvent, tables: Sequence[Table]) -> wire.EventSnap:
    """`live` as a worker's events screen reads it (`wire.EventSnap`);
    `tables`: its tables of the board in play."""
    return wire.EventSnap(
        name=live.name, host=live.host, status=live.status, start_at=live.start_at,
        board_count=live.board_count, entered=tuple(live.entered), board=live.board,
        seating=tuple(tuple(slots) for slots in live.seating), note=live.note,
        tables=tuple(t.number for t in tables), lines=tuple(live.sheet()))


def kept_games(games: dict[int, list[Seat]]) -> tuple[tuple[int, tuple[Seat, ...]], ...]:
    """Games off the room's tables (shelved, or closed with a way back), as
    a delta carries them: copies, in order."""
    return tuple((n, tuple(dataclasses.replace(s) for s in seats))
                 for n, seats in sorted(games.items()))


def snap(uid: int, table: Table, in_room: bool) -> wire.TableSnap:
    """`table` as a worker's screens read it (see `wire.TableSnap`)."""
    state = table.state
    standing = None if state is None else wire.PublicStanding(
        tuple(state.players), tuple(state.scores), state.hand_number, state.winner)
    return wire.TableSnap(
        uid=uid, number=table.number, owner=table.owner, rules=table.rules,
        seats=tuple(dataclasses.replace(s) for s in table.seats),
        online=frozenset(table.online), away_since=tuple(sorted(table.away_since.items())),
        started=table.started, over=table.over, closed=table.closed,
        closed_by=table.closed_by, passed_from=table.passed_from,
        watchers=tuple(table.watcher_names()), chat=tuple(table.chat.lines),
        standing=standing, in_room=in_room, close_asked=tuple(table.close_asked),
        started_by=table.started_by, rated=table.rated, match=table.match)


def summary(whole: wire.TableSnap) -> wire.TableSnap:
    """A table as the lobby shows it (`whole` without its chat, watchers
    and times away), for a worker with nobody at it."""
    return dataclasses.replace(whole, chat=(), watchers=(), away_since=(), whole=False)
