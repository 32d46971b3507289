"""What one screen update costs a card-room session: the CPU time for one
session's app to take one game event and send its screen's bytes, at 80x24.

Run on demand:
`python -m pytest tests/benchmarks/test_screen_update.py --benchmark-only -s`

A card room runs one app per SSH session on one event loop, so the room's
capacity is about this number: every event of a table is drawn three times
(once per seat), and at human pace a busy table makes a few events a second.
This runs the app as the server does (`ChannelDriver`, a 256-colour client)
on a channel that only counts bytes, with the real `TableScreen` on a
finished game; then, for every event of that game as seat 0 received it, it
presents the event and sets the screen's mode as the table screen does,
waits until the frame has been written and nothing more follows, and takes
the CPU time (`time.process_time`) from the event to the frame's last byte.
Printed: p50, p95 and max over the game's events, and the bytes a frame.
Nothing is asserted but that frames were written (the machine is shared).
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from rich.segment import Segment
from rich.style import Style as RichStyle
from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from crib3.engine import Game, PlayerInfo, SeatFeed
from crib3.engine import events as ev
from crib3.net.console import client_console
from crib3.net.driver import ChannelDriver
from crib3.players import make_player
from crib3.tui.base_app import BaseApp
from crib3.tui.screens.table import PAUSE_AFTER, TableScreen
from crib3.tui.textual_compat import many_terminals_in_one_process
from crib3.tui.words import Mode

ENTER = b"\r"
QUIET = 0.03  # seconds with no bytes written: the frame is done


class CountingChannel:
    """An SSH channel that keeps nothing: the bytes of each frame are
    counted, and the CPU clock read when the last of them came."""

    def __init__(self) -> None:
        self.bytes = 0
        self.writes = 0
        self.last_cpu = 0.0
        self.wrote = asyncio.Event()

    def write(self, data: bytes) -> None:
        self.bytes += len(data)
        self.writes += 1
        self.last_cpu = time.process_time()
        self.wrote.set()


def finished_game(seed: int = 7) -> Game:
    """A whole game between three standard players."""
    game = Game.new([PlayerInfo(f"p{s}", "standard") for s in range(3)], seed=seed)
    bots = [make_player("standard", random.Random(seed + s)) for s in range(3)]
    while not game.over:
        seat = game.to_act()[0]
        game.dispatch(bots[seat].choose(game.view(seat)))
    return game


class OneTable(BaseApp):
    """The table screen alone, on a game that is over (so nothing moves but
    what this benchmark presents), seen from seat `me`."""

    def __init__(self, game: Game, me: int = 0) -> None:
        super().__init__(think=0)
        self.game = game
        self.me = me

    def open_first_screen(self) -> None:
        self.push_screen(TableScreen(self.game, self.me, think=0, resumed=True))


async def _settle(channel: CountingChannel) -> None:
    """Wait for a frame, then until no more bytes come for QUIET seconds."""
    await asyncio.wait_for(channel.wrote.wait(), 5)
    while True:
        channel.wrote.clear()
        try:
            await asyncio.wait_for(channel.wrote.wait(), QUIET)
        except TimeoutError:
            return


async def measure(events: int | None = None) -> tuple[list[float], list[int], int]:
    """CPU seconds and bytes for each event of a game, drawn from seat 0,
    and the bytes of the first frame (the whole screen)."""
    many_terminals_in_one_process()
    game = finished_game()
    history, _ = SeatFeed(game, 0).follow(lambda *_: None)
    channel = CountingChannel()
    app = OneTable(game)
    client_console(app, "xterm-256color", {})
    app.driver_class = ChannelDriver.for_channel(channel)
    costs: list[float] = []
    sizes: list[int] = []
    task = asyncio.get_running_loop().create_task(app.run_async(size=(80, 24)))
    try:
        await _settle(channel)
        screen = app.screen
        before_bytes = channel.bytes
        channel.wrote.clear()
        screen.refresh()  # the whole screen, drawn again: the measure of a full frame
        await _settle(channel)
        whole = channel.bytes - before_bytes
        assert isinstance(screen, TableScreen)
        for event, state, view in history[:events]:
            before_bytes, before = channel.bytes, time.process_time()
            channel.wrote.clear()
            screen.mode = Mode.PRESENTING
            screen._present(event, state, view)
            if isinstance(event, PAUSE_AFTER):
                screen.mode = Mode.WAITING_FOR_ENTER
            elif not isinstance(event, ev.GameWon):
                screen.mode = Mode.YOUR_TURN if view.my_turn else Mode.OTHERS_TURN
            await _settle(channel)
            costs.append(channel.last_cpu - before)
            sizes.append(channel.bytes - before_bytes)
    finally:
        app.exit()
        await task
    return costs, sizes, whole


class LayoutCount:
    """Counts the whole-screen layouts (`Screen._refresh_layout`) of every
    screen while in use: a layout measures and places every widget again
    and repaints the screen, the dearest thing an event can ask for."""

    def __init__(self) -> None:
        self.calls = 0
        self._real = Screen._refresh_layout

    def __enter__(self) -> LayoutCount:
        real = self._real

        def counted(screen: Screen, *args: object, **kwargs: object) -> None:
            self.calls += 1
            real(screen, *args, **kwargs)  # type: ignore[arg-type]

        Screen._refresh_layout = counted  # type: ignore[method-assign]
        return self

    def __exit__(self, *_: object) -> None:
        Screen._refresh_layout = self._real  # type: ignore[method-assign]


async def measure_table(events: int | None = None,
                        laid_out: list[bool] | None = None) -> list[float]:
    """CPU seconds for each event of a game drawn at all three seats, as a
    card room draws it: three sessions' apps in one process, each given the
    event as its seat received it, then every frame waited for. With
    `laid_out`, whether each event laid out a screen is appended to it."""
    with LayoutCount() as layouts:
        return await _measure_table(events, laid_out, layouts)


async def _measure_table(events: int | None, laid_out: list[bool] | None,
                         layouts: LayoutCount) -> list[float]:
    many_terminals_in_one_process()
    game = finished_game()
    histories = [SeatFeed(game, seat).follow(lambda *_: None)[0] for seat in range(3)]
    channels = [CountingChannel() for _ in range(3)]
    apps = [OneTable(game, seat) for seat in range(3)]
    tasks = []
    for app, channel in zip(apps, channels):
        client_console(app, "xterm-256color", {})
        app.driver_class = ChannelDriver.for_channel(channel)
        tasks.append(asyncio.get_running_loop().create_task(app.run_async(size=(80, 24))))
    costs: list[float] = []
    try:
        for channel in channels:
            await _settle(channel)
        screens = [app.screen for app in apps]
        for moment in zip(*histories):
            if events is not None and len(costs) >= events:
                break
            before, layouts_before = time.process_time(), layouts.calls
            for screen, channel, (event, state, view) in zip(screens, channels, moment):
                assert isinstance(screen, TableScreen)
                channel.wrote.clear()
                screen.mode = Mode.PRESENTING
                screen._present(event, state, view)
                if isinstance(event, PAUSE_AFTER):
                    screen.mode = Mode.WAITING_FOR_ENTER
                elif not isinstance(event, ev.GameWon):
                    screen.mode = Mode.YOUR_TURN if view.my_turn else Mode.OTHERS_TURN
            for channel in channels:
                await _settle(channel)
            costs.append(max(channel.last_cpu for channel in channels) - before)
            if laid_out is not None:
                laid_out.append(layouts.calls > layouts_before)
    finally:
        for app in apps:
            app.exit()
        await asyncio.gather(*tasks)
    return costs


def _at(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def test_one_screen_update_costs(benchmark):
    found: dict[str, tuple[list[float], list[int], int]] = {}
    benchmark.pedantic(lambda: found.update(run=asyncio.run(measure())), rounds=1, iterations=1)
    costs, sizes, whole = found["run"]
    assert costs and all(sizes), "every event should have drawn a frame"
    p50, p95, top = (_at(costs, q) * 1000 for q in (0.5, 0.95, 1.0))
    bytes_p50 = _at([float(s) for s in sizes], 0.5)
    benchmark.extra_info.update(events=len(costs), cpu_p50_ms=round(p50, 2),
                                cpu_p95_ms=round(p95, 2), cpu_max_ms=round(top, 2),
                                bytes_p50=int(bytes_p50), bytes_whole_screen=whole)
    print(f"\none screen update at 80x24, {len(costs)} events: CPU p50 {p50:.1f} ms, "
          f"p95 {p95:.1f} ms, max {top:.1f} ms, total {sum(costs):.2f} s; {bytes_p50:.0f} bytes a "
          f"frame (p50), {whole} for the whole screen")


def test_one_table_update_costs(benchmark):
    """The same, for one table: all three seats drawing each event (what the
    process pays per event of a table; what the seats draw alike is shared)."""
    found: dict[str, list[float]] = {}
    laid_out: list[bool] = []
    benchmark.pedantic(lambda: found.update(run=asyncio.run(measure_table(laid_out=laid_out))),
                       rounds=1, iterations=1)
    costs = found["run"]
    assert costs
    p50, p95, top = (_at(costs, q) * 1000 for q in (0.5, 0.95, 1.0))
    share = sum(laid_out) / len(laid_out)
    benchmark.extra_info.update(events=len(costs), cpu_p50_ms=round(p50, 2),
                                cpu_p95_ms=round(p95, 2), cpu_max_ms=round(top, 2),
                                laid_out_share=round(share, 3))
    print(f"\none table's update at 80x24 (three seats), {len(costs)} events: CPU p50 "
          f"{p50:.1f} ms, p95 {p95:.1f} ms, max {top:.1f} ms, total {sum(costs):.2f} s; "
          f"{share:.0%} of events "
          f"laid out a screen")


class Frames:
    """A channel that keeps nothing, and tells when bytes last came."""

    def __init__(self) -> None:
        self.wrote = asyncio.Event()

    def write(self, data: bytes) -> None:
        self.wrote.set()


async def seat_sessions(room: object, number: int, first: int) -> list[tuple[object, object]]:
    """Three people at a new table, its game started, each in a session as
    the server runs it; returns (app, task) for each, once all are drawn."""
    from crib3.engine import Rules
    from crib3.tui.room_app import CardRoomApp

    people = [room.sign_in(f"p{first + n}", None, lambda reason: None)  # type: ignore[attr-defined]
              for n in range(3)]
    table = room.open_table(people[0], Rules(), ("standard", "standard"))  # type: ignore[attr-defined]
    for person in people[1:]:
        table.sit(person)
    table.start(people[0].name)
    running = []
    channels = []
    for person in people:
        channel = Frames()
        app = CardRoomApp(room, person, think=0)  # type: ignore[arg-type]
        client_console(app, "xterm-256color", {})
        app.driver_class = ChannelDriver.for_channel(channel)
        running.append((app, asyncio.get_running_loop().create_task(
            app.run_async(size=(80, 24)))))
        channels.append(channel)
    for channel in channels:
        await _settle(channel)  # type: ignore[arg-type]
    return running


async def measure_memory(folder: object, warm_tables: int = 1,
                         tables: int = 2) -> tuple[float, list[tuple[str, float]]]:
    """KiB of Python objects (tracemalloc) that one more card-room session
    at a table holds, measured over `tables` more tables of three people
    after `warm_tables`; and the largest parts of it, by Textual's (or
    crib3's, ...) file."""
    import gc
    import tracemalloc

    from crib3.room import Room

    many_terminals_in_one_process()
    room = Room(folder, think=0)  # type: ignore[arg-type]
    running = []
    try:
        for n in range(warm_tables):
            running += await seat_sessions(room, n, n * 3)
        await asyncio.sleep(0.2)
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for n in range(warm_tables, warm_tables + tables):
            running += await seat_sessions(room, n, n * 3)
        await asyncio.sleep(0.2)
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
    finally:
        for app, _ in running:
            app.exit()  # type: ignore[attr-defined]
        await asyncio.gather(*(task for _, task in running))
        room.close()
    sessions = tables * 3
    grown = after.compare_to(before, "filename")
    total = sum(stat.size_diff for stat in grown) / 1024 / sessions
    parts = [("/".join(stat.traceback[0].filename.split("/")[-2:]),
              stat.size_diff / 1024 / sessions)
             for stat in grown[:10]]
    return total, parts


def test_memory_a_session(benchmark, tmp_path):
    """What one more session at a table holds (Python objects, tracemalloc),
    printed with its largest parts by source file."""
    found: dict[str, tuple[float, list[tuple[str, float]]]] = {}
    benchmark.pedantic(lambda: found.update(run=asyncio.run(measure_memory(tmp_path))),
                       rounds=1, iterations=1)
    total, parts = found["run"]
    assert total > 0
    benchmark.extra_info.update(kib_a_session=round(total))
    print(f"\none more session at a table holds {total:.0f} KiB of Python objects; by file: "
          + ", ".join(f"{name} {kib:.0f}" for name, kib in parts))


# --- a key at the card room's tables, in one process ---------------------------------

KEY_TABLES = 2
KEYS = 150


class ScreenChannel:
    """A session's channel that keeps the screen it was sent (the load
    benchmark's model of a terminal: the footer says when Enter is offered)
    and counts the writes and their bytes."""

    def __init__(self) -> None:
        from screen_model import ScreenModel

        self.screen = ScreenModel()
        self.writes = 0
        self.bytes = 0

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.bytes += len(data)
        self.screen.feed(data)


class FrameCount:
    """Counts the frames every app in this process sends while in use (the
    compositor's updates handed to `App._display`)."""

    def __init__(self) -> None:
        from textual.app import App

        self.calls = 0
        self.came = asyncio.Event()  # set at every frame
        self._app = App
        self._real = App._display

    def __enter__(self) -> FrameCount:
        real = self._real

        def counted(app: object, screen: object, update: object) -> None:
            if update is not None:
                self.calls += 1
                self.came.set()
            real(app, screen, update)  # type: ignore[arg-type]

        self._app._display = counted  # type: ignore[method-assign]  # counted, put back
        return self

    def __exit__(self, *_: object) -> None:
        self._app._display = self._real  # type: ignore[method-assign]  # (put back)


class RenderCpu:
    """The CPU each kind of widget took to draw its lines (Textual's styles
    cache: border, padding, filters, and the content, its own or shared),
    while in use; the content apart."""

    def __init__(self) -> None:
        from collections import Counter

        from textual._styles_cache import StylesCache
        from textual.widget import Widget

        self.lines: Counter[str] = Counter()
        self.content: Counter[str] = Counter()
        self.counting = False
        self._patched = [(StylesCache, "render_widget"), (Widget, "_render_content")]
        self._real = [getattr(cls, name) for cls, name in self._patched]

    def __enter__(self) -> RenderCpu:
        (styles_cache, _), (widget_class, _) = self._patched
        render_widget, render_content = self._real
        me = self

        def lines(cache: object, widget: object, crop: object) -> object:
            started = time.process_time()
            try:
                return render_widget(cache, widget, crop)
            finally:
                if me.counting:
                    me.lines[type(widget).__name__] += time.process_time() - started

        def content(widget: object) -> None:
            started = time.process_time()
            try:
                render_content(widget)
            finally:
                if me.counting:
                    me.content[type(widget).__name__] += time.process_time() - started

        styles_cache.render_widget = lines  # type: ignore[method-assign]  # measured, put back
        widget_class._render_content = content  # type: ignore[method-assign]  # measured, put back
        return self

    def __exit__(self, *_: object) -> None:
        for (cls, name), real in zip(self._patched, self._real):
            setattr(cls, name, real)


async def measure_keys(tables: int = KEY_TABLES, keys: int = KEYS,
                       render: RenderCpu | None = None,
                       log_sync: str | None = None) -> dict[str, float]:
    """`tables` card-room tables of three people in one `Room`, each
    session's app on a `ChannelDriver` as the server runs it; then `keys`
    times Enter, each at a session whose footer offers it (the load
    benchmark's people, without the network, the worker's relay or the
    pace). The CPU a key (this process: the room, the game, every seat's
    drawing), the writes and bytes a key, the events logged, and the wall
    time the event loop spent writing them (`log_ms`, an event). With
    `log_sync` ("now", "later"), the tables' logs are fsynced so."""
    from crib3.room import storage

    many_terminals_in_one_process()
    record, sync = storage.TableFiles.record, getattr(storage, "LATER", None)
    in_log = [0.0]

    def timed(files: storage.TableFiles, event: ev.Event) -> None:
        started = time.perf_counter()
        try:
            record(files, event)
        finally:
            in_log[0] += time.perf_counter() - started

    storage.TableFiles.record = timed  # type: ignore[method-assign]  # measured, put back
    if log_sync is not None:
        storage.LATER = log_sync  # type: ignore[assignment]  # measured, put back
    try:
        return await _measure_keys(tables, keys, render, in_log)
    finally:
        storage.TableFiles.record = record  # type: ignore[method-assign]  # put back
        if log_sync is not None:
            storage.LATER = sync  # type: ignore[assignment]  # (put back)


async def _measure_keys(tables: int, keys: int, render: RenderCpu | None,
                        in_log: list[float]) -> dict[str, float]:
    from crib3.engine import Rules
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp

    with tempfile.TemporaryDirectory() as folder, FrameCount() as frames:
        room = Room(Path(folder), think=0)
        sessions: list[tuple[CardRoomApp, ScreenChannel]] = []
        tasks = []
        for n in range(tables):
            people = [room.sign_in(f"t{n}p{p}", None, lambda reason: None) for p in range(3)]
            table = room.open_table(people[0], Rules(), ("standard", "standard"))
            for person in people[1:]:
                table.sit(person)
            table.start(people[0].name)
            for person in people:
                channel = ScreenChannel()
                app = CardRoomApp(room, person, think=0)
                client_console(app, "xterm-256color", {})
                app.driver_class = ChannelDriver.for_channel(channel)
                sessions.append((app, channel))
                tasks.append(asyncio.get_running_loop().create_task(
                    app.run_async(size=(80, 24))))
        try:
            deadline = time.monotonic() + 30
            while not all("pts" in c.screen.text() for _, c in sessions):
                assert time.monotonic() < deadline, "the tables were never drawn"
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            logged = sum(len(p.read_bytes().splitlines())
                         for p in Path(folder).rglob("table-*.jsonl"))
            writes, sent = (sum(c.writes for _, c in sessions),
                            sum(c.bytes for _, c in sessions))
            rng = random.Random(5)
            pressed = 0
            if render is not None:
                render.counting = True
            frames_before = frames.calls
            started = time.process_time()
            in_log[0] = 0.0
            deadline = time.monotonic() + 120
            # A session pressed is ready again once a frame has come for it
            # and its footer offers Enter: its footer is not always drawn
            # again (a count after a count offers the same keys).
            answered = {id(c): -1 for _, c in sessions}
            while pressed < keys and time.monotonic() < deadline:
                ready = [s for s in sessions if "⏎" in s[1].screen.footer()
                         and s[1].writes > answered[id(s[1])]]
                if not ready:
                    await asyncio.sleep(0.01)
                    continue
                app, channel = rng.choice(ready)
                answered[id(channel)] = channel.writes
                driver = app._driver
                assert isinstance(driver, ChannelDriver)
                driver.feed(ENTER)
                pressed += 1
                await asyncio.sleep(0.005)  # (each key drawn before the next, as people do)
            await asyncio.sleep(0.3)
            cpu = time.process_time() - started
            drawn = frames.calls - frames_before
            if render is not None:
                render.counting = False
            events = sum(len(p.read_bytes().splitlines())
                         for p in Path(folder).rglob("table-*.jsonl")) - logged
        finally:
            for app, _ in sessions:
                app.exit()
            await asyncio.gather(*tasks, return_exceptions=True)
            room.close()
    return {"keys": pressed, "cpu_ms": cpu * 1000 / max(1, pressed), "events": events,
            "writes": (sum(c.writes for _, c in sessions) - writes) / max(1, pressed),
            "bytes": (sum(c.bytes for _, c in sessions) - sent) / max(1, pressed),
            "log_ms": in_log[0] * 1000 / max(1, events),
            "frames": drawn / max(1, pressed)}


def test_the_loop_waits_on_no_log_fsync(benchmark):
    """The same keys with the tables' logs fsynced before the event is
    relayed (`now`, as before) and in a thread just after (`later`, the
    card room's), in alternate runs: the loop's time in the log an event,
    and the CPU, writes and bytes a key."""
    runs: dict[str, list[dict[str, float]]] = {"now": [], "later": []}

    def measure() -> None:
        for _ in range(2):
            for way in runs:
                runs[way].append(asyncio.run(measure_keys(keys=60, log_sync=way)))

    benchmark.pedantic(measure, rounds=1, iterations=1)
    for way, found in runs.items():
        for one in found:
            print(f"\nfsync {way:5s}: loop in the log {one['log_ms']:6.2f} ms an event "
                  f"({int(one['events'])} events), CPU {one['cpu_ms']:.1f} ms a key, "
                  f"{one['writes']:.1f} writes and {one['bytes']:.0f} bytes a key")
    now = sum(f["log_ms"] for f in runs["now"]) / len(runs["now"])
    later = sum(f["log_ms"] for f in runs["later"]) / len(runs["later"])
    benchmark.extra_info.update({"log_ms_now": round(now, 3), "log_ms_later": round(later, 3)})
    assert later < now


def test_a_key_at_room_tables_costs(benchmark):
    """The CPU a key at `KEY_TABLES` card-room tables in one process, the
    writes and bytes it sends, and which widgets' drawing took the CPU."""
    found: dict[str, float] = {}
    with RenderCpu() as render:
        benchmark.pedantic(lambda: found.update(asyncio.run(measure_keys(render=render))),
                           rounds=1, iterations=1)
    assert found["keys"] == KEYS and found["writes"] > 0
    drawn = sum(render.lines.values())
    benchmark.extra_info.update({k: round(v, 2) for k, v in found.items()})
    print(f"\n{KEY_TABLES} tables, {int(found['keys'])} keys ({int(found['events'])} events): "
          f"CPU {found['cpu_ms']:.1f} ms a key, {found['writes']:.1f} writes and "
          f"{found['bytes']:.0f} bytes a key, the loop {found['log_ms']:.2f} ms an event "
          f"in the log; widgets' lines "
          f"{drawn * 1000 / found['keys']:.1f} ms a key, of which (ms a key, content):")
    for name, seconds in render.lines.most_common(12):
        print(f"  {name:24s} {seconds * 1000 / found['keys']:5.2f}"
              f"  {render.content[name] * 1000 / found['keys']:5.2f}")


# --- a seat's frame against a bare Textual app's -------------------------------------

BARE_FRAMES = 200
# What a bare app's frame changes: its whole screen in one widget, or five
# of eight widgets laid out as a table is (two boxed panels, a board, the
# middle, a hand, recent lines, a prompt, a footer).
BARE_SHAPES = {"one widget, every row": ("all",),
               "5 of 8 widgets": ("left", "board", "middle", "hand", "recent")}
STRIPS = "5 of 8 widgets, each making its own strips"
# The floor under any screen drawn as one widget's lines (a renderer of the
# table's own inside Textual): one widget making its own strips, only the
# rows that changed repainted, so many of its 24 rows new a frame.
CANVAS_ROWS = (4, 8, 24)


class BareApp(App[None]):
    """A Textual app with nothing of crib3's in it but the server's way of
    running a session (`ChannelDriver`, a 256-colour client): the floor a
    seat's frame is measured against."""

    CSS = """
    #all { height: 1fr; }
    #top { height: 8; }
    #left, #right { width: 1fr; border: round $accent; }
    #board { height: 6; }
    #middle { height: 3; }
    #hand { height: 4; border: round $accent; }
    #recent { height: 2; }
    """

    def __init__(self, shape: tuple[str, ...]) -> None:
        super().__init__()
        self.shape = shape

    def compose(self) -> ComposeResult:
        if self.shape == ("all",):
            yield Static(id="all")
            return
        with Horizontal(id="top"):
            yield Static(id="left")
            yield Static(id="right")
        for name in ("board", "middle", "hand", "recent", "prompt", "footer"):
            yield Static(id=name)


def _bare_lines(frame: int, rows: int) -> Text:
    """`rows` lines of a frame, each a few styled runs as a table's are."""
    text = Text()
    for row in range(rows):
        text.append(f"{row:2d} ", style="bold")
        text.append(f"5♥ 10♠ J♦ frame {frame}", style="green on #203020")
        text.append(f"  count {frame % 31:2d}  ", style="yellow")
        text.append("pegged 2 for a pair".ljust(30) + ("\n" if row < rows - 1 else ""))
    return text


class StripLines(Widget):
    """A widget that draws its rows as Strips it makes itself (Textual's
    Line API), from segments with styles made once: what a widget skips of
    Textual's content pipeline (markup, wrapping, styles converted a segment
    at a time) when it does its own drawing."""

    BOLD, GREEN, YELLOW = (RichStyle(bold=True), RichStyle.parse("green on #203020"),
                           RichStyle(color="yellow"))

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.strips: list[Strip] = []

    @classmethod
    def row(cls, row: int, frame: int, width: int) -> Strip:
        """`_bare_lines`'s row `row` of `frame`, as a strip `width` wide."""
        return Strip([
            Segment(f"{row:2d} ", cls.BOLD), Segment(f"5♥ 10♠ J♦ frame {frame}", cls.GREEN),
            Segment(f"  count {frame % 31:2d}  ", cls.YELLOW),
            Segment("pegged 2 for a pair".ljust(30))]).crop_extend(0, width, None)

    def set_frame(self, frame: int) -> None:
        """`_bare_lines`'s rows for `frame`, as strips."""
        width = self.content_size.width
        self.strips = [self.row(row, frame, width) for row in range(self.content_size.height)]
        self.refresh()

    def render_line(self, y: int) -> Strip:
        return self.strips[y] if y < len(self.strips) else Strip.blank(self.content_size.width)


class StripBareApp(BareApp):
    """`BareApp` laid out the same, its widgets `StripLines`."""

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            yield StripLines(id="left")
            yield StripLines(id="right")
        for name in ("board", "middle", "hand", "recent", "prompt", "footer"):
            yield StripLines(id=name)


class StripCanvas(Widget):
    """One widget over the whole screen, drawing its rows as strips it makes
    itself and repainting only the rows it changed."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.rows: list[Strip] = []

    def set_rows(self, frame: int, changed: int) -> None:
        """New lines for the first `changed` rows, as `_bare_lines` draws them."""
        width, height = self.size
        if len(self.rows) != height:
            self.rows = [Strip.blank(width)] * height
        for row in range(min(changed, height)):
            self.rows[row] = StripLines.row(row, frame, width)
            self.refresh(Region(0, row, width, 1))

    def render_line(self, y: int) -> Strip:
        return self.rows[y] if y < len(self.rows) else Strip.blank(self.size.width)


class CanvasApp(App[None]):
    """`StripCanvas` alone, on the server's way of running a session."""

    CSS = "StripCanvas { height: 1fr; }"

    def compose(self) -> ComposeResult:
        yield StripCanvas()


async def _frames_cpu(app: App[None], ready: Callable[[], Callable[[int], None]],
                      frames: int) -> float:
    """CPU ms a frame of `app` at 80x24, run as the server runs a session on
    the channel the table's keys are measured on. Once it is drawn,
    `ready()` gives what makes frame n's change (its widgets found before
    the clock starts); each frame is awaited."""
    many_terminals_in_one_process()
    client_console(app, "xterm-256color", {})
    app.driver_class = ChannelDriver.for_channel(ScreenChannel())
    task = asyncio.get_running_loop().create_task(app.run_async(size=(80, 24)))
    try:
        with FrameCount() as drawn:
            deadline = time.monotonic() + 10
            while not drawn.calls:
                assert time.monotonic() < deadline, f"{type(app).__name__} was never drawn"
                await asyncio.sleep(0.01)
            new_frame = ready()
            started, before = time.process_time(), drawn.calls
            for frame in range(frames):
                drawn.came.clear()
                new_frame(frame)
                await asyncio.wait_for(drawn.came.wait(), 5)
            cpu = time.process_time() - started
            assert drawn.calls - before >= frames
    finally:
        app.exit()
        await task
    return cpu * 1000 / frames


async def measure_canvas_frames(changed: int, frames: int = BARE_FRAMES) -> float:
    """CPU ms a frame of `CanvasApp` at 80x24, `changed` rows new each frame."""
    app = CanvasApp()

    def ready() -> Callable[[int], None]:
        canvas = app.query_one(StripCanvas)
        return lambda frame: canvas.set_rows(frame, changed)

    return await _frames_cpu(app, ready, frames)


async def measure_bare_frames(shape: tuple[str, ...], frames: int = BARE_FRAMES,
                              strips: bool = False) -> float:
    """CPU ms a frame of `BareApp` at 80x24, the widgets of `shape` given new
    lines each frame, on the channel the table's keys are measured on.
    `strips`: `StripBareApp` instead, each widget making its own strips."""
    app = StripBareApp(shape) if strips else BareApp(shape)

    def ready() -> Callable[[int], None]:
        widgets = [app.query_one(f"#{name}") for name in shape]

        def new_frame(frame: int) -> None:
            for widget in widgets:
                if isinstance(widget, StripLines):
                    widget.set_frame(frame)
                else:
                    assert isinstance(widget, Static)
                    widget.update(_bare_lines(frame, widget.content_size.height),
                                  layout=False)

        return new_frame

    return await _frames_cpu(app, ready, frames)


def test_a_seat_frame_against_a_bare_textual_frame(benchmark):
    """The CPU of a frame at a card-room seat (everything a key costs, the
    room's part too, over the frames the key drew) against a bare Textual
    app's frame, in alternate runs: the floor Textual sets under any
    change that keeps it; and the same bare frame with widgets that make
    their own strips (Line API), the floor under a table whose widgets do
    their own drawing; and one widget over the whole screen making its own
    strips, only its changed rows repainted, the floor under a screen drawn
    by a renderer of its own (see assets/measurements/card-room.md)."""
    table: list[float] = []
    canvases = {f"one widget making its own strips, {rows} of 24 rows new": rows
                for rows in CANVAS_ROWS}
    bare: dict[str, list[float]] = {name: [] for name in [*BARE_SHAPES, STRIPS, *canvases]}

    def measure() -> None:
        for _ in range(3):
            found = asyncio.run(measure_keys(keys=100))
            table.append(found["cpu_ms"] / found["frames"])
            for name, shape in BARE_SHAPES.items():
                bare[name].append(asyncio.run(measure_bare_frames(shape)))
            bare[STRIPS].append(asyncio.run(measure_bare_frames(
                BARE_SHAPES["5 of 8 widgets"], strips=True)))
            for name, rows in canvases.items():
                bare[name].append(asyncio.run(measure_canvas_frames(rows)))

    benchmark.pedantic(measure, rounds=1, iterations=1)
    middle = sorted(table)[len(table) // 2]
    print(f"\na seat's frame at {KEY_TABLES} tables: "
          + ", ".join(f"{ms:.2f}" for ms in table) + f" ms (median {middle:.2f})")
    for name, runs in bare.items():
        floor = sorted(runs)[len(runs) // 2]
        print(f"a bare Textual frame, {name}: " + ", ".join(f"{ms:.2f}" for ms in runs)
              + f" ms (median {floor:.2f}); the seat's against it: {middle / floor:.2f}")
        benchmark.extra_info[f"bare_{name}"] = round(floor, 2)
    benchmark.extra_info["seat_frame_ms"] = round(middle, 2)
    assert all(ms > 0 for ms in table) and all(all(runs) for runs in bare.values())


# --- seating a room, its lobbies watching ---------------------------------------------

SEATING_TABLES = 15


class QuietChannel:
    """A session's channel that counts writes and bytes, and when it was last written."""

    def __init__(self) -> None:
        self.writes = 0
        self.bytes = 0
        self.last = time.monotonic()

    def write(self, data: bytes) -> None:
        self.writes += 1
        self.bytes += len(data)
        self.last = time.monotonic()


async def _quiet(channels: list[QuietChannel], quiet: float, limit: float) -> None:
    """Wait until no channel has been written for `quiet` seconds (at most `limit`)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        await asyncio.sleep(0.05)
        if time.monotonic() - max(c.last for c in channels) > quiet:
            return
    raise AssertionError(f"the sessions kept drawing for {limit:.0f} s")


async def measure_seating(tables: int = SEATING_TABLES) -> dict[str, float]:
    """`tables` x 3 people in one `Room`, each in a session's app as the
    server runs it, all in the lobby; then table by table one opens a table
    and the two others sit (each shown the table as their key would), and
    the game starts, a moment between each step, while everyone not yet
    seated watches from the lobby (the load benchmark's seating, without
    the network). The CPU a table seated (this process: the room, every
    lobby's redraws, the table screens), and the writes and KB it sent."""
    from crib3.engine import Rules
    from crib3.room import Room
    from crib3.tui.room_app import CardRoomApp

    many_terminals_in_one_process()
    with tempfile.TemporaryDirectory() as folder:
        room = Room(Path(folder), think=0)
        people, apps, channels, tasks = [], [], [], []
        try:
            for n in range(3 * tables):
                person = room.sign_in(f"t{n // 3}p{n % 3}", None, lambda reason: None)
                channel = QuietChannel()
                app = CardRoomApp(room, person, think=0)
                client_console(app, "xterm-256color", {})
                app.driver_class = ChannelDriver.for_channel(channel)
                tasks.append(asyncio.get_running_loop().create_task(
                    app.run_async(size=(80, 24))))
                people.append(person)
                apps.append(app)
                channels.append(channel)
                await asyncio.sleep(0.02)
            await _quiet(channels, 0.5, 120)
            started = time.process_time()
            writes, sent = sum(c.writes for c in channels), sum(c.bytes for c in channels)
            for n in range(tables):
                three, at = people[3 * n:3 * n + 3], apps[3 * n:3 * n + 3]
                table = room.open_table(three[0], Rules(), ("standard", "standard"))
                at[0].call_later(at[0].sit_at, table, 0)
                await asyncio.sleep(0.03)
                for person, app in zip(three[1:], at[1:]):
                    app.call_later(app.sit_at, table, table.sit(person))
                    await asyncio.sleep(0.03)
                table.start(three[0].name)
                await asyncio.sleep(0.03)
            await _quiet(channels, 0.5, 120)
            cpu = time.process_time() - started
            return {"tables": tables, "cpu_ms": cpu * 1000 / tables,
                    "writes": sum(c.writes for c in channels) - writes,
                    "kb": (sum(c.bytes for c in channels) - sent) / 1024}
        finally:
            for app in apps:
                app.exit()
            await asyncio.gather(*tasks, return_exceptions=True)
            room.close()


def test_seating_a_room_costs(benchmark):
    """The CPU a table seated while the rest of the room waits in the lobby
    (`measure_seating`): every lobby is redrawn for every seat taken, so it
    grows with the room (run it at two sizes to see how)."""
    found: dict[str, float] = {}
    benchmark.pedantic(lambda: found.update(asyncio.run(measure_seating())),
                       rounds=1, iterations=1)
    assert found["writes"] > 0
    benchmark.extra_info.update({k: round(v, 2) for k, v in found.items()})
    print(f"\n{SEATING_TABLES} tables seated: CPU {found['cpu_ms']:.0f} ms a table, "
          f"{int(found['writes'])} writes, {found['kb']:.0f} KB")
