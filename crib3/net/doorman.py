"""Who may come into the SSH door, and what their session is told:
asyncssh's callbacks, all in this module.

`Doorman` is one connection's: it ties the connection to a person by
their name and key (or, under `--open`, a reconnect code), within the
limits on tries (`crib3.net.gate`). `SSHSession` is one SSH session's:
it turns asyncssh's session callbacks into a transport-neutral
`crib3.net.session.PlaySession`'s own words, the one adapter of them
(a test of the doors holds that no other module writes them).

With keys (not `--open`) a name is anyone's whose key is listed, in the
authorized-keys file, read again for every connection, so adding a
friend's key needs no restart.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import logging
import secrets
import socket
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import asyncssh

from crib3.common.names import shown_name
from crib3.net.gate import Throttled
from crib3.net.keys import KeysFile
from crib3.net.session import Identity, PlaySession
from crib3.room.seats import FIRST_USE

if TYPE_CHECKING:
    from asyncssh.auth import KbdIntChallenge

    from crib3.net.server import CardRoomServer

log = logging.getLogger("crib3.serve")


class SSHSession(asyncssh.SSHServerSession[bytes]):
    """One SSH session: asyncssh's callbacks, told to its `PlaySession` in
    the session's own words. The SSH door's adapter, and the only place
    these callbacks are written."""

    def __init__(self, session: PlaySession, doorman: Doorman) -> None:
        self.session = session
        self.doorman = doorman

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.session.attach(chan)

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:
        self.session.set_terminal(term_type, term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        self.doorman.live.discard(self)  # (refused: it holds no place on the connection)
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        self.doorman.live.discard(self)
        return False

    def session_started(self) -> None:
        self.session.start()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        self.doorman.active = time.monotonic()
        self.session.feed(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self.session.resize(width, height)

    def pause_writing(self) -> None:
        self.session.output_paused()

    def resume_writing(self) -> None:
        self.session.output_resumed()

    def eof_received(self) -> bool:
        self.session.end()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.doorman.live.discard(self)
        self.session.hang_up()


class Arrival:
    """A connection accepted and not yet signed in: what the `Gate` counts,
    and what it may close to make way for another."""

    def __init__(self, sock: socket.socket, address: str) -> None:
        self.sock = sock
        self.address = address
        self.doorman: Doorman | None = None

    def close(self) -> None:
        if self.doorman is not None and self.doorman.conn is not None:
            self.doorman.conn.abort()
        else:
            with contextlib.suppress(OSError):
                self.sock.close()


class Doorman(asyncssh.SSHServer):
    """Who may come in: one instance per connection.

    With keys (not `--open`) a name is anyone's whose key is listed. Under
    `--open` anyone may come in, but a name is held, for the room's life,
    by the first key it signs in with (trust on first use; the key is
    listed nowhere), or, for a client that offers no key, by a reconnect
    code it is shown in the lobby and asked for (keyboard-interactive) when
    it comes back: nobody takes a seat by typing a name.

    Each connection may fail `auth_tries` times, and each address
    `failures_per_minute` times a minute (`crib3.net.gate`)."""

    def __init__(self, service: CardRoomServer) -> None:
        self.service = service
        self.username = ""
        self.key: str | None = None
        self.admin = False  # signed in with a key from --admins
        self.peer = ""
        self.conn: asyncssh.SSHServerConnection | None = None
        self.arrival: Arrival | None = None
        self.tries = 0  # keys and codes that failed
        self.code: str | None = None  # a new reconnect code: shown to this person
        self.signed_in = False
        self.active = time.monotonic()  # the last key typed (or the sign-in)
        self.sessions: list[PlaySession] = []  # (those that ended are let go as new ones come)
        self.live: set[SSHSession] = set()  # sessions open on this connection now
        self.say_refused = Throttled(log.info)  # one line a minute, however many are refused

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.peer = str(peer[0])
        self.conn = conn
        self.service.connections.add(conn)
        self.service.doormen[conn] = self
        self.arrival = self.service.arrivals.pop(tuple(peer[:2]), None)
        if self.arrival is not None:
            self.arrival.doorman = self
        log.info("connection from %s", self.peer)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.conn is not None:
            self.service.connections.discard(self.conn)
            self.service.doormen.pop(self.conn, None)
        self._done_waiting()
        if exc is not None:
            log.info("connection from %s ended: %s", self.peer, exc)

    def _done_waiting(self) -> None:
        if self.arrival is not None:
            self.service.gate.done(self.arrival)
            self.arrival = None

    def auth_completed(self) -> None:
        self.signed_in = True
        self.active = time.monotonic()
        self._done_waiting()

    def begin_auth(self, username: str) -> bool:
        self.username = username
        return True

    def password_auth_supported(self) -> bool:
        return False

    def public_key_auth_supported(self) -> bool:
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.service.options.open_door

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        if not self._may_try():
            return False
        options = self.service.options
        fingerprint = key.get_fingerprint()
        if options.open_door:
            held = self.service.room.held_by(username)
            proof = FIRST_USE + fingerprint
            if held is None or held == proof:
                # An open room's admins are its listed keys (whatever name
                # they take): there is no other way to keep order in it.
                self.key, self.admin = proof, await self._listed(self.service.admin_keys, key)
                return True
            return self._failed(f"{username} is held by another key or a reconnect code")
        if await self._listed(self.service.admin_keys, key):
            self.key, self.admin = fingerprint, True
            return True
        if not await self._listed(self.service.authorized, key):
            return self._failed("")
        self.key = fingerprint
        return True

    def get_kbdint_challenge(self, username: str, lang: str,
                             submethods: str) -> KbdIntChallenge:
        """Under `--open`, for a client with no key (or none it may use):
        a free name is given a new reconnect code at once; one held by a
        code asks for it; one held by a key is refused."""
        if not self._may_try():
            return False
        held = self.service.room.held_by(username)
        if held is None:
            self.code = new_code()
            self.key = FIRST_USE + code_proof(self.code)
            return True
        if held.startswith(FIRST_USE + CODE):
            return ("crib3", f"{shown_name(username)} is held here by a reconnect code "
                    "(shown in the lobby when it was given).", "",
                    [(f"reconnect code for {shown_name(username)}: ", True)])
        return self._failed(f"{username} is held here by another key")

    def validate_kbdint_response(self, username: str, responses: Sequence[str]) -> bool:
        held = self.service.room.held_by(username)
        if held is not None and len(responses) == 1 and len(responses[0]) <= 64:
            proof = FIRST_USE + code_proof(responses[0].strip().lower())
            if hmac.compare_digest(proof, held):
                self.key = proof
                return True
        return self._failed("")

    def _may_try(self) -> bool:
        """The connection (and its address) may try a key or a code."""
        gate = self.service.gate
        if self.tries >= gate.limits.auth_tries or gate.penalised(self.peer):
            self._shut("too many tries")
            return False
        self.service.tries += 1
        return True

    def _failed(self, why: str) -> bool:
        """A key or a code that failed: counted for the connection and the
        address, and the connection is closed once either has run out."""
        self.tries += 1
        gate = self.service.gate
        may_go_on = gate.failed(self.peer) and self.tries < gate.limits.auth_tries
        if why and self.tries == 1 and self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.send_auth_banner(f"crib3: {why}\r\n")
        if not may_go_on:
            self._shut("too many tries")
        return False

    def _shut(self, why: str) -> None:
        log.info("%s (%r): %s", self.peer, self.username[:40], why)
        if self.conn is None:
            return
        with contextlib.suppress(Exception):
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, why)

    async def _listed(self, keys: KeysFile | None, key: asyncssh.SSHKey) -> bool:
        """`key` is in the keys file, as it is now (so a file mended or
        added to needs no restart), and that file is not writable by others
        (StrictModes)."""
        if keys is None:
            return False
        allowed, problem = await keys.keys()
        if allowed is None:
            self.service.key_trouble(problem or f"cannot read {keys.path}")
            return False
        return allowed.validate(key, self.peer, self.peer) is not None

    def session_requested(self) -> SSHSession:
        why = self._session_refused()
        if why:
            self.say_refused(f"{self.peer} ({self.username[:40]!r}): a session refused: {why}")
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                             f"crib3: {why}")
        self.active = time.monotonic()  # (idle counts from here: signed in, then a session)
        identity = Identity(self.username, self.key, self.admin, self.peer, code=self.code)
        session = PlaySession(self.service, identity)
        self.sessions.append(session)
        ssh_session = SSHSession(session, self)
        self.live.add(ssh_session)
        return ssh_session

    def _session_refused(self) -> str | None:
        """Why a new session on this connection is refused, or None. Each
        session signs its person in again (and kicks the one before), so
        a connection has one open at a time, and a person begins only so
        many a minute, however many connections they have."""
        self.sessions = [s for s in self.sessions
                         if not (s.ended and (s.task is None or s.task.done()))]
        gate = self.service.gate
        if len(self.live) >= gate.limits.sessions_at_once:
            return "one session at a time on a connection"
        if not gate.may_begin_session(self.username):
            return "too many new sessions this minute: wait a minute"
        return None

    def connection_requested(self, *args: Any) -> bool:
        return False  # no port forwarding

    def server_requested(self, *args: Any) -> bool:
        return False  # no remote port forwarding


CODE = "code "  # a reconnect code's proof, after FIRST_USE: its hash
CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz23456789"  # no 0/o, 1/l/i: read off a screen


def new_code() -> str:
    """A reconnect code: eight letters and digits in two fours (about 40
    bits: with a few tries a connection and a minute an address, never
    guessed)."""
    letters = "".join(secrets.choice(CODE_LETTERS) for _ in range(8))
    return f"{letters[:4]}-{letters[4:]}"


def code_proof(code: str) -> str:
    """What the room keeps of a code (it is on disk with the seats): its hash."""
    return CODE + hashlib.sha256(code.encode("utf-8", "replace")).hexdigest()
