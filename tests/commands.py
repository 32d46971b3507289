"""How the tests start the `crib3` command the way a user does."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path


def crib3_argv() -> list[str]:
    """The `crib3` script that pip installed beside the Python running the
    tests (in the README's venv that is `.venv/bin/crib3`, which is not on
    PATH). Not the first `crib3` on PATH: that may be another install, or a
    pyenv shim that adds its own start-up time."""
    beside = Path(sys.executable).with_name("crib3")
    if beside.exists():
        return [str(beside)]
    found = shutil.which("crib3")
    return [found] if found else [sys.executable, "-m", "crib3"]


def crib3_command() -> str:
    """The same, as one string for a shell (tmux)."""
    return " ".join(crib3_argv())
