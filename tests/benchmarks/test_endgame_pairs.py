"""Two end-of-game discards on the same games, each played to the end: a
measure of an end-of-game discard change far cheaper than whole games.

Each seeded game is played by B (an expert level) in one seat, the seat
rotating with the seed, against two `standard` players. Wherever B makes a
discard and A would have thrown another card, the game is forked: one copy
goes on with A's card, the other with B's, each to the end (B plays every
later choice in both, the shuffles and cuts are the same), and A's fork
winning counts +1, B's -1, both or neither 0. Each fork is played on
through FUTURES different futures (the game's shuffles and the cuts
seeded anew, the same for both copies) and the differences averaged. Most
decisions agree, so the forks hold all the noise there is, and only where
the two differ.

    CRIB3_ENDPAIR_A=expert CRIB3_ENDPAIR_B=expert:seat_play=off CRIB3_ENDPAIR_GAMES=3000 \\
        python -m pytest tests/benchmarks/test_endgame_pairs.py --benchmark-only -s

`CRIB3_ENDPAIR_JOBS` worker processes (1 unless told), `CRIB3_ENDPAIR_FUTURES`
futures a fork (8). Until some seat reaches EARLY points, nothing it
measures is at stake, so B's seat plays the (forty times cheaper)
`standard` way there.
"""

from __future__ import annotations

import copy
import math
import os
import random
from concurrent.futures import ProcessPoolExecutor

from crib3.engine import Discard, Game, PlayerInfo, Rules
from crib3.engine.state import Phase
from crib3.players import make_player
from crib3.players.coach import rank_discards

A = os.environ.get("CRIB3_ENDPAIR_A", "expert")
B = os.environ.get("CRIB3_ENDPAIR_B", "expert:seat_play=off")
GAMES = int(os.environ.get("CRIB3_ENDPAIR_GAMES", "300"))
SEED = int(os.environ.get("CRIB3_ENDPAIR_SEED", "5000"))
JOBS = int(os.environ.get("CRIB3_ENDPAIR_JOBS", "1"))
FUTURES = int(os.environ.get("CRIB3_ENDPAIR_FUTURES", "8"))
EARLY = 121 - 45


def _finish(game: Game, bots: list) -> int | None:
    while not game.over:
        seat = game.to_act()[0]
        game.dispatch(bots[seat].choose(game.view(seat)))
    return game.winner


def _fork(game: Game, bots: list, command, hero: int, future: int) -> bool:
    """Whether `hero` wins the game going on from `game` with `command`,
    the rest of the shuffles and cuts seeded by `future`."""
    fork, fork_bots = copy.deepcopy((game, bots))
    fork.rng = random.Random(future)
    for s, bot in enumerate(fork_bots):
        bot.rng = random.Random(future * 3 + s)
    fork.dispatch(command)
    return _finish(fork, fork_bots) == hero


def _game(args: tuple[str, str, int]) -> list[float]:
    """A's forks' wins minus B's (a mean over the futures), at each discard
    where they differ."""
    a, b, seed = args
    hero = seed % 3
    levels = ["standard"] * 3
    levels[hero] = "expert"
    game = Game.new([PlayerInfo(f"p{i}", level) for i, level in enumerate(levels)], Rules(),
                    seed=seed)
    bots = [make_player(b if s == hero else "standard", random.Random(seed * 7 + s))
            for s in range(3)]
    style_a = make_player(a).style  # type: ignore[attr-defined]
    cheap = make_player("standard", random.Random(seed * 7 + hero))
    out = []
    while not game.over:
        seat = game.to_act()[0]
        view = game.view(seat)
        early = seat == hero and max(view.scores) < EARLY
        command = (cheap if early else bots[seat]).choose(view)
        if seat == hero and view.phase == Phase.DISCARD and not early:
            card_a = rank_discards(view, style_a)[0].card
            if card_a != command.card:  # type: ignore[attr-defined]
                futures = [seed * 1000 + len(out) * 50 + k for k in range(FUTURES)]
                out.append(sum(int(_fork(game, bots, Discard(seat, card_a), hero, f))
                               - int(_fork(game, bots, command, hero, f))
                               for f in futures) / FUTURES)
        game.dispatch(command)
    return out


def pair_endgames(a: str, b: str, games: int, seed: int, jobs: int = 1
                  ) -> tuple[float, float, float, int, int]:
    """(A's wins minus B's a differing discard, its 95% interval, the
    differing discards, how many of them changed the winner in some future)."""
    work = [(a, b, seed + i) for i in range(games)]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            diffs = [d for ds in pool.map(_game, work, chunksize=5) for d in ds]
    else:
        diffs = [d for args in work for d in _game(args)]
    n = len(diffs)
    if n < 2:
        return 0.0, 0.0, 0.0, n, 0
    mean = sum(diffs) / n
    half = 1.959964 * math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    return mean, mean - half, mean + half, n, sum(1 for d in diffs if d)


def test_two_endgame_discards_on_the_same_games(benchmark):
    mean, low, high, n, changed = benchmark.pedantic(
        lambda: pair_endgames(A, B, GAMES, SEED, JOBS), rounds=1, iterations=1)
    benchmark.extra_info.update(a=A, b=B, games=GAMES, differing=n, changed=changed,
                                a_minus_b=round(mean, 4), ci95=[round(low, 4), round(high, 4)])
    print(f"\n{A} minus {B}: {mean:+.4f} wins a differing discard (95% CI {low:+.4f} to "
          f"{high:+.4f}) over {n} differing discards in {GAMES} games, {changed} of them "
          f"changing the winner")
