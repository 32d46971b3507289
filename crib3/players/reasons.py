"""The coach's reasons in words: why play a card (what it scores now, then
what it leaves the next player) and why throw one (what the four kept are
sure of, then what the card does in the crib), each option's line built
the same way so the options read alike.
"""

from __future__ import annotations

from collections.abc import Sequence

from crib3.cards import Card
from crib3.common.names import shown_name
from crib3.engine import SeatView
from crib3.players.analysis import DiscardOption, gift_risk
from crib3.scoring import Score
from crib3.words.speech import say_play


def play_reason(now: Score, new_count: int, view: SeatView, card: Card) -> str:
    """Why play `card`: its main reason (what it scores now, or that it wins),
    then its risk (what it leaves the next player), in that order for every
    option, so the options read alike."""
    total = now.total
    said = say_play(now)
    wins = view.seat is not None and view.scores[view.seat] + total >= view.rules.target
    if wins:
        return f"reaches {view.rules.target}: wins the game; nothing left to risk"
    main = said or "no points now"
    if new_count == 31:
        return f"{main}; the count starts again"
    risk = gift_risk(new_count)
    if risk is None and not view.pile and card.value < 5:
        risk = "a lead under 5: nobody can make 15"
    if risk is None and view.pile and view.pile[-1].rank == card.rank \
            and new_count + card.value <= 31:  # a pair invites a pair royal
        risk = f"a third {_rank_name(card)} would be six for the next player"
    return f"{main}; {risk or 'nothing easy for the next player'}"


def _rank_name(card: Card) -> str:
    return {1: "ace", 11: "jack", 12: "queen", 13: "king"}.get(card.rank, str(card.rank))


def discard_reason(option: DiscardOption, view: SeatView,
                    options: Sequence[DiscardOption]) -> str:
    """Why throw `option.card`: what the four kept are sure of already (the
    main reason), then what the card does in the crib (the risk, or the
    gain in your own crib), next to the other cards you might throw."""
    sure = _sure_points(option.kept)
    if sure:
        said = ", ".join(words for words, _ in sure)
        main = f"keeps {sum(p for _, p in sure)} sure: {said}"
    else:
        main = "keeps nothing sure"
    rank = _rank_name(option.card)
    article = "an" if rank in ("ace", "8") else "a"
    best = max(o.crib for o in options)
    most = option.crib >= best - 0.1  # as good for the crib as any other card
    if view.dealer == view.seat:
        kind = "the most" if most else "less" if option.crib < best - 1 else "nearly the most"
        risk = f"{article} {rank} gives your crib {kind} ({option.crib:+.1f})"
    else:
        whose = f"{shown_name(view.name(view.dealer), 12)}'s" if view.dealer is not None \
            else "the"
        kind = "the safest" if most else "a gift" if option.crib < best - 1 else "fairly safe"
        risk = f"{article} {rank} is {kind} in {whose} crib ({option.crib:+.1f})"
    return f"{main}; {risk}"


def _sure_points(kept: Sequence[Card]) -> list[tuple[str, int]]:
    """What four kept cards score before any starter, in words and points."""
    from itertools import combinations

    out: list[tuple[str, int]] = []
    fifteens = sum(1 for size in (2, 3, 4) for combo in combinations(kept, size)
                   if sum(c.value for c in combo) == 15)
    if fifteens:
        out.append((f"fifteen {2 * fifteens}", 2 * fifteens))
    pairs = sum(1 for a, b in combinations(kept, 2) if a.rank == b.rank)
    if pairs:
        out.append(({1: "a pair", 2: "two pairs", 3: "a pair royal", 6: "four of a kind"}
                    .get(pairs, f"{pairs} pairs"), 2 * pairs))
    for length in (4, 3):
        runs = sum(1 for combo in combinations(kept, length)
                   if len({c.rank for c in combo}) == length
                   and max(c.rank for c in combo) - min(c.rank for c in combo) == length - 1)
        if runs:
            out.append((f"a run of {length}" if runs == 1 else f"{runs} runs of {length}",
                        runs * length))
            break
    if len({c.suit for c in kept}) == 1:
        out.append(("a flush", 4))
    return out
