"""What a cluster costs (issue 31): `crib3 serve --cluster` at human pace,
against one plain `crib3 serve`, and how fast a dead node's tables are adopted.

Run on demand:
`python -m pytest tests/benchmarks/test_cluster_load.py --benchmark-only -s`
(`-m short`: the short version `.ci/run` runs, one table on three nodes).

**The curve** (`test_cluster_load_curve_at_human_pace`): the human-pace
load of test_ssh_load.py (its clients, screen model, pace and key -> screen
measure are imported from there, not copied), 1, 5 and 10 tables of three
people (`CRIB3_CLUSTER_CURVE=1,5`), `CRIB3_CLUSTER_SECONDS` (30) measured a
point, in three rooms (`CRIB3_CLUSTER_MODES`, any of them):

- plain: one `crib3 serve --workers 1` (a cluster's node runs its sessions
  in its own process, so the same shape of server, without the cluster);
- one: one `crib3 serve --cluster` node on one nats-server (R1 stream);
- three: three nodes, one on each server of a three-server NATS cluster,
  the stream and buckets made R3 beforehand by this test (the nodes would
  make them R1: nothing from the command line asks for replicas, see
  `_make_r3`). The people of table t connect to nodes t, t+1, t+2 (mod 3):
  the first, who opens it, on the node that hosts it, the other two on the
  others, so they visit it (their terminals relayed over NATS), and the
  tables are spread over the three nodes.

Every room takes keys (`--authorized-keys`: a node refuses `--open`), a key
a person (a key may hold 3 names), each person signing in with it from a
loopback address of their own (the door counts connections and sign-ins
by address; no limit is lifted). The idle room is weighed first (5 s, up
and empty: the cluster's own chatter), and what a table adds is the playing
less the idle, a table. Measured for each point: key -> screen p50/p95 (as
test_ssh_load: the first bytes back after an Enter), split in the three-node
room between the people on the hosting node and the visitors; the CPU of
the crib3 processes and of the nats-servers over the measured period, a
key and a stored event; and what went through NATS (each server's /varz
in_bytes and out_bytes, and /routez's share of them, the traffic between
servers), a second and a table.

**Adoption** (`test_tables_adopted_a_second_after_a_node_dies`):
`CRIB3_CLUSTER_ADOPT` (20) tables, each one person and two computer
players, started on node a of three (on the three-server cluster, R3;
`CRIB3_CLUSTER_ADOPT_NATS=one` for one server); then kill -9 of node a (its
process group: its computer players' workers too), once the people have
played `CRIB3_CLUSTER_ADOPT_PLAY` (20) seconds, so that every table has a
log to read back; and the time until b and c together logged "adopted
table" for every one of them, from the kill and from the first adoption.
Checked: nothing adopted from a while it lived (on a CPU-starved machine
its leases ran out: see assets/measurements/cluster.md), and nothing
adopted twice in the lease term and 5 s after. Their lease term is `CRIB3_CLUSTER_LEASE` (10 s,
the default of --cluster-lease); a lease is renewed every third of its term,
so it runs out between 2/3 and all of the term after the kill.

The pace is test_ssh_load's (`CRIB3_LOAD_PACE`, 0.6 s a key). The clients
share the machine (2 cores here) with every server they measure; the
difference between rooms is the number to read, and it is noisy: run twice
before believing a few milliseconds. So the issue's target (a visit adds no
more than 5 ms p50) is printed beside the numbers, not asserted.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import asyncssh
import pytest
from nats_support import NatsServer, free_ports, nats_cluster, nats_server, needs_nats
from ssh_support import person_address
from test_cluster_serve import machine_dies, start_node

from benchmarks.test_ssh_load import (
    ANSWER_TIMEOUT,
    CONNECT_AT_ONCE,
    ENTER,
    OPEN,
    PACE,
    PER_TABLE,
    STEP_TIMEOUT,
    Player,
    Terminal,
    _cpu_seconds,
    _logged,
    _play,
    _rss_mb,
    _seat_table,
    _stop_server,
    _tail,
)

pytestmark = [needs_nats, pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="reads the servers' CPU from /proc")]

CURVE = [int(n) for n in os.environ.get("CRIB3_CLUSTER_CURVE", "1,5,10").split(",")
         if n.strip()]
MODES = [m.strip() for m in os.environ.get("CRIB3_CLUSTER_MODES", "plain,one,three").split(",")
         if m.strip()]
PLAY_SECONDS = float(os.environ.get("CRIB3_CLUSTER_SECONDS", "30"))
ADOPT_TABLES = int(os.environ.get("CRIB3_CLUSTER_ADOPT", "20"))
ADOPT_NATS = os.environ.get("CRIB3_CLUSTER_ADOPT_NATS", "three")
LEASE = float(os.environ.get("CRIB3_CLUSTER_LEASE", "10"))
ADOPT_PLAY_SECONDS = float(os.environ.get("CRIB3_CLUSTER_ADOPT_PLAY", "20"))
IDLE_SECONDS = 5.0  # the room weighed empty before the people come
CTRL_HOME, DOWN = b"\x1b[1;5H", b"\x1b[B"
P50_ADDED_TARGET_S = 0.005  # the issue's: the cluster adds no more than 5 ms a move (p50)


# --- the rooms -------------------------------------------------------------------------


def _keys(folder: Path, names: list[str]) -> tuple[dict[str, asyncssh.SSHKey], Path]:
    """A key for each person (a key may hold 3 names, as people do), and the
    authorized-keys file that lets them in."""
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in names}
    path = folder / "authorized_keys"
    path.write_text("".join(key.export_public_key().decode() for key in keys.values()))
    path.chmod(0o600)
    return keys, path


def _start_plain(folder: Path, authorized: Path) -> tuple[subprocess.Popen, int]:
    """`crib3 serve --workers 1` on a free port, once it listens."""
    [port] = free_ports(1)
    log = folder / "plain.log"
    with log.open("wb") as err:
        server = subprocess.Popen(
            [sys.executable, "-m", "crib3", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--authorized-keys", str(authorized), "--think", "0", "--workers", "1"],
            env={**os.environ, "CRIB3_HOME": str(folder / "plain")}, stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL, stderr=err)
    deadline = time.monotonic() + 30
    while "listening on" not in log.read_text(errors="replace"):
        if server.poll() is not None or time.monotonic() > deadline:
            server.kill()
            raise AssertionError(f"the server did not start:\n{_tail(log)}")
        time.sleep(0.05)
    return server, port


def _stop_node(node: subprocess.Popen) -> None:
    _stop_server(node)
    machine_dies(node)  # (its computer players' workers, if anything of them is left)


async def _make_r3(urls: list[str]) -> None:
    """The tables' stream and the cluster's buckets with three replicas,
    made before any node starts (a node finds them there and uses them).

    `crib3 serve --cluster` cannot be told the number of replicas: `_serve_node`
    calls `ClusterRoom.start` without `replicas`, so `Node.start` and
    `ClusterStore.connect` make them with their default 1, and
    `ClusterRoom.start` starts `ClusterPeople` and `ClusterLobby` without it
    in any case. Made here with the product's own calls."""
    from crib3.cluster.presence import HOLDERS, NAMES, PEOPLE
    from crib3.cluster.registry import REGISTRY
    from crib3.cluster.store import ClusterStore, kv_bucket

    store = await ClusterStore.connect(urls, "benchmark", replicas=3, lease_seconds=LEASE)
    try:
        for name, ttl in ((REGISTRY, 0.0), (PEOPLE, 10.0), (HOLDERS, 0.0), (NAMES, 0.0)):
            await kv_bucket(store.js, name, 3, ttl)
        info = await store.js.stream_info("CRIB3_TABLES")
        assert info.config.num_replicas == 3, info.config
    finally:
        await store.close()


async def _stored(url: str) -> int:
    """Messages on the tables' stream (an event each, and a header and an
    owner message a table)."""
    from crib3.cluster.store import ClusterStore

    store = await ClusterStore.connect(url, "benchmark-reader", make=False)
    try:
        return int((await store.js.stream_info("CRIB3_TABLES")).state.messages)
    finally:
        await store.close()


def _monitor(server: NatsServer, page: str) -> dict:
    with urllib.request.urlopen(f"http://127.0.0.1:{server.monitor}/{page}", timeout=5) as got:
        return json.loads(got.read())


def _traffic(servers: list[NatsServer]) -> dict[str, float]:
    """Bytes in and out of every server (its clients and routes), and the
    routes' part (server to server), summed over the servers."""
    found = {"in": 0.0, "out": 0.0, "route_in": 0.0, "route_out": 0.0, "msgs": 0.0}
    for server in servers:
        varz = _monitor(server, "varz")
        found["in"] += varz["in_bytes"]
        found["out"] += varz["out_bytes"]
        found["msgs"] += varz["in_msgs"]
        for route in _monitor(server, "routez").get("routes") or []:
            found["route_in"] += route.get("in_bytes", 0)
            found["route_out"] += route.get("out_bytes", 0)
    return found


# --- the load --------------------------------------------------------------------------


async def _connect(port: int, name: str, keys: dict[str, asyncssh.SSHKey],
                   source: str) -> Player:
    """test_ssh_load's client, signing in with its key (a node takes no --open),
    from the address `source` (a person's own: the door counts by address)."""
    conn = await asyncssh.connect("127.0.0.1", port, username=name, known_hosts=None,
                                  client_keys=[keys[name]], agent_path=None, config=None,
                                  local_addr=(source, 0), preferred_auth="publickey")
    chan, term = await conn.create_session(Terminal, term_type="xterm-256color",
                                           term_size=(80, 24), encoding=None)
    return Player(name, conn, chan, term)


async def _seat_everyone(ports: list[int], tables: int, key: dict[str, asyncssh.SSHKey],
                         everyone: list[Player]) -> None:
    """test_ssh_load's seating, the people of table t on the servers t, t+1,
    t+2 (of `ports`, in turn): its opener on the first, where it is hosted.
    Each person connects from an address of their own."""
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def connect(table: int, seat: int) -> Player:
        name = f"t{table}p{seat}"
        async with gate:
            player = await _connect(ports[(table + seat) % len(ports)], name, key,
                                    person_address((table - 1) * PER_TABLE + seat))
            everyone.append(player)
            await player.expect(f"You are {name}.")
            return player

    players = await asyncio.gather(*(connect(t, p) for t in range(1, tables + 1)
                                     for p in range(PER_TABLE)))
    for table in range(1, tables + 1):
        await _seat_table(table, list(players[(table - 1) * PER_TABLE:table * PER_TABLE]),
                          join=_join)


def _row_of(player: Player, table: int) -> int | None:
    """The row (from 0) of the lobby's list that shows table `table` (its
    opener's name first), or None while it does not list it."""
    lines = player.term.screen.text().splitlines()
    head = next((i for i, line in enumerate(lines) if line.split()[:2] == ["Table", "Seats"]),
                None)
    if head is None:
        return None
    for row, line in enumerate(lines[head + 1:]):
        if not line.strip():
            return None
        if f" t{table}p0," in line:
            return row
    return None


async def _join(player: Player, table: int) -> None:
    """Sit at `table`, found in the lobby by its opener's name: Ctrl+Home to
    the first row, Down to its row, then Enter once the screen has moved.
    (Not test_ssh_load's Ctrl+End to the newest: a cluster's table numbers
    are not in the order the tables were opened, each node having one put
    by, `ClusterRoom._make_spare`, so the newest is not always the last.)"""
    waiting = f"Waiting for t{table}p0"
    for _ in range(6):
        deadline = time.monotonic() + STEP_TIMEOUT
        while (row := _row_of(player, table)) is None:
            assert time.monotonic() < deadline, f"{player.name}: table {table} never listed"
            player.term.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(player.term.changed.wait(), 1)
        for keys in (CTRL_HOME, DOWN * row):
            if keys:
                player.term.changed.clear()
                player.press(keys)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(player.term.changed.wait(), 1)
        await asyncio.sleep(0.2)
        player.press(ENTER)  # (a priority binding: sent with the moves, it would overtake them)
        try:
            await player.expect(waiting, timeout=5)
            return
        except AssertionError:
            continue
    await player.expect(waiting, timeout=1)


def _at(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


def _one_point(mode: str, tables: int, folder: Path,
               seconds: float = PLAY_SECONDS) -> dict[str, float]:
    """A fresh room of kind `mode` with `tables` busy tables, measured
    `seconds`. Asserted: every client's keys answered, no traceback in any
    node's log."""
    folder.mkdir()
    key, authorized = _keys(folder, [f"t{t}p{p}" for t in range(1, tables + 1)
                                     for p in range(PER_TABLE)])
    found: dict[str, float] = {"tables": tables}
    with contextlib.ExitStack() as stack:
        servers: list[NatsServer] = []
        if mode == "one":
            servers = [stack.enter_context(nats_server(folder))]
        elif mode == "three":
            servers = stack.enter_context(nats_cluster(folder))
            asyncio.run(_make_r3([s.url for s in servers]))
        if mode == "plain":
            process, port = _start_plain(folder, authorized)
            stack.callback(_stop_server, process)
            processes, ports, logs = [process], [port], [folder / "plain.log"]
        else:
            ports = free_ports(len(servers))
            processes = []
            for i, (server, port) in enumerate(zip(servers, ports)):
                node = start_node(folder, "abc"[i], port, server.url, authorized, lease=LEASE)
                stack.callback(_stop_node, node)
                processes.append(node)
            logs = [folder / f"{'abc'[i]}.log" for i in range(len(servers))]
        players: list[Player] = []
        found.update(_load(mode, tables, ports, key, processes, servers, folder, players,
                           seconds))
        for log in logs:
            text = log.read_text(errors="replace")
            assert "Traceback" not in text, f"{log.name}:\n{text[-3000:]}"
    visitors = [p for p in players if mode == "three" and not p.name.endswith("p0")]
    local = [p for p in players if p not in visitors]
    unanswered = sum(p.unanswered for p in players)
    every = sorted([x for p in players for x in p.term.latencies] + [ANSWER_TIMEOUT] * unanswered)
    for label, group in (("", players), ("local_", local), ("visit_", visitors)):
        values = sorted(x for p in group for x in p.term.latencies)
        found[f"{label}keys"] = len(values)
        found[f"{label}p50"], found[f"{label}p95"] = _at(values, 0.5), _at(values, 0.95)
    found.update(keys=len(every), unanswered=unanswered, p50=_at(every, 0.5),
                 p95=_at(every, 0.95), max=_at(every, 1.0))
    silent = [p.name for p in players if not p.term.latencies]
    assert len(players) == tables * PER_TABLE and not silent, f"no screen back for {silent}"
    return found


def _load(mode: str, tables: int, ports: list[int], key: dict[str, asyncssh.SSHKey],
          processes: list[subprocess.Popen], servers: list[NatsServer], folder: Path,
          players: list[Player], seconds: float) -> dict[str, float]:
    rng = random.Random(3)
    found: dict[str, float] = {}

    def cpus() -> tuple[float, float]:
        """CPU seconds so far of the crib3 processes, and of the nats-servers."""
        return (sum(_cpu_seconds(p.pid) for p in processes),
                sum(_cpu_seconds(s.process.pid) for s in servers if s.process))

    async def events() -> int:
        if mode == "plain":
            return _logged(folder / "plain" / "data" / "tables")
        return await _stored(servers[0].url)

    async def load() -> None:
        try:
            await asyncio.sleep(1)
            # idle: the room up, nobody in it (the cluster's own chatter: heartbeats,
            # leases, the replicas' raft), to be told from what the tables add
            traffic, cpu = _traffic(servers), cpus()
            await asyncio.sleep(IDLE_SECONDS)
            idle = _traffic(servers)
            for name in idle:
                found[f"idle_nats_{name}"] = (idle[name] - traffic[name]) / IDLE_SECONDS
            found["idle_crib3_cpu"], found["idle_nats_cpu"] = (
                (now - then) / IDLE_SECONDS for now, then in zip(cpus(), cpu))
            started = time.monotonic()
            await _seat_everyone(ports, tables, key, players)
            found["seating_s"] = time.monotonic() - started
            before_events = await events()
            traffic, cpu = _traffic(servers), cpus()
            mine, play_started = time.process_time(), time.monotonic()
            until = play_started + seconds
            await asyncio.gather(*(_play(p, until, random.Random(rng.random()))
                                   for p in players))
            played = found["played_s"] = time.monotonic() - play_started
            found["crib3_cpu"], found["nats_cpu"] = (
                (now - then) / played for now, then in zip(cpus(), cpu))
            found["client_cpu"] = (time.process_time() - mine) / played
            after = _traffic(servers)
            for name in after:
                found[f"nats_{name}"] = (after[name] - traffic[name]) / played
            found["events"] = await events() - before_events
            found["rss_mb"] = sum(_rss_mb(p.pid) for p in processes)
        finally:
            for player in players:
                player.conn.close()  # type: ignore[attr-defined]
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(
                    *(p.conn.wait_closed() for p in players),  # type: ignore[attr-defined]
                    return_exceptions=True), 15)
            await asyncio.sleep(1)  # what the servers log of the hang-ups, before it is read

    try:
        asyncio.run(load())
    except BaseException:
        for log in sorted(folder.glob("*.log")):
            print(f"\n{log.name}, the end:\n{_tail(log)}")
        raise
    return found


def _print_points(points: dict[str, list[dict[str, float]]], seconds: float) -> None:
    """What the points measured, as tables (see the module's docstring)."""
    cores = os.cpu_count() or 1
    print(f"\ncluster load at {PACE:.2f} s a key, {seconds:.0f} s measured a point, "
          f"{cores} cores; load average at the end {os.getloadavg()[0]:.2f}")
    print("room   tables  keys  p50 ms  p95 ms  max ms | here p50/p95 | visit p50/p95 |"
          " crib3 CPU  nats CPU  clients | CPU ms a key  a event | events/s  seating s")
    for mode, found in points.items():
        for p in found:
            cpu = (p["crib3_cpu"] + p["nats_cpu"]) * p["played_s"] * 1000
            here = (f"{p['local_p50'] * 1000:5.1f}/{p['local_p95'] * 1000:5.1f}"
                    if mode == "three" else " " * 11)
            visit = (f"{p['visit_p50'] * 1000:5.1f}/{p['visit_p95'] * 1000:5.1f}"
                     if mode == "three" else " " * 11)
            print(f"{mode:6s} {int(p['tables']):6d} {int(p['keys']):5d} "
                  f"{p['p50'] * 1000:7.1f} {p['p95'] * 1000:7.1f} {p['max'] * 1000:7.0f} | "
                  f"{here}  | {visit}  | {p['crib3_cpu']:9.0%} {p['nats_cpu']:9.0%} "
                  f"{p['client_cpu']:8.0%} | {cpu / max(1, p['keys']):12.1f} "
                  f"{cpu / max(1, p['events']):8.1f} | {p['events'] / p['played_s']:8.1f} "
                  f"{p['seating_s']:10.0f}")
    print(f"idle (the room up, empty, {IDLE_SECONDS:.0f} s) and what a table adds "
          "(playing less idle, a table): CPU a share of one core; NATS bytes a second,"
          " all servers' in+out summed (routes: between servers)")
    print("(NATS B/s counts a message at every hop: into a server, out to a route, into "
          "the next, out to its subscriber; 'from clients' counts it once, as the nodes "
          "published it)")
    print("room   tables | idle: crib3 CPU  nats CPU  NATS B/s  routes B/s | a table: "
          "crib3 CPU  nats CPU  NATS B/s  routes B/s  from clients B/s  messages/s")
    for mode, found in points.items():
        for p in found:
            n = p["tables"]
            idle = p["idle_nats_in"] + p["idle_nats_out"]
            idle_routes = p["idle_nats_route_in"] + p["idle_nats_route_out"]
            busy = p["nats_in"] + p["nats_out"]
            routes = p["nats_route_in"] + p["nats_route_out"]
            published = (p["nats_in"] - p["nats_route_in"]
                         - (p["idle_nats_in"] - p["idle_nats_route_in"]))
            print(f"{mode:6s} {int(n):6d} | {p['idle_crib3_cpu']:15.1%} "
                  f"{p['idle_nats_cpu']:9.1%} {idle:9.0f} {idle_routes:11.0f} | "
                  f"{(p['crib3_cpu'] - p['idle_crib3_cpu']) / n:18.2%} "
                  f"{(p['nats_cpu'] - p['idle_nats_cpu']) / n:9.2%} "
                  f"{(busy - idle) / n:9.0f} {(routes - idle_routes) / n:11.0f} "
                  f"{published / n:17.0f} "
                  f"{(p['nats_msgs'] - p['idle_nats_msgs']) / n:11.1f}")
    if "plain" in points:
        print("added to plain's p50 / p95 ms:")
        for mode, found in points.items():
            if mode == "plain":
                continue
            for base, p in zip(points["plain"], found):
                print(f"  {mode:6s} {int(p['tables']):3d} tables: "
                      f"{(p['p50'] - base['p50']) * 1000:+6.1f} / "
                      f"{(p['p95'] - base['p95']) * 1000:+6.1f}")
    # The same run's people on the hosting node against its visitors: what
    # the relay over NATS adds, on the same nodes at the same moment.
    for p in points.get("three", []):
        print(f"  a visit, {int(p['tables']):3d} tables: "
              f"{(p['visit_p50'] - p['local_p50']) * 1000:+6.1f} / "
              f"{(p['visit_p95'] - p['local_p95']) * 1000:+6.1f} on the host's own people"
              f" (target: p50 <= {P50_ADDED_TARGET_S * 1000:.0f} ms)")


def test_cluster_load_curve_at_human_pace(benchmark, tmp_path):
    cores = os.cpu_count() or 1
    points: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}

    def curve() -> None:
        for tables in CURVE:
            for mode in MODES:
                points[mode].append(_one_point(mode, tables, tmp_path / f"{mode}-{tables}"))

    try:
        benchmark.pedantic(curve, rounds=1, iterations=1)
    finally:
        _print_points(points, PLAY_SECONDS)
    benchmark.extra_info.update(pace_s=PACE, play_s=PLAY_SECONDS, cores=cores, points={
        mode: [{k: round(v, 5) for k, v in p.items()} for p in found]
        for mode, found in points.items()})
    missing = [f"{mode} {int(p['tables'])}: {int(p['unanswered'])} keys unanswered"
               for mode, found in points.items() for p in found if p["unanswered"]]
    assert not missing, missing


SHORT_SECONDS = 8.0


@pytest.mark.short
def test_short_cluster_at_one_table(benchmark, tmp_path):
    """The short version `.ci/run` runs: one table on three nodes and three
    NATS servers (its opener on the hosting node, the two others visiting
    it), `SHORT_SECONDS` measured; asserted only that it ran and measured
    (every key answered, the game logged, no traceback), never a time."""
    point = benchmark.pedantic(lambda: _one_point("three", 1, tmp_path / "three-1",
                                                  seconds=SHORT_SECONDS),
                               rounds=1, iterations=1)
    _print_points({"three": [point]}, SHORT_SECONDS)
    assert point["keys"] > 0 and point["unanswered"] == 0, point
    assert point["visit_keys"] > 0 and point["local_keys"] > 0, point
    assert point["events"] > 0 and point["crib3_cpu"] > 0, point


# --- adoption ----------------------------------------------------------------------------


async def _open_started_table(port: int, name: str, key: dict[str, asyncssh.SSHKey],
                              source: str) -> Player:
    """`name` opens a table with two computer players and starts it. A node
    has one table put by at a time (`ClusterRoom._make_spare`): opened by
    several at once, all but one are told to press o again in a moment
    (`NOT_READY`), and do."""
    player = await _connect(port, name, key, source)
    await player.expect(f"You are {name}.")
    for _ in range(30):
        player.press(OPEN)
        await player.expect("Seats nobody takes")
        player.press(ENTER)
        with contextlib.suppress(AssertionError):
            await player.expect("Enter: start the game", timeout=2)
            break
        await player.expect("Open a table")  # (back in the lobby)
        await asyncio.sleep(random.uniform(0.1, 0.5))
    player.press(ENTER)
    await player.expect("pts")
    return player


def _adopted(logs: list[Path]) -> dict[str, int]:
    """The tables the surviving nodes say they adopted, and the events of each
    ("node b adopted table 7 (41 events)")."""
    found = {}
    for log in logs:
        for line in log.read_text(errors="replace").splitlines():
            if " adopted table " in line:
                table, events = line.split(" adopted table ")[1].split()[:2]
                found[table] = int(events.strip("("))
    return found


def test_tables_adopted_a_second_after_a_node_dies(benchmark, tmp_path):
    key, authorized = _keys(tmp_path, [f"owner{n}" for n in range(1, ADOPT_TABLES + 1)])
    found: dict[str, float] = {}

    def run() -> None:
        with contextlib.ExitStack() as stack:
            if ADOPT_NATS == "one":
                servers = [stack.enter_context(nats_server(tmp_path))] * 3
            else:
                servers = stack.enter_context(nats_cluster(tmp_path))
                asyncio.run(_make_r3([s.url for s in servers]))
            ports = free_ports(3)
            nodes = []
            for name, server, port in zip("abc", servers, ports):
                nodes.append(start_node(tmp_path, name, port, server.url, authorized,
                                        lease=LEASE))
                stack.callback(_stop_node, nodes[-1])
            asyncio.run(_adopt(ports[0], key, nodes[0],
                               [tmp_path / "b.log", tmp_path / "c.log"], found))

    try:
        benchmark.pedantic(run, rounds=1, iterations=1)
    finally:
        if "last_s" in found:
            print(f"\nadoption: {ADOPT_TABLES} tables on node a, kill -9, nats "
                  f"{ADOPT_NATS}, lease {LEASE:.0f} s: first adopted {found['first_s']:.2f} s "
                  f"after the kill, all {found['last_s']:.2f} s after "
                  f"({found['last_s'] - LEASE:+.2f} s from the lease term); "
                  f"first to last {found['last_s'] - found['first_s']:.2f} s "
                  f"({(ADOPT_TABLES - 1) / max(0.001, found['last_s'] - found['first_s']):.1f}"
                  f" tables/s); by b {int(found['by_b'])}, by c {int(found['by_c'])}; "
                  f"{found['events_each']:.0f} events a table on average; "
                  f"{int(found['adoptions'])} adoptions logged {LEASE + 5:.0f} s after the last; "
                  f"opening the tables took {found['opening_s']:.0f} s")
    benchmark.extra_info.update(lease_s=LEASE, nats=ADOPT_NATS, tables=ADOPT_TABLES,
                                **{k: round(v, 3) for k, v in found.items()})
    for name in "bc":
        log = (tmp_path / f"{name}.log").read_text(errors="replace")
        assert "Traceback" not in log, log[-3000:]
    assert found["adoptions"] == ADOPT_TABLES, "a table adopted twice (see the lines above)"


async def _adopt(port: int, key: dict[str, asyncssh.SSHKey], node: subprocess.Popen,
                 logs: list[Path], found: dict[str, float]) -> None:
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)
    players: list[Player] = []

    async def one(n: int) -> None:
        async with gate:
            players.append(await _open_started_table(port, f"owner{n}", key,
                                                     person_address(n - 1)))

    started = time.monotonic()
    try:
        await asyncio.gather(*(one(n) for n in range(1, ADOPT_TABLES + 1)))
        found["opening_s"] = time.monotonic() - started
        # the games go on a while, so that there is a log to read back at adoption
        rng = random.Random(5)
        until = time.monotonic() + ADOPT_PLAY_SECONDS
        await asyncio.gather(*(_play(p, until, random.Random(rng.random())) for p in players))
        taken = _adopted(logs)  # (under CPU starvation a live node's leases ran out)
        assert not taken, f"tables adopted from node a while it lived: {sorted(taken)}"
        killed = time.monotonic()
        machine_dies(node)
        seen: dict[str, float] = {}
        deadline = killed + LEASE + 120
        while len(seen) < ADOPT_TABLES:
            assert time.monotonic() < deadline, f"adopted only {sorted(seen)}"
            now = time.monotonic() - killed
            for table in _adopted(logs):
                seen.setdefault(table, now)
            await asyncio.sleep(0.02)
        found["first_s"], found["last_s"] = min(seen.values()), max(seen.values())
        found["by_b"], found["by_c"] = (float(len(_adopted([log]))) for log in logs)
        found["events_each"] = sum(_adopted(logs).values()) / ADOPT_TABLES
        # Once adopted, a table stays where it is: b and c live on, nobody leaves.
        await asyncio.sleep(LEASE + 5)
        lines = [line for log in logs for line in log.read_text(errors="replace").splitlines()
                 if " adopted table " in line or "hosted elsewhere" in line
                 or "failed" in line]
        found["adoptions"] = float(sum(" adopted table " in line for line in lines))
        print("\n".join(lines))
    finally:
        for player in players:
            player.conn.close()  # type: ignore[attr-defined]
        with contextlib.suppress(ProcessLookupError):
            os.kill(node.pid, signal.SIGKILL)
