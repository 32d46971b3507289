"""The lobby's "Players" and "My games" views (crib3.tui.screens.players,
profile, my_games) at 80x24: the leaderboard a page at a time with your
place, odd names at the right width and never as markup, a profile with
its chart, your finished games replayed with the coach or exported; as
snapshots, and over real SSH with the sessions in a worker process."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from records_support import rated_crowd, room_with_record
from rich.cells import cell_len
from snapshot_support import screen_svg
from tui_support import room_app, screen_text, wait_for

from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.my_games import MyGamesScreen
from crib3.tui.screens.players import PlayersScreen, ordinal
from crib3.tui.screens.profile import ProfileScreen
from crib3.tui.screens.replay import ReplayScreen

DAN = "ssh SHA256:dan"
AFTER = datetime(2026, 12, 1, tzinfo=UTC)
CROWD = ["Dan"] + [f"Player {n}" for n in range(1, 13)]

# Every name of crib3.common.lookalikes' tests (those it takes and those it
# refuses: a results line is text from a file), markup, and the longest.
ODD_NAMES = ["alice", "Ζωή", "Алиса", "李Lee", "田中 Taro", "ひらがなカナ漢字", "김 Kim", "Zoë-2",
             "🃏 Joker", "O'Neil", "陳大文 Bopoㄅㄆ", "\u0430lice",
             "\u0455\u0441\u043e\u0440\u0435",
             "Zoe\u0308", "bob\u0358", "\u1d00\u0274\u0274", "\u3164", "ann\u3164", "a\u115fb",
             "a\u034fb", "ann\ufe0f", "ann\U000e0100", "ann\u200b", "👨\u200d👩", "ann\u2060",
             "👍\U0001f3fd", "\U0001f1eb\U0001f1f7", "evil\u202eoops", "tab\there",
             "esc\x1b[31mred", "[bold red]loud[/]", "W" * 60, "李" * 30]


def dans_room(tmp_path, names=CROWD, games: int = 120):
    """Dan's record (six finished games) in a room whose board has `names`
    on it, Dan the first of them; signed in with his key."""
    room = room_with_record(tmp_path)
    assert room.results is not None
    rated_crowd(room.results, names, games, identities=[DAN])
    room.records.clock = lambda: AFTER
    room.sign_in("Dan", "SHA256:dan", lambda why: None)
    return room


async def to_players(pilot) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))
    await pilot.press("s")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, PlayersScreen))


async def to_my_profile(pilot) -> None:
    await to_players(pilot)
    await pilot.press("i")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, ProfileScreen))


async def to_the_top_of_the_board(pilot) -> None:
    await to_players(pilot)
    await pilot.press("pageup")
    await wait_for(pilot, lambda: pilot.app.screen.page == 0)


async def to_my_games(pilot) -> None:
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, LobbyScreen))
    await pilot.press("g")
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, MyGamesScreen)
                   and pilot.app.screen.loaded)


async def test_the_board_opens_on_your_page_and_pages_and_opens_profiles(tmp_path):
    room = dans_room(tmp_path)
    place = room.records.place_of(DAN)
    assert place is not None
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_players(pilot)
        shown = screen_text(app)
        assert f"{ordinal(place)} of {room.records.size()}." in shown
        assert "Dan" in shown and f"page {(place - 1) // 10 + 1} of 2" in shown
        screen = app.screen
        assert isinstance(screen, PlayersScreen)
        await pilot.press("pagedown", "pagedown")  # the last page, and no further
        assert screen.page == 1 and "page 2 of 2" in screen_text(app)
        await pilot.press("pageup")
        assert screen.page == 0 and [r.place for r in screen.shown] == list(range(1, 11))
        await pilot.press("down", "enter")  # the second on the board
        await wait_for(pilot, lambda: isinstance(app.screen, ProfileScreen))
        assert app.screen.profile.identity == screen.shown[1].identity
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))


async def test_a_profile_has_the_figures_and_a_labelled_chart(tmp_path):
    room = dans_room(tmp_path)
    profile = room.records.profile(DAN)
    assert profile is not None
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_my_profile(pilot)
        await pilot.pause()
        shown = screen_text(app)
    first, second, third = profile.places
    assert f"Rating {profile.skill.label} (±{profile.skill.deviation})" in shown
    assert f"{profile.skill.games} rated games" in shown
    assert f"1st {first} · 2nd {second} · 3rd {third}" in shown
    assert f"average {profile.average:.1f} points · best hand {profile.best}" in shown
    assert "Rating over time" in shown and "rating" in shown
    assert "rated games, by the day they ended (UTC)" in shown
    assert "2026-11-12" in shown and "2026-11-20" in shown  # the first and last days


async def test_the_charts_scale_is_whole_ratings_and_each_day_is_written_once(tmp_path):
    """Dan's last games all ended on one day: that day is written once
    under the chart, not under its middle game and its last; the ratings
    up its side are round and whole (plotext's own were "1753.7")."""
    import re

    room = dans_room(tmp_path)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_my_profile(pilot)
        await pilot.pause()
        shown = screen_text(app)
    assert shown.count("2026-11-20") == 1 and shown.count("2026-11-12") == 1, shown
    side = [m.group(1) for m in re.finditer(r"^\s*(\d[\d.]*)\s*[┤│]", shown, re.M)]
    assert len(side) >= 3, shown
    assert all(label.isdigit() and int(label) % 50 == 0 for label in side), side


def test_the_charts_ticks():
    from crib3.tui.screens.profile import day_ticks, rating_ticks

    assert rating_ticks(1337, 1837) == [1400, 1500, 1600, 1700, 1800]
    assert rating_ticks(1490, 1510) == [1490, 1500, 1510]
    assert rating_ticks(1500, 1500) == [1500]
    assert day_ticks(["11-12", "11-20", "11-20"]) == [(1, "11-12"), (3, "11-20")]
    assert day_ticks(["11-12"]) == [(1, "11-12")]
    assert day_ticks(["a", "b", "c", "d"]) == [(1, "a"), (2, "b"), (4, "d")]


async def test_odd_names_on_the_board_draw_at_the_right_width_never_as_markup(tmp_path):
    room = dans_room(tmp_path, ["Dan", *ODD_NAMES], games=300)
    assert room.records.size() == len(ODD_NAMES) + 1
    app = room_app(room, "Dan")
    rows: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        await to_players(pilot)
        await pilot.press("pageup", "pageup", "pageup", "pageup")
        for _ in range(4):
            lines = screen_text(app).splitlines()
            rows += [line for line in lines if line.rstrip().endswith("2026-11-20")]
            await pilot.press("pagedown")
            await pilot.pause()
    assert len(rows) == len(ODD_NAMES) + 1
    # Each row ends its last column at the same cell: every name took its
    # column's width, whatever it is made of.
    assert len({cell_len(row.rstrip()) for row in rows}) == 1, rows
    board = "\n".join(rows)
    # What terminals draw at widths of their own, or as nothing, is written
    # as its escape.
    assert "\\U0001f3fd" in board and "\\U0001f1eb\\U0001f1f7" in board
    assert "\\u200d" in board and "\\u3164" in board
    assert "[bold red]loud[/]" in board  # as typed, not as markup
    assert "\x1b" not in board and "\\x1b[31mred" in board
    assert "W" * 35 + "…" in board and "W" * 37 not in board


async def test_my_games_replays_one_with_the_coach_and_exports_my_view(tmp_path):
    room = dans_room(tmp_path)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_my_games(pilot)
        shown = screen_text(app)
        assert "6 finished games" in shown and shown.count("rated") == 5
        mine = app.screen
        await pilot.press("down", "enter")  # table 5's game: Dan in the second seat
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert app.screen.coach_on and len(app.screen.replay.events) > 100
        await pilot.press("q")
        await wait_for(pilot, lambda: app.screen is mine)
        await pilot.press("e")
        await wait_for(pilot, lambda: bool(app.clipboard))
    lines = [json.loads(line) for line in app.clipboard.splitlines()]
    assert lines[0]["exported_for_seat"] == 1 and lines[0]["table"] == 5
    dealt = [e for e in lines[1:] if e["type"] == "CardsDealt"]
    assert dealt and all(e["hands"][0] == [] and e["hands"][1] != [] for e in dealt)


async def test_a_game_with_two_computers_of_one_level_says_them_once(tmp_path):
    """"two computers (standard)": the same words twice were cut off at
    the column's end, at 80 columns as at 200."""
    from records_support import finished_game

    from crib3.room.seats import Seat
    from crib3.tui.screens.my_games import others_line

    room = dans_room(tmp_path)
    finished_game(room.folder, 7, [Seat(None, None, "standard"), Seat("Dan", "SHA256:dan"),
                                   Seat(None, None, "standard")], seed=7)
    app = room_app(room, "Dan")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_my_games(pilot)
        shown = screen_text(app)
    assert "7 finished games" in shown and "two computers (standard)" in shown, shown
    assert others_line(("Ann", "computer (easy)", "computer (expert)"), 0) == \
        "computer (easy), computer (expert)"
    assert others_line(("Ann", "Bob", "Cat"), 1) == "Ann, Cat"


async def test_nothing_yet_is_said_so(tmp_path):
    from crib3.room import Room
    from crib3.room.results import Results

    room = Room(tmp_path / "tables", think=3600, results=Results(tmp_path / "ratings"))
    room.sign_in("Eve", "SHA256:eve", lambda why: None)
    app = room_app(room, "Eve")
    async with app.run_test(size=(80, 24)) as pilot:
        await to_players(pilot)
        shown = screen_text(app)
        assert "You: not rated yet" in shown and "Nobody is on the board yet" in shown
        await pilot.press("i")  # no profile to open: said so, nothing opens
        await pilot.press("escape")
        await to_my_games(pilot)
        assert "No finished game of yours here yet" in screen_text(app)


@pytest.mark.parametrize("name, setup", [
    ("players", to_players), ("profile", to_my_profile), ("my-games", to_my_games),
    ("board-top", to_the_top_of_the_board)])
async def test_record_screen(svg_snapshot, tmp_path, name, setup):
    room = dans_room(tmp_path)
    assert await screen_svg(lambda: room_app(room, "Dan"), (80, 24), setup=setup) \
        == svg_snapshot


async def test_over_ssh_the_lobby_keys_open_them_in_a_session_worker(tmp_path):
    """The views read the room's files in the session's worker process
    (the room tells it where they are): Dan sees his place there."""
    import asyncssh
    from ssh_support import Client, serving

    from crib3.room.results import Results

    key = asyncssh.generate_private_key("ssh-ed25519")
    dan = "ssh " + key.get_fingerprint()
    results = Results(tmp_path / "ratings")
    rated_crowd(results, CROWD, 120, identities=[dan], at=datetime.now(UTC).isoformat())
    async with serving(tmp_path, results=results, workers=2) as server:
        place = server.room.records.place_of(dan)
        client = await Client.connect(server.port, "dan", key=key)
        await client.shows("Open a table")
        client.press("s")
        await client.shows(f"of {len(CROWD)}.")
        await client.shows(f"{place:>5}")
        client.press("i")
        await client.shows("Rating over time")
        client.press("q")  # back to the board, and to the lobby
        await client.shows("My profile")
        client.press("q")
        await client.shows("My games")
        client.press("g")
        await client.shows("No finished game of yours here yet")
        client.close()


async def test_in_ascii_a_profile_and_its_chart_are_ascii(tmp_path):
    from crib3.tui.room_app import CardRoomApp

    room = dans_room(tmp_path)
    app = CardRoomApp(room, room.people["dan"], ascii=True, think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await to_my_profile(pilot)
        await pilot.pause()
        shown = screen_text(app)
    assert "Rating over time" in shown and "*" in shown
    assert shown.isascii(), sorted({c for c in shown if not c.isascii()})
