"""Saved games, read in the ways a player wants them: a list, a transcript,
statistics. All of them are folds of the logs; there is no second database
to fall out of step with them. Reading never changes a log (statistics keep
a cache of their summaries beside the games: derived data, rebuilt from the
logs whenever it is missing or stale).
"""

from __future__ import annotations

import os
import textwrap
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.cells import cell_len

from crib3.common.names import shown_name
from crib3.common.paths import games_dir
from crib3.engine import Event, State, fold
from crib3.engine import events as ev
from crib3.engine.log import LogError, load_log
from crib3.saved.listing import Glance, glance
from crib3.saved.summary import GameSummary, summarise_log


def saved_paths(folder: Path | None = None) -> list[Path]:
    """The saved games, oldest first (their names are their start times)."""
    folder = folder or games_dir()
    try:
        names = sorted(entry.name for entry in os.scandir(folder)
                       if entry.name.endswith(".jsonl"))
    except OSError:  # no folder yet (or not one)
        return []
    return [folder / name for name in names]


def read_saved(path: Path) -> Glance:
    """One saved game as the list shows it, from its first lines and its end
    (not verified: `crib3 verify` does that). A bad file is reported, not
    raised."""
    return glance(path)


def list_games(folder: Path | None = None) -> list[Glance]:
    return [glance(p) for p in saved_paths(folder)]


def find_game(name: str, folder: Path | None = None) -> Path:
    """The saved game a command is given as `crib3 games` names it: a file
    (as a path, which wins), `latest` (the newest saved game), its number
    in the list (1 the oldest), or its name in the games folder (with or
    without `.jsonl`). Anything else is returned as the path it says, for
    the reader to report as missing in its usual words."""
    path = Path(name)
    if path.exists() or not name or path.name != name:
        return path
    if name.casefold() == "latest" or (name.isdigit() and not name.startswith("0")):
        paths = saved_paths(folder)
        if name.casefold() == "latest":
            return paths[-1] if paths else path
        return paths[int(name) - 1] if int(name) <= len(paths) else path
    folder = folder or games_dir()
    for candidate in (folder / name, folder / f"{name}.jsonl"):
        if candidate.name.endswith(".jsonl") and candidate.is_file():
            return candidate
    return path


def latest_unfinished(folder: Path | None = None,
                      cancelled: Callable[[], bool] = lambda: False) -> Path | None:
    """The most recent game that nobody has won yet, with a human in seat 0,
    even if it is damaged (it is then resumed up to its last good line).
    Files whose players cannot be read are passed over. `cancelled` is asked
    between files, so a screen that is closing need not wait for the scan."""
    return find_unfinished(folder, cancelled)[0]


def find_unfinished(folder: Path | None = None,
                    cancelled: Callable[[], bool] = lambda: False
                    ) -> tuple[Path | None, list[str]]:
    """`latest_unfinished`, and the problems of the newer files passed over
    (one line each) so that they can be told, not silently skipped."""
    passed: list[str] = []
    for path in reversed(saved_paths(folder)):
        if cancelled():
            break
        seen = glance(path)
        if seen.players and seen.players[0].is_human and seen.winner is None:
            return path, passed
        if seen.problem:
            passed.append(seen.problem)
    return None, passed


# --- the transcript ----------------------------------------------------------------


def transcript(events: Sequence[Event], ascii: bool = False) -> str:
    """The game told in words, everything face up (it is over, or it is
    yours): "Hand 3. Bea shuffles and deals. ... Ann throws 9♣ ..."."""
    from crib3.engine import apply
    from crib3.words.narrate import dealt, describe

    lines: list[str] = []
    state = State()
    for event in events:
        state = apply(state, event)
        if isinstance(event, ev.DeckShuffled) and lines:
            lines.append("")
        if isinstance(event, ev.CardsDealt):
            lines.extend(dealt(state, seat, hand, ascii) for seat, hand in enumerate(event.hands))
            continue
        line = describe(event, state, ascii)
        if line:
            lines.append(line)
    return "\n".join(lines) + "\n"


# --- statistics ----------------------------------------------------------------------


@dataclass
class PlayerStats:
    """One player name at one level, over every saved game they sat in."""

    name: str
    level: str
    games: int = 0
    finished: int = 0
    wins: int = 0
    skunked: int = 0
    hands: int = 0
    hand_points: int = 0
    cribs: int = 0
    crib_points: int = 0
    pegging_points: int = 0
    best_hand: int = 0
    streak: int = 0
    longest_streak: int = 0
    # Won (True) or lost, each finished game in the order played: what the
    # streaks are counted from, for programs (`crib3 stats --json`).
    results: list[bool] = field(default_factory=list)
    # games with a take-back (a local game's `u`) at this player's table:
    # counted in `games` and in the points; a person's results in them are
    # not in `finished`, `wins`, the share, skunks or streaks but in
    # `takebacks`, on their own line (a computer player's count as ever)
    takeback_games: int = 0
    takebacks: PlayerStats | None = None

    @property
    def win_share(self) -> float:
        return self.wins / self.finished if self.finished else 0.0

    def add(self, game: GameSummary, seat: int, result: bool) -> None:
        """Count `seat` of `game` in these figures, its result too when
        `result`."""
        self.games += 1
        self.pegging_points += game.pegging[seat]
        self.takeback_games += bool(game.taken_back)
        for at, crib, total in game.counts:
            if at != seat:
                continue
            if crib:
                self.cribs += 1
                self.crib_points += total
            else:
                self.hands += 1
                self.hand_points += total
                self.best_hand = max(self.best_hand, total)
        if game.winner is None or not result:
            return
        won = seat == game.winner
        self.finished += 1
        self.wins += won
        self.results.append(won)  # each finished game's, oldest first
        # A skunk only where the game's rules had skunks (the log's
        # GameStarted says so; GameWon carries the verdict).
        if not won and game.skunks[seat]:
            self.skunked += 1
        self.streak = self.streak + 1 if won else 0
        self.longest_streak = max(self.longest_streak, self.streak)


def game_stats(games: Iterable[GameSummary]) -> list[PlayerStats]:
    """Fold games into statistics per (name, level), in order of first game.

    A person's game with take-backs is counted apart: its hands and points
    count (they are the game as it stood), its result does not: a person
    who took a play back after seeing what the computer players answered
    has not beaten (or lost to) that level as the others did, so their
    wins, share of finished games, skunks and streaks are of the games
    without take-backs alone, and the games with take-backs have their own
    figures (`takebacks`), results and all. The computer players' results
    count as in any game (they took nothing back)."""
    table: dict[tuple[str, str], PlayerStats] = {}
    for game in games:
        for seat, key in enumerate(game.players):
            stats = table.setdefault(key, PlayerStats(*key))
            apart = bool(game.taken_back) and stats.level == "human"
            stats.add(game, seat, result=not apart)
            if apart:
                if stats.takebacks is None:
                    stats.takebacks = PlayerStats(*key)
                stats.takebacks.add(game, seat, result=True)
    return list(table.values())


def stats_from_files(paths: Iterable[Path], cancelled: Callable[[], bool] = lambda: False,
                     cache: Path | None = None, done: Callable[[], None] = lambda: None,
                     ) -> tuple[list[PlayerStats], list[LogError]]:
    """Statistics over saved games; files that cannot be read are listed
    (as LogErrors: `FILE[:LINE]: reason`, line 0 for a file that cannot be
    opened), not counted. `cancelled` is asked between files. With `cache`
    (a file, for the saved games' own folder), the summaries of unchanged
    logs are taken from it instead of being read again (crib3/saved/stats_cache.py).
    `done()` is called after each file (for a progress bar)."""
    from crib3.saved.derived_cache import file_key
    from crib3.saved.stats_cache import SummaryCache

    kept = SummaryCache(cache) if cache is not None else None
    games: list[GameSummary] = []
    problems: list[LogError] = []
    names: set[str] = set()
    for path in paths:
        if cancelled():
            break
        names.add(path.name)
        summary = kept.get(path) if kept is not None else None
        if summary is None:
            key = file_key(path)
            try:
                summary = summarise_log(path)
            except LogError as exc:
                problems.append(exc)
                done()
                continue
            if kept is not None and key == file_key(path):  # not written to meanwhile
                kept.put(path, summary, key)
        games.append(summary)
        done()
    if kept is not None:
        if not cancelled():
            kept.keep_only(names)
        kept.save()
    return game_stats(games), problems


def stats_cache_file() -> Path:
    """Where the statistics keep their summaries of the saved games."""
    from crib3.common.paths import data_dir

    return data_dir() / "stats-cache.json"


def format_stats(stats: Sequence[PlayerStats], width: int | None = None) -> str:
    """The statistics as a table (78 columns). `width`: the room there is
    (the statistics screen's); under 78 the table is drawn in 74, the
    players' names cut shorter, and the note under it wrapped."""
    if not stats:
        return "No saved games yet: play one with `crib3`."
    narrow = width is not None and width < 78
    who_w, wins_w, share_w = (16, 5, 6) if narrow else (18, 6, 7)
    head = (f"{'player':<{who_w}}{'games':>6}{'wins':>{wins_w}}{'share':>{share_w}}{'skunked':>8}"
            f"{'hand':>6}{'crib':>6}{'peg/hand':>9}{'best':>5}{'streak':>7}")
    lines = [head]
    for s in sorted(stats, key=lambda s: (-s.games, s.name, s.level)):
        rows = [(shown_name(f"{s.name} ({s.level})", who_w - 1), s)]  # a log's name, cut by cells
        if s.takebacks is not None:
            rows.append(("  take-backs", s.takebacks))
        for who, row in rows:
            hand = row.hand_points / row.hands if row.hands else 0.0
            crib = row.crib_points / row.cribs if row.cribs else 0.0
            peg = row.pegging_points / row.hands if row.hands else 0.0
            who += " " * (who_w - cell_len(who))
            lines.append(f"{who}{row.games:>6}{row.wins:>{wins_w}}"
                         f"{row.win_share:>{share_w}.0%}{row.skunked:>8}{hand:>6.1f}"
                         f"{crib:>6.1f}{peg:>9.1f}{row.best_hand:>5}{row.longest_streak:>7}")
    note = ("hand and crib: mean points counted; peg/hand: pegging points per hand "
            "played; share: of finished games")
    apart = [s for s in stats if s.takebacks is not None]
    notes = [note]
    if apart:
        who = ", ".join(f"{shown_name(s.name, 17)} {s.takebacks.games}"
                        for s in apart if s.takebacks is not None)
        notes.append(f"games with take-backs (u): {who}; counted in games and points, "
                     "their results on their own line (take-backs), not in the line above")
    for line in notes:
        if narrow and width is not None:
            lines += textwrap.wrap(line, width)
        else:
            lines.append(line)
    return "\n".join(lines)


@dataclass
class Resumable:
    """A saved game ready to go on: its events and state, the file the game
    goes on in, and what the player should be told when it does (one line
    each). For a damaged log, `problem` says what is wrong with it, `damaged`
    is its path and `path` the new file, written by `keep()` just before the
    game goes on."""

    state: State
    events: list[Event]
    path: Path
    notes: list[str]
    damaged: Path | None = None
    problem: str = ""  # what is wrong with a damaged log: `FILE:LINE: reason`

    def keep(self) -> None:
        """Put the events of a damaged log in their new file (synced)."""
        if self.damaged is not None and not self.path.exists():
            _write_recovered(self.path, self.damaged, self.events)


def open_for_resume(path: Path) -> Resumable:
    """Load a saved game to go on with it. A damaged log (a bad line after
    good ones) is not skipped: the game goes on from the events before the
    bad line, in a new file beside it (`NAME-recovered.jsonl`, so the list
    and `crib3 resume` find it next time), and the damaged file is left as
    it was, so nothing in it is lost. Raises LogError when nothing of the
    file can be used."""
    try:
        loaded = load_log(path)
    except LogError as exc:
        if not exc.line or not exc.valid:
            raise
        events = list(exc.valid)
        new = _recovered_path(path)
        return Resumable(fold(events), events, new, [
            f"going on from the {len(events)} events before line {exc.line} of {path.name}, "
            f"in {new.name} ({path.name} is kept as it was)"], damaged=path, problem=str(exc))
    return Resumable(loaded.state, loaded.events, path, loaded.warnings)


def _recovered_path(path: Path) -> Path:
    stem = path.stem
    for n in range(1, 1000):
        candidate = path.with_name(f"{stem}-recovered{'' if n == 1 else f'-{n}'}.jsonl")
        if not candidate.exists():
            return candidate
    raise LogError(str(path), 0, "too many recovered copies beside it")


def _write_recovered(new: Path, damaged: Path, events: Sequence[Event]) -> None:
    """The valid events, on disk (synced) before the game goes on."""
    from crib3.engine.log import make_header, write_log

    write_log(new, events, make_header(source="crib3 resume", recovered_from=damaged.name))
    with open(new, "rb") as f:
        os.fsync(f.fileno())
