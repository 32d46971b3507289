"""The issue's live event: nine people at three tables, eight over real SSH
and one in Chromium through the web door, enter from the lobby and play a
live event of three boards. The results equal an independent
recomputation from the tables' logs, and every byte each of the nine was
sent is searched: none holds a card hidden from them at that point of the
board on their screen, and none sent away from a board's table (waiting
for the other tables, board after board) holds a card at all."""

from __future__ import annotations

import asyncio
import time

import asyncssh
import pytest
from helpers import finished
from ssh_support import Client, plain, until
from test_live_event_ssh import independent_results, record_writes
from test_ssh import hidden_from
from test_web_browser import CHROMIUM, FLAGS, async_playwright, screen, shows
from web_support import web_serving

from crib3.cards import DECK
from crib3.engine import State, apply
from crib3.engine.log import load_log
from crib3.room.live_event import OVER, PLAYING, WITH_COMPUTER, new_live_event

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="needs chromium (Debian's package)"),
    pytest.mark.skipif(async_playwright is None, reason="needs playwright"),
]

SSH_NAMES = ("ann", "bob", "cat", "dan", "eve", "flo", "gil", "hal")
BROWSER = "ivy"


def assert_nothing_leaked(sent, live) -> int:
    """Every write searched (see the module's docstring); how many bytes
    were sent from a board's table."""
    runs = {}
    for (number, index), path in live.logs.items():
        run = [State()]
        for event in load_log(path).events:
            run.append(apply(run[-1], event))
        runs[int(path.stem.split("-")[1])] = (number, index, run)
    labels = {c.label() for c in DECK}
    checked = own = 0
    for name, table, shown, data in sent:
        text = plain(data)
        if table is None:
            assert not [c for c in labels if c in text], (name, text[:200])
            continue
        board, index, run = runs[table]
        slot = live.seating[index].index(name)
        state = run[min(shown, len(run) - 1)]
        # The cut for first deal's three cards stay in the feed (a wide screen
        # shows it): public, and on a board cards nobody is dealt or sees
        # turned (`Board.deal_cuts`), so leaving them out hides no other card.
        cuts = set(live.boards[board - 1].deal_cuts())
        assert cuts <= set(live.boards[board - 1].unseen)
        leaked = [c.label() for c in hidden_from(state, slot) - cuts if c.label() in text]
        assert not leaked, (name, board, shown, leaked)
        checked += len(data)
        own += any(c.label() in text for c in run[-1].kept[slot])
    assert own > 0  # and the search can find a card: each person's own are found
    return checked


async def test_nine_people_one_in_a_browser_play_a_live_event_of_three_boards(tmp_path,
                                                                               monkeypatch):
    began = time.monotonic()
    sent = record_writes(monkeypatch)
    live = new_live_event("nine", 44, 3, "easy", "ann", time.time() + 3600, WITH_COMPUTER)
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in SSH_NAMES}
    authorized = tmp_path / "authorized_keys"
    authorized.write_text("".join(k.export_public_key().decode() for k in keys.values()))
    async with web_serving(tmp_path, keys=authorized) as (server, door), \
            async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        try:
            page = await browser.new_page(viewport={"width": 1000, "height": 640})
            await page.goto(f"{door.url}/#invite={door.book.invite('the host', name=BROWSER)}")
            clients = [await Client.connect(server.port, name, key=keys[name])
                       for name in SSH_NAMES]
            await shows(page, "Open a table")
            room = server.room
            await until(lambda: "nine" in room.events.events, what="the event found")
            live = room.events.events["nine"]
            for client in clients:
                await client.shows("Open a table")
                client.press("e")
            await page.keyboard.press("e")
            for client in clients:
                await client.shows("nine: 3 boards")
                client.press("j")
            await shows(page, "nine: 3 boards")
            await page.keyboard.press("j")
            await until(lambda: len(live.entrants) == 9, what="nine entered")
            clients[0].press("s")  # ann hosts it: started now
            await until(lambda: live.status == PLAYING, what="the start")
            assert sorted(len([w for w in t if w]) for t in live.seating) == [3, 3, 3]
            loop = asyncio.get_running_loop()
            deadline = loop.time() + 90
            while live.status != OVER:
                assert loop.time() < deadline, (
                    f"the event is stuck at board {live.board}",
                    [(t.number, t.over, t.game.to_act(), t.online)
                     for t in room.events.tables.get(live.name, [])],
                    await screen(page))
                for client in clients:
                    client.press("\r")
                await page.keyboard.press("Enter")
                await asyncio.sleep(0.05)  # (20 keys a second: the door closes past 30)
            fields, ranking, problems = live.results()
            for client in clients:
                client.close()
        finally:
            await finished(browser.close(), 60, "chromium's close")
    took = time.monotonic() - began

    assert problems == [] and len(live.logs) == 9
    got = {(f.board, f.slot): {s.play.who: s.percent for s in f.result.plays} for f in fields}
    assert got == independent_results(live)
    assert {s.who for s in ranking if s.person} == {*SSH_NAMES, BROWSER}
    assert {name for name, *_ in sent} == {*SSH_NAMES, BROWSER}  # the browser's bytes too
    assert assert_nothing_leaked(sent, live) > 10_000
    print(f"nine people, three boards: {took:.1f} s")
