"""Which opponent's points hurt more, three-handed.

With two opponents, a point that goes to either one costs you about the
same only while they stand level: your chance to win hangs on beating the
one ahead, so a point fed to the leader costs more than one fed to the
trailer. The look-ahead and the discard measure a choice by your points
minus the opponents' points; `rival_weights` says how much of each
opponent's points to count. The weights add up to one (a point to every
seat alike changes nothing), are a half each when the opponents are level
(the plain mean, as before), and lean to the leader the more his lead
counts: the same lead matters more the fewer points are left to play.

A function of the scores alone, which every seat sees: the bots stay honest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

# How far a lead is worth leaning on, as a share of the points still to go
# for the nearer opponent: with 60 to go, a 20-point lead weighs 2 to 1.
SCALE_SHARE = 0.5
MIN_SCALE = 8.0  # near the end, a lead of a few points must not count as all


def rival_weights(me: int, scores: Sequence[int], target: int) -> tuple[float, float, float]:
    """For each seat, how much of its points count against `me` (0 for `me`)."""
    a, b = (s for s in range(3) if s != me)
    lead = scores[a] - scores[b]
    to_go = target - max(scores[a], scores[b])
    scale = max(MIN_SCALE, SCALE_SHARE * to_go)
    w_a = 1.0 / (1.0 + math.exp(-lead / scale))
    out = [0.0, 0.0, 0.0]
    out[a], out[b] = w_a, 1.0 - w_a
    return out[0], out[1], out[2]
