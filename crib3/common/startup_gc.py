"""Python's cyclic garbage collector, paused while a full-screen command
starts.

Importing Textual and building the first screen make a few hundred thousand
objects, nearly all of which live as long as the program (modules, classes,
the parsed CSS, the app and its screen). The collector runs every 700 new
objects and looks at the young ones again each time, finding nothing to
free: a tenth of the start (assets/measurements/start-up.md). So `crib3` (and each command
that opens a full screen) pauses it from the start until the first screen
is drawn (`BaseApp`), then lets it run as always (see `resume`). Reference
counting frees objects as usual meanwhile; only reference cycles wait.
"""

from __future__ import annotations

import gc

# The commands whose start is a full screen (crib3 with no command is `play`).
FULL_SCREEN_COMMANDS = frozenset({"play", "resume", "replay", "practice"})

_paused = False


def pause() -> None:
    """Stop the collector until `resume` (if it runs: a program that
    switched it off keeps it off)."""
    global _paused
    if gc.isenabled():
        gc.disable()
        _paused = True


def resume() -> None:
    """Let the collector run again, if `pause` stopped it. What the start
    made is frozen first (`gc.freeze`): while paused, every new object
    stayed in the youngest generation, and the first collection would
    otherwise examine them all at once, just as the first screen is sent
    to the terminal. Frozen objects are still freed by reference counting;
    only a cycle among them (the first screen's widgets, once it is gone)
    is kept for good: a few hundred kilobytes at most, once."""
    global _paused
    if _paused:
        _paused = False
        gc.freeze()
        gc.enable()


def paused() -> bool:
    return _paused
