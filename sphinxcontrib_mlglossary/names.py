"""What a term name may hold, one rule for every format (TOML data files, imported Markdown).

A name is matched by readers typing it and shown as a link, a heading and an index
entry, so what can't be seen must not be part of it: invisible format characters
(zero-width space, word joiner, byte order mark, soft hyphen), direction marks
(U+200E, U+200F, U+061C) and bidirectional embeddings, overrides and isolates are
removed, each removal reported by the caller. The two joiners (U+200C, U+200D) stay
between letters of scripts that need them (Arabic, Persian, the Indic scripts); between
Latin, Greek or Cyrillic letters they only hide a difference, and go too.

Two names that look alike without being the same (a Cyrillic "а" in "аttention mask")
are found by comparing skeletons, after Unicode TR39: letters of Cyrillic and Greek
that are drawn like Latin ones are mapped to those, then the result is compared
case-insensitively. Names in other scripts, or mixing scripts in separate words ("GPT-2",
an Arabic name with a Latin abbreviation), have nothing to map and never match another.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import NamedTuple

_JOINERS = frozenset("\u200c\u200d")
#: invisible characters outside Unicode's format category: combining grapheme joiner,
#: Hangul fillers, Khmer inherent vowels, braille blank
_INVISIBLE = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u3164\uffa0\u2800")
#: text with nothing but word characters, spaces and common punctuation: nothing to remove
_PLAIN = re.compile(r"[\w\s\-'.,()/&+:;!?\u2019]*")
#: scripts whose letters never need a joiner between them
_NO_JOINING = ("LATIN", "GREEK", "CYRILLIC")


def _script_letter(char: str) -> bool:
    """A letter or mark of a script that uses joiners (not Latin, Greek, Cyrillic; not a digit or space)."""
    if not char or unicodedata.category(char)[0] not in "LM":
        return False
    return not unicodedata.name(char, "").startswith(_NO_JOINING)


def _hidden(text: str, index: int) -> bool:
    char = text[index]
    if char in _JOINERS:
        before = text[index - 1] if index else ""
        after = text[index + 1] if index + 1 < len(text) else ""
        return not (_script_letter(before) and _script_letter(after))
    return char in _INVISIBLE or unicodedata.category(char) == "Cf"


def describe(char: str) -> str:
    """``U+200F (RIGHT-TO-LEFT MARK)``: how a removed character is named in a warning."""
    return f"U+{ord(char):04X} ({unicodedata.name(char, 'unnamed character')})"


class CleanName(NamedTuple):
    """A name as it is kept, and the invisible characters taken out of it."""

    text: str
    removed: tuple[str, ...]


def clean_name(text: str) -> CleanName:
    """The name as it is matched: composed form, single spaces, nothing invisible."""
    composed = unicodedata.normalize("NFC", text)
    if _PLAIN.fullmatch(composed):  # the common case, checked in C
        return CleanName(" ".join(composed.split()), ())
    hidden = [_hidden(composed, i) for i in range(len(composed))]
    removed = tuple(dict.fromkeys(char for char, drop in zip(composed, hidden, strict=True) if drop))
    kept = "".join(char for char, drop in zip(composed, hidden, strict=True) if not drop)
    return CleanName(unicodedata.normalize("NFC", " ".join(kept.split())), removed)


def removal_message(removed: Sequence[str], name: str) -> str:
    """What a warning says about characters taken out of ``name``."""
    return (
        f"{', '.join(map(describe, removed))} removed from the name {name!r}: "
        "invisible and direction-control characters can make a name look like another "
        "(the page's direction is set for you; remove them from the file)"
    )


# -- headings ------------------------------------------------------------------------------

#: "name (short form)", as an entry is shown on the glossary page and in cards; the space
#: before the parenthesis is optional (translated headings are written both ways)
_HEADING = re.compile(r"(?P<name>\S.*?)\s*\((?P<short>[^()]*[^()\s][^()]*)\)")


def heading_parts(written: str) -> tuple[str, str] | None:
    """``("masked language modeling", "MLM")`` for ``masked language modeling (MLM)``, else None.

    A reader cites what the page shows; a citation written like a heading means its entry
    when both parts name the same one (the caller checks that, with its own lookup).
    """
    found = _HEADING.fullmatch(" ".join(written.split()))
    if found is None:
        return None
    return found.group("name"), found.group("short").strip()


# -- look-alikes ---------------------------------------------------------------------------


@functools.cache
def _latin_look_alikes() -> dict[int, str]:
    """Letters of other scripts drawn like a Latin letter, from Unicode's confusables data.

    The data (TR39's ``confusables.txt``) comes with the ``confusable-homoglyphs``
    package; only letters and digits that look like an ASCII letter are kept, each mapped
    to that letter (of the same case when the data offers one). Loaded once, on the
    first name that isn't plain ASCII.
    """
    from confusable_homoglyphs.confusables import confusables_data

    table: dict[int, str] = {}
    for char, homoglyphs in confusables_data.items():
        if len(char) != 1 or char.isascii() or unicodedata.category(char)[0] not in "LN":
            continue
        latin = [
            glyph["c"] for glyph in homoglyphs if len(glyph["c"]) == 1 and glyph["c"].isascii() and glyph["c"].isalpha()
        ]
        if latin:
            same_case = [letter for letter in latin if letter.isupper() == char.isupper()]
            table[ord(char)] = (same_case or latin)[0]
    return table


def _to_latin(text: str) -> str:
    return text if text.isascii() else text.translate(_latin_look_alikes())


def skeleton(name: str) -> str:
    """A key two names share when they look alike, after Unicode TR39.

    Compatibility forms are folded first (NFKC: fullwidth and mathematical letters,
    ligatures), then letters drawn like Latin ones (Cyrillic "а", Greek "ο", dotless "ı")
    are mapped to those, and the result is case-folded.
    """
    folded = unicodedata.normalize("NFKC", name)
    mapped = _to_latin(unicodedata.normalize("NFD", folded)).casefold()
    return " ".join(unicodedata.normalize("NFC", _to_latin(mapped)).split())


class LookAlike(NamedTuple):
    """Two names of a glossary that look alike: the later one and the one it imitates."""

    name: str
    owner: str
    other_name: str
    other_owner: str


def look_alikes(named: Iterable[tuple[str, str]]) -> list[LookAlike]:
    """Pairs of (name, owner) whose names look alike but differ (owners: entry ids, say)."""
    seen: dict[str, tuple[str, str]] = {}
    found: list[LookAlike] = []
    for name, owner in named:
        key = skeleton(name)
        first = seen.setdefault(key, (name, owner))
        if first[0] != name and first[0].casefold() != name.casefold():
            found.append(LookAlike(name, owner, *first))
    return found


def look_alike_message(pair: LookAlike, other_line: int = 0) -> str:
    """What a warning says about two names that look alike (the letters that differ named)."""
    letters = sorted({char for char in pair.name + pair.other_name if skeleton(char) != char.casefold()})
    spelt = f" ({', '.join(map(describe, letters))})" if letters else ""
    where = f" (line {other_line})" if other_line else ""
    return (
        f"the name {pair.name!r} looks like {pair.other_name!r} of entry {pair.other_owner!r}{where} "
        f"but is spelt with other letters{spelt}; readers can't tell them apart, so rename one of them"
    )


#: a line of Sphinx's ``objects.inv``: name, ``domain:role``, priority, URI, display name
#: (names may hold spaces, so readers take the shortest name the rest of the line fits)
_INVENTORY_LINE = re.compile(r"(.+?)\s+(\S+)\s+(-?\d+)\s+?(\S*)\s+(.*)")


def inventory_problem(name: str) -> str:
    """Why ``name`` would be read from ``objects.inv`` as another entry ("" when it would not).

    Terms are listed there by name, case kept and lower-cased, and readers take the
    shortest name the rest of the line fits. A name running like "``torch.Tensor
    py:class 1 //evil.example/x``" reads back as ``torch.Tensor``, a Python class with an
    address of its own that other projects' intersphinx would follow. A name that reads
    back with a type lacking a domain ("cuantización a 4 bits": type "a") is skipped by
    readers, as Sphinx does with any malformed line, so it is kept: it can't be cited
    through intersphinx, and misleads no one.
    """
    for form in dict.fromkeys((name, name.lower())):
        found = _INVENTORY_LINE.match(f"{form} std:term -1 glossary.html#term-x -")
        if found is not None and found.group(1) != form and ":" in found.group(2):
            return (
                f"other projects would read it from objects.inv as the {found.group(2)} entry "
                f"{found.group(1)!r} pointing at {found.group(4)!r}"
            )
    return ""
