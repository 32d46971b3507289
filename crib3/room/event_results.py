"""A live event's results, computed once for every screen that shows them.

`LiveEvent.results` reads every table's log of every board over (and the
yardstick's): a fifth of a second at 30 tables. The events screen shows
them to everyone waiting on it, and redraws at every change of the room:
computed afresh each time, ninety people waiting made one change cost them
all ninety times over, and the room's keys waited seconds behind it. The
results change only when another board is over at every table (or the
event ends), so they are kept under that, for every screen alike.
"""

from __future__ import annotations

from collections import OrderedDict

from crib3.duplicate.scoring import Standing
from crib3.room.live_event import OVER, FieldResult, LiveEvent

KEPT = 16  # events' results kept at once (the latest asked for)

Results = tuple[list[FieldResult], list[Standing], list[str]]
_kept: OrderedDict[tuple[object, ...], Results] = OrderedDict()


def results_of(live: LiveEvent) -> Results:
    """`live.results()`, computed once for each board over everywhere."""
    over = live.board if live.status == OVER else live.board - 1  # (as `plays` counts)
    key = (id(live), live.name, live.event.created, live.event.seed, live.status, over,
           tuple(sorted(live.left.items())))
    found = _kept.get(key)
    if found is None:
        found = _kept[key] = live.results()
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    else:
        _kept.move_to_end(key)
    return found
