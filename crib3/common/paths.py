"""Where crib3 keeps its files: settings, saved games, its cache.

`CRIB3_HOME` puts everything under one folder (tests use it); otherwise the
platform's usual places, via platformdirs (imported only when needed, to keep
start-up fast).
"""

from __future__ import annotations

import os
from pathlib import Path


def _home() -> Path | None:
    value = os.environ.get("CRIB3_HOME")
    return Path(value).expanduser() if value else None


def config_dir() -> Path:
    home = _home()
    if home is not None:
        return home / "config"
    from platformdirs import user_config_path

    return user_config_path("crib3", appauthor=False)


def data_dir() -> Path:
    home = _home()
    if home is not None:
        return home / "data"
    from platformdirs import user_data_path

    return user_data_path("crib3", appauthor=False)


def cache_dir() -> Path:
    """What crib3 keeps only to be faster (the parsed CSS): safe to delete."""
    home = _home()
    if home is not None:
        return home / "cache"
    from platformdirs import user_cache_path

    return user_cache_path("crib3", appauthor=False)


def games_dir() -> Path:
    """Where every game is saved as it is played, one file per game."""
    return data_dir() / "games"


def unwritable(folder: Path, file: Path | None = None) -> str | None:
    """Why crib3 could not save in `folder` (or append to `file` in it),
    in a few words such as "read-only file system"; None when it can.

    It tries, rather than asking `os.access`: permission bits do not show a
    read-only mount, a full disk or (for root) much at all."""
    import errno
    import tempfile

    try:
        folder.mkdir(parents=True, exist_ok=True)
        if file is not None:
            with open(file, "a", encoding="utf-8"):
                pass
        else:
            with tempfile.NamedTemporaryFile(dir=folder, prefix=".crib3-probe-"):
                pass
    except OSError as exc:
        if exc.errno == errno.EROFS:
            return "read-only (on a read-only file system)"
        return (exc.strerror or str(exc)).lower()
    return None
