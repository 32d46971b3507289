"""What the replay's coach says of a decision: the option taken,
its cost, and the coach's ranking, in as many lines as there is room for.

Pure functions of a `crib3.study.review.Decision`, kept beside the replay screen
that shows them. They return `rich.text.Text` built piece by piece, never
markup: a name may look like markup. Everything here comes from the
decision's own seat view, so in one seat's view the panel shows nothing
that seat could not see.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from crib3.cards import parse_card
from crib3.common.names import shown_name
from crib3.study.review import Choice, Decision, cost_phrase

THRESHOLDS = (0.5, 1.0, 2.0, 4.0)  # points given up from which a decision is "costly"


def option_label(option: str, ascii: bool = False) -> str:
    """A card option in the table's alphabet ("5♥", or "5H" in ASCII);
    a count or a muggins call as it is."""
    try:
        return parse_card(option).label(ascii)
    except ValueError:
        return option


def taken_words(decision: Decision, ascii: bool = False) -> str:
    """"played 5♥", "threw K♠", "counted 12", "let the muggins pass"."""
    taken = option_label(decision.taken, ascii)
    if decision.kind == "muggins":
        return "called muggins" if decision.taken == "call" else "let the muggins pass"
    verb = {"discard": "threw", "play": "played", "count": "counted"}[decision.kind]
    return f"{verb} {taken}"


def cost_words(cost: float | Decision) -> str:
    """The cost as the feed shows it after the event: "gave up 1.23" (a
    decision's in points and, near the end, the chance to win apart)."""
    if isinstance(cost, Decision):
        return "as the coach would" if cost.matched else f"gave up {cost_phrase(cost)}"
    return "as the coach would" if cost <= 1e-9 else f"gave up {cost:.2f}"


def _value(choice: Choice, kind: str) -> str:
    """A choice's value: its points, and near the end its chance to win (the
    coach's one measure counts a whole win as `WIN_BONUS` points: "+56.49"
    meant 1.21 points behind and 58% more likely to win)."""
    if kind == "count":
        return ""
    if abs(choice.win) < 0.005:
        return f"{choice.value:+.2f}"
    return f"{choice.points:+.2f} {choice.win:+.0%} win"


def coach_panel(decision: Decision, name: str, threshold: float, ascii: bool = False,
                rows: int = 2) -> Text:
    """The coach beside a decision: what `name` did and what it cost, then
    the ranking, best first, in `rows` lines at most (at least two)."""
    out = Text()
    out.append("coach ", style="bold")
    out.append(shown_name(name, 16))
    out.append(f" {taken_words(decision, ascii)}: ")
    if decision.matched:
        out.append("as the coach would", style="green")
    else:
        style = "bold red" if decision.cost >= threshold else "yellow"
        out.append(f"gives up {cost_phrase(decision)}", style=style)
        out.append(f"; best {option_label(decision.best.option, ascii)}")
    out.append(f" ({decision.best.reason})", style="dim")
    ranking = list(decision.ranking)
    if rows <= 2:
        out.append("\n")
        out.append(ranking_line(ranking, decision, ascii))
        return out
    for n, choice in enumerate(ranking[:rows - 1], 1):
        out.append("\n")
        mark = "▶" if choice.option == decision.taken and not ascii else \
            (">" if choice.option == decision.taken else " ")
        out.append(f" {mark}{n}. {option_label(choice.option, ascii):<5} "
                   f"{_value(choice, decision.kind):>7}  ")
        out.append(choice.reason, style="dim")
    return out


def ranking_line(ranking: Sequence[Choice], decision: Decision, ascii: bool = False) -> Text:
    """The ranking on one line: "1. 4♣ +1.20 · 2. 5♥ +0.40 ...", the option
    taken in bold."""
    out = Text(" ")
    for n, choice in enumerate(ranking, 1):
        if n > 1:
            out.append(" · ")
        style = "bold" if choice.option == decision.taken else ""
        out.append(f"{n}. {option_label(choice.option, ascii)} {_value(choice, decision.kind)}"
                   .rstrip(), style=style)
    return out


def review_status(costly: int, threshold: float, seats: str, busy: bool) -> str:
    """The status line's part for the review."""
    if busy:
        return f"coach: reviewing {seats}…"
    return f"{costly} costly at {threshold:g}+ ({seats}) · n p t"
