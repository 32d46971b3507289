"""Progress: the points a person gave up to the coach,
per hand, game by game, from their saved games.

Each game's figures are its review (`crib3.study.review`) summed by phase, for
each person at the table (computer players are not reviewed here). A
review costs a fraction of a second a game, so only the last `RECENT`
games are looked at, and each game's figures are kept between runs the
way the statistics keep their summaries (crib3/saved/stats_cache.py): keyed by
the file's name, size and modification time, rebuilt from the logs when
the cache is missing, stale or foreign, never an error when it cannot be
written. A log that cannot be read is left out here (statistics tell it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from crib3.saved.derived_cache import DerivedCache, file_key

FORMAT = "crib3-progress-cache"
VERSION = 1
RECENT = 20  # games looked at, the newest
BARS = "▁▂▃▄▅▆▇█"
ASCII_BARS = "_.:-=+*#"


@dataclass(frozen=True, slots=True)
class GameProgress:
    """One person's points given up in one game, by phase."""

    game: str  # the file's name
    created: str  # when the game began, from the log's header ("" if not said)
    name: str
    hands: int
    discard: float
    play: float
    count: float

    @property
    def total(self) -> float:
        return self.discard + self.play + self.count

    @property
    def per_hand(self) -> float:
        return self.total / self.hands if self.hands else 0.0

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.update(total=round(self.total, 2), per_hand=round(self.per_hand, 2))
        return out


def game_progress(path: Path) -> list[GameProgress]:
    """The figures of each person at the table of one saved game. Raises
    LogError for a log that cannot be read."""
    from crib3.engine.log import load_log
    from crib3.study.review import review_events

    loaded = load_log(path)
    players = loaded.state.players
    out = []
    for seat, player in enumerate(players):
        if not player.is_human:
            continue
        review = review_events(loaded.events, seat)
        out.append(GameProgress(path.name, str(loaded.header.get("created", "")), player.name,
                                review.hands, round(review.given_up("discard"), 2),
                                round(review.given_up("play"), 2),
                                round(review.given_up("count"), 2)))
    return out


class ProgressCache(DerivedCache):
    """Each game's figures, loaded from and saved to `file`."""

    def __init__(self, file: Path) -> None:
        super().__init__(file, FORMAT, VERSION)

    def get(self, path: Path) -> list[GameProgress] | None:
        figures = self.figures(path)
        if figures is None:
            return None
        try:
            return [GameProgress(**item) for item in figures]
        except (KeyError, TypeError):
            return None

    def put(self, path: Path, games: list[GameProgress], key: list[int] | None) -> None:
        self.keep(path, key, [asdict(g) for g in games])


def progress_cache_file() -> Path:
    from crib3.common.paths import data_dir

    return data_dir() / "progress-cache.json"


def progress_from_files(paths: Iterable[Path], cache: Path | None = None,
                        cancelled: Callable[[], bool] = lambda: False,
                        recent: int = RECENT, done: Callable[[], None] = lambda: None,
                        ) -> list[GameProgress]:
    """The figures of the last `recent` of `paths` (oldest first, as
    `saved_paths` lists them), in that order. `done()` is called after each
    of those files (for a progress bar)."""
    from crib3.engine.log import LogError

    kept = ProgressCache(cache) if cache is not None else None
    out: list[GameProgress] = []
    for path in list(paths)[-recent:]:
        if cancelled():
            break
        games = kept.get(path) if kept is not None else None
        if games is None:
            key = file_key(path)
            try:
                games = game_progress(path)
            except LogError:
                done()
                continue
            if kept is not None and key == file_key(path):
                kept.put(path, games, key)
        out.extend(games)
        done()
    if kept is not None:
        kept.save()
    return out


def by_person(games: Sequence[GameProgress]) -> dict[str, list[GameProgress]]:
    """The games of each person, in order, people in order of first game."""
    out: dict[str, list[GameProgress]] = {}
    for g in games:
        out.setdefault(g.name, []).append(g)
    return out


def sparkline(values: Sequence[float], ascii: bool = False) -> str:
    """One character a value, from the lowest bar (0) to the highest (the
    largest value): a line to read a trend from."""
    bars = ASCII_BARS if ascii else BARS
    top = max(values, default=0.0)
    if top <= 0:
        return bars[0] * len(values)
    return "".join(bars[min(len(bars) - 1, int(v / top * (len(bars) - 1) + 0.5))]
                   for v in values)


def format_progress(games: Sequence[GameProgress], ascii: bool = False,
                    width: int | None = None) -> str:
    """The text for `crib3 stats` and the statistics screen: per person, a
    sparkline of points given up per hand, game by game (oldest first),
    and the means by phase. `width`: the room there is (the statistics
    screen's); a person's line longer than that goes on a second line
    (the means by phase), the heading wrapped."""
    import textwrap

    from crib3.common.names import shown_name

    people = by_person(games)
    if not people:
        return "Points given up to the coach: no game of yours reviewed yet."
    heading = (f"Points given up to the coach per hand, last {RECENT} games (oldest first; "
               "less is better):")
    lines = [heading] if width is None else textwrap.wrap(heading, width)
    for name, mine in people.items():
        hands = sum(g.hands for g in mine) or 1
        per = {p: sum(getattr(g, p) for g in mine) / hands for p in ("discard", "play", "count")}
        first = (f"{shown_name(name, 16):<16} {sparkline([g.per_hand for g in mine], ascii)}"
                 f"  last {mine[-1].per_hand:.2f} · mean {sum(per.values()):.2f}:")
        means = f"discard {per['discard']:.2f}, play {per['play']:.2f}, count {per['count']:.2f}"
        if width is not None and len(first) + 1 + len(means) > width:
            lines += [first, f"{'':<17}{means}"]
        else:
            lines.append(f"{first} {means}")
    return "\n".join(lines)


def progress_json(games: Sequence[GameProgress]) -> list[dict[str, Any]]:
    return [g.to_json() for g in games]
