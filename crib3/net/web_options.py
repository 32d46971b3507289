"""The web door's options (`--web`, `--public-url`, `--tls-cert`,
`--tls-key`), checked: a door open to the network without TLS is refused.

Apart from the door so that the command line checks them without loading
aiohttp, and the server's options name them.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit


class WebRefused(Exception):
    """The web door cannot open as asked: one line to say why."""


@dataclass
class WebOptions:
    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str | None = None  # as people reach it (behind a proxy, say)
    tls_cert: Path | None = None
    tls_key: Path | None = None


def parse_listen(text: str, option: str = "--web") -> tuple[str, int]:
    """`[HOST:]PORT` as `--web` (or `option`) takes it; ValueError with one
    line."""
    host, _, port = text.rpartition(":")
    host = host.strip("[]") or "127.0.0.1"
    try:
        number = int(port)
    except ValueError:
        raise ValueError(f"{option} {text}: give [HOST:]PORT, e.g. 8080 or 0.0.0.0:8080") from None
    if not 0 <= number <= 65535:
        raise ValueError(f"{option} {text}: a port is 0 to 65535")
    return host, number


def loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_options(options: WebOptions) -> None:
    """WebRefused unless the door would be safe as asked."""
    if bool(options.tls_cert) != bool(options.tls_key):
        raise WebRefused("give both --tls-cert and --tls-key, or neither")
    if options.public_url is not None:
        parts = urlsplit(options.public_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise WebRefused(f"--public-url {options.public_url}: "
                             "give an http(s)://HOST[:PORT] URL")
    tls = options.tls_cert is not None
    behind_tls = options.public_url is not None and options.public_url.startswith("https://")
    if not loopback(options.host) and not (tls or behind_tls):
        raise WebRefused(f"--web {options.host}:{options.port} is open to the network without "
                         "TLS: give --tls-cert and --tls-key, or put it behind an HTTPS proxy "
                         "and give --public-url https://...")
