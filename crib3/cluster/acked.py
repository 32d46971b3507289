"""A table's game on a cluster: acknowledged before shown.

A room's table writes its log through its game (`Table._new_game`,
`Table._go_on`): on one machine the table's file is the game's first
subscriber, fsynced before any screen hears of the event. On a cluster the
game is an `AckedGame`: a command is checked and carried out at once (a
refusal comes back at once, as on one machine) against the host's working
state, its events are queued, and a task appends them to the table's
stream one by one, telling the game's subscribers (the screens' feeds, the
bots' wake-up) of each only once the cluster acknowledged it. Moves that
arrive meanwhile are checked against the state their predecessors make and
queued behind them, in order; nothing waits on the event loop.

When the node may no longer write the table's log (`fence`: an append or a
renewal of its lease refused), what it had not got on the stream is
dropped (no screen showed it) and its host is told (`lost`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import deque
from collections.abc import Callable, Iterable, Sequence

from crib3.cluster.store import Fenced, TableLog
from crib3.common import crash
from crib3.engine import Event, Game, IllegalMove, PlayerInfo, Rules, State
from crib3.engine.commands import Command
from crib3.engine.rules import begin, legal_moves, run_automatic, step, to_act
from crib3.engine.state import apply
from crib3.engine.views import SeatView, project

MOVED = "this table is hosted by another server now: reconnect"
log = logging.getLogger("crib3.cluster")


class AckedGame(Game):
    """A game whose subscribers hear of an event only once it is on the
    table's stream (see the module's docstring). `events` and `state` are
    what the cluster acknowledged (what screens may show); a seat's moves
    and the computer players' view (`to_act`, `legal_moves`, `view`) are
    the host's working state, queued events included."""

    def __init__(self, log: TableLog, lost: Callable[[], None],
                 rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self.log = log
        self._lost = lost
        self.ahead: State = self.state  # the state once every queued event is acknowledged
        self._outbox: deque[tuple[Event, State]] = deque()
        self._pump: asyncio.Task[None] | None = None
        self._settled = asyncio.Event()
        self._settled.set()
        self.fenced = False

    @classmethod
    def hosting(cls, log: TableLog, lost: Callable[[], None],
                events: Iterable[Event] = ()) -> AckedGame:
        """The game `events` (read from the stream) make, going on from there."""
        game = cls(log, lost)
        state = game.state
        for event in events:
            state = apply(state, event)
            game.events.append(event)
        game.state = game.ahead = state
        return game

    def go_on(self) -> None:
        """A game picked up from its stream (`hosting`) goes on where its
        host stopped: the automatic events and chance draws it had not got
        on the stream (the host died between two of them, or an append of
        theirs failed) are drawn again and queued. Without them no seat is
        to act and the table stands still for good."""
        events: list[Event] = []
        state = run_automatic(self.ahead, events)
        if events:
            self._emit(events, state)
        self._resolve_chance()

    def begin(self, players: Sequence[PlayerInfo], rules: Rules, seed: int) -> None:
        """A new game's first events, on their way to the stream."""
        self.rng = random.Random(seed)
        self._emit([begin(tuple(players), rules, seed)])
        self._resolve_chance()

    # --- moves: checked against the working state, queued -----------------------------

    def dispatch(self, command: Command) -> list[Event]:
        if self.fenced:
            raise IllegalMove(MOVED)
        start = len(self._outbox)
        events, state = step(self.ahead, command)
        self._emit(events, state)
        self._resolve_chance()
        return [event for event, _ in list(self._outbox)[start:]]

    def _emit(self, events: list[Event], final: State | None = None) -> None:
        state = self.ahead
        for event in events:
            state = apply(state, event)
            self._outbox.append((event, state))
        self.ahead = final if final is not None else state
        if self._pump is None or self._pump.done():
            self._settled.clear()
            self._pump = asyncio.get_running_loop().create_task(self._send())

    def _chance_state(self) -> State:
        return self.ahead  # (the events that lead there wait for the stream)

    def to_act(self) -> tuple[int, ...]:
        return () if self.fenced else to_act(self.ahead)

    def legal_moves(self, seat: int) -> list[Command]:
        return legal_moves(self.ahead, seat)

    def view(self, seat: int | None) -> SeatView:
        return project(self.ahead, seat)

    # --- the stream, then the screens -------------------------------------------------

    async def _send(self) -> None:
        try:
            while self._outbox and not self.fenced:
                event, state = self._outbox[0]
                await self.log.append(event)  # acknowledged by the cluster (or Fenced)
                if self.fenced:  # let go meanwhile (a renewal refused): shown by the next host
                    break
                self._outbox.popleft()
                self.events.append(event)
                self.state = state
                for callback in list(self._subscribers):
                    try:
                        callback(event, state)
                    except Exception as exc:
                        crash.report(log, exc, "a subscriber of a cluster's table")
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # Fenced, or a cluster that answers no more
            if isinstance(exc, Fenced):
                log.info("table %s: an append was refused (%s); this node lets it go",
                         self.log.lease.table, exc)
            else:
                log.warning("table %s: an append failed (%s); this node lets it go",
                            self.log.lease.table, exc)
            self.fence()
        finally:
            self._settled.set()

    def fence(self) -> None:
        """This node may not write the table's log any more: what it had not
        got on the stream is dropped (no screen showed it)."""
        if self.fenced:
            return
        self.fenced = True
        self._outbox.clear()
        self.ahead = self.state
        self._lost()

    async def settled(self) -> None:
        """Until every event queued so far is on the stream (or dropped)."""
        await self._settled.wait()


__all__ = ["MOVED", "AckedGame"]
