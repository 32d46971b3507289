"""A match on a cluster (crib3.cluster.hosted, node, verify) against a real
NATS server: its games go one after another on the table's stream; a node
adopting the table rebuilds the match, in the middle of a game and between
two; the match, not its games, is rated, once, alike on every node and in
a rebuild; each of its games is copied for My games."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

import pytest
from commands import crib3
from nats_support import nats_server, needs_nats, until

pytest.importorskip("nats", reason="needs nats-py (in the test extra)")

from crib3.cluster import ClusterStore
from crib3.engine import Rules
from crib3.room.results import MATCH, Results

pytestmark = needs_nats


@pytest.fixture(scope="module")
def solo(tmp_path_factory):
    with nats_server(tmp_path_factory.mktemp("nats")) as server:
        yield server


async def play(table, done, seat: int = 0, seconds: float = 60.0) -> None:
    """The person in `seat` plays her first legal move whenever it is
    awaited (the computer's too or not: everyone throws to the crib at
    once) until `done(table)` holds."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    while not done(table):
        game = table.game
        assert loop.time() < give_up, (
            "the match stopped", table.match, None if game is None else
            (game.to_act(), len(game.events), len(game._outbox)))
        if game is not None and not game.over and seat in game.to_act() and not game._outbox:
            table.feed(seat).dispatch(game.legal_moves(seat)[0])
        await asyncio.sleep(0.01)


async def start(solo, tmp_path, name: str):
    from crib3.cluster.room import ClusterRoom

    return await ClusterRoom.start([solo.url], name, tmp_path / name, think=0.0,
                                   lease_seconds=2.0,
                                   results=Results(tmp_path / name / "ratings"))


async def hosted(room, number: int, what: str):
    await until(lambda: number in room.tables, seconds=30, what=what)
    return room.tables[number]


async def test_a_rated_match_adopted_mid_game_between_games_and_at_its_end_is_rated_once(
        solo, tmp_path, caplog):
    """Node ma hosts a best of 3 and dies in the middle of its first game:
    mb adopts it there, the game going on where it stood. mb stops between
    the first game and the second (paused: its lease runs out; the
    cluster's lobby has heard of the first game's win), and mc
    adopts it with the first game's win kept and begins the second. mc dies
    as the match is won, before its result or the registry hears of it: md
    adopts it over and rates it. The match, not its games, moves Alice's
    rating once, on mb and md alike, as a rebuild from the stream does; a
    forged match result and a result of one of its games are refused by
    both; md copies each of its games for My games."""
    import dataclasses

    from crib3.cluster.results import RESULTS, SUBJECT, fold_the_stream, match_table_result
    from crib3.room.results import lines_digest, lines_game_id, result_of

    a, b = await start(solo, tmp_path, "ma"), await start(solo, tmp_path, "mb")
    rooms = [a, b]
    try:
        alice = await a.enter("Alice", "SHA256:alice", lambda why: None)
        table = a.open_table(alice, Rules(target=61), ("easy", "easy"), best_of=3)
        number = table.number
        assert table.rated and table.match.best_of == 3
        await until(lambda: any(t.number == number and t.match.best_of == 3
                                for t in b.cluster_lobby.tables()),
                    what="node mb's lobby listing the table as a best of 3")
        table.start("Alice")
        # The first game half played on ma, which dies (nothing released).
        await play(table, lambda t: t.game is not None and len(t.game.events) >= 30)
        await table.settled()
        stored = len(table.game.events)
        await a.node.close()
        at_b = await hosted(b, number, "node mb adopting the match in its first game")
        assert at_b.match.best_of == 3 and at_b.match.games == ()
        assert len(at_b.game.events) >= stored and not at_b.game.over
        # mb plays the first game out, and stops before the second begins.
        at_b._next_game = lambda players: None
        await play(at_b, lambda t: len(t.match.games) == 1)
        first = at_b.match.games[0]
        await at_b.settled()
        await until(lambda: [t.match.games for t in b.cluster_lobby.tables()
                             if t.number == number] == [(first,)],
                    what="the cluster's lobby hearing of the match's first game won")
        b.node.pause()  # (its lease runs out: as if its process stopped)
        c = await start(solo, tmp_path, "mc")
        rooms.append(c)
        at_c = await hosted(c, number, "node mc adopting the match between two games")
        assert at_c.match.games == (first,) and not at_c.over
        # mc plays the match out and dies as it is won: no result, the registry not told.
        c.match_over = lambda table: None
        c.node.publish = lambda table: None
        await play(at_c, lambda t: t.match.over)
        played = at_c.match
        assert len(played.games) >= 2 and played.games[0] == first
        await at_c.settled()
        await c.node.close()
        d = await start(solo, tmp_path, "md")
        rooms.append(d)
        # Rated once, as a match, on every node still folding the stream.
        for room in (b, d):
            await until(lambda room=room: room.results.skill("ssh SHA256:alice") is not None,
                        seconds=30, what=f"node {room.node.name} folding the match's result")
        assert str(number) in d.node.adopted
        record = await d.node.store.read(str(number))
        assert len(record.all_games()) == len(played.games)
        # Exported game by game from the stream (`crib3 verify` reads one game).
        for k, one in enumerate(record.all_games(), 1):
            done = await asyncio.to_thread(crib3, "tables", "export", str(number), "--game",
                                           str(k), "--cluster", solo.url)
            assert done.returncode == 0 and done.stdout.splitlines() == one.lines, done.stderr
        at_c.match = played  # (what md made of it: the same games)
        result = match_table_result(at_c)
        assert result.game.startswith(MATCH) and d.results.has(result.game)
        assert b.results.count() == d.results.count() == 1  # (the match, not its games)
        assert d.results.skill("ssh SHA256:alice").games == 1
        assert b.results.skills() == d.results.skills()
        # Told again (a node adopting it as it ended): nothing moves twice.
        assert not await d.cluster_results.record(result)
        # Forged: the match's result with the places turned round, and its
        # first game's result by itself (its id and digest right).
        game = record.games[0]
        alone = result_of(lines_game_id(game.lines), number, result.placings,
                          lines_digest(game.lines))
        turned = dataclasses.replace(result, placings=tuple(
            dataclasses.replace(p, score=3 - p.score) for p in result.placings))
        refused = [room.cluster_results.refused for room in (b, d)]
        caplog.set_level(logging.WARNING, logger="crib3.cluster")
        for forged in (turned, alone):
            await d.node.store.js.publish(SUBJECT, forged.line().encode(), stream=RESULTS)
        for room, before in zip((b, d), refused):
            await until(lambda room=room, before=before:
                        room.cluster_results.refused == before + 2, seconds=10,
                        what=f"node {room.node.name} refusing both forged results")
        said = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
        assert any("(a replayed result)" in line for line in said), said
        assert any("not rated one by one" in line for line in said), said
        # (Turned round, the match's result is refused by its check too, not
        # only as a replay: checked alone, as if it came first.)
        why = await d.cluster_results.check(turned)
        assert why is not None and "games won that table" in why, why
        assert b.results.count() == d.results.count() == 1
        assert b.results.skills() == d.results.skills()
        store = await ClusterStore.connect(solo.url, "rebuilder", make=False)
        try:
            book = Results(tmp_path / "rebuilt")
            assert await fold_the_stream(store, book) == 2  # (the two forged lines)
        finally:
            await store.close()
        assert book.skills() == d.results.skills()
        # My games: each of its games, as one machine puts a match away.
        away = d.finished.away
        await until(lambda: (away / f"table-{number}-game-{len(played.games)}.jsonl")
                    .is_file(), seconds=30, what="node md copying the match's games")
        seats = json.loads((away / f"table-{number}.json").read_text(encoding="utf-8"))
        assert seats["best_of"] == 3 and not (away / f"table-{number}.jsonl").exists()
    finally:
        for room in rooms:
            room.close()
            with contextlib.suppress(Exception):  # (ma's and mc's connections are closed)
                await room.stop()


async def test_a_new_games_header_is_taken_only_after_a_win(solo):
    """A header on a table's stream while its game goes on (written past
    the nodes) makes no match: the stream is refused as no game's log, by a
    reader and by the results' check; and a host cannot begin a new game
    on a log whose game is not won."""
    import time

    from crib3.cluster.store import (
        KIND,
        STREAM,
        Lease,
        TableLog,
        TableRecord,
        subject_of,
    )
    from crib3.cluster.verify import ResultCheck
    from crib3.engine import PlayerInfo
    from crib3.engine.log import event_line, make_header
    from crib3.engine.rules import begin
    from crib3.room.ratings import Placing
    from crib3.room.results import Result

    started = begin((PlayerInfo("Ann", "human"), PlayerInfo("Bo", "easy"),
                     PlayerInfo("Cy", "easy")), Rules(target=61), seed=7)
    header = make_header(source="crib3 serve", table=888888)
    lease = Lease("888888", "test", 1, time.monotonic() + 60)
    log = TableLog(None, lease, TableRecord(header, [started], [json.dumps(header),
                                                                event_line(started)]))
    with pytest.raises(ValueError, match="before the last was won"):
        log.next_game(header)
    store = await ClusterStore.connect(solo.url, "hd")
    try:
        for kind, line in (("header", json.dumps(header)), ("event", event_line(started)),
                           ("header", json.dumps(header))):
            await store.js.publish(subject_of("888888"), line.encode(), stream=STREAM,
                                   headers={KIND: kind})
        with pytest.raises(ValueError, match="before the game under way was won"):
            await store.read("888888")
        forged = Result(MATCH + "0" * 32, 888888, "2026-12-06T12:00:00+00:00",
                        tuple(Placing(i, i, s) for i, s in (("ssh a", 2), ("ssh b", 0),
                                                            ("ssh c", 0))), "d" * 64)
        why = await ResultCheck(store, None)(forged)
        assert why is not None and "is no game's log" in why, why
    finally:
        await store.close()


def test_a_match_is_read_back_from_its_stream_wherever_its_host_stopped():
    """`match_on`: in the middle of a game, just after a win (the next
    game's header written or not), and with the match won."""
    import time

    from games import play_game

    from crib3.cluster.node import match_on
    from crib3.cluster.store import Lease, PlayedGame, TableLog, TableRecord

    won = play_game(("easy", "easy", "easy"), seed=3, rules=Rules(target=61))
    events, lines = list(won.events), [json.dumps({"h": 1}), *map(str, range(len(won.events)))]
    game = PlayedGame(lines, events)
    lease = Lease("1", "test", 1, time.monotonic() + 60)

    def read(games, current):
        header = {"h": 1} if current is not None else None
        record = TableRecord(header, list(current or ()), [], games=list(games))
        return match_on(TableLog(None, lease, record), 3)

    middle = read([game], events[:20])
    assert [g.winner for g in middle[0].games] == [won.state.winner] and middle[1] == events[:20]
    for after_a_win in (read([], events), read([game], [])):  # the next header: not yet, or alone
        assert len(after_a_win[0].games) == 1 and after_a_win[1] == []
    over = read([game], events)  # (the same seat won twice: the match is won)
    assert over[0].over and over[1] == events
    single, rest = match_on(TableLog(None, lease, TableRecord({"h": 1}, events[:5])), 1)
    assert not single.is_match and rest == events[:5]


async def test_a_match_that_cannot_be_read_back_is_not_adopted_and_its_lease_given_back(
        solo, tmp_path):
    """A registry entry whose match makes no sense (best of 7) is logged
    and left, its lease released at once rather than kept for good by the
    node that tried."""
    from crib3.cluster.node import Node
    from crib3.room.seats import Presence

    a = await Node.start(solo.url, "na", tmp_path / "na", lease_seconds=2.0, think=0.0,
                         adopt=False)
    b = await Node.start(solo.url, "nb", tmp_path / "nb", lease_seconds=2.0, think=0.0,
                         adopt=False)
    try:
        table = await a.open_table(Presence("Alice", "key-alice"), Rules(target=61),
                                   ("easy", "easy"))
        table.start("Alice")
        await until(lambda: len(table.log.events) > 3, what="the game's first events stored")
        await table.settled()
        await a.stop()  # (the table let go: open, its lease free)
        entry = await b.registry.get(table.table_id)
        data = json.loads(entry.value)
        assert data["best_of"] == 1 and data["status"] == "open"
        data["best_of"] = 7
        await b.registry.put(table.table_id, json.dumps(data).encode())
        assert await b.adopt(table.table_id) is None
        assert b.keeper.drop(table.table_id) is None  # (not kept: given back)
        other = await ClusterStore.connect(solo.url, "nc")
        try:  # (LeaseHeld were it still nb's)
            await other.release(await other.acquire(table.table_id))
        finally:
            await other.close()
    finally:
        with contextlib.suppress(Exception):  # (na stopped already)
            await a.stop()
        await b.stop()
