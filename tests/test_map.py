"""The module map (docs/architecture.md, "The module map") names every
module of crib3, so a newcomer finds where a thing lives: a module added
without a word there fails here."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
PACKAGE = ROOT / "crib3"
MAP_PAGE = ROOT / "docs" / "architecture.md"


def the_map() -> dict[str, str]:
    """Each top-level part of the map (`crib3/engine/`, `crib3/cards.py`)
    and the text that describes it, up to the next part."""
    page = MAP_PAGE.read_text(encoding="utf-8")
    section = page.split("## The module map", 1)[1]
    block = section.split("```", 2)[1]
    parts: dict[str, str] = {}
    current = None
    for line in block.splitlines():
        head = re.match(r"(crib3/[a-z_]+(?:/|\.py))", line)
        if head:
            current = head.group(1)
            parts[current] = ""
        if current is not None:
            parts[current] += line + "\n"
    return parts


def unmapped() -> list[str]:
    parts = the_map()
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if path.name == "__init__.py" or "web_static" in relative.parts:
            continue
        if len(relative.parts) == 2:  # crib3/cards.py
            if f"crib3/{path.name}" not in parts:
                missing.append(str(relative))
            continue
        text = parts.get(f"crib3/{relative.parts[1]}/", "")
        if not re.search(rf"(?<![\w.]){re.escape(path.stem)}(?![\w])", text):
            missing.append(str(relative))
    return missing


def test_every_module_is_named_in_the_map():
    assert unmapped() == [], f"name each in the module map, {MAP_PAGE.relative_to(ROOT)}"
