"""What the terminal can show, decided from its locale and TERM.

Why not from Python's stream encoding: with ``LANG=C`` Python switches to its
UTF-8 mode (and even rewrites ``LC_CTYPE`` to ``C.UTF-8`` in its own
environment, PEP 538), so ``sys.stdout.encoding`` says "utf-8" while the
terminal still shows bytes as the C locale does. The locale the person's
shell set is what the terminal speaks; over SSH it is the one the client sent.

Nothing here imports the UI: the command line and the SSH server both ask.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO

# POSIX precedence for the character set: the first of these that is set
# and not empty decides.
LOCALE_VARIABLES = ("LC_ALL", "LC_CTYPE", "LANG")

# What Python writes into LC_CTYPE when it coerces the C locale (PEP 538).
_COERCED = frozenset({"C.UTF-8", "C.utf8", "UTF-8"})


def locale_name(env: Mapping[str, str]) -> str | None:
    """The locale that decides the character set: LC_ALL, else LC_CTYPE,
    else LANG, empty values skipped; None when none is set."""
    for name in LOCALE_VARIABLES:
        value = env.get(name)
        if value:
            return value
    return None


def is_utf8_locale(name: str | None) -> bool:
    """Does this locale name ("en_GB.UTF-8", "C.utf8", macOS's bare
    "UTF-8") speak UTF-8? "C", "POSIX", "en_US.ISO-8859-1" and no locale
    at all do not."""
    if not name:
        return False
    name = name.split("@", 1)[0]
    codeset = name.rsplit(".", 1)[-1] if "." in name else name
    return codeset.lower().replace("-", "").replace("_", "") == "utf8"


def speaks_utf8(env: Mapping[str, str], unset: bool = False) -> bool:
    """Does the terminal whose locale is in `env` show UTF-8? `unset` is the
    answer when no locale variable is set at all (POSIX: the C locale, so
    False; an SSH client that sent none told us nothing, see the server)."""
    name = locale_name(env)
    return unset if name is None else is_utf8_locale(name)


def startup_environ() -> dict[str, str]:
    """This process's environment as the shell gave it, before Python's
    start-up coerced a C locale to C.UTF-8 (PEP 538). On Linux that is
    /proc/self/environ, which setenv() does not change; elsewhere the
    coercion is recognised by its traces (UTF-8 mode on, LC_CTYPE set to
    one of the names Python coerces to)."""
    env = dict(os.environ)
    try:
        with open("/proc/self/environ", "rb") as raw:
            started = dict(item.split(b"=", 1) for item in raw.read().split(b"\0")
                           if b"=" in item)
    except OSError:
        started = None
    if started is not None:
        for name in LOCALE_VARIABLES:
            value = started.get(name.encode())
            if value is None:
                env.pop(name, None)
            else:
                env[name] = value.decode(errors="replace")
        return env
    if sys.flags.utf8_mode and not env.get("LC_ALL") and env.get("LC_CTYPE") in _COERCED \
            and env.get("PYTHONUTF8") != "1":
        env.pop("LC_CTYPE")
    return env


def full_screen_problem(env: Mapping[str, str], stdin: TextIO | None, stdout: TextIO | None,
                        stderr: TextIO | None) -> str | None:
    """Why a full-screen game cannot be drawn here, or None when it can.
    The keys must come from a terminal, and the screen must go to one:
    Textual draws on stderr, and a redirected stdout means the person asked
    for output to keep, not for a game. The terminal must also move a
    cursor: TERM set and not "dumb", as curses programs expect (Windows
    consoles set no TERM and need none)."""
    for stream, name in ((stdin, "stdin"), (stdout, "stdout"), (stderr, "stderr")):
        if not _isatty(stream):
            return f"{name} is not a terminal"
    if os.name != "nt":
        term = env.get("TERM", "")
        if not term:
            return "TERM is not set"
        if term == "dumb":
            return "TERM is dumb"
    return None


def _isatty(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except (ValueError, OSError):  # closed
        return False
