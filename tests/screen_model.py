"""A minimal terminal: enough of xterm to read Textual's screens as a
person's client would show them (the characters, not the colours), fed
the bytes a server sent, however the network cut them. The load
benchmark's clients read their screens with it, and the SSH tests read a
person's footer (what Enter does now) with it."""

from __future__ import annotations

import codecs
import re

from rich.cells import cell_len, get_character_cell_size

# A cursor move (CSI row;col H), the one escape whose place matters here.
_MOVE = re.compile(r"\x1b\[([0-9;?<>=]*)[ -/]*H")
# Every other escape: the rest of CSI (colours, modes), OSC, and the
# two-byte ones (not `[` or `]`: those open a CSI or an OSC).
_OTHER = re.compile(r"\x1b\[[0-9;?<>=]*[ -/]*[@-GI-~]"  # CSI, but H
                    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
                    r"|\x1b[ -/]*[0-Z\\^-~]")  # two-byte escapes
_ANY = re.compile(f"{_MOVE.pattern}|{_OTHER.pattern}")


class ScreenModel:
    """The characters of an 80x24 screen as the server drew them: cursor
    positioning and text; colours, modes and the rest are skipped.

    Cheap, because the load benchmark's clients share the machine with
    the server they measure."""

    def __init__(self, width: int = 80, height: int = 24) -> None:
        self.width, self.height = width, height
        self.rows = [[" "] * width for _ in range(height)]
        self.x = self.y = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._held = ""  # an escape sequence cut in two by the network

    def feed(self, data: bytes) -> None:
        text = self._held + self._decoder.decode(data)
        self._held = ""
        last = text.rfind("\x1b")
        if last >= 0 and len(text) - last < 256 and not _ANY.match(text, last):
            # (the rest of it comes with the next bytes; a lone Escape
            # that never completes is dropped as text is put)
            text, self._held = text[:last], text[last:]
        parts = _MOVE.split(_OTHER.sub("", text))
        self._put(parts[0])
        for at in range(1, len(parts), 2):
            row, col, *_ = [int(p) if p.isdigit() else 1
                            for p in parts[at].split(";")] + [1, 1]
            self.y = min(max(row, 1), self.height) - 1
            self.x = min(max(col, 1), self.width) - 1
            self._put(parts[at + 1])

    def _put(self, text: str) -> None:
        for line_no, line in enumerate(text.split("\n")):
            if line_no:
                self.y = min(self.y + 1, self.height - 1)
            line = "".join(ch for ch in line if ch >= " ") if not line.isprintable() else line
            if not line:
                continue
            row = self.rows[self.y]
            if cell_len(line) == len(line):  # the usual case: one cell a character
                end = min(self.x + len(line), self.width)
                if end > self.x:
                    row[self.x:end] = line[:end - self.x]
                self.x += len(line)
                continue
            for ch in line:
                width = get_character_cell_size(ch)
                if width and self.x < self.width:
                    row[self.x] = ch
                    if width == 2 and self.x + 1 < self.width:
                        row[self.x + 1] = ""
                self.x += width

    def text(self) -> str:
        return "\n".join("".join(row) for row in self.rows)

    def footer(self) -> str:
        return "".join(self.rows[-1])
