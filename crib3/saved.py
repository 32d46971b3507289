"""Saved games, read in the ways a player wants them: a list, a transcript,
statistics. All of them are folds of the logs; there is no second database
to fall out of step with them. Reading never changes a file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.cells import cell_len

from crib3.engine import Event, Rules, State, fold
from crib3.engine import events as ev
from crib3.engine.log import LogError, load_log, parse_log
from crib3.engine.state import PEGGING
from crib3.names import shown_name
from crib3.paths import games_dir


@dataclass(frozen=True)
class SavedGame:
    """What the list of games shows about one file."""

    path: Path
    created: str
    state: State | None  # None when the file cannot be read
    problem: str = ""

    @property
    def finished(self) -> bool:
        return self.state is not None and self.state.winner is not None

    def describe_players(self) -> str:
        if self.state is None:
            return "?"
        return ", ".join(f"{shown_name(p.name)} ({shown_name(p.kind)})"
                         for p in self.state.players)


def saved_paths(folder: Path | None = None) -> list[Path]:
    """The saved games, oldest first (their names are their start times)."""
    folder = folder or games_dir()
    return sorted(folder.glob("*.jsonl")) if folder.is_dir() else []


def read_saved(path: Path) -> SavedGame:
    """One saved game, trusted as written by crib3 (decoded and folded, not
    re-verified: `crib3 verify` does that). A bad file is reported, not
    raised."""
    try:
        header, numbered, _ = parse_log(path)
        state = fold(e for _, e in numbered)
    except LogError as exc:
        return SavedGame(path, "", None, str(exc))
    except Exception as exc:  # a decodable but impossible file
        return SavedGame(path, "", None, f"{path}: cannot be folded ({exc})")
    return SavedGame(path, str(header.get("created", "")), state)


def list_games(folder: Path | None = None) -> list[SavedGame]:
    return [read_saved(p) for p in saved_paths(folder)]


def latest_unfinished(folder: Path | None = None) -> Path | None:
    """The most recent game that nobody has won yet, with a human in seat 0."""
    for path in reversed(saved_paths(folder)):
        saved = read_saved(path)
        state = saved.state
        if state is not None and state.winner is None and state.players \
                and state.players[0].is_human:
            return path
    return None


# --- the transcript ----------------------------------------------------------------


def transcript(events: Sequence[Event], ascii: bool = False) -> str:
    """The game told in words, everything face up (it is over, or it is
    yours): "Hand 3. Bea shuffles and deals. ... Ann throws 9♣ ..."."""
    from crib3.engine import apply
    from crib3.narrate import dealt, describe

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
    results: list[bool] = field(default_factory=list)

    @property
    def win_share(self) -> float:
        return self.wins / self.finished if self.finished else 0.0


@dataclass
class GameSummary:
    """What statistics need of one game."""

    players: list[tuple[str, str]]  # (name, level) by seat
    target: int = 121
    winner: int | None = None
    scores: list[int] = field(default_factory=lambda: [0, 0, 0])
    pegging: list[int] = field(default_factory=lambda: [0, 0, 0])
    counts: list[tuple[int, bool, int]] = field(default_factory=list)  # seat, crib, points

    @classmethod
    def of(cls, state: State, events: Sequence[Event]) -> GameSummary:
        return cls(
            players=[(p.name, p.kind) for p in state.players],
            target=state.rules.target,
            winner=state.winner,
            scores=list(state.scores),
            pegging=[state.sources[s][PEGGING] for s in range(3)],
            counts=[(e.seat, e.crib, e.points + e.missed) for e in events
                    if isinstance(e, ev.HandCounted)],
        )


def summarise_log(path: Path) -> GameSummary:
    """A game's summary read straight from its JSON lines, without building
    the events: four times faster than a full load, for statistics over many
    games. Raises LogError (or ValueError, KeyError, TypeError) on a file
    that is not a crib3 log; a cut-off last line is left out, as on loading."""
    import json

    from crib3.engine.log import _check_header

    lines = path.read_text(encoding="utf-8").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise LogError(str(path), 1, "the file is empty: not a crib3 game log")
    _check_header(str(path), json.loads(lines[0]))
    summary = GameSummary(players=[])
    for number, line in enumerate(lines[1:], start=2):
        try:
            data = json.loads(line)
        except ValueError:
            if number == len(lines):
                break  # cut off by a crash
            raise LogError(str(path), number, "not JSON") from None
        kind = data["type"]
        if kind == "GameStarted":
            summary.players = [(str(p["name"]), str(p["kind"])) for p in data["players"]]
            summary.target = int(data["rules"]["target"])
        elif kind in ("CardPlayed", "GoScored"):
            summary.pegging[data["seat"]] += int(data["points"])
        elif kind == "HandCounted":
            summary.counts.append((int(data["seat"]), bool(data["crib"]),
                                   int(data["points"]) + int(data["missed"])))
        elif kind == "GameWon":
            summary.winner = int(data["seat"])
        if "scores" in data:
            summary.scores = [int(x) for x in data["scores"]]
    if len(summary.players) != 3:
        raise LogError(str(path), 2, "the game has no three players")
    return summary


def game_stats(games: Iterable[GameSummary]) -> list[PlayerStats]:
    """Fold games into statistics per (name, level), in order of first game."""
    table: dict[tuple[str, str], PlayerStats] = {}
    for game in games:
        seats = [table.setdefault(key, PlayerStats(*key)) for key in game.players]
        for seat, stats in enumerate(seats):
            stats.games += 1
            stats.pegging_points += game.pegging[seat]
        for seat, crib, total in game.counts:
            stats = seats[seat]
            if crib:
                stats.cribs += 1
                stats.crib_points += total
            else:
                stats.hands += 1
                stats.hand_points += total
                stats.best_hand = max(stats.best_hand, total)
        if game.winner is None:
            continue
        skunk_line = Rules(target=game.target).skunk_lines()[0]
        for seat, stats in enumerate(seats):
            won = seat == game.winner
            stats.finished += 1
            stats.wins += won
            if not won and game.scores[seat] < skunk_line:
                stats.skunked += 1
            stats.streak = stats.streak + 1 if won else 0
            stats.longest_streak = max(stats.longest_streak, stats.streak)
    return list(table.values())


def stats_from_files(paths: Iterable[Path]) -> tuple[list[PlayerStats], list[str]]:
    """Statistics over saved games; files that cannot be read are listed,
    not counted."""
    games: list[GameSummary] = []
    problems: list[str] = []
    for path in paths:
        try:
            games.append(summarise_log(path))
        except LogError as exc:
            problems.append(str(exc))
        except (OSError, ValueError, KeyError, TypeError, IndexError, AttributeError) as exc:
            problems.append(f"{path}: not a crib3 game log ({type(exc).__name__})")
    return game_stats(games), problems


def format_stats(stats: Sequence[PlayerStats]) -> str:
    if not stats:
        return "No saved games yet: play one with `crib3`."
    head = (f"{'player':<18}{'games':>6}{'wins':>6}{'share':>7}{'skunked':>8}"
            f"{'hand':>6}{'crib':>6}{'peg/hand':>9}{'best':>5}{'streak':>7}")
    lines = [head]
    for s in sorted(stats, key=lambda s: (-s.games, s.name, s.level)):
        hand = s.hand_points / s.hands if s.hands else 0.0
        crib = s.crib_points / s.cribs if s.cribs else 0.0
        peg = s.pegging_points / s.hands if s.hands else 0.0
        who = shown_name(f"{s.name} ({s.level})", 17)  # a log's name, cut by cells
        who += " " * (18 - cell_len(who))
        lines.append(f"{who}{s.games:>6}{s.wins:>6}{s.win_share:>7.0%}{s.skunked:>8}"
                     f"{hand:>6.1f}{crib:>6.1f}{peg:>9.1f}{s.best_hand:>5}{s.longest_streak:>7}")
    lines.append("hand and crib: mean points counted; peg/hand: pegging points per hand "
                 "played; share: of finished games")
    return "\n".join(lines)


def load_for_resume(path: Path) -> tuple[State, list[Event], list[str]]:
    """A saved game verified move by move, ready to go on."""
    loaded = load_log(path)
    return loaded.state, loaded.events, loaded.warnings

