"""What `crib3 serve` was asked for, once its arguments are checked.

Apart from the doors so that each of them (the SSH door, the web door, a
visit from another node) and the serve loop read one set of options, and
so that a module may name them without importing asyncssh.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from crib3.net.gate import Limits

if TYPE_CHECKING:
    from textual.app import App

    from crib3.net.web_options import WebOptions
    from crib3.room import Presence
    from crib3.room.contract import RoomView, Wayfinding


class AppFactory(Protocol):
    """Makes one session's app: `CardRoomApp` fits. The app must have a
    `crash` attribute (why it stopped, if it failed) like crib3's apps."""

    __module__: str
    __qualname__: str

    def __call__(self, room: RoomView, presence: Presence, ascii: bool = ...,
                 think: float = ..., journey: Wayfinding | None = ...) -> App[Any]: ...


class CannotServe(Exception):
    """The server cannot begin (its port is taken, say): one line to say why."""


@dataclass
class ServeOptions:
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    authorized_keys: Path | None = None  # None with open_door: anyone may sit
    open_door: bool = False
    think: float = 0.6
    admins: Path | None = None  # keys (authorized_keys format) of those who may close and remove
    workers: int = 1  # processes the sessions' apps run in; 1: all in this one (crib3.net.workers)
    web: WebOptions | None = None  # the web door, if it is to open
    web_folder: Path | None = None  # where the web door keeps its invites (`crib3.room.invites`)
    limits: Limits = field(default_factory=Limits)  # the door's, before sign-in (crib3.net.gate)
    lobby_idle: float = 900.0  # seconds a session may sit idle in the lobby; 0: no limit
    metrics: tuple[str, int] | None = None  # where /metrics and /healthz listen, if at all


def default_workers() -> int:
    """`--workers` unless told: one session worker per core this process
    may run on (at least one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)
