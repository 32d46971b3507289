"""The card room over SSH, with headless asyncssh clients in this process:
nothing leaks, bad clients do not hurt the others, and only play is allowed."""

from __future__ import annotations

import asyncio
import random
import re

import asyncssh
import pytest
from games import public_cards
from ssh_support import (
    Client,
    Recorder,
    Visitor,
    joined,
    plain,
    press_on,
    seat_three,
    serving,
    until,
)

from crib3.engine import State, apply
from crib3.engine.log import load_log

pytestmark = pytest.mark.slow


def hidden_from(state: State, seat: int) -> set:
    """The cards `seat` may not see in `state`: the other seats' hands and
    throws, the crib and the deck, less what is face up."""
    others: set = set(state.crib) | set(state.deck)
    for other in range(3):
        if other != seat:
            others |= set(state.hands[other]) | set(state.kept[other])
            if state.discards[other] is not None:
                others.add(state.discards[other])
    own = set(state.hands[seat]) | set(state.kept[seat]) | set(state.played[seat])
    if state.discards[seat] is not None:
        own.add(state.discards[seat])  # your own throw to the crib
    if state.hand_number >= 1:  # the cut for the deal is off the table once cards are dealt
        state = state._replace(deal_cuts=())
    return others - own - public_cards(state)


async def test_no_byte_sent_to_a_player_holds_a_card_hidden_from_them(tmp_path, monkeypatch,
                                                                      room_workers):
    """Three people play a whole game; everything the server writes to each
    of them is kept with how far that screen had got in the game, and
    searched for every card hidden from them at that point, as the screen
    draws cards ("10♦"). (With session workers, see `Recorder`.)"""
    recorder = Recorder(monkeypatch, room_workers)
    async with serving(tmp_path, workers=room_workers) as server:
        clients, table = await seat_three(server.port, server.room)
        recorder.follow(table)
        await press_on(clients, table)
        events = list(table.game.events)
        for client in clients:
            client.close()

    states = [State()]
    for event in events:
        states.append(apply(states[-1], event))
    seats = {p.name: i for i, p in enumerate(states[-1].players)}
    hidden = {seat: (lambda state, seat=seat: hidden_from(state, seat)) for seat in range(3)}
    seen = {seat: (lambda state, seat=seat: seen_by(state, seat)) for seat in range(3)}
    checked = 0
    for name, shown, data in joined(recorder.sent):
        seat = seats[name]
        text = plain(data)
        leaked = [c.label() for c in recorder.hidden(states, shown, hidden[seat], seen[seat],
                                                     name) if c.label() in text]
        assert not leaked, (name, shown, events[shown - 1].type if shown else None, leaked,
                            [text[max(0, text.find(c) - 80):text.find(c) + 20] for c in leaked],
                            states[shown].hands[seat], states[shown].discards[seat])
        checked += len(data)
    assert checked > 100_000  # whole games went by
    # and the check can fail: every seat's whole hand is hidden from the others
    dealt = next(e for e in events if e.type == "CardsDealt")
    at_deal = events.index(dealt) + 1
    cut = {c for state in states[1:at_deal] for c in public_cards(state)}  # (the cut for the deal)
    # (cut cards: see Recorder)
    mine = [c for c in dealt.hands[0] if c not in cut or recorder.exact]
    assert len(mine) >= 2 and all(c in recorder.hidden(states, at_deal, hidden[1], seen[1])
                                  for c in mine)


def seen_by(state: State, seat: int) -> set:
    """What `seat` may have on screen in `state`: what is face up, and its own."""
    own = set(state.hands[seat]) | set(state.kept[seat]) | set(state.played[seat])
    if state.discards[seat] is not None:
        own.add(state.discards[seat])
    return own | set(public_cards(state))


async def test_the_table_is_told_who_went_to_the_lobby_and_who_left_the_room(tmp_path,
                                                                             room_workers):
    """Going back to the lobby (l) and leaving the room (the session ends:
    a quit, or a dropped connection) are told apart at the table, also when
    the sessions run in worker processes (who is still in the room is in the
    same delta as the seat left waiting)."""
    async with serving(tmp_path, workers=room_workers) as server:
        clients, table = await seat_three(server.port, server.room)
        ann, bob, cat = clients
        await ann.shows("Enter: go on")
        bob.press("l")
        await until(lambda: table.away(1) is not None, what="bob back in the lobby")
        await ann.shows("bob has left the table;")  # (the toast wraps "their seat waits.")
        await bob.shows("Open a table")  # in the lobby, still in the room
        cat.close()
        await until(lambda: table.away(2) is not None, what="cat gone")
        await ann.shows("cat has left the room;")
        assert "bob has left the room" not in ann.terminal.text()
        for client in (ann, bob):
            client.close()


async def test_a_player_who_drops_mid_turn_can_be_replaced_and_the_game_goes_on(tmp_path):
    async with serving(tmp_path, patience=0.5) as server:
        clients, table = await seat_three(server.port, server.room)
        ann, bob, cat = clients
        game = table.game
        await until(lambda: 1 in game.to_act(), what="bob's turn")
        bob.close()  # gone in the middle of his discard
        await until(lambda: table.away(1) is not None, what="bob away")
        await ann.shows("bob has left the room")
        await until(lambda: table.replaceable(1), what="patience")
        for _ in range(50):  # ann presses b as soon as the footer offers it
            ann.press("b")
            await asyncio.sleep(0.1)
            if table.seats[1].replaced:
                break
        assert table.seats[1].replaced
        await press_on([ann, cat], table, hands=2)
        assert load_log(table.log_path).events == game.events  # no event lost
        ann.close(), cat.close()


async def test_garbage_and_wild_resizes_hurt_no_one(tmp_path):
    """Bob's terminal sends random bytes, broken escape sequences and
    absurd sizes. Whatever that does to Bob's own session (random keys may
    well quit), the others play on, he can come back, and no event is lost."""
    rng = random.Random(7)
    async with serving(tmp_path) as server:
        clients, table = await seat_three(server.port, server.room)
        ann, bob, cat = clients
        for _ in range(20):
            bob.press(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 600))))
            bob.press(b"\x1b[999;999R\x1b[<0;5000;5000M\x1b[200~\x00\x1b\x1b[\xff\xfe~\x1b[201~")
            bob.chan.change_terminal_size(rng.choice([0, 1, 7, 5000]), rng.choice([0, 1, 3, 4000]))
            await asyncio.sleep(0.01)
        cat.chan.change_terminal_size(100, 30)
        cat.chan.change_terminal_size(30, 10)  # too small: told so, not broken
        await cat.shows("crib3 needs 80×24")
        cat.chan.change_terminal_size(80, 24)
        bob.close()
        await until(lambda: table.away(1) is not None, what="bob gone")
        bob = await Client.connect(server.port, "bob")  # back, at his own seat
        await until(lambda: table.away(1) is None, what="bob back")
        await press_on([ann, bob, cat], table, hands=2)
        assert load_log(table.log_path).events == table.game.events
        for client in (ann, bob, cat):
            client.close()


async def test_escape_alone_reaches_the_app(tmp_path):
    from crib3.tui.screens.open_table import OpenTableScreen

    async with serving(tmp_path) as server:
        ann = await Client.connect(server.port, "ann")
        await ann.shows("Open a table")
        ann.press("o")
        await ann.shows("Second seat")
        (session,) = server.sessions
        assert isinstance(session.app.screen, OpenTableScreen)
        ann.press("\x1b")  # closes the dialog, on its own, after a moment
        await until(lambda: not isinstance(session.app.screen, OpenTableScreen),
                    what="the lone Escape")
        ann.close()


async def test_only_play_is_offered_no_shell_exec_or_forwarding(tmp_path):
    async with serving(tmp_path) as server:
        async with asyncssh.connect("127.0.0.1", server.port, username="eve",
                                    known_hosts=None, client_keys=None,
                                    agent_path=None, client_factory=Visitor) as conn:
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.run("cat /etc/passwd")
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 22)
            with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError, OSError)):
                async with conn.start_sftp_client():
                    pass
            # a shell without a terminal is told what to do, and ends
            result = await conn.run(check=False, term_type=None)
            assert "needs a terminal" in str(result.stdout)


async def test_keys_are_required_unless_the_room_is_open(tmp_path):
    friend = asyncssh.generate_private_key("ssh-ed25519")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    keys = tmp_path / "authorized_keys"
    keys.write_bytes(friend.export_public_key())
    async with serving(tmp_path, keys=keys) as server:
        with pytest.raises(asyncssh.PermissionDenied):
            await Client.connect(server.port, "eve")
        with pytest.raises(asyncssh.PermissionDenied):
            await Client.connect(server.port, "eve", key=stranger)
        ann = await Client.connect(server.port, "ann", key=friend)
        await ann.shows("Open a table")
        ann.close()


def _colours(data: bytes) -> tuple[set, int]:
    """The 24-bit colours in terminal output, and how many 256-colour codes."""
    text = data.decode("utf-8", "replace")
    rgb = {tuple(int(x) for x in m) for m in re.findall(r"[34]8;2;(\d+);(\d+);(\d+)", text)}
    return rgb, len(re.findall(r"[34]8;5;\d+", text))


async def test_each_client_gets_colours_as_its_own_terminal_has_them(tmp_path):
    async with serving(tmp_path) as server:
        people = {
            "tru": {"COLORTERM": "truecolor"},
            "ann": {},  # xterm-256color, no COLORTERM: 256 colours
            "nob": {"NO_COLOR": "1", "COLORTERM": "truecolor"},
        }
        clients = {}
        for name, env in people.items():
            clients[name] = await Client.connect(server.port, name, env=env)
            await clients[name].shows("Open a table")
        await asyncio.sleep(0.3)
        received = {name: bytes(c.terminal.received) for name, c in clients.items()}
        rgb, indexed = _colours(received["tru"])
        assert any(len(set(colour)) > 1 for colour in rgb)  # real colours, 24-bit
        rgb, indexed = _colours(received["ann"])
        assert indexed and not rgb
        rgb, indexed = _colours(received["nob"])
        assert all(len(set(colour)) == 1 for colour in rgb) and not indexed  # greys only
        for client in clients.values():
            client.close()


def test_suits_are_letters_unless_the_clients_locale_is_utf8():
    from crib3.net.session import wants_ascii

    assert wants_ascii({"LANG": "C"}) and wants_ascii({"LC_ALL": "POSIX", "LANG": "en_US.UTF-8"})
    assert not wants_ascii({"LANG": "en_GB.UTF-8"}) and not wants_ascii({"LC_CTYPE": "C.utf8"})
    assert not wants_ascii({})  # OpenSSH sends LANG by default; none sent: assume UTF-8


async def test_a_restarted_server_puts_everyone_back_at_their_table(tmp_path, room_workers):
    async with serving(tmp_path, workers=room_workers) as server:
        clients, table = await seat_three(server.port, server.room)
        await press_on(clients, table, hands=1)  # into the second hand
        events = list(table.game.events)
        for client in clients:
            client.close()
    async with serving(tmp_path, workers=room_workers) as server:  # the server comes back up
        (again,) = server.room.tables.values()
        assert again.game.events == events
        bob = await Client.connect(server.port, "bob")
        await bob.shows("Hand 2")  # straight back to his seat, the lobby skipped
        state = State()
        for event in events:
            state = apply(state, event)
        if room_workers == 1:  # (with workers, the screen is in another process)
            (session,) = server.sessions
            screen = session.app.screen
            assert screen.me == 1 and screen.presented == len(events)
            assert set(screen.view.hand) == set(state.hands[1])
        await until(lambda: all(c.label() in bob.terminal.text() for c in state.hands[1]),
                    what="his hand drawn")
        bob.close()


async def test_keys_in_one_burst_are_taken_in_order(tmp_path):
    """Down and Enter in one packet (a fast typist, or a paste): the lobby
    moves to the second table, then sits down there, not at the first."""
    async with serving(tmp_path) as server:
        owners = [await Client.connect(server.port, name) for name in ("ann", "bob")]
        for owner in owners:
            await owner.shows("Open a table")
            owner.press("o")
            await owner.shows("Second seat")
            owner.press("\r")
            await owner.shows("start the game")
        cat = await Client.connect(server.port, "cat")
        await cat.shows("bob, · free ·")
        cat.press("\x1b[B\r")
        await until(lambda: server.room.tables[2].seat_of("cat") == 1, what="cat at table 2")
        assert server.room.tables[1].seat_of("cat") is None
        for client in (*owners, cat):
            client.close()


async def test_a_client_in_the_c_locale_is_sent_only_7bit_bytes(tmp_path):
    """LANG=C sent by the client: the lobby, the dialog and the footer
    arrive as ASCII (borders +-|), not as UTF-8 the terminal would garble."""
    async with serving(tmp_path) as server:
        client = await Client.connect(server.port, "ann", env={"LANG": "C"})
        await client.shows("Open a table")
        client.press("o")
        await client.shows("Seats nobody takes")
        await asyncio.sleep(0.3)
        received = bytes(client.terminal.received)
        assert received.isascii(), sorted({b for b in received if b > 127})[:10]
        assert "+--" in client.terminal.text() or "--+" in client.terminal.text()
        client.close()


async def test_a_dumb_terminal_over_ssh_gets_one_line(tmp_path):
    async with serving(tmp_path) as server:
        async with asyncssh.connect("127.0.0.1", server.port, username="eve",
                                    known_hosts=None, client_keys=None,
                                    agent_path=None, client_factory=Visitor) as conn:
            result = await conn.run(check=False, term_type="dumb")
            assert "crib3 needs a full-screen terminal (TERM is dumb)" in str(result.stdout)
            assert "\x1b" not in str(result.stdout) and result.exit_status == 1
