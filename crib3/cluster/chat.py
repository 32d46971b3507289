"""A table's chat, kept on the cluster: the `CRIB3_CHAT` stream, one
subject a table (`crib3.chat.table.<id>`), the last KEPT lines of each
kept by the server.

A table's chat is said where the table is hosted (all its people are on
that node: `crib3.cluster.visits`) and shown there at once, as on one
machine; each line is also put on the stream (`keep_line`), so that a
node that adopts the table after its host died reads its last lines back
(`read_lines`) and the conversation goes on where it stood. Nothing else
reads the stream: no node shows another node's lines as they are said.
"""

from __future__ import annotations

import contextlib
import json
import logging
from typing import Any

import nats.errors
import nats.js.errors
from nats.js.api import DeliverPolicy, StorageType, StreamConfig

from crib3.cluster.store import NOT_YET_PLACED, READ_LINGERS, check_table_id, patiently
from crib3.room.basics import RoomError
from crib3.room.chat import KEPT, MAX_CHARS, ChatLine, checked_text

CHAT = "CRIB3_CHAT"
CHAT_SUBJECTS = "crib3.chat.>"
LINE_BYTES = 4 * MAX_CHARS + 256  # a line's JSON at most (four bytes a character, a name)
log = logging.getLogger("crib3.cluster")


def chat_subject(table: str) -> str:
    """The subject of a table's chat."""
    return f"crib3.chat.table.{check_table_id(table)}"


def line_body(line: ChatLine) -> bytes:
    return json.dumps({"name": line.name, "text": line.text}, ensure_ascii=False).encode()


def line_of(body: bytes) -> ChatLine:
    """A stored line, checked again as it is read (ValueError, KeyError,
    TypeError or RoomError when it is none)."""
    data = json.loads(body)
    return ChatLine(str(data["name"]), checked_text(str(data["text"])))


async def ensure_stream(js: Any, replicas: int) -> None:
    """The chat's stream, made if it is not there yet."""
    try:
        await patiently(lambda: js.stream_info(CHAT))
    except nats.js.errors.NotFoundError:
        with contextlib.suppress(nats.js.errors.BadRequestError):
            await patiently(lambda: js.add_stream(StreamConfig(
                name=CHAT, subjects=[CHAT_SUBJECTS], num_replicas=replicas,
                storage=StorageType.FILE, max_msgs_per_subject=KEPT,
                max_msg_size=LINE_BYTES, max_age=24 * 3600.0)), also=NOT_YET_PLACED)


async def keep_line(js: Any, table: str, line: ChatLine) -> None:
    """A table's line, on the stream (a failure is logged: the line was
    said and shown; only a failover would not bring it back)."""
    try:
        await patiently(lambda: js.publish(chat_subject(table), line_body(line), stream=CHAT))
    except Exception as exc:
        log.info("table %s: a chat line not kept on the cluster (%s)", table, exc)


async def read_lines(js: Any, table: str, timeout: float = 2.0) -> list[ChatLine]:
    """A table's last lines as the stream keeps them, oldest first."""
    lines: list[ChatLine] = []
    try:
        await js.get_last_msg(CHAT, chat_subject(table))
    except nats.js.errors.NotFoundError:
        return lines  # (nothing said there, or no chat stream)
    except nats.errors.Error as exc:
        log.info("table %s: its chat could not be read back (%s)", table, exc)
        return lines
    try:
        subscription = await js.subscribe(chat_subject(table), stream=CHAT,
                                          ordered_consumer=True,
                                          deliver_policy=DeliverPolicy.ALL,
                                          inactive_threshold=READ_LINGERS)
    except (nats.js.errors.NotFoundError, nats.errors.Error) as exc:
        log.info("table %s: its chat could not be read back (%s)", table, exc)
        return lines
    try:
        while True:
            try:
                message = await subscription.next_msg(timeout=timeout)
            except (TimeoutError, nats.errors.TimeoutError):
                break  # (no line at all: nothing comes)
            with contextlib.suppress(ValueError, KeyError, TypeError, RoomError):
                lines.append(line_of(message.data))
            if message.metadata.num_pending == 0:
                break
    finally:
        with contextlib.suppress(Exception):
            await subscription.unsubscribe()
    return lines[-KEPT:]


__all__ = ["CHAT", "CHAT_SUBJECTS", "chat_subject", "ensure_stream", "keep_line",
           "read_lines"]
