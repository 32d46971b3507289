"""The invite book as an indexed store: an SQLite file of the owner's
alone, an older crib3's JSON Lines book read in once (and kept), every
lookup a search by its index however big the book, and several processes
writing at once."""

from __future__ import annotations

import json
import multiprocessing
import secrets
import sqlite3
import stat

import pytest

from crib3.room import invites
from crib3.room.invites import HOST, InviteBook, InviteRefused, digest


def legacy_line(record: dict) -> bytes:
    """A record as the older crib3 appended it to `invites.jsonl`."""
    return (json.dumps(record, ensure_ascii=True) + "\n").encode("ascii")


def test_an_older_book_is_read_in_once_and_kept_beside_it(tmp_path):
    folder = tmp_path / "web"
    folder.mkdir(mode=0o700)
    later = 2e9  # (seconds since 1970: in 2033)
    open_token, used_token, revoked_token = (secrets.token_urlsafe(32) for _ in range(3))
    cookie, nameless, expired_cookie = (secrets.token_urlsafe(32) for _ in range(3))
    lines = [
        {"kind": "invite", "hash": digest(open_token), "name": "ann", "table": 3,
         "expires": later, "made_by": HOST},
        {"kind": "invite", "hash": digest(used_token), "name": None, "table": None,
         "expires": later, "made_by": "bob"},
        {"kind": "invite", "hash": digest(revoked_token), "name": "cat", "table": None,
         "expires": later, "made_by": HOST},
        {"kind": "used", "hash": digest(used_token)},
        {"kind": "revoked", "hash": digest(revoked_token)},
        {"kind": "identity", "hash": digest(cookie), "name": "dan", "expires": later,
         "table": 2},
        {"kind": "identity", "hash": digest(nameless), "name": None, "expires": later,
         "table": None},
        {"kind": "named", "hash": digest(nameless), "name": "eve"},
        {"kind": "identity", "hash": digest(expired_cookie), "name": "fay", "expires": 1.0,
         "table": None},
    ]
    old = b"".join(legacy_line(record) for record in lines)
    old += b"not json\n" + legacy_line({"kind": "identity", "hash": "x" * 5000,
                                        "name": "long", "expires": later})
    old += b'{"kind": "identity", "hash": "torn'           # a write cut short
    (folder / "invites.jsonl").write_bytes(old)

    book = InviteBook(folder)
    found = book.identity(cookie)
    assert found is not None and (found.name, found.table) == ("dan", 2)
    assert book.identity(nameless).name == "eve"
    assert book.identity(expired_cookie) is None
    assert [(i.name, i.table, i.made_by) for i in book.open_invites()] == [("ann", 3, HOST)]
    with pytest.raises(InviteRefused, match="used already"):
        book.redeem(used_token)
    with pytest.raises(InviteRefused, match="withdrawn"):
        book.redeem(revoked_token)
    secret, identity = book.redeem(open_token)
    assert (identity.name, identity.table) == ("ann", 3)
    assert not (folder / "invites.jsonl").exists()
    assert (folder / "invites.jsonl.bak").read_bytes() == old
    assert stat.S_IMODE(book.path.stat().st_mode) == 0o600
    again = InviteBook(folder)                         # another process, later
    assert again.identity(secret).name == "ann" and again.identity(cookie).name == "dan"
    assert again.identities() == 3                     # dan, eve, ann (fay had expired)
    assert (folder / "invites.jsonl.bak").read_bytes() == old
    # The old file put back (a backup restored): what it says is read in
    # again, but a link used since stays used.
    (folder / "invites.jsonl").write_bytes(old)
    restored = InviteBook(folder)
    with pytest.raises(InviteRefused, match="used already"):
        restored.redeem(open_token)
    assert restored.identity(secret).name == "ann"


def test_the_book_is_the_owners_alone(tmp_path):
    folder = tmp_path / "web"
    book = InviteBook(folder)
    book.invite(HOST, name="ann")
    book.newcomer("bob")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    made = sorted(folder.glob("invites.db*"))
    assert [p.name for p in made] == ["invites.db", "invites.db-shm", "invites.db-wal"]
    for path in made:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    book.path.chmod(0o644)                             # restored from a backup, say
    book.close()
    InviteBook(folder).identities()
    assert stat.S_IMODE(book.path.stat().st_mode) == 0o600


def test_a_cookie_or_a_token_costs_one_indexed_search_however_big_the_book(
        tmp_path, monkeypatch):
    """A book of 3,000 browsers, opened by a new process: a thousand junk
    cookies and guessed tokens make no identity at all (nothing is read
    whole), and every statement they run searches by an index."""
    book = InviteBook(tmp_path / "web")
    kept = [book.newcomer(f"p{n}")[0] for n in range(3000)]
    book.invite(HOST, name="ann")
    made = 0

    class Counted(invites.Identity):
        def __init__(self, *args, **kwargs) -> None:
            nonlocal made
            made += 1
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(invites, "Identity", Counted)
    fresh = InviteBook(tmp_path / "web")
    statements: list[str] = []
    with fresh._locked() as db:
        db.set_trace_callback(statements.append)
    for _ in range(1000):
        assert fresh.identity(secrets.token_urlsafe(32)) is None
    for _ in range(20):
        with pytest.raises(InviteRefused, match="not an invite link of this card room"):
            fresh.redeem(secrets.token_urlsafe(32))
    assert made == 0
    assert fresh.identity(kept[1234]).name == "p1234" and made == 1
    with fresh._locked() as db:
        db.set_trace_callback(None)
        plans = {text: " / ".join(row[3] for row in db.execute(f"EXPLAIN QUERY PLAN {text}"))
                 for text in set(statements)}
    assert plans
    for text, plan in plans.items():
        assert "SCAN" not in plan and ("PRIMARY KEY" in plan or "INDEX" in plan), (text, plan)


def _make_links(folder, who: str, count: int) -> None:
    book = InviteBook(folder)
    for n in range(count):
        book.invite(HOST, name=f"{who}{n}")
        book.newcomer(f"{who}-browser{n}")


def test_several_processes_write_the_book_at_once(tmp_path):
    folder = tmp_path / "web"
    InviteBook(folder).identities()                    # (made, as the server does at start)
    context = multiprocessing.get_context("fork")
    workers = [context.Process(target=_make_links, args=(folder, f"w{w}", 40))
               for w in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
        assert worker.exitcode == 0
    book = InviteBook(folder)
    names = sorted(i.name for i in book.open_invites())
    assert names == sorted(f"w{w}{n}" for w in range(3) for n in range(40))
    assert book.identities() == 120


def test_a_forked_process_opens_its_own_connection(tmp_path):
    """A book opened before a fork (the server's, before its workers) is
    not used through the parent's connection in the child."""
    book = InviteBook(tmp_path / "web")
    book.invite(HOST, name="ann")
    context = multiprocessing.get_context("fork")
    child = context.Process(target=_make_links_with, args=(book, 5))
    child.start()
    child.join(30)
    assert child.exitcode == 0
    assert len(book.open_invites()) == 6


def _make_links_with(book: InviteBook, count: int) -> None:
    for n in range(count):
        book.invite(HOST, name=f"child{n}")


def test_expired_browsers_leave_the_book_as_new_ones_come(tmp_path):
    now = [1_000_000.0]
    book = InviteBook(tmp_path / "web", clock=lambda: now[0])
    first = [book.newcomer(f"p{n}")[0] for n in range(50)]
    now[0] += invites.IDENTITY_DAYS * 86400 + 1
    assert book.identity(first[0]) is None
    book.newcomer("late")
    assert book.identities() == 1
    with sqlite3.connect(book.path) as db:             # (and so the file stays small)
        assert db.execute("SELECT name FROM identities").fetchall() == [("late",)]


def test_a_browser_is_known_for_its_days_from_its_last_sign_in(tmp_path):
    now = [1_000_000.0]
    book = InviteBook(tmp_path / "web", clock=lambda: now[0])
    secret, identity = invites.new_identity("ann", clock=lambda: now[0])
    assert book.identity(secret) is None               # not written until she sits down
    book.sat_down(identity)
    assert book.identity(secret).name == "ann" and book.identities() == 1
    now[0] += (invites.IDENTITY_DAYS - 1) * 86400
    book.sat_down(book.identity(secret))               # back a day before the end
    now[0] += (invites.IDENTITY_DAYS - 1) * 86400
    assert book.identity(secret).name == "ann" and book.identities() == 1
    now[0] += 2 * 86400
    assert book.identity(secret) is None


def test_newcomers_waiting_for_a_seat_are_bounded_in_number_and_time():
    from crib3.net.web_admission import Newcomers

    now = [0.0]
    waiting = Newcomers(kept=10, seconds=60, clock=lambda: now[0])
    made = [invites.new_identity(f"p{n}") for n in range(25)]
    for _, identity in made:
        waiting.add(identity)
    assert len(waiting) == 10
    assert waiting.get(made[0][0]) is None and waiting.get(made[24][0]).name == "p24"
    assert waiting.get("junk") is None and waiting.get("x" * 500) is None
    assert waiting.seated(made[24][1]) and waiting.get(made[24][0]) is None
    now[0] = 61
    assert waiting.get(made[23][0]) is None


def test_a_book_that_is_not_a_database_is_one_line_everywhere(tmp_path, monkeypatch, capsys):
    from crib3.cli import main
    from crib3.common.paths import data_dir

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    folder = data_dir() / "web"
    folder.mkdir(parents=True)
    (folder / "invites.db").write_bytes(b"not a database, " * 512)
    with pytest.raises(InviteRefused) as caught:
        InviteBook(folder).open()
    assert str(caught.value) == (f"the invite book {folder / 'invites.db'} cannot be read "
                                 "(file is not a database): move it aside to begin a new one")
    assert main(["invite", "--list"]) != 0
    assert capsys.readouterr().err == f"crib3 invite: {caught.value}\n"


async def test_the_web_door_does_not_open_on_a_book_it_cannot_read(tmp_path):
    from crib3.net.web import WebDoor
    from crib3.net.web_options import WebOptions, WebRefused

    folder = tmp_path / "web"
    folder.mkdir()
    (folder / "invites.db").write_bytes(b"not a database, " * 512)
    door = WebDoor(None, WebOptions(port=0), InviteBook(folder))  # (a service is not asked)
    with pytest.raises(WebRefused, match="cannot be read .file is not a database.: move it"):
        await door.start()
