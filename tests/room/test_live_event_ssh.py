"""A live duplicate event over real SSH: four people enter from the lobby,
sit two to a table with the computer, play three boards, and the results
are those an independent recomputation makes from the tables' logs; no
byte sent to anyone holds a card hidden from them, board after board."""

from __future__ import annotations

import asyncio

import asyncssh
import pytest
from ssh_support import Client, plain, serving, until
from test_ssh import hidden_from, seen_by

from crib3.cards import DECK
from crib3.duplicate.boards import seat_of
from crib3.engine import State, apply
from crib3.engine.events import CardsDealt
from crib3.engine.log import load_log
from crib3.room.live_event import OVER, PLAYING, fill_name

pytestmark = pytest.mark.slow

NAMES = ("ann", "bob", "cat", "dan")
STILL = 30.0  # seconds without a move anywhere: the event is stuck


def record_writes(monkeypatch, workers: int = 1, room=None):
    """Every write to each person: (name, the board table on their screen
    or None, how many of its events that screen had shown, the text).

    With session workers the screens run in other processes: each write is
    taken where the main process relays it, with the board table the person
    sits at then (the last one they sat at, between boards) and how many
    events its game had: their screen had shown no more than that."""
    from crib3.net.driver import ChannelDriver
    from crib3.net.workers import RemoteSession
    from crib3.tui.screens.live_event import LiveBoardScreen

    sent: list[tuple[str, int | None, int, str]] = []
    if workers == 1:
        write = ChannelDriver.write

        def keep(driver: ChannelDriver, data: str) -> None:
            app = driver._app
            tables = [s for s in app.screen_stack if isinstance(s, LiveBoardScreen)]
            top = tables[-1] if tables else None
            sent.append((app.presence.name, top.table.number if top else None,
                         top.presented if top else 0, data))
            write(driver, data)

        monkeypatch.setattr(ChannelDriver, "write", keep)
        return sent
    output = RemoteSession.output
    last: dict[str, int] = {}

    def relayed(remote: RemoteSession, data: bytes) -> None:
        table = None
        for tables in room.events.tables.values():
            table = next((t for t in tables if t.seat_of(remote.name) is not None), table)
        if table is not None:
            last[remote.name] = table.number
        number = last.get(remote.name)
        found = room.tables.get(number) if number is not None else None
        found = found if found is not None else table
        shown = len(found.game.events) if found is not None and found.game is not None else 0
        sent.append((remote.name, number, shown, data.decode("utf-8", "replace")))
        output(remote, data)

    monkeypatch.setattr(RemoteSession, "output", relayed)
    return sent


def independent_results(live) -> dict[tuple[int, int], dict[str, float]]:
    """(board, slot) -> {who: matchpoints %}, from the logs alone: each slot's
    net (its points less the mean of the others'), compared with everyone in
    the same slot at every table and the computer's yardstick play."""
    nets: dict[tuple[int, int], list[tuple[str, float]]] = {}

    def add(number: int, slot: int, who: str, scores, first: int) -> None:
        mine, left, right = (scores[(first + k) % 3] for k in range(3))
        nets.setdefault((number, slot), []).append((who, mine - (left + right) / 2))

    for (number, table), path in live.logs.items():
        loaded = load_log(path)
        dealt = next(e for e in loaded.events if isinstance(e, CardsDealt))
        board = live.boards[number - 1]
        assert [tuple(sorted(h)) for h in dealt.hands] == [
            board.hand(seat_of(slot, number)) for slot in range(3)]
        for slot, who in enumerate(live.seating[table]):
            add(number, slot, who if who is not None else fill_name(table, slot),
                loaded.state.scores, slot)
    for path in sorted((live.event.folder / "live-baseline").glob("*/slot-*.jsonl")):
        number, slot = int(path.parent.name), int(path.stem.split("-")[1])
        add(number, slot, f"computer ({live.event.level})", load_log(path).state.scores, 0)
    out = {}
    for key, entries in nets.items():
        out[key] = {who: 100 * sum(1.0 if n > o else 0.5 if n == o else 0.0
                                   for j, (_, o) in enumerate(entries) if j != i)
                    / max(1, len(entries) - 1) if len(entries) > 1 else 50.0
                    for i, (who, n) in enumerate(entries)}
    return out


def no_card_leaked(sent, live, exact: bool) -> tuple[int, int]:
    """Each write of `sent` (`record_writes`) searched for the cards hidden
    from its person at that point of their board (`live`'s logs); a write
    made away from a board's table for any card at all. (How much was
    checked, and how many writes held one of the person's own cards.)"""
    tables = {}
    for (number, index), path in live.logs.items():
        events = load_log(path).events
        run = [State()]
        for event in events:
            run.append(apply(run[-1], event))
        tables[path] = (number, index, run)
    by_number = {int(path.stem.split("-")[1]): found for path, found in tables.items()}
    labels = {c.label() for c in DECK}
    checked = own = 0
    for name, number, shown, data in sent:
        text = plain(data)
        if number is None:
            assert not [c for c in labels if c in text], (name, text[:200])
            continue
        board, index, run = by_number[number]
        slot = live.seating[index].index(name)
        state = run[min(shown, len(run) - 1)]
        hidden = hidden_from(state, slot)
        if not exact:  # (see record_writes) what they may have on screen is taken out
            hidden -= seen_before(run[:shown + 1], slot)
            before = [r for b, i, r in by_number.values() if b == board - 1 and i == index]
            for earlier in before:  # their screen may still show the board before
                hidden -= seen_before(earlier, slot)
        leaked = [c.label() for c in hidden if c.label() in text]
        assert not leaked, (name, board, shown, leaked)
        checked += len(data)
        own += any(c.label() in text for c in run[-1].kept[slot])
    return checked, own


def seen_before(run, slot: int) -> set:
    """Every card slot `slot` may have had on screen in any of the states of
    `run`: face up, or its own."""
    return {c for state in run for c in seen_by(state, slot)}


async def test_four_people_play_a_live_event_of_three_boards_at_two_tables(tmp_path,
                                                                            monkeypatch,
                                                                            room_workers):
    """(With session workers, every screen, call and board's feed crosses
    the wire between the main process and two worker processes.)"""
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in NAMES}
    authorized = tmp_path / "authorized_keys"
    authorized.write_text("".join(k.export_public_key().decode() for k in keys.values()))
    async with serving(tmp_path, keys=authorized, workers=room_workers) as server:
        room = server.room
        sent = record_writes(monkeypatch, room_workers, room)
        clients = [await Client.connect(server.port, name, key=keys[name]) for name in NAMES]
        for client in clients:
            await client.shows("Open a table")
            client.press("e")
            await client.shows("Live duplicate events")
        host = clients[0]
        host.press("n")
        await until(lambda: room.events.events, timeout=15, what="the event made")
        live = next(iter(room.events.events.values()))
        for count, client in enumerate(clients, start=1):  # (seated in the order entered)
            await client.shows(live.name)
            client.press("j")
            await until(lambda count=count: len(live.entrants) == count, what="entered")
        # dan again under another name, with the same key: one entry a person.
        twin = await Client.connect(server.port, "danny", key=keys["dan"])
        await twin.shows("Open a table")
        twin.press("e")
        await twin.shows(live.name)
        twin.press("j")
        await twin.shows("one entry a person")
        twin.close()
        clients[1].press("s")
        await clients[1].shows("or an admin can start")  # only the host (or an admin)
        host.press("s")
        await until(lambda: live.status == PLAYING, what="the start")
        assert live.seating == [["ann", "bob", None], ["cat", "dan", None]]
        loop = asyncio.get_running_loop()
        # Stuck: no move at any table for STILL seconds (a busy machine is
        # slow, not stuck); and the whole event within a bound, whatever
        # the pace.
        deadline, moved, still_since = loop.time() + 300, None, loop.time()
        while live.status != OVER:
            tables = room.events.tables.get(live.name, [])
            moves = (live.board, [len(t.game.events) for t in tables])
            if moves != moved:
                moved, still_since = moves, loop.time()
            assert loop.time() < min(deadline, still_since + STILL), (
                f"the event is stuck at board {live.board}",
                [(t.number, t.over, t.game.to_act(), t.online, t.game.state.phase)
                 for t in tables],
                [plain(c.terminal.text())[-300:] for c in clients])
            for client in clients:
                client.press("\r")
            await asyncio.sleep(0.05)  # (20 keys a second: the door closes past 30)
        still_since = loop.time()
        while "Ranking" not in host.terminal.text()[-3000:]:  # through the last show
            assert loop.time() < min(deadline, still_since + STILL), (
                "the results never came", plain(host.terminal.text())[-300:])
            host.press("\r")
            await asyncio.sleep(0.05)
        fields, ranking, problems = live.results()
        for client in clients:
            client.close()

    assert problems == [] and len(live.logs) == 6
    got = {(f.board, f.slot): {s.play.who: s.percent for s in f.result.plays} for f in fields}
    assert got == independent_results(live)
    assert {s.who for s in ranking if s.person} == set(NAMES)

    # No write held a card hidden from its person at that point of their
    # board; none made away from a board's table held a card at all.
    checked, own = no_card_leaked(sent, live, exact=room_workers == 1)
    assert checked > 10_000
    assert own > 0  # and the check can fail: a person's own cards are found in what they see
