"""The card room's web door: a seat from a link, in a browser.

`crib3 serve --web [HOST:]PORT` opens a second door into the same room as
the SSH one. A browser gets one page (`web_static/`: the page, xterm.js and
a font, all from the package: no request leaves for another site), redeems
its invite link for an identity cookie, and opens a websocket; from then on
it is a session like an SSH one (a `crib3.net.session.PlaySession` on a
`WebChannel`, told what the browser sends in the session's own words): the
same lobby, tables, chat, limits, reconnect-to-your-seat, workers and
farewells. A name chosen here meets the room's one rule for names
(`Room.name_refused`), lookalikes included, as it would over SSH. Under
`--open` a browser that chose a name is written to the invite book only
when its person signs in to the room (`Newcomers` keeps it until then), so
names asked for and never used leave nothing behind; a browser's cookie and
its place in the book last `IDENTITY_DAYS` from its last sign-in.

What keeps it safe in public, as the SSH door is:
- Every connection that has not become a signed-in websocket is counted,
  per address and overall, and closed after a grace time; past the caps a
  new one is closed at once (`crib3.net.web_admission`).
- The websocket handshake and every POST must come from the server's own
  origin (its `--public-url`, or the address it listens on), so a page on
  another site cannot act for a visitor.
- Frames from the browser are capped at `MAX_FRAME` bytes; keys, bytes and
  the terminal's size keep the SSH door's bounds (the session's driver).
- The page has a content security policy with no inline script, and the
  responses carry no server name, command or path; there is no directory
  listing (only the named files are served).
- A door on an address other than loopback needs TLS (`--tls-cert` and
  `--tls-key`) or a proxy in front that speaks it (`--public-url https://`):
  `crib3.net.web_options` checks that before the door opens.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import ssl
from collections.abc import Awaitable, Callable, MutableMapping
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from crib3.common.names import check_name
from crib3.net.bounds import capped_size
from crib3.net.session import Identity, PlaySession, Service
from crib3.net.web_admission import Admission, Counted, Newcomers, PerAddress
from crib3.net.web_channel import WebChannel
from crib3.net.web_errors import BadRequests, QuietHandler
from crib3.net.web_options import WebOptions, WebRefused, loopback
from crib3.room import Presence
from crib3.room.invites import IDENTITY_DAYS, InviteBook, InviteRefused, new_identity
from crib3.room.invites import Identity as WebIdentity
from crib3.room.seats import FIRST_USE

log = logging.getLogger("crib3.web")

COOKIE = "crib3_id"
MAX_FRAME = 16 * 1024         # bytes in one frame from a browser (a paste, at most)
MAX_BODY = 4 * 1024           # bytes in a POST's body
SEATS_PER_ADDRESS = 32        # signed-in browser sessions from one address
NAMES_PER_MINUTE = (10, 20, 120, 240)   # new names under --open: per address (rate, burst),
                                        # and everyone's (rate, burst)
REDEEMS_PER_MINUTE = (30, 30, 600, 600)  # tries at an invite link, the same
KEEPALIVE = 10.0              # seconds an idle connection is kept for the page's next request

STATIC = {  # what the page may load, and nothing else
    "xterm.js": "text/javascript", "addon-fit.js": "text/javascript",
    "addon-unicode11.js": "text/javascript",
    "page.js": "text/javascript", "xterm.css": "text/css", "page.css": "text/css",
    "DejaVuSansMono.ttf": "font/ttf", "favicon.svg": "image/svg+xml",
}
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
          "font-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; "
          "form-action 'none'; frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Server": "crib3",
}


def _static_files() -> dict[str, bytes]:
    folder = resources.files("crib3.net") / "web_static"
    return {name: (folder / name).read_bytes() for name in [*STATIC, "index.html"]}


class WebDoor:
    """The web door of one card room (`service`: its server,
    `crib3.net.server.CardRoomServer`)."""

    def __init__(self, service: Service, options: WebOptions, book: InviteBook) -> None:
        self.service = service
        self.options = options
        self.book = book
        self.admission = Admission()
        self.bad = BadRequests()
        self.minting = PerAddress(*NAMES_PER_MINUTE)
        self.guessing = PerAddress(*REDEEMS_PER_MINUTE)
        self.newcomers = Newcomers()
        self.files = _static_files()
        self.sessions: set[PlaySession] = set()
        self.runner: web.AppRunner | None = None
        self.server: asyncio.Server | None = None
        self.origins: set[str] = set()

    # --- starting and stopping ----------------------------------------------------

    @property
    def secure(self) -> bool:
        return self.options.tls_cert is not None or \
            (self.options.public_url or "").startswith("https://")

    @property
    def port(self) -> int:
        assert self.server is not None, "the door is not open"
        return int(self.server.sockets[0].getsockname()[1])

    @property
    def url(self) -> str:
        """Where people reach the door: the public URL, or where it listens."""
        if self.options.public_url:
            return self.options.public_url.rstrip("/")
        scheme = "https" if self.options.tls_cert else "http"
        host = self.options.host
        host = f"[{host}]" if ":" in host else host
        return f"{scheme}://{host}:{self.port}"

    def link(self, token: str) -> str:
        return f"{self.url}/#invite={token}"

    async def start(self) -> None:
        try:
            await asyncio.to_thread(self.book.open)  # (an older book is read in here, once)
        except InviteRefused as exc:
            raise WebRefused(str(exc)) from None
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._headers])
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/api/whoami", self._whoami)
        app.router.add_post("/api/redeem", self._redeem)
        app.router.add_post("/api/name", self._name)
        app.router.add_get("/ws", self._websocket)
        self.runner = web.AppRunner(app, access_log=None, keepalive_timeout=KEEPALIVE,
                                    handle_signals=False)
        await self.runner.setup()
        context = None
        if self.options.tls_cert is not None:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            try:
                context.load_cert_chain(str(self.options.tls_cert), str(self.options.tls_key))
            except (OSError, ssl.SSLError) as exc:
                await self.runner.cleanup()
                raise WebRefused(f"cannot use --tls-cert/--tls-key: {exc}") from None
        handler = self.runner.server
        assert handler is not None
        loop = asyncio.get_running_loop()

        def connection() -> Counted:
            quiet = QuietHandler(handler, self.bad, HEADERS, loop=loop, keepalive_timeout=KEEPALIVE,
                                 access_log=None)
            return Counted(quiet, self.admission)

        self.server = await loop.create_server(connection, self.options.host, self.options.port,
                                               ssl=context, backlog=128)
        self.origins = {self.url}
        if not self.options.public_url and loopback(self.options.host):
            scheme = "https" if self.options.tls_cert else "http"
            self.origins |= {f"{scheme}://{h}:{self.port}"
                             for h in ("localhost", "127.0.0.1", "[::1]")}
        self.book.set_door_url(self.url)

    def stop_listening(self) -> None:
        """Take no more connections (the sessions end with the room's stop)."""
        if self.server is not None:
            self.server.close()

    async def stop(self) -> None:
        self.stop_listening()
        self.book.set_door_url(None)
        if self.runner is not None:
            await self.runner.cleanup()

    # --- the checks ---------------------------------------------------------------

    @web.middleware
    async def _headers(self, request: web.Request,
                       handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                       ) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            self._secure_headers(exc.headers)
            raise
        self._secure_headers(response.headers)
        return response

    def _secure_headers(self, headers: MutableMapping[str, str]) -> None:
        for name, value in HEADERS.items():
            headers[name] = value
        if self.secure:
            headers["Strict-Transport-Security"] = "max-age=31536000"

    def _same_origin(self, request: web.Request) -> bool:
        return request.headers.get("Origin") in self.origins

    def _identity(self, request: web.Request) -> WebIdentity | None:
        """Who the request's cookie stands for: a newcomer waiting to sit
        down, or a browser in the book (one indexed read), or nobody."""
        secret = request.cookies.get(COOKIE)
        return self.newcomers.get(secret) or self.book.identity(secret)

    @staticmethod
    def _refuse(status: int, line: str) -> web.Response:
        return web.json_response({"error": line}, status=status,
                                 headers={"Cache-Control": "no-store"})

    def _set_cookie(self, response: web.Response, secret: str) -> None:
        response.set_cookie(COOKIE, secret, max_age=int(IDENTITY_DAYS * 86400), path="/",
                            httponly=True, secure=self.secure, samesite="Strict")

    # --- the pages ----------------------------------------------------------------

    async def _page(self, request: web.Request) -> web.Response:
        return web.Response(body=self.files["index.html"], content_type="text/html",
                            charset="utf-8", headers={"Cache-Control": "no-store"})

    async def _static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC:
            raise web.HTTPNotFound()
        return web.Response(body=self.files[name], content_type=STATIC[name],
                            headers={"Cache-Control": "max-age=3600"})

    async def _whoami(self, request: web.Request) -> web.Response:
        identity = self._identity(request)
        response = web.json_response({
            "signed_in": identity is not None,
            "name": identity.name if identity else None,
            "open": self.service.options.open_door,
        }, headers={"Cache-Control": "no-store"})
        secret = request.cookies.get(COOKIE)
        if identity is not None and secret:  # (the cookie lasts as long as the book keeps it)
            self._set_cookie(response, secret)
        return response

    async def _body(self, request: web.Request) -> dict[str, Any]:
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            body = None
        return body if isinstance(body, dict) else {}

    async def _redeem(self, request: web.Request) -> web.Response:
        """An invite link's token for an identity cookie (once)."""
        if not self._same_origin(request):
            return self._refuse(403, "this page is not the card room's")
        if not self.guessing.allowed(request.remote or "?"):
            return self._refuse(429, "too many tries from your address: wait a minute")
        token = (await self._body(request)).get("token")
        try:
            secret, identity = self.book.redeem(str(token or ""))
        except InviteRefused as exc:
            return self._refuse(403, str(exc))
        response = web.json_response({"name": identity.name, "table": identity.table},
                                     headers={"Cache-Control": "no-store"})
        self._set_cookie(response, secret)
        return response

    async def _name(self, request: web.Request) -> web.Response:
        """A name: for a nameless link's identity, or a newcomer under --open."""
        if not self._same_origin(request):
            return self._refuse(403, "this page is not the card room's")
        raw = (await self._body(request)).get("name")
        try:
            name = check_name(str(raw or ""))
        except ValueError as exc:
            return self._refuse(400, str(exc))
        taken = self._taken(name)
        if taken:
            return self._refuse(409, taken)
        identity = self._identity(request)
        if identity is not None:
            if identity.name is not None:
                return self._refuse(409, f"you are {identity.name} here already")
            self.book.name_identity(identity, name)
            return web.json_response({"name": name}, headers={"Cache-Control": "no-store"})
        if not self.service.options.open_door:
            return self._refuse(403, "this card room lets people in by invite link only")
        if not self.minting.allowed(request.remote or "?"):
            return self._refuse(429, "too many new names from your address: wait a minute")
        secret, identity = new_identity(name)
        self.newcomers.add(identity)  # (in the book once they sit down: `_sat_down`)
        response = web.json_response({"name": name}, headers={"Cache-Control": "no-store"})
        self._set_cookie(response, secret)
        return response

    def _taken(self, name: str) -> str | None:
        """Why a name a visitor chose cannot be theirs, or None: the room's
        own rule (someone holds it, or one that looks like it), asked
        before the name is tied to the visitor's cookie for good."""
        return self.service.room.name_refused(name)

    def key_of(self, identity: WebIdentity) -> str:
        """What the room knows a browser by: its identity, as a key. Under
        --open, where anyone may mint an identity, it is a first-use key
        (it holds its name, and the limits count by address, as for SSH);
        from a link the host or a player gave, a key like a listed one."""
        if self.service.options.open_door:
            return f"{FIRST_USE}web {identity.hash[:32]}"
        return f"web:{identity.hash[:32]}"

    # --- a seat ---------------------------------------------------------------------

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        if not self._same_origin(request):
            return self._refuse(403, "this page is not the card room's")
        identity = self._identity(request)
        if identity is None or identity.name is None:
            return self._refuse(403, "open your invite link first")
        address = request.remote or "?"
        if sum(1 for s in self.sessions if s.address == address) >= SEATS_PER_ADDRESS:
            return self._refuse(429, "too many sessions from your address")
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=30.0,
                                   autoping=True, compress=False)
        await ws.prepare(request)
        if request.transport is not None:
            self.admission.seated(request.transport)
        key = self.key_of(identity)
        channel = WebChannel(ws, {"LANG": "C.UTF-8", "COLORTERM": "truecolor"})
        session = BrowserSession(self.service, Identity(identity.name, key, False, address),
                                 lambda: self._sat_down(identity))
        channel.session = session
        session.attach(channel)
        session.set_terminal("xterm-256color",
                             *_size_of(request.query.get("cols"), request.query.get("rows")))
        self.sessions.add(session)
        session.start()
        try:
            async for message in ws:
                if message.type == WSMsgType.BINARY:
                    session.feed(message.data)
                elif message.type == WSMsgType.TEXT:
                    self._control(session, message.data)
                elif message.type == WSMsgType.ERROR:
                    break
        finally:
            self.sessions.discard(session)
            if not channel.exited:
                session.hang_up()
            await channel.gone()
        return ws

    def _sat_down(self, identity: WebIdentity) -> None:
        """A browser's person signed in: the book keeps them (a newcomer is
        written now) for `IDENTITY_DAYS` more."""
        self.newcomers.seated(identity)
        try:
            self.book.sat_down(identity)
        except sqlite3.Error as exc:  # (their session goes on; the cookie may be forgotten)
            log.warning("the invite book in %s could not be written (%s): %s may be asked "
                        "for a name again next time", self.book.folder, exc, identity.name)

    def _control(self, session: PlaySession, text: str) -> None:
        """A text frame: the browser's terminal changed size (anything else
        is counted as a malformed frame, and dropped)."""
        try:
            message = json.loads(text)
            cols, rows = int(message["cols"]), int(message["rows"])
        except (ValueError, KeyError, TypeError, OverflowError):
            self.bad("a malformed frame", session.address)
            return
        session.resize(*capped_size(cols, rows))


class BrowserSession(PlaySession):
    """A browser's session: the door hears when its person signs in."""

    door = "web"

    def __init__(self, service: Service, identity: Identity,
                 on_sign_in: Callable[[], None]) -> None:
        super().__init__(service, identity)
        self.on_sign_in = on_sign_in

    def signed_in(self, presence: Presence) -> None:
        self.on_sign_in()


def _size_of(cols: str | None, rows: str | None) -> tuple[int, int]:
    try:
        return capped_size(int(cols or 80), int(rows or 24))
    except ValueError:
        return 80, 24
