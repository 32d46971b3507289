"""The cluster's address, as every command takes it.

`--cluster URL[,URL...]` names one NATS server or several (a cluster's
servers, any of which the client may reach first): `nats://HOST:PORT` or
`tls://HOST:PORT`, `nats://` when no scheme is given, credentials in the
URL if the server wants them. `crib3 serve --cluster` and `crib3 tables
export --cluster` read it here, so that the text one accepts the other
accepts too, and a line that names a server never shows its password.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from urllib.parse import urlsplit

from crib3.cli.failures import UsageError


@dataclass(frozen=True)
class ServerURL:
    """One NATS server of `--cluster`, checked."""

    url: str  # as given (a password in it too): what the client connects to
    scheme: str  # nats or tls
    host: str
    port: int | None
    credentials: bool  # user (and password) in the URL

    @property
    def shown(self) -> str:
        """The server as a line may name it: no user, no password."""
        return f"{self.scheme}://{self.host}" + (f":{self.port}" if self.port else "")

    @property
    def loopback(self) -> bool:
        if self.host == "localhost":
            return True
        try:
            return ipaddress.ip_address(self.host).is_loopback
        except ValueError:
            return False


def cluster_urls(text: str, flag: str = "--cluster") -> list[ServerURL]:
    """The servers of `--cluster TEXT` (comma-separated, spaces ignored);
    UsageError, in one line, when there is none or one is not a NATS URL."""
    servers = []
    for url in (part.strip() for part in text.split(",")):
        if not url:
            continue
        try:
            parts = urlsplit(url if "://" in url else f"nats://{url}")
            host, port = parts.hostname, parts.port
        except ValueError as exc:
            raise UsageError(f"{flag}: not a URL ({exc})") from None
        if parts.scheme not in ("nats", "tls") or not host:
            raise UsageError(f"{flag}: a URL is nats://HOST:PORT or tls://HOST:PORT")
        servers.append(ServerURL(url, parts.scheme, host, port, bool(parts.username)))
    if not servers:
        raise UsageError(f"{flag}: give the NATS servers' URLs, nats://HOST:PORT")
    return servers


def shown(servers: list[ServerURL]) -> str:
    """The servers as a line may name them (see `ServerURL.shown`)."""
    return ", ".join(server.shown for server in servers)
