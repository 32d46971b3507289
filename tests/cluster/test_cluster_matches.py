"""A match on a cluster (crib3.cluster.hosted, node, verify) against a real
NATS server: its games go one after another on the table's stream; a node
adopting the table rebuilds the match, in the middle of a game and between
two; the match, not its games, is rated, once, alike on every node and in
a rebuild; each of its games is copied for My games."""

from __future__ import annotations

import asyncio
import contextlib
import json

import pytest
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


async def test_a_rated_match_adopted_mid_game_and_between_games_is_rated_once(
        solo, tmp_path):
    """Node ma hosts a best of 3 and dies in the middle of its first game:
    mb adopts it there, the game going on where it stood; mb stops between
    the first game and the second (paused: its lease runs out), and mc
    adopts it with the first game's win kept and begins the second. The
    match, won, moves Alice's rating once, on mb and mc alike, as a rebuild
    from the stream does; mc copies each of its games for My games."""
    from crib3.cluster.results import fold_the_stream, match_table_result

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
        b.node.pause()  # (its lease runs out: as if its process stopped)
        c = await start(solo, tmp_path, "mc")
        rooms.append(c)
        at_c = await hosted(c, number, "node mc adopting the match between two games")
        assert at_c.match.games == (first,) and not at_c.over
        await play(at_c, lambda t: t.match.over)
        assert len(at_c.match.games) >= 2
        # Rated once, as a match, on every node still folding the stream.
        record = await c.node.store.read(str(number))
        assert len(record.all_games()) == len(at_c.match.games)
        for room in (b, c):
            await until(lambda room=room: room.results.skill("ssh SHA256:alice") is not None,
                        seconds=30, what=f"node {room.node.name} folding the match's result")
        assert c.results.skill("ssh SHA256:alice").games == 1
        assert b.results.skills() == c.results.skills()
        result = match_table_result(at_c)
        assert result.game.startswith(MATCH) and c.results.has(result.game)
        assert b.results.count() == c.results.count() == 1  # (the match, not its games)
        # Told again (a node adopting it as it ended): nothing moves twice.
        c.match_over(at_c)
        assert not await c.cluster_results.record(result)
        await b.cluster_results.catch_up(), await c.cluster_results.catch_up()
        assert b.results.skill("ssh SHA256:alice").games == 1
        assert b.results.skills() == c.results.skills()
        store = await ClusterStore.connect(solo.url, "rebuilder", make=False)
        try:
            book = Results(tmp_path / "rebuilt")
            assert await fold_the_stream(store, book) == 0
        finally:
            await store.close()
        assert book.skills() == c.results.skills()
        # My games: each of its games, as one machine puts a match away.
        away = c.finished.away
        await until(lambda: (away / f"table-{number}-game-{len(at_c.match.games)}.jsonl")
                    .is_file(), seconds=30, what="node mc copying the match's games")
        seats = json.loads((away / f"table-{number}.json").read_text(encoding="utf-8"))
        assert seats["best_of"] == 3 and not (away / f"table-{number}.jsonl").exists()
    finally:
        for room in rooms:
            room.close()
            with contextlib.suppress(Exception):  # (ma's connection is closed already)
                await room.stop()
