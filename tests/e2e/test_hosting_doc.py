"""docs/hosting.md, run as a new host would: every `crib3`, `openssl`, `cp`
and `curl` line of its shell blocks, in order, each as written but for its
ports and folders (the room's own here, on loopback); then the host signs
in with the key the admins file lists and bans a stranger, as it says. The
service manager's lines (`sudo`, `journalctl`) are checked by
systemd-analyze instead (tests/cli/test_service_files.py)."""

from __future__ import annotations

import asyncio
import json
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import asyncssh
import pytest
from commands import CRIB3
from ssh_support import Client, free_port

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (shutil.which("openssl") and shutil.which("curl")),
                                 reason="needs openssl and curl")]

DOC = Path(__file__).resolve().parents[2] / "docs" / "hosting.md"
RUN = ("crib3", "openssl", "cp", "curl")
SERVICE_MANAGERS = ("sudo", "journalctl")


def lines() -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


def test_the_hosting_walkthrough_runs_as_written(tmp_path):
    ports = {"2222": str(free_port()), "8443": str(free_port()), "9100": str(free_port())}
    host_home = tmp_path / "host"  # the host's own ~, with their key in ~/.ssh
    (host_home / ".ssh").mkdir(parents=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    (host_home / ".ssh" / "id_ed25519.pub").write_bytes(key.export_public_key())
    env = {"CRIB3_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin",
           "PYTHONIOENCODING": "utf-8", "HOME": str(host_home)}
    crib3 = " ".join(shlex.quote(part) for part in CRIB3)
    server = None
    said: dict[str, str] = {}
    ran = 0
    banned = ""
    try:
        for line in lines():
            first = line.split()[0]
            if first in SERVICE_MANAGERS:
                continue
            assert first in RUN, f"a line the walkthrough runs but this test does not: {line}"
            for port, mine in ports.items():
                line = line.replace(port, mine)
            command = re.sub(r"^crib3\b", crib3, line)
            ran += 1
            if line.startswith("crib3 serve --config"):
                log = open(tmp_path / "serve.log", "w")
                # (exec: the room is the shell's process, so that terminate
                # reaches it rather than a shell that leaves it running)
                server = subprocess.Popen(f"exec {command}", shell=True, cwd=tmp_path, env=env,
                                          stderr=log)
                deadline = time.monotonic() + 30
                while "listening on" not in (tmp_path / "serve.log").read_text():
                    assert server.poll() is None and time.monotonic() < deadline, \
                        (tmp_path / "serve.log").read_text()
                    time.sleep(0.1)
                continue
            done = subprocess.run(command, shell=True, cwd=tmp_path, env=env,
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0, (line, done.stderr)
            said[line] = done.stdout
        banned = asyncio.run(the_host_bans_a_stranger(int(ports["2222"]), key))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=15)
    assert ran >= 7
    assert (tmp_path / "cert.pem").exists() and (tmp_path / "crib3.toml").exists()
    healthz = next(out for line, out in said.items() if "/healthz" in line)
    assert healthz.strip() == "ok"
    metrics = next(out for line, out in said.items() if "/metrics" in line)
    assert "crib3_tables_open" in metrics
    invited = next(out for line, out in said.items() if line.startswith("crib3 invite ann"))
    token = re.search(r"#invite=([A-Za-z0-9_-]{43})", invited)
    assert token and invited.strip().startswith("https://cards.example.org:"), invited
    log = (tmp_path / "serve.log").read_text()
    records = [json.loads(line) for line in log.splitlines()]
    assert any("host key is SHA256:" in r["message"] for r in records)
    assert token.group(1) not in log
    assert "crib3: an admin has banned you from this room until " in banned
    assert any(r["event"] == "crib3.serve.moderation.ban" for r in records)


async def the_host_bans_a_stranger(port: int, key: asyncssh.SSHKey) -> str:
    """The host, signed in with the key the admins file lists, bans mal
    (who came without a key) for an hour; what mal's terminal was told."""
    mal = await Client.connect(port, "mal", source="127.0.0.7")
    await mal.shows("Open a table")
    host = await Client.connect(port, "host", key=key, source="127.0.0.5")
    await host.shows("b Ban")  # (there is someone to ban)
    host.press("b")
    await host.shows("Ban whom?")
    host.press("\r")
    await host.shows("Ban mal for how long?")
    host.press("\r")
    await asyncio.wait_for(mal.terminal.closed.wait(), 10)
    host.close()
    return mal.terminal.text()
