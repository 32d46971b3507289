"""The lobby's keys at 80x24: its `?` help names every key the lobby
binds (so a new key cannot be left out of it again), each on a line of
its own that the panel does not wrap; and the footer keeps `?` and Quit
in view whatever else is offered (an admin's keys, the computer after
the queue's wait, a table to bring back)."""

from __future__ import annotations

import re

import pytest
from rich.cells import cell_len
from tui_support import room_app, room_with_tables, screen_text, wait_for

from crib3.tui.screens.dialogs import HelpScreen
from crib3.tui.screens.lobby import ADMIN_ACTIONS, ADMIN_LINE, LobbyScreen

# How the help writes a key the lobby binds by Textual's name.
SHOWN = {"question_mark": "?", "escape": "Esc", "ctrl+q": "Ctrl+Q", "enter": "Enter"}
# A line of the help's keys: two spaces, the keys, two spaces or more, what they do.
KEY_LINE = re.compile(r"^  (\S.*?)  +\S")


def lobby_keys(admin: bool) -> set[str]:
    """Every key the lobby binds (an admin's too, for one), as the help writes it;
    and Enter, which sits you at the table chosen (the list's own key)."""
    keys = {"Enter"}
    for binding in LobbyScreen.BINDINGS:
        assert not isinstance(binding, tuple)
        if binding.action in ADMIN_ACTIONS and not admin:
            continue
        keys |= {SHOWN.get(key.strip(), key.strip()) for key in binding.key.split(",")}
    return keys


def panel_lines(text: str) -> list[str]:
    """The help panel's lines on the screen (between its sides, without
    its scrollbar's thumb)."""
    return [line.split("█")[1].rstrip().rstrip("▁▂▃▄▅▆▇").rstrip()
            for line in text.splitlines() if line.count("█") >= 2]


async def read_help(pilot) -> tuple[list[str], list[str]]:
    """The help panel's lines as it opens, and every line of it, scrolled
    from its top to its end: by
    PgDn, as a person does (it scrolls), then a panel's height at a time,
    without the scroll's animation."""
    app = pilot.app
    await pilot.press("question_mark")
    await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
    await pilot.pause()
    first = panel_lines(screen_text(app))
    panel = app.screen.query_one("VerticalScroll")
    await pilot.press("pagedown")
    await wait_for(pilot, lambda: panel.scroll_y > 0)
    seen = list(first)
    step = panel.scrollable_content_region.height - 1
    y = 0
    while y < panel.max_scroll_y:
        y = min(y + step, panel.max_scroll_y)
        panel.scroll_to(y=y, animate=False, immediate=True)
        await pilot.pause()
        seen += panel_lines(screen_text(app))
    return first, seen


@pytest.mark.parametrize("admin", [False, True], ids=["person", "admin"])
async def test_the_lobbys_help_names_every_key_the_lobby_binds_at_80x24(tmp_path, admin):
    room = room_with_tables(tmp_path)
    room.people["dan"].admin = admin
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        first, shown = await read_help(pilot)
        help_text = app.screen.help_text()
        room_width = app.screen.query_one("VerticalScroll Static").content_region.width
    # Every key line of the help is drawn whole, on a line of its own: none
    # is wrapped by the panel (its words under the key column).
    from rich.text import Text

    key_lines = [Text.from_markup(line).plain.rstrip() for line in help_text.splitlines()
                 if KEY_LINE.match(line)]
    drawn = [line.strip() for line in shown]
    missing = [line for line in key_lines if line.strip() not in drawn]
    assert not missing, (missing, shown)
    # The help at a table has the same panel: its key lines fit it too.
    from crib3.tui.screens.watch import RoomHelpScreen

    at_a_table = [Text.from_markup(line).plain.rstrip()
                  for line in RoomHelpScreen(admin).help_text().splitlines()
                  if KEY_LINE.match(line)]
    assert all(cell_len(line) <= room_width for line in at_a_table), \
        [line for line in at_a_table if cell_len(line) > room_width]
    # The lobby's part (up to the table's) names every key the lobby binds.
    lobby_part = help_text.split("[b]At a table[/b]")[0]
    named: set[str] = set()
    for line in lobby_part.splitlines():
        found = KEY_LINE.match(line)
        if found:
            named |= {key for part in found[1].split(", ") for key in part.split("/")}
    named |= {"↑", "↓"}
    assert lobby_keys(admin) <= named, sorted(lobby_keys(admin) - named)
    if not admin:  # a person's lobby keys are all in view as the help opens
        opened = "\n".join(first)
        assert all(f"  {key}  " in opened or f"{key}, " in opened or f", {key} " in opened
                   for key in lobby_keys(admin) if key not in ("↑", "↓")), opened


def footer_of(app) -> str:
    return screen_text(app).splitlines()[-1]


async def test_the_footer_keeps_help_and_quit_at_80x24_with_every_key_offered(tmp_path):
    """An admin in the play-now queue past its wait, with a table to bring
    back: every key the lobby could offer at once, and ? and Quit still
    in the footer; the admin's keys on their own line above it."""
    room = room_with_tables(tmp_path)
    dan = room.people["dan"]
    dan.admin = True
    assert room.play_now is not None
    room.play_now.matcher.wait = 0.0  # the computer offered at once
    room.shelved_for = lambda presence: 1  # type: ignore[method-assign]
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        await pilot.press("p")
        await wait_for(pilot, lambda: "c plays the computer" in screen_text(app))
        screen = app.screen
        assert screen.check_action("computer", ()) and screen.check_action("bring_back", ())
        await pilot.pause()
        footer = footer_of(app)
        assert "? Help" in footer and "q Quit" in footer and "c Computer" in footer, footer
        assert ADMIN_LINE in screen_text(app)
        await pilot.press("escape")  # out of the queue: p is back
        await wait_for(pilot, lambda: "p Play now" in footer_of(app))
        footer = footer_of(app)
        assert "? Help" in footer and "q Quit" in footer, footer


async def test_a_persons_lobby_has_no_admin_line(tmp_path):
    room = room_with_tables(tmp_path)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert "Admin:" not in screen_text(app) and not app.screen.query_one("#admin").display
        assert not any(app.screen.check_action(a, ()) for a in ADMIN_ACTIONS)


def test_the_rooms_help_names_no_palette_key_it_has_none():
    """Ctrl+P opens nothing in the card room (no palette there): its help,
    at a table as in the lobby, does not offer it; the local game's does."""
    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.screens.dialogs import HELP_TEXT
    from crib3.tui.screens.watch import RoomHelpScreen

    assert not CardRoomApp.ENABLE_COMMAND_PALETTE
    for admin in (False, True):
        for lobby in (False, True):
            assert "Ctrl+P" not in RoomHelpScreen(admin, lobby).help_text()
    assert "Ctrl+P" in HELP_TEXT
