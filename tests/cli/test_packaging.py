"""What a packager and a host meet: the `serve` extra, one version, floors.

The floors themselves are installed and the suite run on them by `.ci/run`;
these check that each direct dependency has a floor for that run to install,
and that the game without the card room's extra says what to install.
"""

import importlib.metadata
import os
import subprocess
import sys
import tomllib
from pathlib import Path

from commands import assert_clean_failure

import crib3

ROOT = Path(__file__).resolve().parents[2]


def _floors() -> list[str]:
    done = subprocess.run([sys.executable, str(ROOT / ".ci" / "floors.py"),
                           str(ROOT / "pyproject.toml")],
                          capture_output=True, text=True, check=True, timeout=60)
    return done.stdout.split()


def test_serve_without_the_serve_extra_names_the_install(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c",
         "import sys; sys.modules['aiohttp'] = None\n"
         "from crib3.cli import main; raise SystemExit(main())",
         "serve", "--open", "--port", "0"],
        env={**os.environ, "CRIB3_HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=60)
    assert_clean_failure(done, 1)
    assert "needs aiohttp: pip install 'crib3[serve]'" in done.stderr


def test_the_doors_libraries_are_the_serve_extra_not_the_games():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = " ".join(project["dependencies"])
    serve = " ".join(project["optional-dependencies"]["serve"])
    for library in ("asyncssh", "aiohttp"):
        assert library not in core
        assert library in serve


def test_every_direct_dependency_has_a_floor_the_floors_run_installs():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    floors = {line.split("==")[0].lower() for line in _floors()}
    wanted = list(project["dependencies"])
    for extra in ("serve", "cluster"):
        wanted += project["optional-dependencies"][extra]
    for requirement in wanted:
        name = requirement.split("[")[0].split(">")[0].split("=")[0].split("<")[0].strip()
        if name != "crib3":
            assert name.lower() in floors, requirement


def test_the_version_is_written_once():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert importlib.metadata.version("crib3") == crib3.__version__
