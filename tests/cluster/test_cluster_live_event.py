"""A live duplicate event across two nodes of a cluster, against a real
nats-server (crib3.cluster.live_events, crib3.cluster.board_tables): people
signed in on both nodes enter one event kept in the cluster's bucket, the
node hosting the boards' tables stops mid-board, the other adopts them and
the board is finished there, and the results are complete and those the
tables' streams make. Whoever is not back within the room's patience
after the node died has left, and the computer plays their seat."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import time
from datetime import UTC, datetime, timedelta

import pytest
from commands import crib3
from nats_support import nats_server, needs_nats, until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster import ClusterStore
from crib3.cluster.board_tables import AckedBoardGame, HostedBoardTable
from crib3.cluster.live_events import ClusterEvents
from crib3.cluster.node import Node
from crib3.cluster.results import ClusterResults
from crib3.cluster.verify import ResultCheck
from crib3.duplicate.boards import make_boards, seat_of
from crib3.engine import State, apply
from crib3.engine.events import CardsDealt
from crib3.players.easy import EasyPlayer
from crib3.room.basics import RoomError
from crib3.room.event_ratings import event_id, event_result
from crib3.room.live_event import (
    ENTERING,
    OVER,
    fill_name,
    results_json,
    sheet_lines,
    stand_in_name,
)
from crib3.room.results import Results
from crib3.room.seats import Presence

pytestmark = needs_nats

LEASE = 2.0  # seconds: a node that stops renewing loses its tables this soon
NAMES = {"ann": "a", "bob": "b", "cat": "a", "dan": "b"}  # who signs in through which node


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with nats_server(tmp_path_factory.mktemp("nats")) as running:
        yield running


async def start_node(server, name: str, tmp_path) -> Node:
    return await Node.start(server.url, name, tmp_path / name, lease_seconds=LEASE,
                            think=0.0, scan_every=0.2)


def board_tables(node: Node) -> list[HostedBoardTable]:
    return [t for t in node.room.tables.values()
            if isinstance(t, HostedBoardTable) and not t.over and not t.closed]


def play_a_move(node: Node, people: dict, pick: EasyPlayer) -> bool:
    """Each person at a board table this node hosts sits (once) and plays
    their turn, if it is theirs and the table's stream is not behind."""
    moved = False
    for table in board_tables(node):
        game = table.game
        if game is None or game._outbox:
            continue
        for seat, held in enumerate(table.seats):
            presence = people.get((held.name or "").lower())
            if presence is None or not held.person:
                continue
            if seat not in table.online:
                table.sit(presence)
            if seat in game.to_act():
                table.feed(seat).dispatch(pick.choose(game.view(seat)))
                moved = True
    return moved


async def rating_node(node: Node, folder) -> ClusterResults:
    """`node`'s side of the cluster's rated results, its store where
    `crib3 ratings rebuild --cluster` looks for a node's (`data/node/NAME`)."""
    results = ClusterResults(node.store.js, node.name,
                             Results(folder / "data" / "node" / node.name / "ratings"),
                             ResultCheck(node.store, node.registry))
    await results.start(replicas=1)
    return results


def made_on_the_cluster(server, home) -> None:
    """`crib3 event new --live --rated --cluster`: event "club" (3 boards,
    seed 7, easy) in the cluster's bucket, from a machine with no node."""
    start = (datetime.now(UTC) + timedelta(hours=2)).strftime("%H:%M")
    made = crib3("event", "new", "--live", "--start", start, "--boards", "3", "--seed", "7",
                 "--level", "easy", "--name", "club", "--host", "ann", "--rated",
                 "--cluster", server.url, home=home)
    assert made.returncode == 0, made.stderr
    assert "in the cluster's card room" in made.stdout and made.stdout.rstrip().endswith("rated")
    again = crib3("event", "new", "--live", "--start", start, "--boards", "3", "--name",
                  "club", "--cluster", server.url, home=home / "elsewhere")
    assert again.returncode != 0 and "has an event club already" in again.stderr, again.stderr
    assert not (home / "elsewhere" / "data" / "events" / "club").exists()  # (nor kept there)


async def test_an_event_across_two_nodes_loses_no_board_when_its_host_dies(server, tmp_path):
    """(Made and its results read by `crib3 event` with --cluster, rated: its
    result moves ratings once on every node, as `ratings rebuild` folds it.)"""
    await asyncio.to_thread(made_on_the_cluster, server, tmp_path / "host")
    a = await start_node(server, "ea", tmp_path)
    b = await start_node(server, "eb", tmp_path)
    rated = {}
    try:
        rated = {"a": await rating_node(a, tmp_path), "b": await rating_node(b, tmp_path)}
        on_a = await ClusterEvents.start(a, rated["a"])
        on_b = await ClusterEvents.start(b, rated["b"])
        live, _ = await on_a.read("club")  # as the command put it there
        assert live.status == ENTERING and live.host == "ann" and live.entered == []
        event = live.event
        assert [board.number for board in event.boards] == [1, 2, 3] and event.seed == 7
        rooms = {"a": a.room, "b": b.room}
        signed = {name: rooms[where].sign_in(name, f"key-{name}", lambda reason: None)
                  for name, where in NAMES.items()}
        # Entered through both nodes at once: every entry is kept.
        await asyncio.gather(*(({"a": on_a, "b": on_b}[NAMES[n]]).join("club", p)
                               for n, p in signed.items()))
        live, _ = await on_a.read("club")
        assert sorted(live.entered) == sorted(NAMES)
        assert await on_b.start_event("club") == ""  # board 1 dealt, its tables on b
        tables = board_tables(b)
        assert len(tables) == 2 and all(isinstance(t.game, AckedBoardGame) for t in tables)
        # Nobody entered may watch another table's board (they would see its cards).
        with pytest.raises(RoomError, match="may not see its cards"):
            tables[1].watch(Presence("ann", "key-ann"))
        pick = EasyPlayer(random.Random(5))
        # Everyone plays board 1 at b, until the first table is well into it.
        people_b = {n: b.room.sign_in(n, f"key-{n}", lambda reason: None) for n in NAMES}
        give_up = time.monotonic() + 20
        while len(tables[0].game.events) < 14:
            assert time.monotonic() < give_up, "board 1 did not go on at b"
            play_a_move(b, people_b, pick)
            await asyncio.sleep(0.01)
        stood = {t.number: len(t.game.events) for t in tables}
        assert not any(t.game.over for t in tables)

        # b stops (as by SIGSTOP); a adopts both board tables, where they stood.
        a.room.patience = 1.0  # (whoever is not back within it has left)
        b.pause()
        await until(lambda: all(t.number in a.room.tables for t in tables),
                    seconds=8 * LEASE, what="a adopting the board tables")
        for table in tables:
            adopted = a.room.tables[table.number]
            assert isinstance(adopted, HostedBoardTable) and adopted.board.number == 1
            assert len(adopted.game.events) >= stood[table.number]

        # The boards are finished at a, and a deals and hosts the next ones;
        # all but dan sign in again (through a): the computer plays his seat.
        people_a = {n: a.room.sign_in(n, f"key-{n}", lambda reason: None)
                    for n in NAMES if n != "dan"}
        give_up = time.monotonic() + 40
        while (await on_a.read("club"))[0].status != OVER:
            assert time.monotonic() < give_up, "the event did not finish at a"
            for _ in range(20):
                if not play_a_move(a, people_a, pick):
                    await asyncio.sleep(0.01)
        live, fields, ranking, problems = await on_a.results("club")
        reader = await ClusterStore.connect(server.url, "reader", make=False)
        try:
            records = {key: await reader.read(str(path.stem.split("-")[1]))
                       for key, path in live.logs.items()}
            streams = {key: record.events for key, record in records.items()}
        finally:
            await reader.close()
        # Rated: its one result, on both nodes (b's own reader folds it too).
        await until(lambda: all(r.book.has(event_id(live)) for r in rated.values()),
                    seconds=30, what="the event's result folded on both nodes")
        books = {name: (r.book.count(), r.book.skills(), r.refused) for name, r in rated.items()}
        # The check every node makes: the result the streams give, and no other.
        honest = event_result(live)
        assert honest is not None and await rated["a"].check(honest) is None
        first, *rest = honest.placings
        forged = [dataclasses.replace(honest, placings=(*rest, first)),
                  dataclasses.replace(honest, digest="d" * 64),
                  dataclasses.replace(honest, game=honest.game + "0")]
        said = [await rated["b"].check(one) for one in forged]
        assert "places or scores" in said[0] and "digest" in said[1], said
        assert "not event club's result" in said[2], said
    finally:
        for results in rated.values():
            await results.stop()
        await b.close()
        await a.stop()
    assert books["a"] == books["b"] and books["a"][0] == 1 and books["a"][2] == 0
    assert {"ssh key-ann", "ssh key-bob", "ssh key-cat", "ssh key-dan"} <= set(books["a"][1])
    for results in rated.values():
        results.book.close()
    rebuilt = crib3("ratings", "rebuild", "--cluster", server.url, home=tmp_path)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "1 result on the cluster folded into" in rebuilt.stdout and "0 refused" in rebuilt.stdout
    assert "node ea's store on this machine: the same numbers" in rebuilt.stdout
    assert "node eb's store on this machine: the same numbers" in rebuilt.stdout
    # `crib3 event results --cluster`, from a machine with no node: the same sheet.
    home = tmp_path / "reader"
    text = crib3("event", "results", "club", "--cluster", server.url, home=home)
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines() == sheet_lines(live, fields, ranking)
    as_json = crib3("event", "results", "club", "--json", "--cluster", server.url, home=home)
    assert as_json.returncode == 0, as_json.stderr
    read, made_here = json.loads(as_json.stdout), results_json(live, fields, ranking)
    for sheet in (read, made_here):  # (each names its own machine's copies of the logs)
        for board in sheet["results"]:
            for play in board["plays"]:
                assert play.pop("log").endswith(".jsonl")
    assert read == made_here and read["status"] == OVER and len(read["results"]) == 9
    missing = crib3("event", "results", "nosuch", "--cluster", server.url, home=home)
    assert missing.returncode != 0 and missing.stderr.count("\n") == 1, missing.stderr
    assert "no live event nosuch in the cluster at nats://127.0.0.1:" in missing.stderr

    assert problems == [] and len(live.logs) == 6  # three boards at two tables
    # Board 1 begun at b and finished at a; the next ones dealt and played at a.
    assert {key: [owner for owner, _ in r.owners] for key, r in records.items()} == {
        (number, index): (["eb", "ea"] if number == 1 else ["ea"])
        for number in (1, 2, 3) for index in (0, 1)}
    assert {(f.board, f.slot) for f in fields} == {(n, s) for n in (1, 2, 3) for s in range(3)}
    assert live.left == {"dan": 1}  # (his board 1 too: he did not finish it)
    assert {s.who for s in ranking if s.person} == set(NAMES) - {"dan"}
    # Each field, recomputed from the streams alone: the same nets.
    nets: dict[tuple[int, int], dict[str, float]] = {}
    for (number, index), events in streams.items():
        dealt = next(e for e in events if isinstance(e, CardsDealt))
        assert [tuple(sorted(h)) for h in dealt.hands] == [
            event.boards[number - 1].hand(seat_of(slot, number)) for slot in range(3)]
        state = State()
        for one in events:
            state = apply(state, one)
        for slot, who in enumerate(live.seating[index]):
            mine, left, right = (state.scores[(slot + k) % 3] for k in range(3))
            name = (fill_name(index, slot) if who is None else
                    who if live.playing(who, number) else stand_in_name(who))
            nets.setdefault((number, slot), {})[name] = mine - (left + right) / 2
    for f in fields:
        people = {s.play.who: s.play.net for s in f.result.plays if not s.play.who.startswith(
            "computer (")}
        assert people == nets[f.board, f.slot]


class KeptLog:
    """A table's log as `AckedGame` appends to it (no cluster needed)."""

    def __init__(self) -> None:
        self.events: list = []

    async def append(self, event) -> int:
        self.events.append(event)
        return len(self.events)


async def test_a_board_adopted_between_two_cuts_for_the_deal_goes_on_as_the_board():
    """Its host stored one of the two high cards cut for the deal, then died:
    the node adopting it draws the other one, and the board's game is the
    board's, event for event."""
    from crib3.duplicate.play import BoardGame
    from crib3.engine import PlayerInfo
    from crib3.engine.events import CardCutForDeal

    board = make_boards(7, 3)[1]
    seat = seat_of(0, board.number)
    players = [PlayerInfo(n) for n in ("ann", "bob", "cat")]
    whole = BoardGame.start(board, seat, players).events
    log = KeptLog()
    first = AckedBoardGame(log, lambda: None).on(board, seat)
    first.begin_board(players)
    await first.settled()
    cuts = [i for i, e in enumerate(log.events) if isinstance(e, CardCutForDeal)]
    assert log.events[cuts[1]].card != board.deal_cuts()[0]  # (the second cutter is no dealer)
    stored = log.events[:cuts[0] + 1]  # the host died after its first cut was stored
    again = KeptLog()
    again.events = list(stored)
    adopted = AckedBoardGame.hosting(again, lambda: None, stored)
    adopted.on(board, seat).go_on()
    await adopted.settled()
    assert again.events == whole == log.events
