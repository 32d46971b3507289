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

from crib3.common.lookalikes import printable
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
    """`text` as a chat line may hold it, or RoomError with one line
    saying why not. Spaces are trimmed and every run of them is one space
    (a run as wide as the screen would start a wrapped row where a name
    does, and read as someone else's line). Characters that terminals draw
    at other widths than Rich counts go: an emoji's skin-tone modifier,
    joiners, variation selectors and other invisible characters are
    dropped, and a flag's regional indicators become their letters ("🇫🇷"
    is "FR"), so every screen's rows keep their width."""
    text = text.strip()
    if not text:
        raise RoomError("say something first")
    if len(text) > MAX_CHARS:
        raise RoomError(f"a chat line is at most {MAX_CHARS} characters "
                        f"(this one has {len(text)})")
    if not printable(text.replace(DROPPED, "")):
        raise RoomError("a chat line is printable characters only")
    text = " ".join(part for part in steady(text).split(" ") if part)
    if not text:
        raise RoomError("say something first")
    return text


DROPPED = "\u200d"  # ZERO WIDTH JOINER: not printable, but part of emoji, so dropped


def steady(text: str) -> str:
    """`text` with the characters of unsteady width replaced (see
    `checked_text`; the chat prompt shows what it will say the same way,
    as it is typed). Spaces are left as they are."""
    from crib3.common import lookalikes

    kept: list[str] = []
    for char in text:
        if char in DROPPED or lookalikes.is_ignorable(char):
            continue
        if lookalikes.is_unsteady(char):
            if 0x1F1E6 <= ord(char) <= 0x1F1FF:  # REGIONAL INDICATOR SYMBOL LETTER A..Z
                kept.append(chr(ord("A") + ord(char) - 0x1F1E6))
            continue
        kept.append(char)
    return "".join(kept)


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
