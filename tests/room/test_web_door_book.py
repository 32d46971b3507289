"""The web door and its invite book under `--open`: a name asked for
writes nothing until its person sits down, so a flood of names leaves the
book as it was; junk cookies and guessed links cost an indexed lookup, never
a read of the whole book. Each while a seated browser player's key→screen
stays within a ratio of its own baseline measured in the same test, and a
new browser still gets in."""

from __future__ import annotations

import asyncio
import secrets

import aiohttp
import pytest
from helpers import finished
from test_ssh_hostile import lobby_key, within  # (the SSH door's: a browser's client alike)
from web_support import WebClient, web_serving

from crib3.common.paths import data_dir
from crib3.net.web import COOKIE
from crib3.net.web_admission import NEWCOMERS_KEPT
from crib3.room import invites
from crib3.room.invites import InviteBook

pytestmark = pytest.mark.slow


def book_bytes(book: InviteBook) -> int:
    return sum(path.stat().st_size for path in book.folder.glob("invites.db*"))


async def ask_names(door, source: str, count: int, first: int) -> list[int]:
    """`count` new names asked for from `source`, each by a browser with
    no cookie (a new one each time): the answers' statuses."""
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    statuses = []
    async with aiohttp.ClientSession(connector=connector,
                                     cookie_jar=aiohttp.DummyCookieJar()) as http:
        for n in range(first, first + count):
            async with http.post(f"{door.url}/api/name", json={"name": f"z{n}"},
                                 headers={"Origin": door.url}) as answer:
                statuses.append(answer.status)
    return statuses


async def test_names_asked_for_write_nothing_until_their_person_sits_down(
        tmp_path, monkeypatch):
    """2,000 names asked for, half from one address and half from four
    others: the book keeps only the people who sat down, its file does not
    grow, and the names waiting for a seat are bounded; a new browser still
    gets a name, sits down, and is in the book from then on."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    async with web_serving(tmp_path, names_per_key=0) as (server, door):
        ann = await WebClient.connect(door, name="ann")
        await ann.shows("Open a table")
        assert door.book.identities() == 1               # ann sat down: kept
        size = book_bytes(door.book)
        before = await lobby_key(ann)

        async def flood() -> list[int]:
            asked = await asyncio.gather(
                ask_names(door, "127.0.0.8", 1000, 0),
                *(ask_names(door, f"127.0.0.{9 + a}", 250, 1000 + 250 * a) for a in range(4)))
            return [status for statuses in asked for status in statuses]

        flooding = asyncio.ensure_future(flood())
        during = await lobby_key(ann)
        statuses = await finished(flooding, 120, "the flood of name requests")
        within(during, before)
        assert len(statuses) == 2000 and set(statuses) <= {200, 429}, set(statuses)
        assert door.book.identities() == 1
        assert book_bytes(door.book) <= size + 64 * 1024
        assert len(door.newcomers) == statuses.count(200) <= NEWCOMERS_KEPT
        bob = await WebClient.arrive(door, name="bob")   # from 127.0.0.1, as ann
        assert door.book.identities() == 1               # (not yet: he has not sat down)
        await bob.open()
        await bob.shows("Open a table")
        assert door.book.identities() == 2
        cookie = next(c.value for c in bob.http.cookie_jar if c.key == COOKIE)
        assert door.book.identity(cookie).name == "bob"
        async with bob.http.get(f"{door.url}/api/whoami") as answer:  # his page, again
            assert (await answer.json())["name"] == "bob"
            kept = answer.cookies[COOKIE]                # the cookie lasts as the book keeps him
            assert kept.value == cookie and kept["max-age"] == str(30 * 86400)
        await bob.drop()                                 # the network blips
        await bob.open()
        await bob.shows("Open a table")
        assert door.book.identities() == 2
        # Two browsers ask for the same free name; the second to sit down
        # is refused by the room, and leaves nothing in the book.
        first, second = [await WebClient.arrive(door, name="carl") for _ in range(2)]
        await first.open()
        await first.shows("Open a table")
        await second.open()
        await second.shows("carl is held here by someone else")
        assert door.book.identities() == 3
        print(f"\nnames asked for: key→screen {before * 1000:.0f} → {during * 1000:.0f} ms; "
              f"{statuses.count(200)} waiting, book {size} → {book_bytes(door.book)} bytes")
        for client in (ann, bob, first, second):
            await client.aclose()


async def test_junk_cookies_and_guessed_links_cost_an_indexed_lookup(tmp_path, monkeypatch):
    """A book of 3,000 browsers; a thousand requests with junk cookies,
    and guessed links from a few addresses: the door never reads the book
    whole (no browser is made but the ones asked for), the seated player's
    key→screen holds, and a new browser still gets in."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    book = InviteBook(data_dir() / "web")
    for n in range(3000):
        book.newcomer(f"p{n}")
    book.close()
    made = 0

    class Counted(invites.Identity):
        def __init__(self, *args, **kwargs) -> None:
            nonlocal made
            made += 1
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(invites, "Identity", Counted)
    async with web_serving(tmp_path, names_per_key=0) as (server, door):
        ann = await WebClient.connect(door, name="ann")
        await ann.shows("Open a table")
        before = await lobby_key(ann)

        async def junk(source: str, count: int) -> list[int]:
            connector = aiohttp.TCPConnector(local_addr=(source, 0))
            statuses = []
            async with aiohttp.ClientSession(connector=connector,
                                             cookie_jar=aiohttp.DummyCookieJar()) as http:
                for n in range(count):
                    cookie = {"Cookie": f"{COOKIE}={secrets.token_urlsafe(32)}",
                              "Origin": door.url}
                    if n % 5 == 0:
                        async with http.post(f"{door.url}/api/redeem", headers=cookie,
                                             json={"token": secrets.token_urlsafe(32)}) as a:
                            statuses.append(a.status)
                    else:
                        async with http.get(f"{door.url}/api/whoami", headers=cookie) as a:
                            assert (await a.json())["signed_in"] is False
                            statuses.append(a.status)
            return statuses

        attacking = asyncio.ensure_future(asyncio.gather(
            *(junk(f"127.0.0.{20 + a}", 250) for a in range(4))))
        during = await lobby_key(ann)
        answered = await finished(attacking, 120, "the junk requests")
        statuses = [s for answers in answered for s in answers]
        within(during, before)
        assert len(statuses) == 1000 and set(statuses) <= {200, 403, 429}, set(statuses)
        assert made <= 10, made                          # ann's, now and then: never the book
        bob = await WebClient.connect(door, name="bob")
        await bob.shows("Open a table")
        print(f"\njunk cookies: key→screen {before * 1000:.0f} → {during * 1000:.0f} ms; "
              f"{made} browsers made from a book of {door.book.identities()}")
        for client in (ann, bob):
            await client.aclose()
