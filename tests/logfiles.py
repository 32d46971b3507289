"""Saved-game files for the tests: the sample logs that come with crib3,
and for the reading tests long, damaged, or many."""

from __future__ import annotations

import json
from pathlib import Path

ASSETS = Path(__file__).parent.parent / "assets" / "logs"
"""The sample logs (assets/logs/): whole games, each valid."""
SAMPLES = sorted(ASSETS.glob("*.jsonl"))

HEADER = {"format": "crib3-log", "version": 1, "created": "2026-12-01T10:00:00+00:00",
          "crib3": "0.1.0"}
STARTED = {"type": "GameStarted",
           "players": [{"name": "Ann", "kind": "human"}, {"name": "P1", "kind": "easy"},
                       {"name": "P2", "kind": "easy"}],
           "rules": {"target": 121, "skunks": False, "muggins": False}, "seed": 1}


def _line(obj: object) -> str:
    return json.dumps(obj) + "\n"


def tied_cuts_log(path: Path, rounds: int) -> Path:
    """A valid, unfinished log as long as wanted: seats 0 and 1 tie the cut
    for the deal `rounds` times (every cut is kept in the state)."""
    cut = [{"type": "CardCutForDeal", "seat": 0, "card": "2C"},
           {"type": "CardCutForDeal", "seat": 1, "card": "2H"}]
    with open(path, "w", encoding="utf-8") as f:
        f.write(_line(HEADER) + _line(STARTED) + _line(cut[0]) + _line(cut[1]))
        f.write(_line({"type": "CardCutForDeal", "seat": 2, "card": "9D"}))
        chunk = _line({"type": "CutTied", "seats": [0, 1]}) + _line(cut[0]) + _line(cut[1])
        f.write(chunk * rounds)
    return path
