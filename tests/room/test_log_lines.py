"""The card room's log as an operator reads it (crib3.common.server_log):
every line dated, levelled and named, as text or JSON, and no secret in
any of it: not an invite token, a browser's cookie, a reconnect code (right
or wrong) nor a password."""

from __future__ import annotations

import asyncio
import json
import re

import aiohttp
import pytest
from commands import crib3
from ssh_support import Client, free_port, reconnect_code, start_serving

pytestmark = pytest.mark.slow

LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (DEBUG|INFO|WARNING|ERROR|CRITICAL) "
                  r"+[a-z0-9_.]+\.[A-Za-z0-9_<>]+( \[worker \d+\])?: ")


def stop(server) -> None:
    server.terminate()
    server.wait(timeout=15)


def test_a_rooms_log_is_dated_levelled_named_and_holds_no_secret(tmp_path):
    port, web = free_port(), free_port()
    server = start_serving(tmp_path, "--port", str(port), "--open", "--workers", "1",
                           "--web", f"127.0.0.1:{web}")
    secrets: list[str] = []

    async def visit() -> None:
        ann = await Client.connect(port, "ann", source="127.0.0.2")
        await ann.shows("Open a table")
        code = reconnect_code(ann)
        ann.close()
        secrets.append(code)
        wrong = code[::-1]
        secrets.append(wrong)
        try:
            await asyncio.wait_for(Client.connect(port, "ann", code=wrong,
                                                  source="127.0.0.2"), 10)
        except Exception:  # refused, as it must be
            pass
        again = await Client.connect(port, "ann", code=code, source="127.0.0.2")
        await again.shows("Open a table")
        again.close()
        made = crib3("invite", "bob", home=tmp_path / "home")
        token = re.search(r"#invite=([A-Za-z0-9_-]{43})", made.stdout).group(1)
        secrets.append(token)
        async with aiohttp.ClientSession() as http:
            for tried in (token, token, "x" * 43):
                async with http.post(f"http://127.0.0.1:{web}/api/redeem",
                                     json={"token": tried},
                                     headers={"Origin": f"http://127.0.0.1:{web}"}) as answer:
                    cookie = answer.cookies.get("crib3_id")
                    if cookie is not None:
                        secrets.append(cookie.value)

    try:
        asyncio.run(visit())
    finally:
        stop(server)
    log = (tmp_path / "serve.log").read_text()
    errors = tmp_path / "home" / "data" / "errors.log"
    everything = log + (errors.read_text() if errors.exists() else "")
    assert len(secrets) >= 4, secrets
    for secret in secrets:
        assert secret not in everything, (secret, everything[-2000:])
    lines = [line for line in log.splitlines() if not line.startswith("    | ")]
    assert lines and all(LINE.match(line) for line in lines), \
        [line for line in lines if not LINE.match(line)][:5]
    assert any("crib3.serve.console: crib3 serve: listening on" in line for line in lines)


def test_the_log_as_json_is_one_object_a_line(tmp_path):
    port = free_port()
    server = start_serving(tmp_path, "--port", str(port), "--open", "--workers", "1",
                           "--log-format", "json")
    stop(server)
    lines = (tmp_path / "serve.log").read_text().splitlines()
    records = [json.loads(line) for line in lines]
    assert records and all({"time", "level", "event", "message"} <= set(r) for r in records)
    assert {r["event"] for r in records} >= {"crib3.serve.console"}
    assert records[-1]["message"] == "crib3 serve: stopping; every table is saved"


def test_a_level_above_info_leaves_info_out_but_the_console_lines(tmp_path):
    port = free_port()
    server = start_serving(tmp_path, "--port", str(port), "--open", "--workers", "2",
                           "--log-level", "warning")
    stop(server)
    lines = (tmp_path / "serve.log").read_text().splitlines()
    assert any("listening on" in line for line in lines)
    assert all("crib3.serve.console" in line for line in lines if " INFO " in line), lines


def test_a_session_worker_writes_as_its_main_process_chose(monkeypatch):
    """The main process hands its choice on in the environment its
    workers start with."""
    import io
    import logging
    import os

    from crib3.common import server_log

    root = logging.getLogger()
    kept = root.handlers[:], root.level
    monkeypatch.setenv(server_log.ENV_FORMAT, "json")
    monkeypatch.setenv(server_log.ENV_LEVEL, "warning")
    out = io.StringIO()
    try:
        server_log.configure_worker(out)
        logging.getLogger("crib3.serve").info("not this")
        logging.getLogger("crib3.serve").warning("the link is %s", "closed")
    finally:
        root.handlers[:], _ = kept[0], root.setLevel(kept[1])
    record = json.loads(out.getvalue())
    assert record["process"] == f"worker {os.getpid()}" and record["level"] == "warning"
    assert record["message"] == "the link is closed"
    assert record["event"] == "crib3.serve.test_a_session_worker_writes_as_its_main_process_chose"


def test_errors_log_rotates_owner_only_and_keeps_the_first_reports(tmp_path, monkeypatch):
    """Past its size errors.log moves to errors.log.1 (to .3) rather than
    starting again: a flood of one error no longer erases the report that
    came before it."""
    from crib3.common import crash

    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    monkeypatch.setattr(crash, "KEEP_BYTES", 2000)
    for i in range(30):
        try:
            raise RuntimeError(f"report {i}")
        except RuntimeError as exc:
            crash.record(exc, "a test")
    folder = tmp_path / "data"
    files = sorted(p.name for p in folder.iterdir())
    assert files == ["errors.log", "errors.log.1", "errors.log.2", "errors.log.3"], files
    assert all((folder / name).stat().st_mode & 0o777 == 0o600 for name in files)
    assert all((folder / name).stat().st_size <= 2000 + 400 for name in files)
    assert "report 29" in (folder / "errors.log").read_text()
