"""`crib3 serve --admins FILE` (issue 11, point 6): the file is checked
before the server starts, and an admin's key closes tables and removes
sessions through their own lobby (headless asyncssh clients)."""

from __future__ import annotations

import asyncio
import subprocess

import asyncssh
import pytest

from test_cli import assert_clean_failure, run


def keys_file(path, *keys: asyncssh.SSHKey) -> None:
    path.write_bytes(b"".join(key.export_public_key() for key in keys))
    path.chmod(0o600)


@pytest.mark.parametrize("what, code, said", [
    ("missing", 2, "no such file"),
    ("a folder", 2, "no such file"),
    ("empty", 2, "has no keys"),
    ("loose", 1, "will not trust the admins' keys"),
])
def test_an_admins_file_that_cannot_serve_is_one_line(tmp_path, what, code, said):
    authorized = tmp_path / "authorized_keys"
    keys_file(authorized, asyncssh.generate_private_key("ssh-ed25519"))
    admins = tmp_path / "admins"
    if what == "a folder":
        admins.mkdir()
    elif what == "empty":
        admins.write_text("# nobody yet\n")
    elif what == "loose":
        keys_file(admins, asyncssh.generate_private_key("ssh-ed25519"))
        admins.chmod(0o666)
    result = run("serve", "--port", "0", "--authorized-keys", str(authorized),
                 "--admins", str(admins))
    assert_clean_failure(result, code)
    assert said in result.stderr and str(admins) in result.stderr


def test_admins_with_an_open_door_is_refused(tmp_path):
    admins = tmp_path / "admins"
    keys_file(admins, asyncssh.generate_private_key("ssh-ed25519"))
    result = run("serve", "--port", "0", "--open", "--admins", str(admins))
    assert_clean_failure(result, 2)
    assert "--admins needs keys" in result.stderr
