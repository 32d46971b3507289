"""A session's console: colours as the client's terminal has them.

Apart from the SSH door so that a session worker (`crib3.net.worker`),
which sets up every session's console, never imports asyncssh: importing the
server module once cost each worker the memory of asyncssh, its cryptography and
their libraries, which no worker uses (assets/measurements/card-room.md)."""

from __future__ import annotations

from typing import Any

from textual.app import App


def client_console(app: App[Any], term: str, env: dict[str, str]) -> None:
    """Colours as the client's terminal has them, not as the server's: the
    colour depth from the client's TERM and COLORTERM, and NO_COLOR if the
    client sends it (ssh -o SendEnv=NO_COLOR). Textual reads these from the
    server's environment when the app is made, so they are set again here;
    the app's `get_line_filters` drops colour by `no_color` (`BaseApp`)."""
    from crib3.tui.textual_compat import client_console as console_for

    app.console = console_for(term or "xterm", env.get("COLORTERM"))
    app.no_color = "NO_COLOR" in env
