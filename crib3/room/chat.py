"""A table's chat: short lines from its seats and spectators.

Chat is talk, not play: it is never a game event, never written to the
game's log, and lost when the table closes. Each line keeps the sender's
name and text as they were typed; the screens show both literally (never
as markup). What a line may be is decided here, once: at most
`MAX_CHARS` printable characters, and no more than `PER_SECOND` lines a
second from one session (with a burst of `BURST`), so no one can flood a
table's screens.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from crib3.common.rates import TokenBucket
from crib3.room.basics import Listener, RoomError, notify

MAX_CHARS = 200   # a line of chat, at most
PER_SECOND = 1.0  # lines a session may say, sustained
BURST = 3         # ... and at once
KEPT = 50         # lines a table remembers (a screen shows the last few)


def chat_allowance() -> TokenBucket:
    """A session's allowance of chat lines: `PER_SECOND`, `BURST` at once."""
    return TokenBucket(PER_SECOND, BURST)


@dataclass(frozen=True)
class ChatLine:
    """One line said at a table: who said it (as they signed in) and what."""

    name: str
    text: str


def checked_text(text: str) -> str:
    """`text` as a chat line may hold it (spaces trimmed), or RoomError
    with one line saying why not."""
    text = text.strip()
    if not text:
        raise RoomError("say something first")
    if len(text) > MAX_CHARS:
        raise RoomError(f"a chat line is at most {MAX_CHARS} characters "
                        f"(this one has {len(text)})")
    if not text.isprintable():
        raise RoomError("a chat line is printable characters only")
    return text


class TableChat:
    """The lines said at one table, newest last, and who to tell."""

    def __init__(self) -> None:
        self.lines: deque[ChatLine] = deque(maxlen=KEPT)
        self.listeners: list[Listener] = []

    def say(self, name: str, text: str, allowance: TokenBucket) -> ChatLine:
        """Add a line from `name`, if it is one and `allowance` lets them
        speak now; else RoomError (nothing is added)."""
        text = checked_text(text)
        if not allowance.take():
            raise RoomError("not so fast: one chat line a second")
        line = ChatLine(name, text)
        self.lines.append(line)
        notify(self.listeners)
        return line
