"""A live event's screens: the table's heading names the board ("Board 1 of
3", not "Hand 1"), and from the events screen any table's play of a board
is replayed step by step once the board is over at every table, refused
before that; as SVG snapshots at 80x24."""

from __future__ import annotations

import pytest
from snapshot_support import screen_svg
from test_live_event_screens import LATER, played_event, seated_dan, to_the_events
from tui_support import room_app, room_with_tables, screen_text, wait_for

from crib3.duplicate.boards import make_boards
from crib3.duplicate.events import DuplicateEvent
from crib3.room import RoomError
from crib3.room.event_replays import last_over, replay_log, table_plays
from crib3.room.live_event import LiveEvent
from crib3.tui.screens.live_event import LiveBoardScreen, LiveEventScreen
from crib3.tui.screens.replay import ReplayScreen
from crib3.tui.screens.table_plays import TablePlaysScreen


def two_tables_at_board_2(tmp_path) -> LiveEvent:
    """Six people at two tables: board 1 over at both, board 2 over at
    table 1 only (table 2 still plays it)."""
    live = LiveEvent(DuplicateEvent("club", 7, "easy", make_boards(7, 3), ""), "ann", LATER)
    for name in ("ann", "bob", "cat", "dan", "eve", "fay"):
        live.join(name, f"key-{name}", f"key key-{name}")
    live.begin()
    for board in (1, 2):
        live.next_board()
        for table in (0, 1):
            path = tmp_path / f"b{board}-t{table}.jsonl"
            path.write_text("{}\n")
            live.started_at(table, path)
    live.finished(0, tmp_path / "b2-t0.jsonl")
    return live


def test_a_board_is_replayed_once_over_at_every_table_refused_before(tmp_path):
    live = two_tables_at_board_2(tmp_path)
    assert last_over(live) == 1
    assert [(p.board, p.table) for p in table_plays(live)] == [(1, 0), (1, 1)]
    assert table_plays(live)[1].names == ("dan", "eve", "fay")
    assert replay_log(live, 1, 1) == tmp_path / "b1-t1.jsonl"
    # Board 2: table 1 is through it, table 2 is not: neither table's play is shown.
    for table in (0, 1):
        with pytest.raises(RoomError, match="board 2 of event club is still being played"):
            replay_log(live, 2, table)
    with pytest.raises(RoomError, match="no board 3 at table 3"):
        replay_log(live, 3, 2)
    live.finished(1, tmp_path / "b2-t1.jsonl")  # now every table is through board 2
    assert last_over(live) == 2 and replay_log(live, 2, 0) == tmp_path / "b2-t0.jsonl"


async def test_the_events_screen_offers_only_boards_over_everywhere(tmp_path):
    room = room_with_tables(tmp_path)
    live = two_tables_at_board_2(tmp_path)
    live.entrants = []  # (Dan only looks: he is in no event)
    room.events.add(live)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_the_events(pilot)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, TablePlaysScreen))
        text = screen_text(app)
        assert "Board 1 of 3" in text and "table 2: dan, eve, fay" in text
        assert "Board 2 of 3 is being played" in text and "Board 2 of 3\n" not in text


async def test_any_tables_board_is_replayed_step_by_step(svg_snapshot, tmp_path):
    room = room_with_tables(tmp_path)
    room.events.add(played_event(tmp_path))

    async def replays(pilot) -> None:
        await to_the_events(pilot)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, TablePlaysScreen))
        await pilot.press("down", "down")

    assert await screen_svg(lambda: room_app(room, "Dan"), (80, 24), setup=replays) \
        == svg_snapshot
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await replays(pilot)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, TablePlaysScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveEventScreen))


async def test_the_tables_heading_names_the_board_not_the_hand(svg_snapshot, tmp_path):
    room = seated_dan(tmp_path)

    async def seated(pilot) -> None:
        await wait_for(pilot, lambda: isinstance(pilot.app.screen, LiveBoardScreen))
        await wait_for(pilot, lambda: "Enter: go on" in screen_text(pilot.app))
        await pilot.press("enter")  # on from the board's cut, to its deal
        await wait_for(pilot, lambda: "Board 1 of 3 · Dan deals" in screen_text(pilot.app))

    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await seated(pilot)
        assert "Hand 1 ·" not in screen_text(app)  # (the heading's form: "Hand 1 · Dan deals")
        # Nor the words: the feed and the lines under the table.
        assert "Board 1. Dan shuffles and deals." in screen_text(app)
        assert "Board 1. Dan shuffles and deals." in app.screen.narration
        assert not any("Hand 1" in line for line in app.screen.narration)
    assert await screen_svg(lambda: room_app(room, "Dan"), (80, 24), setup=seated) \
        == svg_snapshot


def test_an_events_results_are_computed_once_a_board_for_every_screen(tmp_path, monkeypatch):
    from crib3.room.event_results import results_of

    live = two_tables_at_board_2(tmp_path)
    computed = []
    monkeypatch.setattr(LiveEvent, "results", lambda self: computed.append(1) or ([], [], []))
    first = results_of(live)
    assert results_of(live) is first and len(computed) == 1  # ninety screens: once
    live.finished(1, tmp_path / "b2-t1.jsonl")
    live.next_board()  # board 2 over everywhere: its results are new
    assert results_of(live) is not first and len(computed) == 2
