"""Where computer players think: a small pool of worker processes that
everything in this process shares (the card room's tables, the local
game), so that a bot's decision never holds the event loop that draws the
screens. A thread would not do: a CPU-bound decision in Python holds the
GIL, and every screen on the loop waits its turn. Where processes cannot be
had (a sandbox without them, a pool broken by a killed worker), a thread
it is, as before.

A decision goes out as (bot, view) and comes back as (command, bot): the
bot travels with its state (its random number generator), which is put
back into the bot here, so the same bot asked the same views decides as it
would have in this process. The engine's views and crib3's players pickle;
a bot that does not (a test's local class) thinks in a thread.

The workers are started with "spawn" (never a fork of a process with an
event loop and threads) and only when the first decision is asked, so
starting crib3 costs nothing, and a card room of people only has no
workers at all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import pickle
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import resource_tracker
from typing import Any

from crib3.engine import Command, SeatView

log = logging.getLogger("crib3.bots")

WORKERS = max(1, min(2, os.cpu_count() or 1))  # decisions at once, whatever the tables

_pool: ProcessPoolExecutor | None = None
_no_processes = False  # processes could not be had here: threads from now on
_pickles: dict[type, bool] = {}  # bot class -> whether it can travel to a worker
_made: list[ProcessPoolExecutor] = []  # the pools started and not let go yet
_exit_hooked = False


def _before_exit_wakes_pools() -> None:
    """`_let_all_go_at_exit` to run at Python's exit before concurrent.futures
    wakes its pools (threading's exit hooks run last registered first, and
    concurrent.futures registers its own on import). Once."""
    global _exit_hooked
    if _exit_hooked:
        return
    _exit_hooked = True
    register = getattr(threading, "_register_atexit", None)
    if register is not None:
        with contextlib.suppress(RuntimeError):  # (already exiting)
            register(_let_all_go_at_exit)


def _decide(bot: Any, view: SeatView) -> tuple[Command, Any]:
    """In a worker: the bot's move, and the bot as it is after it."""
    return bot.choose(view), bot


def _travels(bot: Any) -> bool:
    kind = type(bot)
    if kind not in _pickles:
        try:
            pickle.loads(pickle.dumps(bot))
            _pickles[kind] = True
        except Exception:  # any failure to pickle: a local class, a lock, ...
            _pickles[kind] = False
    return _pickles[kind]


def pool() -> ProcessPoolExecutor | None:
    """The shared pool, started on first use; None where there can be none."""
    global _pool, _no_processes
    if _pool is None and not _no_processes:
        try:
            with _real_stderr():
                # multiprocessing's resource tracker is started with the
                # process's stderr handed down; inside a Textual app (or a
                # test's capture) sys.stderr has no real file descriptor,
                # and the start failed with "bad value(s) in fds_to_keep".
                resource_tracker.ensure_running()
                _pool = ProcessPoolExecutor(WORKERS,
                                            mp_context=multiprocessing.get_context("spawn"),
                                            initializer=_watch_parent, initargs=(os.getpid(),))
                _made.append(_pool)
                _before_exit_wakes_pools()
        except (OSError, ImportError, NotImplementedError, ValueError) as exc:
            log.warning("no worker processes for the bots (%s): they think in threads", exc)
            _no_processes = True
    return _pool


PARENT_CHECK = 1.0  # seconds between a worker's looks at whether its parent lives


def _watch_parent(parent: int) -> None:
    """In each worker: end when the process that started it is gone. A
    parent killed outright (`kill -9` of a card room, a terminal's crash)
    says nothing to its pool, whose workers then waited for work for ever
    (a killed `crib3 serve` left them running)."""
    import signal
    import threading
    import time

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK)
            if os.getppid() != parent:
                os.kill(os.getpid(), signal.SIGTERM)  # (its default: the process ends)
                return

    threading.Thread(target=watch, name="crib3-parent-watch", daemon=True).start()


@contextlib.contextmanager
def _real_stderr() -> Iterator[None]:
    """sys.stderr as the process was started with it, for a moment."""
    shown, real = sys.stderr, sys.__stderr__
    if real is not None:
        sys.stderr = real
    try:
        yield
    finally:
        sys.stderr = shown


def warm() -> None:
    """Start the workers now (a game is beginning), so the first decision
    does not wait for them to start. Does nothing where there are none."""
    workers = pool()
    if workers is not None:
        try:
            for _ in range(WORKERS):
                workers.submit(os.getpid)
        except (BrokenProcessPool, RuntimeError):
            _forget(workers)


_started: ProcessPoolExecutor | None = None  # the pool whose workers have answered once
START_LIMIT = 120.0  # seconds the workers may take to start before the bots think in threads


async def ready() -> None:
    """Wait until the workers are up (the first time only). Their start
    (a new Python importing crib3's players) is not a decision's thinking,
    so it must not count against a bot's budget: on a busy machine it can
    take seconds, and a first move played by the fallback made the same
    seed give a different game."""
    global _started, _no_processes
    workers = _pool if _pool is not None else pool()
    if workers is None or workers is _started:
        return
    gathered: asyncio.Future | None = None
    try:
        answers = [asyncio.wrap_future(workers.submit(os.getpid)) for _ in range(WORKERS)]
        gathered = asyncio.gather(*answers)
        await asyncio.wait_for(gathered, START_LIMIT)
    except asyncio.CancelledError:
        # Python 3.11's wait_for, cancelled (crib3 serve stopping a moment
        # after it started), cancels the gather and waits for it without
        # looking at its end, a CancelledError asyncio then logged as
        # "exception was never retrieved" at the end of serve.log.
        if gathered is not None and gathered.done() and not gathered.cancelled():
            gathered.exception()
        raise
    except (BrokenProcessPool, RuntimeError):
        _forget(workers)
    except TimeoutError:
        log.warning("the bots' workers did not start in %ss: they think in threads", START_LIMIT)
        _no_processes = True
        _forget(workers)
    else:
        _started = workers


def _forget(workers: ProcessPoolExecutor) -> None:
    """A broken pool (a worker killed): the next decision starts a new one."""
    global _pool
    if _pool is workers:
        _pool = None
    _let_go(workers)


async def decide(bot: Any, view: SeatView) -> Command:
    """`bot.choose(view)`, thought out in a worker process (in a thread
    where there is none, or for a bot that cannot travel). Exceptions from
    the bot are raised here, as if it had been asked here."""
    workers = pool() if _travels(bot) else None
    if workers is not None:
        try:
            future = workers.submit(_decide, bot, view)
        except (BrokenProcessPool, RuntimeError):
            _forget(workers)
        else:
            try:
                command, thought = await asyncio.wrap_future(future)
            except BrokenProcessPool:
                _forget(workers)
            else:
                if hasattr(thought, "__dict__") and hasattr(bot, "__dict__"):
                    bot.__dict__.update(thought.__dict__)  # its random numbers go on
                return command
    return await asyncio.to_thread(bot.choose, view)


def shut_down() -> None:
    """Stop the workers (the server stopping): decisions under way are dropped."""
    global _pool
    _let_all_go_at_exit()
    _pool = None


def _let_go(workers: ProcessPoolExecutor) -> None:
    """`workers` stopped, without waiting, and out of Python's exit.

    Python 3.11's exit wakes every pool's manager thread through a pipe
    that thread may be closing meanwhile (a race fixed in 3.12): now and
    then "OSError: Bad file descriptor" and a traceback on the server's way
    out. A pool let go here has its manager told to stop already, so it is
    taken off the list that exit wakes (a private one of concurrent.futures:
    where it is not as expected, the race is left to chance)."""
    with contextlib.suppress(ValueError):
        _made.remove(workers)
    try:  # (before the shutdown, which forgets the manager thread)
        from concurrent.futures import process

        process._threads_wakeups.pop(workers._executor_manager_thread, None)
    except (AttributeError, ImportError, TypeError):
        pass
    workers.shutdown(wait=False, cancel_futures=True)


def _let_all_go_at_exit() -> None:
    """Every pool still running let go: as the server stops, and again
    before Python's exit wakes them (a pool made after the room closed,
    say: a bot's move under way then)."""
    for workers in list(_made):
        _let_go(workers)
