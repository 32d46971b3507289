"""Where crib3 keeps its files: settings, saved games.

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


def games_dir() -> Path:
    """Where every game is saved as it is played, one file per game."""
    return data_dir() / "games"
