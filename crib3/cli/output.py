"""What a command's output may use: Unicode suits and drawing or plain
ASCII, and a full screen, which a command asks for before it opens one and
leaves through `run_app`, so that the way a game ended becomes one line and
an exit code. Textual is imported by the commands that open a screen, not
here.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from crib3.cli.failures import CannotRun, Crashed
from crib3.common.exits import EXIT_OK

if TYPE_CHECKING:
    import argparse

    from crib3.tui.app import Crib3App


def ascii_wanted(args: argparse.Namespace) -> bool:
    """--ascii, or a terminal whose locale is not UTF-8 (decided from the
    locale the shell set, not from Python's stream encoding: with LANG=C
    Python itself writes UTF-8, which such a terminal cannot show)."""
    from crib3.common.terminal import speaks_utf8, startup_environ

    return bool(getattr(args, "ascii", False)) or not speaks_utf8(startup_environ())


def full_screen_or_exit(instead: str = "") -> None:
    """Before a command opens a screen: with no terminal to draw on (stdin,
    stdout or stderr not a tty, TERM unset or dumb) say so in one line
    ("crib3 play: needs a full-screen terminal (TERM is dumb)") and exit 1,
    drawing nothing. `instead`: what to use without one."""
    import os

    from crib3.common.terminal import full_screen_problem

    problem = full_screen_problem(os.environ, sys.stdin, sys.stdout, sys.stderr)
    if problem is not None:
        raise CannotRun(f"needs a full-screen terminal ({problem})"
                        + (f"; {instead}" if instead else ""))


def run_app(app: Crib3App) -> int:
    """Run a full-screen app, and turn the way it ended into an exit code:
    a save that failed and an unexpected error each end in one line."""
    app.run()
    if app.save_failed is not None:
        failed = app.save_failed
        from crib3.common.invocation import as_typed

        raise CannotRun(f"cannot save to {failed.path}: {failed.error.strerror or failed.error}; "
                        f"the game is saved up to the last move: `{as_typed()} resume` goes on "
                        "once that is mended (free some space)")
    if app.crash is not None:
        raise Crashed(app.crash, app.log_path if app.autosave and app.game is not None else None)
    if app.left_saved:
        from crib3.tui.app import saved_line

        print(saved_line())
    return EXIT_OK
