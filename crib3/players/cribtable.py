"""Compute the three-player crib table that ships as crib_table.json.

    python -m crib3.players.cribtable --samples 60000 --seed 1 --out table.json

It writes only where `--out` says, and never over the table inside the
installed package (copy a new table into the source tree by hand, and
commit it, to ship it).

In three-handed cribbage the crib is one discard from each player, one card
from the deck, and the starter. The table gives, for each rank a seat might
throw, the crib's expected points. It is estimated by dealing random hands:
the two other seats discard the way the `standard` player does (the best
expected hand), the deck's crib card and the starter are what the deal gives,
and every one of the first seat's five cards is tried as its discard.
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path

from crib3.cards import DECK, RANKS
from crib3.common.arguments import Parser, at_least_one
from crib3.players.analysis import discard_options
from crib3.scoring import hand_points

PACKAGED = Path(__file__).with_name("crib_table.json")


class TooFewSamples(ValueError):
    """Some rank was never dealt to the seat in the samples, so it has no
    estimate: the table would be incomplete."""


def estimate(samples: int, seed: int) -> dict:
    rng = random.Random(seed)
    sums = [0.0] * 14
    squares = [0.0] * 14
    counts = [0] * 14
    deck = list(DECK)
    for _ in range(samples):
        rng.shuffle(deck)
        mine, others = deck[0:5], (deck[5:10], deck[10:15])
        crib_card, starter = deck[15], deck[16]
        thrown = [discard_options(h, own_crib=False, use_crib=False)[0].card for h in others]
        for card in mine:
            points = hand_points((card, thrown[0], thrown[1], crib_card), starter, crib=True)
            sums[card.rank] += points
            squares[card.rank] += points * points
            counts[card.rank] += 1
    table = {}
    errors = {}
    unseen = [RANKS[rank - 1] for rank in range(1, 14) if counts[rank] == 0]
    if unseen:
        raise TooFewSamples(f"{samples} samples dealt no {', '.join(unseen)}: "
                            f"every rank needs a few hundred samples")
    for rank in range(1, 14):
        n = counts[rank]
        mean = sums[rank] / n
        variance = max(squares[rank] / n - mean * mean, 0.0)
        table[str(rank)] = round(mean, 3)
        errors[str(rank)] = round(math.sqrt(variance / n), 3)
    return {
        "about": "Expected points of a three-player crib given the rank (1 = ace .. 13 = king) "
                 "of one seat's discard; the other two seats discard for their best expected "
                 "hand. Made by: python -m crib3.players.cribtable",
        "samples": samples,
        "seed": seed,
        "ranks": RANKS,
        "expected_crib": table,
        "standard_error": errors,
    }


def _is_packaged(path: Path, packaged: Path) -> bool:
    try:
        return path.resolve() == packaged.resolve() or (path.exists() and path.samefile(packaged))
    except OSError:
        return False


def refuse_packaged(parser: Parser, out: Path, packaged: Path) -> None:
    """End in one line when `out` is the `packaged` table: a generator run
    must not change the shipped table behind the tests' back."""
    if _is_packaged(out, packaged):
        parser.exit(2, f"{parser.prog}: will not overwrite the table inside the package "
                       f"({packaged}); write elsewhere and copy it into the source tree\n")


def write_table(parser: Parser, out: Path, data: object, indent: int | None = None) -> None:
    """Write a generated table to `out` as JSON, or end in one line."""
    separators = None if indent else (",", ":")
    try:
        out.write_text(json.dumps(data, indent=indent, separators=separators) + "\n",
                       encoding="utf-8")
    except OSError as exc:
        parser.exit(1, f"{parser.prog}: cannot write {out}: {exc.strerror or exc}\n")


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m crib3.players.cribtable",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=at_least_one, default=60000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, metavar="FILE",
                        help="where to write the table (never the packaged one)")
    args = parser.parse_args(argv)
    refuse_packaged(parser, args.out, PACKAGED)  # before the work, not after it
    try:
        data = estimate(args.samples, args.seed)
    except TooFewSamples as exc:
        parser.exit(2, f"{parser.prog}: {exc}\n")
    write_table(parser, args.out, data, indent=2)
    for rank, value in data["expected_crib"].items():
        print(f"{RANKS[int(rank) - 1]:>3} {value:6.3f} ± {data['standard_error'][rank]:.3f}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
