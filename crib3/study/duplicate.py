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


# Student's t quantiles for 1 to 30 degrees of freedom, two-sided 95% and 99%.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)
_T99 = (63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169,
        3.106, 3.055, 3.012, 2.977, 2.947, 2.921, 2.898, 2.878, 2.861, 2.845,
        2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.750)
# Fewer deal sets than this and the intervals are rough: the summary says so.
FEW_DEAL_SETS = 30


def t_quantile(df: int, z: float = Z95) -> float:
    """Student's t for `df` degrees of freedom at the level of the normal
    `z` (95% or 99% from the table; other levels and more than 30 degrees
    by the Cornish-Fisher expansion, within a thousandth there)."""
    table = {Z95: _T95, Z99: _T99}.get(z)
    if table is not None and 1 <= df <= len(table):
        return table[df - 1]
    return (z + (z ** 3 + z) / (4 * df)
            + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2))


def t_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean with Student's t interval (honest for a few values, where
    the normal one is too narrow); a single value has no spread to go by:
    its interval is the value alone."""
    mean, low, high = mean_interval(values, z)
    n = len(values)
    if n < 2:
        return (mean, low, high)
    widen = t_quantile(n - 1, z) / z
    return (mean, mean - (mean - low) * widen, mean + (high - mean) * widen)


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a share of `trials`: never of zero width
    and never outside 0 to 1, however few the trials or lopsided the share."""
    if trials <= 0:
        return (0.0, 1.0)
    share = successes / trials
    z2 = z * z
    centre = (share + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(share * (1 - share) / trials + z2 / (4 * trials * trials)) \
        / (1 + z2 / trials)
    return (centre - half, centre + half)


def share_interval(values: Sequence[float], trials_each: int,
                   z: float = Z95) -> tuple[float, float, float]:
    """A share over deal sets (each value a set's share of `trials_each`
    games) with an interval wide enough for both ways of being wrong: the
    t interval over the sets (they are the independent observations), and
    Wilson's over all the games (which does not shrink to nothing when a
    few sets happen to agree, as 5 sets of exactly a third did)."""
    mean, low, high = t_interval(values, z)
    if not values:
        return (mean, low, high)
    w_low, w_high = wilson(mean * trials_each * len(values), trials_each * len(values), z)
    return (mean, min(low, w_low), max(high, w_high))


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

    @property
    def even_by_construction(self) -> bool:
        """A level against itself: every seating's mirror is played on the
        same cards, so it wins exactly half, with no luck to allow for."""
        return self.a == self.b

    @property
    def few_sets(self) -> bool:
        return len(self.sets) < FEW_DEAL_SETS and not self.even_by_construction

    def a_share(self, z: float = Z95) -> tuple[float, float, float]:
        """A's share of all the games (0.5 for equal levels), with its interval."""
        values = [sum(s.a_won) / len(SEATINGS) for s in self.sets]
        if self.even_by_construction:
            return mean_interval(values, z)
        return share_interval(values, len(SEATINGS), z)

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
        return mean_interval(wins) if self.even_by_construction else share_interval(wins, 3)

    def margin(self) -> tuple[float, float, float]:
        """A's mean final score minus B's, per game, with its interval."""
        margins = [sum(s.margins) / len(SEATINGS) for s in self.sets]
        return mean_interval(margins) if self.even_by_construction else t_interval(margins)

    def to_json(self) -> dict:
        def triple(t: tuple[float, float, float], digits: int = 4,
                   within: tuple[float, float] = (-math.inf, math.inf)) -> dict:
            """As reported: an interval reaches no further than the value can
            (a share 0 to 1; the t interval of a few sets would)."""
            low, high = max(t[1], within[0]), min(t[2], within[1])
            return {"value": round(t[0], digits), "ci95": [round(low, digits), round(high, digits)]}

        share, gap = (0.0, 1.0), (-1.0, 1.0)

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
            "few_deal_sets": self.few_sets,
            "a_share": triple(self.a_share(), within=share),
            "a_minus_b": triple(self.difference(), within=gap),
            "a_alone_vs_two_b": triple(self.alone_share(True), within=share),
            "b_alone_vs_two_a": triple(self.alone_share(False), within=share),
            "score_margin": triple(self.margin(), 2),
        }


def run(a: str, b: str, deal_sets: int, seed: int | None = None, rules: Rules | None = None,
        log_dir: str | None = None, jobs: int = 1,
        progress: Callable[[int, DuplicateSummary], None] | None = None,
        max_seconds: float | None = None,
        report: Callable[[DuplicateSummary], None] | None = None,
        report_every: float = 30.0) -> DuplicateSummary:
    """Play `deal_sets` seeds, six seatings each. `progress(n, summary so far)`
    is called with the number of games as batches finish, `report(summary so far)` at
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
            progress(len(sets) * len(SEATINGS), summary)
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


def format_standing(summary: DuplicateSummary) -> str:
    """How a run stands, short enough for beside a progress bar: A's share
    of the games so far."""
    return f"{summary.a} {summary.a_share()[0]:.1%}" if summary.sets else ""


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
        *([f"only {len(summary.sets)} deal sets: the intervals are rough (t over the sets, "
           f"Wilson over the games); {FEW_DEAL_SETS} or more make them worth reading"]
          if summary.few_sets else []),
        "",
        f"{a} wins{'':<16}{pct('a_share')}   (equal: 50%)",
        f"{a} minus {b}{'':<9}{pct('a_minus_b')}   (equal: 0%)",
        f"{a} alone vs two {b}{'':<2}{pct('a_alone_vs_two_b')}   (equal: 33.3%)",
        f"{b} alone vs two {a}{'':<2}{pct('b_alone_vs_two_a')}   (equal: 33.3%)",
        f"final score, {a} minus {b}: {margin['value']:+.2f} points a game "
        f"(95% CI {margin['ci95'][0]:+.2f} to {margin['ci95'][1]:+.2f})",
    ])
