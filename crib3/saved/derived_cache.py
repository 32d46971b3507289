"""Figures derived from saved games, kept between runs (the statistics'
summaries, the progress' reviews).

Reading a log again is the expensive part (the statistics verify each one,
the progress reviews each one), and what is derived from a log cannot
change while the file does not. So each log's figures are kept in one JSON
file, keyed by the log's name, size and modification time, and a log is
read again only when it is new or changed. The cache is never the source of
truth: a missing, stale, unreadable or foreign file (another format, an
older version of its figures or of crib3) is simply rebuilt from the logs,
and one that cannot be written is not an error (only slower next time).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from crib3 import __version__


def file_key(path: Path) -> list[int] | None:
    """What says a log is unchanged: its size and modification time
    (None: it cannot be looked at)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return [st.st_size, st.st_mtime_ns]


class DerivedCache:
    """The figures of one folder's logs, loaded from and saved to `file`;
    `format` names what the figures are and `version` how they are shaped
    (raise it when the shape changes)."""

    def __init__(self, file: Path, format: str, version: int) -> None:
        self.file, self.format, self.version = file, format, version
        self.entries: dict[str, Any] = {}
        self.changed = False
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
            if data.get("format") == format and data.get("version") == version \
                    and data.get("crib3") == __version__ and isinstance(data.get("entries"), dict):
                self.entries = data["entries"]
        except (OSError, ValueError, AttributeError, RecursionError):
            pass  # no cache yet, or not one we can use: rebuilt from the logs

    def figures(self, path: Path) -> Any:
        """What was kept for `path`, while the file is as it was then (None
        otherwise: read the log again)."""
        entry = self.entries.get(path.name)
        key = file_key(path)
        if not isinstance(entry, dict) or key is None or entry.get("key") != key:
            return None
        return entry.get("figures")

    def keep(self, path: Path, key: list[int] | None, figures: Any) -> None:
        """Keep `figures` (plain JSON) for `path` as it was when `key` was
        taken, before it was read."""
        if key is None:
            return
        self.entries[path.name] = {"key": key, "figures": figures}
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
            temporary.write_text(json.dumps({"format": self.format, "version": self.version,
                                             "crib3": __version__, "entries": self.entries}),
                                 encoding="utf-8")
            os.replace(temporary, self.file)
        except OSError:
            pass  # a read-only data folder: only slower next time
