"""The screens that look back and train, whole at 80x24: the statistics, the
replay's coach and status line, the practice's coach; the pegging trainer
goes on from the card played, and the replay says when no costly decision is
left."""

from __future__ import annotations

import pytest
from tui_support import screen_text

SIZE = (80, 24)


def _within(app, widget) -> bool:
    """The widget is drawn whole on the screen: its region inside it."""
    region, size = widget.region, app.size
    return region.x >= 0 and region.right <= size.width and region.bottom <= size.height


async def test_the_statistics_fit_80_columns_whole(crib3_home):
    """The table's header (78 columns), the note under it and each person's
    line of points given up were cut at the right edge: now the table is
    drawn in 74 and the rest wrapped, every line whole in the panel."""
    import shutil

    from games import random_game
    from logfiles import ASSETS
    from tui_support import screen_text, wait_for

    from crib3.engine.log import write_log
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.stats import StatsScreen

    folder = crib3_home / "data" / "games"
    folder.mkdir(parents=True, exist_ok=True)
    for log in ASSETS.glob("*.jsonl"):                    # people reviewed, and bots
        shutil.copy(log, folder / log.name)
    for seed, kinds in enumerate([("expert", "standard", "expert"), ("standard",) * 3]):
        write_log(folder / f"g{seed}.jsonl", random_game(seed, kinds).events)
    app = Crib3App(think=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: isinstance(app.screen, StatsScreen)
                       and "discard" in screen_text(app), timeout=60)
        await pilot.pause()
        screen = app.screen
        panel = screen.query_one("Vertical")
        assert _within(app, panel), panel.region
        text = screen_text(app)
        assert "…" not in text
        body = screen.query_one("#body")
        assert body.max_scroll_y > 0                       # taller than the panel: it scrolls
        said = "\n".join(str(screen.query_one(f"#{part}").render())
                         for part in ("head", "table", "progress"))
        lines = [line for line in said.splitlines() if line.strip()]
        assert (any("peg/hand" in line for line in lines)
                and any("discard" in line for line in lines))
        seen = ""
        for _ in range(len(lines)):           # scrolled through: each line whole on a row
            seen += screen_text(app)
            body.scroll_down(animate=False)
            await pilot.pause()
        rows = [row.strip(" █▌▐▎▊") for row in seen.splitlines()]
        for line in lines:
            assert line.strip() in rows, (line, rows)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _under_the_table(app) -> str:
    """The rows between the hand's box and the footer, as one line."""
    rows = screen_text(app).splitlines()
    bottom = max(i for i, row in enumerate(rows) if row.startswith(("╰", "┗")))
    return _flat("\n".join(rows[bottom + 1:-1]))


@pytest.mark.slow
async def test_the_replays_coach_and_status_line_are_whole_at_80x24():
    """Every costly decision of the sample: the coach's reason (cut with a
    "…" before) and the status line (cut after "47 costly at 1+ (P0, P1,")
    are whole on the screen."""
    from logfiles import ASSETS
    from test_replay_review import coach_ready

    from crib3.engine.log import load_log
    from crib3.saved.replay import Replay
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.review_words import option_label

    app = Crib3App(replay=Replay(load_log(ASSETS / "easy-121.jsonl").events), autosave=False)
    app.replay_coach = True
    async with app.run_test(size=SIZE) as pilot:
        screen = await coach_ready(pilot)
        costly = screen._costly()
        assert len(costly) > 20
        long_reasons = 0
        for index in costly:
            screen.show(index)
            await pilot.pause()
            decision = screen.decisions[index]
            shown = _under_the_table(app)
            assert "…" not in shown
            assert f"({_flat(decision.best.reason)})" in shown, (decision.best.reason, shown)
            long_reasons += len(decision.best.reason) > 30
            assert f"1. {option_label(decision.best.option)} " in shown   # the ranking's best
            status = _flat(str(screen.query_one("#status").render()))
            assert status.endswith("· n p t") and status in shown, status
            assert screen.screen.virtual_size.height <= SIZE[1]          # nothing scrolled off
        assert long_reasons > 10


async def test_the_practices_coach_is_whole_at_80x24():
    """The trainer's answer: the coach's reason (cut with a "…" before) is
    whole under the table, for every card of the first positions."""
    import itertools

    from tui_support import wait_for

    from crib3.study.practice import dealt_positions
    from crib3.tui.practice_app import PracticeApp
    from crib3.tui.screens.practice import PracticeScreen

    for kind in ("discard", "play"):
        positions = list(itertools.islice(dealt_positions(kind, 3), 3))
        for number in range(1, 4):
            app = PracticeApp(kind, iter(positions))
            async with app.run_test(size=SIZE) as pilot:
                await wait_for(pilot, lambda app=app: isinstance(app.screen, PracticeScreen))
                screen = app.screen
                await pilot.pause()
                await pilot.press(str(number))
                await wait_for(pilot, lambda screen=screen: screen.answer is not None)
                await pilot.pause()
                shown = _under_the_table(app)
                assert "…" not in shown
                assert f"({_flat(screen.answer.best.reason)})" in shown, shown
                assert "points given up" in shown


async def test_the_pegging_trainer_goes_on_from_the_card_you_chose():
    """Practise the play: the next position of the same hand follows the
    card you played, not the one the game it was dealt in would have."""
    import itertools

    from tui_support import wait_for

    from crib3.engine import Play
    from crib3.study.practice import dealt_positions
    from crib3.tui.practice_app import PracticeApp
    from crib3.tui.screens.practice import PracticeScreen

    # The stand-in's own game: which card it played at the first position.
    stand_in = list(itertools.islice(dealt_positions("play", 5), 2))
    first, then = stand_in
    assert first.view.hand_number == then.view.hand_number      # the same hand goes on
    before = len(first.view.hand_plays)

    def next_of_mine(view) -> object:
        """The first card seat 0 played after the first position."""
        return next(card for seat, card, _ in view.hand_plays[before:] if seat == 0)

    its_card = next_of_mine(then.view)
    app = PracticeApp("play", dealt_positions("play", 5))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, PracticeScreen))
        screen = app.screen
        await pilot.pause()
        view = screen.position.view
        assert view == first.view
        legal = [c.card for c in view.legal if isinstance(c, Play)]
        mine = next(c for c in legal if c != its_card)             # not the stand-in's card
        await pilot.press(str(view.hand.index(mine) + 1))
        await wait_for(pilot, lambda: screen.answer is not None)
        await pilot.press("enter")
        await wait_for(pilot, lambda: screen.position is not None
                       and screen.position.view != view)
        after = screen.position.view
        assert after.hand_number == view.hand_number, after
        assert next_of_mine(after) == mine and mine not in after.hand


async def test_replay_n_past_the_last_costly_decision_says_so():
    from test_replay_review import SAMPLE, coach_ready
    from tui_support import screen_text, wait_for

    from crib3.engine.log import load_log
    from crib3.saved.replay import Replay
    from crib3.tui.app import Crib3App
    from crib3.tui.screens.replay import ReplayScreen

    app = Crib3App(replay=Replay(load_log(SAMPLE).events), autosave=False)
    app.replay_coach = True
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await coach_ready(pilot)
        assert isinstance(screen, ReplayScreen)
        last = screen._costly()[-1]
        screen.show(last)
        await pilot.pause()
        await pilot.press("n")
        await wait_for(pilot, lambda: "No costly decision after" in screen_text(app))
        assert screen.index == last
        assert "in all at 1+" in screen_text(app)
