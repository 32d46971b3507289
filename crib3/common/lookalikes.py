"""Names that look alike, and characters a name cannot hold safely.

Unicode's security mechanisms (UTS #39) give the two tools used here:

- The *skeleton* of a string: NFD, default-ignorable characters removed,
  each character replaced by its prototype from Unicode's confusables
  table, NFD again. Two strings that look alike (Latin "alice" and "аlice"
  with a Cyrillic а, "aIice" with a capital I) have the same skeleton. The
  card room refuses a name whose skeleton is that of a name it knows.
- Before the skeleton, letters Unicode's table leaves apart but a screen
  does not are folded to their plain letter (`FOLDS`: Latin small
  capitals "ᴀɴɴ", IPA letters, dotless "ı"), and the names are compared
  with their combining marks removed as well ("bo̱b", "boḅ" and "bob"
  with a mark beside its o draw as "bob" at a glance).
- The *restriction level* "Highly Restrictive": a name is in one script, or
  Latin with Han and Hiragana/Katakana (Japanese), Han and Bopomofo, or Han
  and Hangul (Korean). Common and Inherited characters (digits, punctuation,
  most symbols and emoji, combining accents) go with any script.

The confusables table ships with crib3 (`unicode/confusables.txt`, reduced
to its mappings, Unicode's header kept; its licence is `unicode/LICENSE`,
the Unicode License v3). To take a newer one, download Unicode's latest
and rebuild the reduced file:

    curl -O https://www.unicode.org/Public/security/latest/confusables.txt
    python -m crib3.common.lookalikes confusables.txt

Character properties (Script_Extensions, Default_Ignorable_Code_Point,
Emoji_Modifier, Regional_Indicator, and every general category: what is
printable, what is a mark) come from the `regex` package, which follows the
current Unicode version whatever the Python: Python's own `unicodedata`
and `str.isprintable` are the Unicode of its release (14 on 3.11, 15 on
3.12), so a name or a chat line with a newer emoji was refused on one
Python and taken on the next. Only normalization is Python's (a character
its table does not know yet is left as it is). Nothing here is imported until a name
is checked (`crib3 --help` loads none of it).
"""

from __future__ import annotations

import sys
import unicodedata
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).with_name("unicode") / "confusables.txt"

# Every script in Unicode 17, by its ISO 15924 code (Script_Extensions values).
# A code the installed `regex` does not know yet is skipped.
SCRIPTS = (
    "Latn Bopo Grek Copt Cyrl Armn Hebr Arab Syrc Thaa Nkoo Samr Mand Deva Beng Guru Gujr "
    "Orya Taml Telu Knda Mlym Sinh Thai Laoo Tibt Mymr Geor Hang Ethi Cher Cans Ogam Runr "
    "Tglg Hano Buhd Tagb Khmr Mong Limb Tale Talu Bugi Lana Bali Sund Batk Lepc Olck Brai "
    "Glag Tfng Hani Hira Kana Yiii Lisu Vaii Bamu Sylo Phag Saur Kali Rjng Java Cham Tavt "
    "Mtei Linb Lyci Cari Ital Goth Perm Ugar Xpeo Dsrt Shaw Osma Osge Elba Aghb Vith Todr "
    "Lina Cprt Armi Palm Nbat Hatr Phnx Lydi Sidt Mero Merc Khar Sarb Narb Mani Avst Prti "
    "Phli Phlp Orkh Hung Rohg Gara Yezi Sogo Sogd Ougr Chrs Elym Brah Kthi Sora Cakm Mahj "
    "Shrd Khoj Mult Sind Gran Tutg Newa Tirh Sidd Modi Takr Ahom Dogr Wara Diak Nand Zanb "
    "Soyo Pauc Sunu Bhks Marc Gonm Gong Tols Maka Kawi Xsux Pcun Cpmn Egyp Hluw Gukh Mroo "
    "Tnsa Bass Hmng Krai Medf Berf Miao Tang Nshu Kits Jurc Dupl Sgnw Hmnp Toto Wcho Nagm "
    "Onao Tayo Mend Adlm Seal"
).split()

# Highly Restrictive: besides one script, Latin may go with these (Japanese,
# Chinese with Bopomofo, Korean).
WITH_LATIN = (
    frozenset({"Latn", "Hani", "Hira", "Kana"}),
    frozenset({"Latn", "Hani", "Bopo"}),
    frozenset({"Latn", "Hani", "Hang"}),
)

SCRIPT_NAMES = {
    "Latn": "Latin", "Cyrl": "Cyrillic", "Grek": "Greek", "Arab": "Arabic",
    "Hebr": "Hebrew", "Armn": "Armenian", "Geor": "Georgian", "Hani": "Han",
    "Hira": "Hiragana", "Kana": "Katakana", "Hang": "Hangul", "Bopo": "Bopomofo",
    "Cher": "Cherokee", "Copt": "Coptic", "Deva": "Devanagari", "Thai": "Thai",
    "Tfng": "Tifinagh", "Lisu": "Lisu", "Cans": "Canadian Aboriginal",
}


# Letters that pass for a plain Latin letter on a screen, though Unicode's
# confusables table keeps them apart: Latin small capitals, IPA letters, the
# dotless i and j, and the few the table maps to another such letter (Cyrillic
# ь to ƅ). Folded before the skeleton, so "ᴀɴɴ" and "ann" are one name.
FOLDS = {
    # Latin small capitals
    "\u1d00": "a", "\u0299": "b", "\u1d04": "c", "\u1d05": "d", "\u1d07": "e",
    "\ua730": "f", "\u0262": "g", "\u029c": "h", "\u026a": "i", "\u1d0a": "j",
    "\u1d0b": "k", "\u029f": "l", "\u1d0d": "m", "\u0274": "n", "\u1d0f": "o",
    "\u1d18": "p", "\ua7af": "q", "\u0280": "r", "\ua731": "s", "\u1d1b": "t",
    "\u1d1c": "u", "\u1d20": "v", "\u1d21": "w", "\u028f": "y", "\u1d22": "z",
    # IPA and other Latin letters drawn as a plain one
    "\u0251": "a", "\u0250": "a", "\u0253": "b", "\u0185": "b", "\u0184": "b",
    "\u0255": "c", "\u0188": "c", "\u0256": "d", "\u0257": "d", "\u0259": "e",
    "\u025b": "e", "\u0261": "g", "\u0266": "h", "\u0268": "i", "\u0269": "i",
    "\u029d": "j", "\u0199": "k", "\u026b": "l", "\u026c": "l", "\u026d": "l",
    "\u0271": "m", "\u0272": "n", "\u0273": "n", "\u0275": "o", "\u027d": "r",
    "\u027e": "r", "\u027c": "r", "\u0282": "s", "\u0288": "t", "\u0289": "u",
    "\u028b": "v", "\u0290": "z", "\u0291": "z",
    # dotless
    "\u0131": "i", "\u0237": "j",
}


def _regex() -> Any:
    # here: only checking a name needs it
    import regex  # type: ignore[import-untyped]  # regex ships no type stubs

    return regex


@cache
def _patterns() -> dict[str, Any]:
    """A pattern for each property used here (and each script's)."""
    regex = _regex()
    found: dict[str, Any] = {}
    for code in SCRIPTS:
        try:
            found[code] = regex.compile(rf"\p{{scx={code}}}")
        except regex.error:  # a script newer than the installed regex
            continue
    found["any"] = regex.compile(r"[\p{scx=Zyyy}\p{scx=Zinh}]")
    found["inherited"] = regex.compile(r"\p{sc=Zinh}")
    found["ignorable"] = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    found["modifier"] = regex.compile(r"\p{Emoji_Modifier}")
    found["indicator"] = regex.compile(r"\p{Regional_Indicator}")
    # str.isprintable's rule (Other and Separator, but the space), on
    # regex's Unicode rather than the running Python's.
    found["unprintable"] = regex.compile(r"(?!\x20)[\p{C}\p{Z}]")
    found["mark"] = regex.compile(r"[\p{Mn}\p{Me}]")
    found["format"] = regex.compile(r"\p{Cf}")
    return found


def printable(text: str) -> bool:
    """`str.isprintable`, the same on every Python (see the module's
    docstring); ASCII is asked of Python, which agrees on it."""
    if text.isascii():
        return text.isprintable()
    return _patterns()["unprintable"].search(text) is None


def draws_nothing_alone(char: str) -> bool:
    """A mark (nonspacing or enclosing, of any script) or a format
    character (Cf): nothing on the screen by itself."""
    patterns = _patterns()
    return bool(patterns["mark"].match(char) or patterns["format"].match(char))


def is_ignorable(char: str) -> bool:
    """A default-ignorable character: drawn as nothing (U+3164 HANGUL
    FILLER, U+200B, variation selectors, joiners, ...)."""
    return bool(_patterns()["ignorable"].match(char))


def is_unsteady(char: str) -> bool:
    """A character terminals draw at different widths depending on what is
    beside it: emoji skin-tone modifiers (joined to the emoji before them,
    or not) and regional indicators (paired into a flag, or not). Rich
    counts each as the cells it takes alone."""
    patterns = _patterns()
    return bool(patterns["modifier"].match(char) or patterns["indicator"].match(char))


@lru_cache(maxsize=4096)
def scripts_of(char: str) -> frozenset[str] | None:
    """The scripts `char` is used in (its Script_Extensions), or None for
    a Common or Inherited character, which goes with any script. A
    character of no known script is its own ("Zzzz")."""
    patterns = _patterns()
    if patterns["any"].match(char):
        return None
    found = frozenset(code for code in SCRIPTS if code in patterns
                      and patterns[code].match(char))
    return found or frozenset({"Zzzz"})


def mixed_scripts(text: str) -> tuple[str, str] | None:
    """None if `text` is Highly Restrictive (see the module's docstring);
    else two scripts it mixes, by name, to say so."""
    sets = [s for s in map(scripts_of, text) if s is not None]
    if not sets:
        return None
    common = frozenset.intersection(*sets)
    if common or any(all(s & allowed for s in sets) for allowed in WITH_LATIN):
        return None
    running = sets[0]
    for scripts in sets[1:]:  # where the scripts in common run out: those two
        if not running & scripts:
            return _script_name(running), _script_name(scripts)
        running &= scripts
    raise AssertionError("unreachable: the scripts in common ran out somewhere")


def _script_name(scripts: frozenset[str]) -> str:
    code = sorted(scripts)[0]
    return SCRIPT_NAMES.get(code, code)


@lru_cache(maxsize=1)
def prototypes() -> dict[str, str]:
    """Unicode's confusables table: each character's prototype."""
    table: dict[str, str] = {}
    for line in DATA.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0]
        if not line.strip():
            continue
        source, target = line.split(";")[:2]
        table[chr(int(source, 16))] = "".join(chr(int(c, 16)) for c in target.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton of `text`: NFD, default-ignorables removed, each
    character mapped to its prototype, NFD again."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(c, c) for c in decomposed if not is_ignorable(c))
    return unicodedata.normalize("NFD", mapped)


def is_mark(char: str) -> bool:
    """A combining mark of no script of its own (an accent, a dot below:
    U+0300 to U+036F and the like), which goes on any letter."""
    patterns = _patterns()
    return bool(patterns["mark"].match(char) and patterns["inherited"].match(char))


def plain_letters(text: str) -> str:
    """`text` with its combining marks (`is_mark`) removed and each letter
    of `FOLDS` folded to its plain one: what it looks like at a glance."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(FOLDS.get(c, c) for c in decomposed if not is_mark(c))


@lru_cache(maxsize=4096)
def name_keys(name: str) -> frozenset[str]:
    """What two names are compared by: the skeletons of the name as
    written (an "I" passing for an "l"), case-folded ("ALICE" is "alice")
    and in capitals ("ALlCE" is "ALICE"), after NFKC (a fullwidth "ａ" is
    "a"); and the same of its `plain_letters` ("ᴀɴɴ" and "anṅ" are "ann")."""
    plain = unicodedata.normalize("NFKC", name)
    return frozenset({skeleton(name), skeleton(plain.casefold()), skeleton(plain.upper()),
                      _bare(plain.casefold()), _bare(plain.upper())})


def _bare(text: str) -> str:
    """The skeleton of `text`'s `plain_letters`, folded again after the
    prototypes (the table maps Cyrillic ь to ƅ, which `FOLDS` makes b)."""
    return skeleton(plain_letters(skeleton(plain_letters(text))))


def look_alike(one: str, other: str) -> bool:
    """Whether two names could be taken for each other on a screen."""
    return bool(name_keys(one) & name_keys(other))


def rebuild(source: Path, target: Path = DATA) -> int:
    """Write `target` from Unicode's confusables.txt at `source`: its
    header, then one "SOURCE ; TARGET" line a mapping. Returns how many."""
    header: list[str] = []
    mappings: list[str] = []
    for line in source.read_text(encoding="utf-8-sig").splitlines():
        if line.startswith("#") and not mappings:
            header.append(line)
            continue
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        fields = [f.strip() for f in data.split(";")]
        if len(fields) < 3 or fields[2] != "MA":
            raise ValueError(f"not a confusables.txt line: {line!r}")
        mappings.append(f"{fields[0]} ; {fields[1]}")
    if not mappings:
        raise ValueError(f"{source} holds no mappings")
    header.append("# Reduced by `python -m crib3.common.lookalikes`: the mappings only.")
    target.write_text("\n".join(header + mappings) + "\n", encoding="utf-8")
    prototypes.cache_clear()
    return len(mappings)


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m crib3.common.lookalikes CONFUSABLES.TXT", file=sys.stderr)
        return 2
    try:
        count = rebuild(Path(argv[0]))
    except (OSError, ValueError) as exc:
        print(f"lookalikes: {exc}", file=sys.stderr)
        return 1
    print(f"{DATA}: {count} mappings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
