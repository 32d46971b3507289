"""Headless games between computer players, and their summary.

Seats rotate from game to game (game i puts entry j of the player list in
seat (j + i) % 3), so no entry sits in one seat more than another. Every game
is fully determined by (seed, game number): results do not depend on how many
worker processes share the work.
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Generic, TypeVar, cast

from crib3.common.levels import PLAYER_KINDS
from crib3.engine import Game, PlayerInfo, Rules
from crib3.engine.events import DealerChosen, Scores
from crib3.engine.log import make_header, write_log
from crib3.engine.state import SOURCES
from crib3.players import make_player


@dataclass(frozen=True)
class GameResult:
    """One finished game, told by player entry (not by seat)."""

    number: int
    winner: int  # entry index
    winner_seat: int
    first_dealer_entry: int
    scores: tuple[int, int, int]
    sources: tuple[tuple[int, ...], ...]
    skunks: tuple[int, int, int]
    hands: int
    events: int


def seat_of(entry: int, game_number: int) -> int:
    return (entry + game_number) % 3


def game_seed(seed: int, number: int) -> int:
    return seed * 1_000_003 + number


def play_one(levels: Sequence[str], rules: Rules, seed: int, number: int,
             log_dir: str | None = None) -> GameResult:
    """Play game `number` of a run to the end and return its result."""
    gseed = game_seed(seed, number)
    by_seat = [0, 0, 0]
    for entry in range(3):
        by_seat[seat_of(entry, number)] = entry
    game = _play_seated([f"{levels[e]}-{e + 1}" for e in by_seat], [levels[e] for e in by_seat],
                        rules, gseed)
    state = game.state
    if log_dir is not None:
        path = Path(log_dir) / f"game-{number:05d}.jsonl"
        write_log(path, game.events, make_header(source="crib3 sim", seed=seed, game=number))
    assert state.winner is not None and state.dealer is not None
    first_dealer = next(e.seat for e in game.events if isinstance(e, DealerChosen))
    return GameResult(
        number=number,
        winner=by_seat[state.winner],
        winner_seat=state.winner,
        first_dealer_entry=by_seat[first_dealer],
        scores=cast(Scores, tuple(state.scores[seat_of(e, number)] for e in range(3))),
        sources=tuple(state.sources[seat_of(e, number)] for e in range(3)),
        skunks=cast(Scores, tuple(_skunk_level(state.scores, rules, seat_of(e, number),
                                               state.winner) for e in range(3))),
        hands=state.hand_number,
        events=len(game.events),
    )


def _play_seated(names: Sequence[str], levels: Sequence[str], rules: Rules, gseed: int) -> Game:
    """One game to the end, seat s played by a bot of level `levels[s]`.
    The shuffles come from `gseed` alone and each seat's bot draws its cuts
    from `gseed` and the seat, so the same `gseed` deals the same cards and
    cuts the same starters whoever sits where (as long as each hand is
    reached): the duplicate mode rests on this."""
    infos = [PlayerInfo(name, engine_kind(level)) for name, level in zip(names, levels)]
    bots = [make_player(level, random.Random(gseed * 7 + s)) for s, level in enumerate(levels)]
    game = Game.new(infos, rules, seed=gseed)
    dispatch, view, to_act = game.dispatch, game.view, game.to_act
    while not game.over:
        seat = to_act()[0]
        dispatch(bots[seat].choose(view(seat)))
    return game


def engine_kind(level: str) -> str:
    """The kind a game's log records for a bot level: a level kept for the
    simulator alone (`expert-2026-12`, `expert:play_weight=0.5`) plays as
    the kind it is a version of."""
    return level if level in PLAYER_KINDS else level.replace(":", "-").split("-", 1)[0]


def _skunk_level(scores: Sequence[int], rules: Rules, seat: int, winner: int) -> int:
    """Skunks are counted in the summary whether or not the rule is on."""
    if seat == winner:
        return 0
    return sum(1 for line in rules.skunk_lines() if scores[seat] < line)


def _play_batch(args: tuple[Sequence[str], Rules, int, Sequence[int], str | None, float | None]
                ) -> list[GameResult]:
    levels, rules, seed, numbers, log_dir, deadline = args
    out = []
    for n in numbers:
        if past(deadline):
            break
        out.append(play_one(levels, rules, seed, n, log_dir))
    return out


def past(deadline: float | None) -> bool:
    """Whether a run's deadline (wall-clock `time.time()`, the same in every
    worker process on this machine) has come: a batch then starts no more
    games, so a run cut short holds only finished games."""
    return deadline is not None and time.time() >= deadline


def deadline_after(max_seconds: float | None) -> float | None:
    return None if max_seconds is None else time.time() + max_seconds


Work = TypeVar("Work")
Done = TypeVar("Done")
S = TypeVar("S")  # the summary a Reporter hands on


def run_batches(play: Callable[[Work], list[Done]], work: Sequence[Work], jobs: int,
                finished: Callable[[list[Done]], None]) -> None:
    """`play` each batch of `work`, here or in `jobs` worker processes, and
    hand each batch's results to `finished` as soon as it is done (in any
    order), so a long run can say how it stands while it plays."""
    if jobs <= 1 or len(work) == 1:
        for batch in work:
            finished(play(batch))
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        pending: set[Future[list[Done]]] = {pool.submit(play, batch) for batch in work}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    finished(future.result())
        except BaseException:
            # A batch that failed (or ^C) ends the run now: leaving the
            # `with` would otherwise wait for every batch still queued, a
            # whole run's worth, before the error was ever told.
            pool.shutdown(wait=False, cancel_futures=True)
            raise


class Reporter(Generic[S]):
    """Calls `report(summary)` at most every `every` seconds, as results come in."""

    def __init__(self, report: Callable[[S], None] | None, every: float) -> None:
        self.report, self.every = report, every
        self.last = time.perf_counter()

    def __call__(self, summary: S, new: int) -> None:
        now = time.perf_counter()
        if self.report is not None and new and now - self.last >= self.every:
            self.last = now
            self.report(summary)


@dataclass
class Summary:
    levels: tuple[str, ...]
    rules: Rules
    seed: int
    results: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0
    wanted: int = 0  # games asked for: more than `games` when --max-seconds cut the run short

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def stopped_early(self) -> bool:
        return self.games < self.wanted

    def wins(self, entry: int) -> int:
        return sum(1 for r in self.results if r.winner == entry)

    def win_share(self, entry: int) -> tuple[float, float, float]:
        """Share of games won, with a 95% Wilson score interval."""
        n = self.games
        if n == 0:
            return (0.0, 0.0, 0.0)
        p = self.wins(entry) / n
        z = 1.959964
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (p, max(0.0, centre - half), min(1.0, centre + half))

    def mean_sources(self, entry: int) -> dict[str, float]:
        n = max(self.games, 1)
        return {
            name: sum(r.sources[entry][i] for r in self.results) / n
            for i, name in enumerate(SOURCES)
        }

    def skunked(self, entry: int) -> tuple[int, int]:
        return (sum(1 for r in self.results if r.skunks[entry] == 1),
                sum(1 for r in self.results if r.skunks[entry] >= 2))

    def seat_wins(self) -> list[int]:
        return [sum(1 for r in self.results if r.winner_seat == s) for s in range(3)]

    def first_deals(self, entry: int) -> int:
        return sum(1 for r in self.results if r.first_dealer_entry == entry)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict:
        players = []
        for entry, level in enumerate(self.levels):
            share, low, high = self.win_share(entry)
            skunked, double = self.skunked(entry)
            players.append({
                "level": level,
                "wins": self.wins(entry),
                "win_share": round(share, 4),
                "win_share_95ci": [round(low, 4), round(high, 4)],
                "first_deals": self.first_deals(entry),
                "mean_points": {k: round(v, 3) for k, v in self.mean_sources(entry).items()},
                "mean_final_score": round(
                    sum(r.scores[entry] for r in self.results) / max(self.games, 1), 2),
                "skunked": skunked,
                "double_skunked": double,
            })
        return {
            "games": self.games,
            "seed": self.seed,
            "target": self.rules.target,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 1),
            "stopped_early": self.stopped_early,
            "mean_hands_per_game": round(
                sum(r.hands for r in self.results) / max(self.games, 1), 2),
            "mean_events_per_game": round(
                sum(r.events for r in self.results) / max(self.games, 1), 1),
            "seat_wins": self.seat_wins(),
            "players": players,
        }


def run(levels: Sequence[str], games: int, seed: int | None = None, rules: Rules | None = None,
        log_dir: str | None = None, jobs: int = 1,
        progress: Callable[[int, Summary], None] | None = None, max_seconds: float | None = None,
        report: Callable[[Summary], None] | None = None,
        report_every: float = 30.0) -> Summary:
    """Play `games` games and summarize them. `progress(n, summary so far)` is called as
    batches of n games finish; `report(summary so far)` at most every
    `report_every` seconds. After `max_seconds` no game is started: the
    summary holds the games finished (see `Summary.stopped_early`)."""
    if len(levels) != 3:
        raise ValueError(f"name three players, not {len(levels)}")
    for level in levels:
        make_player(level)  # fail now on an unknown level, not in a worker
    rules = rules or Rules()
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    if log_dir is not None:
        Path(log_dir).mkdir(parents=True, exist_ok=True)
    summary = Summary(tuple(levels), rules, seed, wanted=games)
    # Small batches: a long run reports (and stops) between them.
    batch = max(1, min(20, games // (jobs * 8) or 1))
    batches = [list(range(i, min(i + batch, games))) for i in range(0, games, batch)]
    started = time.perf_counter()
    deadline = deadline_after(max_seconds)
    tell = Reporter(report, report_every)

    def finished(results: list[GameResult]) -> None:
        summary.results.extend(results)
        summary.seconds = time.perf_counter() - started
        if progress:
            progress(len(results), summary)
        tell(summary, len(results))

    work = [(tuple(levels), rules, seed, numbers, log_dir, deadline) for numbers in batches]
    run_batches(_play_batch, work, jobs, finished)
    summary.seconds = time.perf_counter() - started
    summary.results.sort(key=lambda r: r.number)
    return summary


def default_jobs(games: int) -> int:
    """Worker processes worth starting: one per core, none for a few games."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, min(cores or 1, games // 40))


def format_progress(summary: Summary) -> str:
    """One line on how a run stands: games so far and each entry's share."""
    shares = ", ".join(
        f"{level}-{entry + 1} {share:.1%} [{low:.1%}, {high:.1%}]"
        for entry, level in enumerate(summary.levels)
        for share, low, high in [summary.win_share(entry)])
    return (f"{summary.games} of {summary.wanted} games, {summary.seconds:.0f} s "
            f"({summary.games_per_second:.1f} games/s): {shares}")


def format_standing(summary: Summary) -> str:
    """How a run stands, short enough for beside a progress bar: each
    entry's share of the games won so far."""
    return "  ".join(f"{level}-{entry + 1} {summary.win_share(entry)[0]:.0%}"
                     for entry, level in enumerate(summary.levels))


def format_summary(summary: Summary) -> str:
    """The summary as a table for people."""
    data = summary.to_json()
    lines = [
        f"{data['games']} games, seed {data['seed']}, to {data['target']}: "
        f"{data['seconds']:.2f} s, {data['games_per_second']:.0f} games/s, "
        f"{data['mean_hands_per_game']:.1f} hands a game",
        *([f"stopped at --max-seconds: {summary.games} of {summary.wanted} games played"]
          if summary.stopped_early else []),
        "",
        f"{'player':<12}{'wins':>6}{'share':>8}{'95% CI':>15}"
        f"{'peg':>7}{'hand':>7}{'crib':>7}{'heels':>7}{'skunked':>9}",
    ]
    for entry, p in enumerate(data["players"]):
        low, high = p["win_share_95ci"]
        m = p["mean_points"]
        skunks = f"{p['skunked']}+{p['double_skunked']}" if p["double_skunked"] else str(
            p["skunked"])
        lines.append(
            f"{p['level'] + '-' + str(entry + 1):<12}{p['wins']:>6}{p['win_share']:>8.1%}"
            f"{f'{low:.1%}-{high:.1%}':>15}"
            f"{m['pegging']:>7.1f}{m['hand']:>7.1f}{m['crib']:>7.1f}{m['heels']:>7.2f}"
            f"{skunks:>9}"
        )
    lines.append("")
    lines.append("wins by seat: " + ", ".join(
        f"seat {s}: {w}" for s, w in enumerate(data["seat_wins"])))
    lines.append("points are means per game; skunked counts losses below "
                 + " / ".join(str(x) for x in summary.rules.skunk_lines()))
    return "\n".join(lines)
