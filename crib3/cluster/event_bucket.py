"""A cluster's live events as its `crib3-events` bucket keeps them, and
what is read from them without a node: the bucket's entries, an event's
results from its board tables' streams, and a rated event's result
checked against them.

Kept apart from `crib3.cluster.live_events` (a node's side: dealing,
adopting, the lobby's copy) because three readers with no node need it:
`crib3 event new --live --cluster` and `crib3 event results --cluster`,
and every check of the results stream (`crib3.cluster.verify`, by every
node and by `crib3 ratings rebuild --cluster`).

An entry is `{"event": ..., "live": ..., "rated": ...}`: the event's
definition, how it is played (`LiveEvent.to_json`), and whether its host
made it rated (on one machine a file beside the event, `rated.json`;
here it travels with the event, so every node knows it).
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from pathlib import Path
from typing import Any

import nats.js.errors

from crib3.cluster.store import ClusterStore, patiently
from crib3.duplicate.events import DuplicateEvent, events_dir
from crib3.engine.log import write_log
from crib3.room.event_ratings import event_id, event_name, event_result
from crib3.room.live_event import OVER, FieldResult, LiveEvent, ensure_baseline
from crib3.room.results import Result

BUCKET = "crib3-events"

Results = tuple[LiveEvent, list[FieldResult], list[Any], list[str]]


def entry_value(live: LiveEvent, rated: bool) -> bytes:
    """An event's entry in the bucket."""
    return json.dumps({"event": live.event.to_json(), "live": live.to_json(),
                       "rated": rated}).encode()


def live_of(data: dict[str, Any]) -> LiveEvent:
    """The event an entry holds (KeyError, ValueError: not an event's)."""
    return LiveEvent.from_json(DuplicateEvent.from_json(data["event"]), data["live"])


async def put_event(kv: Any, live: LiveEvent, rated: bool) -> None:
    """A new event in the bucket (made by `new_live_event` on a node, or by
    `crib3 event new --live --cluster`); nats-py's
    KeyWrongLastSequenceError if one of its name is there already."""
    await kv.create(live.name, entry_value(live, rated))


async def read_entry(kv: Any, name: str) -> tuple[dict[str, Any], int]:
    """Event `name`'s entry as the cluster holds it, and its revision.
    (A read: safe to send again.)"""
    entry = await patiently(lambda: kv.get(name))
    data = json.loads(entry.value or b"{}")
    if not isinstance(data, dict):
        raise ValueError(f"event {name}'s entry is no event's")
    return data, int(entry.revision)


async def read_event(kv: Any, name: str) -> tuple[LiveEvent, int]:
    """Event `name` as the cluster holds it, and its revision."""
    data, revision = await read_entry(kv, name)
    return live_of(data), revision


async def event_results(store: ClusterStore, kv: Any, name: str,
                        folder: Path | None = None) -> Results:
    """Event `name`'s results from its tables' streams, by a node or by
    `crib3 event results --cluster` alike: the event (its logs now the
    files written), its fields, its ranking, the logs left out. Each play
    of a board over at every table is written as an ordinary game log in
    `folder` (the event's own `cluster/` folder in the data folder unless
    told) and scored as on one machine; a board still in play is not read
    (its cards stay on its stream). The computer's yardstick plays are the
    same everywhere (drawn from the event's name and seed), played again
    where they are missing."""
    live, _ = await read_event(kv, name)
    if folder is None:
        folder = events_dir() / name / "cluster"
        folder.mkdir(parents=True, exist_ok=True)
        (folder.parent / "event.json").write_text(json.dumps(live.event.to_json()) + "\n",
                                                  encoding="utf-8")
    folder.mkdir(parents=True, exist_ok=True)
    over = live.board if live.status == OVER else live.board - 1  # (as `LiveEvent.plays`)
    for key, table_id in list(live.logs.items()):
        if key[0] > over:
            continue
        record = await store.read(str(table_id))
        path = folder / f"table-{table_id}.jsonl"
        header = record.header if record.header is not None else {}
        write_log(path, record.events, header)
        live.logs[key] = path
    await asyncio.to_thread(ensure_baseline, live.event)
    fields, ranking, problems = live.results()
    return live, fields, list(ranking), problems


async def check_event_result(store: ClusterStore, result: Result) -> str | None:
    """A rated event's result on the results stream, made again from the
    event in the bucket and its tables' streams, as the node that wrote it
    made it (`crib3.room.event_ratings.event_result`): None when it is
    that, else why not. nats-py's errors (the cluster not answering) go to
    the caller, who waits and asks again."""
    name = event_name(result.game)
    if name is None:
        return f"{result.game} is no event's result"
    try:
        kv = await patiently(lambda: store.js.key_value(BUCKET))
        data, _ = await read_entry(kv, name)
    except (nats.js.errors.BucketNotFoundError, nats.js.errors.KeyNotFoundError):
        return f"no event {name} on the cluster"
    try:
        live = live_of(data)
    except (KeyError, ValueError, TypeError) as exc:
        return f"event {name} on the cluster cannot be read ({exc})"
    if data.get("rated") is not True:
        return f"event {name} is not rated"
    if live.status != OVER:
        return f"event {name} is not over"
    if event_id(live) != result.game:
        return f"{result.game} is not event {name}'s result (another of its name)"
    with tempfile.TemporaryDirectory(prefix="crib3-event-") as scratch:
        try:
            live, _, _, problems = await event_results(store, kv, name, Path(scratch))
        except (ValueError, KeyError, TypeError) as exc:
            return f"event {name}'s tables are no games' logs ({exc})"
        if problems:
            return f"event {name}'s tables cannot all be read: {problems[0]}"
        made = event_result(live)
    if made is None:
        return f"event {name} rates nobody"
    if made.digest != result.digest:
        return f"its digest is not that of event {name}'s tables"
    if made.placings != result.placings:
        return f"places or scores that event {name}'s tables do not give"
    return None


__all__ = ["BUCKET", "check_event_result", "entry_value", "event_results", "live_of",
           "put_event", "read_entry", "read_event"]

