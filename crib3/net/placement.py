"""Which session worker a session belongs in (`crib3 serve --workers N`).

What the seats (and spectators) of one table draw alike is drawn once per
process (`crib3.tui.widgets.shared_render`, `crib3.tui.textual_compat`); a table
whose three seats ran 2 + 1 over two workers paid for that drawing twice,
so a table's sessions should run in one worker: it cut the server's CPU a
key and a session's memory on the load benchmark
(assets/measurements/card-room.md, "A table's sessions in one worker").

The rule, kept simple so that the workers stay balanced without any
bookkeeping of their own:

- a new session (in the lobby) goes to the worker with the fewest
  sessions, unless it is going back to a table (a reconnect): then it goes
  straight to that table's worker;
- a table's worker is the one most of its other sessions run in; on a tie
  the one the session is in already (no move), else the one of the person
  named first (the owner, then the seats in order, then the spectators).
  Since the one who opens a table is a new session placed by the rule
  above, tables are spread as the lobby's sessions are.

This module only decides; `crib3.net.workers` moves sessions. It knows
the room's read API (seats, owner, watchers) and nothing of sockets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping
from typing import Any


def table_of(room: Any, presence: Any) -> Any:
    """The table `presence` sits at (a game not over) or watches, or None."""
    place = room.place_of(presence)
    if place is not None:
        return place[0]
    return next((t for t in room.tables.values() if presence in t.watchers), None)


def people_at(table: Any) -> list[str]:
    """Who is at `table` (lower-case names), owner first, then the seats in
    order, then the spectators: the order ties are broken in."""
    names = [table.owner] if table.owner else []
    names += [s.name for s in table.seats if s.name is not None and s.person]
    names += table.watcher_names()
    seen: dict[str, None] = {}
    for name in names:
        seen.setdefault(name.lower(), None)
    return list(seen)


def home_of(table: Any, where: Mapping[str, Iterable[Hashable]], me: str,
            here: Hashable | None = None) -> Hashable | None:
    """The worker `table`'s sessions (but `me`'s own) run in, by the rule in
    the module's docstring; None when none of them has a session.
    `where`: lower-case name -> the workers that person's sessions run in."""
    order: list[Hashable] = []
    for name in people_at(table):
        if name == me.lower():
            continue
        order += list(where.get(name, ()))
    if not order:
        return None
    counts = Counter(order)
    most = max(counts.values())
    tied = [w for w in order if counts[w] == most]
    if here is not None and here in tied:
        return here
    return tied[0]
