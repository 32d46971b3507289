"""An unexpected error in one card-room session: that session is told in
one line and closed, the server's log gets one line (the traceback goes to
errors.log, never to the host's terminal), and everyone else plays on."""

from __future__ import annotations

import logging

import pytest
from ssh_support import Client, serving, until

from crib3.tui.screens.open_table import OpenTableScreen

pytestmark = pytest.mark.slow


async def test_a_session_that_fails_is_one_line_and_hurts_no_one_else(
        tmp_path, monkeypatch, caplog, capfd):
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))

    def broken(self) -> None:
        hidden_from_the_host = "the other seats' cards"  # noqa: F841 (a local that must not leak)
        raise RuntimeError("the dialog fell over")

    monkeypatch.setattr(OpenTableScreen, "on_mount", broken)
    caplog.set_level(logging.INFO, logger="crib3.serve")
    async with serving(tmp_path) as server:
        ann = await Client.connect(server.port, "ann")
        bob = await Client.connect(server.port, "bob")
        await ann.shows("Also here: bob")
        ann.press("o")
        await ann.shows("something went wrong on the server")
        await until(ann.terminal.closed.is_set, what="ann's session closed")
        cat = await Client.connect(server.port, "cat")
        await bob.shows("cat")                        # bob's lobby lives on
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1
        line = errors[0].getMessage()
        assert "the session of ann: unexpected error (RuntimeError: the dialog fell over)" \
            in line
        assert "\n" not in line and errors[0].exc_info is None
        log = (tmp_path / "data" / "errors.log").read_text()
        assert "Traceback" in log and "the dialog fell over" in log
        for client in (bob, cat):
            client.close()
    printed = capfd.readouterr()
    assert "Traceback" not in printed.err                  # nothing on the host's terminal
    assert "hidden_from_the_host" not in printed.err + printed.out + caplog.text
