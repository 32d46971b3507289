"""The card room's keys: the server's host key, and the files of public
keys that say who may come in (`--authorized-keys`) and who is an admin
(`--admins`).

One place for the whole policy, so that the command line and the server
judge a keys file alike: `crib3 serve` checks the files with these before
it starts (and says in one line what is wrong), and the server
(`crib3.net.server`) reads them again for every connection, so a file
mended or added to needs no restart. A keys file is trusted as OpenSSH's
StrictModes trusts one: not if anyone but its owner may write it.

asyncssh is imported only where a key is read or made: a command line that
is wrong is refused without loading it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncssh


def default_host_key() -> Path:
    """Where the server keeps its host key unless told (`--host-key`)."""
    from crib3.common.paths import config_dir

    return config_dir() / "ssh_host_ed25519_key"


def default_authorized_keys() -> Path:
    """Where the keys of those who may come in are, unless told
    (`--authorized-keys`)."""
    from crib3.common.paths import config_dir

    return config_dir() / "authorized_keys"


def host_key_at(path: Path) -> asyncssh.SSHKey:
    """The server's host key, made (ed25519, owner-only) on first start so
    clients see the same server every time. ValueError or OSError when the
    file there is no key or cannot be read."""
    import asyncssh

    if path.exists():
        return asyncssh.read_private_key(str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="crib3 serve")
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "wb") as out:
        out.write(key.export_private_key())
    path.with_suffix(".pub").write_bytes(key.export_public_key())
    return key


def keys_file_too_open(path: Path) -> str | None:
    """Why an authorized-keys file cannot be trusted, or None. Like
    OpenSSH's StrictModes: a file (or its folder) that someone other than
    its owner may write would let them add a key of their own."""
    import stat

    for place in (path, path.parent):
        try:
            mode = place.stat().st_mode
        except OSError:
            return None  # a missing file is reported where it is read
        if mode & (stat.S_IWGRP | stat.S_IWOTH) and not (place.is_dir() and mode & stat.S_ISVTX):
            return (f"{place} may be written by others (mode {stat.S_IMODE(mode):04o}): "
                    f"chmod go-w {place}")
    return None


def authorized_keys_problem(path: Path) -> str | None:
    """Why nobody could sign in with these keys ("has no keys", "cannot be
    read (...)"), or None when the file holds at least one key."""
    import asyncssh

    try:
        asyncssh.read_authorized_keys(str(path))
    except OSError as exc:
        return f"cannot be read ({exc.strerror or exc})"
    except ValueError:
        return "has no keys"
    return None
