import contextlib
import gc
import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings
from range_runs import CLUSTER_KEPT, SLOW_KEPT, TEXTUAL_FREE  # what the range runs leave out

# The tests' helpers sit in tests/, and the tests by layer in its folders
# (engine/, players/, screens/, room/, cluster/, e2e/, cli/): a test may use
# another folder's helpers (test_ssh's no-leak check, say) by module name.
TESTS = Path(__file__).parent
sys.path[:0] = [str(TESTS), *(str(folder) for folder in sorted(TESTS.iterdir())
                              if folder.is_dir() and any(folder.glob("test_*.py"))
                              and not (folder / "__init__.py").exists())]

pytest_plugins = ["snapshot_support"]

# Properties run a fixed number of examples everywhere (CI has 2 cores).
settings.register_profile("crib3", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "crib3"))


def pytest_collection_finish(session):
    """What importing and collecting made lives as long as the test worker
    (Textual's, Rich's, crib3's and hypothesis's modules, classes and
    caches): it is moved out of the cyclic collector's sight, as a session
    worker does with what it keeps (`crib3.net.collector`). Every full
    collection scanned it all again (the figures: docs/development.md)."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Frozen again after a test that unfroze everything (the collector's
    own test does), so the rest of that worker's tests keep the saving."""
    try:
        return (yield)
    finally:
        if gc.get_freeze_count() == 0:
            gc.collect()
            gc.freeze()


@pytest.fixture(autouse=True)
def _no_color_leak(monkeypatch):
    """Tests see the same terminal whatever the developer's shell sets."""
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture(autouse=True)
def crib3_home(tmp_path, monkeypatch):
    """crib3 keeps its settings, saved games and error log in the test's own
    folder, never the developer's."""
    monkeypatch.setenv("CRIB3_HOME", str(tmp_path))
    return tmp_path


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """A failed test's report carries every errors.log crib3 wrote in the
    test's folder (a server's, or each node's): a session's crash is one
    line in the log, its traceback only there, and CI keeps no folders."""
    report = yield
    home = (getattr(item, "funcargs", None) or {}).get("crib3_home")
    if report.failed and home is not None:
        with contextlib.suppress(OSError):  # (a folder may go while it is walked)
            for path in sorted(Path(home).rglob("errors.log*")):
                text = path.read_text(errors="replace")
                report.sections.append((f"crib3's {path.relative_to(home)}",
                                        text[-20_000:]))
    return report


@pytest.fixture(params=[1, 2], ids=["in-one-process", "2-workers"])
def room_workers(request) -> int:
    """The card room's key tests run both ways: every session's app in the
    server's own process (`crib3 serve --workers 1`), and spread over two
    session worker processes (`--workers 2`)."""
    return request.param


# `.ci/run` also runs the suite against the lowest and the newest Textual and
# Rich that pyproject.toml allows; the screens' snapshots are drawn by the
# versions the test extra pins, so their comparisons are left out there.
VERSION_RANGE_RUN = os.environ.get("CRIB3_VERSION_RANGE_RUN")


CLUSTER_TESTS = Path(__file__).parent / "cluster"
BENCHMARKS = Path(__file__).parent / "benchmarks"


def pytest_collection_modifyitems(config, items):
    longest_first(items)
    for item in items:  # (a full curve, run on demand, takes as long as it takes)
        if BENCHMARKS in Path(item.path).parents and item.get_closest_marker("short") is None:
            item.add_marker(pytest.mark.timeout(0))
    if not VERSION_RANGE_RUN:
        return
    skip = pytest.mark.skip(reason=f"snapshots are drawn by the pinned versions "
                                   f"({VERSION_RANGE_RUN} run)")
    same = pytest.mark.skip(reason=f"nothing Textual or Rich does changes it "
                                   f"({VERSION_RANGE_RUN} run: see range_runs.TEXTUAL_FREE)")
    long = pytest.mark.skip(reason=f"a long test over paths shorter ones take "
                                   f"({VERSION_RANGE_RUN} run: see range_runs.SLOW_KEPT)")
    nats = pytest.mark.skip(reason=f"crib3's logic over the nats-py calls the kept modules "
                                   f"make ({VERSION_RANGE_RUN} run: see range_runs.CLUSTER_KEPT)")
    own = pytest.mark.skip(reason=f"it installs the pinned versions in a venv of its own, "
                                  f"not the {VERSION_RANGE_RUN} ones")
    for item in items:
        if "snapshot" in getattr(item, "fixturenames", ()):
            item.add_marker(skip)
        elif item.get_closest_marker("own_venv") is not None:
            item.add_marker(own)
        elif item.module.__name__ in TEXTUAL_FREE:
            item.add_marker(same)
        elif CLUSTER_TESTS in Path(item.path).parents and VERSION_RANGE_RUN == "newest":
            item.add_marker(same)
        elif CLUSTER_TESTS in Path(item.path).parents \
                and item.module.__name__ not in CLUSTER_KEPT:
            item.add_marker(nats)
        elif item.get_closest_marker("slow") is not None \
                and item.module.__name__ not in SLOW_KEPT:
            item.add_marker(long)


def longest_first(items) -> None:
    """The tests marked `slow` go first, the rest in their usual order.

    pytest-xdist hands tests out in this order as its two workers ask for
    them: a long test left among the last keeps one worker busy while the
    other has nothing to do, and the suite waits for it."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)
