"""A session whose app runs on the node that hosts its table: both ends
(`crib3 serve --cluster`; why, and the transport: `crib3.cluster.visits`).

- At the **door** (the node the person is connected to), `RelayedSession`
  stands where the session's `ChannelDriver` would: what the connection
  sends (keys, window changes, flow, the end) goes to the host as the
  wire's messages, and the screen that comes back is written to the
  connection as it is. `finished` says how the visit ended (`VisitEnded`),
  or None when the host stopped answering, or gave the visit up
  (`given_up`: it still runs, but stopped hearing from this node a while,
  as when this node was paused).
- At the **host**, `VisitChannel` is the `Terminal` of the visitor's
  session, a `PlaySession` like any other (`crib3.net.visit_session`):
  the same app, the same limits on keys and bytes (the host's driver
  counts them), the same kicks and farewells, which go back to the door
  in its `VisitEnded`. What the door sends is told to that session in the
  session's own words (`feed`, `resize`, `hang_up`...).

This module knows no NATS: a visit's `Link` is handed to it (`send`, and
its `receive` and `lost` set here).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from crib3.room import wire
from crib3.room.contract import VisitLink

if TYPE_CHECKING:
    from crib3.net.session import PlaySession, Terminal

HANG_UP_WAIT = 5.0  # seconds a door waits for a hung-up visit's end before it lets go


Link = VisitLink  # (declared with the room's contract, which a cluster's node implements)


class RelayedSession:
    """The door's side of a visit (see the module's docstring)."""

    def __init__(self, link: Link, chan: Terminal) -> None:
        self.link = link
        self.chan = chan
        self.finished: asyncio.Future[wire.VisitEnded | None] = \
            asyncio.get_running_loop().create_future()
        self._give_up: asyncio.TimerHandle | None = None
        # The host gave the visit up (its `End`): it runs still, and so
        # may take the person again at once.
        self.given_up = False
        link.attach(self._receive, self._lost)

    # --- what the connection asks of its driver ----------------------------------------

    def feed(self, data: bytes) -> None:
        self.link.send(wire.Input(0, data))

    def resize_soon(self, width: int, height: int) -> None:
        self.link.send(wire.Resize(0, width, height))

    def output_paused(self) -> None:
        self.link.send(wire.Flow(0, True))

    def output_resumed(self) -> None:
        self.link.send(wire.Flow(0, False))

    def end_app(self) -> None:
        self.link.send(wire.End(0, False))
        self._wait_at_most()

    def hang_up(self) -> None:
        self.link.send(wire.End(0, True))
        self._wait_at_most()

    def _wait_at_most(self) -> None:
        if self._give_up is None:
            self._give_up = asyncio.get_running_loop().call_later(HANG_UP_WAIT, self._lost)

    # --- what the host sends ------------------------------------------------------------

    def _receive(self, message: object) -> None:
        if isinstance(message, wire.Output):
            with contextlib.suppress(Exception):  # the client may be gone already
                self.chan.write(message.data)
        elif isinstance(message, wire.VisitEnded):
            self._finish(message)
        elif isinstance(message, wire.End):  # the host gave the visit up
            self.given_up = not self.finished.done()
            self._finish(None)

    def _lost(self) -> None:
        self._finish(None)

    def _finish(self, ended: wire.VisitEnded | None) -> None:
        if self._give_up is not None:
            self._give_up.cancel()
        self.link.close()
        if not self.finished.done():
            self.finished.set_result(ended)


class VisitChannel:
    """The host's side of a visit: the `Terminal` its `PlaySession` writes
    to, and what tells that session what the door sent (see the module's
    docstring)."""

    def __init__(self, link: Link, environment: dict[str, str]) -> None:
        self.link = link
        self.session: PlaySession | None = None  # the VisitSession it serves
        self._environment = environment

    def attach(self, session: PlaySession) -> None:
        """Serve `session`: what the door sends is given to it from now on."""
        self.session = session
        self.link.attach(self._receive, self._lost)

    def set_write_buffer_limits(self, high: int, low: int) -> None:
        """(The door's connection has the limits: it tells us by `Flow`.)"""

    def get_environment(self) -> dict[str, str]:
        return dict(self._environment)

    def get_write_buffer_size(self) -> int:
        return int(self.link.queued)

    def write(self, data: bytes) -> None:
        if self.link.closed:
            raise OSError("the visit is over")
        self.link.send(wire.Output(0, bytes(data)))

    def exit(self, status: int) -> None:
        self.link.close()

    def close(self) -> None:
        self.link.close()

    async def wait_closed(self) -> None:
        await self.link.drained()

    def _receive(self, message: object) -> None:
        session = self.session
        if session is None:
            return
        if isinstance(message, wire.Input):
            session.feed(message.data)
        elif isinstance(message, wire.Resize):
            session.resize(message.width, message.height)
        elif isinstance(message, wire.Flow):
            if message.paused:
                session.output_paused()
            else:
                session.output_resumed()
        elif isinstance(message, wire.End):
            if message.hang_up:
                session.hang_up()
            else:
                session.end()

    def _lost(self) -> None:
        if self.session is not None:
            self.session.hang_up()


__all__ = ["Link", "RelayedSession", "VisitChannel"]
