"""An open room's moderation: bans, mutes, the message of the day, and the
record of every admin's action.

An admin's kick ends a session, and the person may come straight back. A
**ban** keeps them out: at sign-in they are refused in one line, until it
ends. A **mute** keeps them out of the tables' chat (in one line too); their
game goes on. Both are kept by whom they stand for, `Presence.holder`: an SSH
key, a browser's identity (its key), or under `--open`, where anyone can make
a new key or name, the address they connect from. Each lasts a while
(`DURATIONS`) or for good, and both last across reconnects and restarts: they
are kept in the room's folder (`FILE`, written whole and replaced in one
step, its owner's alone).

The **message of the day** is one line the lobby shows everyone: the host's
(`crib3 serve --motd`) or an admin's. It is text from a person: the screens
show it literally, never as markup.

Every admin action (kick, ban, unban, mute, unmute, motd) is appended to an
**audit log** (`AUDIT`, JSON Lines, its owner's alone): who, whom, what,
when, and until when. It is only ever appended to.

On a cluster each node keeps its own file, and `crib3.cluster.bans` keeps
them in step: what one node's admin imposes or lifts is told to every node
(`on_change`), which takes it in (`adopt`, `forget`) without an audit line of
its own (the node where it was done wrote that).
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from crib3.common.lookalikes import printable
from crib3.engine.log import open_private
from crib3.room.basics import RoomError
from crib3.room.chat import steady
from crib3.room.storage import write_whole

log = logging.getLogger("crib3.serve")

FILE = "moderation.json"  # the bans, mutes and message of the day in force
AUDIT = "audit.jsonl"  # every admin's action, one JSON line each, appended
BAN, MUTE = "ban", "mute"
# How long an admin's ban or mute lasts: a label, and seconds (None: for good).
DURATIONS: tuple[tuple[str, float | None], ...] = (
    ("1 hour", 3600.0), ("1 day", 86400.0), ("7 days", 7 * 86400.0), ("for good", None))
MOTD_CHARS = 300  # a message of the day, at most
KEPT = 100_000  # bans and mutes in force at most (then the oldest give way)


@dataclass(frozen=True)
class Sanction:
    """A ban or a mute in force: `whom` is a `Presence.holder` ("key ..."
    or "address ..."), `name` the name they were known by when it was
    made (for the admin's list and the log), `until` when it ends (the
    room's clock; None: never)."""

    what: str
    whom: str
    name: str
    by: str
    when: float
    until: float | None

    def lasts(self, now: float) -> bool:
        return self.until is None or now < self.until

    def until_words(self) -> str:
        return until_words(self.until)


def until_words(until: float | None) -> str:
    """When a ban or a mute ends, as one says it: "until 2026-12-07 13:00
    UTC", or (None) "for good"."""
    if until is None:
        return "for good"
    return "until " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(until))


def checked_motd(text: str) -> str:
    """`text` as a message of the day may be: one line of printable
    characters (runs of spaces are one space), at most `MOTD_CHARS`; ""
    has none. RoomError (one line) otherwise. What terminals draw at other
    widths than Rich counts is left out or spelt out, as in chat
    (`crib3.room.chat.steady`), so the lobby's rows keep their width."""
    text = " ".join(steady(text).split())
    if len(text) > MOTD_CHARS:
        raise RoomError(f"a message of the day is at most {MOTD_CHARS} characters "
                        f"(this one has {len(text)})")
    if text and not printable(text):
        raise RoomError("a message of the day is printable characters only")
    return text


class Moderation:
    """One room's bans, mutes and message of the day (see the module's
    docstring), in `folder`. `clock` is the wall clock (a test's may be
    turned)."""

    def __init__(self, folder: Path, clock: Callable[[], float] = time.time) -> None:
        self.folder = folder
        self.clock = clock
        self.sanctions: dict[tuple[str, str], Sanction] = {}  # (what, whom) -> it
        self.motd = ""
        # Told of each ban or mute an admin here imposes (the Sanction) or
        # lifts (None), by (what, whom): a cluster's node tells the others.
        self.on_change: Callable[[str, str, Sanction | None], None] | None = None
        self._read()

    # --- what holds --------------------------------------------------------------------

    def banned(self, holder: str | None) -> Sanction | None:
        """The ban in force on `holder` (a `Presence.holder`), if any."""
        return self._in_force(BAN, holder)

    def muted(self, holder: str | None) -> Sanction | None:
        """The mute in force on `holder`, if any."""
        return self._in_force(MUTE, holder)

    def in_force(self, what: str) -> list[Sanction]:
        """Every ban (or mute) in force, the latest first."""
        now = self.clock()
        return sorted((s for s in self.sanctions.values() if s.what == what and s.lasts(now)),
                      key=lambda s: -s.when)

    def _in_force(self, what: str, holder: str | None) -> Sanction | None:
        if holder is None:
            return None
        found = self.sanctions.get((what, holder))
        return found if found is not None and found.lasts(self.clock()) else None

    # --- an admin's actions --------------------------------------------------------------

    def impose(self, what: str, whom: str, name: str, seconds: float | None,
               by: str, by_key: str | None = None) -> Sanction:
        """Ban (or mute) `whom` for `seconds` (None: for good), in place of
        any before; kept, and written in the audit log."""
        now = self.clock()
        sanction = Sanction(what, whom, name, by, now, None if seconds is None else now + seconds)
        self.sanctions.pop((what, whom), None)
        self.sanctions[(what, whom)] = sanction
        self._save()
        self.record(by, what, name, whom, sanction.until, by_key=by_key)
        if self.on_change is not None:
            self.on_change(what, whom, sanction)
        return sanction

    def lift(self, what: str, whom: str, by: str, by_key: str | None = None) -> Sanction:
        """End the ban (or mute) on `whom`; kept, and written in the audit
        log. RoomError if there is none in force."""
        sanction = self._in_force(what, whom)
        if sanction is None:
            raise RoomError(f"there is no such {what} in force")
        del self.sanctions[(what, whom)]
        self._save()
        self.record(by, "un" + what, sanction.name, whom, by_key=by_key)
        if self.on_change is not None:
            self.on_change(what, whom, None)
        return sanction

    def adopt(self, sanction: Sanction) -> None:
        """A ban or a mute another node's admin imposed: in force here too
        (kept; its audit line is that node's)."""
        if sanction.what in (BAN, MUTE) and sanction.lasts(self.clock()) and \
                self.sanctions.get((sanction.what, sanction.whom)) != sanction:
            self.sanctions[(sanction.what, sanction.whom)] = sanction
            self._save()

    def forget(self, what: str, whom: str) -> None:
        """A ban or a mute another node's admin lifted: lifted here too."""
        if self.sanctions.pop((what, whom), None) is not None:
            self._save()

    def set_motd(self, text: str, by: str, by_key: str | None = None) -> str:
        """The lobby's message of the day from now on ("": none), as
        checked (`checked_motd`); kept, and written in the audit log if it
        changed."""
        text = checked_motd(text)
        if text != self.motd:
            self.motd = text
            self._save()
            self.record(by, "motd", None, None, text=text, by_key=by_key)
        return text

    def record(self, by: str, what: str, name: str | None, whom: str | None,
               until: float | None = None, text: str | None = None,
               by_key: str | None = None) -> None:
        """One line in the audit log: who did `what` (the admin's name, and
        their `Presence.holder`: `by_key`) to whom (the name they were known
        by, and the key or address), when, until when. A log that cannot be
        written is said in the server's log; the action stands."""
        line: dict[str, object] = {"when": round(self.clock(), 3), "by": by, "by_key": by_key,
                                   "what": what, "name": name, "whom": whom, "until": until}
        if text is not None:
            line["text"] = text
        lasting = f" {until_words(until)}" if what in (BAN, MUTE) else ""
        log.info("%s by %r: %r (%s)%s", what, by, name, whom, lasting,
                 extra={"event": f"crib3.serve.moderation.{what}"})
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            with open_private(self.folder / AUDIT, "a") as f:
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
        except OSError as exc:
            log.error("moderation: the audit log could not be written (%s): %s %s %s",
                      exc, by, what, whom)

    # --- the file ------------------------------------------------------------------------

    def _save(self) -> None:
        """Write what is in force, the ended ones left out. One that cannot
        be written is said in the server's log: it holds until the room
        stops."""
        now = self.clock()
        kept = [s for s in self.sanctions.values() if s.lasts(now)][-KEPT:]
        self.sanctions = {(s.what, s.whom): s for s in kept}
        data = {"motd": self.motd, "sanctions": [asdict(s) for s in kept]}
        try:
            write_whole(self.folder / FILE, json.dumps(data, ensure_ascii=False, indent=1))
        except OSError as exc:
            log.error("moderation: the bans and mutes could not be saved (they hold until "
                      "the room stops): %s", exc)

    def _read(self) -> None:
        """What a room before this one kept. A file that cannot be read is
        set aside (as `FILE`.unreadable) and said in the server's log, not
        written over."""
        path = self.folder / FILE
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            motd = data.get("motd", "")
            sanctions = [Sanction(str(s["what"]), str(s["whom"]), str(s["name"]), str(s["by"]),
                                  float(s["when"]),
                                  None if s["until"] is None else float(s["until"]))
                         for s in data.get("sanctions", [])]
            if not isinstance(motd, str):
                raise TypeError("motd is not text")
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            aside = path.with_name(FILE + ".unreadable")
            log.error("moderation: %s could not be read (%s): set aside as %s; no bans hold",
                      path, exc, aside.name)
            try:
                os.replace(path, aside)
            except OSError:
                pass
            return
        self.motd = motd
        now = self.clock()
        self.sanctions = {(s.what, s.whom): s for s in sanctions if s.lasts(now)}
