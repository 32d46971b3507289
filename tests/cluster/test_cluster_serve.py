"""`crib3 serve --cluster`: a node of a card room on NATS JetStream, as real
processes (issue 31). Its refusals come in one line before anything
listens; two nodes on one NATS server list each other's tables; and when
the node hosting a table is killed (kill -9), the other adopts it, the
player reconnects through it to their seat, the game where it stood, and
the table's stream, exported, is a valid log with no event missing or
doubled. The libraries underneath: test_cluster*.py."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import asyncssh
import pytest
from commands import assert_clean_failure, crib3
from nats_support import free_ports, nats_server, needs_nats
from ssh_support import Client, plain

from crib3.engine.log import load_log


def refused(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    home = tmp_path / "home"
    keys = tmp_path / "authorized_keys"
    keys.write_text(asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode())
    keys.chmod(0o600)
    return crib3("serve", "--port", "0", "--authorized-keys", str(keys), *args, home=home)


@pytest.mark.parametrize("url", ["nats://nats.example.org:4222",
                                 "nats://127.0.0.1:4222,nats://10.0.0.7:4222"])
def test_a_cluster_beyond_loopback_without_credentials_or_tls_is_refused(tmp_path, url):
    done = refused(tmp_path, "--cluster", url)
    assert_clean_failure(done, 2)
    assert "beyond loopback needs credentials (--cluster-creds FILE" in done.stderr
    assert "listening" not in done.stderr


def test_a_password_in_the_url_is_never_repeated(tmp_path):
    done = refused(tmp_path, "--cluster", "nats://ann:s3cret@127.0.0.1:1,bogus://x")
    assert_clean_failure(done, 2)
    assert "s3cret" not in done.stderr + done.stdout


def test_a_cluster_that_cannot_be_reached_is_one_line(tmp_path):
    [port] = free_ports(1)
    done = refused(tmp_path, "--cluster", f"nats://127.0.0.1:{port}")
    assert_clean_failure(done, 1)
    assert f"cannot reach the cluster at nats://127.0.0.1:{port}" in done.stderr
    assert "listening" not in done.stderr


def test_without_nats_py_the_cluster_says_what_to_install(tmp_path):
    fake = tmp_path / "fake"
    (fake / "nats").mkdir(parents=True)
    (fake / "nats" / "__init__.py").write_text("raise ImportError('no nats here')\n")
    keys = tmp_path / "authorized_keys"
    keys.write_text(asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode())
    keys.chmod(0o600)
    done = subprocess.run(
        [sys.executable, "-c", "from crib3.cli import main; raise SystemExit(main())",
         "serve", "--port", "0", "--authorized-keys", str(keys),
         "--cluster", "nats://127.0.0.1:4222"],
        env={**os.environ, "CRIB3_HOME": str(tmp_path / "home"),
             "PYTHONPATH": f"{fake}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"},
        capture_output=True, text=True, timeout=60)
    assert_clean_failure(done, 1)
    assert "pip install 'crib3[cluster]'" in done.stderr


def test_the_cluster_options_need_cluster(tmp_path):
    assert_clean_failure(refused(tmp_path, "--node", "a"), 2)
    assert_clean_failure(refused(tmp_path, "--cluster", "nats://127.0.0.1:1", "--node",
                                 "a.b"), 2)


# --- two nodes, and one of them killed --------------------------------------------------


def start_node(tmp_path: Path, name: str, port: int, url: str, authorized: Path,
               lease: float = 2.0, *more: str) -> subprocess.Popen:
    """`crib3 serve --cluster URL --node NAME` (and `more` options) in its
    own process, once it listens."""
    log = tmp_path / f"{name}.log"
    with open(log, "w") as errors:
        node = subprocess.Popen(
            [sys.executable, "-c", "from crib3.cli import main; raise SystemExit(main())",
             "serve", "--port", str(port), "--authorized-keys", str(authorized),
             "--cluster", url, "--node", name, "--cluster-lease", str(lease),
             "--think", "0.05", *more],
            env={**os.environ, "CRIB3_HOME": str(tmp_path / name)}, stderr=errors,
            start_new_session=True)  # (its computer players' processes: one group to kill)
    deadline = time.monotonic() + 30
    while "listening on" not in log.read_text():
        assert node.poll() is None and time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    return node


def authorized_keys(folder: Path, *keys) -> Path:
    path = folder / "authorized_keys"
    path.write_text("".join(key.export_public_key().decode() for key in keys))
    path.chmod(0o600)
    return path


async def open_start_and_play(owner: Client, moves: int) -> None:
    """`owner` opens a table with two computer players, starts it and
    presses Enter `moves` times at a person's pace."""
    await owner.shows("Open a table")
    owner.press("o")
    await owner.shows("Second seat")
    owner.press("\r")
    await owner.shows("start the game")
    owner.press("\r")
    for _ in range(moves):
        await asyncio.sleep(0.3)
        owner.press("\r")
    await asyncio.sleep(1.0)


def machine_dies(node: subprocess.Popen) -> None:
    """kill -9 of the node and of its computer players' worker processes,
    as when its machine dies."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(node.pid, signal.SIGKILL)
    node.wait(10)


async def log_says(path: Path, words: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while words not in path.read_text():
        assert time.monotonic() < deadline, f"{words!r} never logged: {path.read_text()[-1500:]}"
        await asyncio.sleep(0.1)


def export(tmp_path: Path, url: str, out: Path) -> list:
    done = crib3("tables", "export", "1", "--cluster", url, "-o", str(out),
                 home=tmp_path / "exporter")
    assert done.returncode == 0, done.stderr
    return load_log(out).events


@needs_nats
@pytest.mark.slow
async def test_a_node_killed_mid_game_its_table_adopted_and_the_player_back_in_their_seat(
        tmp_path):
    key, other = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    authorized = authorized_keys(tmp_path, key, other)
    port_a, port_b, metrics = free_ports(3)
    with nats_server(tmp_path) as server:
        a = start_node(tmp_path, "alpha", port_a, server.url, authorized)
        b = start_node(tmp_path, "bravo", port_b, server.url, authorized, 2.0,
                       "--metrics", str(metrics))
        try:
            # ann opens a table on alpha, two computer players at it, and starts.
            ann = await Client.connect(port_a, "ann", key=key)
            await open_start_and_play(ann, 12)
            # bravo's lobby lists the table, where it is hosted; bob, on bravo,
            # is told its seats are taken, and watches it (his screen drawn
            # by alpha, which hosts it: test_cluster_visits.py).
            bob = await Client.connect(port_b, "bob", key=key)
            await bob.shows("on alpha")
            bob.press("\r")
            await bob.shows("table 1 is playing: its seats are")
            bob.press("w")
            await bob.shows("(you are watching)")
            # ann's name is held cluster-wide: not by another key, on bravo.
            impostor = await Client.connect(port_b, "ann", key=other)
            await impostor.shows("ann is here already, with another key")
            impostor.close()
            before = export(tmp_path, server.url, tmp_path / "before.jsonl")
            assert len(before) > 10
            killed = time.monotonic()
            machine_dies(a)  # kill -9: no goodbye, no lease given back
            await log_says(tmp_path / "bravo.log", "node bravo adopted table 1")
            print(f"adopted {time.monotonic() - killed:.1f} s after the kill (2 s lease)")
            # bravo's metrics say so: a lease held, an adoption made.
            async with aiohttp.ClientSession() as http, \
                    http.get(f"http://127.0.0.1:{metrics}/metrics") as answer:
                scraped = await answer.text()
            assert re.search(r"^crib3_cluster_adoptions_total 1\.0$", scraped, re.M), scraped
            assert re.search(r"^crib3_cluster_leases_held [1-9]", scraped, re.M), scraped
            # bob, who watched it from bravo, is back in bravo's lobby, told why.
            await bob.shows("The server of table 1 stopped")
            await bob.shows("Open a table")
            # ann comes back through bravo and lands in her seat.
            ann.close()
            again = await Client.connect(port_b, "ann", key=key)
            await again.shows("Hand")
            shown = plain(bytes(again.terminal.received))
            assert "Open a table" not in shown  # straight to her seat, not the lobby
            for _ in range(6):
                await asyncio.sleep(0.3)
                again.press("\r")
            await asyncio.sleep(1.0)
            after = export(tmp_path, server.url, tmp_path / "after.jsonl")
            again.close()
            bob.close()
        finally:
            for node in (a, b):
                if node.poll() is None:
                    node.terminate()
                    node.wait(15)
                machine_dies(node)  # (anything of it left)
    assert after[:len(before)] == before  # nothing lost, nothing doubled
    assert len(after) > len(before)  # and the game went on at bravo
    verified = crib3("verify", str(tmp_path / "after.jsonl"), home=tmp_path / "exporter")
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "valid" in verified.stdout
    for name in ("alpha", "bravo"):
        log = (tmp_path / f"{name}.log").read_text()
        assert "Traceback" not in log, log


# --- two nodes' rooms in one process ------------------------------------------------------


async def until(check, seconds: float = 15.0, what: str = "it") -> None:
    give_up = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < give_up, f"{what} did not happen"
        await asyncio.sleep(0.05)


@needs_nats
async def test_a_table_left_before_it_starts_leaves_every_nodes_lobby(tmp_path):
    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules
    from crib3.players import workers
    from crib3.room.basics import RoomError
    from crib3.tui.screens.lobby_words import seats_line

    with nats_server(tmp_path) as server:
        a = await ClusterRoom.start([server.url], "a", tmp_path / "a", lease_seconds=2)
        b = await ClusterRoom.start([server.url], "b", tmp_path / "b", lease_seconds=2)
        try:
            ann = await a.enter("ann", "key-ann", lambda reason: None, None)
            table = a.open_table(ann, Rules(), ("easy", "standard"))
            await until(lambda: [t.number for t in b.elsewhere()] == [table.number],
                        what="the table in b's lobby")
            assert a.elsewhere() == []  # (its own, listed as its own)
            assert b.host_of(table.number) == "a" and a.host_of(table.number) == "a"
            with pytest.raises(RoomError, match="here already, with another key"):
                await b.enter("ann", "key-other", lambda reason: None, None)
            second = await a.enter("bob", "key-bob", lambda reason: None, None)
            mine = a.open_table(second, Rules(), ("easy", "easy"))
            assert mine.number != table.number
            mine.start("bob")  # its first events on their way to the stream: no player named
            assert seats_line(mine) == "bob, · free ·, · free ·"
            await until(lambda: mine.state is not None, what="the game stored")
            assert "(easy)" in seats_line(mine)
            a.depart(ann)  # her session ends before the start: her table closes
            await until(lambda: table.number not in [t.number for t in b.elsewhere()],
                        what="the closed table gone from b's lobby")
        finally:
            for room in (a, b):
                room.close()
                await room.stop()
            workers.shut_down()


def test_credentials_without_tls_beyond_loopback_are_warned_of_and_never_shown(tmp_path):
    done = refused(tmp_path, "--cluster", "nats://ann:s3cret@nats.invalid:4222")
    assert done.returncode == 1 and "Traceback" not in done.stderr  # (no such host)
    assert "warning: --cluster: the NATS credentials cross the network in clear" in done.stderr
    assert "cannot reach the cluster at nats://nats.invalid:4222" in done.stderr
    assert "s3cret" not in done.stderr + done.stdout


def test_another_nodes_table_just_begun_is_listed_without_its_players_yet():
    from crib3.cluster.lobby import LobbyTable
    from crib3.tui.screens.lobby_words import seats_line, standing

    entry = {"number": 1, "owner": "ann", "rules": {}, "status": "open", "node": "east",
             "started_by": "ann", "online": [0],
             "seats": [{"name": "ann"}, {"level": "easy"}, {"level": "standard"}],
             "standing": {"players": [], "scores": [], "hand": 0, "winner": None}}
    table = LobbyTable.from_entry(entry)  # (its first events not yet on the stream)
    assert seats_line(table) == "ann, · free ·, · free ·"
    assert standing(table) == "waiting"


@needs_nats
def test_a_wrong_credential_is_one_line_and_never_shown(tmp_path):
    """A NATS server that lets in only its users: a node with a wrong
    password is refused in one line (exit 1), and the password it gave is
    not repeated; the right one joins (its first line says so)."""
    with nats_server(tmp_path, users={"crib": "right-horse"}) as server:
        wrong = f"nats://crib:wrong-battery@127.0.0.1:{server.port}"
        done = refused(tmp_path, "--cluster", wrong)
        assert_clean_failure(done, 1)
        assert f"cannot join the cluster at nats://127.0.0.1:{server.port}: its NATS server " \
            "refused this node's credentials" in done.stderr
        assert "wrong-battery" not in done.stderr + done.stdout
        authorized = authorized_keys(tmp_path, asyncssh.generate_private_key("ssh-ed25519"))
        [port] = free_ports(1)
        node = start_node(tmp_path, "alpha", port,
                          f"nats://crib:right-horse@127.0.0.1:{server.port}", authorized)
        try:
            assert "node alpha of the cluster at nats://127.0.0.1:" in \
                (tmp_path / "alpha.log").read_text()
        finally:
            node.terminate()
            node.wait(15)


@needs_nats
@pytest.mark.slow
async def test_a_node_stopped_past_its_lease_cannot_append_and_its_player_goes_on_elsewhere(
        tmp_path):
    """SIGSTOP of the node hosting ann's table, past its lease: the other
    node adopts the table. ann's keys typed meanwhile wait in the stopped
    node; at SIGCONT it handles them, but cannot append (the new owner's
    message fences it), lets the table go, and takes ann, still connected
    to it, to her seat at the node that hosts it now. No move is accepted
    twice: the stream is a valid log, and what was stored before stays."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    authorized = authorized_keys(tmp_path, key)
    port_a, port_b = free_ports(2)
    with nats_server(tmp_path) as server:
        a = start_node(tmp_path, "alpha", port_a, server.url, authorized)
        b = start_node(tmp_path, "bravo", port_b, server.url, authorized)
        try:
            ann = await Client.connect(port_a, "ann", key=key)
            await open_start_and_play(ann, 8)
            before = export(tmp_path, server.url, tmp_path / "before.jsonl")
            os.kill(a.pid, signal.SIGSTOP)
            try:
                await log_says(tmp_path / "bravo.log", "node bravo adopted table 1")
                for _ in range(4):  # keys typed into the stopped node
                    ann.press("\r")
                    await asyncio.sleep(0.2)
            finally:
                os.kill(a.pid, signal.SIGCONT)
            await log_says(tmp_path / "alpha.log", "table 1 is hosted elsewhere now")
            # ann, on alpha still, is taken to her seat at bravo (a visit)
            await log_says(tmp_path / "alpha.log", "ann visits node bravo for table 1")
            ann.terminal.received.clear()
            await ann.shows("Hand", timeout=20)
            for _ in range(6):
                await asyncio.sleep(0.3)
                ann.press("\r")
            await asyncio.sleep(1.0)
            after = export(tmp_path, server.url, tmp_path / "after.jsonl")
            ann.close()
        finally:
            for node in (a, b):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(node.pid, signal.SIGCONT)
                if node.poll() is None:
                    node.terminate()
                    node.wait(15)
                machine_dies(node)
    assert after[:len(before)] == before
    assert len(after) > len(before)  # the game went on at bravo, ann playing
    verified = crib3("verify", str(tmp_path / "after.jsonl"), home=tmp_path / "exporter")
    assert verified.returncode == 0 and "valid" in verified.stdout, verified.stdout
    for name in ("alpha", "bravo"):
        assert "Traceback" not in (tmp_path / f"{name}.log").read_text()
