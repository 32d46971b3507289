"""Where the invite book lives: one SQLite database in the web folder.

Every process that needs the book (the server's web door, a session
worker whose player makes a link, the `crib3 invite` command) opens the
same file; SQLite's own locking lets them write at once, and WAL lets
readers go on while one writes. A lookup by a link's or a cookie's digest
is a primary-key search, so a stranger's junk cookie or guessed token costs
one indexed read however big the book grows, and nothing is ever parsed
whole. Commits are not synced to disk one by one (`synchronous=NORMAL` in
WAL mode): a power cut may lose the last few, never the file.

The file is the owner's alone (mode 0600, in a 0700 folder); it holds
digests only. A book from an older crib3 (`invites.jsonl`, one JSON record
a line, appended) is read into the database the first time it is opened,
under a lock so that two processes do not both do it, and kept beside it
as `invites.jsonl.bak`.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

log = logging.getLogger("crib3.serve")

DATABASE = "invites.db"
LEGACY = "invites.jsonl"      # the book as an older crib3 kept it
LEGACY_KEPT = "invites.jsonl.bak"
MAX_LINE = 4096               # a longer line in an old book is not ours: skipped
BUSY_SECONDS = 5.0            # how long a write waits for another process's
VERSION = 1                   # the schema's, in the file's user_version

SCHEMA = """
CREATE TABLE IF NOT EXISTS invites (
    hash TEXT PRIMARY KEY,
    name TEXT,
    tbl INTEGER,
    expires REAL NOT NULL,
    made_by TEXT NOT NULL,
    used INTEGER NOT NULL DEFAULT 0,
    revoked INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS invites_by_maker ON invites (made_by, expires);
CREATE INDEX IF NOT EXISTS invites_by_expiry ON invites (expires);
CREATE INDEX IF NOT EXISTS invites_open ON invites (expires) WHERE used = 0 AND revoked = 0;
CREATE TABLE IF NOT EXISTS identities (
    hash TEXT PRIMARY KEY,
    name TEXT,
    expires REAL NOT NULL,
    tbl INTEGER
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS identities_by_expiry ON identities (expires);
"""


def open_store(folder: Path) -> sqlite3.Connection:
    """The book's database in `folder`, made (0600) and brought up to date
    (an old JSON Lines book read in) if need be. The connection commits
    each statement by itself unless `writing` opens a transaction."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    path = folder / DATABASE
    os.close(os.open(path, os.O_RDWR | os.O_CREAT, 0o600))
    os.chmod(path, 0o600)  # (one made by hand, or restored wider, is narrowed)
    db = sqlite3.connect(str(path), timeout=BUSY_SECONDS, isolation_level=None,
                         check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        if db.execute("PRAGMA user_version").fetchone()[0] != VERSION or \
                (folder / LEGACY).exists():
            with _folder_locked(folder):
                db.executescript(SCHEMA)
                db.execute(f"PRAGMA user_version={VERSION}")
                _migrate(db, folder)
    except BaseException:
        db.close()
        raise
    return db


@contextlib.contextmanager
def writing(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction: taken at once (BEGIN IMMEDIATE), so that a
    read-then-write sees no other process's write in between."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


@contextlib.contextmanager
def _folder_locked(folder: Path) -> Iterator[None]:
    """Another process opening the book at the same moment waits here
    (only the first open of a folder, or of an old book, comes here)."""
    with open(folder / "invites.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _migrate(db: sqlite3.Connection, folder: Path) -> None:
    """An old book (`LEGACY`) into the database, then kept as `LEGACY_KEPT`."""
    old = folder / LEGACY
    try:
        data = old.read_bytes()
    except FileNotFoundError:
        return
    invites, identities = read_legacy(data)
    with writing(db):  # (what the database knows already stands: a link used stays used)
        db.executemany("INSERT OR IGNORE INTO invites VALUES (?, ?, ?, ?, ?, ?, ?)",
                       invites.values())
        db.executemany("INSERT OR IGNORE INTO identities VALUES (?, ?, ?, ?)",
                       identities.values())
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # (the whole book was one write)
    os.replace(old, folder / LEGACY_KEPT)
    log.info("the invite book is now %s (%d links, %d browsers); the old file is kept as %s",
             folder / DATABASE, len(invites), len(identities), folder / LEGACY_KEPT)


Row = tuple[object, ...]


def read_legacy(data: bytes) -> tuple[dict[str, Row], dict[str, Row]]:
    """An old book's whole lines as rows of the two tables, by digest:
    (hash, name, table, expires, made_by, used, revoked) and (hash, name,
    expires, table). A torn or foreign line is skipped; the rest counts."""
    invites: dict[str, list[object]] = {}
    identities: dict[str, list[object]] = {}
    whole = data.rfind(b"\n") + 1
    for raw in data[:whole].splitlines():
        if len(raw) > MAX_LINE:
            continue
        try:
            record = json.loads(raw.decode("ascii", "replace"))
            kind, key = record["kind"], str(record["hash"])
            if kind == "invite":
                invites[key] = [key, _name(record.get("name")), _number(record.get("table")),
                                float(record["expires"]), str(record.get("made_by", "")), 0, 0]
            elif kind == "used" and key in invites:
                invites[key][5] = 1
            elif kind == "revoked" and key in invites:
                invites[key][6] = 1
            elif kind == "identity":
                identities[key] = [key, _name(record.get("name")), float(record["expires"]),
                                   _number(record.get("table"))]
            elif kind == "named" and key in identities:
                identities[key][1] = _name(record.get("name"))
        except (ValueError, KeyError, TypeError, AttributeError):
            continue
    return ({k: tuple(v) for k, v in invites.items()},
            {k: tuple(v) for k, v in identities.items()})


def _name(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
