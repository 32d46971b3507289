"""What a seat pegs in one hand's play, by its place at the table, as a
distribution rather than one mean (for the end of the game).

Near the end a discard is weighed by the chance to reach the points still
needed (`crib3.players.endgame`). That chance needs the play's points as a
distribution, and three-handed the places differ a great deal: every seat
keeping the `standard` four and playing the `standard` way, the seat left
of the dealer (who leads) pegs least, the dealer most; and the tails are
far longer than a Poisson's. A Poisson around one mean for every seat (the
model without `Style.seat_play`) makes the leader's pegging out look much
likelier than it is and the dealer's much less likely (measured:
assets/measurements/players.md, 'How each place pegs').

`PLAY_TAIL[place][k]` is the chance of at least k points in the play;
`HAND_TAIL[place][k]` the chance of at least k in the play and the hand
(the standard keep, over the starter) together, for a seat whose cards are
hidden. `play_at_least_at` moves a place's distribution to another mean
(the discard table's margin for the four kept) by stretching its points.

Regenerate (prints the two tables to paste here):

    python -m crib3.players.seatplay --deals 200000 --seed 7
"""

from __future__ import annotations

import math
import random

# The place's mean points in the play: 0 = left of the dealer, 1, 2 = the dealer.
PLACE_PLAY = (1.834, 3.126, 3.547)

# P(play points >= k), k = 0, 1, ...; by place (made as the docstring says).
PLAY_TAIL: tuple[tuple[float, ...], ...] = (
    (1.0, 0.7361, 0.4695, 0.2913, 0.1485, 0.0814, 0.0425, 0.0254, 0.015, 0.0087, 0.0055,
     0.0036, 0.0029, 0.0017, 0.0009, 0.0005, 0.0003, 0.0001, 0.0001),
    (1.0, 0.9173, 0.7553, 0.5733, 0.3733, 0.2291, 0.1257, 0.0701, 0.0372, 0.0208, 0.0109,
     0.0057, 0.0031, 0.0017, 0.001, 0.0006, 0.0003, 0.0002, 0.0001, 0.0001),
    (1.0, 0.9658, 0.7868, 0.635, 0.4221, 0.2849, 0.1721, 0.1152, 0.0674, 0.0425, 0.0238,
     0.0138, 0.0078, 0.0045, 0.0025, 0.0015, 0.0008, 0.0004, 0.0002, 0.0001, 0.0001),
)

# P(play points + hand points >= k), k = 0, 1, ...; by place.
HAND_TAIL: tuple[tuple[float, ...], ...] = (
    (1.0, 0.9937, 0.9869, 0.9517, 0.9108, 0.8395, 0.7643, 0.6688, 0.5702, 0.4614, 0.3561,
     0.2696, 0.2034, 0.1474, 0.1075, 0.077, 0.0561, 0.0382, 0.0243, 0.016, 0.011, 0.0075,
     0.0051, 0.0036, 0.0027, 0.0018, 0.0011, 0.0007, 0.0004, 0.0003, 0.0001, 0.0001, 0.0001),
    (1.0, 0.9982, 0.995, 0.9806, 0.9549, 0.9134, 0.8536, 0.7797, 0.6925, 0.5987, 0.4952,
     0.3977, 0.3064, 0.2325, 0.1712, 0.1256, 0.0904, 0.0646, 0.0439, 0.0295, 0.0197, 0.0133,
     0.0088, 0.0061, 0.0042, 0.0029, 0.0019, 0.0012, 0.0008, 0.0005, 0.0003, 0.0002, 0.0001),
    (1.0, 0.9993, 0.9958, 0.9881, 0.9616, 0.9304, 0.8696, 0.8086, 0.7199, 0.6355, 0.5284,
     0.4363, 0.3397, 0.2686, 0.1995, 0.1523, 0.1099, 0.0812, 0.0555, 0.0394, 0.0261, 0.018,
     0.0117, 0.0081, 0.0054, 0.0037, 0.0023, 0.0016, 0.0009, 0.0006, 0.0003, 0.0002, 0.0001,
     0.0001),
)


# The crib's points, three standard discards, the deck's card and the
# starter: its mean, and P(crib >= k), k = 0, 1, ... (how it was made:
# assets/measurements/players.md, 'How each place pegs').
CRIB_MEAN = 4.422
CRIB_TAIL: tuple[float, ...] = (
    1.0, 0.9041, 0.8976, 0.6356, 0.5946, 0.391, 0.3383, 0.208, 0.1635, 0.0846, 0.0656, 0.0432,
    0.0411, 0.0143, 0.0134, 0.0088, 0.0081, 0.0026, 0.002, 0.0018, 0.0018, 0.0008, 0.0005,
    0.0005, 0.0004)


def _tail_at(tail: tuple[float, ...], x: float) -> float:
    """A tail table read at a real number of points (linear between the
    integer points; 1 at or below 0, 0 past the table)."""
    if x <= 0.0:
        return 1.0
    k = math.floor(x)
    if k + 1 >= len(tail):
        return tail[-1] if k < len(tail) and x == k else 0.0
    frac = x - k
    return tail[k] + frac * (tail[k + 1] - tail[k])


def play_at_least_at(points: float, place: int, mean: float | None = None) -> float:
    """The chance that a seat at `place` pegs at least `points` in the play,
    its mean moved to `mean` (None: the place's own) by stretching the
    place's measured distribution."""
    need = math.ceil(points)
    if need <= 0:
        return 1.0
    base = PLACE_PLAY[place]
    scale = base / max(mean, 0.25) if mean is not None else 1.0
    # The stretched play reaches a whole k where the place's own play
    # reaches (k - 1/2) * scale + 1/2 (k's half-point edge stretched), read
    # between the table's whole points.
    return _tail_at(PLAY_TAIL[place], (need - 0.5) * scale + 0.5)


def hand_at_least(points: float, place: int) -> float:
    """The chance that a seat at `place`, its cards hidden, gets at least
    `points` from the play and its hand together."""
    need = math.ceil(points)
    if need <= 0:
        return 1.0
    tail = HAND_TAIL[place]
    return tail[need] if need < len(tail) else 0.0


def crib_at_least(points: float, mean: float) -> float:
    """The chance that a crib whose expected points are `mean` (the card
    thrown and the cards kept known: `analysis.crib_value`) makes at least
    `points`: the measured crib's distribution shifted to that mean."""
    return _tail_at(CRIB_TAIL, points - (mean - CRIB_MEAN))


def dealer_reach(need: float, crib_mean: float) -> float:
    """The chance that a dealer whose cards are hidden gets `need` points
    from the play, his hand and his crib (its expected points `crib_mean`)."""
    total = 0.0
    above = 1.0  # P(crib >= c) for the c before
    for c in range(len(CRIB_TAIL) + 1):
        next_above = crib_at_least(c + 1, crib_mean)
        total += (above - next_above) * hand_at_least(need - c, 2)
        above = next_above
        if above <= 0.0:
            break
    return total


def measure(deals: int, seed: int) -> tuple[list[list[float]], list[list[float]], list[float]]:
    """The two tail tables and the place means, from `deals` random deals."""
    from crib3.cards import DECK
    from crib3.players.analysis import discard_options, pack_ranks
    from crib3.players.discardtable import play_points
    from crib3.scoring import hand_points

    rng = random.Random(seed)
    deck = list(DECK)
    play_n = [[0] * 40 for _ in range(3)]
    hand_n = [[0] * 80 for _ in range(3)]
    sums = [0, 0, 0]
    for _ in range(deals):
        rng.shuffle(deck)
        hands = [deck[0:5], deck[5:10], deck[10:15]]
        starter = deck[16]
        kept = [discard_options(h, own_crib=False, use_crib=False)[0].kept for h in hands]
        points = play_points([pack_ranks(sorted(c.rank for c in k)) for k in kept], 0)
        for place in range(3):  # seat 0 leads: seat 2 deals
            sums[place] += points[place]
            play_n[place][min(points[place], 39)] += 1
            hand_n[place][min(points[place] + hand_points(kept[place], starter), 79)] += 1

    def tail(counts: list[int]) -> list[float]:
        out, left = [], deals
        for n in counts:
            if left <= 0:
                break
            out.append(round(left / deals, 4))
            left -= n
        while out and out[-1] == 0.0:
            out.pop()
        return out
    return ([tail(c) for c in play_n], [tail(c) for c in hand_n],
            [round(s / deals, 3) for s in sums])


if __name__ == "__main__":
    import sys

    deals = int(sys.argv[sys.argv.index("--deals") + 1]) if "--deals" in sys.argv else 200000
    seed = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else 7
    plays, hands, means = measure(deals, seed)
    print("PLACE_PLAY =", tuple(means))
    print("PLAY_TAIL =", tuple(tuple(t) for t in plays))
    print("HAND_TAIL =", tuple(tuple(t) for t in hands))
