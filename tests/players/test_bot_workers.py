"""Computer players think off the event loop, in worker processes (issue 13,
point 5): a slow decision never holds another table's screen, and a bot in
a worker decides exactly as it would have here."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import random
import time
from pathlib import Path

import pytest
from benchmarks.test_screen_update import OneTable, finished_game
from commands import POLL, lines_from
from helpers import finished

from crib3.engine import Game, PlayerInfo
from crib3.players import make_player, workers
from crib3.players.autoplay import BotDriver

BURN = 1.0  # CPU seconds the slow bot thinks


class CpuBound:
    """A bot that thinks hard (CPU, not sleep: sleeping would free the GIL),
    then plays its last legal move, and says where it thought."""

    level = "expert"

    def __init__(self) -> None:
        self.where: int | None = None

    def choose(self, view):
        self.where = os.getpid()
        end = time.process_time() + BURN
        while time.process_time() < end:
            pass
        return view.legal[-1]


def _threads_cpu() -> dict[str, float]:
    """CPU seconds of each thread of this process so far, by "name (tid)"
    (Linux; empty elsewhere)."""
    found: dict[str, float] = {}
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for task in Path("/proc/self/task").glob("*"):
        try:
            name = (task / "comm").read_text().strip()
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # (a thread that ended meanwhile)
        found[f"{name} ({task.name})"] = (int(fields[11]) + int(fields[12])) / ticks
    return found


def _what_used_the_cpu(before: dict[str, float], collections: list[int]) -> str:
    """For a failure's message: the threads that used CPU since `before`,
    and the garbage collections made since `collections` (by generation)."""
    after = _threads_cpu()
    used = sorted(((after[name] - before.get(name, 0.0), name) for name in after), reverse=True)
    made = [stats["collections"] - was for stats, was in zip(gc.get_stats(), collections)]
    return ("; by thread: " + ", ".join(f"{name} {cpu:.2f} s" for cpu, name in used if cpu)
            + f"; garbage collections by generation meanwhile: {made}")


def bots_only(seed: int = 5) -> Game:
    return Game.new([PlayerInfo(n, "standard") for n in ("Ann", "Bea", "Cal")], seed=seed)


async def test_a_bot_in_a_worker_decides_as_it_would_here():
    """The same view and seed give the same decision, and the bot's random
    numbers go on from where the worker left them (the next decisions
    agree too)."""
    for level in ("easy", "standard", "expert"):
        game = bots_only()
        here = make_player(level, random.Random(11))
        away = make_player(level, random.Random(11))
        for _ in range(12):
            seat = game.to_act()[0]
            view = game.view(seat)
            mine = here.choose(view)
            theirs = await workers.decide(away, view)
            assert theirs == mine, level
            game.dispatch(mine)
        assert here.rng.getstate() == away.rng.getstate()


async def test_a_slow_bot_does_not_hold_another_tables_screen():
    """While one table's bot thinks hard, another table's screen answers
    its keys, and the thinking is not done by this process (before: a
    thread of this process, holding the GIL against every screen)."""
    slow = CpuBound()
    game = bots_only()
    seat = game.to_act()[0]
    driver = BotDriver(game, {seat: slow}, budget=30)
    app = OneTable(finished_game())
    async with app.run_test(size=(80, 24)) as pilot:
        threads = _threads_cpu()  # (to say, if it fails, what else used this process's CPU)
        collections = [stats["collections"] for stats in gc.get_stats()]
        cpu = time.process_time()
        deciding = asyncio.ensure_future(driver.choose(seat))
        answered = 0
        while not deciding.done() and answered < 3:  # a few keys: little CPU here
            shown = app.screen.has_class("feed-on")
            await pilot.press("f")  # the feed, on and off
            await pilot.pause()
            if app.screen.has_class("feed-on") != shown:
                answered += 1
            await asyncio.sleep(0.05)
        command = await finished(deciding, 60, "the slow bot's choice (its budget: 30 s)")
        used_here = time.process_time() - cpu
    assert command == game.view(seat).legal[-1]
    assert answered >= 3, "the other table's screen answered no keys while the bot thought"
    if workers.pool() is not None:
        assert slow.where is not None and slow.where != os.getpid()
        assert used_here < BURN / 2, (f"this process spent {used_here:.2f} s on a {BURN} s bot"
                                      + _what_used_the_cpu(threads, collections))


class _SlowToStart:
    """A pool whose workers take a while to come up (a busy machine
    spawning Python), then answer at once: submit runs the call here."""

    def __init__(self, start: float) -> None:
        self.up_at = time.monotonic() + start

    def submit(self, fn, *args):
        from concurrent.futures import Future

        future: Future = Future()
        wait = max(0.0, self.up_at - time.monotonic())
        loop = asyncio.get_running_loop()
        loop.call_later(wait, lambda: future.done() or future.set_result(fn(*args)))
        return future

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        pass


async def test_the_workers_start_is_not_counted_against_a_bots_budget(monkeypatch):
    """A first decision waits for the workers to come up and then has its
    whole budget: before, a slow start made the first move the fallback's,
    and the same seed gave another game on a busy machine."""
    monkeypatch.setattr(workers, "_pool", _SlowToStart(start=0.6))
    monkeypatch.setattr(workers, "_started", None)
    monkeypatch.setattr(workers, "_travels", lambda bot: True)
    game = bots_only()
    seat = game.to_act()[0]
    driver = BotDriver(game, {seat: make_player("expert", random.Random(3))}, budget=0.3)
    expected = make_player("expert", random.Random(3)).choose(game.view(seat))
    assert await driver.choose(seat) == expected


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc to find the workers")
def test_the_workers_end_when_their_process_is_killed(tmp_path):
    """kill -9 of the process that started the pool (a card room, a game)
    used to leave its bot workers waiting for work for ever."""
    import signal
    import subprocess
    import sys
    import time

    script = ("import os, time\n"
              "from crib3.players import workers\n"
              "pool = workers.pool()\n"
              "[f.result() for f in [pool.submit(os.getpid) for _ in range(8)]]\n"
              "print('ready', flush=True)\n"
              "time.sleep(120)\n")
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                              start_new_session=True)
    try:
        said = lines_from(parent.stdout, 1, 60, "the pool's process")
        assert said[0].strip() == "ready", said
        children = _children_of(parent.pid)
        assert children, "no worker processes found"
        parent.send_signal(signal.SIGKILL)
        parent.wait(10)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and any(_alive(pid) for pid in children):
            time.sleep(POLL)
        assert not [pid for pid in children if _alive(pid)]
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(parent.pid, signal.SIGKILL)


def _children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = open(f"/proc/{entry}/stat").read()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def test_every_pool_is_out_of_pythons_exit_wakeups_once_let_go():
    """Python 3.11's exit wakes each pool's manager through a pipe that
    manager may be closing (a race: "Bad file descriptor" and a traceback as
    `crib3 serve` stopped). A pool let go leaves the list exit wakes; so
    does one made after the room closed (a bot's move under way then), by
    a hook that runs before concurrent.futures' own at exit."""
    import threading
    from concurrent.futures import process

    game = bots_only()
    view = game.view(game.to_act()[0])
    await workers.decide(make_player("easy", random.Random(3)), view)
    first = workers.pool()
    assert first is not None
    manager = first._executor_manager_thread  # (a shutdown forgets it)
    assert manager is not None and manager in process._threads_wakeups
    workers.shut_down()
    assert manager not in process._threads_wakeups
    await workers.decide(make_player("easy", random.Random(3)), view)  # after the close
    second = workers.pool()
    assert second is not None and second is not first
    manager = second._executor_manager_thread
    assert manager is not None and manager in process._threads_wakeups
    hooks = [getattr(hook, "func", hook) for hook in threading._threading_atexits]
    assert hooks.index(workers._let_all_go_at_exit) > hooks.index(process._python_exit)
    workers._let_all_go_at_exit()
    assert manager not in process._threads_wakeups
