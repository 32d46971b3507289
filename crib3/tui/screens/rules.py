"""How to play: the three-handed game in plain words, for someone who knows
the two-handed one. Reached from the help (r), the new-game
screen (Ctrl+G, F1) and the palette.

The page says what crib3 does, rule for rule: it follows the project's
settled rules (rules.md, R1 to R8; a test holds the page to them), not any
one rule book's.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from crib3.tui.ascii import app_is_ascii, in_words
from crib3.tui.screens.dialogs import HelpScreen

# Content markup: [b] for the headings only (no name or file is shown here).
RULES_TEXT = """\
[b]If you know the two-handed game[/b]
Everything is scored as you know it: fifteens, pairs, runs, flushes, nobs, \
his heels, the go and 31, first to 121. What three players change:
  · five cards each, not six, and you throw one to the crib, not two;
  · one card from the deck completes the crib (four cards, the dealer's);
  · after a go, the count goes on among those who can still play;
  · the hands are counted in turn, left of the dealer first, and the first \
to 121 wins at once, even before the other hands are counted.
The seat on your left plays after you; play, the deal and the crib all pass \
to the left (clockwise).

[b]Who deals first[/b]
Each player cuts a card; the lowest deals (ace is low, suits do not count). \
If the lowest is a tie, only those players cut again. After each hand the \
deal passes to the left.

[b]The deal and the crib[/b]
Five cards each, one at a time, starting left of the dealer, then one card \
face down to the crib. Everyone throws one card to the crib at the same time \
(nobody sees the others' throws), which makes four cards: the crib belongs to \
the dealer.

[b]The starter[/b]
When all three have thrown, the player left of the dealer cuts and the \
starter is turned up. A jack is 2 for the dealer at once (his heels), and \
that can win the game.

[b]The play[/b]
The player left of the dealer leads, and turns pass to the left. Each card \
adds to the count, which may not pass 31. You must play a card if one fits; \
if none does, you say "go". A player who has no cards left is skipped.
After a go the count is not over: the others play on to the left while they \
can, and the last player to have played keeps playing alone while they can. \
The count ends only when nobody can play. (Some books end it when play comes \
back round to the last player; crib3 does not.)
When a count ends below 31, whoever played its last card scores 1 for the go. \
Exactly 31 scores 2, and nothing more for the go. Then the count starts \
again at 0, led by the first player to the left of the one who played last \
who still has cards. The very last card of the play scores 1 (nothing more \
if it made 31).
Points for the card you play, from the cards since the count started:
  · 15 or 31: 2
  · a pair with the card before: 2; three of a kind 6; four 12
  · a run: the last three or more cards, in any order (7 9 8 is a run of 3; \
a 6 then makes 4). Ace is low: Q K A is no run.
Nothing carries over from one count to the next.

[b]The show[/b]
Hands are counted in this order: the player left of the dealer, the next \
player, the dealer, then the dealer's crib. Each counts four cards with the \
starter:
  · each different combination making 15: 2
  · each pair: 2 (three of a kind 6, four 12)
  · runs: every different run of the longest length scores its length (a \
double run of 3 with its pair is 8, a triple run 15, a double double run 16)
  · a flush: four cards of one suit in a hand 4, five with the starter 5; \
the crib scores only a five-card flush
  · nobs: the jack of the starter's suit in the hand or crib, 1 (a starter \
jack is never nobs: it was his heels)

[b]Winning[/b]
The first player to reach 121 wins that instant: in the play, on his heels \
or in the show. Nothing is scored after that, and the hands not yet counted \
are not counted: that is why the order of the show matters, and why the \
player left of the dealer, who counts first, can win before the dealer \
counts. Points are taken as earned, so a winner may end above 121.

[b]The optional rules[/b] (the new-game screen; all off unless chosen)
  · Skunks: when the game ends, a loser below 91 is skunked (the loss counts \
double), below 61 double-skunked (triple).
  · Muggins: you count your own hand and crib in the show by typing the \
number. Claiming less gives the difference away: the opponent on your left may \
call muggins and take those points (a computer player always calls). Claiming \
more than it holds is refused and you count again, at a cost set by the rule \
you choose: friendly, it costs nothing; strict, the excess goes \
to the opponent on your left (as tournament play treats overpegging). Every \
claim is kept in the saved game. Computer players count right, and the play \
is scored for you unless you claim your pegging too.
  · Pegging claims (muggins friendly+ or strict+): you also say what each \
card you play scores as you play it. Points you miss go as in the show, to \
the opponent on your left if they call muggins, and a claim too high is \
refused at the same cost. The go and the last card are pegged for you.
  · The short game: to 61 instead of 121. With skunks on, a loser below 31 \
is skunked; there is no double skunk."""


BULLET = "  · "


def rules_page(text: str = RULES_TEXT) -> RenderableType:
    """The page as Rich draws it: headings bold, and each item of a list
    indented under its bullet when it wraps."""
    parts: list[RenderableType] = []
    items: Table | None = None
    for line in text.splitlines():
        if line.startswith(BULLET):
            if items is None:
                items = Table.grid()
                items.add_column(width=len(BULLET), no_wrap=True)
                items.add_column(ratio=1)
                parts.append(items)
            items.add_row(BULLET, Text.from_markup(line[len(BULLET):]))
            continue
        items = None
        parts.append(Text.from_markup(line))
    return Group(*parts)


class RulesScreen(HelpScreen):
    """The rules in full, in a page over the screen: ↑/↓ and PgUp/PgDn
    scroll it, Esc (or q, ?, Enter) closes it. A `HelpScreen`, so it
    works as the help does while the terminal is too small."""

    BINDINGS = [
        Binding("escape,question_mark,q,enter", "dismiss", "Close", priority=True),
        Binding("r", "nothing", show=False, priority=True),  # the help's r: here already
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules") as page:
            page.border_title = "How to play: three-handed cribbage"
            page.border_subtitle = in_words("↑/↓ PgUp/PgDn: scroll · Esc: close",
                                            app_is_ascii(self))
            yield Static(rules_page(in_words(RULES_TEXT, app_is_ascii(self))))

    def on_mount(self) -> None:
        self.query_one("#rules").focus()

    def action_nothing(self) -> None:
        pass
