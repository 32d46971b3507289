"""The invite book (`crib3.room.invites`, an SQLite file), run on demand:
`python -m pytest tests/benchmarks/test_invite_book_speed.py --benchmark-only -s`.

The web door asks the book on its event loop: a cookie's browser on every
page and websocket, a link's token at every redeem. Each call is timed
here in a book of 100,000 browsers (far past what the room's caps let in),
and an older JSON Lines book of 45,338 browsers (what 30 s of minting made
before) is read in, as the first open does. Results in `extra_info`, in
microseconds (the read-in in seconds); the numbers are in
`assets/measurements/invite-book.md`.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
import timeit

from crib3.room.invite_store import open_store, writing
from crib3.room.invites import HOST, InviteBook, InviteRefused

BROWSERS = 100_000


def per_call_us(run, number: int) -> float:
    return min(timeit.repeat(run, number=number, repeat=5)) / number * 1e6


def test_a_book_of_a_hundred_thousand_browsers(benchmark, tmp_path):
    folder = tmp_path / "web"
    db = open_store(folder)
    kept = [secrets.token_urlsafe(32) for _ in range(BROWSERS)]
    with writing(db):
        db.executemany("INSERT INTO identities VALUES (?, ?, 2e9, NULL)",
                       ((hashlib.sha256(secret.encode()).hexdigest(), f"p{n}")
                        for n, secret in enumerate(kept)))
    db.close()
    book = InviteBook(folder)

    def guess() -> None:
        try:
            book.redeem(secrets.token_urlsafe(32))
        except InviteRefused:
            pass

    def invite_and_redeem() -> None:
        book.redeem(book.invite(HOST, name="ann"))

    timed = {
        "a junk cookie": per_call_us(lambda: book.identity(secrets.token_urlsafe(32)), 2000),
        "a known cookie": per_call_us(lambda: book.identity(kept[BROWSERS // 2]), 2000),
        "a guessed link": per_call_us(guess, 2000),
        "a browser sits down (written)": per_call_us(
            lambda: book.newcomer("zed"), 200),
        "a link made and redeemed": per_call_us(invite_and_redeem, 100),
    }
    benchmark.extra_info.update({k: round(v, 1) for k, v in timed.items()})
    benchmark(lambda: book.identity(secrets.token_urlsafe(32)))
    for what, us in timed.items():
        print(f"\n{what}: {us:.0f} µs", end="")


def test_an_older_book_read_in(benchmark, tmp_path):
    folder = tmp_path / "web"
    folder.mkdir()
    lines = [json.dumps({"kind": "identity", "hash": hashlib.sha256(
        secrets.token_bytes(16)).hexdigest(), "name": f"z{n}", "expires": 2e9,
        "table": None}) + "\n" for n in range(45_338)]
    (folder / "invites.jsonl").write_text("".join(lines))
    started = time.perf_counter()
    InviteBook(folder).open()
    took = time.perf_counter() - started
    size = sum(p.stat().st_size for p in folder.glob("invites.db*"))
    benchmark.extra_info.update({"read in (s)": round(took, 2), "database bytes": size})
    benchmark(lambda: None)
    print(f"\n45,338 browsers read in: {took:.2f} s, {size / 1e6:.1f} MB")
