"""How far a saved game had been shown at its table when the person quit,
remembered for `crib3 resume` (one number a log, in a small JSON file).

A game's log cannot say how far its events had been presented: a show's
counts come at once and are said one by one, so a game quit mid-show would
otherwise be shown again from the show's first count (the pegs going back,
a muggins claim made again). With this number the table goes on from the
hand being counted, the pegs where they stood. A number is forgotten once
read: a game resumed and left again without it (a killed terminal) falls
back to the show's first count, never to a number of another session.
"""

from __future__ import annotations

import json
from pathlib import Path

from crib3.common.paths import data_dir

SHOWN_FILE = "shown.json"


def _path() -> Path:
    return data_dir() / SHOWN_FILE


def _read() -> dict[str, int]:
    try:
        data = json.loads(_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):  # none yet, or not ours: nothing remembered
        return {}
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if isinstance(v, int) and v >= 0}


def _write(data: dict[str, int]) -> None:
    """Keep `data`; a read-only home only loses the memory (the resume then
    shows a show left part seen from its first count, as before)."""
    path = _path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    except OSError:
        pass


def remember_shown(log: Path, presented: int) -> None:
    """The table of the game saved in `log` had presented this many of its
    events when the person left it."""
    data = _read()
    data[str(log.resolve())] = presented
    _write(data)


def recall_shown(log: Path) -> int | None:
    """How many of `log`'s events its table had presented when it was
    left, if that was remembered; forgotten as it is read."""
    data = _read()
    shown = data.pop(str(log.resolve()), None)
    if shown is not None:
        _write(data)
    return shown
