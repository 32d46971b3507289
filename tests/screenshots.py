"""The README's screenshots (assets/screenshots/*.png), and the lobby's
record views' in docs/play-now.md, drawn from the screens' SVG snapshots
with every character in its own cell.

Textual's SVG gives each run of text one `x` and a `textLength`; a viewer
(rsvg-convert, a browser) spreads the run's glyphs over that length by the
advances of whatever font it found. Box-drawing and suit glyphs are not a
cell wide in most fonts, so within a long run they drift: the show's phrase
sat a column off the lines above it, a round box's top-right corner a cell
off its side (issue 12). `pin_glyphs` draws every character on its own, at
its cell, so the picture is the terminal's grid whatever the font.

    .venv/bin/python tests/screenshots.py      # after --snapshot-update

(rsvg-convert, from librsvg2-bin, makes the PNGs.)
"""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

from rich.cells import cell_len

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "screens" / "__snapshots__" / "test_tui_snapshots"
SCREENSHOTS = ROOT / "assets" / "screenshots"
# The README's PNGs: (name, the snapshot it is drawn from).
PICTURES = [(f"{name}-{size}", f"test_screen[{screen}-{size}]")
            for name, screen in (("pegging", "pegging"), ("show", "show"), ("result", "game-over"))
            for size in ("80x24", "200x60")]

# The pictures of the lobby's record views in docs/play-now.md: (name, the
# snapshot it is drawn from).
RECORDS = ROOT / "tests" / "room" / "__snapshots__" / "test_record_views"
RECORD_PICTURES = [
    (f"{name}-80x24", RECORDS / f"test_record_screen[{screen}].svg")
    for name, screen in (("players", "board-top-to_the_top_of_the_board"),
                         ("profile", "profile-to_my_profile"),
                         ("my-games", "my-games-to_my_games"))]

# The README's picture of a duplicate event's results: (name, its snapshot).
EVENT_PICTURE = ("duplicate-results-80x24", ROOT / "tests" / "screens" / "__snapshots__"
                 / "test_duplicate_screens" / "test_the_events_results_screen.svg")

_RUN = re.compile(r'<text (?P<before>[^>]*?)x="(?P<x>[\d.]+)"(?P<middle>[^>]*?)'
                  r' textLength="(?P<length>[\d.]+)"(?P<after>[^>]*)>(?P<text>[^<]*)</text>')


def _pinned(run: re.Match[str]) -> str:
    """One run of text as one `<text>` a character (rsvg-convert reads only
    the first of several `x`), each at its cell; spaces are left out."""
    text = html.unescape(run["text"])
    cells = cell_len(text)
    if not text.strip() or cells == 0:
        return run[0]
    width = float(run["length"]) / cells  # one cell
    pieces: list[str] = []
    column = 0
    for char in text:
        if not char.isspace():
            x = float(run["x"]) + column * width
            pieces.append(f'<text {run["before"]}x="{x:g}"{run["middle"]}{run["after"]}>'
                          f"{html.escape(char, quote=False)}</text>")
        column += cell_len(char)
    return "".join(pieces)


def pin_glyphs(svg: str) -> str:
    """`svg` (Textual's) with each character placed at its cell, and spaces
    kept as drawn (`xml:space`, which rsvg-convert needs)."""
    if 'xml:space="preserve"' not in svg:
        svg = svg.replace("<svg ", '<svg xml:space="preserve" ', 1)
    return _RUN.sub(_pinned, svg)


def png(svg: str, target: Path) -> None:
    pinned = target.with_suffix(".pinned.svg")
    pinned.write_text(pin_glyphs(svg), encoding="utf-8")
    try:
        subprocess.run(["rsvg-convert", str(pinned), "-o", str(target)], check=True, timeout=60)
    finally:
        pinned.unlink()


def main() -> int:
    for name, snapshot in PICTURES:
        png((SNAPSHOTS / f"{snapshot}.svg").read_text(encoding="utf-8"),
            SCREENSHOTS / f"{name}.png")
        print(SCREENSHOTS / f"{name}.png")
    for name, path in [*RECORD_PICTURES, EVENT_PICTURE]:
        png(path.read_text(encoding="utf-8"), SCREENSHOTS / f"{name}.png")
        print(SCREENSHOTS / f"{name}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
