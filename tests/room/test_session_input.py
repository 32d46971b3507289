"""A session's input, sent as a hostile client would: what `ChannelDriver`
lets through to the app (focus reports, mouse moves, terminal replies, and
sequences Textual's parser cannot read), and what one SSH connection may
open. Over SSH, a seated player's key→screen stays within a ratio of its
own baseline measured in the same test, and a new sign-in still gets in."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter

import asyncssh
import pytest
from ssh_support import Client, Terminal, seat_three, serving, until, worker_pids
from test_ssh_hostile import key_to_screen, within
from textual import events
from textual.app import App, ComposeResult
from textual.widgets import Static
from web_support import WebClient, web_serving

from crib3.net import driver as driver_module
from crib3.net.driver import ChannelDriver
from crib3.net.gate import Limits
from crib3.tui import textual_compat

# --- the driver alone -----------------------------------------------------------------------


class Recorder:
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.writes.append(data)


class Keys(App[None]):
    """Keeps the keys it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static("keys")

    def on_key(self, event: events.Key) -> None:
        self.keys.append(event.key)


async def _running(app: Keys) -> tuple[ChannelDriver, asyncio.Task[None], Counter[str]]:
    """`app` on a `ChannelDriver`, started; and a count of the messages
    the driver hands it, by kind."""
    app.driver_class = ChannelDriver.for_channel(Recorder())
    task = asyncio.get_running_loop().create_task(app.run_async(size=(40, 5)))
    for _ in range(500):
        if app.is_running and isinstance(app._driver, ChannelDriver):
            break
        await asyncio.sleep(0.01)
    driver = app._driver
    assert isinstance(driver, ChannelDriver)
    told: Counter[str] = Counter()
    handed_on = driver.process_message

    def counted(message: events.Message) -> None:
        told[type(message).__name__] += 1
        handed_on(message)

    driver.process_message = counted  # type: ignore[method-assign]  # a count of what is told
    return driver, task, told


async def _stop(app: Keys, task: asyncio.Task[None]) -> None:
    app.exit()
    await asyncio.wait_for(task, 10)


async def _keys_arrive(app: Keys, *keys: str) -> None:
    for _ in range(300):
        if all(key in app.keys for key in keys):
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{keys} never arrived; had {app.keys}")


MALFORMED = {
    "a kitty key past U+10FFFF": "\x1b[1114112u",
    "a kitty key too big for a number": "\x1b[99999999999999999999u",
    "a kitty key's text past U+10FFFF": "\x1b[97;1;1114112u",
    "a kitty key with colons in its code": "\x1b[1:2u",
    "a mouse report after an in-band size of zero": "\x1b[48;0;0;0;0t\x1b[<0;5;5M",
}


@pytest.mark.parametrize("sequence", MALFORMED.values(), ids=list(MALFORMED))
async def test_a_sequence_the_parser_cannot_read_is_dropped_and_the_keys_go_on(sequence):
    """Before: Textual's parser raised, its generator was dead, and the
    session answered no key again (a traceback for each chunk it sent)."""
    app = Keys()
    driver, task, _ = await _running(app)
    try:
        driver.feed(sequence.encode())
        driver.feed(b"x")
        await _keys_arrive(app, "x")
        driver.feed(b"y")
        await _keys_arrive(app, "y")
        assert driver.count.parse_failures == 0
    finally:
        await _stop(app, task)


async def test_without_the_seam_a_dead_parser_is_replaced_then_the_session_closed(caplog):
    """On a Textual whose parser the seam cannot mend, the driver starts a
    new parser after a sequence that killed one; after a few, it closes
    the session, with one line in the log each time (no traceback)."""
    caplog.set_level(logging.INFO, logger="crib3.serve")
    textual_compat.force_fallback("xterm-key-parse")
    try:
        app = Keys()
        driver, task, _ = await _running(app)
        driver.feed(b"\x1b[1114112u")
        driver.feed(b"x")
        await _keys_arrive(app, "x")
        for _ in range(driver_module.PARSE_FAILURES):
            driver.feed(b"\x1b[1114112u")
        await asyncio.wait_for(task, 10)  # closed
    finally:
        textual_compat.reset_fallbacks()
    lines = [r.getMessage() for r in caplog.records]
    assert sum("could not be parsed" in line for line in lines) == 1, lines
    assert sum("closed: input that cannot be parsed" in line for line in lines) == 1, lines
    assert "Traceback" not in caplog.text


async def test_focus_reports_mouse_moves_and_replies_are_folded_before_the_app():
    """Before: each focus report (a whole screen restyled), each mouse move
    and each terminal reply reached the app, and none was counted."""
    app = Keys()
    driver, task, told = await _running(app)
    try:
        driver.feed(b"\x1b[O\x1b[I" * 1000)          # focus: lost, back, 2,000 times
        driver.feed(b"".join(b"\x1b[<35;%d;2M" % (1 + n % 30) for n in range(500)))
        driver.feed(b"\x1b[3;4R" * 500)                # cursor-position replies
        driver.feed(b"x")
        await _keys_arrive(app, "x")
        await asyncio.sleep(0.4)  # (what was folded is told after its pause)
        assert told["AppFocus"] + told["AppBlur"] <= 2, told
        assert told["MouseMove"] <= 3, told
        assert told["CursorPosition"] <= driver_module.REPLY_BURST + 1, told
        assert driver.count.coalesced >= 2000
        assert driver._focused  # the latest report said: focused
    finally:
        await _stop(app, task)


async def test_a_paste_that_never_ends_is_thrown_away(monkeypatch):
    """Before: a bracketed paste's start, and no end: the parser kept every
    character after it, without end, and the session answered no key."""
    monkeypatch.setattr(driver_module, "MAX_UNTOLD", 1000)
    app = Keys()
    driver, task, _ = await _running(app)
    try:
        driver.feed(b"\x1b[200~")
        for _ in range(2):
            driver.feed(b"p" * 600)
        assert driver.count.dropped_untold > 1000
        driver.feed(b"x")
        await _keys_arrive(app, "x")
    finally:
        await _stop(app, task)


async def test_a_session_that_keeps_flooding_is_closed(monkeypatch, caplog):
    """Input dropped, second after second: the session is closed (one line)."""
    caplog.set_level(logging.INFO, logger="crib3.serve")
    monkeypatch.setattr(driver_module, "FLOOD_STRIKES", 2)
    app = Keys()
    driver, task, _ = await _running(app)
    flood = b"z" * (driver_module.BYTE_BURST + 1)
    driver.feed(flood)
    await asyncio.sleep(1.05)
    driver.feed(flood)
    await asyncio.wait_for(task, 10)
    assert driver.closed_for is not None
    lines = [r.getMessage() for r in caplog.records if "closed:" in r.getMessage()]
    assert len(lines) == 1, lines


# --- over SSH, beside seated players ----------------------------------------------------------


async def _attack_while_measuring(attack, seated: Client) -> float:
    """Key→screen of `seated` while `attack` runs (then it is stopped)."""
    task = asyncio.get_running_loop().create_task(attack())
    try:
        await asyncio.sleep(0.5)
        return await key_to_screen(seated, rounds=3)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2], ids=["one process", "session workers"])
async def test_a_focus_flood_leaves_the_seated_players_their_keys(tmp_path, monkeypatch, workers):
    """Before: ~1,400 focus reports a second, within the byte allowance,
    each restyling the attacker's whole screen on the loop (or in the
    worker) that seated players share."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with serving(tmp_path, workers=workers) as server:
        clients, _ = await seat_three(server.port, server.room)
        before = await key_to_screen(clients[0], rounds=3)
        eve = await Client.connect(server.port, "eve", source="127.0.0.7")
        await eve.shows("Open a table")
        eve.press("w")  # a spectator: in the table's worker, beside its players
        await eve.shows("(you are watching)")
        if workers > 1:
            await until(lambda: worker_pids(server).get("eve") == worker_pids(server)["ann"],
                        what="eve in the table's worker")

        async def focus_flood() -> None:
            while True:  # just inside the byte allowance
                eve.press(b"\x1b[O\x1b[I" * 50)
                await asyncio.sleep(0.08)

        during = await _attack_while_measuring(focus_flood, clients[0])
        within(during, before)
        eve.terminal.received.clear()
        eve.press("l")  # and the attacker's own session still answers
        await eve.shows("Open a table")
        dan = await Client.connect(server.port, "dan", source="127.0.0.3")
        await dan.shows("Also here")
        print(f"\nfocus flood: key→screen {before * 1000:.0f} → {during * 1000:.0f} ms")
        for client in (*clients, eve, dan):
            client.close()


@pytest.mark.slow
async def test_a_browser_that_floods_focus_and_bad_keys_spoils_nothing(tmp_path, monkeypatch,
                                                                        caplog):
    """The same from a browser (its websocket's bytes reach the same
    driver): a spectator's focus reports and unreadable keys, while a
    seated SSH player is measured; the browser still answers keys."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    caplog.set_level(logging.INFO, logger="crib3.serve")
    async with web_serving(tmp_path) as (server, door):
        clients, _ = await seat_three(server.port, server.room)
        before = await key_to_screen(clients[0], rounds=3)
        eve = await WebClient.connect(door, token=door.book.invite("the host", name="eve"))
        await eve.shows("Open a table")
        eve.press("w")
        await eve.shows("(you are watching)")

        async def flood() -> None:
            while True:
                eve.press(b"\x1b[O\x1b[I" * 50)
                await asyncio.sleep(0.08)

        during = await _attack_while_measuring(flood, clients[0])
        within(during, before)
        eve.press(b"\x1b[1114112u\x1b[1:2u")
        eve.terminal.received.clear()
        eve.press("l")
        await eve.shows("Open a table")
        dan = await Client.connect(server.port, "dan", source="127.0.0.3")
        await dan.shows("Also here")
        print(f"\nbrowser flood: key→screen {before * 1000:.0f} → {during * 1000:.0f} ms")
        for client in (*clients, dan):
            client.close()
        await eve.aclose()
    assert not [r for r in caplog.records if r.exc_info], caplog.text[-2000:]


async def test_a_bad_key_sequence_leaves_the_session_answering_keys(tmp_path, monkeypatch,
                                                                     caplog):
    """Before: `ESC [ 1114112 u` killed the session's parser (it answered
    no key again) and every chunk after it logged a traceback."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    caplog.set_level(logging.INFO, logger="crib3.serve")
    async with serving(tmp_path) as server:
        clients, _ = await seat_three(server.port, server.room)
        before = await key_to_screen(clients[0], rounds=3)
        eve = await Client.connect(server.port, "eve", source="127.0.0.7")
        await eve.shows("Open a table")

        async def bad_keys() -> None:
            while True:
                eve.press(b"\x1b[1114112u\x1b[99999999999999999999u\x1b[9;99999999999u")
                await asyncio.sleep(0.05)

        during = await _attack_while_measuring(bad_keys, clients[0])
        within(during, before)
        await asyncio.sleep(0.2)
        eve.press("o")
        await eve.shows("Second seat")
        dan = await Client.connect(server.port, "dan", source="127.0.0.3")
        await dan.shows("Also here")
        for client in (*clients, eve, dan):
            client.close()
    assert not [r for r in caplog.records if r.exc_info], caplog.text[-2000:]
    assert "could not be parsed" not in caplog.text  # (each kind read, and dropped)


async def test_one_connection_cannot_churn_sessions(tmp_path, monkeypatch):
    """Before: one connection opened ten sessions every 0.2 s, each signing
    in again and kicking the one before: the room's p95 went 13 → 559 ms.
    Now a connection has one session open at a time, and a person begins
    only so many a minute; each refusal is one line to the client."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with serving(tmp_path, limits=Limits(sessions_per_minute=5)) as server:
        clients, _ = await seat_three(server.port, server.room)
        before = await key_to_screen(clients[0], rounds=3)
        eve = await Client.connect(server.port, "eve", source="127.0.0.7")
        await eve.shows("Open a table")
        eve.chan.close()  # (her first session, closed: the churn opens the next)
        refusals: list[str] = []
        opened: list[asyncssh.SSHClientChannel[bytes]] = []

        async def one() -> None:
            try:
                chan, _ = await eve.conn.create_session(Terminal, term_type="xterm-256color",
                                                        term_size=(80, 24), encoding=None)
                opened.append(chan)
            except asyncssh.ChannelOpenError as exc:
                refusals.append(exc.reason)

        async def churn() -> None:
            while True:
                await asyncio.gather(*(one() for _ in range(10)))
                for chan in opened:  # (each closed again, to make room for the next)
                    chan.close()
                await asyncio.sleep(0.1)

        during = await _attack_while_measuring(churn, clients[0])
        within(during, before)
        assert all(r.startswith("crib3: ") for r in refusals), refusals[:3]
        assert any("at a time" in r for r in refusals), refusals[:3]
        assert any("this minute" in r for r in refusals), refusals[:3]
        begun = len(opened)
        assert begun <= 4, begun  # her allowance a minute (the first was one of it)
        dan = await Client.connect(server.port, "dan", source="127.0.0.3")
        await dan.shows("Also here")
        print(f"\nsession churn: key→screen {before * 1000:.0f} → {during * 1000:.0f} ms; "
              f"{begun} sessions begun, {len(refusals)} refused")
        for client in (*clients, eve, dan):
            client.close()


def test_the_seam_has_the_parser_shape_on_the_pinned_textual():
    assert textual_compat.have("xterm-key-parse")
    start = time.monotonic()
    parser = textual_compat.xterm_parser()
    assert [getattr(m, "key", None) for m in parser.feed("\x1b[1114112ux")] == ["x"]
    assert time.monotonic() - start < 5
