"""A player's profile in the card room (`ProfileScreen`): their rating
("?" while provisional), rated games, places, average points, best hand,
their latest rated duplicate events, and a chart of their rating over time.

The chart is drawn by plotext in Textual's own widget (`textual-plotext`):
the rating after each rated game, against the day it ended, with both axes
labelled. Names are people's text: never markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static
from textual_plotext import PlotextPlot

from crib3.common.names import shown_name
from crib3.tui.ascii import app_is_ascii
from crib3.tui.bindings import QuietBindings
from crib3.tui.css import STYLESHEET
from crib3.tui.widgets.footer import TidyFooter

if TYPE_CHECKING:
    from crib3.room.records import Profile

CENTRE = 1500  # every rating starts here (`crib3.room.ratings`)


def record_lines(profile: Profile) -> tuple[str, str]:
    """The profile's two lines of figures, as plain text."""
    skill = profile.skill
    games = f"{skill.games} rated game{'s' * (skill.games != 1)}"
    first, second, third = profile.places
    rating = f"Rating {skill.label} (±{skill.deviation})"
    if skill.provisional:
        rating += ", provisional"
    return (f"{rating} · {games}",
            f"1st {first} · 2nd {second} · 3rd {third} · average {profile.average:.1f} points"
            f" · best hand {profile.best}")


EVENTS_SHOWN = 3  # the latest rated events a profile lists (the chart needs the rest)


def event_lines(profile: Profile) -> list[str]:
    """The profile's rated duplicate events, the latest first: the event,
    its day, their place of how many, their score and the rating's move."""
    events = profile.events
    if not events:
        return []
    more = len(events) - EVENTS_SHOWN
    head = f"Events ({len(events)}, the latest {EVENTS_SHOWN}):" if more > 0 else "Events:"
    return [head, *(f"  {event.words}" for event in events[:EVENTS_SHOWN])]


class ProfileScreen(QuietBindings, Screen[None]):
    """One player's record (see the module's docstring)."""

    BINDINGS = [Binding("q,escape", "app.pop_screen", "Back")]
    CSS_PATH = STYLESHEET

    def __init__(self, profile: Profile) -> None:
        super().__init__()
        self.profile = profile

    def compose(self) -> ComposeResult:
        yield Static(shown_name(self.profile.name), id="title", markup=False)
        for line in record_lines(self.profile):
            yield Static(line, classes="figures", markup=False)
        for line in event_lines(self.profile):
            yield Static(line, classes="figures", markup=False)
        yield PlotextPlot(id="chart")
        yield TidyFooter()

    def on_mount(self) -> None:
        chart(self.query_one(PlotextPlot), self.profile, app_is_ascii(self))


def chart(plot: PlotextPlot, profile: Profile, ascii: bool = False) -> None:
    """The rating after each rated game, the games in the order they
    ended along the bottom, the first's, the last's and the middle one's
    days written under them, each day once (games days apart and games
    an hour apart are both read easily so); the ratings up the side in
    whole points at round steps (plotext's own ticks had decimals)."""
    plt = plot.plt
    plt.title("Rating over time")
    plt.xlabel("rated games, by the day they ended (UTC)")
    plt.ylabel("rating")
    history = profile.history
    if not history:
        return
    games = [0, *range(1, len(history) + 1)]  # game 0: the rating everyone starts from
    ratings = [CENTRE, *(point.skill.shown for point in history)]
    # (In ASCII mode the app draws the frame's lines in ASCII, as every
    # screen's; its points are stars.)
    plt.plot(games, ratings, marker="*" if ascii else "braille")
    days = day_ticks([point.at[:10] for point in history])
    plt.xticks([float(n) for n, _ in days], [day for _, day in days])
    steps = rating_ticks(min(ratings), max(ratings))
    plt.yticks([float(r) for r in steps], [str(r) for r in steps])


def day_ticks(days: list[str]) -> list[tuple[int, str]]:
    """Where to write which day under the chart: (game number from 1, its
    day) for the first game, the last and the middle one, a day written
    once (the middle one's left out when it is the first's or the last's
    day), in the games' order."""
    count = len(days)
    chosen: dict[str, int] = {}
    for n in (1, count, (count + 1) // 2):
        chosen.setdefault(days[n - 1], n)
    return sorted((n, day) for day, n in chosen.items())


def rating_ticks(low: int, high: int, most: int = 6) -> list[int]:
    """Round ratings between `low` and `high` (both in), at the smallest
    of a few round steps that gives no more than `most` of them."""
    for step in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        first = -(-low // step) * step
        ticks = list(range(first, high + 1, step))
        if len(ticks) <= most:
            return ticks or [low]
    return [low, high]
