"""Statistics' summaries of saved games, kept between runs: derived data.

Statistics read each log through verify's reader (so they count exactly the
logs that verify accepts), which costs milliseconds a game: over minutes
for ten thousand games, every time (assets/measurements/start-up.md). The
summary of a verified log is kept instead, the way
`crib3.saved.derived_cache` keeps figures derived from logs. Logs that fail
are never cached, so their problem is told every time.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from crib3.saved.derived_cache import DerivedCache
from crib3.saved.summary import GameSummary

FORMAT = "crib3-stats-cache"
VERSION = 4  # raise when GameSummary changes (a new crib3 version rebuilds it anyway)


def _to_json(summary: GameSummary) -> dict[str, Any]:
    return {"players": summary.players, "target": summary.target, "winner": summary.winner,
            "scores": summary.scores, "pegging": summary.pegging, "counts": summary.counts,
            "skunks": summary.skunks, "taken_back": summary.taken_back}


def _from_json(data: dict[str, Any]) -> GameSummary:
    return GameSummary(
        players=[(str(name), str(level)) for name, level in data["players"]],
        target=int(data["target"]),
        winner=None if data["winner"] is None else int(data["winner"]),
        scores=[int(x) for x in data["scores"]],
        pegging=[int(x) for x in data["pegging"]],
        counts=[(int(s), bool(c), int(p)) for s, c, p in data["counts"]],
        skunks=[int(x) for x in data["skunks"]],
        taken_back=int(data["taken_back"]),
    )


class SummaryCache(DerivedCache):
    """The summaries of one folder's logs, loaded from and saved to `file`."""

    def __init__(self, file: Path) -> None:
        super().__init__(file, FORMAT, VERSION)

    def get(self, path: Path) -> GameSummary | None:
        figures = self.figures(path)
        if figures is None:
            return None
        try:
            return _from_json(figures)
        except (KeyError, TypeError, ValueError):
            return None

    def put(self, path: Path, summary: GameSummary, key: list[int] | None) -> None:
        self.keep(path, key, _to_json(summary))
