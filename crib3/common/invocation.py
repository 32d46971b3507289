"""`crib3` as the person at the terminal must type it to run it again.

After the README's install, `crib3` is `.venv/bin/crib3`, not on PATH: a
hint that says "`crib3 resume`" sends them to "command not found". So a
hint names the command the way this one was started: `crib3` when that is
what PATH finds, else the path it was started by (`.venv/bin/crib3`), or
`python -m crib3`.
"""

from __future__ import annotations

import functools
import os
import shutil
import sys


@functools.cache
def as_typed() -> str:
    """The command that runs this crib3 again, from where it was started."""
    started = sys.argv[0] if sys.argv else ""
    name = os.path.basename(started)
    if name == "__main__.py":  # python -m crib3
        return "python -m crib3" if shutil.which("python") == sys.executable \
            else f"{sys.executable} -m crib3"
    if name != "crib3":  # (started some other way: a test, an embedding)
        return "crib3"
    found = shutil.which("crib3")
    if found and os.path.realpath(found) == os.path.realpath(started):
        return "crib3"
    return started
