"""Two expert versions against `standard` players, on the same games (the
players' targets are shares against them).

`crib3 sim --duplicate` seats the two versions against each other, where
the look-ahead's model of the other seats (the standard way) is further
from the truth than it is at a table of standard players. Here each game
number is played twice, with the same seed (so the same shuffles and cuts,
hand by hand, and the seats rotating as in `crib3 sim`): once with A in the
first entry, once with B, both against two standard players. It reports
both shares, B's wins minus A's and B's final margin (its score minus the
best opponent's) minus A's, each with a 95% interval over the pairs. The
pairing takes out most of the cards' luck: the interval is about 0.6 of
two separate runs'.

    CRIB3_PAIRED_A=expert CRIB3_PAIRED_B=expert:read_standard=0.95 \\
    CRIB3_PAIRED_SECONDS=1200 CRIB3_PAIRED_JOBS=2 python -m pytest \\
        tests/benchmarks/test_paired_against_standard.py --benchmark-only -s

It starts no new pair after CRIB3_PAIRED_SECONDS (wall clock), and plays
in CRIB3_PAIRED_JOBS worker processes (1 unless told).

Measured in session 11 (A the expert; seeds 11001-11007):

| B | pairs | B - A wins | B - A margin |
|---|---|---|---|
| read_greedy=0.85:read_wary=0.05 | 5,636 | +0.14% [-0.63, +0.91] | -0.06 [-0.27, +0.14] |
| read_standard_keeps=0.9 | 2,568 | -0.55% [-1.91, +0.82] | -0.33 [-0.69, +0.04] |
| score_discard=off | 2,868 | +0.10% [-0.44, +0.65] | +0.02 [-0.09, +0.12] |
| read_standard=0.95:read_standard_keeps=1 | 1,736 | -3.23% [-4.99, -1.46] | -0.85 [-1.34, -0.36] |
| deal_keeps=on | 1,749 | -1.37% [-3.05, +0.30] | +0.11 [-0.35, +0.56] |
| read_standard=0.95 | 5,745 | +0.24% [-0.55, +1.04] | -0.01 [-0.21, +0.19] |

The expert itself (A) over these 20,302 games: 43.6% [42.9, 44.3].

Session 12 found why the sharper readings bought nothing: the Reader's
rejection throws away at most two blind deals for each one it plays out,
and under a belief this sharp that spare runs out, so most deals were kept
unread. `crib3.players.posterior` works each seat's belief out whole and
draws from it. A the expert of session 11 (`expert:posterior=off:
read_standard=0:read_standard_keeps=0`, as it was), B the expert with the
posterior, a standard seat read at 0.97 (plays) and 0.95 (keep): `posterior=on:
read_standard=0.97:read_standard_keeps=0.95`, seed 12002:

| B | pairs | B - A wins | B - A margin |
|---|---|---|---|
| posterior, reads 0.97 and 0.95 | 3,500 | +2.54% [+1.38, +3.71] | +1.13 [+0.81, +1.44] |
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor

from benchmarks.test_play_pairs import _interval  # (the mean and its 95% interval)
from crib3.engine import Rules
from crib3.study.sim import play_one

A = os.environ.get("CRIB3_PAIRED_A", "expert")
B = os.environ.get("CRIB3_PAIRED_B", "expert:read_greedy=0.85:read_wary=0.05")
SECONDS = float(os.environ.get("CRIB3_PAIRED_SECONDS", "60"))
SEED = int(os.environ.get("CRIB3_PAIRED_SEED", "11001"))
JOBS = int(os.environ.get("CRIB3_PAIRED_JOBS", "1"))


def pair(a: str, b: str, seed: int, number: int) -> tuple[tuple[bool, int], tuple[bool, int]]:
    """Game `number` with `a`, then with `b`, in the first entry: whether it
    won, and its final margin over the best opponent."""
    out = []
    for level in (a, b):
        result = play_one([level, "standard", "standard"], Rules(), seed, number)
        out.append((result.winner == 0, result.scores[0] - max(result.scores[1:])))
    return out[0], out[1]


def paired(a: str, b: str, seed: int, seconds: float, jobs: int) -> dict:
    deadline = time.time() + seconds
    pairs = []
    number = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        while time.time() < deadline:
            batch = range(number, number + 4 * jobs)
            pairs += list(pool.map(pair, [a] * len(batch), [b] * len(batch), [seed] * len(batch),
                                   batch))
            number += len(batch)
    n = len(pairs)
    return {"pairs": n, "a_share": sum(p[0][0] for p in pairs) / n,
            "b_share": sum(p[1][0] for p in pairs) / n,
            "wins": _interval([int(p[1][0]) - int(p[0][0]) for p in pairs]),
            "margin": _interval([p[1][1] - p[0][1] for p in pairs])}


def test_two_experts_on_the_same_games_against_standard_players(benchmark):
    report = benchmark.pedantic(lambda: paired(A, B, SEED, SECONDS, JOBS), rounds=1,
                                iterations=1)
    benchmark.extra_info.update(a=A, b=B, **{k: str(v) for k, v in report.items()})
    (w, wlo, whi), (m, mlo, mhi) = report["wins"], report["margin"]
    print(f"\n{report['pairs']} pairs against two standard players: {A} {report['a_share']:.1%}, "
          f"{B} {report['b_share']:.1%}; B - A wins {w:+.2%} [{wlo:+.2%}, {whi:+.2%}], "
          f"margin {m:+.2f} [{mlo:+.2f}, {mhi:+.2f}]")
    assert report["pairs"] > 0
