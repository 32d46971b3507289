"""Compute the discard table that ships as discard_table.json: what the
four cards a seat keeps are worth in the play, and how the cards it keeps
change the crib.

    python -m crib3.players.discardtable --deals 200000 --seed 1 --out table.json

It writes only where `--out` says, never over the packaged table (copy a new
table into the source tree by hand, and commit it, to ship it).

It deals random hands; the two other seats keep the best expected hand (the
`standard` discard), and every one of the first seat's five discards is
played out: the whole play, every seat choosing the `standard` way, from the
seat's place at the table (0 = left of the dealer, who leads; 1; 2 = the
dealer). Two tables come out:

- `play[place][kept]`: the seat's expected margin in the play (its points
  minus the mean of the other two) keeping those four ranks, centred on the
  place's mean. Rare hands are pulled towards an additive model (the sum of
  per-rank effects), by PRIOR_WEIGHT deals' worth.
- `crib_given_kept[thrown][kept]`: how much a card of rank `kept` among the
  four kept moves the crib's expected points when a card of rank `thrown`
  goes in (a pair kept leaves fewer of that rank for the crib, and so on);
  the expert adds these to the crib table's value for the card thrown.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from crib3.cards import DECK, RANKS
from crib3.common.arguments import Parser, at_least_one
from crib3.players.analysis import (
    discard_options,
    greedy_code,
    pack_ranks,
    pile_points_code,
    push_rank,
    remove_at,
)
from crib3.players.cribtable import TooFewSamples, refuse_packaged, write_table
from crib3.scoring import hand_points

PACKAGED = Path(__file__).with_name("discard_table.json")
PRIOR_WEIGHT = 40.0
_AFTER = ((1, 2, 0), (2, 0, 1), (0, 1, 2))  # who moves after seat s


def play_points(hands: list[int], leader: int = 0) -> list[int]:
    """The play from its first card to its last, every seat choosing the
    `standard` way: each seat's points. `hands` are packed sorted ranks
    (`analysis.pack_ranks`), `leader` the seat that leads."""
    hands = list(hands)
    points = [0, 0, 0]
    pile = count = 0
    mover = leader
    last = -1
    while True:
        if last >= 0:
            mover = -1
            if count != 31:
                room = 31 - count
                for s in _AFTER[last]:
                    if hands[s] and (hands[s] & 15) <= room:
                        mover = s
                        break
            if mover < 0:
                if count != 31:
                    points[last] += 1
                for s in _AFTER[last]:
                    if hands[s]:
                        mover = s
                        break
                if mover < 0:
                    return points
                pile = count = 0
        hand = hands[mover]
        index = greedy_code(hand, pile, count)
        chosen = (hand >> (4 * index)) & 15
        hands[mover] = remove_at(hand, index)
        pile = push_rank(pile, chosen)
        count += chosen if chosen < 10 else 10
        points[mover] += pile_points_code(pile, count)
        last = mover


def estimate(deals: int, seed: int) -> dict:
    rng = random.Random(seed)
    deck = list(DECK)
    # place -> kept code -> [sum, n]
    play_sum: list[dict[int, list[float]]] = [{} for _ in range(3)]
    crib_sum = [[0.0] * 14 for _ in range(14)]  # thrown, kept rank -> sum of crib points
    crib_n = [[0] * 14 for _ in range(14)]
    thrown_sum = [0.0] * 14
    thrown_n = [0] * 14
    for _ in range(deals):
        rng.shuffle(deck)
        hands = [deck[0:5], deck[5:10], deck[10:15]]
        crib_card, starter = deck[15], deck[16]
        best = [discard_options(h, own_crib=False, use_crib=False)[0] for h in hands]
        kept_codes = [pack_ranks(sorted(c.rank for c in o.kept)) for o in best]
        for place in range(3):
            others = [best[s].card for s in range(3) if s != place]
            for card in hands[place]:
                kept = [c for c in hands[place] if c is not card]
                code = pack_ranks(sorted(c.rank for c in kept))
                codes = list(kept_codes)
                codes[place] = code
                points = play_points(codes)
                margin = points[place] - (sum(points) - points[place]) / 2
                cell = play_sum[place].setdefault(code, [0.0, 0])
                cell[0] += margin
                cell[1] += 1
                crib = hand_points((card, *others, crib_card), starter, crib=True)
                thrown_sum[card.rank] += crib
                thrown_n[card.rank] += 1
                for k in kept:
                    crib_sum[card.rank][k.rank] += crib
                    crib_n[card.rank][k.rank] += 1
    play = [_smooth(cells) for cells in play_sum]
    crib_given = {}
    unseen = [RANKS[rank - 1] for rank in range(1, 14) if not thrown_n[rank]]
    if unseen:
        raise TooFewSamples(f"{deals} deals threw no {', '.join(unseen)}: "
                            f"every rank needs a few hundred deals")
    for thrown in range(1, 14):
        base = thrown_sum[thrown] / thrown_n[thrown]
        crib_given[str(thrown)] = {
            str(k): round(crib_sum[thrown][k] / crib_n[thrown][k] - base, 4) if crib_n[thrown][k]
            else 0.0 for k in range(1, 14)}
    return {
        "about": "What a seat's kept four are worth in the three-player play, by its place "
                 "(0 = left of the dealer, 1, 2 = dealer), keyed by the kept ranks packed four "
                 "bits each, lowest first; and how each kept rank moves the crib for each rank "
                 "thrown. Made by: python -m crib3.players.discardtable",
        "deals": deals,
        "seed": seed,
        "play": [{str(code): value for code, value in sorted(p.items())} for p in play],
        "crib_given_kept": crib_given,
    }


def _smooth(cells: dict[int, list]) -> dict[int, float]:
    """Each kept hand's mean margin, centred, pulled towards an additive
    model fitted by backfitting (a few rounds over the per-rank effects)."""
    total = sum(s for s, _ in cells.values())
    n_all = sum(n for _, n in cells.values())
    mean = total / n_all
    ranks = {code: [(code >> (4 * i)) & 15 for i in range(4)] for code in cells}
    effect = [0.0] * 14
    for _ in range(8):
        num = [0.0] * 14
        den = [0.0] * 14
        for code, (s, n) in cells.items():
            rs = ranks[code]
            fitted = sum(effect[r] for r in rs)
            for r in rs:
                num[r] += s - n * (mean + fitted - effect[r])
                den[r] += n
        effect = [num[r] / den[r] if den[r] else 0.0 for r in range(14)]
    out = {}
    for code, (s, n) in cells.items():
        prior = sum(effect[r] for r in ranks[code])
        out[code] = round((s - n * mean + PRIOR_WEIGHT * prior) / (n + PRIOR_WEIGHT), 4)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = Parser(prog="python -m crib3.players.discardtable",
                    description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=at_least_one, default=200000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, metavar="FILE",
                        help="where to write the table (never the packaged one)")
    args = parser.parse_args(argv)
    refuse_packaged(parser, args.out, PACKAGED)  # before the work, not after it
    try:
        data = estimate(args.deals, args.seed)
    except TooFewSamples as exc:
        parser.exit(2, f"{parser.prog}: {exc}\n")
    write_table(parser, args.out, data)
    for place, cells in enumerate(data["play"]):
        values = sorted(cells.values())
        print(f"place {place}: {len(values)} kept hands, play from {values[0]:+.2f} "
              f"to {values[-1]:+.2f}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
