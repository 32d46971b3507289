"""A duplicate event at the table, in Textual's Pilot at 80x24: a board
played by Enter alone, its result against the field, the event's results
and a replay of a play of the same cards."""

from __future__ import annotations

import pytest
from textual.app import App
from tui_support import assert_7bit, screen_text, settled, wait_for

from crib3.duplicate.events import computer_entry, new_event
from crib3.duplicate.play import play_with_bots
from crib3.duplicate.scoring import score_boards, standings
from crib3.engine.log import load_log, write_log
from crib3.tui.event_app import EventApp
from crib3.tui.screens.board_result import BoardResultScreen
from crib3.tui.screens.board_table import BoardTableScreen
from crib3.tui.screens.event_results import EventResultsScreen
from crib3.tui.screens.looking_back import ShowSummaryScreen
from crib3.tui.screens.replay import ReplayScreen


@pytest.fixture
def event(crib3_home):
    return new_event("club-night", 11, 3, "standard")


async def test_a_board_by_enter_alone_then_its_result_against_the_field(event):
    app = EventApp(event, "Ann", think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, BoardTableScreen))
        await settled(pilot)
        game = app.game
        assert game is not None and game.board.number == 1
        text = screen_text(app)                                   # straight to the cards dealt
        assert "Throw one card to your crib" in text and "Cut for deal" not in text
        assert "Board 1 of 3 · Ann deals" in text and "Hand 1 ·" not in text  # the heading
        table, shows = app.screen, []
        for _ in range(300):
            if isinstance(app.screen, BoardResultScreen):
                break
            if isinstance(app.screen, ShowSummaryScreen) and not shows:
                shows.append(screen_text(app))
            await pilot.press("enter")
            await pilot.pause(0.01)
        assert isinstance(app.screen, BoardResultScreen)
        # The words name the board where a game's name the hand.
        assert shows and "Board 1: the show" in shows[0] and "Hand 1" not in shows[0]
        said = "\n".join(table.narration)
        assert "Board 1. Ann shuffles and deals." in said and "End of board 1: " in said
        assert "Hand 1" not in said and "hand 1" not in said and "deal passes" not in said
        text = screen_text(app)
        assert "Board 1 of 3" in text and "Dealer: dealt" in text and "starter" in text
        assert "You made" in text and "% of the matchpoints" in text
        for who in ("Ann", *(computer_entry(level) for level in ("easy", "standard", "expert"))):
            assert who in text                                    # the field, same cards
        await pilot.press("c")                                    # the expert's play of them
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, BoardResultScreen))
        await pilot.press("n")                                    # and on to board 2
        await wait_for(pilot, lambda: isinstance(app.screen, BoardTableScreen)
                       and app.game is not None and app.game.board.number == 2)
    log = load_log(event.person_log(1, "Ann"))
    assert log.header["event"] == "club-night" and log.header["who"] == "Ann"
    assert log.state.hand_number == 1 and log.state.scores == game.state.scores
    # board 2 was dealt, then left: it is never dealt again
    assert event.next_board("Ann").number == 3


def with_a_person(event, person: str = "Ann") -> None:
    """`person`'s plays of every board, made by a bot in their seat."""
    for board in event.boards:
        game = play_with_bots(board, event.seat(board.number), ("easy", "standard", "standard"),
                              (person, "L", "R"), salt="person")
        write_log(event.person_log(board.number, person), game.events,
                  event.header(board.number, person, "test"))


async def test_the_events_results_rank_the_field_and_replay_any_play(event):
    with_a_person(event)
    plays, problems = event.plays()
    assert problems == [] and len(plays) == 12
    results = score_boards(plays)
    table = standings(results)

    class Results(App[None]):
        def on_mount(self) -> None:
            self.push_screen(EventResultsScreen(event, results, table, "Ann"))

    app = Results()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "Event club-night: 3 boards" in text
        lines = text.splitlines()
        for rank, s in enumerate(table, start=1):                 # the ranking, in its order
            line = next(x for x in lines if x.strip().startswith(f"{rank}. "))
            assert s.who in line and f"{s.percent:.1f}%" in line
        assert "Board 1 of 3" in text
        await pilot.press("right")
        text = screen_text(app)
        assert "Board 2 of 3" in text and "Dealer's left: dealt" in text
        first = results[1].plays[1].play
        await pilot.press("down", "enter")                        # the second play of board 2
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        assert app.screen.replay.events == load_log(first.log).events
        await pilot.press("q")
        await wait_for(pilot, lambda: isinstance(app.screen, EventResultsScreen))


async def test_every_board_played_the_event_opens_on_its_results_in_ascii_too(event):
    with_a_person(event)
    app = EventApp(event, "Ann", ascii=True, think=0.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, EventResultsScreen))
        rows = await assert_7bit(pilot, "the event's results")
        text = "\n".join(rows)
        assert "Event club-night" in text and "Ann" in text
        await pilot.press("enter")                                 # a replay, in ASCII too
        await wait_for(pilot, lambda: isinstance(app.screen, ReplayScreen))
        await assert_7bit(pilot, "a board's replay")
    assert app.game is None                                        # no board was dealt


def test_a_big_field_shows_the_plays_round_yours_or_the_selected_one():
    from pathlib import Path

    from rich.console import Console

    from crib3.duplicate.scoring import Play
    from crib3.tui.screens.board_result import FIELD_ROWS, field_table

    plays = [Play(1, f"P{n:02d}", True, (n, 5, 5), Path("x")) for n in range(20)]
    (result,) = score_boards(plays)                                # best first: P19 ... P00

    def drawn(*args) -> str:
        console = Console(width=80, record=True, file=None, force_terminal=False)
        with console.capture() as capture:
            console.print(field_table(result, *args))
        return capture.get()

    mine = drawn("P03")                                            # 17th of 20
    assert "plays 13 to 20 of 20" in mine and "P03" in mine and "P19" not in mine
    assert sum(f"P{n:02d}" in mine for n in range(20)) == FIELD_ROWS
    top = drawn("P03", 0)                                          # the first one selected
    assert "plays 1 to 8 of 20" in top and "P19" in top and "P03" not in top


async def test_the_events_results_screen(event, svg_snapshot):
    """The event's results at 80x24, as the README shows them: the ranking,
    then a board's field with the same cards."""
    from snapshot_support import screen_svg

    with_a_person(event)
    plays, _ = event.plays()
    results = score_boards(plays)
    table = standings(results)

    class Results(App[None]):
        def on_mount(self) -> None:
            self.push_screen(EventResultsScreen(event, results, table, "Ann"))

    assert await screen_svg(Results, (80, 24)) == svg_snapshot
