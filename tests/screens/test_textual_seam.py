"""Textual's internals behind one guarded seam (`crib3.tui.textual_compat`).

- No module but the seam names a private Textual or Rich name (an
  attribute, a method it overrides, a keyword, a private module), or
  patches a Textual class; every reach into Textual goes through the seam.
- No import cycle anywhere in crib3.
- Every fallback works: with every shape forced missing, a whole game is
  played at home, and a card-room session's app through Textual's public
  ways; and with each shape missing alone, a hand of each (in a fresh
  process, since some patches are process-wide).
- The one shape a card room cannot do without (the terminal parser) stops
  `crib3 serve` at start, in one line.
"""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import rich
import textual
from test_layers import parse

import crib3
from crib3.tui import textual_compat

PACKAGE = Path(crib3.__file__).parent
FOREIGN = ("textual", "rich")
SEAM = "crib3.tui.textual_compat"


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def class_names(node: ast.ClassDef) -> set[str]:
    """The private names a class gives itself: its methods and class
    attributes, its slots, and what its methods set on `self`."""
    names: set[str] = set()
    for item in node.body:
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and private(item.name):
            names.add(item.name)
        targets = (item.targets if isinstance(item, ast.Assign)
                   else [item.target] if isinstance(item, ast.AnnAssign) else [])
        for target in targets:
            if isinstance(target, ast.Name) and private(target.id):
                names.add(target.id)
            if (isinstance(target, ast.Name) and target.id == "__slots__"
                    and isinstance(item.value, (ast.Tuple, ast.List))):
                names.update(e.value for e in item.value.elts
                             if isinstance(e, ast.Constant) and isinstance(e.value, str))
    for inner in ast.walk(node):
        targets = (inner.targets if isinstance(inner, ast.Assign)
                   else [inner.target] if isinstance(inner, (ast.AnnAssign, ast.AugAssign))
                   else [])
        for target in targets:
            if (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
                    and target.value.id == "self" and private(target.attr)):
                names.add(target.attr)
    return names


_privates_of: dict[type, set[str]] = {}


def privates_of(cls: type) -> set[str]:
    """The private names of one Textual or Rich class, from its source."""
    if cls not in _privates_of:
        names = {n for n in vars(cls) if private(n)}
        try:
            source = Path(sys.modules[cls.__module__].__file__).read_text(encoding="utf-8")
            for node in ast.walk(parse(source)):
                if isinstance(node, ast.ClassDef) and node.name == cls.__name__:
                    names |= class_names(node)
        except (OSError, TypeError, SyntaxError, KeyError):
            pass
        _privates_of[cls] = names
    return _privates_of[cls]


def every_foreign_private() -> set[str]:
    names: set[str] = set()
    for package in (textual, rich):
        for path in Path(package.__file__).parent.rglob("*.py"):
            for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef):
                    names |= class_names(node)
    return names


def is_foreign(cls: type) -> bool:
    return cls.__module__.split(".")[0] in FOREIGN


def private_uses() -> list[str]:
    """Every place outside the seam that names a private Textual or Rich name.

    `self._x` in a crib3 class that is (or is mixed into) a Textual class
    counts when `_x` is one of that Textual class's own private names;
    `other._x` counts when `_x` is a private name of any Textual or Rich
    class that crib3's own classes do not also give themselves."""
    every = every_foreign_private()
    trees = {path: parse(path.read_text(encoding="utf-8")) for path in PACKAGE.rglob("*.py")}
    modules = {path: importlib.import_module(module_name(path)) for path in trees}
    classes = [c for m in modules.values() for c in vars(m).values()
               if isinstance(c, type) and c.__module__.startswith("crib3")]

    def foreign_bases(cls: object) -> set[type]:
        if not isinstance(cls, type):
            return set()
        found = {b for b in cls.__mro__ if is_foreign(b)}
        for other in classes:  # a mixin: the Textual classes it is mixed into
            if cls in other.__mro__:
                found |= {b for b in other.__mro__ if is_foreign(b)}
        return found

    own: set[str] = set()
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if (isinstance(node, ast.ClassDef)
                    and not foreign_bases(getattr(modules[path], node.name, None))):
                own |= class_names(node)

    def named(name: str, bases: set[type], on_self: bool) -> bool:
        if on_self and bases:
            return any(name in privates_of(b) for b in bases)
        return name in every and name not in own

    found: list[str] = []
    for path, tree in sorted(trees.items()):
        if module_name(path) == SEAM:
            continue

        def visit(node: ast.AST, bases: set[type], path: Path = path) -> None:
            hit = None
            if (isinstance(node, ast.ImportFrom) and node.module
                    and node.module.split(".")[0] in FOREIGN):
                if (any(private(part) for part in node.module.split("."))
                        or any(private(alias.name) for alias in node.names)):
                    hit = f"from {node.module} import ..."
            elif isinstance(node, ast.Import):
                hit = next((f"import {a.name}" for a in node.names
                            if a.name.split(".")[0] in FOREIGN
                            and any(private(part) for part in a.name.split("."))), None)
            elif isinstance(node, ast.Attribute) and private(node.attr):
                on_self = ((isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                           or ast.unparse(node.value) == "super()")
                if named(node.attr, bases, on_self):
                    hit = ast.unparse(node)
            elif (isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and bases
                  and private(node.name) and named(node.name, bases, True)):
                hit = f"def {node.name} (overrides a private method)"
            elif isinstance(node, ast.keyword) and node.arg and private(node.arg):
                hit = f"{node.arg}= (a private keyword)"
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                  and node.func.id in ("getattr", "setattr", "hasattr", "delattr")
                  and len(node.args) > 1 and isinstance(node.args[1], ast.Constant)
                  and isinstance(node.args[1].value, str) and private(node.args[1].value)
                  and named(node.args[1].value, bases, False)):
                hit = ast.unparse(node)
            if hit:
                found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: {hit}")
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.ClassDef):
                    visit(child, foreign_bases(getattr(modules[path], child.name, None)))
                elif (isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef))
                      and not isinstance(node, ast.ClassDef)):
                    visit(child, set())  # a function's own `self` is nobody's class
                else:
                    visit(child, bases)

        visit(tree, set())
    return found


@pytest.mark.slow
def test_no_module_but_the_seam_names_textuals_or_richs_private_names():
    assert private_uses() == []


def test_no_module_but_the_seam_patches_a_textual_or_rich_class():
    """`Class.method = ...` (or setattr on one) for a class from Textual or Rich."""
    patched = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if module_name(path) == SEAM:
            continue
        module = importlib.import_module(module_name(path))
        for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                    owner = getattr(module, target.value.id, None)
                    if (isinstance(owner, type) and is_foreign(owner)) or (
                            getattr(owner, "__name__", "").split(".")[0] in FOREIGN
                            and type(owner).__name__ == "module"):
                        patched.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert patched == []


def import_graph() -> dict[str, set[str]]:
    """crib3's modules and the crib3 modules each imports (imports inside
    functions count; those only for type checking do not)."""
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        tree = parse(path.read_text(encoding="utf-8"))
        typing_only = {id(inner) for node in ast.walk(tree)
                       if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
                       for child in node.body for inner in ast.walk(child)}
        deps: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = (name.split(".") if path.name == "__init__.py"
                               else name.split(".")[:-1])
                    package = package[:len(package) - (node.level - 1)]
                    base = ".".join(package + ([base] if base else []))
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            for found in names:
                while found and found not in paths:
                    found = found.rpartition(".")[0]
                if found and found != name and not name.startswith(found + "."):
                    deps.add(found)
        graph[name] = deps
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in graph:
        if v not in index:
            connect(v)
    return found


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


@pytest.mark.slow
def test_no_import_cycle_in_crib3():
    assert cycles(import_graph()) == []


FALLBACK_GAME = textwrap.dedent("""
    # argv: the tests folder, a folder for the room's tables, "game" (to the
    # end) or "hand" (through the first hand's show); CRIB3_TEXTUAL_FALLBACK
    # names the shapes forced missing.
    import asyncio, os, sys
    from crib3.tui import css_cache, textual_compat
    forced = os.environ["CRIB3_TEXTUAL_FALLBACK"]
    textual_compat.reset_fallbacks()
    native = set(textual_compat.missing())               # what this Textual lacks anyway
    wanted = list(textual_compat.SHAPES) if forced == "all" else forced.split(",")
    textual_compat.force_fallback(*wanted)
    assert set(wanted) <= set(textual_compat.missing()) == native | set(wanted), \
        (textual_compat.missing(), native)
    css_cache.install()                                  # the parse, cached (or Textual's own)
    textual_compat.many_terminals_in_one_process()       # a card room's patches (or none)
    from crib3.tui.screens.game_over import GameOverScreen
    from crib3.tui.screens.table import TableScreen
    sys.path.insert(0, sys.argv[1])
    from tui_support import make_app, screen_text, settled, wait_for
    whole = sys.argv[3] == "game"

    async def at_home():
        app = make_app(seed=7)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3000):
                if isinstance(app.screen, GameOverScreen):
                    break
                if not whole and app.game.state.hand_number >= 2:
                    break
                await settled(pilot)
                if isinstance(app.screen, GameOverScreen):
                    break
                await pilot.press("enter")
            if whole:
                assert isinstance(app.screen, GameOverScreen), app.screen
                assert "Scores after each hand" in screen_text(app)
            else:
                assert app.game.state.hand_number >= 2, app.game.state.hand_number
        print("played", app.game.state.hand_number, "hands")

    async def card_room(folder):
        # A card-room session's app from the lobby (a table listed), through
        # the open-a-table dialog and the waiting screen, to its seat at a
        # table with two bots, then a whole hand (and its show) with Enter.
        from crib3.engine import Rules
        from crib3.room import Room
        from crib3.tui.room_app import CardRoomApp
        from crib3.tui.screens.lobby import LobbyScreen
        from pathlib import Path
        room = Room(Path(folder), think=0.0)
        cat = room.sign_in("Cat", None, lambda reason: None)
        room.open_table(cat, Rules(skunks=True), ("easy", "standard"))
        ann = room.sign_in("Ann", None, lambda reason: None)
        app = CardRoomApp(room, ann, think=0.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen))
            assert "Cat" in screen_text(app), screen_text(app)
            await pilot.press("o")
            await pilot.pause(0.05)
            await pilot.press("enter")                   # open it, as the dialog offers
            await wait_for(pilot, lambda: room.place_of(ann) is not None)
            table = room.place_of(ann)[0]
            await pilot.pause(0.05)
            await pilot.press("enter")                   # start, with two computer players
            await wait_for(pilot, lambda: table.game is not None)
            for _ in range(600):
                if table.game.state.hand_number >= 2:
                    break
                await pilot.pause(0.02)
                if getattr(app.screen, "me", None) == 0:
                    await pilot.press("enter")
            assert table.game.state.hand_number >= 2, table.game.state.hand_number
        print("card room: hand", table.game.state.hand_number)

    asyncio.run(at_home())
    asyncio.run(card_room(sys.argv[2]))
""")


def play_through_fallbacks(tmp_path: Path, shapes: str, length: str) -> str:
    """Run FALLBACK_GAME in a fresh process (some patches are process-wide)
    with `shapes` forced missing; its output."""
    env = {**os.environ, "CRIB3_TEXTUAL_FALLBACK": shapes, "CRIB3_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", FALLBACK_GAME, str(Path(__file__).parents[1]),
                           str(tmp_path / "tables"), length],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "played" in done.stdout and "card room: hand" in done.stdout, done.stdout
    return done.stdout


@pytest.mark.slow
def test_a_whole_game_through_every_fallback(tmp_path):
    """With every shape forced missing (as a Textual that renamed them all),
    the game plays to its end through Textual's public ways, and a card-room
    session goes from the lobby to its seat and plays a hand."""
    play_through_fallbacks(tmp_path, "all", "game")


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(textual_compat.SHAPES))
def test_a_hand_through_each_fallback_alone(tmp_path, shape):
    """Each shape missing on its own (the others there, as on a Textual that
    renamed one name): a hand at home and a card-room session's way from the
    lobby through a hand both play. (Alone, a fallback meets the other
    shapes' code, which `all` never does.)"""
    play_through_fallbacks(tmp_path, shape, "hand")


def test_a_missing_terminal_parser_is_one_clear_error():
    from crib3.tui import textual_compat

    try:
        textual_compat.force_fallback("xterm-parser")
        try:
            textual_compat.xterm_parser()
        except textual_compat.MissingInternals as error:
            assert "\n" not in str(error) and "Textual" in str(error)
        else:
            raise AssertionError("no error")
    finally:
        textual_compat.reset_fallbacks()


def test_every_shape_is_there_on_the_textual_the_tests_pin():
    """The shapes hold on the versions pyproject.toml pins for the tests (the
    CI's other runs, at the range's ends, may fall back)."""
    from crib3.tui import textual_compat

    if os.environ.get("CRIB3_VERSION_RANGE_RUN"):
        return
    assert textual_compat.missing() == []


def test_serve_without_the_terminal_parser_refuses_at_start(tmp_path, monkeypatch):
    """A Textual without the parser a card room needs: `crib3 serve` says so
    in one line and exits 1 before it listens, so nobody is let in to a
    session that cannot start (and no table folder is made)."""
    from commands import assert_clean_failure, crib3

    monkeypatch.setenv("CRIB3_TEXTUAL_FALLBACK", "xterm-parser")
    done = crib3("serve", "--open", "--port", "0", home=tmp_path)
    assert_clean_failure(done, 1)
    assert "terminal parser" in done.stderr and "listening" not in done.stderr
    assert not (tmp_path / "tables").exists()


NEGATIVE_TIMER = textwrap.dedent("""
    # argv: "yield" to install the seam's timers first, "stock" not to.
    import sys
    from textual.app import App
    from crib3.tui import textual_compat
    if sys.argv[1] == "yield":
        textual_compat.timers_that_yield()

    class Behind(App[None]):
        def on_mount(self) -> None:
            # As a toast whose time ran out between Textual's check and its timer.
            self.set_timer(-0.38, lambda: self.exit("the timer ran"))

    print(Behind().run(headless=True))
""")


def run_negative_timer(how: str, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", NEGATIVE_TIMER, how], capture_output=True,
                          text=True, timeout=timeout)


def test_a_timer_made_with_a_negative_delay_runs_and_the_app_goes_on():
    """Textual 8's timer loops without yielding when made with a negative
    delay: the event loop (a whole card-room process) froze, at 100% of a
    core, with nothing logged (seen once, a toast's). The seam's timers wait
    a millisecond at least, so the timer runs. In a fresh process with a
    timeout, since a loop that never yields cannot time itself out."""
    try:
        done = run_negative_timer("yield", timeout=60)
    except subprocess.TimeoutExpired:
        raise AssertionError("the app froze: a negative delay still spins the event loop") from None
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "the timer ran"


def test_every_crib3_app_has_timers_that_yield():
    """A crib3 app (at home or in a card room) installs them as it is made."""
    from textual.timer import Timer

    from crib3.tui.app import Crib3App

    if not textual_compat.have("timer-interval"):
        pytest.skip("this Textual's timer has another shape: its own timers")
    app = Crib3App()
    assert Timer(app, -0.38)._interval == textual_compat.SHORTEST_TIMER
    assert Timer(app, 0)._interval == textual_compat.SHORTEST_TIMER
    assert Timer(app, 0.5)._interval == 0.5


def test_the_timers_shape_holds_once_its_patch_is_in():
    """The check is asked again after a test's `reset_fallbacks`, by when
    another test's app may have installed the patch: it still finds
    Textual's own signature (seen failing in a run where it had not)."""
    from textual.timer import Timer

    from crib3.tui.app import Crib3App

    app = Crib3App()
    if Timer(app, -1)._interval != textual_compat.SHORTEST_TIMER:
        pytest.skip("this Textual's timer has another shape: not patched")
    textual_compat.reset_fallbacks()
    assert textual_compat.have("timer-interval")
