"""Visits that meet a fault, as real processes (`crib3 serve --cluster`
nodes, a real nats-server, real SSH clients): a node paused for a few
seconds, a host killed while a person is away from it or has moved from
one table to another, a visitor come to a table its host let go of a
moment ago, a table that moves as its screen comes up, or away from a
host that runs on (a live event's board table too), a visitor going on
from the host's lobby to another node's table. Whenever a person has a
seat, the node they are on takes them to it as soon as it is hosted by a
node that answers, without a key (`crib3.cluster.visits`,
`crib3.net.journey`); a spectator goes on watching. The tests after the
first two run their nodes in one process, to give a visit or a table up
at will. The plain visits:
test_cluster_visits.py; a node killed or stopped past its lease, its
person at a table of its own: test_cluster_serve.py."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest
from nats_support import free_ports, nats_server, needs_nats
from ssh_support import Client, plain
from test_cluster_serve import authorized_keys, log_says, machine_dies, start_node

pytestmark = needs_nats


@contextlib.contextmanager
def paused(node) -> Iterator[None]:
    """SIGSTOP of a node's process, SIGCONT as the block ends."""
    os.kill(node.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(node.pid, signal.SIGCONT)


def stopped(*nodes) -> None:
    """The nodes gone at the end of a test (kill -9: their tables are
    nobody's concern any more)."""
    for node in nodes:
        machine_dies(node)


async def started(tmp_path: Path, url: str, authorized: Path, lease: float):
    """Nodes alpha and bravo, started side by side, once both listen: each
    process, and its SSH port."""
    ports = free_ports(2)
    nodes = await asyncio.gather(*(
        asyncio.to_thread(start_node, tmp_path, name, port, url, authorized, lease)
        for name, port in zip(("alpha", "bravo"), ports)))
    return list(zip(nodes, ports))


async def open_table(owner: Client) -> None:
    """`owner` opens a table, its other seats free for people (or for
    computer players once it starts)."""
    await owner.shows("Open a table")
    owner.press("o")
    await owner.shows("Second seat")
    owner.press("\r")
    await owner.shows("start the game")


async def on_to_the_throw(*people: Client, timeout: float = 40.0) -> None:
    """Enter, at a person's pace, for each of `people` until their screen
    asks for their throw (which is left to them: the game waits there)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    waiting = list(people)
    # Everything each screen drew since it was last looked at is read (not
    # only its last frames: a frame drawn after the throw's prompt could
    # push it out of them, and an Enter then would throw for them).
    seen = {id(person): max(0, len(person.terminal.received) - 6000) for person in people}
    while waiting:
        assert loop.time() < deadline, [p.terminal.text()[-400:] for p in waiting]
        for person in list(waiting):
            drawn = bytes(person.terminal.received)
            if "Throw one card" in plain(drawn[seen[id(person)]:]):
                waiting.remove(person)
            elif "Go on" in person.footer():
                # (only while the footer offers Enter as "go on": one pressed
                # as the prompt comes, its frame not drawn yet, would throw)
                person.press("\r")
            seen[id(person)] = max(0, len(drawn) - 200)  # (a phrase cut in two)
        await asyncio.sleep(0.4)


async def seated_after_the_lobby(person: Client, timeout: float = 20.0) -> None:
    """Until `person`'s screen shows their table (its footer) after the
    last lobby it showed, if any."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        text = person.terminal.text()
        if text.rfind("f Feed") > text.rfind("Open a table"):
            return
        assert loop.time() < deadline, f"not back at the table: {text[-600:]!r}"
        await asyncio.sleep(0.1)


async def arrives(person: Client, there, what: str, timeout: float = 15.0) -> None:
    """Until `there()` holds for `person`, whose SSH session must not end
    meanwhile: AssertionError, saying which and what their screen showed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not there():
        last = person.terminal.text()[-600:]
        assert not person.terminal.closed.is_set(), f"{what}: the session ended; last: {last!r}"
        assert loop.time() < deadline, f"{what}: not within {timeout:g} s; last: {last!r}"
        await asyncio.sleep(0.05)
    assert not person.terminal.closed.is_set(), what


async def back_at_the_table(person: Client, timeout: float = 20.0) -> str:
    """Until `person`'s screen, drawn again since its `received` was cleared,
    shows their table (its footer, which only a table has): what it drew."""
    await person.shows("f Feed", timeout=timeout)
    return plain(bytes(person.terminal.received))


@pytest.mark.slow
async def test_a_visitor_whose_own_node_was_paused_is_back_at_their_seat_without_a_key(
        tmp_path: Path) -> None:
    """bob, connected to bravo, sits at ann's table on alpha. bravo is
    paused (SIGSTOP) until alpha gives the visit up, then resumed: alpha
    told bravo, which takes bob back to his seat, no key pressed. (The
    other way, the host paused: the next test's second half.)"""
    key = asyncssh.generate_private_key("ssh-ed25519")
    authorized = authorized_keys(tmp_path, key)
    with nats_server(tmp_path) as server:
        (a, port_a), (b, port_b) = await started(tmp_path, server.url, authorized, 10.0)
        try:
            ann = await Client.connect(port_a, "ann", key=key)
            await open_table(ann)
            bob = await Client.connect(port_b, "bob", key=key)
            await bob.shows("on alpha")
            number = re.search(r"(\d+) on alpha", bob.terminal.text()).group(1)
            bob.press("\r")
            await bob.shows("start the game")
            ann.press("\r")
            await on_to_the_throw(bob)
            # bravo, bob's door, paused: alpha gives his visit up
            with paused(b):
                await log_says(tmp_path / "alpha.log", "node bravo does not answer")
                bob.terminal.received.clear()
            seen = await back_at_the_table(bob)
            assert "Open a table" not in seen  # straight back, not through the lobby
            await log_says(tmp_path / "bravo.log", f"bob visits node alpha for table {number}")
            ann.close()
            bob.close()
        finally:
            stopped(a, b)
    for name in ("alpha", "bravo"):
        assert "Traceback" not in (tmp_path / f"{name}.log").read_text()


@pytest.mark.slow
async def test_a_killed_hosts_people_are_taken_to_their_seats_now_however_they_came(
        tmp_path: Path) -> None:
    """Node alpha hosts two tables and dies (kill -9); bravo adopts them
    once alpha's lease (5 s) runs out. ann, whose table is the first,
    reconnects through bravo before that: she is told alpha's table does
    not answer, and is taken to her seat as soon as bravo hosts it. bob,
    on bravo, visited alpha for ann's table, left it and opened another
    there, in the same visit: he is told of that table, his seat, and taken
    back to it, not to ann's. No key pressed by either after the kill."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    authorized = authorized_keys(tmp_path, key)
    with nats_server(tmp_path) as server:
        (a, port_a), (b, port_b) = await started(tmp_path, server.url, authorized, 5.0)
        try:
            ann = await Client.connect(port_a, "ann", key=key)
            await open_table(ann)
            bob = await Client.connect(port_b, "bob", key=key)
            await bob.shows("on alpha")
            first = re.search(r"(\d+) on alpha", bob.terminal.text()).group(1)  # ann's
            bob.press("\r")  # (a visit to alpha, for ann's table)
            await bob.shows("start the game")
            bob.press("l")  # he leaves it: alpha's lobby, the same visit
            await bob.shows("Open a table")
            bob.terminal.received.clear()
            await open_table(bob)  # table 2, on alpha
            bob.press("\r")
            ann.press("\r")
            await on_to_the_throw(ann, bob)
            machine_dies(a)
            ann.close()
            again = await Client.connect(port_b, "ann", key=key)  # before the lease runs out
            bob.terminal.received.clear()
            await bob.shows("The server of table", timeout=15)
            told = re.search(r"The server of table (\d+) stopped", bob.terminal.text())
            assert told is not None and told.group(1) != first, bob.terminal.text()[-600:]
            await again.shows(f"server of table {first} does not")  # (in bravo's lobby)
            await log_says(tmp_path / "bravo.log", f"node bravo adopted table {told.group(1)}")
            for person in (again, bob):  # (bob may be told on the lobby or at his seat)
                await seated_after_the_lobby(person)
            again.close()
            bob.close()
        finally:
            stopped(a, b)
    assert "Traceback" not in (tmp_path / "bravo.log").read_text()


async def test_a_visit_given_up_by_either_side_ends_on_both_and_the_seat_is_taken_again(
        tmp_path: Path, caplog) -> None:
    """Nodes in one process (test_cluster_visits.py's): node a gives bob's
    visit from node b up, and its word to b is lost (as when b was paused
    and its connection to NATS started again meanwhile). b's pings to a
    name the visits it holds there; a's answers say it holds bob's no
    more: b ends it too and takes bob back to his seat at a's table. Then
    b gives a up, and a answers again: bob is back at his seat."""
    from test_cluster_visits import bob_visits_anns_table, nodes, until

    key = asyncssh.generate_private_key("ssh-ed25519")
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, names=("a", "b"), lease=10.0) as (a, b):
            ann, bob, table = await bob_visits_anns_table(a, b, key)
            [link] = a.room.visits.links.values()
            link.send = lambda message: None  # (its End to b is lost)
            bob.terminal.received.clear()
            a.room.visits.lose("b")
            await until(lambda: not table.present(1), what="a hangs bob's visit up")
            await bob.shows("f Feed", timeout=15)  # back at his seat, drawn anew
            await until(lambda: table.present(1), what="bob at his seat again")
            assert "no longer holds visit" in caplog.text
            # The other way: b gives a up (as when a is paused), and a
            # answers again before anyone adopts its table: bob, in b's
            # lobby and told why, is taken back to his seat on a.
            # (a's answers go unheard at b until bob has been told: heard
            # at once, they took him back before a loaded machine drew b's
            # lobby, and its notice with it, as it should for a person.)
            visits = b.room.visits
            answered = visits._answered
            visits._answered = lambda peer: None if peer == "a" else answered(peer)
            bob.terminal.received.clear()
            visits.lose("a")
            await bob.shows(f"The server of table {table.number} stopped", timeout=15)
            bob.terminal.received.clear()
            visits._answered = answered
            await bob.shows("f Feed", timeout=15)
            await until(lambda: table.present(1), what="bob at his seat once more")
            ann.close()
            bob.close()


async def test_a_visitor_come_to_a_table_let_go_a_moment_ago_is_seated_once_it_is_adopted(
        tmp_path: Path) -> None:
    """Nodes in one process, only a adopting: ann's table on a is let go
    there (as when an append fails: a NATS server paused), and a's scan,
    which adopts it again, waits. ann connects through b meanwhile: b's
    lobby still lists the table on a, so she visits a, which does not host
    it just now (its lobby, told so). Once a adopts it again she is at her
    seat, no key pressed (she used to stay in a's lobby for good)."""
    from test_cluster_visits import nodes, until

    from crib3.engine import Rules
    from crib3.room.seats import Presence

    key = asyncssh.generate_private_key("ssh-ed25519")
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, names=("a", "b"), lease=4.0,
                         adopting=("a",)) as (a, b):
            ann = Presence("ann", key.get_fingerprint())
            table = await a.room.node.open_table(ann, Rules(), ("easy", "easy"))
            table.start("ann")
            table.online.discard(0)  # (opened for her: she comes through b)
            await until(lambda: table.game is not None and table.game.events
                        and not table.game._outbox, what="the game on the stream")
            await until(lambda: any(t.number == table.number and t.node == "a"
                                    for t in b.room.elsewhere()), what="b lists it on a")
            a.room.node.pause()  # (its scan waits: the moment between is the test's)
            table.fence()  # a lets it go
            assert table.number not in a.room.tables
            person = await Client.connect(b.port, "ann", key=key)
            await person.shows(f"table {table.number} is not here any more")
            a.room.node.keeper.paused = False
            await until(lambda: table.number in a.room.tables, timeout=15,
                        what="a adopts it again")
            await seated_after_the_lobby(person)
            adopted = a.room.tables[table.number]
            await until(lambda: adopted.present(0), what="ann at her seat")
            person.close()


async def test_a_table_that_moves_as_its_screen_comes_up_takes_its_person_back_to_the_seat(
        tmp_path: Path, monkeypatch) -> None:
    """ann connects to node a, which takes her to her seat; the table moves
    (a lets it go) before her table's screen is up, so that the screen is
    never told. Once a adopts it again she is at her seat, no key pressed
    (she used to stay on the closed table's screen for good, her seat
    empty: a busy node's screen comes up slowly)."""
    from test_cluster_visits import nodes, until

    from crib3.engine import Rules
    from crib3.room.seats import Presence
    from crib3.tui.room_app import CardRoomApp

    sat: list[object] = []
    sit_at = CardRoomApp.sit_at

    def moved_as_it_comes(app, table, seat, fresh=False):
        sit_at(app, table, seat, fresh)
        if not sat:
            sat.append(table)
            table.fence()  # (its screen is not mounted yet)

    monkeypatch.setattr(CardRoomApp, "sit_at", moved_as_it_comes)
    key = asyncssh.generate_private_key("ssh-ed25519")
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, names=("a",), lease=4.0) as (a,):
            table = await a.room.node.open_table(Presence("ann", key.get_fingerprint()),
                                                 Rules(), ("easy", "easy"))
            table.start("ann")
            table.online.discard(0)  # (opened for her: she is not here yet)
            await until(lambda: table.game is not None and table.game.events
                        and not table.game._outbox, what="the game on the stream")
            person = await Client.connect(a.port, "ann", key=key)
            await until(lambda: sat and table.moved, what="the table moved as she came")
            await until(lambda: table.number in a.room.tables
                        and a.room.tables[table.number] is not table, timeout=15,
                        what="a adopts it again")
            adopted = a.room.tables[table.number]
            await until(lambda: adopted.present(0), timeout=15, what="ann at her seat")
            await person.shows("f Feed")
            person.close()


async def test_a_table_that_moves_away_from_a_running_host_takes_its_people_on_there(
        tmp_path: Path) -> None:
    """Nodes in one process, only b adopting: ann, on a, plays at her table
    there with bob, connected to b (a visit); dan, on b too, watches it. a
    stops renewing its lease until b has adopted the table, then runs on
    (as a node paused past its lease and woken): its copy is fenced. Once
    b has adopted it, ann and bob are at their seats there and
    dan watches it there, no key pressed; nobody's SSH session ended (bob's
    and dan's used to: the host's plain end of their visit read as their
    own quitting), and dan is not told of a seat he does not have."""
    from test_cluster_visits import bob_visits_anns_table, nodes, until

    key = asyncssh.generate_private_key("ssh-ed25519")
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, names=("a", "b"), lease=2.0,
                         adopting=("b",)) as (a, b):
            ann, bob, table = await bob_visits_anns_table(a, b, key)
            await until(lambda: not table.game._outbox, what="the start stored")
            dan = await Client.connect(b.port, "dan", key=key)
            await dan.shows(f"{table.number} on a")
            dan.press("w")
            await until(lambda: "dan" in table.watcher_names(), what="dan watching on a")
            people = {"ann": ann, "bob": bob, "dan": dan}
            for person in people.values():
                person.terminal.received.clear()
            a.room.node.pause()  # its lease runs out, as if it had been stopped: b adopts
            await until(lambda: table.number in b.room.tables, timeout=15,
                        what="b adopts the table")
            a.room.node.keeper.paused = False  # a runs on: its renewal is refused
            await until(lambda: table.moved, what="a's copy fenced")
            adopted = b.room.tables[table.number]
            there = {"ann": lambda: adopted.present(0), "bob": lambda: adopted.present(1),
                     "dan": lambda: "dan" in adopted.watcher_names()}
            for name, person in people.items():
                await arrives(person, there[name], f"{name} at the table on b")
                await seated_after_the_lobby(person)  # (the table, drawn after the lobby)
            assert "your seat" not in dan.terminal.text(), dan.terminal.text()[-600:]
            for person in people.values():
                person.close()


@pytest.mark.slow
async def test_people_at_a_live_events_board_table_that_moves_away_are_seated_at_its_new_host(
        tmp_path: Path) -> None:
    """Nodes in one process, only b adopting: ann and bob on a, cat on b
    (visiting a), at the board table of a live event that a hosts. a's
    copy of the table is fenced while a runs on: once b adopts it, all
    three are at their seats there, no key pressed, nobody's session
    ended (cat's used to: the two-node event test's visitor, put out of
    the room when a board table was hosted twice and one copy fenced)."""
    from test_cluster_visits import nodes, until

    from crib3.cluster.board_tables import HostedBoardTable
    from crib3.room.live_event import PLAYING

    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "bob", "cat")}
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, list(keys.values()), names=("a", "b"), lease=2.0,
                         adopting=("b",)) as (a, b):
            where = {"ann": a, "bob": a, "cat": b}  # (one key each: one entry a person)
            people = {name: await Client.connect(node.port, name, key=keys[name])
                      for name, node in where.items()}
            for person in people.values():
                await person.shows("Open a table")
                person.press("e")
                await person.shows("Live duplicate events")
            people["ann"].press("n")
            await until(lambda: b.room.events.events, timeout=20, what="b hearing of the event")
            event = next(iter(b.room.events.events))
            for count, (name, person) in enumerate(people.items(), start=1):
                await person.shows(event)
                person.press("j")
                await until(lambda count=count: all(
                    len(n.room.events.events[event].entered) == count for n in (a, b)),
                    what=f"{name} entered, as both nodes hear it")
            people["ann"].press("s")
            await until(lambda: b.room.events.events[event].status == PLAYING, timeout=20,
                        what="the start")
            await until(lambda: any(isinstance(t, HostedBoardTable)
                                    for t in a.room.tables.values()), what="a's board table")
            table = next(t for t in a.room.tables.values() if isinstance(t, HostedBoardTable))
            seats = {name: table.seat_of(name) for name in people}
            await until(lambda: all(table.present(seat) for seat in seats.values())
                        and not table.game._outbox, timeout=15, what="all three at the board")
            for person in people.values():
                person.terminal.received.clear()
            table.fence()  # a's copy goes; a runs on
            await until(lambda: table.moved, what="the table moved")
            await until(lambda: table.number in b.room.tables, timeout=15,
                        what="b adopts the board table")
            adopted = b.room.tables[table.number]
            for name, seat in seats.items():
                person = people[name]
                await arrives(person, lambda seat=seat: adopted.present(seat),
                              f"{name} at the board on b")
                await seated_after_the_lobby(person)  # (the board, drawn after the lobby)
            for person in people.values():
                person.close()


async def test_a_visitor_goes_on_from_the_hosts_lobby_to_a_table_of_another_node(
        tmp_path: Path) -> None:
    """Nodes in one process: bob, connected to b, sits at ann's table on a
    and leaves it for a's lobby (the same visit); there he picks cat's
    table, on b, and sits at it: his visit ends and b seats him (his
    session used to end there, as if he had quit)."""
    from test_cluster_visits import nodes, until

    key = asyncssh.generate_private_key("ssh-ed25519")
    with nats_server(tmp_path) as nats:
        async with nodes(nats.url, tmp_path, key, names=("a", "b"), lease=4.0) as (a, b):
            ann = await Client.connect(a.port, "ann", key=key)
            cat = await Client.connect(b.port, "cat", key=key)
            await open_table(ann)
            await open_table(cat)
            await until(lambda: a.room.tables and b.room.tables, what="both tables")
            ours, theirs = next(iter(a.room.tables.values())), next(iter(b.room.tables.values()))
            bob = await Client.connect(b.port, "bob", key=key)
            await bob.shows(f"{ours.number} on a")
            bob.press("\x1b[B" * (ours.number > theirs.number) + "\r")  # (rows by number)
            await until(lambda: ours.seats[1].name == "bob", what="bob seated on a")
            await bob.shows("start the game")
            bob.press("l")  # a's lobby: the same visit
            await until(lambda: ours.seats[1].name is None, what="bob's seat on a freed")
            await bob.shows(f"{theirs.number} on b")
            bob.terminal.received.clear()
            bob.press("\x1b[B" * (theirs.number > ours.number) + "\r")
            await arrives(bob, lambda: theirs.seats[1].name == "bob" and theirs.present(1),
                          "bob seated on b")
            await bob.shows("start the game")
            for person in (ann, bob, cat):
                person.close()
