"""Every door adapts to one session core, and no door imitates another's
library: asyncssh is imported only in `crib3/net/`, and its session and
server callbacks are written, and called, only in the SSH door's module of
them (`crib3/net/doorman.py`). The web door and a visit tell a `PlaySession`
what their client does in the session's own words (`feed`, `resize`,
`hang_up`...)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import crib3

PACKAGE = Path(crib3.__file__).parent
NET = PACKAGE / "net"
SSH_DOOR = NET / "doorman.py"  # asyncssh's callbacks: who may come in, and the adapter

# asyncssh's callbacks on a session (SSHServerSession) and on a server
# (SSHServer) that no other library shares a name with.
SSH_ONLY = {
    "pty_requested", "shell_requested", "exec_requested", "subsystem_requested",
    "session_started", "terminal_size_changed", "break_received", "signal_received",
    "soft_eof_received", "x11_requested", "agent_requested", "env_requested",
    "session_requested", "begin_auth", "auth_completed", "validate_public_key",
    "validate_kbdint_response", "get_kbdint_challenge", "kbdint_auth_supported",
    "public_key_auth_supported", "password_auth_supported", "connection_requested",
    "server_requested",
}
# asyncssh's `data_received(data, datatype)`: asyncio's takes the data alone.
TWO_ARGUMENT = {"data_received"}


def asyncssh_imports(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] == "asyncssh"]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "asyncssh":
            found.append(node.module or "")
    return found


def imitations(tree: ast.AST) -> list[str]:
    """Where a module writes or calls asyncssh's callbacks, or subclasses
    one of its classes."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                if "asyncssh" in ast.unparse(base):
                    found.append(f"class {node.name}({ast.unparse(base)})")
            for item in node.body:
                if not isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    continue
                arguments = len(item.args.args) + len(item.args.posonlyargs) - 1  # (self)
                if item.name in SSH_ONLY or (item.name in TWO_ARGUMENT and arguments >= 2):
                    found.append(f"{node.name}.{item.name}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name = node.func.attr
            if name in SSH_ONLY or (name in TWO_ARGUMENT and len(node.args) >= 2):
                found.append(f"a call of {name}")
    return found


def modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def name(path: Path) -> str:
    return str(path.relative_to(PACKAGE.parent))


def test_only_the_network_package_imports_asyncssh():
    offenders = {name(path): asyncssh_imports(ast.parse(path.read_text(encoding="utf-8")))
                 for path in modules() if NET not in path.parents}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_no_door_but_ssh_imitates_asyncssh():
    offenders = {name(path): imitations(ast.parse(path.read_text(encoding="utf-8")))
                 for path in modules() if path != SSH_DOOR}
    assert {k: v for k, v in offenders.items() if v} == {}


def test_the_ssh_door_is_where_asyncssh_is_adapted():
    """(The checks above look at the right thing: the SSH door's adapter is
    what they would find anywhere else.)"""
    tree = ast.parse(SSH_DOOR.read_text(encoding="utf-8"))
    assert "asyncssh" in asyncssh_imports(tree)
    found = imitations(tree)
    assert "SSHSession.pty_requested" in found and "SSHSession.data_received" in found


@pytest.mark.parametrize("source", [
    "class Door:\n    def pty_requested(self, term, size, modes): return True\n",
    "class Door:\n    def data_received(self, data, datatype): pass\n",
    "def relay(session, data):\n    session.data_received(data, None)\n",
    "def relay(session):\n    session.terminal_size_changed(80, 24, 0, 0)\n",
    "import asyncssh\nclass Door(asyncssh.SSHServerSession):\n    pass\n",
])
def test_an_imitation_is_found(source):
    assert imitations(ast.parse(source))


def test_an_asyncio_protocol_is_no_imitation():
    source = ("import asyncio\nclass Counted(asyncio.Protocol):\n"
              "    def data_received(self, data): self.inner.data_received(data)\n"
              "    def connection_lost(self, exc): pass\n")
    assert imitations(ast.parse(source)) == []


def test_an_import_of_asyncssh_is_found():
    assert asyncssh_imports(ast.parse("from asyncssh import SSHKey\n")) == ["asyncssh"]
    assert asyncssh_imports(ast.parse("import asyncssh.misc\n")) == ["asyncssh.misc"]


@pytest.mark.parametrize("module", ["crib3.net.session", "crib3.net.web",
                                    "crib3.net.visit_session"])
def test_the_session_core_and_the_other_doors_load_no_asyncssh(module):
    """The core is the same for every door, so it needs no door's library:
    a browser's or a visit's session runs without asyncssh loaded."""
    from test_layers import loaded_by, under

    assert under(loaded_by(module), ("asyncssh", "crib3.net.server",
                                     "crib3.net.doorman")) == []
