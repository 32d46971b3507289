"""Names that could pass for another, or hold what cannot be seen or
measured: compared by their Unicode skeleton
(UTS #39), refused when they mix scripts as Highly Restrictive does not
allow, hold invisible characters, or characters terminals draw at other
widths than Rich counts; and a room that knows "alice" lets no "аlice" in."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from tui_support import room_with_tables

from crib3.common.lookalikes import DATA, look_alike, mixed_scripts, rebuild, skeleton
from crib3.common.names import check_name
from crib3.room import Room, RoomError

CYRILLIC_ALICE = "\u0430lice"  # а (U+0430) and "lice"
CYRILLIC_SCOPE = "\u0455\u0441\u043e\u0440\u0435"  # ѕсоре, every letter Cyrillic


# --- the skeleton --------------------------------------------------------------


@pytest.mark.parametrize("one, other", [
    ("alice", CYRILLIC_ALICE), ("scope", CYRILLIC_SCOPE), ("alice", "aIice"),
    ("alice", "ALICE"), ("paypal", "\u0440\u0430\u0443\u0440\u0430\u04cf"),
    ("POMA", "\u03a1\u039f\u039c\u0391"),  # Greek capitals
    ("Zoë", "Zoe\u0308"),  # composed and decomposed
    ("bob", "bob\u0358"), ("carol", "carol\u0358"),  # a mark beside a letter
    ("bob", "bo\u0331b"), ("bob", "bo\u1e05"), ("ann", "an\u1e45"),  # a mark on one
    ("ann", "\u1d00\u0274\u0274"),  # ᴀɴɴ, Latin small capitals
    ("bob", "\u042c\u043e\u044c"),  # Ьоь, Cyrillic soft signs for b
    ("anni", "ann\u0131"), ("ɑnn", "ann"),  # dotless i, IPA a
])
def test_names_that_look_alike_are_the_same_by_skeleton(one, other):
    assert look_alike(one, other) and look_alike(other, one)


@pytest.mark.parametrize("one, other", [("alice", "alicia"), ("bob", "rob"), ("Ann", "Anne"),
                                        ("李", "季"), ("ann", "ann\u0131"),
                                        ("राम", "रम")])  # a vowel sign is a letter's own
def test_names_that_differ_are_not_confused(one, other):
    assert not look_alike(one, other)


def test_the_skeleton_follows_uts39_nfd_map_nfd():
    assert skeleton(CYRILLIC_ALICE) == "alice"
    assert skeleton("m") == "rn"  # a prototype of two characters
    assert skeleton("\u00e9") == "e\u0301"  # NFD before and after the mapping
    assert skeleton("a\u3164b") == "ab"  # default-ignorable characters are removed
    assert look_alike("ｆｕｌｌ", "full")  # fullwidth: by NFKC, before the skeleton


def test_the_confusables_table_is_unicodes_and_can_be_rebuilt(tmp_path):
    head = DATA.read_text(encoding="utf-8").splitlines()[:12]
    assert "# Unicode Security Mechanisms for UTS #39" in head
    assert any(line.startswith("# Version: ") for line in head)
    assert (DATA.parent / "LICENSE").read_text().startswith("UNICODE LICENSE V3")
    source = tmp_path / "confusables.txt"
    source.write_text("# confusables.txt\n# Version: 99.0.0\n"
                      "0430 ;\t0061 ;\tMA\t# ( а → a ) CYRILLIC SMALL LETTER A → LATIN\n\n"
                      "006D ;\t0072 006E ;\tMA\t# ( m → rn )\n", encoding="utf-8")
    target = tmp_path / "out.txt"
    assert rebuild(source, target) == 2
    assert target.read_text().splitlines()[-2:] == ["0430 ; 0061", "006D ; 0072 006E"]
    source.write_text("not a table\n")
    with pytest.raises(ValueError):
        rebuild(source, target)


# --- what check_name refuses, in one line --------------------------------------


@pytest.mark.parametrize("name, mixes", [
    (CYRILLIC_ALICE, "Cyrillic and Latin"), ("\u0391lpha", "Greek and Latin"),
    ("bob\u0431", "Latin and Cyrillic"),
])
def test_a_name_that_mixes_scripts_is_refused(name, mixes):
    with pytest.raises(ValueError) as caught:
        check_name(name)
    message = str(caught.value)
    assert message == ("a name is in one script, or Latin with Chinese, Japanese or Korean "
                       f"(this one mixes {mixes})")


@pytest.mark.parametrize("name", ["alice", "Ζωή", "Алиса", "李Lee", "田中 Taro", "ひらがなカナ漢字",
                                  "김 Kim", "Zoë-2", "🃏 Joker", "O'Neil", "陳大文 Bopoㄅㄆ"])
def test_names_in_one_script_or_latin_with_cjk_are_taken(name):
    assert check_name(name) == name
    assert mixed_scripts(name) is None


@pytest.mark.parametrize("name, char, why", [
    ("\u3164", "\\u3164", "which is invisible"),  # HANGUL FILLER: a blank name
    ("ann\u3164", "\\u3164", "which is invisible"),
    ("a\u115fb", "\\u115f", "which is invisible"),
    ("a\u034fb", "\\u034f", "which is invisible"),  # COMBINING GRAPHEME JOINER
    ("ann\ufe0f", "\\ufe0f", "which is invisible"),  # VARIATION SELECTOR-16
    ("ann\U000e0100", "\\U000e0100", "which is invisible"),
    ("ann\u200b", "\\u200b", "which is not"),  # ZERO WIDTH SPACE
    ("👨\u200d👩", "\\u200d", "which is not"),  # ZERO WIDTH JOINER
    ("ann\u2060", "\\u2060", "which is not"),  # WORD JOINER
    ("👍\U0001f3fd", "\\U0001f3fd", "which terminals draw at different widths"),
    ("\U0001f1eb\U0001f1f7", "\\U0001f1eb", "which terminals draw at different widths"),
])
def test_invisible_and_unsteady_characters_are_refused_in_one_line(name, char, why):
    with pytest.raises(ValueError) as caught:
        check_name(name)
    message = str(caught.value)
    assert message == f"a name is 1 to 20 printable characters (this one has {char}, {why})"


def test_a_name_is_kept_composed_and_counts_its_cells_as_drawn():
    assert check_name("Zoe\u0308") == "Zo\u00eb"
    for name in ("🃏 Joker", "李Lee", "Zoë", "田中 Taro"):
        assert cell_len(check_name(name)) == sum(cell_len(c) for c in name)


# --- the room compares names by skeleton ---------------------------------------


def test_the_room_lets_no_lookalike_of_a_known_name_in(tmp_path):
    room = Room(tmp_path)
    kicked: list[str] = []
    room.sign_in("alice", "key-a", kicked.append)
    room.sign_in("scope", "key-s", kicked.append)
    with pytest.raises(RoomError, match="mixes Cyrillic and Latin"):
        room.sign_in(CYRILLIC_ALICE, "key-m", kicked.append)
    for name, like in (("aIice", "alice"), (CYRILLIC_SCOPE, "scope"), ("ALlCE", "alice")):
        with pytest.raises(RoomError) as caught:
            room.sign_in(name, "key-m", kicked.append)
        assert str(caught.value) == f"{name} looks like {like}, a name here already: choose another"
    # Not even under the same key: the room would show two names alike.
    with pytest.raises(RoomError, match="looks like alice"):
        room.sign_in("aIice", "key-a", kicked.append)
    # The same name, in any case, is the same person's: signing in again takes over.
    room.sign_in("Alice", "key-a", kicked.append)
    assert kicked == ["you signed in again from elsewhere"]
    assert sorted(p.name for p in room.people.values()) == ["Alice", "scope"]


async def test_a_seated_name_keeps_its_lookalikes_out_while_its_person_is_away(tmp_path):
    room = room_with_tables(tmp_path)  # Bob's seat waits for him at Ann's table
    assert "bob" not in room.people
    with pytest.raises(RoomError, match="mixes Latin and Cyrillic"):
        room.sign_in("B\u043eb", "key-m", lambda why: None)  # a Cyrillic о
    with pytest.raises(RoomError, match="^\u0412\u041e\u0412 looks like Bob, a name here"):
        room.sign_in("\u0412\u041e\u0412", None, lambda why: None)  # ВОВ, all Cyrillic
    assert sorted(room.people) == ["ann", "cat", "dan"]


# --- chat: what terminals draw at other widths is replaced --------------------


@pytest.mark.parametrize("typed, kept", [
    ("👍🏽 👍🏽 👍🏽 👍🏽 👍🏽 end", "👍 👍 👍 👍 👍 end"),  # skin-tone modifiers go
    ("👨\u200d👩\u200d👧 family", "👨👩👧 family"),  # a ZWJ sequence: its emoji, side by side
    ("\u2764\ufe0f you", "\u2764 you"),  # a variation selector goes
    ("🇫🇷 vs 🇩🇪", "FR vs DE"),  # a flag's regional indicators: its letters
    ("ok" + " " * 72 + "alice: I resign", "ok alice: I resign"),  # a run of spaces: one
    ("a\u3164b", "ab"),  # invisible: gone
    ("  gg  ", "gg"),
])
def test_a_chat_line_keeps_only_what_every_terminal_draws_alike(typed, kept):
    from crib3.room.chat import checked_text

    assert checked_text(typed) == kept


@pytest.mark.parametrize("typed, why", [
    ("\u3164", "say something first"), ("\U0001f3fd", "say something first"),
    ("evil\u202eoops", "a chat line is printable characters only"),
    ("tab\there", "a chat line is printable characters only"),
])
def test_a_chat_line_of_nothing_visible_or_with_controls_is_refused(typed, why):
    from crib3.room.chat import checked_text

    with pytest.raises(RoomError) as caught:
        checked_text(typed)
    assert str(caught.value) == why


def test_scripts_that_meet_two_by_two_but_not_all_three_are_mixed(monkeypatch):
    """Characters used in several scripts each (Script_Extensions) can meet
    pairwise and still share none: the name is mixed, and is said to be."""
    from crib3.common import lookalikes

    fake = {"x": frozenset({"Latn", "Grek"}), "y": frozenset({"Latn", "Cyrl"}),
            "z": frozenset({"Grek", "Cyrl"})}
    monkeypatch.setattr(lookalikes, "scripts_of", fake.get)
    assert mixed_scripts("xyz") == ("Latin", "Cyrillic")
    assert mixed_scripts("xy") is None


# --- marks, small capitals and blanks, in the room -----------------------------


def test_a_marked_or_small_capital_name_is_refused_beside_the_plain_one(tmp_path):
    room = Room(tmp_path)
    for name in ("bob", "carol", "ann"):
        room.sign_in(name, f"key-{name}", lambda why: None)
    for name, like in (("bob\u0358", "bob"), ("carol\u0358", "carol"), ("bo\u0331b", "bob"),
                       ("bo\u1e05", "bob"), ("an\u1e45", "ann"), ("\u1d00\u0274\u0274", "ann"),
                       ("\u042c\u043e\u044c", "bob")):
        with pytest.raises(RoomError) as caught:
            room.sign_in(name, "key-m", lambda why: None)
        assert str(caught.value) == f"{name} looks like {like}, a name here already: choose another"
        assert room.name_refused(name) == str(caught.value)
    assert sorted(room.people) == ["ann", "bob", "carol"]


@pytest.mark.parametrize("name, why", [
    ("a" + "\u0301" * 19, "at most one accent or mark on a letter"),
    ("bo\u0358\u0331b", "at most one accent or mark on a letter"),  # two marks left on the o
    ("\u2800" * 5, "shows nothing"), ("\u2800", "shows nothing"),  # braille blank
    ("\u2800 \u3000", "shows nothing"),
])
def test_a_name_under_a_stack_of_marks_or_of_blanks_is_refused(tmp_path, name, why):
    with pytest.raises(ValueError, match=why):
        check_name(name)
    with pytest.raises(RoomError, match=why):
        Room(tmp_path).sign_in(name, "key-m", lambda why: None)


@pytest.mark.parametrize("name", ["Nguyễn", "Zoë", "José", "हैं", "🃏🃏", "R2", "ᎠᎡᎢ", "[/]"])
def test_names_with_one_mark_a_letter_or_only_symbols_are_taken(tmp_path, name):
    """(And "[/]": a name shows something, punctuation is something.)"""
    assert Room(tmp_path).sign_in(name, "key-m", lambda why: None).name == name

