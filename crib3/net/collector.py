"""Python's cyclic garbage collector in a session worker.

A worker holds many sessions' apps, each some 20,000 objects (widgets,
their styles, render caches) that live as long as the session, on top of
the hundred thousand that Textual, the screens and the parsed CSS make
once. Drawing screens makes and drops objects all the time, so the
collector runs often, and now and then a full collection walks every one
of those objects: measured at 10 tables (15 sessions a worker), about one
a worker every three seconds, each up to a second of a busy machine,
during which no session of that worker is drawn. That, not the drawing,
was most of the 95th percentile of key -> screen.

So the worker freezes (`gc.freeze`) what is there to stay: once after its
warm-up (the fixed cost), and after every full collection (what survived
it: the sessions' screens, mostly). Frozen objects are never walked
again; they are still freed by reference counting, so a full collection
walks only what is new since the last one. The price: a cycle among
frozen objects (an ended session's app and screens, a closed screen) is
kept; since Textual's strips no longer make a cycle of themselves
(`crib3.tui.textual_compat`) there are few. So when sessions have ended, or what
is frozen has grown fourfold since it was last sorted out, everything is
thawed, collected once and frozen again (`refreeze`), soon after, on the
loop.

A refreeze after sessions have ended also gives the C heap's free pages
back to the system (`give_back`): what the ended sessions' apps held there
(their larger buffers and tables) is otherwise kept by the C library as
the worker's for ever, as high as the most sessions it ever had at once.
Python's own small objects live in arenas it returns only when they are
wholly empty; those stay.

Young collections are also made rarer (`YOUNG`). Full collections came
to a fraction of what they cost with only the warm-up frozen, and each
stops the sessions far shorter (assets/measurements/card-room.md, "The
collector in a worker").
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
from collections.abc import Callable
from functools import cache
from typing import Any

# New objects between young collections (Python's default: 700). Drawing a
# screen makes tens of thousands; most are freed by reference counting
# within the update, so a young collection every 700 walked them for
# nothing and promoted the rest towards the full collections. Higher still
# saves little CPU for much longer pauses (what survives a drawing is
# walked either way, so a collection's cost grows with the threshold).
YOUNG = 10_000
# A refreeze walks every object of the worker, seconds of CPU in a full
# room; at a smaller growth it came again and again while the tables
# filled. So it waits for several ended sessions (each leaves its app frozen
# until then), or for what is frozen to grow fourfold (a bound on what
# closed screens may leave). Measured: assets/measurements/card-room.md.
REFREEZE_AFTER = 8  # ended sessions whose frozen objects may wait to be freed
GROWTH = 4.0  # ... or what is frozen has grown this much since the last refreeze


class Collector:
    """When the worker's objects are frozen (see the module's docstring)."""

    def __init__(self) -> None:
        self.ended = 0
        self.refreezes = 0
        self.baseline = 0  # frozen objects just after the last refreeze
        self._soon = False
        self._loop: asyncio.AbstractEventLoop | None = None

    def warmed(self) -> None:
        """The worker's fixed cost is paid (imports, CSS, the first app):
        freeze it, and from now on freeze what each full collection keeps."""
        self._loop = asyncio.get_running_loop()
        self._refreeze()
        gc.callbacks.append(self._collected)
        gc.set_threshold(YOUNG, *gc.get_threshold()[1:])

    def session_ended(self) -> None:
        self.ended += 1
        if self.ended >= REFREEZE_AFTER:
            self._schedule()

    def _collected(self, phase: str, info: dict[str, Any]) -> None:
        loop = self._loop
        if phase == "stop" and info["generation"] == 2 and loop is not None \
                and not loop.is_closed():
            loop.call_soon_threadsafe(self._freeze)

    def _freeze(self) -> None:
        gc.freeze()
        if gc.get_freeze_count() > self.baseline * GROWTH:
            self._schedule()

    def _schedule(self) -> None:
        if not self._soon and self._loop is not None:
            self._soon = True
            self._loop.call_soon(self._refreeze)

    def _refreeze(self) -> None:
        """Free what is frozen and no longer used: one full collection (and,
        sessions having ended, what that freed goes back to the system)."""
        self._soon = False
        ended, self.ended = self.ended, 0
        self.refreezes += 1
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.baseline = gc.get_freeze_count()
        if ended:
            give_back()

    def stop(self) -> None:
        """No more freezing after collections (a test's, or the worker's end)."""
        if self._collected in gc.callbacks:
            gc.callbacks.remove(self._collected)


@cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's `malloc_trim`, or None where the C library has none."""
    name = ctypes.util.find_library("c")
    try:
        trim: Callable[[int], int] = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError, TypeError):
        return None
    return trim


def give_back() -> bool:
    """Return the C heap's free memory to the system (some tens of
    milliseconds for a worker of a hundred MB, a small part of the full
    collection it follows); whether the C library could."""
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True
