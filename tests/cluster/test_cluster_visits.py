"""A person sits at any table from any node (issue 31, point 2): a cluster's
nodes in one process (each its own NATS connection, SSH server and room),
real SSH clients, and one real nats-server. A table's sessions run on the
node that hosts it; a person connected to another node visits it there
(`crib3.cluster.visits`, `crib3.net.visiting`). The same as real processes,
with a node killed: test_cluster_serve.py."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import asyncssh
import pytest
from nats_support import nats_server, needs_nats
from ssh_support import Client, Recorder, joined, plain, press_on, until
from test_ssh import hidden_from, seen_by

from crib3.engine import State
from crib3.engine.state import apply
from crib3.net.options import ServeOptions
from crib3.net.server import CardRoomServer
from crib3.players import workers
from crib3.tui.room_app import CardRoomApp

pytestmark = needs_nats


@pytest.fixture(autouse=True)
def _workers():
    yield
    workers.shut_down()


@pytest.fixture(scope="module")
def key():
    return asyncssh.generate_private_key("ssh-ed25519")


def authorized(folder: Path, key) -> Path:
    """The authorized_keys file of `key` (a list: each of them)."""
    path = folder / "authorized_keys"
    path.write_text("".join(k.export_public_key().decode()
                            for k in (key if isinstance(key, list) else [key])))
    path.chmod(0o600)
    return path


@contextlib.asynccontextmanager
async def nodes(url: str, folder: Path, key, names=("a", "b", "c"), lease: float = 2.0,
                adopting=("a", "b", "c"), open_door: bool = False):
    """Card rooms on free ports, one a node, all of one cluster (those in
    `adopting` adopt the tables whose node is gone)."""
    from crib3.cluster.room import ClusterRoom

    keys = None if open_door else authorized(folder, key)
    servers: list[CardRoomServer] = []
    try:
        for name in names:
            room = await ClusterRoom.start(url.split(","), name, folder / name, lease_seconds=lease,
                                           think=0.0, adopt=name in adopting)
            server = CardRoomServer(ServeOptions(port=0, authorized_keys=keys, open_door=open_door,
                                           think=0.0), room, CardRoomApp)
            await server.start(asyncssh.generate_private_key("ssh-ed25519"))
            servers.append(server)
        yield servers
    finally:
        for server in servers:
            await server.stop()
            await server.room.stop()


async def open_short_table(owner: Client) -> None:
    await owner.shows("Open a table")
    owner.press("o")
    await owner.shows("Second seat")
    owner.press("\x1b[B" * 4)  # down to "Game"
    await asyncio.sleep(0.1)
    owner.press("\x1b[C")  # 121 -> 61
    await owner.shows("the short game")
    owner.press("\r")


async def bob_visits_anns_table(a, b, key):
    """ann, on node a, opens a short table there; bob, on node b, sits at it
    (a visit); ann starts the game: (ann, bob, the table at a)."""
    ann = await Client.connect(a.port, "ann", key=key)
    await open_short_table(ann)
    await until(lambda: a.room.tables, what="the table")
    table = next(iter(a.room.tables.values()))
    bob = await Client.connect(b.port, "bob", key=key)
    await bob.shows(f"{table.number} on a")
    bob.press("\r")
    await until(lambda: table.seats[1].name == "bob" and table.present(1), what="bob seated")
    await ann.shows("start the game")
    ann.press("\r")
    await until(lambda: table.started, what="the start")
    return ann, bob, table


@pytest.mark.slow
async def test_three_people_on_three_nodes_play_a_whole_game_and_no_byte_leaks(
        tmp_path, key, monkeypatch):
    """ann (on node a) opens a table; bob (on b) and cat (on c) sit at it
    from their own nodes' lobbies, and the three play a whole game. Every
    byte each of them is sent is searched for the cards hidden from them
    then, as in test_ssh's no-leak check: their screens are drawn on a, and
    only their own screen crosses to their node."""
    recorder = Recorder(monkeypatch)
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key) as (a, b, c):
            ann = await Client.connect(a.port, "ann", key=key)
            await open_short_table(ann)
            await until(lambda: a.room.tables, what="the table")
            table = next(iter(a.room.tables.values()))
            bob = await Client.connect(b.port, "bob", key=key)
            cat = await Client.connect(c.port, "cat", key=key)
            for client, name in ((bob, "bob"), (cat, "cat")):
                await client.shows(f"{table.number} on a")
                client.press("\r")  # (one after the other: two nodes' keys may cross)
                await until(lambda name=name: name in [s.name for s in table.seats],
                            what=f"{name} seated")
            assert [s.name for s in table.seats] == ["ann", "bob", "cat"]
            await ann.shows("start the game")
            ann.press("\r")
            await until(lambda: table.started, what="the start")
            recorder.follow(table)
            clients = [ann, bob, cat]
            await press_on(clients, table, limit=180)
            events = list(table.game.events)
            # bob and cat visit a, in a's lobby now: their own nodes hold their names
            assert {s.presence.name for s in a.sessions} == {"ann", "bob", "cat"}
            assert {s.presence.name for s in b.sessions} == {"bob"}
            for client in clients:
                client.close()
    states = [State()]
    for event in events:
        states.append(apply(states[-1], event))
    seats = {p.name: i for i, p in enumerate(states[-1].players)}
    checked = {name: 0 for name in seats}
    for name, shown, data in joined(recorder.sent):
        seat = seats.get(name)
        if seat is None:
            continue
        text = plain(data)
        # Hidden from them then, less what they saw face up since the hand
        # before (the cut for the deal, the last show: dealt again, and still
        # in the feed's lines)
        hand = states[shown].hand_number
        start = next(i for i, state in enumerate(states) if state.hand_number >= hand - 1)
        hidden = hidden_from(states[shown], seat)
        for state in states[start:shown + 1]:
            hidden -= seen_by(state, seat)
        # (and what a toast still up may name: see Recorder)
        hidden -= recorder.visible_since(states, name, shown, lambda s, seat=seat: seen_by(s, seat))
        leaked = [card.label() for card in hidden if card.label() in text]
        assert not leaked, (name, shown, leaked)
        checked[name] += len(data)
    assert all(count > 30_000 for count in checked.values()), checked
    # and the check can fail: bob's hand, as dealt, is hidden from ann
    dealt = next(e for e in events if e.type == "CardsDealt")
    assert set(dealt.hands[1]) <= hidden_from(states[events.index(dealt) + 1], 0)
    # what reached bob's SSH client is what his screen on a drew
    assert "Enter: go on" in plain(bytes(bob.terminal.received))


async def test_a_node_of_another_version_is_refused_at_its_hello_in_one_line(tmp_path, key,
                                                                            caplog):
    """A node that speaks another version of the wire does not take a visit
    from this one: the person is told in one line, in their own node's
    lobby, and the node asked logs why."""
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, names=("a", "b")) as (a, b):
            b.room.visits.version = 4  # (b runs an older crib3)
            ann = await Client.connect(a.port, "ann", key=key)
            await open_short_table(ann)
            bob = await Client.connect(b.port, "bob", key=key)
            await bob.shows("on a")
            bob.press("\r")
            await bob.shows("runs another version of crib3 (wire")
            assert {s.presence.name for s in b.sessions} == {"bob"}  # still in b's lobby
            assert "visiting" not in [type(s).__name__ for s in a.sessions]
            assert all(s.visiting is None for s in b.sessions)
            for client in (ann, bob):
                client.close()
    assert "a visit from a node of wire version 4 refused" in caplog.text


async def test_a_visitor_whose_tables_node_dies_is_taken_back_to_their_seat(tmp_path, key):
    """bob, connected to node b, plays at a table hosted by node a. Node a
    dies (its cluster connection gone, its lease not given back): bob is
    back in b's lobby, told why; once the table is adopted (by c: b adopts
    none here) he is taken to his seat there without a key pressed, the
    game where it stood."""
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, adopting=("c",)) as (a, b, c):
            ann, bob, table = await bob_visits_anns_table(a, b, key)
            await until(lambda: table.started and any(
                e.type == "CardsDealt" for e in table.game.events), what="dealt")
            ann.press("\r")
            bob.press("\r")  # (a throw each, on its way)
            await asyncio.sleep(0.5)
            stood = len(table.game.events)
            await a.room.node.close()  # node a dies: no goodbye, nothing released
            await a.room.visits.stop()
            # (b's lobby tells him why, and goes on to c as soon as its list
            # shows the table there: with a 2 s lease, often before b has
            # given a up, so the line is checked in test_cluster_serve.py)
            await until(lambda: any(s.visiting is not None and s.visiting.link.peer == "c"
                                    for s in b.sessions), 20, what="bob visiting c")
            await until(lambda: table.number in c.room.tables, 15, what="the table adopted")
            adopted = c.room.tables[table.number]
            assert len(adopted.game.events) >= stood  # the game where it stood
            await until(lambda: adopted.present(1), 15, what="bob back in his seat")
            bob.terminal.received.clear()
            await bob.shows("Throw", timeout=15)  # (his throw: the game where it stood)
            ann.close()
            bob.close()


@pytest.mark.slow
async def test_one_nats_server_of_three_killed_during_play_loses_nothing(tmp_path, key):
    """Three NATS servers, R3 streams (a node makes them so on a cluster of
    three): one server killed (kill -9) in the middle of a hand, and play
    goes on; the table's stream holds every event once, as the game does."""
    from nats_support import nats_cluster

    with nats_cluster(tmp_path) as servers:
        urls = ",".join(server.url for server in servers)
        # (the default 10 s lease: a lease shorter than the cluster takes to
        # elect new leaders, 2-3 s here, runs out while it does)
        async with nodes(urls, tmp_path, key, names=("a",), lease=10.0) as (a,):
            assert a.room.node.store.replicas == 3
            ann = await Client.connect(a.port, "ann", key=key)
            await open_short_table(ann)
            await until(lambda: a.room.tables, what="the table")
            table = next(iter(a.room.tables.values()))
            await ann.shows("start the game")
            ann.press("\r")
            await until(lambda: table.started and len(table.game.events) > 8, what="dealt")
            servers[0].kill()
            before = len(table.game.events)
            loop = asyncio.get_running_loop()
            give_up = loop.time() + 30
            while len(table.game.events) < before + 15 and not table.over:
                assert loop.time() < give_up, ("play stopped with a NATS server gone",
                                               table.moved, before, len(table.game.events),
                                               plain(bytes(ann.terminal.received[-3000:])))
                ann.press("\r")
                await asyncio.sleep(0.1)
            await table.game.settled()
            stored = list(table.game.events)  # (a computer player may move on meanwhile)
            record = await a.room.node.store.read(str(table.number))
            assert record.events[:len(stored)] == stored  # none missing, none doubled
            assert record.events == list(table.game.events)[:len(record.events)]
            assert not table.moved
            ann.close()


@pytest.mark.slow
async def test_a_browser_on_one_node_sits_at_a_table_another_node_hosts(tmp_path, key,
                                                                         monkeypatch):
    """Node b opens a web door: ann, in a browser with an invite link of
    b's, sits at a table hosted by node a and plays, her screen drawn by a
    and carried over b's websocket."""
    from web_support import WebClient

    from crib3.net.web import WebDoor
    from crib3.net.web_options import WebOptions
    from crib3.room.invites import InviteBook

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path / "home"))
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, names=("a", "b")) as (a, b):
            door = WebDoor(b, WebOptions(port=0), InviteBook(tmp_path / "web"))
            await door.start()
            try:
                bob = await Client.connect(a.port, "bob", key=key)
                await open_short_table(bob)
                await until(lambda: a.room.tables, what="the table")
                table = next(iter(a.room.tables.values()))
                ann = await WebClient.connect(door, token=door.book.invite("the host",
                                                                           name="ann"))
                await ann.shows(f"{table.number} on a")
                ann.press("\r")
                await until(lambda: table.seats[1].name == "ann", what="ann seated")
                assert table.seats[1].key.startswith("web:")
                await bob.shows("start the game")
                bob.press("\r")
                await until(lambda: table.started, what="the start")
                await ann.shows("Enter: go on")
                ann.press("\r")  # (past the cut for the deal)
                await ann.shows("Throw one card")
                ann.press("1")
                await until(lambda: table.game.state.discards[1] is not None,
                            what="ann's throw, from her browser on b")
                bob.close()
                ann.close()
            finally:
                door.stop_listening()
                await door.stop()


async def test_tables_per_key_count_the_tables_a_key_owns_on_every_node(tmp_path):
    """`--tables-per-key 1`: a key that owns a table on node a may not open
    another on node b, under another name; another key may."""
    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules
    from crib3.room.basics import RoomError

    with nats_server(tmp_path) as nats:
        a = await ClusterRoom.start([nats.url], "a", tmp_path / "a", tables_per_key=1)
        b = await ClusterRoom.start([nats.url], "b", tmp_path / "b", tables_per_key=1)
        try:
            ann = await a.enter("ann", "key-ann", lambda reason: None, None)
            table = a.open_table(ann, Rules(), ("easy", "easy"))
            await until(lambda: [t.number for t in b.elsewhere()] == [table.number], 15,
                        what="the table in b's lobby")
            again = await b.enter("annie", "key-ann", lambda reason: None, None)
            with pytest.raises(RoomError, match="you own 1 open table already"):
                b.open_table(again, Rules(), ("easy", "easy"))
            other = await b.enter("bob", "key-bob", lambda reason: None, None)
            await until(lambda: b._spare is not None, 15, what="b's spare table")
            assert b.open_table(other, Rules(), ("easy", "easy")).number != table.number
        finally:
            for room in (a, b):
                room.close()
                await room.stop()


async def test_the_lobby_lists_the_people_signed_in_on_every_node(tmp_path, key):
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, names=("a", "b")) as (a, b):
            ann = await Client.connect(a.port, "ann", key=key)
            bob = await Client.connect(b.port, "bob", key=key)
            await bob.shows("Also here: ann.")
            await ann.shows("Also here: bob.")
            bob.close()
            await until(lambda: "bob" not in a.room.names_here(), 15, what="bob gone")
            ann.close()


async def test_under_open_a_name_is_held_by_its_reconnect_code_on_every_node(tmp_path, key):
    """`--open` on a cluster: ann, keyless on node a, is given a reconnect
    code; with it she comes back through node b as ann; without it nobody
    is ann on any node, and her table on a is hers from b."""
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, names=("a", "b"), open_door=True) as (a, b):
            ann = await Client.connect(a.port, "ann")
            await ann.shows("Your reconnect code:")
            await open_short_table(ann)
            await until(lambda: a.room.tables, what="the table")
            await ann.shows("start the game")
            ann.press("\r")
            await ann.shows("Enter: go on")
            await until(lambda: b.room.held_by("ann") is not None, 15, what="b knows ann's hold")
            ann.close()
            with pytest.raises(asyncssh.PermissionDenied):
                await Client.connect(b.port, "ann", code="not-her-code")
            again = await Client.connect(b.port, "ann")  # (the code she was shown)
            await again.shows("Throw one card")  # straight back to her seat at a's table: a visit
            assert [s.visiting.link.peer for s in b.sessions] == ["a"]
            again.close()


async def test_an_admin_removes_a_session_on_another_node_from_the_room(tmp_path):
    from crib3.cluster.room import ClusterRoom
    from crib3.room.basics import RoomError

    with nats_server(tmp_path) as nats:
        a = await ClusterRoom.start([nats.url], "a", tmp_path / "a")
        b = await ClusterRoom.start([nats.url], "b", tmp_path / "b")
        try:
            kicked: list[str] = []
            await b.enter("bob", "key-bob", kicked.append, None)
            ada = await a.enter("ada", "key-ada", lambda reason: None, None, admin=True)
            await until(lambda: "bob" in a.names_here(), 15, what="bob in a's list")
            with pytest.raises(RoomError, match="not here"):
                a.remove("nobody", ada)
            a.remove("bob", ada)
            await until(lambda: kicked, 15, what="bob's session ended")
            assert "admin" in kicked[0]
        finally:
            for room in (a, b):
                room.close()
                await room.stop()


async def test_a_tables_chat_goes_on_at_the_node_that_adopts_it(tmp_path):
    """A table's chat is said on its host node, and kept on the cluster:
    the node that adopts the table after its host died shows its lines."""
    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules

    with nats_server(tmp_path) as nats:
        a = await ClusterRoom.start([nats.url], "a", tmp_path / "a", lease_seconds=2)
        b = await ClusterRoom.start([nats.url], "b", tmp_path / "b", lease_seconds=2)
        try:
            ann = await a.enter("ann", "key-ann", lambda reason: None, None)
            table = a.open_table(ann, Rules(), ("easy", "easy"))
            table.start("ann")
            await until(lambda: table.state is not None, 15, what="the game stored")
            table.say(ann, "good luck, bots")
            await asyncio.sleep(1.1)  # (one line a second)
            table.say(ann, "[b]no markup[/b]")
            await asyncio.sleep(0.5)
            await a.node.close()  # a dies
            await a.visits.stop()
            await until(lambda: table.number in b.tables, 20, what="b adopts the table")
            said = [("ann", "good luck, bots"), ("ann", "[b]no markup[/b]")]
            await until(lambda: [(line.name, line.text) for line in
                                 b.tables[table.number].chat.lines] == said, 10,
                        what="the chat read back by b")  # (just after the adoption)
        finally:
            b.close()
            await b.stop()


async def test_a_shelved_table_comes_back_on_another_node_when_its_person_signs_in(tmp_path):
    """A table nobody was at is put away (shelved): out of every lobby, no
    node hosting it. Its person signs in through another node, which
    brings it back, the game where it stood, and takes her to her seat."""
    from crib3.cluster.room import ClusterRoom
    from crib3.engine import Rules
    from crib3.net.journey import Journey

    with nats_server(tmp_path) as nats:
        a = await ClusterRoom.start([nats.url], "a", tmp_path / "a", lease_seconds=2)
        b = await ClusterRoom.start([nats.url], "b", tmp_path / "b", lease_seconds=2)
        try:
            ann = await a.enter("ann", "key-ann", lambda reason: None, None)
            table = a.open_table(ann, Rules(), ("easy", "easy"))
            table.start("ann")
            await until(lambda: table.state is not None, 15, what="the game stored")
            await table.game.settled()
            stood = list(table.game.events)
            a.depart(ann)
            a.shelve_table(table)
            await until(lambda: table.number in b.cluster_lobby.shelved, 15,
                        what="shelved, as b's lobby knows")
            assert table.number not in [t.number for t in b.elsewhere()]
            assert table.number not in a.tables
            journey = Journey()  # her session's way: where her lobby takes her
            again = await b.enter("ann", "key-ann", lambda reason: None, None, journey=journey)
            await until(lambda: table.number in b.tables, 15, what="brought back by b")
            back = b.tables[table.number]
            assert list(back.game.events)[:len(stood)] == stood
            assert journey.rejoin == (table.number, "")  # (her lobby seats her)
            await until(lambda: b.shelved_for(again) is None, 15,
                        what="no longer shelved, as b's lobby knows")
        finally:
            for room in (a, b):
                room.close()
                await room.stop()
