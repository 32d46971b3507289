"""One Unicode for names and chat, whatever the Python.

Python's `unicodedata` and `str.isprintable` are the Unicode of the
Python's release (14 on 3.11, 15 on 3.12): a name with an emoji of
Unicode 15 was refused on 3.11 and taken on 3.12. The name and chat rules
ask the `regex` package instead, whose Unicode is the same on every Python.
"""

import ast
from pathlib import Path

import pytest

import crib3
from crib3.common.names import check_name, shown_name
from crib3.room.chat import checked_text

SHAKING_FACE = "\U0001fae8"  # Unicode 15 (2022): unassigned in Python 3.11's table
PACKAGE = Path(crib3.__file__).parent
RULES = [PACKAGE / "common" / "names.py", PACKAGE / "common" / "lookalikes.py",
         PACKAGE / "room" / "chat.py"]


def test_a_name_with_a_newer_emoji_is_a_name_on_every_python():
    assert check_name(f"Ann {SHAKING_FACE}") == f"Ann {SHAKING_FACE}"
    assert shown_name(f"Ann {SHAKING_FACE}") == f"Ann {SHAKING_FACE}"


def test_a_chat_line_with_a_newer_emoji_is_said():
    assert checked_text(f"gg {SHAKING_FACE}") == f"gg {SHAKING_FACE}"


@pytest.mark.parametrize("text", ["\x1b[31m", "a\u0085b", "\ue000", "\U000e0001x"])
def test_what_is_not_printable_is_still_refused(text):
    with pytest.raises(ValueError):
        check_name(text)
    assert "\\" in shown_name(text)


@pytest.mark.parametrize("path", RULES, ids=lambda p: p.name)
def test_the_rules_ask_no_property_of_the_running_pythons_unicode(path):
    """Normalization is Python's (a character it does not know is left as
    it is); a category or printability is regex's, but for ASCII, on which
    every Python agrees."""
    tree = ast.parse(path.read_text())
    lines = path.read_text().splitlines()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            assert node.func.attr not in ("category", "east_asian_width", "bidirectional"), \
                f"{path.name}:{node.lineno} asks Python's Unicode"
            if node.func.attr == "isprintable":
                near = " ".join(lines[node.lineno - 2:node.lineno])
                assert "isascii()" in near, f"{path.name}:{node.lineno} asks Python's Unicode"
