"""A hostile stranger against the room's live events (`crib3.room.live_tables`,
the lobby's `e`): anyone may make an event (`n`), and each costs its boards,
the computer's nine yardstick games and a folder kept for good, so making
them is paced as opening tables is."""

from __future__ import annotations

import itertools

from tui_support import room_app, wait_for

from crib3.common.rates import TokenBucket
from crib3.room import Room
from crib3.tui.screens.live_event import LiveEventScreen
from crib3.tui.screens.lobby import LobbyScreen


class Clock:
    """`time` for the events screen: each event made ten seconds after the last
    (its name is the second it starts: two in one second would share one)."""

    def __init__(self) -> None:
        self.ticks = itertools.count(2_000_000_000, 10)

    def time(self) -> float:
        return float(next(self.ticks))


async def test_a_stranger_pressing_n_again_and_again_makes_three_events(tmp_path, monkeypatch):
    from crib3.room import live_event
    from crib3.room import room as room_module
    from crib3.tui.screens import live_event as screen_module

    monkeypatch.setattr(room_module, "TokenBucket",
                        lambda rate, burst: TokenBucket(rate, burst, clock=lambda: 1000.0))
    monkeypatch.setattr(screen_module, "time", Clock())
    monkeypatch.setattr(live_event, "play_baseline", lambda event, folder: None)  # (quick)
    room = Room(tmp_path / "tables", think=3600)
    room.sign_in("Eve", None, lambda r: None, address="10.0.0.66")
    app = room_app(room, "Eve")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("e")
        await wait_for(pilot, lambda: isinstance(app.screen, LiveEventScreen))
        screen = app.screen
        for made in range(1, 4):
            await pilot.press("n")
            await wait_for(pilot, lambda made=made: len(room.events.events) == made
                           and not screen._making)
        for _ in range(3):
            await pilot.press("n")
            await pilot.pause()
            assert not screen._making
        said = [str(n.message) for n in app._notifications]
        assert said[-1].startswith(f"you made {room_module.OPENS_AT_ONCE} events just now: "
                                   "you may make another in "), said
    assert len(room.events.events) == 3
    room.close()


def test_the_result_sheet_lines_up_whatever_the_entrants_names(tmp_path):
    # Names the room takes at sign-in, drawn at other widths than their
    # length: wide letters, a combining mark; and markup, as typed.
    from rich.cells import cell_len

    from crib3.duplicate.boards import make_boards, seat_of
    from crib3.duplicate.events import DuplicateEvent
    from crib3.duplicate.play import play_with_bots
    from crib3.engine.log import write_log
    from crib3.room.live_event import OVER, LiveEvent, sheet_lines

    names = ["李" * 30, "Zoe\u0308", "[bold red]loud[/]", "田中 Taro", "ひらがなカナ漢字", "Dan"]
    event = DuplicateEvent("club", 7, "easy", make_boards(7, 3), "2026-12-06T00:00:00+00:00")
    live = LiveEvent(event, "Dan", 2_000_000_000.0)
    for name in names:
        live.join(name, None, None)
    live.status, live.board, live.seating = OVER, 3, [names[:3], names[3:]]
    for board in event.boards:
        for table in range(2):
            game = play_with_bots(board, seat_of(0, board.number), ("easy", "easy", "easy"),
                                  salt=f"wide {table}")
            path = tmp_path / f"board-{board.number}-{table}.jsonl"
            write_log(path, game.events, event.header(board.number, names[3 * table], "test"))
            live.logs[board.number, table] = path
    fields, ranking, problems = live.results()
    assert problems == [] and len(ranking) == 6
    lines = sheet_lines(live, fields, ranking)
    ranked = lines[lines.index("Ranking") + 1:lines.index("Ranking") + 8]
    assert {cell_len(line) for line in ranked} == {cell_len(ranked[0])}, ranked
    heading = next(i for i, line in enumerate(lines) if line.startswith("Board 1, seat 1"))
    field = lines[heading + 1:heading + 4]  # its heading and two tables' plays
    assert {cell_len(line) for line in field} == {cell_len(field[0])}, field
    assert any("[bold red]loud[/]" in line for line in ranked)


def test_opening_the_events_screen_reads_a_finished_event_once(tmp_path, monkeypatch):
    # Every `e` looks for events made meanwhile in the data folder, and
    # events are kept for good: the ones over (or called off) must not be
    # read again at each press, nor an unreadable one said again each time.
    import json
    import logging

    from crib3.duplicate.boards import make_boards
    from crib3.duplicate.events import DuplicateEvent
    from crib3.room import live_tables
    from crib3.room.live_event import CALLED_OFF, LiveEvent

    for number in range(20):
        event = DuplicateEvent(f"old-{number}", number, "easy", make_boards(number, 3), "")
        event.folder.mkdir(parents=True)
        (event.folder / "event.json").write_text(json.dumps(event.to_json()), encoding="utf-8")
        live = LiveEvent(event, "Eve", 2_000_000_000.0)
        live.status = CALLED_OFF
        live.save()
    broken = DuplicateEvent("broken", 1, "easy", make_boards(1, 3), "")
    broken.folder.mkdir(parents=True)
    (broken.folder / "live.json").write_text("{", encoding="utf-8")
    (broken.folder / "event.json").write_text(json.dumps(broken.to_json()), encoding="utf-8")
    reads: list[str] = []
    load_event = live_tables.load_event

    def counted(name: str):
        reads.append(name)
        return load_event(name)

    monkeypatch.setattr(live_tables, "load_event", counted)
    room = Room(tmp_path / "tables", think=3600)
    said: list[str] = []

    class Said(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said.append(record.getMessage())

    handler = Said()
    logging.getLogger("crib3.serve").addHandler(handler)
    try:
        for _ in range(10):  # ten presses of e
            room.events.find()
    finally:
        logging.getLogger("crib3.serve").removeHandler(handler)
    assert room.events.events == {}
    assert sorted(set(reads)) == sorted(["broken"] + [f"old-{n}" for n in range(20)])
    assert len(reads) <= 21 + 10  # each once; the unreadable one looked at again
    assert len([line for line in said if "broken" in line]) == 1
    room.close()
