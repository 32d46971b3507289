"""A live duplicate event in the card room: the model (entries, seating,
boards in turn, who left, the fields) and the room playing it at its tables."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from crib3.duplicate.boards import make_boards, seat_of
from crib3.duplicate.events import DuplicateEvent
from crib3.duplicate.scoring import matchpoints, net
from crib3.engine.events import CardsDealt
from crib3.engine.log import load_log
from crib3.players.easy import EasyPlayer
from crib3.room import Room, RoomError, live_event
from crib3.room.live_event import (
    CALL_OFF,
    CALLED_OFF,
    OVER,
    PLAYING,
    WITH_COMPUTER,
    LiveEvent,
    baseline_folder,
    ensure_baseline,
    fill_name,
    stand_in_name,
    table_sizes,
)
from crib3.room.live_tables import BoardTable


def tiny(name: str = "club", boards: int = 3) -> DuplicateEvent:
    return DuplicateEvent(name, 7, "easy", make_boards(7, boards), "2026-12-06T00:00:00+00:00")


def live_of(names=(), short: str = WITH_COMPUTER) -> LiveEvent:
    live = LiveEvent(tiny(), "host", 0.0, short)
    for name in names:
        live.join(name, f"key-{name}", f"key key-{name}")
    return live


def entered(tmp_path, *names: str):
    """A room, and `names` entered in ann's tiny live event "club" (not yet started)."""
    room = Room(tmp_path / "tables", think=0)
    people = [arrive(room, name) for name in names]
    live = LiveEvent(tiny(), "ann", 0.0)
    room.events.add(live)
    live.event.folder.mkdir(parents=True)
    for presence in people:
        room.events.join("club", presence)
    return room, people, live


# --- the model -----------------------------------------------------------------------


def test_tables_are_as_few_and_as_even_as_they_go():
    assert [table_sizes(n) for n in range(1, 11)] == [
        [1], [2], [3], [2, 2], [3, 2], [3, 3], [3, 2, 2], [3, 3, 2], [3, 3, 3], [3, 3, 2, 2]]


def test_one_entry_a_person_not_two_names_from_one_key():
    live = live_of(["ann"])
    live.join("ann", "key-ann", "key key-ann")  # again: no second entry
    assert [e.name for e in live.entrants] == ["ann"]
    with pytest.raises(RoomError, match="already, as ann: one entry a person"):
        live.join("anne", "key-ann", "key key-ann")
    with pytest.raises(RoomError, match="with another key"):
        live.join("ANN", "other", "key other")
    live.begin()
    with pytest.raises(RoomError, match="entries are closed"):
        live.join("bob", "key-bob", "key key-bob")


def test_seven_people_sit_three_two_two_and_the_computer_fills_the_short_tables():
    live = live_of("abcdefg")
    assert live.begin() == ""
    assert live.seating == [["a", "b", "c"], ["d", "e", None], ["f", "g", None]]
    assert live.entries(1, 1)[2] == (fill_name(1, 2), False)


def test_too_few_people_one_line_then_the_computer_plays_or_it_is_called_off():
    live = live_of(["ann", "bob"])
    line = live.begin()
    assert line == "event club: only 2 entered; the computer plays the empty seats"
    assert live.status == PLAYING and live.seating == [["ann", "bob", None]]
    off = live_of(["ann", "bob"], short=CALL_OFF)
    assert off.begin() == "event club is called off: 2 people entered, it needs 3"
    assert off.status == CALLED_OFF and off.next_board() is None
    assert live_of([]).begin().startswith("event club is called off: 0 people")


def test_boards_come_in_turn_each_once_every_table_is_through():
    live = live_of("abcde")
    live.begin()
    assert live.next_board().number == 1
    tmp = Path("x")
    assert not live.finished(0, tmp)
    assert live.finished(1, tmp)
    assert live.next_board().number == 2
    for number in (2, 3):
        live.finished(0, tmp)
        live.finished(1, tmp)
        board = live.next_board()
        assert (board.number if board else None) == (3 if number == 2 else None)
    assert live.status == OVER


def test_who_leaves_mid_event_is_the_computer_from_that_board_on():
    live = live_of(["ann", "bob", "cat"])
    live.begin()
    live.next_board()
    live.finished(0, Path("x"))
    live.next_board()
    assert live.leaves("bob") and not live.leaves("bob")
    assert live.entries(0, 1)[1] == ("bob", True)
    assert live.entries(0, 2)[1] == (stand_in_name("bob"), False)
    assert not live.leaves("nobody")


def test_a_missing_yardstick_is_found_whole_or_not_at_all(monkeypatch):
    """Three of a node's tasks (its results read, its rating, a check)
    asking at once for an event's yardstick plays it does not have: they
    are played once, and nobody finds the boards played so far (a node's
    results once scored board 3 without two of its yardsticks)."""
    event = tiny("yard")
    seen_early: list[bool] = []
    real = live_event.play_with_bots

    def watched(*args, **kwargs):
        seen_early.append(baseline_folder(event).exists())
        return real(*args, **kwargs)
    monkeypatch.setattr(live_event, "play_with_bots", watched)
    with ThreadPoolExecutor(3) as pool:
        folders = list(pool.map(lambda _: ensure_baseline(event), range(3)))
    assert folders == [baseline_folder(event)] * 3
    assert seen_early == [False] * 9  # 3 boards x 3 slots, played once, unseen till whole
    assert len(list(baseline_folder(event).glob("*/slot-*.jsonl"))) == 9
    assert [p.name for p in event.folder.iterdir()] == ["live-baseline"]  # no scratch left


def test_it_is_kept_and_read_back(tmp_path):
    live = live_of(["ann", "bob"])
    live.begin()
    live.next_board()
    live.leaves("ann")
    again = LiveEvent.from_json(live.event, live.to_json())
    assert again == live


# --- at the room's tables ------------------------------------------------------------


def arrive(room: Room, name: str):
    return room.sign_in(name, f"key-{name}", lambda reason: None)


async def play_boards(room: Room, people, live: LiveEvent, leaver=None, limit: float = 20.0,
                      stop=lambda: False):
    """Everyone plays their seat at each board's table with random legal
    moves until the event is over (or `stop()` is true); `leaver` (name,
    board) departs as that board begins."""
    pick = EasyPlayer(random.Random(3))
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    seen: dict[str, list[tuple[int, int, frozenset]]] = {p.name: [] for p in people}
    while live.status == PLAYING and not stop():
        assert loop.time() < deadline, "the event stopped moving"
        moved = False
        for presence in people:
            if leaver is not None and presence.name == leaver[0] and live.board >= leaver[1]:
                if room.people.get(presence.name.lower()) is presence:
                    room.depart(presence)
                continue
            table = room.events.table_of(presence)
            if table is None:
                continue
            seat = table.sit(presence)
            feed = table.feed(seat)
            hand = frozenset(table.game.view(seat).hand)
            seen[presence.name].append((table.board.number, table.number, hand))
            # No board is in play anywhere but the one everyone is at.
            assert {t.board.number for t in room.tables.values()
                    if isinstance(t, BoardTable) and not t.over} <= {live.board}
            if seat in table.game.to_act() and table.seats[seat].person:
                feed.dispatch(pick.choose(table.game.view(seat)))
                moved = True
        if not moved:
            await asyncio.sleep(0.002)
    return seen


def recompute(live: LiveEvent):
    """The fields from the tables' logs alone: (board, slot) -> {who: percent}."""
    by_field: dict[tuple[int, int], dict[str, float]] = {}
    nets: dict[tuple[int, int], list[tuple[str, float]]] = {}
    for (number, table), path in live.logs.items():
        loaded = load_log(path)
        dealt = next(e for e in loaded.events if isinstance(e, CardsDealt))
        board = make_boards(7, 3)[number - 1]
        assert [tuple(sorted(h)) for h in dealt.hands] == [
            board.hand(seat_of(slot, number)) for slot in range(3)]  # the board's own cards
        scores = loaded.state.scores
        for slot, who in enumerate(live.seating[table]):
            points = [scores[(slot + k) % 3] for k in range(3)]
            name = who if who is not None and live.playing(who, number) else (
                fill_name(table, slot) if who is None else stand_in_name(who))
            nets.setdefault((number, slot), []).append((name, net(points)))
    for field, entries in nets.items():
        by_field[field] = dict(zip([w for w, _ in entries],
                                   matchpoints([n for _, n in entries])))
    return by_field


async def test_a_live_event_at_two_tables_plays_three_boards_and_scores_from_the_logs(tmp_path):
    room, people, live = entered(tmp_path, "ann", "bob", "cat", "dan", "eve")
    with pytest.raises(RoomError, match="only ann or an admin"):
        room.events.start("club", people[1])
    assert room.events.start("club", people[0]) == ""
    tables = room.events.tables["club"]
    assert [t.board.number for t in tables] == [1, 1]
    # Slot p holds board seat seat_of(p, 1): its hand is that seat's.
    board = tables[0].board
    for slot in range(3):
        assert tuple(sorted(tables[0].game.state.hands[slot])) == board.hand(seat_of(slot, 1))
    # Nobody entered may watch another table's board (they would see its cards).
    with pytest.raises(RoomError, match="may not see its cards"):
        tables[1].watch(people[0])
    seen = await play_boards(room, people, live)
    assert live.status == OVER and len(live.logs) == 6
    # Each person was only ever shown hands of the board their table played then.
    for name, views in seen.items():
        for number, _, hand in views:
            slot = live.place(name)[1]
            assert hand <= set(make_boards(7, 3)[number - 1].hand(seat_of(slot, number)))
    fields, ranking, problems = live.results()
    assert problems == []
    expected = recompute(live)
    got = {(f.board, f.slot): {s.play.who: s.percent for s in f.result.plays} for f in fields}
    assert got == expected
    assert {s.who for s in ranking} >= {"ann", "bob", "cat", "dan", "eve"}


async def test_who_leaves_mid_event_is_replaced_and_their_boards_so_marked(tmp_path):
    room, people, live = entered(tmp_path, "ann", "bob", "cat")
    room.events.start("club", people[0])
    await play_boards(room, people, live, leaver=("bob", 2))
    fields, ranking, _ = live.results()
    whos = {(f.board, s.play.who) for f in fields for s in f.result.plays}
    assert (1, "bob") in whos and (2, stand_in_name("bob")) in whos
    assert (3, stand_in_name("bob")) in whos and (2, "bob") not in whos
    bob = next(s for s in ranking if s.who == "bob")
    assert bob.boards == 1


async def test_a_restarted_room_does_not_deal_on_from_a_boards_table(tmp_path):
    room, people, live = entered(tmp_path, "ann", "bob", "cat")
    room.events.start("club", people[0])
    assert room.events.tables["club"][0].number in room.tables
    again = Room(tmp_path / "tables", think=0)
    assert again.restore() == [] and again.tables == {}  # a hand is not a game's first
    room.close()


async def test_an_event_made_beforehand_starts_at_its_time_with_who_entered(tmp_path):
    import time

    from crib3.room.live_event import new_live_event

    live = new_live_event("soon", 3, 3, "easy", "ann", time.time() + 0.5, WITH_COMPUTER)
    room = Room(tmp_path / "tables", think=0)
    people = [arrive(room, name) for name in ("ann", "bob")]  # (the room's first change)
    found = room.events.events["soon"]
    for presence in people:
        room.events.join("soon", presence)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while found.status != PLAYING:
        assert loop.time() < deadline, "the event never started"
        await asyncio.sleep(0.02)
    assert found.seating == [["ann", "bob", None]] and found.note.startswith("event soon: only 2")
    assert live.name == found.name
    room.close()


def kept(live: LiveEvent) -> None:
    """`live` as `crib3 event new --live` leaves it: its event file too."""
    import json

    live.event.folder.mkdir(parents=True, exist_ok=True)
    (live.event.folder / "event.json").write_text(json.dumps(live.event.to_json()))
    live.save()


async def test_a_room_restarted_mid_event_resumes_it_where_it_stood(tmp_path):
    """Board 1 played, board 2 under way at its table when the room stops:
    the restarted room keeps board 1 as played, deals board 2 again from
    its deal (its people seated again as they come back), and the event
    ends with the results of all three boards, as the logs make them."""
    room, people, live = entered(tmp_path, "ann", "bob", "cat")
    kept(live)
    room.events.start("club", people[0])
    first = room.events.tables["club"][0]
    await play_boards(room, people, live, stop=lambda: live.board == 2 and len(
        room.events.tables["club"][0].game.events) > 12)
    board_one = live.logs[1, 0]
    room.close()

    again = Room(tmp_path / "tables", think=0)
    assert again.restore() == []  # (a board's table is not a game to go on with)
    back = [arrive(again, name) for name in ("ann", "bob", "cat")]  # (the room's first change)
    resumed = again.events.events["club"]
    assert resumed.status == PLAYING and resumed.board == 2
    assert resumed.logs[1, 0] == board_one  # board 1 stays played
    table = again.events.tables["club"][0]
    assert table.board.number == 2 and table.number != first.number
    assert table.game.state.hand_number == 1 and not any(table.game.state.played)
    assert all(again.events.table_of(p) is table for p in back)  # back at their event table
    await play_boards(again, back, resumed)
    fields, ranking, problems = resumed.results()
    assert problems == [] and resumed.status == OVER
    assert {f.board for f in fields} == {1, 2, 3}
    got = {(f.board, f.slot): {s.play.who: s.percent for s in f.result.plays} for f in fields}
    assert got == recompute(resumed)
    assert {s.who for s in ranking if s.person} == {"ann", "bob", "cat"}
    again.close()


async def test_who_is_not_back_after_a_restart_is_replaced_in_the_rooms_patience(tmp_path):
    room, people, live = entered(tmp_path, "ann", "bob", "cat")
    kept(live)
    room.events.start("club", people[0])
    room.close()
    again = Room(tmp_path / "tables", think=0, patience=0.2)
    back = [arrive(again, name) for name in ("ann", "bob")]
    resumed = again.events.events["club"]
    table = again.events.tables["club"][0]
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while not table.seats[2].replaced:
        assert loop.time() < deadline, "cat's seat was never the computer's"
        await asyncio.sleep(0.02)
    assert not table.seats[0].replaced and resumed.left == {"cat": 1}
    await play_boards(again, back, resumed)
    assert resumed.status == OVER
    again.close()
