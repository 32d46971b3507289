"""Ports for the tests' own servers, chosen below the kernel's ephemeral range.

A port found free by binding port 0 comes from the ephemeral range, the
range every outgoing connection (an SSH client, a NATS client, a browser)
also draws its own port from. Between a test's choice and its server's
bind, a connection made by another test in another xdist worker could
take it: "address already in use" (a local run of the suite at -n 4, the
hosting walkthrough's web door). The kernel hands out no port below the
range, so one chosen there is taken only by another test's choice, and
only if nothing is bound to it when it is chosen.
"""

from __future__ import annotations

import random
import socket

# (Never the `random` module's own generator: pytest-randomly seeds it alike
# in every xdist worker, which would have every worker choose the same ports.)
_choose = random.SystemRandom()
LOWEST = 10_000  # below: ports a machine's own services are likelier to use


def _ephemeral_floor() -> int:
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range", encoding="ascii") as ranges:
            return int(ranges.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32_768  # Linux's default


def _bound_now(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("0.0.0.0", port))  # every address: as a server binds it, or 127.0.0.1
        except OSError:
            return True
    return False


def free_ports(count: int) -> list[int]:
    """`count` different ports nothing is bound to just now."""
    floor = _ephemeral_floor()
    if floor - LOWEST < 1_000:  # (an odd range: the kernel's own choice, as before)
        return _kernel_ports(count)
    chosen: list[int] = []
    while len(chosen) < count:
        port = _choose.randrange(LOWEST, floor)
        if port not in chosen and not _bound_now(port):
            chosen.append(port)
    return chosen


def _kernel_ports(count: int) -> list[int]:
    sockets = []
    try:
        for _ in range(count):
            taken = socket.socket()
            taken.bind(("127.0.0.1", 0))
            sockets.append(taken)
        return [taken.getsockname()[1] for taken in sockets]
    finally:
        for taken in sockets:
            taken.close()


def free_port() -> int:
    """A port nothing is bound to just now (see the module's docstring)."""
    return free_ports(1)[0]
