"""One bot driver for the local table and the card room: bots are asked
off the event loop, and a bot that fails or dawdles never ends a game."""

from __future__ import annotations

import asyncio
import random
import threading
import time

from crib3.engine import Game, PlayerInfo
from crib3.players.autoplay import BotDriver
from crib3.players.easy import EasyPlayer


def bots_only(seed: int = 3) -> Game:
    return Game.new([PlayerInfo(n, "easy") for n in ("Ann", "Bea", "Cal")], seed=seed)


class Broken:
    level = "easy"

    def choose(self, view):
        raise RuntimeError("a bug in the bot")


class Slow:
    level = "easy"

    def choose(self, view):
        time.sleep(0.3)
        return view.legal[-1]


class Recorder(EasyPlayer):
    threads: set[int] = set()

    def choose(self, view):
        Recorder.threads.add(threading.get_ident())
        return super().choose(view)


async def test_a_whole_game_is_played_with_decisions_off_the_event_loop():
    game = bots_only()
    driver = BotDriver(game, {s: Recorder(random.Random(s)) for s in range(3)})
    await driver.run(asyncio.Event())
    assert game.over
    assert threading.get_ident() not in Recorder.threads


async def test_a_bot_that_raises_plays_a_legal_move_and_the_game_goes_on(tmp_path, monkeypatch,
                                                                          caplog):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    game = bots_only()
    driver = BotDriver(game, {0: Broken(), 1: EasyPlayer(random.Random(1)),
                              2: EasyPlayer(random.Random(2))}, where="table 7")
    await driver.run(asyncio.Event())
    assert game.over
    lines = [r.getMessage() for r in caplog.records if r.levelname == "ERROR"]
    assert lines and all("table 7: the bot of seat 0: unexpected error" in x for x in lines)
    assert "a bug in the bot" in (tmp_path / "data" / "errors.log").read_text()


async def test_a_bot_past_its_budget_is_played_for():
    game = bots_only()
    driver = BotDriver(game, {0: Slow()}, budget=0.05)
    view = game.view(0)
    assert await driver.choose(0) == view.legal[0]           # not the slow bot's last


async def test_the_loop_stays_free_while_a_bot_thinks():
    game = bots_only()
    driver = BotDriver(game, {0: Slow()}, budget=5)
    ticks = 0

    async def tick():
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.01)

    ticker = asyncio.create_task(tick())
    await driver.choose(0)
    ticker.cancel()
    assert ticks >= 5                                          # the loop ran meanwhile


async def test_a_bot_that_raises_does_not_end_the_local_game(crib3_home):
    from tui_support import settled, table_app

    from crib3.engine import events as ev

    game = Game.new([PlayerInfo("Ann", "human"), PlayerInfo("Bea", "easy"),
                     PlayerInfo("Cal", "easy")], seed=3)
    app = table_app(game, 0, {1: Broken(), 2: EasyPlayer(random.Random(2))})
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(40):
            await settled(pilot)
            await pilot.press("enter")
        assert app.is_running
        assert any(isinstance(e, ev.CardPlayed) and e.seat == 1 for e in game.events)


async def test_a_choice_that_comes_in_after_the_table_stopped_is_not_played():
    """A table closed while its bot thinks (the room stopping): the choice
    that still comes back (Python 3.11's wait_for can return it with the
    cancel) is not played, since the table's log is closed by then."""
    game = bots_only()
    driver = BotDriver(game, {s: EasyPlayer(random.Random(s)) for s in range(3)})
    stopped = False
    chosen = asyncio.Event()

    async def choose_while_it_stops(seat):
        nonlocal stopped
        stopped = True                      # the table stops while the bot thinks
        chosen.set()
        return game.view(seat).legal[0]

    driver.choose = choose_while_it_stops
    before = len(game.events)
    await driver.run(asyncio.Event(), stopped=lambda: stopped)
    assert chosen.is_set()
    assert len(game.events) == before
