"""The card room's web door (`crib3 serve --web`), with headless browser
clients (aiohttp's websocket client, and raw sockets for the hostile ones)
against a real door in this process: a seat from a link, the same room as
SSH, and nothing a stranger can do to it."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import socket
import time

import aiohttp
import asyncssh
import pytest
from ssh_support import Client, Recorder, plain, press_on, seat_three, until
from test_ssh import hidden_from, seen_by
from web_support import WebClient, web_serving

from crib3.engine import State, apply
from crib3.net.web import MAX_FRAME, POLICY
from crib3.net.web_admission import Admission

pytestmark = pytest.mark.slow


def session_of(door, name: str):
    return next(s for s in door.sessions if s.username == name)


async def status_of(http: aiohttp.ClientSession, url: str, origin: str | None) -> int:
    """The status a websocket handshake gets (101 when it is let in)."""
    headers = {"Origin": origin} if origin else {}
    try:
        async with http.ws_connect(url, headers=headers) as ws:
            await ws.close()
            return 101
    except aiohttp.WSServerHandshakeError as exc:
        return exc.status


# --- a seat from a link --------------------------------------------------------------


async def test_a_browser_and_two_ssh_players_play_a_game_and_nothing_hidden_reaches_the_browser(
        tmp_path, monkeypatch, room_workers):
    """Ann in a browser (an invite link, redeemed for a cookie), Bob and Cat
    over SSH, at one table, through the short game; every byte the browser
    received is searched for the cards hidden from Ann when it arrived."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    recorder = Recorder(monkeypatch, workers=2)  # (its span rule: by the game's progress)
    async with web_serving(tmp_path, workers=room_workers) as (server, door):
        token = door.book.invite("the host", name="ann")
        ann = await WebClient.connect(door, token=token)
        arrived: list[tuple[int, bytes]] = []

        bob = await Client.connect(server.port, "bob")
        cat = await Client.connect(server.port, "cat")
        clients, table = await seat_three(server.port, server.room, clients=[ann, bob, cat])
        assert [s.name for s in table.seats] == ["ann", "bob", "cat"]
        assert table.seats[0].key.startswith(("web:", "first-use web "))
        recorder.follow(table)
        start = len(ann.terminal.received)

        def keep() -> None:  # the browser's bytes, with how far the game had got
            size = len(ann.terminal.received)
            if size > keep.mark:
                arrived.append((recorder.progress(), bytes(ann.terminal.received[keep.mark:size])))
                keep.mark = size
        keep.mark = start

        async def watch() -> None:
            while not ann.terminal.closed.is_set():
                keep()
                await asyncio.sleep(0.005)

        watcher = asyncio.ensure_future(watch())
        await press_on(clients, table)
        keep()
        watcher.cancel()
        events = list(table.game.events)
        for client in clients:
            client.close()

    states = [State()]
    for event in events:
        states.append(apply(states[-1], event))
    checked = 0
    for shown, data in arrived:
        text = plain(data)
        hidden = recorder.hidden(states, shown, lambda s: hidden_from(s, 0),
                                 lambda s: seen_by(s, 0))
        leaked = [c.label() for c in hidden if c.label() in text]
        assert not leaked, (shown, leaked)
        checked += len(data)
    assert checked > 50_000 and table.over


async def test_a_browser_that_drops_comes_back_to_its_seat(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        token = door.book.invite("the host", name="ann")
        ann = await WebClient.connect(door, token=token)
        await ann.shows("Open a table")
        ann.press("o")
        await ann.shows("Second seat")
        ann.press("\r")
        await ann.shows("start the game")
        ann.press("\r")
        await until(lambda: server.room.tables and next(iter(server.room.tables.values())).started)
        table = next(iter(server.room.tables.values()))
        await ann.shows("l Leave")
        await ann.drop()                            # the network blips
        await until(lambda: not door.sessions, what="the session's end")
        ann.terminal.received.clear()
        await ann.open()                            # the page reconnects by itself
        await ann.shows("l Leave")                  # at her table again
        place = server.room.place_of(server.room.people["ann"])
        assert place is not None and place[0] is table and place[1] == 0
        await ann.aclose()


async def test_a_browser_is_told_when_it_is_removed_and_when_the_room_closes(tmp_path,
                                                                            monkeypatch):
    """An admin's removal and the server's stop end a browser session as
    they end an SSH one: its terminal put back, then one line saying why
    (the page shows it and does not reconnect by itself)."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        eve = await WebClient.connect(door, name="eve")
        ann = await WebClient.connect(door, name="ann")
        await eve.shows("Open a table")
        await ann.shows("Open a table")
        boss = server.room.sign_in("boss", "SHA256:boss", lambda reason: None)
        boss.admin = True
        server.room.remove("eve", boss)
        await asyncio.wait_for(eve.terminal.closed.wait(), 10)
        assert "crib3: an admin closed your session" in eve.terminal.text(), (
            eve.terminal.text()[-300:])
    await asyncio.wait_for(ann.terminal.closed.wait(), 10)
    assert ann.terminal.text().rstrip().endswith("crib3: the card room is closing")
    await ann.http.close()
    await eve.http.close()


async def test_an_invite_is_good_once_for_a_time_and_can_be_withdrawn(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        book = door.book
        token = book.invite("the host", name="ann")
        first = await WebClient.arrive(door, token=token)
        async with aiohttp.ClientSession() as http:
            async with http.post(f"{door.url}/api/redeem", json={"token": token},
                                 headers={"Origin": door.url}) as again:
                assert again.status == 403
                assert "used already" in (await again.json())["error"]
            expired = book.invite("the host", name="bob", hours=1e-6)
            await asyncio.sleep(0.01)
            async with http.post(f"{door.url}/api/redeem", json={"token": expired},
                                 headers={"Origin": door.url}) as late:
                assert late.status == 403 and "expired" in (await late.json())["error"]
            withdrawn = book.invite("the host", name="cat")
            assert book.revoke(
                next(i.hash for i in book.open_invites() if i.name == "cat")[:12]) == 1
            async with http.post(f"{door.url}/api/redeem", json={"token": withdrawn},
                                 headers={"Origin": door.url}) as gone:
                assert gone.status == 403 and "withdrawn" in (await gone.json())["error"]
        # Only the digests are on disk, never a token.
        written = b"".join(f.read_bytes() for f in book.folder.glob("invites*"))
        assert token.encode() not in written and expired.encode() not in written
        assert withdrawn.encode() not in written
        assert oct(book.path.stat().st_mode & 0o777) == "0o600"
        await first.open()
        await first.shows("You are ann")
        await first.aclose()


# --- what a stranger cannot do ---------------------------------------------------------


async def test_no_seat_without_a_link_or_its_cookie(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    keys = tmp_path / "keys"
    keys.write_text("")
    keys.chmod(0o600)
    async with web_serving(tmp_path, keys=keys) as (server, door):  # not --open
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            assert await status_of(http, f"{door.url}/ws", door.url) == 403
            async with http.post(f"{door.url}/api/name", json={"name": "eve"},
                                 headers={"Origin": door.url}) as named:
                assert named.status == 403               # no name without a link here
            async with http.post(f"{door.url}/api/redeem", json={"token": "x" * 43},
                                 headers={"Origin": door.url}) as guessed:
                assert guessed.status == 403
            http.cookie_jar.update_cookies({"crib3_id": "made-up"})
            assert await status_of(http, f"{door.url}/ws", door.url) == 403
        assert not server.room.people


async def test_a_page_on_another_site_cannot_act_for_a_visitor(tmp_path, monkeypatch):
    """The websocket and every POST must come from the door's own origin:
    a foreign page gets nothing, even with the visitor's cookie, and its
    try does not use up a link."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        token = door.book.invite("the host", name="ann")
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            for origin in ("http://evil.example", "null", None,
                           door.url.replace("127.0.0.1", "127.0.0.2")):
                headers = {"Origin": origin} if origin else {}
                async with http.post(f"{door.url}/api/redeem", json={"token": token},
                                     headers=headers) as answer:
                    assert answer.status == 403, origin
        ann = await WebClient.arrive(door, token=token)  # still good: not used up
        for origin in ("http://evil.example", "null", None):
            assert await status_of(ann.http, f"{door.url}/ws", origin) == 403, origin
        assert not server.room.people
        await ann.http.close()


async def test_connections_that_are_not_seats_are_capped_per_address_and_time_out(
        tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        ann = await WebClient.connect(door, name="ann")    # seated before the flood
        await ann.shows("Open a table")
        door.admission = Admission(per_address=4, overall=100, grace=1.0)
        loop = asyncio.get_running_loop()
        silent = []
        for _ in range(4):
            sock = socket.create_connection(("127.0.0.1", door.port))
            silent.append(sock)
        await asyncio.sleep(0.2)
        fifth = socket.create_connection(("127.0.0.1", door.port))
        fifth.settimeout(2)
        assert await loop.run_in_executor(None, fifth.recv, 10) == b""  # closed at once
        assert door.admission.refused == 1
        ann.press("o")                                      # the seated one plays on
        await ann.shows("Second seat")
        started = time.monotonic()
        silent[0].settimeout(5)
        assert await loop.run_in_executor(None, silent[0].recv, 10) == b""  # the grace ends
        assert time.monotonic() - started < 4
        await until(lambda: not door.admission.waiting, what="the silent ones closed")
        bob = await WebClient.connect(door, name="bob")     # a newcomer gets in again
        await bob.shows("Open a table")
        for sock in (*silent, fifth):
            sock.close()
        await ann.aclose()
        await bob.aclose()


async def test_an_oversized_frame_ends_only_that_session(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        eve = await WebClient.connect(door, name="eve")
        ann = await WebClient.connect(door, name="ann")
        await eve.shows("Open a table")
        await ann.shows("Open a table")
        eve.press(b"f" * (MAX_FRAME + 1))
        await asyncio.wait_for(eve.terminal.closed.wait(), 10)
        assert eve.terminal.close_code == 1009              # "message too big"
        await until(lambda: "eve" not in server.room.people, what="eve gone")
        ann.press("o")
        await ann.shows("Second seat")
        await ann.aclose()
        await eve.aclose()


async def test_a_flood_of_keys_from_a_browser_is_cut_to_the_rate(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        eve = await WebClient.connect(door, name="eve")
        bob = await Client.connect(server.port, "bob")
        await eve.shows("Open a table")
        await bob.shows("Open a table")
        for _ in range(40):
            eve.press(b"fh?" * 333)
        await asyncio.sleep(0.5)
        bob.press("o")
        await bob.shows("Second seat")
        session = session_of(door, "eve")
        await until(lambda: session.driver.count.dropped_bytes > 0 or
                    session.driver.count.dropped > 0, what="the flood cut")
        bob.close()
        await eve.aclose()


async def test_a_huge_browser_window_is_drawn_at_300_by_100(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        eve = await WebClient.connect(door, name="eve", size=(2000, 600))
        await eve.shows("Open a table")
        session = session_of(door, "eve")
        assert session.size == (300, 100)
        eve.resize(5000, 5000)
        await until(lambda: session.size == (300, 100) and session.driver.count.resizes >= 1)
        eve.resize(90, 30)
        await until(lambda: session.size == (90, 30), what="the new size")
        await eve.aclose()


def raw_websocket(door, cookie: str) -> socket.socket:
    """A browser's websocket opened by hand, on a socket with a tiny receive
    buffer, that will never read: a client that stops reading."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.settimeout(20)  # (until the handshake is answered)
    sock.connect(("127.0.0.1", door.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws?cols=300&rows=100 HTTP/1.1\r\nHost: 127.0.0.1:{door.port}\r\n"
                  f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  f"Sec-WebSocket-Version: 13\r\nOrigin: {door.url}\r\n"
                  f"Cookie: crib3_id={cookie}\r\n\r\n").encode())
    head = b""
    while b"\r\n\r\n" not in head:
        try:
            byte = sock.recv(1)
        except TimeoutError:
            raise AssertionError(f"the door never answered the handshake: {head!r}") from None
        assert byte, f"the door closed the connection during the handshake: {head!r}"
        head += byte
    sock.settimeout(None)
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def masked_text(text: str) -> bytes:
    """One masked text frame, as a browser sends it."""
    payload = text.encode()
    mask = os.urandom(4)
    body = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return bytes([0x81, 0x80 | len(payload)]) + mask + body


async def test_a_browser_that_stops_reading_is_not_buffered_without_end(tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    monkeypatch.setattr("crib3.net.session.OUTPUT_HIGH_WATER", 8192)
    monkeypatch.setattr("crib3.net.session.OUTPUT_LOW_WATER", 1024)
    async with web_serving(tmp_path) as (server, door):
        secret, _ = door.book.newcomer("eve")
        loop = asyncio.get_running_loop()
        sock = await loop.run_in_executor(None, raw_websocket, door, secret)
        await until(lambda: door.sessions, what="eve's session")
        session = next(iter(door.sessions))
        await until(lambda: session.driver is not None)
        channel = session.chan
        most = 0
        for cols in (300, 250) * 12:                 # two dozen whole screens to send
            sock.sendall(masked_text(json.dumps({"cols": cols, "rows": 100})))
            await asyncio.sleep(0.1)
            most = max(most, channel.get_write_buffer_size())
        assert session.driver.count.frames_skipped > 0
        assert most < 8192 + 300 * 1024              # the mark and one screen, no more
        ann = await WebClient.connect(door, name="ann")  # and the room goes on
        await ann.shows("Also here: eve")
        sock.close()
        await ann.aclose()


# --- the page ------------------------------------------------------------------------


async def test_the_page_loads_only_its_own_files_under_a_policy_with_no_inline_script(
        tmp_path, monkeypatch):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{door.url}/") as page:
                html = await page.text()
                assert page.headers["Content-Security-Policy"] == POLICY
                assert page.headers["X-Frame-Options"] == "DENY"
                assert page.headers["Server"] == "crib3"
            assert "script-src 'self';" in POLICY and "unsafe" not in POLICY.split(";")[1]
            assert "<script>" not in html and "onload" not in html and "style=" not in html
            sources = re.findall(r'(?:src|href)="([^"]+)"', html)
            assert sources and all(s.startswith("/static/") for s in sources), sources
            for source in sources:
                async with http.get(f"{door.url}{source}") as part:
                    assert part.status == 200, source
                    body = await part.read()
                    assert b"sourceMappingURL" not in body
            css = await (await http.get(f"{door.url}/static/page.css")).text()
            assert "url(\"/static/DejaVuSansMono.ttf\")" in css and "http" not in css
            for path in ("/static/", "/static/../web.py", "/static/LICENSE.xterm", "/web.py",
                         "/static/%2e%2e/web.py", "/.git/config"):
                async with http.get(f"{door.url}{path}") as refused:
                    assert refused.status == 404, path
                    assert "crib3/" not in await refused.text()


# --- the keys at a seat ----------------------------------------------------------------


async def test_i_at_a_table_makes_a_link_that_seats_a_friend(tmp_path, monkeypatch):
    """Cat, waiting at her table, presses i: a link (the door's address and
    a token) that the book takes once; without a web door, i says how to
    open one."""
    from tui_support import room_app, room_with_tables, screen_text, wait_for

    from crib3.room.invites import InviteBook
    from crib3.tui.screens.room_dialogs import InviteLink
    from crib3.tui.screens.waiting import WaitingScreen

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    from crib3.common.paths import data_dir

    book = InviteBook(data_dir() / "web")
    room = room_with_tables(tmp_path)
    app = room_app(room, "Cat")
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, WaitingScreen))
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, InviteLink))
        assert "No web door is open here" in screen_text(app)
        await pilot.press("enter")
        book.set_door_url("http://127.0.0.1:8080")
        await pilot.press("i")
        await wait_for(pilot, lambda: isinstance(app.screen, InviteLink))
        shown = screen_text(app)
        link = re.search(r"http://127\.0\.0\.1:8080/#invite=([A-Za-z0-9_-]{43})", shown)
        assert link, shown
        assert "works once" in shown
        secret, identity = book.redeem(link.group(1))
        assert identity.table == 2 and identity.name is None  # they choose their name
        await pilot.press("escape")
        await wait_for(pilot, lambda: isinstance(app.screen, WaitingScreen))


def test_every_card_room_screen_has_a_key_a_browser_does_not_keep():
    """A browser keeps Ctrl+T, Ctrl+R, Ctrl+W, Ctrl+N and Ctrl+Q for itself:
    no card-room screen needs one of them; each way out of a screen (quit,
    leave, close) has a plain key too."""
    from crib3.tui.room_app import CardRoomApp
    from crib3.tui.screens.lobby import LobbyScreen
    from crib3.tui.screens.open_table import OpenTableScreen
    from crib3.tui.screens.room_dialogs import ChatPrompt, ConfirmAdmin, InviteLink, PickPerson
    from crib3.tui.screens.room_table import ConfirmCloseTable, RoomGameOverScreen, RoomTableScreen
    from crib3.tui.screens.waiting import WaitingScreen
    from crib3.tui.screens.watch import RoomHelpScreen, SpectatorScreen

    kept = {"ctrl+t", "ctrl+r", "ctrl+w", "ctrl+n", "ctrl+q"}
    ways_out = {"app.quit", "app.quit_game", "quit_game", "leave", "leave_table", "dismiss",
                "dismiss(None)", "dismiss(False)", "dismiss('new')", "app.pop_screen"}

    def keys(cls) -> list[tuple[str, str]]:
        found = []
        for klass in cls.__mro__:
            for binding in getattr(klass, "BINDINGS", []) or []:
                key, action = (binding.key, binding.action) if hasattr(binding, "key") \
                    else (binding[0], binding[1])
                found += [(k.strip(), action) for k in key.split(",")]
        return found

    app_keys = keys(CardRoomApp)
    assert {k for k, _ in app_keys} & kept <= {"ctrl+q"}  # the app's only one: quit
    for screen in (LobbyScreen, OpenTableScreen, WaitingScreen, RoomTableScreen, SpectatorScreen,
                   RoomGameOverScreen, ConfirmCloseTable, ChatPrompt, ConfirmAdmin, PickPerson,
                   RoomHelpScreen, InviteLink):
        bound = keys(screen)
        assert not {k for k, _ in bound} & kept, screen
        plain_ways = {a for k, a in bound if k not in kept and a in ways_out}
        assert plain_ways, f"{screen.__name__}: no plain key out"


# --- the command line ---------------------------------------------------------------


def test_a_web_door_open_to_the_network_without_tls_is_refused(tmp_path):
    from commands import assert_clean_failure, crib3

    for args, said in ((["--web", "0.0.0.0:8080"], "without TLS"),
                       (["--web", "0.0.0.0:8080", "--public-url", "http://x.example"],
                        "without TLS"),
                       (["--web", "8080", "--tls-cert", "c.pem"], "both --tls-cert"),
                       (["--web", "nope"], "[HOST:]PORT"),
                       (["--tls-key", "k.pem"], "give --web too"),
                       (["--web", "8080", "--public-url", "ftp://x"], "http(s)")):
        done = crib3("serve", "--open", "--port", "0", *args, home=tmp_path)
        assert_clean_failure(done, 2)
        assert said in done.stderr, (args, done.stderr)


def test_crib3_invite_needs_an_open_door_and_lists_and_withdraws_links(tmp_path):
    from commands import assert_clean_failure, crib3

    from crib3.room.invites import InviteBook

    done = crib3("invite", "ann", home=tmp_path)
    assert_clean_failure(done, 1)
    assert "web door is not open" in done.stderr
    assert_clean_failure(crib3("invite", "\x1b[31m", home=tmp_path), 2)
    InviteBook(tmp_path / "data" / "web").set_door_url("https://cards.example")
    made = crib3("invite", "ann", "--table", "3", home=tmp_path)
    assert made.returncode == 0, made.stderr
    assert re.fullmatch(r"https://cards\.example/#invite=[A-Za-z0-9_-]{43}\n", made.stdout)
    listed = crib3("invite", "--list", home=tmp_path).stdout
    assert "ann" in listed and "table 3" in listed
    ident = listed.split()[0]
    assert crib3("invite", "--revoke", ident, home=tmp_path).returncode == 0
    assert "no open invite links" in crib3("invite", "--list", home=tmp_path).stdout
    assert_clean_failure(crib3("invite", "--revoke", ident, home=tmp_path), 1)


def self_signed(folder) -> tuple:
    """A certificate for 127.0.0.1 and its key, as PEM files."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .sign(key, hashes.SHA256()))
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


async def test_with_tls_the_door_speaks_https_and_its_cookie_is_secure(tmp_path, monkeypatch):
    import ssl

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    cert, key = self_signed(tmp_path)
    trust = ssl.create_default_context(cafile=str(cert))
    async with web_serving(tmp_path, door_options={"tls_cert": cert, "tls_key": key}) as (
            server, door):
        assert door.url.startswith("https://127.0.0.1:")
        token = door.book.invite("the host", name="ann")
        connector = aiohttp.TCPConnector(ssl=trust)
        async with aiohttp.ClientSession(connector=connector,
                                         cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.get(f"{door.url}/") as page:
                assert page.status == 200
                assert page.headers["Strict-Transport-Security"].startswith("max-age=")
            async with http.post(f"{door.url}/api/redeem", json={"token": token},
                                 headers={"Origin": door.url}) as redeemed:
                cookie = redeemed.headers["Set-Cookie"]
                assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
            async with http.ws_connect(f"{door.url}/ws", origin=door.url) as ws:
                got = b""
                while b"Open a table" not in got:
                    got += (await asyncio.wait_for(ws.receive(), 10)).data
        with socket.create_connection(("127.0.0.1", door.port)) as plain_http:  # not in clear
            plain_http.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            plain_http.settimeout(5)
            answer = await asyncio.get_running_loop().run_in_executor(None, plain_http.recv, 4096)
            assert b"crib3" not in answer


@pytest.mark.parametrize("held, lookalike", [
    ("alice", "aIice"),                          # a capital I for an l
    ("cope", "\u0441\u043e\u0440\u0435"),            # all four letters Cyrillic
])
async def test_a_lookalike_of_a_name_here_is_refused_in_a_browser_as_over_ssh(
        tmp_path, monkeypatch, held, lookalike):
    """The web door asks the room's one rule for names before it ties a
    name to a browser: a name that looks like one signed in here is
    refused, as the room refuses it over SSH."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path) as (server, door):
        first = await Client.connect(server.port, held)
        await first.shows("Open a table")
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(f"{door.url}/api/name", json={"name": lookalike},
                                 headers={"Origin": door.url}) as answer:
                assert answer.status == 409
                assert "looks like" in (await answer.json())["error"]
        second = await Client.connect(server.port, lookalike)   # and over SSH
        await asyncio.wait_for(second.terminal.closed.wait(), 10)
        assert "looks like" in second.terminal.text()
        first.close()


async def test_under_open_a_browser_holds_its_name_and_counts_by_its_address(tmp_path,
                                                                             monkeypatch):
    """A name someone holds (signed in over SSH first, with a key) cannot be
    chosen in a browser; a browser's own name is held by its cookie; and
    since anyone may mint a browser identity under --open, browsers count
    by their address against the per-person limits, as keyless SSH does."""
    from ssh_support import openssh_key

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    key = asyncssh.read_private_key(str(openssh_key(tmp_path / "ann_key")))
    async with web_serving(tmp_path, names_per_key=2) as (server, door):
        ann = await Client.connect(server.port, "ann", key=key)
        await ann.shows("Open a table")
        ann.close()
        await until(lambda: "ann" not in server.room.people, what="ann gone")
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(f"{door.url}/api/name", json={"name": "Ann"},
                                 headers={"Origin": door.url}) as answer:
                assert answer.status == 409 and "taken" in (await answer.json())["error"]
        zed = await WebClient.connect(door, name="zed")
        await zed.shows("You are zed")
        assert server.room.held_by("zed") == server.room.people["zed"].key
        yan = await WebClient.connect(door, name="yan")
        await yan.shows("You are yan")
        third = await WebClient.connect(door, name="xia")       # the same address, once more
        await asyncio.wait_for(third.terminal.closed.wait(), 10)
        assert "your address has 2 names signed in already" in third.terminal.text()
        for client in (zed, yan, third):
            await client.aclose()
