"""A hostile stranger against the lobby's record views (`crib3.tui.screens.
my_games`, players, profile): a game made huge on purpose (friendly
muggins refuses an over-claim at no cost, as often as it is made, and each
refusal is a line of the log) is not read back whole into the process every
session of it shares, nor put on a clipboard by the megabyte; and paging
floods cost a page's read each."""

from __future__ import annotations

import os
import random

from records_support import ENDED, room_with_record
from tui_support import room_app, wait_for

from crib3.engine import Count, Game, PlayerInfo, Rules
from crib3.engine.log import make_header, private_folder, write_log
from crib3.players.easy import EasyPlayer
from crib3.room.records import READ_BACK_MOST
from crib3.room.seats import Seat
from crib3.room.storage import TableFiles, put_away_folder
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.my_games import MyGamesScreen

CLAIMS = 600  # over-claims before each honest count: a log past the bound


def huge_game(tables, number: int, seats: list[Seat]) -> int:
    """A finished game of table `number` (put away as the room does) whose
    person in seat 0 over-claimed `CLAIMS` times at every count of theirs
    before counting right. The size of its log."""
    rules = Rules(target=61, muggins=True)
    game = Game.new([PlayerInfo("P0", "human"), PlayerInfo("P1", "easy"),
                     PlayerInfo("P2", "easy")], rules, seed=5)
    pickers = [EasyPlayer(random.Random(5 + i)) for i in range(3)]
    while not game.over:
        seat = game.to_act()[0]
        view = game.view(seat)
        if seat == 0 and isinstance(view.legal[0], Count):
            for _ in range(CLAIMS):
                game.dispatch(Count(0, 29))
        game.dispatch(pickers[seat].choose(game.view(seat)))
    files = TableFiles(put_away_folder(tables), number)
    private_folder(files.folder)
    write_log(files.log_path, game.events, make_header(source="crib3 serve", table=number))
    files.save_seats(seats[0].name or "host", rules, seats, status="closed", rated=False)
    os.utime(files.log_path, (ENDED + 30 * 86400, ENDED + 30 * 86400))
    return files.log_path.stat().st_size


async def test_a_huge_game_is_neither_read_back_nor_copied_whole(tmp_path):
    room = room_with_record(tmp_path)
    dan = Seat("Dan", "SHA256:dan")
    size = huge_game(room.folder, 7, [dan, Seat(None, None, "easy"), Seat(None, None, "easy")])
    assert size > READ_BACK_MOST
    room.sign_in("Dan", "SHA256:dan", lambda why: None)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("g")
        await wait_for(pilot, lambda: isinstance(app.screen, MyGamesScreen)
                       and app.screen.loaded)
        mine = app.screen
        assert mine.games[0].number == 7  # the newest, highlighted
        await pilot.press("e")
        await wait_for(pilot, lambda: any("too long" in str(n.message)
                                          for n in app._notifications))
        assert app.clipboard == ""  # nothing copied
        await pilot.press("enter")
        await wait_for(pilot, lambda: sum("too long" in str(n.message)
                                          for n in app._notifications) == 2)
        assert app.screen is mine  # no replay opened
        said = [str(n.message) for n in app._notifications if "too long" in str(n.message)]
        assert str(room.folder) not in said[0]  # (the server's paths are its own)
        await pilot.press("down", "e")  # an ordinary game is copied as ever
        await wait_for(pilot, lambda: bool(app.clipboard))
        assert len(app.clipboard) < READ_BACK_MOST
    room.close()


def test_my_games_pressed_in_many_sessions_at_once_reads_each_game_once(tmp_path, monkeypatch):
    # The first look reads every finished game's files (then they are
    # kept): `g` pressed in many sessions at once (or Esc, g, Esc, g...)
    # while it runs must not read them all once for each, each in a thread,
    # nor trip over the other threads' bookkeeping.
    import threading
    import time

    from crib3.room import records as records_module
    from crib3.room.records import Records

    tables = tmp_path / "tables"
    away = put_away_folder(tables)
    away.mkdir(parents=True)
    for number in range(1, 101):
        (away / f"table-{number}.jsonl").write_text("")
    reads: list[str] = []

    def slow_games_in(log_path, ended):
        reads.append(log_path.name)
        time.sleep(0.002)  # (a disk's read)
        return ()

    monkeypatch.setattr(records_module, "_games_in", slow_games_in)
    records = Records(None, tables)
    start = threading.Barrier(8)
    failed: list[BaseException] = []

    def look() -> None:
        try:
            start.wait(30)  # (all at once; a thread that never came breaks it)
            records.finished("ssh SHA256:dan")
        except BaseException as exc:  # noqa: BLE001 (any failure fails the test)
            failed.append(exc)

    threads = [threading.Thread(target=look) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert not [t for t in threads if t.is_alive()], "a look at the records never ended"
    assert failed == []
    assert len(reads) == 100 and len(set(reads)) == 100
