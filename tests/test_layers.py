"""What may import what: the engine and the room are models (no Textual,
no SSH), `crib3.net` speaks SSH and imports no screen, and the lobby
screens know nothing of SSH. Checked twice: every import statement in the
source (those inside functions too), and what importing a module really
loads, in a fresh interpreter."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from range_runs import TEXTUAL_FREE

import crib3

PACKAGE = Path(crib3.__file__).parent


def parse(source: str) -> ast.Module:
    """`ast.parse`, and once more if CPython 3.11's AST conversion trips on
    its own recursion count ("AST constructor recursion depth mismatch", a
    SystemError fixed in later CPythons: it counts against the recursion
    limit, which other code in the process may change meanwhile)."""
    try:
        return ast.parse(source)
    except SystemError as error:
        if "recursion depth mismatch" not in str(error):
            raise
        return ast.parse(source)


def imports_in(path: Path) -> set[str]:
    """Every module an import statement in `path` names, wherever it stands."""
    names: set[str] = set()
    for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def files(*where: str) -> list[Path]:
    found: list[Path] = []
    for part in where:
        path = PACKAGE / part
        found.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    assert found, where
    return found


def offenders(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    return [f"{path.relative_to(PACKAGE.parent)} imports {name}"
            for path in paths for name in sorted(imports_in(path))
            if any(name == f or name.startswith(f + ".") for f in forbidden)]


MODELS = ("engine", "room")
UI_AND_NETWORK = ("textual", "rich", "asyncssh", "crib3.tui", "crib3.net")


@pytest.mark.parametrize("package", MODELS)
def test_the_models_import_no_screen_and_no_network(package):
    assert offenders(files(package), UI_AND_NETWORK) == []


# The one part of the screens' package the SSH side may use: the module that
# holds every reach into Textual's internals (a card room's terminals need some).
SEAM = "crib3.tui.textual_compat"


def test_the_ssh_side_imports_no_screen_and_no_room_words():
    found = offenders(files("net"), ("crib3.tui",))
    assert [line for line in found
            if not (line.endswith(f" imports {SEAM}") or f" imports {SEAM}." in line)] == []


def test_the_lobby_screens_import_nothing_from_the_ssh_side():
    lobby = files("tui/screens/lobby.py", "tui/screens/open_table.py", "tui/screens/waiting.py",
                  "tui/screens/new_owner.py", "tui/screens/room_table.py",
                  "tui/widgets/table_list.py", "tui/screens/lobby_words.py", "tui/room_app.py",
                  "tui/base_app.py")
    assert offenders(lobby, ("crib3.net", "asyncssh")) == []


def test_no_module_touches_textuals_private_filter_list():
    """Line filters go through the public `App.get_line_filters()`."""
    touched = [str(path.relative_to(PACKAGE.parent)) for path in files(".")
               if any(isinstance(node, ast.Attribute) and node.attr == "_filters"
                      for node in ast.walk(parse(path.read_text(encoding="utf-8"))))]
    assert touched == []


def loaded_by(module: str) -> list[str]:
    """The modules a fresh interpreter holds after importing `module`."""
    code = (f"import json, sys; import {module}; "
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=120)
    return json.loads(done.stdout)


def under(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)]


@pytest.mark.parametrize("module", ["crib3.engine", "crib3.room"])
def test_importing_a_model_loads_no_textual_and_no_ssh(module):
    assert under(loaded_by(module), UI_AND_NETWORK) == []


# The cluster (crib3.cluster, on NATS): the models know nothing of it, nor
# of NATS, and it knows nothing of the screens or the SSH side.
CLUSTER = ("crib3.cluster", "nats")


@pytest.mark.parametrize("package", MODELS)
def test_the_models_import_nothing_of_the_cluster(package):
    assert offenders(files(package), CLUSTER) == []


def test_duplicate_events_sit_between_the_players_and_the_room():
    """crib3.duplicate is a model on the players: no screen, no network,
    no card room and no cluster (a live event will reach it from those)."""
    assert offenders(files("duplicate"), UI_AND_NETWORK + CLUSTER + ("crib3.room",)) == []
    assert under(loaded_by("crib3.duplicate.events"),
                 UI_AND_NETWORK + CLUSTER + ("crib3.room",)) == []


def test_the_cluster_imports_no_screen_and_no_ssh():
    assert offenders(files("cluster"), UI_AND_NETWORK) == []


@pytest.mark.parametrize("module", ["crib3.engine", "crib3.room", "crib3.net.server",
                                    "crib3.tui.room_app"])
def test_only_the_cluster_loads_nats(module):
    assert under(loaded_by(module), CLUSTER) == []


def test_importing_the_cluster_loads_no_screen_and_no_ssh():
    assert under(loaded_by("crib3.cluster"), UI_AND_NETWORK) == []


@pytest.mark.parametrize("module", ["crib3.tui.screens.lobby", "crib3.tui.screens.open_table",
                                    "crib3.tui.screens.waiting", "crib3.tui.screens.room_table"])
def test_importing_the_lobby_screens_loads_no_ssh(module):
    assert under(loaded_by(module), ("crib3.net", "asyncssh")) == []


def test_importing_the_server_loads_no_screen():
    assert set(under(loaded_by("crib3.net.server"), ("crib3.tui",))) <= {"crib3.tui", SEAM}


@pytest.mark.parametrize("module", TEXTUAL_FREE)
def test_the_modules_the_version_range_runs_leave_out_load_no_textual_and_no_rich(module):
    """`.ci/run`'s runs at the lowest and newest Textual and Rich leave these
    test modules out (range_runs.TEXTUAL_FREE): true only while they, and
    what they test, load neither."""
    tests = Path(__file__).parent
    folder = next(tests.rglob(f"{module}.py")).parent  # (its layer's folder)
    code = (f"import json, sys; sys.path[:0] = [{str(folder)!r}, {str(tests)!r}]; "
            f"import {module}; "
            "print(json.dumps(sorted(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=folder, timeout=120)
    assert under(json.loads(done.stdout), ("textual", "rich")) == []


def test_the_modules_the_version_range_runs_keep_are_there():
    """A module renamed would quietly drop out of what the range runs keep."""
    from range_runs import CLUSTER_KEPT, SLOW_KEPT

    here = {path.stem for path in Path(__file__).parent.rglob("test_*.py")}
    assert set(SLOW_KEPT) <= here and set(CLUSTER_KEPT) <= here, \
        (set(SLOW_KEPT) | set(CLUSTER_KEPT)) - here
