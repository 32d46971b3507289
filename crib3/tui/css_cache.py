"""Textual's parse of the CSS, kept between runs.

Every start parses the same CSS: Textual's defaults, each widget's
`DEFAULT_CSS`, the app's `CSS` and crib3's stylesheet (crib3.tcss). The
parse is pure Python and was the largest part of what crib3 took longer
than a bare Textual app to show its first screen. Its result (Textual's
`RuleSet`s) depends only on the CSS text, where it was read from, the theme's
variables (substituted while parsing) and Textual's parser, so it is kept:

- in memory, once per process, whichever stylesheet asks (Textual keeps a
  cache per stylesheet, and `Stylesheet.reparse` starts a new stylesheet, so
  pushing the first screen parsed everything a second time);
- on disk, one pickle per piece of CSS, keyed by a hash of all of the above,
  in one file in the user's cache folder, stamped with the versions of
  crib3, Textual and Python. A stamp that differs (stale), a file that will
  not load (damaged) or an entry that is not a list of rule sets is ignored
  and rewritten; a folder that cannot be written just goes without. The
  cache is never an error, only slower when it is missing.

The file is the user's own, in their own cache folder, read with `pickle`
as Python reads their own `.pyc` files; one owned by someone else is not
read. `install()` is called by `BaseApp.run` (the command's start), so
tests driving apps with Pilot parse as Textual does unless they install it.
The parse is reached through `crib3.tui.textual_compat`, the one module
that touches Textual's internals.
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
from pathlib import Path
from typing import Any

try:  # the hash alone, without hashlib's OpenSSL (a few ms at start-up)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - not CPython
    from hashlib import blake2b

# The C pickler itself: `pickle`, the Python module in front of it, takes a
# millisecond to import, a half of a percent of the time to the first screen.
try:
    from _pickle import dump, dumps, load, loads
except ImportError:  # pragma: no cover - not CPython
    from pickle import dump, dumps, load, loads

from crib3 import __version__

PROTOCOL = 5  # pickle.HIGHEST_PROTOCOL of every Python crib3 runs on (3.11+)

FORMAT = "crib3-parsed-css"
VERSION = 1  # raise when the file's shape changes
# Entries kept on disk at most; past it, only those this run used are kept
# (a theme or a version change leaves the old ones unused).
MAX_ENTRIES = 256

Key = tuple[object, ...]


def cache_file() -> Path:
    from crib3.common.paths import cache_dir

    return cache_dir() / "parsed-css.pickle"


def _textual_version() -> str:
    """Textual's version from its install's name (importlib.metadata costs
    milliseconds at start-up); the module's own lookup when that fails."""
    import textual

    site = Path(textual.__file__).parent.parent
    try:
        for name in os.listdir(site):
            if name.startswith("textual-") and name.endswith(".dist-info"):
                return name[len("textual-"):-len(".dist-info")]
    except OSError:
        pass
    return str(textual.__version__)


def stamp() -> dict[str, str]:
    """What the parse depends on besides the CSS: the file is used only
    while all of these are as they were when it was written."""
    return {"format": FORMAT, "version": str(VERSION), "crib3": __version__,
            "textual": _textual_version(), "python": sys.version.split()[0]}


def digest(key: Key) -> str:
    """The disk's name for a parse: a hash of the CSS text, where it was
    read from, how, and the theme's variables."""
    return blake2b(repr(key).encode("utf-8", "surrogatepass"), digest_size=20).hexdigest()


class ParsedCss:
    """The rule sets of each piece of CSS parsed before, loaded from and
    saved to `file`. `parsed` and `loaded` count the pieces parsed by
    Textual and those taken from the file, in this process."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.stamp = stamp()
        self.entries: dict[str, bytes] = self._read()
        self.used: set[str] = set()
        self.changed = False
        self.parsed = 0
        self.loaded = 0
        self._lock = threading.Lock()

    def _read(self) -> dict[str, bytes]:
        """The file's entries, still pickled each (one that will not load
        costs only itself); none when the file is missing, damaged, stale
        or not the user's."""
        try:
            with open(self.file, "rb") as f:
                if hasattr(os, "getuid") and os.fstat(f.fileno()).st_uid != os.getuid():
                    return {}
                data = load(f)
        except Exception:  # missing, unreadable, damaged: parsed again, then rewritten
            return {}
        if not isinstance(data, dict) or data.get("stamp") != self.stamp:
            return {}
        entries = data.get("entries")
        if not isinstance(entries, dict):
            return {}
        return {k: v for k, v in entries.items() if isinstance(k, str) and isinstance(v, bytes)}

    def rules(self, name: str) -> list[Any] | None:
        """The rule sets kept under `name`, or None (then parse and `keep`)."""
        from textual.css.model import RuleSet

        blob = self.entries.get(name)
        if blob is None:
            return None
        try:
            rules = loads(blob)
        except Exception:
            rules = None
        if not isinstance(rules, list) or not all(isinstance(r, RuleSet) for r in rules):
            with self._lock:
                del self.entries[name]  # damaged: parsed again and rewritten
                self.changed = True
            return None
        self.used.add(name)
        self.loaded += 1
        return rules

    def keep(self, name: str, rules: list[Any]) -> None:
        """Keep a fresh parse for the next start (not one with errors:
        Textual reports those, and they are fixed before the next)."""
        self.parsed += 1
        if any(rule.errors for rule in rules):
            return
        try:
            blob = dumps(rules, protocol=PROTOCOL)
        except Exception:  # something in a rule pickle cannot take: parsed each time
            return
        with self._lock:
            self.entries[name] = blob
            self.used.add(name)
            self.changed = True

    def save(self) -> None:
        """Write the entries if any changed (atomically: a start that reads
        meanwhile sees the old file or the new). Never raises."""
        # One save at a time (the one after the first screen, in a thread,
        # and the one at exit): a later one never lands under an earlier.
        with self._lock:
            if not self.changed:
                return
            entries = self.entries
            if len(entries) > MAX_ENTRIES:
                entries = {k: v for k, v in entries.items() if k in self.used}
            self.changed = False
            temporary = self.file.with_name(f"{self.file.name}.{os.getpid()}.tmp")
            try:
                self.file.parent.mkdir(parents=True, exist_ok=True)
                with open(temporary, "wb") as f:
                    dump({"stamp": self.stamp, "entries": entries}, f, protocol=PROTOCOL)
                os.replace(temporary, self.file)
            except Exception:  # a read-only or full cache folder: only slower next time
                try:
                    temporary.unlink(missing_ok=True)
                except OSError:
                    pass


_installed: ParsedCss | None = None


def installed() -> ParsedCss | None:
    return _installed


def install(file: Path | None = None) -> ParsedCss:
    """Put the cache in front of Textual's parse, for this process (once;
    later calls return the first). Saved at exit, and by `save()`. (The
    parse is reached through `crib3.tui.textual_compat.share_css_parses`:
    on a Textual without the shape it relies on, nothing is kept.)"""
    global _installed
    if _installed is not None:
        return _installed
    from crib3.tui.textual_compat import share_css_parses

    cache = ParsedCss(cache_file() if file is None else file)
    share_css_parses(cache, digest)
    atexit.register(cache.save)
    _installed = cache
    return cache


def save() -> None:
    """Write what was parsed so far (for a start that is then cut short:
    a terminal closed skips the exit's save)."""
    if _installed is not None:
        _installed.save()
