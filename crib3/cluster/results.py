"""A cluster's rated results: one JetStream stream (`CRIB3_RESULTS`, one
subject) is the results log every node shares, and each node folds it, in
the stream's order, into its own ratings' store (`crib3.room.results`:
SQLite, the leaderboard's and the profiles' query store).

**Written once a game.** The node whose table's game ended appends its
result (`ClusterResults.record`) with `Nats-Expected-Last-Subject-Sequence`
set to the end of the stream as it has read it, and `Nats-Msg-Id` set to
the game's id. Before it writes it reads the stream to its end and looks
for the game: in already (a node restarted, a table adopted and its end
told again), nothing is written. Two nodes writing at once: the server
takes one and refuses the other's expected sequence; the refused node
reads on (folding the other's result), finds its game still missing, and
writes again after it: both count, in one order every node folds alike.
The message id makes a send whose answer was lost harmless: the server
answers a second copy within its window as a duplicate. A match is rated
as a whole, once (`match_table_result`: its games are not rated one by
one), the same way.

**Every node folds the same.** A node reads the stream from where its
store stands (`Results.folded_up_to`: a restart goes on where it was) and
folds each line (`Results.fold_line`) once it has checked it against its
table's own stream (`crib3.cluster.verify`: the game folded from there
must give the very same result). A line that is no result (damaged, or
forged by hand: places its scores do not give, one person in two seats,
scores or seats its table's game does not give), or a game that is in
already (a result replayed onto the stream), is refused with one line in
the log and counted (`refused`), and every node refuses it alike, so their
ratings stay the same. A result whose game cannot be read yet stops the
fold there (one line in the log), to be tried again at the next reading:
it is neither dropped nor applied, and no later result overtakes it. A
node reads the stream every `FOLD_EVERY` seconds in the background, and
before each write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import nats.errors
import nats.js.errors
from nats.js.api import Header, StorageType, StreamConfig

from crib3.cluster.registry import REGISTRY
from crib3.cluster.retry import ended, keep_doing
from crib3.cluster.store import NOT_YET_PLACED, WRONG_LAST_SEQUENCE, ClusterStore, patiently
from crib3.cluster.verify import NotYet, ResultCheck, match_of
from crib3.engine import State
from crib3.room.results import (
    BestHands,
    Result,
    Results,
    lines_digest,
    lines_game_id,
    now,
    result_of,
)

if TYPE_CHECKING:
    from crib3.cluster.hosted import HostedTable

# A result checked against its table's game (`crib3.cluster.verify`): None
# when it is that game's, else why not; NotYet when that cannot be told yet.
Check = Callable[[Result], Awaitable[str | None]]

RESULTS = "CRIB3_RESULTS"
SUBJECT = "crib3.results"
LINE_BYTES = 8192  # a result's line at most (three seats, their names)
FOLD_EVERY = 1.0  # seconds between a node's readings of the stream
TRIES = 20  # writes refused because another node wrote first, before giving up
WAIT_MOST = 120.0  # seconds a write waits for an earlier result's game to be readable
log = logging.getLogger("crib3.cluster")


class ClusterResults:
    """One node's side of the cluster's results (see the module's docstring)."""

    def __init__(self, js: Any, node: str, book: Results, check: Check) -> None:
        self.js = js
        self.node = node
        self.book = book
        self.check = check
        self.seen = max(0, book.folded_up_to())  # the stream's last sequence read here
        self.refused = 0  # results refused since the node started
        self.waiting: int | None = None  # the result whose game cannot be read yet, if any
        self._reading = asyncio.Lock()  # one reader at a time: folds in order
        self._task: asyncio.Task[None] | None = None

    async def start(self, replicas: int) -> None:
        """The stream made if it is not there yet, read to its end, then
        read in the background for the node's life."""
        try:
            await patiently(lambda: self.js.stream_info(RESULTS))
        except nats.js.errors.NotFoundError:
            with contextlib.suppress(nats.js.errors.BadRequestError):  # another node made it
                await patiently(lambda: self.js.add_stream(StreamConfig(
                    name=RESULTS, subjects=[SUBJECT], num_replicas=replicas,
                    storage=StorageType.FILE, max_msg_size=LINE_BYTES, allow_direct=True,
                    duplicate_window=120.0)), also=NOT_YET_PLACED)
        await self.catch_up()
        self._task = asyncio.get_running_loop().create_task(keep_doing(
            self.catch_up, every=FOLD_EVERY, what=f"node {self.node}: reading the results",
            meaning="ratings here lag the cluster's until it works again", most=30.0))

    async def stop(self) -> None:
        await ended(self._task, f"node {self.node}: reading the results")

    async def catch_up(self) -> int:
        """Every result on the stream after `seen` read and folded in
        order; how many were read."""
        read = 0
        async with self._reading:
            while True:
                try:  # (a read: safe to ask again)
                    message = await patiently(lambda: self.js.get_msg(
                        RESULTS, seq=self.seen + 1, subject=SUBJECT, next=True))
                except nats.js.errors.NotFoundError:
                    return read
                sequence = int(message.seq or 0)
                if sequence <= self.seen:  # (never: the server gives the next one)
                    return read
                try:
                    await self._fold(message.data or b"", sequence)
                except NotYet as exc:
                    if self.waiting != sequence:
                        self.waiting = sequence
                        log.warning("node %s: result %d on the cluster waits, with every "
                                    "result after it (tried again in %g s): %s", self.node,
                                    sequence, FOLD_EVERY, exc)
                    return read
                if self.waiting == sequence:
                    self.waiting = None
                    log.info("node %s: result %d on the cluster read at last", self.node,
                             sequence)
                self.seen = sequence
                read += 1

    async def _fold(self, data: bytes, sequence: int) -> None:
        """One line of the stream folded in, or refused (one line in the
        log); NotYet: its game cannot be read yet."""
        why: str | None
        try:
            result = Result.parse(data.decode("utf-8"))
        except UnicodeDecodeError:
            why = "not UTF-8"
        except ValueError as exc:
            why = str(exc)
        else:
            why = None if not self.book.has(result.game) else \
                f"game {result.game} is in already (a replayed result)"
            if why is None:
                why = await self.check(result)
            if why is None:
                why = self.book.fold_line(result.line(), sequence)
        if why is not None:
            self.refused += 1
            log.warning("node %s: result %d on the cluster refused: %s", self.node, sequence,
                        why)

    def _sender(self, line: bytes, game: str) -> Callable[[], Awaitable[Any]]:
        """One append of `line` after the stream's end as read here."""
        headers = {Header.EXPECTED_LAST_SUBJECT_SEQUENCE: str(self.seen),
                   Header.MSG_ID: f"result:{game}"}

        async def send() -> Any:
            return await self.js.publish(SUBJECT, line, stream=RESULTS, headers=dict(headers),
                                         timeout=2)
        return send

    async def record(self, result: Result) -> bool:
        """`result` on the stream once (see the module's docstring): True
        when this call wrote it (folded here, as on every node, once its
        check reads its game), False when its game's result is in already.
        An earlier result whose game cannot be read yet is waited for (at
        most WAIT_MOST seconds): nothing is written before it."""
        line = result.line().encode()
        Result.parse(result.line())  # (what is written must read back)
        refused, give_up = 0, time.monotonic() + WAIT_MOST
        while refused < TRIES:
            await self.catch_up()
            if self.book.has(result.game):
                return False
            if self.waiting is not None:  # an earlier result not read yet: written after it
                if time.monotonic() > give_up:
                    raise nats.errors.Error(f"the result of game {result.game} could not be "
                                            f"written: result {self.waiting} before it "
                                            f"could not be read in {WAIT_MOST:g} s")
                await asyncio.sleep(FOLD_EVERY / 4)
                continue
            try:  # (sent again with its id: the server keeps one copy)
                ack = await patiently(self._sender(line, result.game))
            except nats.js.errors.APIError as error:
                if error.err_code not in WRONG_LAST_SEQUENCE:
                    raise
                refused += 1
                continue  # another node wrote first: read it, and try after it
            await self.catch_up()  # (folded once its check can read its game)
            return not ack.duplicate
        raise nats.errors.Error(f"the result of game {result.game} could not be written: "
                                f"{TRIES} other results were written first")


async def fold_the_stream(store: ClusterStore, book: Results, patience: float = 15.0) -> int:
    """Every result on the cluster's stream, checked against its table's
    stream as a node checks it, folded into `book` (an empty store: `crib3
    ratings rebuild --cluster`); how many were refused. Nothing is written
    to the cluster (no stream made, no result written). A result whose
    game cannot be read is asked again for `patience` seconds, then
    NotYet: a rebuild that stopped part way is not the cluster's ratings."""
    try:
        registry = await patiently(lambda: store.js.key_value(REGISTRY))
    except nats.js.errors.BucketNotFoundError:
        registry = None  # no table ever: every result (if any) is refused
    reader = ClusterResults(store.js, "rebuild", book, ResultCheck(store, registry))
    give_up = time.monotonic() + patience
    while True:
        await reader.catch_up()
        if reader.waiting is None:
            return reader.refused
        if time.monotonic() > give_up:
            raise NotYet(f"result {reader.waiting} on the cluster: its game could not be "
                         f"read in {patience:g} s")
        await asyncio.sleep(FOLD_EVERY / 4)


def match_table_result(table: HostedTable) -> Result | None:
    """A hosted table's won match as its one result, from its games on the
    cluster's stream, made as every node checks it (`crib3.cluster.verify`);
    None: nothing to rate."""
    played = match_of(table.log.record, table.match.best_of)
    placings = played.placings(table.number, table.seats)
    if placings is None:
        return None
    return Result(played.game, table.number, now(), tuple(placings), played.digest)


def table_result(table: HostedTable, state: State) -> Result | None:
    """A hosted table's finished game as its result (see
    `crib3.room.room.Room.placings`), from its log as the cluster's stream
    holds it; None: nothing to rate."""
    lines = table.log.record.lines
    if len(lines) < 2:
        return None
    best = BestHands()
    for event in table.log.events:
        best(event)
    placings = table.room.placings(table.number, table.seats, state, best.best)
    if placings is None:
        return None
    return result_of(lines_game_id(lines), table.number, placings, lines_digest(lines))


__all__ = ["RESULTS", "SUBJECT", "ClusterResults", "fold_the_stream", "match_table_result",
           "table_result"]
