"""Duplicate head-to-head between two bot levels.

Each deal set is one game seed played six times, once for every way to seat
two levels A and B at a three-seat table with both present (A B B, B A B,
B B A, A A B, A B A, B A A). The seed fixes the shuffles and the cuts, so
every seating meets the same cards: the luck of the deal falls on both
levels alike and cancels in their difference, and a small gain shows in a
few thousand games where plain rotation needs tens of thousands.

Two equal levels win half of the games each: three of the six when A sits
alone once per seat (a third each) and twice per seat (two thirds each).
The intervals treat each deal set as one observation (its six games are
not independent), so they are honest about the pairing.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from crib3.engine import Rules
from crib3.engine.log import make_header, write_log
from crib3.players import make_player
from crib3.study.sim import Reporter, _play_seated, deadline_after, game_seed, past, run_batches

# Who sits where in the six games of a deal set: True for level A.
SEATINGS: tuple[tuple[bool, bool, bool], ...] = (
    (True, False, False), (False, True, False), (False, False, True),
    (True, True, False), (True, False, True), (False, True, True),
)
Z95 = 1.959964
Z99 = 2.575829  # a 99% interval's half-width in standard errors


@dataclass(frozen=True)
class DealSet:
    """The six games of one seed: for each seating, whether A won and A's
    mean final score minus B's."""

    number: int
    a_won: tuple[bool, ...]
    margins: tuple[float, ...]

    @property
    def alone_wins(self) -> int:
        """A's wins in the three seatings where A sits alone."""
        return sum(self.a_won[:3])

    @property
    def b_alone_wins(self) -> int:
        """B's wins in the three seatings where B sits alone."""
        return sum(not won for won in self.a_won[3:])


def play_deal_set(a: str, b: str, rules: Rules, seed: int, number: int,
                  log_dir: str | None = None) -> DealSet:
    gseed = game_seed(seed, number)
    wins = []
    margins = []
    for k, seating in enumerate(SEATINGS):
        levels = [a if is_a else b for is_a in seating]
        game = _play_seated([f"{level}-{s + 1}" for s, level in enumerate(levels)], levels,
                            rules, gseed)
        state = game.state
        assert state.winner is not None
        wins.append(seating[state.winner])
        a_scores = [state.scores[s] for s in range(3) if seating[s]]
        b_scores = [state.scores[s] for s in range(3) if not seating[s]]
        margins.append(sum(a_scores) / len(a_scores) - sum(b_scores) / len(b_scores))
        if log_dir is not None:
            path = Path(log_dir) / f"deal-{number:05d}-{k + 1}.jsonl"
            write_log(path, game.events, make_header(source="crib3 sim --duplicate", seed=seed,
                                                     game=number))
    return DealSet(number, tuple(wins), tuple(margins))


def _play_batch(args: tuple[str, str, Rules, int, Sequence[int], str | None, float | None]
                ) -> list[DealSet]:
    a, b, rules, seed, numbers, log_dir, deadline = args
    out = []
    for n in numbers:
        if past(deadline):  # see `sim.past`: only whole deal sets are kept
            break
        out.append(play_deal_set(a, b, rules, seed, n, log_dir))
    return out


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean with a normal interval, 95% unless `z` says otherwise (the
    values are independent)."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = sum(values) / n
    if n < 2:
        return (mean, mean, mean)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


@dataclass
class DuplicateSummary:
    a: str
    b: str
    rules: Rules
    seed: int
    sets: list[DealSet] = field(default_factory=list)
    seconds: float = 0.0
    wanted: int = 0  # deal sets asked for: more than played when --max-seconds cut the run short

    @property
    def stopped_early(self) -> bool:
        return len(self.sets) < self.wanted

    @property
    def games(self) -> int:
        return len(self.sets) * len(SEATINGS)

    def a_share(self, z: float = Z95) -> tuple[float, float, float]:
        """A's share of all the games (0.5 for equal levels), with its interval."""
        return mean_interval([sum(s.a_won) / len(SEATINGS) for s in self.sets], z)

    def difference(self, z: float = Z95) -> tuple[float, float, float]:
        """A's share minus B's share (0 for equal levels), with its interval
        (95%, or as wide as `z` standard errors)."""
        if not self.sets:
            return (0.0, 0.0, 0.0)
        share, low, high = self.a_share(z)
        return (2 * share - 1, 2 * low - 1, 2 * high - 1)

    def alone_share(self, level_a: bool) -> tuple[float, float, float]:
        """A's (or B's) share when it sits alone against two of the other
        (a third for equal levels)."""
        wins = [(s.alone_wins if level_a else s.b_alone_wins) / 3 for s in self.sets]
        return mean_interval(wins)

    def margin(self) -> tuple[float, float, float]:
        """A's mean final score minus B's, per game, with its interval."""
        return mean_interval([sum(s.margins) / len(SEATINGS) for s in self.sets])

    def to_json(self) -> dict:
        def triple(t: tuple[float, float, float], digits: int = 4) -> dict:
            return {"value": round(t[0], digits), "ci95": [round(t[1], digits), round(t[2], digits)]}

        return {
            "mode": "duplicate",
            "a": self.a,
            "b": self.b,
            "deal_sets": len(self.sets),
            "games": self.games,
            "seed": self.seed,
            "target": self.rules.target,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games / self.seconds, 1) if self.seconds else 0.0,
            "stopped_early": self.stopped_early,
            "a_share": triple(self.a_share()),
            "a_minus_b": triple(self.difference()),
            "a_alone_vs_two_b": triple(self.alone_share(True)),
            "b_alone_vs_two_a": triple(self.alone_share(False)),
            "score_margin": triple(self.margin(), 2),
        }


def run(a: str, b: str, deal_sets: int, seed: int | None = None, rules: Rules | None = None,
        log_dir: str | None = None, jobs: int = 1,
        progress: Callable[[int], None] | None = None, max_seconds: float | None = None,
        report: Callable[[DuplicateSummary], None] | None = None,
        report_every: float = 30.0) -> DuplicateSummary:
    """Play `deal_sets` seeds, six seatings each. `progress(n)` is called
    with the number of games as batches finish, `report(summary so far)` at
    most every `report_every` seconds; after `max_seconds` no deal set is
    started. Like `sim.run`, the result depends on the seed alone, not on
    `jobs` (cut short, it holds the deal sets finished)."""
    for level in (a, b):
        make_player(level)  # fail now on an unknown level, not in a worker
    rules = rules or Rules()
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    if log_dir is not None:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
    summary = DuplicateSummary(a, b, rules, seed, wanted=deal_sets)
    # Small batches: a long run reports (and stops) between them.
    batch = max(1, min(4, deal_sets // (jobs * 8) or 1))
    batches = [list(range(i, min(i + batch, deal_sets))) for i in range(0, deal_sets, batch)]
    deadline = deadline_after(max_seconds)
    work = [(a, b, rules, seed, numbers, log_dir, deadline) for numbers in batches]
    started = time.perf_counter()
    tell = Reporter(report, report_every)

    def finished(sets: list[DealSet]) -> None:
        summary.sets.extend(sets)
        summary.seconds = time.perf_counter() - started
        if progress:
            progress(len(sets) * len(SEATINGS))
        tell(summary, len(sets))

    run_batches(_play_batch, work, jobs, finished)
    summary.seconds = time.perf_counter() - started
    summary.sets.sort(key=lambda s: s.number)
    return summary


def format_progress(summary: DuplicateSummary) -> str:
    """One line on how a run stands: deal sets so far and A minus B."""
    diff, low, high = summary.difference()
    rate = summary.games / summary.seconds if summary.seconds else 0.0
    return (f"{len(summary.sets)} of {summary.wanted} deal sets ({summary.games} games), "
            f"{summary.seconds:.0f} s ({rate:.1f} games/s): {summary.a} minus {summary.b} "
            f"{diff:+.1%} [{low:+.1%}, {high:+.1%}]")


def format_summary(summary: DuplicateSummary) -> str:
    """The head-to-head for people."""
    data = summary.to_json()

    def pct(key: str) -> str:
        value, (low, high) = data[key]["value"], data[key]["ci95"]
        return f"{value:7.1%}   95% CI {low:.1%} to {high:.1%}"

    margin = data["score_margin"]
    a, b = summary.a, summary.b
    return "\n".join([
        f"{a} against {b}, duplicate: {data['deal_sets']} deal sets x 6 seatings = "
        f"{data['games']} games, seed {data['seed']}, to {data['target']}: "
        f"{data['seconds']:.2f} s, {data['games_per_second']:.1f} games/s",
        *([f"stopped at --max-seconds: {len(summary.sets)} of {summary.wanted} deal sets played"]
          if summary.stopped_early else []),
        "",
        f"{a} wins{'':<16}{pct('a_share')}   (equal: 50%)",
        f"{a} minus {b}{'':<9}{pct('a_minus_b')}   (equal: 0%)",
        f"{a} alone vs two {b}{'':<2}{pct('a_alone_vs_two_b')}   (equal: 33.3%)",
        f"{b} alone vs two {a}{'':<2}{pct('b_alone_vs_two_a')}   (equal: 33.3%)",
        f"final score, {a} minus {b}: {margin['value']:+.2f} points a game "
        f"(95% CI {margin['ci95'][0]:+.2f} to {margin['ci95'][1]:+.2f})",
    ])
