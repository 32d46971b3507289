"""The card room's keys: the server's host key, and the files of public
keys that say who may come in (`--authorized-keys`) and who is an admin
(`--admins`).

One place for the whole policy, so that the command line and the server
judge a keys file alike: `crib3 serve` checks the files with these before
it starts (and says in one line what is wrong), and the server
(`crib3.net.doorman`) reads them again for every connection, so a file
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
    import asyncio

    import asyncssh

    Parsed = tuple[asyncssh.SSHAuthorizedKeys | None, str | None]  # the keys, or why none
    HostKey = asyncssh.SSHKey  # (named here so that the command line never names asyncssh)


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


LARGE_KEYS_FILE = 64 * 1024  # bytes: a keys file this big is parsed off the event loop


class KeysFile:
    """A keys file (`--authorized-keys`, `--admins`), parsed again only
    when it changes (its mtime, size or inode): a file mended or added to
    needs no restart, yet a stranger's many key tries no longer make the
    server read and parse it for each one. A large file is parsed in a
    thread, so the players' screens are not held up meanwhile."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stamp: tuple[int, int, int] | None = None
        self._keys: asyncssh.SSHAuthorizedKeys | None = None
        self._problem: str | None = None
        # The parse under way, if any: the file's stamp, and its future.
        self._reading: tuple[tuple[int, int, int], asyncio.Future[Parsed]] | None = None
        self.parses = 0  # how often it was parsed (for the tests)

    async def keys(self) -> Parsed:
        """(the parsed keys or None, why there are none: one line to log)."""
        import asyncio

        loose = keys_file_too_open(self.path)
        if loose:
            return None, f"refusing every key: {loose}"
        try:
            info = self.path.stat()
        except OSError as exc:
            self._stamp = None
            return None, f"cannot read {self.path}: {exc.strerror or exc}"
        stamp = (info.st_mtime_ns, info.st_size, info.st_ino)
        if stamp == self._stamp:
            return self._keys, self._problem
        if self._reading is not None and self._reading[0] == stamp:
            return await asyncio.shield(self._reading[1])
        if info.st_size > LARGE_KEYS_FILE:
            future = asyncio.ensure_future(asyncio.to_thread(self._parse))
            self._reading = (stamp, future)
            try:
                keys, problem = await asyncio.shield(future)
            finally:
                if self._reading is not None and self._reading[1] is future:
                    self._reading = None
        else:
            keys, problem = self._parse()
        self._stamp, self._keys, self._problem = stamp, keys, problem
        return keys, problem

    def _parse(self) -> Parsed:
        import asyncssh

        self.parses += 1
        try:
            return asyncssh.read_authorized_keys(str(self.path)), None
        except (OSError, ValueError) as exc:
            return None, f"cannot read {self.path}: {exc}"
