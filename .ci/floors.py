"""Print every direct dependency of crib3 pinned at its floor, for pip.

The floors' run of `.ci/run` installs these over the test extra and runs the
suite: a floor is a floor only if something installs it. Read from
pyproject.toml, so a floor raised there is the one tested; a requirement
with no floor (`==` pins of the test tools) is left as the test extra has it.
"""

import re
import sys
import tomllib
from pathlib import Path

EXTRAS = ("serve", "cluster", "test")


def floors(pyproject: Path) -> list[str]:
    project = tomllib.loads(pyproject.read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in EXTRAS:
        wanted += project["optional-dependencies"][extra]
    pins: dict[str, str] = {}
    for requirement in wanted:
        found = re.match(r"\s*([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*([^;]*)", requirement)
        if found is None or found.group(1) == project["name"]:
            continue
        floor = re.search(r">=\s*([^,\s]+)", found.group(3))
        if floor:
            pins[found.group(1).lower()] = f"{found.group(1)}=={floor.group(1)}"
    return sorted(pins.values())


if __name__ == "__main__":
    print("\n".join(floors(Path(sys.argv[1] if len(sys.argv) > 1 else "pyproject.toml"))))
