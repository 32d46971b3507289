"""What the replay's coach says of a decision: the option taken,
its cost, and the coach's ranking, in as many lines as there is room for.

Pure functions of a `crib3.study.review.Decision`, kept beside the replay screen
that shows them. They return `rich.text.Text` built piece by piece, never
markup: a name may look like markup. Everything here comes from the
decision's own seat view, so in one seat's view the panel shows nothing
that seat could not see.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from rich.console import Console
from rich.text import Text
from textual.widget import Widget

from crib3.cards import parse_card
from crib3.common.names import shown_name
from crib3.study.review import Choice, Decision, cost_phrase
from crib3.tui.widgets.table_view import TableView

THRESHOLDS = (0.5, 1.0, 2.0, 4.0)  # points given up from which a decision is "costly"


def option_label(option: str, ascii: bool = False) -> str:
    """A card option in the table's alphabet ("5♥", or "5H" in ASCII);
    a count or a muggins call as it is."""
    try:
        return parse_card(option).label(ascii)
    except ValueError:
        return option


def taken_words(decision: Decision, ascii: bool = False) -> str:
    """"played 5♥", "threw K♠", "counted 12", "claimed 14, refused", "let the
    muggins pass"."""
    taken = option_label(decision.taken, ascii)
    if decision.kind == "muggins":
        return "called muggins" if decision.taken == "call" else "let the muggins pass"
    if decision.kind == "claim":
        return f"claimed {taken}, refused"
    verb = {"discard": "threw", "play": "played", "count": "counted"}[decision.kind]
    return f"{verb} {taken}"


def cost_words(cost: float | Decision) -> str:
    """The cost as the feed shows it after the event: "gave up 1.23" (a
    decision's in points and, near the end, the chance to win apart)."""
    if isinstance(cost, Decision):
        return "as the coach would" if cost.matched else f"gave up {cost_phrase(cost)}"
    return "as the coach would" if cost <= 1e-9 else f"gave up {cost:.2f}"


def _value(choice: Choice, kind: str) -> str:
    """A choice's value: its points, and near the end how much likelier you
    are than an opponent to win ("+58% win"), or an opponent than you ("52%
    lose": never a negative chance). The coach's one measure counts a whole
    win as `WIN_BONUS` points: "+56.49" meant 1.21 points behind and 58%
    more likely to win."""
    if kind in ("count", "claim"):
        return ""
    if abs(choice.win) < 0.005:
        return f"{choice.value:+.2f}"
    if choice.win < 0:
        return f"{choice.points:+.2f} {-choice.win:.0%} lose"
    return f"{choice.points:+.2f} {choice.win:+.0%} win"


def coach_panel(decision: Decision, name: str, threshold: float, ascii: bool = False,
                rows: int = 2, width: int | None = None, lines: int | None = None) -> Text:
    """The coach beside a decision: what `name` did and what it cost, then
    the ranking, best first, in `rows` lines at most (at least two).

    With `width` the text comes wrapped to it, so nothing is cut at the
    edge (the screen draws it without wrapping): what was done and why,
    whole, over as many lines as it takes; each option's reason under its
    numbers. `lines`: the rows there are for it all (an 80x24 screen has
    three); the ranking gets what the words leave, and the options that do
    not fit are counted ("+2 more"), never cut."""
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
    if width is None:
        if rows <= 2:
            out.append("\n")
            out.append(ranking_line(ranking, decision, ascii))
            return out
        for n, choice in enumerate(ranking[:rows - 1], 1):
            out.append("\n")
            out.append(_option_line(n, choice, decision, ascii))
        return out
    said = wrapped(out, width)
    room = max(1, (lines if lines is not None else rows) - len(said))
    if rows <= 2:
        said += ranking_lines(ranking, decision, ascii, width, room)
    else:
        for n, choice in enumerate(ranking[:rows - 1], 1):
            option = wrapped(_option_line(n, choice, decision, ascii), width, indent=4)
            if len(option) > room:
                break
            said += option
            room -= len(option)
    return Text("\n").join(said)


def _option_line(n: int, choice: Choice, decision: Decision, ascii: bool) -> Text:
    """One option of the ranking with its numbers and why, the option taken marked."""
    mark = "▶" if choice.option == decision.taken and not ascii else \
        (">" if choice.option == decision.taken else " ")
    line = Text(f" {mark}{n}. {option_label(choice.option, ascii):<5} "
                f"{_value(choice, decision.kind):>7}  ")
    line.append(choice.reason, style="dim")
    return line


def wrapped(text: Text, width: int, indent: int = 0) -> list[Text]:
    """`text` in lines of `width` cells at most, broken between words (the
    lines after the first `indent` cells in)."""
    lead = len(text.plain) - len(text.plain.lstrip(" "))  # kept: wrapping drops it
    if lead:
        return [Text(" " * lead) + line
                for line in wrapped(text[lead:], max(1, width - lead), max(0, indent - lead))]
    console = Console(width=max(1, width), file=io.StringIO(), color_system=None)
    lines = list(text.wrap(console, width))
    if not indent or len(lines) <= 1:
        return lines
    rest = Text(" ").join(lines[1:])
    return [lines[0], *(Text(" " * indent) + line
                        for line in rest.wrap(console, max(1, width - indent)))]


def ranking_lines(ranking: Sequence[Choice], decision: Decision, ascii: bool, width: int,
                  room: int) -> list[Text]:
    """The ranking in `room` lines of `width`, an option never split: the
    options that do not fit are counted at the end ("+2 more")."""
    items = []
    for n, choice in enumerate(ranking, 1):
        style = "bold" if choice.option == decision.taken else ""
        items.append(Text(f"{n}. {option_label(choice.option, ascii)} "
                          f"{_value(choice, decision.kind)}".rstrip(), style=style))

    def cells(group: list[Text]) -> int:
        return 1 + sum(item.cell_len for item in group) + 3 * max(0, len(group) - 1)

    groups: list[list[Text]] = [[]]
    for item in items:
        if groups[-1] and cells([*groups[-1], item]) > width:
            groups.append([])
        groups[-1].append(item)
    more = 0
    if len(groups) > room:
        groups = groups[:max(1, room)]
        more = len(items) - sum(len(g) for g in groups)
        last = groups[-1]
        while last and cells(last) + len(f" · +{more} more") > width:
            last.pop()
            more += 1
    out = []
    for n, group in enumerate(groups):
        line = Text(" ")
        line.append_text(Text(" · ").join(group))
        if more and n == len(groups) - 1:
            line.append(f"{' · ' if group else ''}+{more} more", style="dim")
        out.append(line)
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


# The rows under the table at most for the coach's panel (see crib3.tcss).
COACH_MOST = 7


def coach_rows(screen: Widget, below: int = 1) -> tuple[int, int]:
    """How the coach speaks on `screen` (replay, practice): the ranking on
    one line (2) or an option a line (6), and the rows it has, those the
    table and the `below` lines under the coach (the status line) leave on a
    short screen (three at 80x24), at most COACH_MOST."""
    height = screen.app.size.height
    if height >= 30:
        return 6, COACH_MOST
    table = screen.query_one(TableView).outer_size.height or SHORT_TABLE
    return 2, max(2, min(COACH_MOST, height - 1 - table - below))  # 1: the footer


SHORT_TABLE = 19  # the table's rows on a short screen: the opponents 6, a line, the board, the hand


def review_status(costly: int, threshold: float, seats: str, busy: bool) -> str:
    """The status line's part for the review."""
    if busy:
        return f"coach: reviewing {seats}…"
    return f"{costly} costly at {threshold:g}+ ({seats}) · n p t"
