"""What a worker keeps of browser sessions once they have gone: twenty
browsers at once draw their lobbies, wait and hang up, twice, in one
session worker (as the web door opens them: 24-bit colour, its
environment). Before: Textual's cache of a widget's backgrounds (1,024
entries for the whole process) was keyed by the widget's styles cache,
which holds the lines the widget drew, so the last thousand widgets drawn
stayed, ended sessions' among them; an SSH session's the same. And the
memory they had is given back (in part: the C heap's free pages; Python's
arenas stay where anything in them does): before, a worker stayed at its
highest, a little above it even, after its sessions had gone."""

from __future__ import annotations

import pytest
from worker_sessions import run_sessions


@pytest.mark.slow
def test_a_worker_keeps_nothing_of_the_widgets_of_browser_sessions_that_have_gone(tmp_path):
    found = run_sessions(tmp_path, warm=5, sessions=40, every=40, at_once=20, browser=True)
    assert found["apps_alive"] == 0, found
    # Every app has ended: no widget is left to have a styles cache.
    assert found["kept"]["StylesCache"] == 0, found
    first, second = found["rows"][2], found["rows"][4]  # after each twenty had gone
    assert second["objects"] - first["objects"] < 20 * 100, found
    for there, gone in (found["rows"][1:3], found["rows"][3:5]):
        assert gone["rss_mb"] < there["rss_mb"] - 1.0, found
