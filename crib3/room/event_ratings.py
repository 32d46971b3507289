"""A finished rated live event's one result, for the ratings.

An event moves ratings once, as one result (`crib3.room.results`), not
board by board: a board is one hand, and twenty boards counted as twenty
results would move a rating as twenty whole games do while holding a game's
worth of cribbage. Its entries are ranked as a game ranks its seats:

- each person seated, by the event's score (their mean matchpoints, kept
  in tenths of a percent; equal scores share a place, as equal points at a
  table do). A person who left is ranked last whatever their boards scored
  before they went (`Placing.left`): leaving does not save a rating. The
  boards the computer played for them count for nobody.
- the computer's entries (the event's yardstick, and the fills of short
  tables) at their levels' fixed ratings, as the computer at a rated table
  is: an event of three people still measures them against something fixed.

The result's id is the event's own (its name, seed and making), so it is
applied once whatever happens after: a restart that finds the event over,
a replayed call, and `crib3 ratings rebuild` all meet the line already in
the log. Nothing here writes: `event_result` makes the result, the room
records it (`rate_event`).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crib3.duplicate.events import DuplicateEvent
from crib3.room.identities import key_identity
from crib3.room.live_event import OVER, LiveEvent
from crib3.room.ratings import BOT_PREFIX, Placing, bot_identity
from crib3.room.results import EVENT, EVENT_SCORE, Result, log_digest, now

if TYPE_CHECKING:
    from crib3.room.room import Room

log = logging.getLogger("crib3.serve")
# Beside the event's live file: the host's choice that it moves ratings
# (kept apart from the live file, which records how the event is played).
RATED_FILE = "rated.json"


def mark_rated(event: DuplicateEvent) -> None:
    """The host made `event` rated (`crib3 event new --live --rated`)."""
    (event.folder / RATED_FILE).write_text(json.dumps({"rated": True}) + "\n",
                                           encoding="utf-8")


def is_rated(event: DuplicateEvent) -> bool:
    """`event` moves ratings where the room rates (its host made it so)."""
    try:
        data = json.loads((event.folder / RATED_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return False
    except (OSError, ValueError) as exc:
        log.warning("event %s: %s cannot be read (%s); it is not rated", event.name,
                    RATED_FILE, exc)
        return False
    return isinstance(data, dict) and data.get("rated") is True


def event_id(live: LiveEvent) -> str:
    """The event's result's id: its name, and a digest of what made it
    (a later event of the same name is another event)."""
    made = f"{live.event.name} {live.event.seed} {live.event.created}".encode()
    return f"{EVENT}{live.name}-{hashlib.sha256(made).hexdigest()[:16]}"


def event_name(game: str) -> str | None:
    """The event's name in a result's id (None: the id is a game's)."""
    if not game.startswith(EVENT):
        return None
    return game.removeprefix(EVENT).rsplit("-", 1)[0]


def score_of(percent: float) -> int:
    """An event's score as a result keeps it: tenths of a percent."""
    return max(0, min(EVENT_SCORE, round(percent * 10)))


def placings(live: LiveEvent) -> list[Placing] | None:
    """A finished event's entries as its result ranks them (see the
    module's docstring); None: nothing to rate (no person with an identity,
    or one identity entered twice)."""
    fields, table, _ = live.results()
    del fields
    standing = {(s.who, s.person): s for s in table}
    out: list[Placing] = []
    for slots in live.seating:
        for who in slots:
            entrant = live.entrant(who) if who is not None else None
            if entrant is None:
                continue
            identity = key_identity(entrant.key)
            if identity is None:  # no key (an --open room): nobody's rating to move
                continue
            mine = standing.get((entrant.name, True))
            left = entrant.name.lower() in live.left
            out.append(Placing(identity, entrant.name,
                               score_of(mine.percent) if mine and not left else 0, left=left))
    level = bot_identity(live.event.level)
    out += [Placing(level, s.who, score_of(s.percent)) for s in table
            if not s.person and not s.who.startswith("computer for ")]
    people = [p.identity for p in out if not p.identity.startswith(BOT_PREFIX)]
    if len(set(people)) != len(people):
        log.warning("event %s: one key held two entries; it is not rated", live.name)
        return None
    return out if people and len(out) >= 2 else None


def event_result(live: LiveEvent) -> Result | None:
    """The finished event's one result (None: it is not over, or has
    nothing to rate). Its digest is of every table's log of every board,
    in order: the plays the result was folded from."""
    if live.status != OVER:
        return None
    ranked = placings(live)
    if ranked is None:
        return None
    digest = hashlib.sha256("".join(
        log_digest(path) for _, path in sorted(live.logs.items())).encode()).hexdigest()
    return Result(event_id(live), 0, now(), tuple(ranked), digest)


@dataclass(frozen=True, slots=True)
class Rating:
    """What rating an event did (for the server's log and the tests)."""

    recorded: bool
    why: str


def rate_event(live: LiveEvent, rated: bool, has: Callable[[str], bool] | None,
               record: Callable[[Result], bool]) -> Rating:
    """Record a finished event's result once: `rated`, the host's choice;
    `has`, whether a result id is in already (asked first, so an event
    found over again costs no reading of its logs); `record`, the room's
    results' `record`. A failure to read or write is logged; the event is
    over all the same."""
    if not rated:
        return Rating(False, "not rated")
    if has is not None and has(event_id(live)):
        return Rating(False, "in already")
    try:
        result = event_result(live)
        if result is None:
            return Rating(False, "nothing to rate")
        if not record(result):
            return Rating(False, "in already")
    except (OSError, ValueError) as exc:
        log.error("event %s: its result could not be recorded, no rating moved: %s",
                  live.name, exc)
        return Rating(False, str(exc))
    log.info("event %s: its result is recorded (%d entries ranked)", live.name,
             len(result.placings))
    return Rating(True, "recorded")


def rate_finished(room: Room, live: LiveEvent) -> Rating:
    """`live` is over in `room`: its result goes in, once, if the event is
    rated and the room rates. A cluster's node puts it on the cluster's
    results stream instead (`crib3.cluster.live_events`), never here."""
    if room.results is None:
        return Rating(False, "this room rates no game")
    if room.cluster is not None:
        return Rating(False, "on a cluster's node")
    return rate_event(live, is_rated(live.event), room.results.has, room.results.record)
