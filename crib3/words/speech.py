"""Scores in words, the way a cribbage player says them at the table.

"fifteen two, fifteen four, and a pair is six, and nobs is seven" for a hand;
"fifteen and a pair for four" for a card in the play. Used by the command
line, the screens and the game transcript; the engine never needs words.
"""

from __future__ import annotations

from collections.abc import Sequence

from crib3.cards import Card
from crib3.scoring import FIFTEEN, FLUSH, NOBS, PAIR, RUN, THIRTY_ONE, Score, ScoreItem

_ONES = (
    "zero one two three four five six seven eight nine ten eleven twelve "
    "thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
).split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


def number_word(n: int) -> str:
    """0..199 in words ("twenty-nine", "one hundred twenty-one"); digits beyond."""
    if n < 0 or n >= 200:
        return str(n)
    if n >= 100:
        rest = n - 100
        return "one hundred" + (f" {number_word(rest)}" if rest else "")
    if n < 20:
        return _ONES[n]
    tens, ones = divmod(n, 10)
    return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")


_SET_NAMES = {2: "a pair", 3: "a pair royal", 4: "a double pair royal"}


def say_hand(score: Score) -> list[str]:
    """Phrases for a hand's count, each ending on the running total:
    ["fifteen two", "fifteen four", "and a pair is six", "and nobs is seven"]."""
    return [phrase for phrase, _ in hand_phrases(score)]


def hand_phrases(score: Score) -> list[tuple[str, frozenset[Card]]]:
    """Each phrase of a hand's count with the cards it is about, so a screen
    can light them as the count is said."""
    phrases: list[tuple[str, frozenset[Card]]] = []
    total = 0
    for label, points, cards in _hand_groups(score.items):
        total += points
        if label == FIFTEEN:
            phrases.append((f"fifteen {number_word(total)}", cards))
        else:
            joiner = "and " if phrases else ""
            phrases.append((f"{joiner}{label} is {number_word(total)}", cards))
    return phrases


def _hand_groups(items: Sequence[ScoreItem]) -> list[tuple[str, int, frozenset[Card]]]:
    """Group a hand's items into the units a player names: each fifteen alone,
    pairs by rank (a pair royal is one phrase), multiple runs with their pairs
    as one ("a double run of three is eight"), then flush and nobs."""
    groups: list[tuple[str, int, frozenset[Card]]] = []
    pairs: dict[int, list[ScoreItem]] = {}
    runs: list[ScoreItem] = []
    for item in items:
        if item.kind == FIFTEEN:
            groups.append((FIFTEEN, 2, frozenset(item.cards)))
        elif item.kind == PAIR:
            pairs.setdefault(item.cards[0].rank, []).append(item)
        elif item.kind == RUN:
            runs.append(item)
    run_ranks = {c.rank for c in runs[0].cards} if runs else set()
    run_points = sum(r.points for r in runs)
    run_cards = {c for r in runs for c in r.cards}
    if len(runs) > 1:
        # The pairs inside a multiple run are said with it.
        for rank in [r for r in pairs if r in run_ranks]:
            run_points += 2 * len(pairs.pop(rank))
    for same in pairs.values():
        size = {1: 2, 3: 3, 6: 4}[len(same)]
        groups.append((_SET_NAMES[size], 2 * len(same),
                       frozenset(c for item in same for c in item.cards)))
    if runs:
        length = number_word(runs[0].points)
        name = {1: f"a run of {length}", 2: f"a double run of {length}",
                3: "a triple run", 4: "a double-double run"}.get(
                    len(runs), f"{len(runs)} runs of {length}")
        groups.append((name, run_points, frozenset(run_cards)))
    for item in items:
        if item.kind == FLUSH:
            groups.append((f"a {number_word(item.points)}-card flush", item.points,
                           frozenset(item.cards)))
        elif item.kind == NOBS:
            groups.append(("nobs", 1, frozenset(item.cards)))
    return groups


def say_hand_line(score: Score) -> str:
    """The whole count as one line; "nineteen" (no score) for an empty hand."""
    if not score.items:
        return "nineteen (nothing)"
    return ", ".join(say_hand(score))


def say_play(score: Score) -> str:
    """What a player says for points in the play: "fifteen for two",
    "thirty-one and a pair for four", "a run of four for four"."""
    parts: list[str] = []
    for item in score.items:
        if item.kind == FIFTEEN:
            parts.append("fifteen")
        elif item.kind == THIRTY_ONE:
            parts.append("thirty-one")
        elif item.kind == PAIR:
            parts.append(_SET_NAMES[len(item.cards)])
        elif item.kind == RUN:
            parts.append(f"a run of {number_word(item.points)}")
    if not parts:
        return ""
    return " and ".join(parts) + f" for {number_word(score.total)}"
