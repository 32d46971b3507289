"""A room's table hosted by one node of a cluster: the same `Table`, seats,
bots and feeds as on one machine, its log on the cluster's stream (through
an `AckedGame`: nothing is shown before the cluster holds it) and its
seats in the tables' registry (`crib3.cluster.registry`), so that another
node can adopt it when this one dies.

What a hosted table asks of the node that hosts it is `Host`: to write its
registry entry, to let it go, to take it off this node when another hosts
it now, and to run a coroutine in the background. `crib3.cluster.node`'s
`Node` is that host.

A match's table (`crib3.room.match`) plays its games one after another on
the same stream, the subject its lease fences: as one game is won its next
one's header goes on the stream before that game's first event
(`TableLog.next_game`), so that a node adopting the table reads the match
back whole from there, between games as in the middle of one.
"""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import asdict
from typing import Any, Protocol

from crib3.cluster.acked import AckedGame
from crib3.cluster.chat import keep_line
from crib3.cluster.registry import OVER
from crib3.cluster.store import ClusterStore, TableLog
from crib3.engine import Event, Game, PlayerInfo, Rules, State, fold
from crib3.engine.log import make_header
from crib3.room.chat import ChatLine
from crib3.room.match import Played
from crib3.room.room import Room
from crib3.room.seats import Presence, Seat
from crib3.room.storage import OPEN
from crib3.room.table import Table


class Host(Protocol):
    """What a hosted table needs of its node."""

    @property
    def name(self) -> str:
        """The node's id in the cluster (the registry says who hosts a table)."""
        ...

    @property
    def store(self) -> ClusterStore:
        ...

    def publish(self, table: HostedTable) -> None:
        """The table's registry entry, to be written (in the background)."""

    def moved_elsewhere(self, table: HostedTable) -> None:
        """This node may not host the table any more: it closes here."""

    def let_go(self, table: HostedTable) -> None:
        """The node gives the table up, its lease released once all is written."""

    def background(self, work: Coroutine[Any, Any, None]) -> None:
        """`work` run in the background, waited for as the node stops."""


class HostedTable(Table):
    """A room's table hosted by this node (see the module's docstring)."""

    def __init__(self, room: Room, number: int, owner: str, rules: Rules,
                 seats: list[Seat], node: Host, log: TableLog) -> None:
        super().__init__(room, number, owner, rules, seats)
        self.node = node
        self.log = log
        self.status = OPEN
        self._published: tuple[Any, ...] | None = None  # what the registry says of it

    @property
    def table_id(self) -> str:
        return str(self.number)

    @property
    def state(self) -> State | None:
        """The game as the cluster holds it; None until its first events
        are stored (the lobby names no player before that)."""
        state = super().state
        return state if state is not None and state.players else None

    def _new_game(self, players: list[PlayerInfo], seed: int) -> Game:
        if self.log.events:  # a match's next game, after the last was won: on the same stream
            self.log.next_game(make_header(source="crib3 serve", table=self.number,
                                           game=len(self.match.games) + 1))
        game = AckedGame(self.log, self._lost)
        game.subscribe(self._record)
        game.begin(players, self.rules, seed)
        return game

    def _go_on(self, events: list[Event]) -> Game:
        game = AckedGame.hosting(self.log, self._lost, events)
        game.subscribe(self._record)
        game.go_on()  # (what its former host had not stored of an automatic run)
        return game

    def _record(self, event: Event, state: State) -> None:
        # The event is on the stream already (AckedGame); the end is said,
        # and a new score or hand told to every node's lobby. A match's game
        # is added to the match; the match won, its result is made
        # (`ClusterRoom.match_over`), as on one machine.
        if state.winner is not None:
            if self.match.is_match:
                self.match = self.match.add(Played(state.winner, tuple(state.scores)))
            self.save()
            self.room.game_over(self, state)  # (a rated game's result: `ClusterRoom.game_over`)
            if self.match.is_match and self.match.over:
                self.room.match_over(self)
        elif self._public() != self._published:
            self.node.publish(self)

    def _match_players(self) -> list[PlayerInfo]:
        """The players of a match's next game: its last game's, from the
        stream (a header whose game has no event yet is passed over)."""
        for game in reversed(self.log.record.all_games()):
            if game.events:
                return list(fold(game.events).players)
        raise ValueError(f"table {self.number}: no game on its stream to go on from")

    def _public(self) -> tuple[Any, ...]:
        """What the lobby shows of the table (see `crib3.cluster.lobby`)."""
        state = self.state
        return (tuple((s.name, s.level, s.replaced) for s in self.seats),
                tuple(sorted(self.online)), self.started_by, len(self.match.games),
                None if state is None else (tuple(state.scores), state.hand_number,
                                            state.winner))

    def _changed(self) -> None:
        super()._changed()
        if not self.closed and self._public() != self._published:
            self.node.publish(self)

    def save(self, status: str = OPEN) -> None:
        super().save(status)  # this node's own copy
        self.status = status
        self.node.publish(self)

    def entry(self) -> dict[str, Any]:
        """The table's entry in the registry: its seats (for a node that
        adopts it) and what the lobby shows of it (who is here, the game's
        public standing: never a card)."""
        self._published = self._public()
        state = self.state
        standing = None if state is None else {
            "players": [[p.name, p.kind] for p in state.players],
            "scores": list(state.scores), "hand": state.hand_number, "winner": state.winner}
        return {"number": self.number, "owner": self.owner, "rules": asdict(self.rules),
                "seats": [asdict(seat) for seat in self.seats],
                "status": OVER if self.over else self.status,
                "started_by": self.started_by, "node": self.node.name, "rated": self.rated,
                "online": sorted(self.online), "standing": standing,
                "best_of": self.match.best_of,
                "games": [[game.winner, list(game.scores)] for game in self.match.games]}

    def _lost(self) -> None:
        self.node.moved_elsewhere(self)

    def fence(self) -> None:
        """This node may not write the table's log any more (its lease or
        its registry entry went to another node): its game drops what it
        had not stored and the table moves; a table not started moves at
        once."""
        if isinstance(self.game, AckedGame):
            self.game.fence()
        else:
            self.node.moved_elsewhere(self)

    async def settled(self) -> None:
        """Until every event of its game queued so far is on the stream (or dropped)."""
        if isinstance(self.game, AckedGame):
            await self.game.settled()

    def say(self, presence: Presence, text: str) -> ChatLine:
        """Said and shown here at once, as on one machine; kept on the
        cluster too, for a node that adopts the table (`crib3.cluster.chat`)."""
        line = super().say(presence, text)
        self.node.background(keep_line(self.node.store.js, self.table_id, line))
        return line

    async def _drive(self) -> None:
        await super()._drive()
        if self.over and not self.moved:
            self.node.let_go(self)

    def close(self) -> None:
        if self.closed:
            return
        super().close()
        if not self.moved:
            self.node.let_go(self)


__all__ = ["Host", "HostedTable"]
