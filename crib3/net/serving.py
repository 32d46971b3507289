"""`crib3 serve` from its checked arguments to Ctrl-C: the server and its
doors (SSH always, the web door with `--web`), opened in order, and closed
in order with every table saved.

Apart from the doors so that each door is one module with one job, and
this one says only in what order they open and close.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Callable
from typing import TYPE_CHECKING

import asyncssh

from crib3.common.loop_watch import LoopWatch
from crib3.net.gate import raise_open_files
from crib3.net.options import AppFactory, CannotServe, ServeOptions
from crib3.net.server import CardRoomServer
from crib3.room import Room

if TYPE_CHECKING:
    from crib3.net.metrics import MetricsDoor
    from crib3.net.web import WebDoor

log = logging.getLogger("crib3.serve")

async def serve(options: ServeOptions, room: Room, host_key: asyncssh.SSHKey,
                make_app: AppFactory, say: Callable[[str], None]) -> None:
    """`crib3 serve` from its checked arguments to Ctrl-C: pick up the
    room's games, listen, tell the person at the server's console what is
    going on (`say`, one line at a time), and on SIGINT or SIGTERM stop with
    every table saved. CannotServe when it cannot listen. Meanwhile a loop
    that stops turning is said in the log (`crib3.common.loop_watch`)."""
    with LoopWatch(log).watching():
        raise_open_files()  # the most this process may have: a flood meets the highest limit
        for problem in room.restore():
            say(f"warning: a table could not be resumed: {problem}")
        card_room = CardRoomServer(options, room, make_app)
        stop = asyncio.Event()  # set by Ctrl-C (or a service manager's SIGTERM)
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, stop.set)
        try:
            # (It returns once every session worker has warmed up: "listening"
            # below says the server is ready, what the load benchmark weighs idle.)
            await card_room.start(host_key)
        except OSError as exc:
            room.close()
            raise CannotServe(f"cannot listen on {options.host}:{options.port}: "
                              f"{exc.strerror or exc}") from None
        door = None
        if options.web is not None:
            door = await _open_web_door(card_room, options)
        metrics = None
        if options.metrics is not None:
            metrics = await _open_metrics(card_room, room, options, door)
        if options.open_door:
            say(f"warning: --open: anyone who can reach {options.host}:{card_room.port} can "
                "come in, without a listed key (a name is held by the first key or reconnect "
                "code it signs in with)")
        resumed = len(room.tables)
        say(f"crib3 serve: listening on {options.host}:{card_room.port}"
            + (f", {resumed} table{'s' * (resumed != 1)} resumed" if resumed else "")
            + f"; players connect with: ssh -p {card_room.port} NAME@HOST")
        if card_room.pool is not None:  # (after the line above: scripts wait for it)
            log.info("%s; each warmed up", card_room.pool.describe())
        if door is not None:
            say(f"crib3 serve: the web door is open at {door.url} (crib3 invite NAME makes a link)")
        if metrics is not None:
            say(f"crib3 serve: metrics at http://{metrics.host}:{metrics.port}/metrics "
                "(and /healthz)")
        say(f"crib3 serve: the host key is {host_key.get_fingerprint()}: what ssh shows a "
            "friend on their first visit")
        await stop.wait()
        say("crib3 serve: stopping; every table is saved")
        if metrics is not None:
            await metrics.stop()
        if door is not None:
            door.stop_listening()
        await card_room.stop()
        if door is not None:
            await door.stop()


async def _open_metrics(card_room: CardRoomServer, room: Room, options: ServeOptions,
                        door: WebDoor | None) -> MetricsDoor:
    """`/metrics` and `/healthz` (`crib3.net.metrics`), listening, or
    CannotServe."""
    from crib3.net.metrics import MetricsDoor, RoomReadings

    assert options.metrics is not None
    host, port = options.metrics
    pool = card_room.pool
    cluster = room.cluster
    readings = RoomReadings(
        tables=lambda: len(room.tables),
        worker_pids=lambda: [w.pid for w in pool.workers] if pool is not None else [])
    if cluster is not None:
        readings.leases, readings.adoptions = cluster.leases_held, cluster.adoptions
        readings.results_refused = cluster.results_refused
    metrics = MetricsDoor(host, port, readings)
    try:
        await metrics.start()
    except OSError as exc:
        if door is not None:
            await door.stop()
        await card_room.stop()
        raise CannotServe(f"cannot serve the metrics on {host}:{port}: "
                          f"{exc.strerror or exc}") from None
    return metrics


async def _open_web_door(card_room: CardRoomServer, options: ServeOptions) -> WebDoor:
    """The web door (`crib3.net.web`), open, or CannotServe."""
    from crib3.net.web import WebDoor
    from crib3.net.web_options import WebRefused
    from crib3.room.invites import InviteBook

    assert options.web_folder is not None and options.web is not None
    door = WebDoor(card_room, options.web, InviteBook(options.web_folder))
    try:
        await door.start()
    except (OSError, WebRefused) as exc:
        await card_room.stop()
        raise CannotServe(f"cannot open the web door on {options.web.host}:{options.web.port}: "
                          f"{getattr(exc, 'strerror', None) or exc}") from None
    return door
