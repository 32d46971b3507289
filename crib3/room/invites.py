"""Invite links: how a person without an SSH key is let in to the card room.

A browser player has no key, so the room gives them something that stands
for one. The host (`crib3 invite NAME`) or a seated player (a key at the
table) makes an **invite**: a random token (256 bits) that goes in a link.
It is kept here only as its SHA-256, is good once, for a limited time, and
can be revoked. Redeeming it makes an **identity**: a second random secret
that the web door sets as an HttpOnly cookie and that is the browser's key
from then on (`web:` and a digest of it is what the room sees as the key),
so coming back puts the person back in their seat, and every per-key limit
counts a browser as it counts an SSH key.

The book is an SQLite database (`crib3.room.invite_store`), so that every
process that needs it (the server, a session worker whose player makes a
link, the `crib3 invite` command) reads and writes the same one, and a
lookup by a cookie's or a link's digest is one indexed read, never a parse
of the whole book. Nothing secret is in it: a digest cannot be turned back
into a link or a cookie. Expired identities are dropped as new ones come.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import secrets
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from crib3.room.invite_store import DATABASE, open_store, writing

INVITE_HOURS = 24.0        # how long a link is good for, unless told
IDENTITY_DAYS = 30.0       # how long a browser stays known without coming back
TOKEN_BYTES = 32           # 256 bits: a link's token, and a cookie's secret
MAX_OPEN_INVITES = 1000    # unused, unexpired links the players made, at once (and the host's)
MAX_OPEN_PER_PERSON = 5    # unused, unexpired links one player made, at once
REUSED_KEPT = 1024         # players' recent links this process may hand out again
EXPIRED_KEPT_DAYS = 30.0   # an expired link is still known (to say so) this long
HOST = "the host"          # who `crib3 invite` makes a link for: never limited by players' links


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


@dataclass
class Invite:
    """One link, as the book knows it (its token is not kept)."""

    hash: str
    name: str | None      # the name it seats; None: the visitor chooses one
    table: int | None     # the table it is for, if any (told on the page)
    expires: float
    made_by: str
    used: bool = False
    revoked: bool = False

    def refusal(self, now: float) -> str | None:
        if self.revoked:
            return "this invite link was withdrawn"
        if self.used:
            return "this invite link has been used already: ask for a new one"
        if now >= self.expires:
            return "this invite link has expired: ask for a new one"
        return None


@dataclass
class Identity:
    """A browser that redeemed a link: who it is and until when."""

    hash: str
    name: str | None      # None until the visitor chooses one (a nameless link)
    expires: float
    table: int | None = None


def new_identity(name: str | None, table: int | None = None,
                 clock: Callable[[], float] = time.time) -> tuple[str, Identity]:
    """A new browser's secret (for its cookie) and identity, not yet in
    any book (`InviteBook.keep` writes it)."""
    secret = secrets.token_urlsafe(TOKEN_BYTES)
    return secret, Identity(digest(secret), name, clock() + IDENTITY_DAYS * 86400, table)


# A player's latest link for one table, by (who, name, table): its token,
# handed out again while it is open, so that reopening the invite dialog
# shows the same link rather than minting another. Kept in the process
# that made it (a session's worker) only: the book keeps no token.
_reused: OrderedDict[tuple[str, str | None, int | None], str] = OrderedDict()

_OPEN = "used = 0 AND revoked = 0 AND expires > ?"   # (with now)


class InviteRefused(Exception):
    """A link or a cookie that lets nobody in: one line to say why."""


class InviteBook:
    """The invites and identities of one card room, in `folder`. Each call
    is a few indexed statements on a local file (tens of microseconds), so
    the web door makes them on its event loop."""

    def __init__(self, folder: Path, clock: Callable[[], float] = time.time) -> None:
        self.folder = folder
        self.path = folder / DATABASE
        self.clock = clock
        self._db: sqlite3.Connection | None = None
        self._pid = 0                 # the process that opened `_db` (not a forked child)
        self._lock = threading.Lock()

    # --- writing ---------------------------------------------------------------------

    def invite(self, made_by: str, name: str | None = None, table: int | None = None,
               hours: float = INVITE_HOURS) -> str:
        """A new link's token (to be put in the link; only its digest is kept).

        A player (anyone but `HOST`) may have `MAX_OPEN_PER_PERSON` links
        open at once, and the players together `MAX_OPEN_INVITES`; the
        host's links are counted apart, so players' links never stop the
        host's command. A player asking again for the same table while
        their last link for it is open gets that link again."""
        now = self.clock()
        again = (made_by, name, table)
        with self._locked() as db, writing(db):
            if made_by != HOST and again in _reused:
                token = _reused[again]
                kept = self._invite(db, digest(token))
                if kept is not None and kept.refusal(now) is None:
                    return token
                del _reused[again]
            if made_by != HOST:
                mine = db.execute(f"SELECT COUNT(*) FROM invites WHERE made_by = ? AND {_OPEN}",
                                  (made_by, now)).fetchone()[0]
                if mine >= MAX_OPEN_PER_PERSON:
                    raise InviteRefused(f"you have {mine} invite links open already: "
                                        "wait for one to be used or to expire")
            same_side = db.execute(
                f"SELECT COUNT(*) FROM invites WHERE (made_by = ?) = ? AND {_OPEN}",
                (HOST, made_by == HOST, now)).fetchone()[0]
            if same_side >= MAX_OPEN_INVITES:
                raise InviteRefused(f"{same_side} invite links are open already: "
                                    "wait for some to be used or to expire")
            db.execute("DELETE FROM invites WHERE expires < ?",
                       (now - EXPIRED_KEPT_DAYS * 86400,))
            token = secrets.token_urlsafe(TOKEN_BYTES)
            db.execute("INSERT INTO invites VALUES (?, ?, ?, ?, ?, 0, 0)",
                       (digest(token), name, table, now + hours * 3600, made_by))
        if made_by != HOST:
            _reused[again] = token
            while len(_reused) > REUSED_KEPT:
                _reused.popitem(last=False)
        return token

    def redeem(self, token: str) -> tuple[str, Identity]:
        """Use a link: its identity's secret (for the cookie) and the
        identity, or InviteRefused. Good once: a second try is refused.
        A guess costs one indexed read."""
        if not token or len(token) > 200:
            raise InviteRefused("this is not an invite link")
        with self._locked() as db:
            invite = self._invite(db, digest(token))
            if invite is None:
                raise InviteRefused("this is not an invite link of this card room")
            now = self.clock()
            with writing(db):
                invite = self._invite(db, invite.hash)  # (again, now that it is ours)
                if invite is None:
                    raise InviteRefused("this is not an invite link of this card room")
                refusal = invite.refusal(now)
                if refusal:
                    raise InviteRefused(refusal)
                db.execute("UPDATE invites SET used = 1 WHERE hash = ?", (invite.hash,))
                secret, identity = new_identity(invite.name, invite.table, self.clock)
                self._insert(db, identity, now)
        return secret, identity

    def keep(self, identity: Identity) -> None:
        """Write `identity` (made by `new_identity`) to the book, if it is
        not there already."""
        with self._locked() as db, writing(db):
            self._insert(db, identity, self.clock())

    def sat_down(self, identity: Identity) -> None:
        """`identity`'s person signed in to the room: it is written if it
        was not (a newcomer's, under --open), and known for
        `IDENTITY_DAYS` from now."""
        now = self.clock()
        identity.expires = max(identity.expires, now + IDENTITY_DAYS * 86400)
        with self._locked() as db, writing(db):
            self._insert(db, identity, now)
            db.execute("UPDATE identities SET expires = ? WHERE hash = ?",
                       (identity.expires, identity.hash))

    def newcomer(self, name: str) -> tuple[str, Identity]:
        """An identity without a link, written at once."""
        secret, identity = new_identity(name, clock=self.clock)
        self.keep(identity)
        return secret, identity

    def name_identity(self, identity: Identity, name: str) -> None:
        """A visitor with a nameless link chose `name`: it is theirs from now on."""
        identity.name = name
        with self._locked() as db:
            db.execute("UPDATE identities SET name = ? WHERE hash = ?", (name, identity.hash))

    def revoke(self, prefix: str) -> int:
        """Withdraw every open link whose digest starts with `prefix` (as
        `crib3 invite --list` shows it); how many."""
        if not prefix:
            return 0
        with self._locked() as db:
            return db.execute(
                f"UPDATE invites SET revoked = 1 WHERE substr(hash, 1, ?) = ? AND {_OPEN}",
                (len(prefix), prefix, self.clock())).rowcount

    # --- reading ---------------------------------------------------------------------

    def identity(self, secret: str | None) -> Identity | None:
        """Who a cookie's secret stands for, if anyone (and not expired):
        one indexed read."""
        if not secret or len(secret) > 200:
            return None
        with self._locked() as db:
            row = db.execute("SELECT hash, name, expires, tbl FROM identities WHERE hash = ?",
                             (digest(secret),)).fetchone()
        if row is None or self.clock() >= row[2]:
            return None
        return Identity(row[0], row[1], float(row[2]), row[3])

    def identities(self) -> int:
        """How many browsers the book knows (expired ones not yet dropped too)."""
        with self._locked() as db:
            return int(db.execute("SELECT COUNT(*) FROM identities").fetchone()[0])

    def door_url(self) -> str | None:
        """The running web door's URL, as it wrote it at start (for `crib3
        invite` and a player's link), if a door is open."""
        try:
            url = json.loads((self.folder / "door.json").read_text()).get("url")
        except (OSError, ValueError, AttributeError):
            return None
        return url if isinstance(url, str) else None

    def set_door_url(self, url: str | None) -> None:
        """The web door opened at `url` (None: it closed)."""
        path = self.folder / "door.json"
        if url is None:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            return
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        path.write_text(json.dumps({"url": url}))

    def link(self, token: str) -> str | None:
        """The link a token goes in, if a web door is open."""
        url = self.door_url()
        return f"{url}/#invite={token}" if url else None

    def open_invites(self) -> list[Invite]:
        with self._locked() as db:
            rows = db.execute("SELECT hash, name, tbl, expires, made_by, used, revoked "
                              f"FROM invites WHERE {_OPEN} ORDER BY expires",
                              (self.clock(),)).fetchall()
        return [_invite_of(row) for row in rows]

    def open(self) -> None:
        """Open the database now (an older book is read in on the first
        open, which may take a while: the web door does it off its event
        loop, before it listens); InviteRefused if it cannot be read."""
        with self._locked():
            pass

    def close(self) -> None:
        """Let the database go (it is opened again when next needed)."""
        with self._lock:
            if self._db is not None and self._pid == os.getpid():
                self._db.close()
            self._db = None

    # --- the database ------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[sqlite3.Connection]:
        """This process's connection, one caller at a time (a forked child
        opens its own: a connection must not cross a fork)."""
        with self._lock:
            if self._db is None or self._pid != os.getpid():
                try:
                    self._db, self._pid = open_store(self.folder), os.getpid()
                except sqlite3.DatabaseError as exc:
                    raise InviteRefused(f"the invite book {self.path} cannot be read ({exc}): "
                                        "move it aside to begin a new one") from None
            yield self._db

    @staticmethod
    def _invite(db: sqlite3.Connection, key: str) -> Invite | None:
        row = db.execute("SELECT hash, name, tbl, expires, made_by, used, revoked "
                         "FROM invites WHERE hash = ?", (key,)).fetchone()
        return _invite_of(row) if row is not None else None

    @staticmethod
    def _insert(db: sqlite3.Connection, identity: Identity, now: float) -> None:
        """`identity` in, and the expired ones out (by the expiry's index)."""
        db.execute("DELETE FROM identities WHERE expires <= ?", (now,))
        db.execute("INSERT OR IGNORE INTO identities VALUES (?, ?, ?, ?)",
                   (identity.hash, identity.name, identity.expires, identity.table))


def _invite_of(row: tuple[object, ...]) -> Invite:
    key, name, table, expires, made_by, used, revoked = row
    return Invite(str(key), name if isinstance(name, str) else None,
                  table if isinstance(table, int) else None, float(cast(float, expires)),
                  str(made_by), bool(used), bool(revoked))
