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

The book is one append-only JSON Lines file, so that every process that
needs it (the server, a session worker whose player makes a link, the
`crib3 invite` command) writes to it under a lock and reads it again only
when it changed. Nothing secret is in it: a digest cannot be turned back
into a link or a cookie.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import secrets
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

INVITE_HOURS = 24.0        # how long a link is good for, unless told
IDENTITY_DAYS = 30.0       # how long a browser stays known without coming back
TOKEN_BYTES = 32           # 256 bits: a link's token, and a cookie's secret
MAX_LINE = 4096            # a longer line in the book is not ours: skipped
MAX_OPEN_INVITES = 1000    # unused, unexpired links the players made, at once (and the host's)
MAX_OPEN_PER_PERSON = 5    # unused, unexpired links one player made, at once
REUSED_KEPT = 1024         # players' recent links this process may hand out again
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


@dataclass
class _State:
    invites: dict[str, Invite] = field(default_factory=dict)
    identities: dict[str, Identity] = field(default_factory=dict)


# A player's latest link for one table, by (who, name, table): its token,
# handed out again while it is open, so that reopening the invite dialog
# shows the same link rather than minting another. Kept in the process
# that made it (a session's worker) only: the book keeps no token.
_reused: OrderedDict[tuple[str, str | None, int | None], str] = OrderedDict()


class InviteRefused(Exception):
    """A link or a cookie that lets nobody in: one line to say why."""


class InviteBook:
    """The invites and identities of one card room, in `folder`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.path = folder / "invites.jsonl"
        self._seen: tuple[int, int] | None = None  # the file (device, inode) read so far
        self._offset = 0                            # ... and how far
        self._state = _State()

    # --- writing ---------------------------------------------------------------------

    def invite(self, made_by: str, name: str | None = None, table: int | None = None,
               hours: float = INVITE_HOURS) -> str:
        """A new link's token (to be put in the link; only its digest is kept).

        A player (anyone but `HOST`) may have `MAX_OPEN_PER_PERSON` links
        open at once, and the players together `MAX_OPEN_INVITES`; the
        host's links are counted apart, so players' links never stop the
        host's command. A player asking again for the same table while
        their last link for it is open gets that link again."""
        state = self._read()
        now = time.time()
        again = (made_by, name, table)
        if made_by != HOST and again in _reused:
            token = _reused[again]
            kept = state.invites.get(digest(token))
            if kept is not None and kept.refusal(now) is None:
                return token
            del _reused[again]
        open_now = [i for i in state.invites.values() if i.refusal(now) is None]
        if made_by != HOST:
            mine = sum(1 for i in open_now if i.made_by == made_by)
            if mine >= MAX_OPEN_PER_PERSON:
                raise InviteRefused(f"you have {mine} invite links open already: "
                                    "wait for one to be used or to expire")
        same_side = sum(1 for i in open_now if (i.made_by == HOST) == (made_by == HOST))
        if same_side >= MAX_OPEN_INVITES:
            raise InviteRefused(f"{same_side} invite links are open already: "
                                "wait for some to be used or to expire")
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self._append({"kind": "invite", "hash": digest(token), "name": name, "table": table,
                      "expires": now + hours * 3600, "made_by": made_by})
        if made_by != HOST:
            _reused[again] = token
            while len(_reused) > REUSED_KEPT:
                _reused.popitem(last=False)
        return token

    def redeem(self, token: str) -> tuple[str, Identity]:
        """Use a link: its identity's secret (for the cookie) and the
        identity, or InviteRefused. Good once: a second try is refused."""
        if not token or len(token) > 200:
            raise InviteRefused("this is not an invite link")
        with self._locked():
            state = self._read()
            invite = state.invites.get(digest(token))
            if invite is None:
                raise InviteRefused("this is not an invite link of this card room")
            refusal = invite.refusal(time.time())
            if refusal:
                raise InviteRefused(refusal)
            secret = secrets.token_urlsafe(TOKEN_BYTES)
            identity = Identity(digest(secret), invite.name, time.time() + IDENTITY_DAYS * 86400,
                                invite.table)
            self._append({"kind": "used", "hash": invite.hash}, locked=True)
            self._append({"kind": "identity", "hash": identity.hash, "name": identity.name,
                          "expires": identity.expires, "table": identity.table}, locked=True)
        return secret, identity

    def newcomer(self, name: str) -> tuple[str, Identity]:
        """An identity without a link, for a door open to anyone (`--open`)."""
        secret = secrets.token_urlsafe(TOKEN_BYTES)
        identity = Identity(digest(secret), name, time.time() + IDENTITY_DAYS * 86400)
        self._append({"kind": "identity", "hash": identity.hash, "name": name,
                      "expires": identity.expires, "table": None})
        return secret, identity

    def name_identity(self, identity: Identity, name: str) -> None:
        """A visitor with a nameless link chose `name`: it is theirs from now on."""
        identity.name = name
        self._append({"kind": "named", "hash": identity.hash, "name": name})

    def revoke(self, prefix: str) -> int:
        """Withdraw every open link whose digest starts with `prefix` (as
        `crib3 invite --list` shows it); how many."""
        state = self._read()
        now = time.time()
        found = [i for h, i in state.invites.items()
                 if h.startswith(prefix) and i.refusal(now) is None] if prefix else []
        for invite in found:
            self._append({"kind": "revoked", "hash": invite.hash})
        return len(found)

    # --- reading ---------------------------------------------------------------------

    def identity(self, secret: str | None) -> Identity | None:
        """Who a cookie's secret stands for, if anyone (and not expired)."""
        if not secret or len(secret) > 200:
            return None
        found = self._read().identities.get(digest(secret))
        if found is None or time.time() >= found.expires:
            return None
        return found

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
        now = time.time()
        return [i for i in self._read().invites.values() if i.refusal(now) is None]

    def _read(self) -> _State:
        """The book as the file says now: only the lines appended since the
        last read are read (the file only grows), unless it is a new file."""
        try:
            stat = self.path.stat()
        except FileNotFoundError:
            self._seen, self._offset, self._state = None, 0, _State()
            return self._state
        mark = (stat.st_dev, stat.st_ino)
        if mark != self._seen or stat.st_size < self._offset:
            self._seen, self._offset, self._state = mark, 0, _State()
        if stat.st_size > self._offset:
            self._offset = _parse(self.path, self._offset, self._state)
        return self._state

    # --- the file --------------------------------------------------------------------

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        with open(self.folder / "invites.lock", "a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)

    def _append(self, record: dict[str, object], locked: bool = False) -> None:
        line = json.dumps(record, ensure_ascii=True) + "\n"
        if not locked:
            with self._locked():
                self._write(line)
        else:
            self._write(line)

    def _write(self, line: str) -> None:
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, line.encode("ascii"))
        finally:
            os.close(fd)


def _parse(path: Path, offset: int, state: _State) -> int:
    """The whole lines of the file from `offset` on, into `state`; where
    the next read starts (after the last whole line)."""
    with open(path, "rb") as file:
        file.seek(offset)
        data = file.read()
    whole = data.rfind(b"\n") + 1
    for raw in data[:whole].splitlines():
        line = raw.decode("ascii", "replace")
        if len(line) > MAX_LINE:
            continue
        try:
            record = json.loads(line)
            kind, key = record["kind"], str(record["hash"])
            if kind == "invite":
                state.invites[key] = Invite(key, _name(record.get("name")),
                                            _number(record.get("table")),
                                            float(record["expires"]),
                                            str(record.get("made_by", "")))
            elif kind in ("used", "revoked") and key in state.invites:
                setattr(state.invites[key], kind, True)
            elif kind == "identity":
                state.identities[key] = Identity(key, _name(record.get("name")),
                                                 float(record["expires"]),
                                                 _number(record.get("table")))
            elif kind == "named" and key in state.identities:
                state.identities[key].name = _name(record.get("name"))
        except (ValueError, KeyError, TypeError, AttributeError):
            continue  # a torn or foreign line: the rest still counts
    return offset + whole


def _name(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _number(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None
