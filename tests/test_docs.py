"""The README is the player's one page, and the pages in docs/ hold the rest
(running a card room, the cluster, how crib3 is built, the tests): these
check that the README stays short and player-facing, that it leads to every
docs/ page, and that no link between them leads nowhere."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
DOCS = ROOT / "docs"

# A page a player reads in one sitting; past this, what grew belongs in docs/.
README_LINES_AT_MOST = 400

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
NAMED_DOC = re.compile(r"(?<![\w/.])docs/[\w.-]+\.[a-z]+")


def pages() -> list[Path]:
    """The README and every Markdown page of docs/."""
    return [README, *sorted(DOCS.glob("*.md"))]


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation but
    hyphens dropped, each space a hyphen."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    outside_code = re.sub(r"```.*?```", "", text, flags=re.S)
    return {slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", outside_code, flags=re.M)}


def broken_links(page: Path) -> list[str]:
    """Each relative link of a page whose file (or heading) is not there."""
    broken = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve() if path else page
        if not resolved.is_file():
            broken.append(target)
        elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
            broken.append(target)
    return broken


def test_every_relative_link_in_the_readme_and_docs_leads_to_a_file():
    found = {str(page.relative_to(ROOT)): broken_links(page) for page in pages()}
    assert {page: links for page, links in found.items() if links} == {}


def test_every_docs_file_the_pages_name_is_there():
    """`docs/crib3.service` and the like, named in the text rather than linked."""
    missing = set()
    for page in pages():
        for name in NAMED_DOC.findall(page.read_text(encoding="utf-8")):
            if not (ROOT / name).is_file():
                missing.add(f"{page.relative_to(ROOT)}: {name}")
    assert missing == set()


def test_the_readme_links_every_docs_page():
    readme = README.read_text(encoding="utf-8")
    linked = {target.partition("#")[0] for target in LINK.findall(readme)}
    unlinked = [f"docs/{page.name}" for page in sorted(DOCS.glob("*.md"))
                if f"docs/{page.name}" not in linked]
    assert unlinked == []


def test_the_readme_is_a_players_page():
    """The card room's operation, the cluster and the internals are in
    docs/, each behind a link; the README keeps the player's sections."""
    readme = README.read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+)$", re.sub(r"```.*?```", "", readme, flags=re.S),
                          flags=re.M)
    for player_part in ("Set up", "Play", "Saved games", "Reviewing a game",
                        "The computer players", "The rules", "More commands"):
        assert player_part in headings
    for elsewhere in ("How it is built", "Scaling the card room", "Beyond one machine",
                      "Game night: three friends over SSH", "Ratings",
                      "Several servers: one card room over a cluster"):
        assert elsewhere not in headings, f"{elsewhere!r} belongs in docs/"
    assert len(readme.splitlines()) <= README_LINES_AT_MOST
