"""The card room's contract (`crib3.room.contract`) holds: each of the
three rooms, each kind of table, a cluster's extras and a session's journey
is what the protocols say (proved by mypy, which checks this file: see
pyproject.toml), and no screen finds out what a room, a table or its app
can do by probing their attributes (`getattr`/`hasattr`)."""

from __future__ import annotations

import ast
from pathlib import Path

import crib3
from crib3.cluster.hosted import HostedTable
from crib3.cluster.lobby import LobbyTable
from crib3.cluster.room import ClusterRoom
from crib3.net.journey import Journey
from crib3.room import Room, Table
from crib3.room.contract import (
    ClusterExtras,
    ElsewhereTable,
    ListedTable,
    RoomView,
    SessionRoom,
    TableView,
    Wayfinding,
)
from crib3.room.replica import ReplicaRoom, ReplicaTable

PACKAGE = Path(crib3.__file__).parent


# --- what mypy proves (each function is a list of assignments to a protocol) ----------------

def rooms(room: Room, replica: ReplicaRoom, node: ClusterRoom) -> list[RoomView]:
    return [room, replica, node]


def sessions_rooms(room: Room, node: ClusterRoom) -> list[SessionRoom]:
    return [room, node]


def tables(table: Table, replica: ReplicaTable, hosted: HostedTable) -> list[TableView]:
    return [table, replica, hosted]


def listed(table: Table, replica: ReplicaTable, elsewhere: LobbyTable) -> list[ListedTable]:
    return [table, replica, elsewhere]


def elsewhere(table: LobbyTable) -> ElsewhereTable:
    return table


def extras(node: ClusterRoom) -> ClusterExtras:
    return node


def journeys(journey: Journey) -> Wayfinding:
    return journey


def test_one_machine_and_a_worker_have_no_cluster_extras(tmp_path):
    assert Room(tmp_path).cluster is None
    assert ReplicaRoom(link=None).cluster is None  # type: ignore[arg-type]  # (never called)


def test_a_cluster_node_declares_its_extras(tmp_path):
    node = ClusterRoom(tmp_path)
    assert node.cluster is node


# --- no probing --------------------------------------------------------------------------

# What a screen may not probe: a room, a table, the app, the person or the
# session's journey (by any name that says so: `self.room`, `table`,
# `self.app.presence`, ...).
PROBED = ("room", "table", "app", "presence", "journey", "cluster")


def probes(source: str) -> list[str]:
    """The `getattr`/`hasattr` calls in `source` on something `PROBED` names."""
    found: list[tuple[int, int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in ("getattr", "hasattr") and node.args:
            names = {n.id for n in ast.walk(node.args[0]) if isinstance(n, ast.Name)}
            names |= {n.attr for n in ast.walk(node.args[0]) if isinstance(n, ast.Attribute)}
            if any(name == word or name.endswith(f"_{word}") or name.startswith(f"{word}_")
                   for name in names for word in PROBED):
                found.append((node.lineno, node.col_offset, ast.unparse(node)))
    return [f"line {line}: {call}" for line, _, call in sorted(found)]


def screens() -> list[Path]:
    """The card room's screens and app (and every other screen)."""
    return sorted((PACKAGE / "tui" / "screens").rglob("*.py")) + [PACKAGE / "tui" / "room_app.py"]


def test_no_screen_probes_a_room_a_table_or_its_app():
    found = {str(path.relative_to(PACKAGE.parent)): probes(path.read_text(encoding="utf-8"))
             for path in screens()}
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_the_probe_finder_finds_probes():
    """(So that the test above can fail.)"""
    source = '''
def f(self, table, room_app):
    getattr(self.room, "elsewhere", list)()
    hasattr(self.app, "go_elsewhere")
    getattr(getattr(table, "node", None), "name", "")
    getattr(self.presence, "rejoin", None)
    getattr(room_app, "x")
    getattr(self.feed, "send", None)  # (a feed is no room: allowed)
'''
    assert [line.split(":")[0] for line in probes(source)] == [
        "line 3", "line 4", "line 5", "line 5", "line 6", "line 7"]


def test_the_doors_probe_no_room():
    """The SSH door asks `room.cluster`, not the room's attributes."""
    for path in sorted((PACKAGE / "net").rglob("*.py")):
        lines = [line for line in probes(path.read_text(encoding="utf-8")) if "room" in line]
        assert lines == [], path
