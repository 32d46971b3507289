"""A card room's tables on NATS JetStream: each table's log on a stream, and
who hosts it as a lease in a key-value bucket.

**The log.** One stream (`CRIB3_TABLES`) holds every table, one subject a
table (`crib3.tables.<id>.events`). Its messages are the lines of the
table's game log, the very lines a saved game's `.jsonl` holds (the header,
then one event a line, written by the engine's JSON codec), each marked by
a `Crib3-Kind` header ("header" or "event"), with "owner" messages between
them (who took the table over: see below), which are not part of the game.
A table's log read back (`ClusterStore.read`) is therefore an ordinary
game log, and `crib3 tables export` writes it as one. A match's table
(`crib3.room.match`) plays its games on the same subject, the one its
lease fences: a new game's header is taken only after a game won
(`TableLog.next_game`), and the record read back keeps the earlier games
(`TableRecord.games`) before the one under way. The stream has one
replica on a single server and three on a cluster (R3: a write is
acknowledged once two of three servers hold it, so losing one server loses
nothing that was acknowledged and stops nothing).

**One writer.** Every append carries `Nats-Expected-Last-Subject-Sequence`:
the stream sequence of the table's last message as the writer knows it. The
server refuses an append when the table's log moved on since (another
writer got there first); the writer gets `Fenced`, and must not show the
event. An append waits for the cluster's acknowledgement, so an event is
stored (on a quorum) before any screen shows it, as a local table's event
is fsynced. An append whose answer was lost is sent again with the same
`Nats-Msg-Id`: the server's de-duplication answers with the first copy's
sequence, or, as the first copy moved the table's sequence, refuses it, and
the writer finds its own message (by that id) right after the place it
wrote at: a retry never doubles an event.

**One owner: the lease.** A table is hosted by one node at a time, the one
holding its lease: a key in the `crib3-leases` bucket (value: the node's
id), with a revision and an expiry (the bucket's TTL: the server drops the
key when it was not renewed in time). `acquire` creates the key (only if
absent or expired), `renew` rewrites it only at the revision the node holds
(refused when anyone else took it meanwhile), `release` deletes it at that
revision.

**Why both.** Neither the lease nor the expected sequence is enough alone:

- A lease alone cannot fence. "Do I still hold it?" and "append" are two
  steps, and a node paused between them (a long GC, SIGSTOP, a cut link)
  appends after its lease expired and another node adopted the table: two
  writers, the log forked by whoever writes last. The bucket cannot make
  the stream's append conditional on the key's revision.
- The expected sequence alone forbids forks (two writers at the same
  position: one is refused) but says nothing of *who* may write: a node
  that lost its lease but knows the log's end goes on appending, and the
  node that adopted the table is the one refused.

So a node that takes a lease first appends an "owner" message (its id and
the lease's revision: the fencing token) at the end of the log as it read
it (`ClusterStore.open_log`). That moves the table's sequence past anything
the former owner knows: every later append of the former owner is refused
by the server, whatever its clock says, and it tells its players to
reconnect. A node also stops appending by itself once its lease's term has
passed on its own clock (`Lease.held`, measured from before it asked, so
it stops before the server can give the lease to anyone else).

Nothing here imports a screen or the SSH side; the engine knows nothing of
this package.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

import nats
import nats.errors
import nats.js.errors
from nats.js.api import DeliverPolicy, Header, KeyValueConfig, StorageType, StreamConfig

from crib3.cluster.watched import quick
from crib3.engine import Event, fold
from crib3.engine.codec import decode
from crib3.engine.log import event_line

STREAM = "CRIB3_TABLES"
SUBJECTS = "crib3.tables.*.events"
BUCKET = "crib3-leases"
KIND = "Crib3-Kind"
HEADER, EVENT, OWNER = "header", "event", "owner"
WRONG_LAST_SEQUENCE = (10071, 10164)  # JSStreamWrongLastSequence(Constant)Err
# JSStreamDuplicateMessageConflict, "duplicate message id is in process": an
# earlier send of this very message is being stored still (a stream leader
# slow, as after its server was paused): sent again, it is answered as the
# duplicate it is.
IN_PROCESS = (10158,)
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
# An append whose answer does not come is sent again (same Nats-Msg-Id) for
# this long: a cluster that lost a server elects a new stream leader meanwhile.
RETRY_SECONDS = 15.0
# "no suitable peers for placement": a cluster just started does not know
# all its servers yet, and cannot place three copies for a moment.
NOT_YET_PLACED = (10005,)
# Seconds a read of a table's log may wait for one answer before it asks
# again (it is safe to): right after the cluster's return a stream has no
# leader for a few seconds, and a request sent then is never answered; with
# nats-py's 5 s it waited out the rest of that, the table left without a
# host, long after the leader was there to answer the next one.
READ_ASK = 1.0
READ_STALLS = 2.0  # seconds without the next message of a log being read: read again
# Seconds a read's consumer outlives its reader on the server. A read's
# ordered consumer is ephemeral: the server drops it once nobody listens,
# after 5 s by default. A node that starts folds every result, each
# checked against its table's log, and copies the finished games: a read
# each, hundreds a second, each leaving a consumer for 5 s, towards the
# server's limit of consumers a stream, past which nobody can read a table.
READ_LINGERS = 0.5
# Seconds a connection that closes may take to send what it still holds.
CLOSE_SECONDS = 5.0
T = TypeVar("T")
WRONG_LAST_SEQUENCE = (10071, 10164)  # JetStream's codes: the subject was written since
logger = logging.getLogger("crib3.cluster")


class Fenced(Exception):
    """This node may no longer write for the table: another node took its
    lease, or another writer moved the table's log on. Whatever it was about
    to show did not happen; its players should reconnect (to the new host)."""


class LeaseHeld(Exception):
    """The table's lease is held by another node (`owner`), not yet expired."""

    def __init__(self, table: str, owner: str) -> None:
        super().__init__(f"table {table} is hosted by {owner}")
        self.table = table
        self.owner = owner


# What a cluster says while a server is lost and its place taken (a client
# reconnecting, a stream without a leader for the seconds of an election).
PASSING = (nats.errors.TimeoutError, nats.errors.NoRespondersError,
           nats.errors.ConnectionReconnectingError, nats.js.errors.NoStreamResponseError,
           nats.js.errors.ServiceUnavailableError)


async def patiently(call: Callable[[], Awaitable[T]], also: tuple[int, ...] = (),
                    within: float = RETRY_SECONDS) -> T:
    """`call()`, tried again for `within` seconds while the cluster is between
    servers (and on the JetStream error codes `also`); any other error at
    once. Only for requests that are safe to send twice (each caller says
    why)."""
    give_up = time.monotonic() + within
    while True:
        try:
            return await call()
        except PASSING:
            if time.monotonic() > give_up:
                raise
        except nats.js.errors.APIError as error:
            passing = getattr(error, "code", None) == 503 or \
                getattr(error, "err_code", None) in also
            if not passing or time.monotonic() > give_up:
                raise
        await asyncio.sleep(0.1)


def wrong_last_sequence(exc: Exception) -> bool:
    """Whether a write at a revision was refused for the key was written
    since: nats-py says so as KeyWrongLastSequenceError for an update, but
    as a plain BadRequestError (JetStream's error code) for a delete."""
    return isinstance(exc, nats.js.errors.KeyWrongLastSequenceError) or (
        isinstance(exc, nats.js.errors.APIError)
        and getattr(exc, "err_code", None) in WRONG_LAST_SEQUENCE)


async def close_client(client: Any, who: str) -> None:
    """nats-py's `client.close()`, at most CLOSE_SECONDS; then its socket
    is aborted (what it had not sent dropped) and the close finishes."""
    closing = asyncio.ensure_future(client.close())
    done, _ = await asyncio.wait([closing], timeout=CLOSE_SECONDS)
    if not done:
        logger.warning("%s: its NATS connection did not close in %g s (its server does not "
                       "read what it sends): dropped", who, CLOSE_SECONDS)
        writer = getattr(getattr(client, "_transport", None), "_io_writer", None)
        if writer is not None:
            writer.transport.abort()  # (what it still held to send: never sent)
        done, _ = await asyncio.wait([closing], timeout=1.0)
        if not done:
            closing.cancel()
    if done:
        closing.result()


async def kv_bucket(js: Any, name: str, replicas: int, ttl: float = 0.0) -> Any:
    """The key-value bucket `name` (history 1; entries expire after `ttl`
    seconds, 0: never), made with `replicas` copies if it is not there yet.
    Every bucket of the cluster is got this way: asked patiently (a cluster
    just started may not answer for a moment), and two nodes making it at
    once both get it (the one that loses the race reads the other's; its
    configuration, a TTL included, is whoever made it first)."""
    try:
        return await patiently(lambda: js.key_value(name))
    except nats.js.errors.BucketNotFoundError:
        pass
    try:
        return await patiently(lambda: js.create_key_value(KeyValueConfig(
            bucket=name, replicas=replicas, history=1, ttl=ttl or None)),
            also=NOT_YET_PLACED)
    except nats.js.errors.APIError:  # another node made it meanwhile
        return await patiently(lambda: js.key_value(name))


async def _say_error(error: Exception) -> None:
    """nats-py's errors (a server lost, a reconnect refused) in one line of
    the log, not its default traceback on stderr."""
    logger.info("nats: %s", error or type(error).__name__)


async def create_key(kv: Any, key: str, value: bytes) -> int:
    """`kv.create(key, value)`'s revision, riding out a race nats-py's
    create loses in a bucket with a TTL: its first try finds the key
    there (KeyWrongLastSequenceError inside), and by the time it looks
    at that entry the server has expired it, so create raises
    KeyNotFoundError for a key that is free. Tried again, it is created;
    a key held by someone else still raises KeyWrongLastSequenceError."""
    for _ in range(4):
        try:
            return int(await kv.create(key, value))
        except nats.js.errors.KeyWrongLastSequenceError:
            raise
        except nats.js.errors.KeyNotFoundError:
            continue  # it expired between create's two looks: free now
    return int(await kv.create(key, value))


def check_table_id(table: str) -> str:
    if not TABLE_ID.fullmatch(table):
        raise ValueError(f"{table!r} is not a table id (1-64 of A-Z a-z 0-9 _ -)")
    return table


def subject_of(table: str) -> str:
    return f"crib3.tables.{check_table_id(table)}.events"


@dataclass
class Lease:
    """This node's hold on a table: the key's revision (the fencing token)
    and when its term ends on this node's monotonic clock."""

    table: str
    node: str
    revision: int
    deadline: float

    def held(self) -> bool:
        return time.monotonic() < self.deadline


@dataclass(frozen=True)
class PlayedGame:
    """A match's finished game on its table's stream: its lines (header
    first) and its events."""

    lines: list[str]
    events: list[Event]


@dataclass
class TableRecord:
    """A table's log as the stream holds it: the header, the events, the
    JSON lines they were stored as (header first), the owners that took it
    (node, lease revision) in order, and the sequence of its last message.
    A match's table: `header`, `events` and `lines` are its game under
    way (or its last), `games` the ones won before it, in order."""

    header: dict[str, Any] | None
    events: list[Event] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    owners: list[tuple[str, int]] = field(default_factory=list)
    last: int = 0
    games: list[PlayedGame] = field(default_factory=list)

    @property
    def played(self) -> bool:
        """Any game of it has an event (a table that never started has none)."""
        return bool(self.events or self.games)

    def all_games(self) -> list[PlayedGame]:
        """Every game on it, in order, the one under way (or last) included."""
        current = [PlayedGame(self.lines, self.events)] if self.header is not None else []
        return [*self.games, *current]

    def next_game(self, header: dict[str, Any], text: str) -> None:
        """A new game's header read or written: the game before it is won
        (ValueError when it is not: a header out of place)."""
        if not self.events or fold(self.events).winner is None:
            raise ValueError("a new game's header before the game under way was won")
        self.games.append(PlayedGame(self.lines, self.events))
        self.header, self.events, self.lines = dict(header), [], [text]


class ClusterStore:
    """One node's handle on the cluster's tables: `connect`, then `acquire`
    a table's lease and `open_log` it to write; anyone may `read`."""

    def __init__(self, client: Any, node: str, lease_seconds: float) -> None:
        self.client = client
        self.js = client.jetstream()
        self._reading = client.jetstream(timeout=READ_ASK)  # (`read`'s requests)
        self.node = node
        self.lease_seconds = lease_seconds
        self.replicas = 1  # copies of what this node makes (`connect`)
        # Called each time the connection comes back after it was lost (a
        # watch is made again: its consumer may have gone with the server).
        self.reconnected: list[Callable[[], None]] = []
        self._leases: Any = None
        self._asking: Any = None

    async def _reconnected(self) -> None:
        logger.info("node %s: connected to NATS again", self.node)
        for call in list(self.reconnected):
            try:
                call()
            except Exception as exc:
                logger.warning("node %s: after a reconnect: %s", self.node, exc)

    @classmethod
    async def connect(cls, servers: str | Sequence[str], node: str, *,
                      replicas: int | None = None, lease_seconds: float = 10.0,
                      make: bool = True,
                      **options: Any) -> ClusterStore:
        """Connect to the cluster (`servers`: one URL or several) as `node`,
        making the tables' stream and the leases' bucket with `replicas`
        copies if they are not there yet; unless told, 3 where the cluster
        has three servers or more (what it told the client of itself as it
        connected), so that losing one loses nothing, else 1. The
        lease term is the bucket's, fixed by whoever made it first. Without
        `make` nothing is made: a reader (`crib3 tables export`) finds no
        table where there is no stream."""
        urls = [servers] if isinstance(servers, str) else list(servers)
        options.setdefault("reconnect_time_wait", 0.25)  # a lost server: the next one soon
        options.setdefault("max_reconnect_attempts", -1)  # a node waits for its cluster
        options.setdefault("error_cb", _say_error)
        told = options.pop("reconnected_cb", None)
        store: ClusterStore | None = None

        async def reconnected() -> None:
            if store is not None:
                await store._reconnected()
            if told is not None:
                await told()
        client = await nats.connect(urls, name=f"crib3 {node}", reconnected_cb=reconnected,
                                    **options)
        store = cls(client, node, lease_seconds)
        if replicas is None:
            known = {(uri.hostname, uri.port) for uri in client.servers}
            replicas = 3 if len(known) >= 3 else 1
        store.replicas = replicas
        if not make:
            return store
        try:
            await store._ensure(replicas)
        except BaseException:
            await client.close()
            raise
        return store

    async def _ensure(self, replicas: int) -> None:
        # (Each step is safe to ask again, and a cluster just started has no
        # JetStream leader for a moment: "no responders", "no response from
        # stream". Asked patiently.)
        try:
            await patiently(lambda: self.js.stream_info(STREAM))
        except nats.js.errors.NotFoundError:
            await patiently(lambda: self.js.add_stream(StreamConfig(
                name=STREAM, subjects=[SUBJECTS], num_replicas=replicas,
                storage=StorageType.FILE, allow_direct=True)), also=NOT_YET_PLACED)
        self._leases = await kv_bucket(self.js, BUCKET, replicas, ttl=self.lease_seconds)
        # (A lease asked for, asked again soon: see READ_ASK.)
        self._asking = quick(self._leases, READ_ASK)
        status = await patiently(self._leases.status)
        if status.ttl:
            self.lease_seconds = status.ttl

    async def close(self) -> None:
        """The connection closed. What it still had to send gets
        `CLOSE_SECONDS`, then is dropped: a server that does not read (paused)
        would hold nats-py's close, which waits for every byte, for good."""
        await close_client(self.client, f"node {self.node}")

    # --- leases -----------------------------------------------------------------------

    def _lease_value(self) -> bytes:
        return json.dumps({"node": self.node}).encode()

    async def acquire(self, table: str) -> Lease:
        """The table's lease for this node, if nobody holds it (never held,
        released, or expired). LeaseHeld when another node holds it."""
        key = check_table_id(table)
        asked = time.monotonic()
        try:  # (sent again, a create that landed is found below as this node's)
            revision = await patiently(lambda: create_key(self._asking, key, self._lease_value()))
        except nats.js.errors.KeyWrongLastSequenceError:
            owner, revision = await self._holder(key)
            if owner != self.node:
                raise LeaseHeld(table, owner) from None
        return Lease(table, self.node, revision, asked + self.lease_seconds)

    async def _holder(self, key: str) -> tuple[str, int]:
        """Who holds a lease key now, and its revision ("?" when nobody)."""
        try:
            # (Asked quickly, like the create before it: the bucket's own
            # requests wait 5 s each, and an adoption after an outage spent
            # most of its time here, its table hosted by nobody meanwhile.)
            entry = await patiently(lambda: self._asking.get(key))
            return str(json.loads(entry.value or b"{}").get("node", "?")), int(entry.revision)
        except (nats.js.errors.KeyNotFoundError, ValueError):
            return "?", 0

    async def renew(self, lease: Lease) -> None:
        """Another term for `lease`, only if it is still at the revision this
        node holds. Fenced when it expired and anyone (this node included)
        wrote the key since, or it was dropped as expired."""
        asked = time.monotonic()
        try:  # (asked quickly, and again only while the lease may still be held)
            lease.revision = await patiently(lambda: self._asking.update(
                lease.table, self._lease_value(), last=lease.revision),
                within=max(0.0, lease.deadline - asked))
        except nats.js.errors.KeyWrongLastSequenceError:
            owner, revision = await self._holder(lease.table)
            if owner == self.node and revision > lease.revision:
                # an earlier send of this renewal landed, its answer lost (only
                # this node writes its own id over its own revision)
                lease.revision, lease.deadline = revision, asked + self.lease_seconds
                return
            lease.deadline = 0.0
            raise Fenced(f"table {lease.table}: the lease was lost (it expired, or another "
                         "node took it)") from None
        lease.deadline = asked + self.lease_seconds

    async def release(self, lease: Lease) -> None:
        """Give the table up (it may be adopted at once). Nothing happens
        when the lease was already lost."""
        lease.deadline = 0.0
        try:
            await self._leases.delete(lease.table, last=lease.revision)
        except (nats.js.errors.KeyWrongLastSequenceError, nats.js.errors.APIError):
            pass

    # --- the log ----------------------------------------------------------------------

    async def forget(self, table: str) -> None:
        """A table's messages gone from the stream: for a table that never
        was one (a node's spare: a header and owner messages, no game), so
        that no export finds it."""
        await patiently(lambda: self.js.purge_stream(STREAM, subject=subject_of(table)))

    async def read(self, table: str) -> TableRecord:
        """A table's whole log, in order (an empty record when it has none).
        A read whose messages stop coming for `READ_STALLS` seconds starts
        again (for RETRY_SECONDS): a consumer made on a stream just given
        a leader, after every server restarted, may deliver nothing for
        seconds, while a consumer made again a moment later delivers at once."""
        give_up = time.monotonic() + RETRY_SECONDS
        while True:
            try:
                return await self._read(table)
            except nats.errors.TimeoutError:
                if time.monotonic() > give_up:
                    raise
                logger.info("node %s: the log of table %s stopped coming: read again",
                            self.node, table)

    async def _read(self, table: str) -> TableRecord:
        subject = subject_of(table)
        record = TableRecord(header=None)
        try:  # (reads: safe to send again, and asked again soon: READ_ASK)
            last = await patiently(lambda: self._reading.get_msg(STREAM, subject=subject))
        except nats.js.errors.NotFoundError:  # no such table (or no stream at all)
            return record
        record.last = int(last.seq or 0)
        subscription = await patiently(lambda: self._reading.subscribe(
            subject, stream=STREAM, ordered_consumer=True, deliver_policy=DeliverPolicy.ALL,
            inactive_threshold=READ_LINGERS))
        try:
            while True:
                message = await subscription.next_msg(timeout=READ_STALLS)
                sequence = message.metadata.sequence.stream
                _take(record, table, (message.headers or {}).get(KIND), message.data)
                if sequence >= record.last:
                    break
        finally:
            await subscription.unsubscribe()
        return record

    async def open_log(self, lease: Lease, header: dict[str, Any] | None = None) -> TableLog:
        """The table's log for the holder of `lease` to append to: read
        whole, with this node's "owner" message appended at its end (the
        fence: see the module's docstring), and `header` as its first line
        when the log is new. Fenced when the lease's term ends first."""
        for _ in range(100):
            record = await self.read(lease.table)
            log = TableLog(self, lease, record)
            token = json.dumps({"node": lease.node, "lease": lease.revision}).encode()
            try:
                await log._append(OWNER, token, final=False)
            except Fenced:
                if not lease.held():
                    raise
                continue  # the former owner wrote meanwhile: read again
            record.owners.append((lease.node, lease.revision))
            if record.header is None:
                if header is None:
                    raise ValueError(f"table {lease.table} has no log: give its header")
                await log._append(HEADER, json.dumps(header, ensure_ascii=False).encode())
                record.header = dict(header)
                record.lines.append(json.dumps(header, ensure_ascii=False))
            return log
        raise Fenced(f"table {lease.table}: its log keeps moving under a lease this node holds")


def _take(record: TableRecord, table: str, kind: str | None, data: bytes) -> None:
    text = data.decode("utf-8")
    if kind == OWNER:
        token = json.loads(text)
        record.owners.append((str(token["node"]), int(token["lease"])))
    elif kind == HEADER and record.header is None:
        record.header = json.loads(text)
        record.lines.append(text)
    elif kind == HEADER:  # a match's next game (only after a win)
        record.next_game(json.loads(text), text)
    elif kind == EVENT and record.header is not None:
        record.events.append(decode(json.loads(text)))
        record.lines.append(text)
    else:
        raise ValueError(f"table {table}: a {kind!r} message out of place on its stream")


class TableLog:
    """A table's log open for writing by its lease's holder: `append` puts
    an event on the stream, acknowledged, or raises Fenced."""

    def __init__(self, store: ClusterStore, lease: Lease, record: TableRecord) -> None:
        self.store = store
        self.lease = lease
        self.record = record
        self.subject = subject_of(lease.table)
        self._header: dict[str, Any] | None = None  # a match's next game's, to write first

    @property
    def events(self) -> list[Event]:
        return self.record.events

    def next_game(self, header: dict[str, Any]) -> None:
        """A match's next game begins on this log: `header` goes on the
        stream just before its first event (`append`). ValueError when the
        game under way is not won (the stream would refuse it to a reader)."""
        if not self.record.events or fold(self.record.events).winner is None:
            raise ValueError(f"table {self.lease.table}: a new game before the last was won")
        self._header = header

    async def append(self, event: Event) -> int:
        """`event` on the stream (acknowledged by the cluster) before this
        returns its sequence; Fenced when this node may no longer write."""
        if self._header is not None:
            text = json.dumps(self._header, ensure_ascii=False)
            await self._append(HEADER, text.encode())
            self.record.next_game(self._header, text)
            self._header = None
        line = event_line(event)
        sequence = await self._append(EVENT, line.encode())
        self.record.events.append(event)
        self.record.lines.append(line)
        return sequence

    async def _append(self, kind: str, payload: bytes, final: bool = True) -> int:
        """One message at the end of the log as this node knows it. When the
        log moved on, Fenced, and (`final`) this node never writes it again."""
        lease, after = self.lease, self.record.last
        if not lease.held():
            raise Fenced(f"table {lease.table}: this node's lease has run out")
        headers = {KIND: kind, Header.EXPECTED_LAST_SUBJECT_SEQUENCE: str(after),
                   Header.MSG_ID: f"{lease.table}:{lease.node}:{lease.revision}:{after}"}
        try:  # (sent again with its id: found below, never doubled)
            ack = await patiently(lambda: self.store.js.publish(
                self.subject, payload, stream=STREAM, headers=dict(headers), timeout=2),
                also=IN_PROCESS)
        except nats.js.errors.APIError as error:
            if error.err_code not in WRONG_LAST_SEQUENCE:
                raise
            landed = await self._landed(after, headers[Header.MSG_ID])
            if not landed:
                if final:
                    lease.deadline = 0.0  # never again, whatever the lease says
                raise Fenced(f"table {lease.table}: another node writes its log now") from None
            self.record.last = landed  # an earlier send of this very message, its answer lost
            return landed
        self.record.last = int(ack.seq)
        return self.record.last

    async def _landed(self, after: int, message_id: str) -> int:
        """The sequence of the table's message next after `after` when it
        is the one this node sent as `message_id` (an earlier try whose
        answer was lost: the server checks the expected sequence before it
        looks for duplicates), else 0."""
        try:
            found = await patiently(lambda: self.store.js.get_msg(
                STREAM, seq=after + 1, subject=self.subject, next=True))
        except nats.js.errors.NotFoundError:
            return 0
        headers = found.headers or {}
        return int(found.seq or 0) if headers.get(Header.MSG_ID) == message_id else 0
