"""The README's screenshots keep the terminal's grid (issue 12): drawn from
Textual's SVG, a long run of text drifted by the font's glyph widths (the
show's phrase a column off, a round box's top-right corner a cell off)."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import pytest
from screenshots import EVENT_PICTURE, PICTURES, RECORD_PICTURES, SNAPSHOTS, pin_glyphs, png

SHOW = SNAPSHOTS / "test_screen[show-200x60].svg"


def glyphs(svg: str) -> dict[tuple[float, str], list[float]]:
    """(row, character) -> the x of each one drawn on its own."""
    found: dict[tuple[float, str], list[float]] = {}
    for m in re.finditer(r'<text [^>]*?x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg):
        text = html.unescape(m[3])
        if len(text) == 1:
            found.setdefault((float(m[2]), text), []).append(float(m[1]))
    return found


def test_every_character_is_drawn_at_its_own_cell():
    svg = ('<svg class="t" viewBox="0 0 100 20"><text class="r1" x="12.2" y="20" '
           'textLength="61" clip-path="url(#l)">│&#160;♠♥a</text></svg>')
    pinned = pin_glyphs(svg)
    assert 'xml:space="preserve"' in pinned and "textLength" not in pinned
    assert re.findall(r'x="([\d.]+)"[^>]*>([^<]*)<', pinned) == [
        ("12.2", "│"), ("36.6", "♠"), ("48.8", "♥"), ("61", "a")]


def test_the_shows_phrases_line_up_and_the_boxes_close_at_200x60():
    pinned = glyphs(pin_glyphs(SHOW.read_text(encoding="utf-8")))
    # The counted hand's lines start in one column: "Cal's hand", and the
    # "f" of "fifteen two" and of "fifteen four" (your box, at the bottom:
    # y from 1150, under the board; the phrases right of the cards, x from
    # 600; the feed from 1400).
    def first(char: str) -> dict[float, float]:
        return {row: min(x for x in xs if 600 < x < 1400) for (row, c), xs in pinned.items()
                if c == char and row > 1150 and any(600 < x < 1400 for x in xs)}

    fifteens = first("f")
    assert len(fifteens) == 2, fifteens
    assert set(fifteens.values()) == {min(first("C").values())}
    # Every round top-right corner sits above the side of its box.
    for (row, char), xs in pinned.items():
        if char == "╮":
            below = [x for (r, c), cx in pinned.items() if c == "│" and 0 < r - row < 30
                     for x in cx]
            assert all(x in below for x in xs), (row, xs)


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="needs rsvg-convert")
def test_the_readmes_pictures_are_made_from_the_snapshots(tmp_path):
    name, snapshot = PICTURES[0]
    target = tmp_path / f"{name}.png"
    png((SNAPSHOTS / f"{snapshot}.svg").read_text(encoding="utf-8"), target)
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
    assert (Path(__file__).parents[2] / "assets" / "screenshots" / f"{name}.png").exists()


def test_the_record_views_pictures_are_drawn_from_their_snapshots_and_shown_in_the_docs():
    root = Path(__file__).parents[2]
    page = (root / "docs" / "play-now.md").read_text(encoding="utf-8")
    for name, snapshot in RECORD_PICTURES:
        assert snapshot.exists(), snapshot
        assert (root / "assets" / "screenshots" / f"{name}.png").exists(), name
        assert f"](../assets/screenshots/{name}.png)" in page, name


def test_the_readmes_picture_of_an_events_results_is_drawn_from_its_snapshot():
    root = Path(__file__).parents[2]
    name, snapshot = EVENT_PICTURE
    assert snapshot.exists(), snapshot
    assert (root / "assets" / "screenshots" / f"{name}.png").exists(), name
    assert f"](assets/screenshots/{name}.png)" in (root / "README.md").read_text(encoding="utf-8")
