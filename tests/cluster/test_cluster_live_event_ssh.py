"""A live duplicate event over real SSH on two nodes of a cluster (in one
process, one real nats-server): people on both nodes enter from their own
node's events screen, the one on the other node visits the board's table
where its node hosts it, and leaves after the first board (the computer
plays her seat on the other node from then on), the three boards are
played, and a node that hosts no table of the event shows the results.
The rooms rate: the event is made rated from the lobby, and its one result
is folded on both nodes."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import asyncssh
import pytest
from nats_support import nats_server, needs_nats
from ssh_support import Client, plain, until
from test_live_event_ssh import no_card_leaked, record_writes

from crib3.net.options import ServeOptions
from crib3.net.server import CardRoomServer
from crib3.players import workers
from crib3.room.event_ratings import event_id
from crib3.room.live_event import OVER, PLAYING
from crib3.room.results import Results
from crib3.tui.room_app import CardRoomApp

pytestmark = [needs_nats, pytest.mark.slow]

WHERE = {"ann": "a", "bob": "a", "cat": "b"}  # who connects through which node


@pytest.fixture(autouse=True)
def _workers():
    yield
    workers.shut_down()


@contextlib.asynccontextmanager
async def two_nodes(url: str, folder: Path, keys: Path):
    from crib3.cluster.room import ClusterRoom

    servers: list[CardRoomServer] = []
    try:
        for name in ("a", "b"):
            room = await ClusterRoom.start([url], name, folder / name, think=0.0,
                                           results=Results(folder / name / "ratings"))
            server = CardRoomServer(ServeOptions(port=0, authorized_keys=keys, think=0.0),
                                    room, CardRoomApp)
            await server.start(asyncssh.generate_private_key("ssh-ed25519"))
            servers.append(server)
        yield servers
    finally:
        for server in servers:
            await server.stop()
            await server.room.stop()


async def test_people_on_two_nodes_play_one_live_event_and_either_node_shows_it(tmp_path,
                                                                                 monkeypatch):
    """(Every write to everyone, on both nodes, searched for hidden cards
    as on one machine: test_live_event_ssh.)"""
    sent = record_writes(monkeypatch)
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in [*WHERE, "dan"]}
    authorized = tmp_path / "authorized_keys"
    authorized.write_text("".join(k.export_public_key().decode() for k in keys.values()))
    authorized.chmod(0o600)
    with nats_server(tmp_path) as nats:
        async with two_nodes(nats.url, tmp_path, authorized) as (a, b):
            port = {"a": a.port, "b": b.port}
            clients = {name: await Client.connect(port[where], name, key=keys[name])
                       for name, where in WHERE.items()}
            for client in clients.values():
                await client.shows("Open a table")
                client.press("e")
                await client.shows("Live duplicate events")
            clients["ann"].press("n")
            await clients["ann"].shows("Make a live event")  # (the rooms rate: rated or casual)
            clients["ann"].press("\r")  # rated
            await until(lambda: b.room.events.events, timeout=20, what="b hearing of it")
            name = next(iter(b.room.events.events))
            for count, (who, client) in enumerate(clients.items(), start=1):
                await client.shows(name)
                client.press("j")
                await until(lambda count=count: all(
                    len(r.events.events[name].entered) == count for r in (a.room, b.room)),
                    what=f"{who} entered, as both nodes hear it")
            clients["ann"].press("s")
            await until(lambda: b.room.events.events[name].status == PLAYING, timeout=20,
                        what="the start")
            live = b.room.events.events[name]
            assert live.seating == [["ann", "bob", "cat"]]
            # Someone watching its table is told its board, not "Hand 1".
            await until(lambda: [board for r in (a.room, b.room) for t in r.tables.values()
                                 if (board := r.events.board_of(t)) is not None] == [(1, 3)],
                        what="board 1's table, told as board 1 of 3")
            for _ in range(600):  # Enter for everyone until the event is over
                if b.room.events.events[name].status == OVER:
                    break
                if b.room.events.events[name].board >= 2 and "cat" in clients:
                    # cat played board 1 at a's table, visiting it from b (her
                    # own node holds her name), and is still there; she leaves.
                    visiting = "cat" in {s.presence.name for s in a.sessions}
                    clients.pop("cat").close()
                for client in clients.values():
                    client.press("\r")
                await asyncio.sleep(0.05)
            assert b.room.events.events[name].status == OVER, [
                plain(c.terminal.text())[-400:] for c in clients.values()]
            assert "cat" in b.room.events.events[name].left
            # b hosts no table of the event, and shows its results all the same.
            dan = await Client.connect(b.port, "dan", key=keys["dan"])
            await dan.shows("Open a table")
            dan.press("e")
            await dan.shows("Ranking", timeout=20)
            await until(lambda: "Board 3, seat 3" in "\n".join(b.room.events.listed()[0].sheet()),
                        timeout=20, what="the last board's results read at b")
            sheet = "\n".join(b.room.events.listed()[0].sheet())
            live, _, _, _ = await b.room.events.cluster.results(name)  # (logs from the streams)
            # Rated from a's lobby: its one result folded on both nodes.
            rooms = (a.room, b.room)
            await until(lambda: all(r.results.has(event_id(live)) for r in rooms), timeout=20,
                        what="the event's result folded on both nodes")
            assert [r.results.count() for r in rooms] == [1, 1]
            assert a.room.results.skills() == b.room.results.skills()
            await dan.shows("cat ")  # (its ranking, at the top of dan's screen)
            for client in [*clients.values(), dan]:
                client.close()
    assert all(f"Board {n}, seat {s}" in sheet for n in (1, 2, 3) for s in (1, 2, 3))
    assert all(who in sheet for who in WHERE), sheet
    assert visiting
    # (What they saw face up earlier in the board is taken out, as in
    # test_cluster_visits: the cut for the deal is dealt again, and stays in
    # the feed's lines while each event of a cluster's table comes once stored.)
    checked, own = no_card_leaked(sent, live, exact=False)
    assert checked > 10_000 and own > 0
    assert "computer for cat" in sheet  # her boards after she left, so marked
