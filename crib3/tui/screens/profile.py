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
    ended along the bottom, the first's, the middle one's and the last's
    days written under them (games days apart and games an hour apart
    are both read easily so)."""
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
    ticks = sorted({1.0, float((len(history) + 1) // 2), float(len(history))})
    plt.xticks(ticks, [history[int(n) - 1].at[:10] for n in ticks])
