"""Statistics' summaries of saved games, kept between runs: derived data.

Statistics read each log through verify's reader (so they count exactly the
logs that verify accepts), which costs about 8 ms a game: 80 s for 10,000
games, every time. The summary of a verified log cannot change while the
file does not, so it is kept here, keyed by the file's name, size and
modification time, and a log is read again only when it is new or changed.
The cache is never the source of truth: a missing, stale, unreadable or
foreign cache file is simply rebuilt from the logs, and one that cannot be
written is not an error (the statistics are only slower next time). Logs
that fail are never cached, so their problem is told every time.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from crib3 import __version__
from crib3.saved import GameSummary

FORMAT = "crib3-stats-cache"
VERSION = 2  # raise when GameSummary changes (a new crib3 version rebuilds it anyway)


def _key(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def _to_json(summary: GameSummary) -> dict[str, Any]:
    return {"players": summary.players, "target": summary.target, "winner": summary.winner,
            "scores": summary.scores, "pegging": summary.pegging, "counts": summary.counts,
            "skunks": summary.skunks}


def _from_json(data: dict[str, Any]) -> GameSummary:
    return GameSummary(
        players=[(str(name), str(level)) for name, level in data["players"]],
        target=int(data["target"]),
        winner=None if data["winner"] is None else int(data["winner"]),
        scores=[int(x) for x in data["scores"]],
        pegging=[int(x) for x in data["pegging"]],
        counts=[(int(s), bool(c), int(p)) for s, c, p in data["counts"]],
        skunks=[int(x) for x in data["skunks"]],
    )


class SummaryCache:
    """The summaries of one folder's logs, loaded from and saved to `file`."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.entries: dict[str, Any] = {}
        self.changed = False
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
            if data.get("format") == FORMAT and data.get("version") == VERSION \
                    and data.get("crib3") == __version__ and isinstance(data.get("entries"), dict):
                self.entries = data["entries"]
        except (OSError, ValueError, AttributeError, RecursionError):
            pass  # no cache yet, or not one we can use: rebuilt from the logs

    def get(self, path: Path) -> GameSummary | None:
        entry = self.entries.get(path.name)
        key = _key(path)
        if entry is None or key is None or [entry.get("size"), entry.get("mtime_ns")] != \
                list(key):
            return None
        try:
            return _from_json(entry["summary"])
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, path: Path, summary: GameSummary, key: tuple[int, int] | None) -> None:
        if key is None:
            return
        self.entries[path.name] = {"size": key[0], "mtime_ns": key[1],
                                   "summary": _to_json(summary)}
        self.changed = True

    def keep_only(self, names: set[str]) -> None:
        """Forget the logs that are gone."""
        gone = [name for name in self.entries if name not in names]
        for name in gone:
            del self.entries[name]
        self.changed = self.changed or bool(gone)

    def save(self) -> None:
        if not self.changed:
            return
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.file.with_name(self.file.name + f".{os.getpid()}.tmp")
            temporary.write_text(json.dumps({"format": FORMAT, "version": VERSION,
                                             "crib3": __version__, "entries": self.entries}),
                                 encoding="utf-8")
            os.replace(temporary, self.file)
        except OSError:
            pass  # a read-only data folder: the statistics are only slower next time
