"""A hostile stranger's key bursts against the table's one-key dialogs:
keys that arrive together (a paste, a held key, a flood) all reach a dialog
that closes on any key before the first has closed it, and only that one
may close it (the next ones closed the screens under it, and with the last
one the session failed)."""

from __future__ import annotations

from textual import events
from tui_support import room_app, wait_for

from crib3.room import Room
from crib3.room.results import Results
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.looking_back import LastCountScreen
from crib3.tui.screens.table import TableScreen


async def test_a_burst_of_keys_on_the_last_count_closes_it_once(tmp_path):
    room = Room(tmp_path / "tables", think=3600, results=Results(tmp_path / "ratings"))
    mal, mel, mil = (room.sign_in(n, None, lambda why: None, address="10.1.1.1")
                     for n in ("Mal", "Mel", "Mil"))
    assert room.play_now is not None
    room.play_now.join(mel)
    room.play_now.join(mil)
    app = room_app(room, "Mal")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("p")  # seated by the queue
        await wait_for(pilot, lambda: isinstance(app.screen, TableScreen))
        table = app.screen
        await pilot.press("p")  # the last count
        await wait_for(pilot, lambda: isinstance(app.screen, LastCountScreen))
        for key in "xyz":  # in one burst, as a terminal's bytes come
            app.post_message(events.Key(key, key))
        await wait_for(pilot, lambda: app.screen is table)
        await pilot.pause()
        assert app.screen is table and app.is_running
        await pilot.press("p")  # it opens again
        await wait_for(pilot, lambda: isinstance(app.screen, LastCountScreen))
    room.close()
