"""Watching and talking at a card-room table, on screen (Textual Pilot, a
room without SSH): the spectator's read-only table, the seats seeing who
watches, chat shown literally and refused beyond its rate, the admin's
keys only for an admin."""

from __future__ import annotations

from tui_support import room_app, room_with_tables, screen_text, wait_for

from crib3.common.rates import TokenBucket
from crib3.engine.state import Phase
from crib3.room.chat import BURST, PER_SECOND
from crib3.tui.screens.lobby import LobbyScreen
from crib3.tui.screens.room_dialogs import ChatPrompt
from crib3.tui.screens.room_table import RoomTableScreen
from crib3.tui.screens.watch import SpectatorScreen
from crib3.tui.widgets.chat import ChatPanel

MARKUP = "[/] [b]x [@click=app.quit]y"


def hidden_cards(table) -> set[str]:
    state = table.game.state
    cards = {c for hand in state.hands for c in hand} | set(state.crib)
    cards |= {c for c in state.discards if c is not None}
    return {c.label() for c in cards}


async def test_a_spectator_watches_read_only_and_the_seats_see_them(tmp_path):
    room = room_with_tables(tmp_path)  # table 1 plays (Ann, Bob away, a bot); Dan has no seat
    table = room.tables[1]
    ann_app, dan_app = room_app(room, "Ann"), room_app(room, "Dan")
    async with ann_app.run_test(size=(80, 24)) as ann, dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(ann, lambda: isinstance(ann_app.screen, RoomTableScreen))
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        assert "w watch" in screen_text(dan_app)  # the key, in the line above the footer
        await dan.press("w")
        await wait_for(dan, lambda: isinstance(dan_app.screen, SpectatorScreen))
        screen = dan_app.screen
        await wait_for(dan, lambda: screen.shown.phase == Phase.DISCARD)
        # Public facts only: no hand at the bottom, no card of any seat on screen.
        assert screen.view.seat is None and screen.table_view.hand.cards() == ()
        text = screen_text(dan_app)
        assert table.game.state.phase == Phase.DISCARD and hidden_cards(table)
        assert not [c for c in hidden_cards(table) if c in text], text
        assert "(you are watching)" in text and "Leave" in text
        for action in ("throw", "play_card", "cut", "move", "pick", "coach", "replace"):
            assert not screen.check_action(action, ())
        events = len(table.game.events)
        await dan.press("1", "enter", "b", "h")
        assert len(table.game.events) == events
        # The seats see who is watching, literally.
        await wait_for(ann, lambda: "watching: Dan" in screen_text(ann_app))
        await dan.press("l")
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        await wait_for(ann, lambda: "watching: Dan" not in screen_text(ann_app))
        assert table.watcher_names() == []


async def test_chat_is_shown_literally_to_the_table_and_limited(tmp_path):
    room = room_with_tables(tmp_path)
    table = room.tables[1]
    ann_app, dan_app = room_app(room, "Ann"), room_app(room, "Dan")
    async with ann_app.run_test(size=(80, 24)) as ann, dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(ann, lambda: isinstance(ann_app.screen, RoomTableScreen))
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        await dan.press("w")
        await wait_for(dan, lambda: isinstance(dan_app.screen, SpectatorScreen))
        await dan.press("c")
        await wait_for(dan, lambda: isinstance(dan_app.screen, ChatPrompt))
        await dan.press(*MARKUP, "enter")
        said = f"Dan: {MARKUP}"
        for pilot, app in ((ann, ann_app), (dan, dan_app)):
            await wait_for(pilot, lambda app=app: said in screen_text(app))
        # The table is still there, whole, above the chat at 80x24.
        text = screen_text(ann_app)
        assert "pts" in text and text.index("pts") < text.index(said)
        assert ann_app.screen.query_one(ChatPanel).region.height == 2
        # Ann, seated, talks too (the same key); beyond the rate: one line, refused.
        # time stands still
        ann_app.presence.chat = TokenBucket(PER_SECOND, BURST, clock=lambda: 0.0)
        for n in range(4):
            await ann.press("c")
            await wait_for(ann, lambda: isinstance(ann_app.screen, ChatPrompt))
            await ann.press(*f"hi {n}", "enter")
            await wait_for(ann, lambda: isinstance(ann_app.screen, RoomTableScreen))
        await wait_for(ann, lambda: any("not so fast" in str(n.message)
                                        for n in ann_app._notifications))
        assert [line.text for line in table.chat.lines] == [MARKUP, "hi 0", "hi 1", "hi 2"]
        await wait_for(dan, lambda: "Ann: hi 2" in screen_text(dan_app))
        assert not any(isinstance(s, ChatPrompt) for s in ann_app.screen_stack)


async def test_the_admins_keys_are_an_admins_only(tmp_path):
    room = room_with_tables(tmp_path)
    dan_app = room_app(room, "Dan")
    async with dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        lobby = dan_app.screen
        assert not lobby.check_action("close_table", ()) and not lobby.check_action("remove", ())
        await dan.press("x", "k")
        assert dan_app.screen is lobby and len(room.lobby()) == 2
        assert "x Close" not in screen_text(dan_app)
        await dan.press("question_mark")  # the help has the card room's keys, not an admin's
        await wait_for(dan, lambda: "watch a game" in screen_text(dan_app))
        assert "chat at the table" in screen_text(dan_app)
        assert "admin:" not in screen_text(dan_app)
        await dan.press("escape")
        await wait_for(dan, lambda: dan_app.screen is lobby)
        dan_app.presence.admin = True
        lobby.keys_may_have_changed()
        await dan.pause()
        assert lobby.check_action("close_table", ()) and lobby.check_action("remove", ())
        assert "x Close  k Remove" in screen_text(dan_app)
        await dan.press("question_mark")
        await wait_for(dan, lambda: "admin: close a table" in screen_text(dan_app))


def test_chat_lines_and_watchers_are_literal_text_newest_last():
    from crib3.room.chat import ChatLine
    from crib3.tui.widgets.chat import chat_text

    lines = [ChatLine("[/]", "old"), ChatLine("[b]x", "[@click=app.quit]y"),
             ChatLine("ann", "[/b] new")]
    text = chat_text(lines, ["[@click=app.quit]z"], rows=2)
    assert text.plain == "watching: [@click=app.quit]z\nann: [/b] new"
    assert chat_text(lines, [], rows=4).plain.splitlines() == \
        ["[/]: old", "[b]x: [@click=app.quit]y", "ann: [/b] new"]
    assert chat_text([], [], rows=2).plain == ""
    assert not any(span.style and "@click" in str(span.style) for span in text.spans)


async def test_a_spectator_sees_the_counts_of_the_show_face_up(tmp_path):
    """Three computer players (Ann's seat given to one) play on; Dan watches.
    Between counts the spectator's hand rows are hidden (no hand of their
    own); a count in the show is drawn there, face up, as for everyone."""
    from crib3.engine import Rules
    from crib3.room import Room

    room = Room(tmp_path / "tables", think=0.02, patience=0)
    ann = room.sign_in("Ann", None, lambda r: None)
    room.sign_in("Dan", None, lambda r: None)
    table = room.open_table(ann, Rules(target=121), ("easy", "easy"))
    table.start("Ann")
    room.depart(ann)
    # The bots play every seat. Only someone at the table may give a seat
    # away, and nobody is left there: let the table count Ann as present
    # for this one call.
    present = table.present
    table.present = lambda seat: True  # type: ignore[method-assign]
    table.replace(0, "Ann")
    table.present = present  # type: ignore[method-assign]
    dan_app = room_app(room, "Dan")
    async with dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        await dan.press("w")
        await wait_for(dan, lambda: isinstance(dan_app.screen, SpectatorScreen))
        hand = dan_app.screen.table_view.hand
        await wait_for(dan, lambda: not hand.display)
        await wait_for(dan, lambda: hand.showing is not None)
        assert hand.display
        shown = hand.showing
        text = screen_text(dan_app)
        assert all(c.label() in text for c in shown.cards), text
        await wait_for(dan, lambda: not hand.display)  # the next deal: hidden again
    room.close()


def chat_rows(app) -> list[str]:
    """The rows of the chat panel, as drawn (its padding of one cell kept)."""
    panel = app.screen.query_one(ChatPanel)
    rows = screen_text(app).split("\n")
    return rows[panel.region.y:panel.region.y + panel.region.height]


async def test_a_wrapped_chat_line_cannot_pass_for_another_speakers(tmp_path):
    """Issue 33 point 7: "ok", 72 spaces and "alice: I resign, well played"
    was drawn at 80 columns as a second row that read as alice's."""
    room = room_with_tables(tmp_path)
    table = room.tables[1]
    ann_app = room_app(room, "Ann")
    async with ann_app.run_test(size=(80, 24)) as ann:
        await wait_for(ann, lambda: isinstance(ann_app.screen, RoomTableScreen))
        allowance = TokenBucket(PER_SECOND, BURST, clock=lambda: 0.0)
        table.chat.say("Dan", "ok" + " " * 72 + "alice: I resign, well played", allowance)
        await wait_for(ann, lambda: "alice: I resign" in screen_text(ann_app))
        assert chat_rows(ann_app) == [" Dan: ok alice: I resign, well played"]  # one run, one space
        # A line long enough to wrap: its second row starts under the text, past the name.
        table.chat.say("Dan", "y" * 70 + " alice: I resign, good game", allowance)
        await wait_for(ann, lambda: "good game" in chat_rows(ann_app)[-1])
        first, second = chat_rows(ann_app)[-2:]
        assert first == " Dan: " + "y" * 70
        assert second == " " * 6 + "alice: I resign, good game"
        assert second.index("alice") == first.index("y")
        # Nothing a stranger types starts a row where a name does.
        for row in chat_rows(ann_app):
            assert not row.startswith(" alice"), chat_rows(ann_app)


async def test_the_chat_prompt_shows_what_it_will_say_as_it_is_typed(tmp_path):
    """A skin-tone modifier typed in the prompt would be drawn by the
    terminal at another width than Rich counts, pushing the prompt's row
    out of line: it goes as it is typed, the cursor staying at the end."""
    from textual.widgets import Input

    room = room_with_tables(tmp_path)
    ann_app = room_app(room, "Ann")
    async with ann_app.run_test(size=(80, 24)) as ann:
        await wait_for(ann, lambda: isinstance(ann_app.screen, RoomTableScreen))
        await ann.press("c")
        await wait_for(ann, lambda: isinstance(ann_app.screen, ChatPrompt))
        typed = ann_app.screen.query_one(Input)
        typed.insert_text_at_cursor("gg 👍🏽 🇫🇷")
        await wait_for(ann, lambda: typed.value == "gg 👍 FR")
        assert typed.cursor_position == len("gg 👍 FR")
        await ann.press("!", "enter")
        await wait_for(ann, lambda: isinstance(ann_app.screen, RoomTableScreen))
        assert [line.text for line in room.tables[1].chat.lines] == ["gg 👍 FR!"]


async def test_an_ordinary_event_lays_out_no_spectators_screen(tmp_path):
    """Before: the line of the seat watched from was set with a layout of
    the whole screen at every event, at every spectator's. It is redrawn
    in place now (it stays one row), and not at all when it says the same."""
    room = room_with_tables(tmp_path)
    dan_app = room_app(room, "Dan")
    async with dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        await dan.press("w")
        await wait_for(dan, lambda: isinstance(dan_app.screen, SpectatorScreen))
        screen = dan_app.screen
        assert isinstance(screen, SpectatorScreen)
        await wait_for(dan, lambda: screen.shown.phase == Phase.DISCARD)
        await dan.pause()
        line = screen.query_one("#me")
        before = str(line.content)  # (a Text: its plain text)
        assert before.strip()
        layouts: list[bool] = []
        real = line.refresh

        def refresh(*regions, **how):  # type: ignore[no-untyped-def]
            layouts.append(bool(how.get("layout")))
            return real(*regions, **how)

        line.refresh = refresh  # type: ignore[method-assign]
        for event, state, view in screen.history[-6:]:
            screen._present(event, state, view)
        await dan.pause()
        assert True not in layouts, layouts
        assert layouts  # (it was redrawn: the seat's line changed over those events)
        assert str(line.content).split("  ")[0] in screen_text(dan_app)  # the seat's name


async def test_a_spectators_pause_ends_in_the_next_thing_drawn(tmp_path, monkeypatch):
    """Before: at the end of each of its pauses (a count, the end of a
    hand) a spectator's screen drew presenting (the prompt cleared, the
    keys without Enter), and then at once the next event and its mode.
    It draws the next event's now; the pauses are drawn as before."""
    from crib3.engine import Rules
    from crib3.room import Room
    from crib3.tui.screens.table import TableScreen
    from crib3.tui.words import Mode

    drawn: list[Mode] = []
    real = TableScreen.watch_mode

    def watch_mode(self: TableScreen) -> None:
        if isinstance(self, SpectatorScreen):
            drawn.append(self.mode)
        real(self)

    monkeypatch.setattr(TableScreen, "watch_mode", watch_mode)
    room = Room(tmp_path / "tables", think=0.02, patience=0)
    ann = room.sign_in("Ann", None, lambda r: None)
    room.sign_in("Dan", None, lambda r: None)
    table = room.open_table(ann, Rules(target=121), ("easy", "easy"))
    table.start("Ann")
    room.depart(ann)
    present = table.present  # (the bots play every seat: as in the show's test above)
    table.present = lambda seat: True  # type: ignore[method-assign]
    table.replace(0, "Ann")
    table.present = present  # type: ignore[method-assign]
    dan_app = room_app(room, "Dan")
    async with dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        await dan.press("w")
        await wait_for(dan, lambda: isinstance(dan_app.screen, SpectatorScreen))
        hand = dan_app.screen.table_view.hand
        await wait_for(dan, lambda: hand.showing is not None)
        await wait_for(dan, lambda: not hand.display)  # the show's pauses are over
    room.close()
    assert Mode.WAITING_FOR_ENTER in drawn
    assert Mode.PRESENTING not in drawn, drawn


async def test_a_table_watched_as_it_moved_is_watched_again_and_forgotten_for_another(tmp_path):
    """A spectator whose table moved to another server (crib3 serve
    --cluster) is back in a lobby that follows it (the journey's
    `rewatch`): watching it again as soon as it is hosted here, no key
    pressed. One who sits at another table meanwhile is not taken away
    from it later."""
    from crib3.net.journey import Journey
    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.screens.waiting import WaitingScreen

    room = room_with_tables(tmp_path)  # table 1 plays; Dan has no seat
    journey = Journey(rewatch=(1, "gone"))
    dan_app = CardRoomApp(room, room.people["dan"], think=0.0, journey=journey)
    async with dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(dan, lambda: isinstance(dan_app.screen, SpectatorScreen))
        assert journey.rewatch is None and room.tables[1].watcher_names() == ["Dan"]
    room.tables[1].unwatch(room.people["dan"])
    journey = Journey(rewatch=(9, "gone"))  # (hosted nowhere yet)
    dan_app = CardRoomApp(room, room.people["dan"], think=0.0, journey=journey)
    async with dan_app.run_test(size=(80, 24)) as dan:
        await wait_for(dan, lambda: isinstance(dan_app.screen, LobbyScreen))
        await dan.press("down", "enter")  # Cat's table
        await wait_for(dan, lambda: isinstance(dan_app.screen, WaitingScreen))
        assert journey.rewatch is None
