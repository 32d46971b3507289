"""What the web door says to a request it cannot read, and what it logs.

aiohttp answers a malformed request (a bad request line, a header too
long, a NUL) with a page that names its own version and echoes what it
could not parse, and logs a traceback for each one: a stranger sending
malformed requests as fast as they can writes megabytes of log a second.
Here such a request is answered with its bare status, the door's usual
headers (no server version), and nothing of the request; the door counts
them and logs one line a minute at most, with how many there were.

A request that reaches the door's own code and fails there is a bug, not
a stranger: that one is still logged with its traceback, as aiohttp does.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from http import HTTPStatus

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from aiohttp.web_request import BaseRequest

from crib3.net.gate import Throttled

log = logging.getLogger("crib3.web")


class BadRequests:
    """The malformed requests (and browser frames) the door turned away,
    counted, and said in one line a minute at most."""

    def __init__(self, every: float = 60.0) -> None:
        self.count = 0
        self.say = Throttled(log.warning, every=every)

    def __call__(self, what: str, address: str | None) -> None:
        self.count += 1
        self.say(f"the web door turned away {what} from {address or '?'} "
                 f"({self.count} so far)")


class QuietHandler(RequestHandler):
    """aiohttp's protocol for one connection, answering a request it cannot
    parse with its status alone and counting it (see the module's docstring)."""

    def __init__(self, manager: web.Server, bad: BadRequests, headers: Mapping[str, str],
                 **kwargs: object) -> None:
        super().__init__(manager, **kwargs)  # type: ignore[arg-type]  # aiohttp's own keywords, passed on
        self.bad = bad
        self.headers = headers

    def handle_error(self, request: BaseRequest, status: int = 500,
                     exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        if status >= 500:
            return super().handle_error(request, status, exc, message)
        self.bad(f"a malformed request ({status})", request.remote)
        if request.writer.output_size > 0:
            raise ConnectionError("the response had begun: no error page can follow it")
        try:
            line = f"{status} {HTTPStatus(status).phrase}\n"
        except ValueError:
            line = f"{status}\n"
        response = web.Response(status=status, text=line,
                                content_type="text/plain", headers=dict(self.headers))
        response.force_close()
        return response
