"""The play's Monte-Carlo look-ahead: for each card a seat may play, deal
the unseen cards to the other hands many times, consistently with what
they did and as likely as their earlier plays and their keep make each
hand (read by what the table says each seat is: see `crib3.players.reading`
and `crib3.players.posterior`), play each deal out
(`crib3.players.playout`), and average the points and the margins. It
stops early once the best option is clearly ahead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from crib3.cards import Card
from crib3.engine import SeatView
from crib3.engine.state import turn_order
from crib3.players.analysis import (
    OPPONENT_CRIB_WEIGHT,
    draw_hands,
    greedy_code,
    min_values,
    pack_ranks,
    sample_hands,
)
from crib3.players.keeps import keep_weight, kept_with
from crib3.players.playout import MEAN_WEIGHTS, Show, play_out, play_out_searching
from crib3.players.posterior import Posterior
from crib3.players.reading import EXPERT_HABIT, Model, Reader, choices_by_seat
from crib3.players.rivals import rival_weights
from crib3.players.rollout import wary_code
from crib3.players.style import Style

# Within this many points of the target, the look-ahead also counts the show,
# in its order, to see who would win before whom.
ENDGAME = 60


def _view_rng(view: SeatView) -> random.Random:
    """A random source fixed by the position, so the coach and the expert
    give the same answer for the same view, every time."""
    key = (view.seat, view.hand_number, view.scores, tuple(c.index for c in view.hand),
           tuple(c.index for c in view.pile), view.count)
    return random.Random(hash(key))


def _read_shares(kind: str, style: Style) -> Model:
    """How the look-ahead reads a seat of this kind: how often it makes the
    standard player's choice, and the wary one (see `Style.read_standard`)."""
    if kind == "standard" and style.read_standard > 0.0:
        return (style.read_standard, 0.0)
    if kind == "expert" and style.read_expert:
        if style.expert_habit:
            return EXPERT_HABIT
        return (style.read_expert_greedy, style.read_expert_wary)
    if kind == "easy" and style.read_easy:
        return (0.0, 0.0)
    return (style.read_greedy, style.read_wary)


def _keep_belief(kind: str, style: Style) -> float:
    """How far the look-ahead believes a seat of this kind kept its best four
    (see `Style.read_keeps`, `Style.read_standard_keeps`)."""
    if kind == "standard" and style.read_standard_keeps > 0.0:
        return style.read_standard_keeps
    if kind == "expert" and style.read_expert:
        return style.read_expert_keeps
    if kind == "easy" and style.read_easy:
        return 0.0
    return style.read_keeps


def _crib_belief(kind: str, dealer: bool, style: Style) -> float:
    """How the look-ahead believes a seat of this kind weighed the crib when
    it chose its four (see `keeps.crib_keep_chance`): the expert adds the
    crib table's value of its throw to its own crib, and takes
    OPPONENT_CRIB_WEIGHT of it off when the crib is another's."""
    if kind == "expert" and style.read_expert and style.expert_crib:
        return 1.0 if dealer else -OPPONENT_CRIB_WEIGHT
    return 0.0


MIN_SAMPLES = 24  # samples before an early stop is considered
READ_TRIES = 6  # deals drawn, at most, for each one the look-ahead plays out
KEEP_TRIES = 32  # deals drawn, at most, for one a standard seat would have kept (deal_keeps)
READ_SPARE = 2  # deals thrown away, at most, for each one it may play out
SAMPLE_BATCH = 8


def look_ahead(view: SeatView, me: int, cards: list[Card], pile: list[Card],
               samples: int, style: Style) -> dict[Card, tuple[float, float, float, float]]:
    """For each card: (expected points, expected margin, chance to win
    first, chance an opponent wins first) over playouts of
    the rest of the play, the unseen cards dealt to the other hands
    consistently with what they did, up to `samples` deals. With
    `style.read_plays`, the deals are drawn as likely as the other seats'
    earlier plays this hand make them (see `crib3.players.reading`)."""
    target = view.rules.target
    rng = _view_rng(view)
    others = {s: view.held[s] for s in range(3) if s != me and view.held[s]}
    floors = min_values(view.hand_gos)
    pool = sorted(view.unseen())
    show = None
    if max(view.scores) + ENDGAME >= target and view.starter is not None \
            and view.dealer is not None:
        d = view.dealer
        show = Show(turn_order(d), view.starter, view.played,
                    (view.my_discard,) if view.my_discard is not None else ())
    points = {c: 0.0 for c in cards}
    wins: dict[Card, float] = {c: 0 for c in cards}
    losses: dict[Card, float] = {c: 0 for c in cards}
    margins: dict[Card, list[float]] = {c: [] for c in cards}
    shares = {s: _read_shares(view.players[s].kind, style) for s in others}
    reader = Reader(view.hand_plays, list(others), spare=READ_SPARE * samples, shares=shares) \
        if style.read_plays and not style.posterior else None
    read_whole = style.posterior and style.read_plays

    # Without read_plays, blind deals drawn as they always were: the old
    # expert's choices on a seed stay its own.
    deal = draw_hands if style.read_plays else sample_hands

    def draw() -> dict[int, list[Card]] | None:
        return deal(pool, others, floors, rng) or deal(pool, others, {}, rng)

    played = {s: [c.rank for c in view.played[s]] for s in others}
    # Style.deal_keeps: a standard bot's seat is dealt only the cards it
    # would have kept, with the card it would have thrown (rejection).
    standard = [s for s in others if view.players[s].kind == "standard"] \
        if style.deal_keeps else []
    if standard:
        plain_draw = draw

        def draw() -> dict[int, list[Card]] | None:
            found = None
            for _ in range(KEEP_TRIES):
                found = plain_draw()
                if found is None:
                    return None
                taken = {c for hand in found.values() for c in hand}
                rest = [c for c in pool if c not in taken]
                if len(rest) < len(standard):
                    return found
                throws = rng.sample(rest, len(standard))
                chance = 1.0
                for s, thrown in zip(standard, throws):
                    chance *= kept_with([*played[s], *(c.rank for c in found[s])], thrown.rank)
                if chance > 0.0 and rng.random() <= chance:
                    return found
            return found
    # The playouts play every seat the standard way (the wary way, for every
    # seat or for the seat itself, did no better: assets/measurements/players.md,
    # 'The look-ahead in the play'), except that with Style.wary_experts a
    # seat the table names as the expert plays warily.
    by_seat = {s: wary_code for s in others if view.players[s].kind == "expert"} \
        if style.wary_experts else None
    weights = rival_weights(me, view.scores, target) if style.rivals else MEAN_WEIGHTS
    table = tuple(c.rank for c in pile)
    runs = 0
    # How far each other seat is believed to have kept its best four.
    keeps = {s: _keep_belief(view.players[s].kind, style) for s in others}
    crib_weights = {s: _crib_belief(view.players[s].kind, s == view.dealer, style)
                    for s in others}
    posterior = Posterior(pool, others, floors, played,
                          choices_by_seat(view.hand_plays, list(others)), shares, keeps,
                          crib_weights) \
        if read_whole and others else None
    # Each deal's importance weight, when the keeps are read (else None:
    # every deal counts 1; the posterior's deals hold the keeps already).
    dealt_weights: list[float] | None = [] \
        if posterior is None and any(k > 0.0 for k in keeps.values()) else None
    for _ in range(samples if others else 1):
        dealt: dict[int, list[Card]] = {}
        if others:
            if posterior is not None:
                found = posterior.deal(rng)
            else:
                found = reader.deal(draw, rng, READ_TRIES) if reader else draw()
            if found is None:
                break
            dealt = found
        crib_rest: list[Card] = []
        if show is not None:
            taken = {c for hand in dealt.values() for c in hand}
            crib_rest = rng.sample([c for c in pool if c not in taken], 4 - len(show.crib_known))
        runs += 1
        weight = 1.0
        if dealt_weights is not None:
            for s, hand in dealt.items():
                weight *= keep_weight([*played[s], *(c.rank for c in hand)], keeps[s])
            dealt_weights.append(weight)
        held = [tuple(view.hand) if s == me else tuple(dealt.get(s, ())) for s in range(3)]
        # sorted: fewer positions
        ranks = [pack_ranks(sorted(c.rank for c in hand)) for hand in held]
        for card in cards:
            if style.search_self:
                got, margin, outcome = play_out_searching(
                    card, me, ranks, held, table, view.count, view.scores, target, show,
                    crib_rest, greedy_code, weights, style.win_bonus)
            else:
                got, margin, outcome = play_out(card, me, ranks, held, table, view.count,
                                                view.scores, target, show, crib_rest,
                                                greedy_code, weights, style.win_bonus, by_seat)
            points[card] += weight * got if dealt_weights is not None else got
            margins[card].append(margin)
            if outcome:
                if outcome > 0:
                    wins[card] += weight
                else:
                    losses[card] += weight
        if runs >= MIN_SAMPLES and runs % SAMPLE_BATCH == 0 \
                and _clearly_best(margins, dealt_weights):
            break
    if dealt_weights is not None and runs:
        total = sum(dealt_weights)
        return {c: (points[c] / total,
                    sum(w * m for w, m in zip(dealt_weights, margins[c])) / total,
                    wins[c] / total, losses[c] / total) for c in cards}
    runs = max(runs, 1)
    return {c: (points[c] / runs, sum(margins[c]) / runs, wins[c] / runs, losses[c] / runs)
            for c in cards}


# An early stop: no other option may be better than the leader by more than
# INDIFFERENT points of margin, with Z standard errors of confidence.
Z, INDIFFERENT = 2.5, 0.1


def _clearly_best(margins: dict[Card, list[float]],
                  weights: Sequence[float] | None = None) -> bool:
    """Whether more samples could hardly change the choice: against every
    other option, the leader's mean margin (paired: the options were played
    out on the same deals) is ahead, or at worst behind by less than
    INDIFFERENT, with Z standard errors to spare. So it stops both when one
    card is clearly best and when the best few are as good as each other.
    With `weights` (each deal's importance weight), the means are weighed
    and the errors taken over the deals' effective number."""
    if weights is not None:
        return _clearly_best_weighed(margins, weights)
    means = {c: sum(m) / len(m) for c, m in margins.items()}
    best = max(means, key=means.__getitem__)
    n = len(margins[best])
    for card, values in margins.items():
        if card is best:
            continue
        diffs = [a - b for a, b in zip(margins[best], values)]
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean - Z * (variance / n) ** 0.5 <= -INDIFFERENT:
            return False
    return True


def _clearly_best_weighed(margins: dict[Card, list[float]], weights: Sequence[float]) -> bool:
    """`_clearly_best` with each deal counting by its weight."""
    total = sum(weights)
    if total <= 0.0:
        return False
    effective = total * total / sum(w * w for w in weights)
    if effective < 2:
        return False
    means = {c: sum(w * m for w, m in zip(weights, ms)) / total for c, ms in margins.items()}
    best = max(means, key=means.__getitem__)
    for card, values in margins.items():
        if card is best:
            continue
        diffs = [a - b for a, b in zip(margins[best], values)]
        mean = means[best] - means[card]
        variance = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs)) / total
        if mean - Z * (variance / (effective - 1)) ** 0.5 <= -INDIFFERENT:
            return False
    return True
