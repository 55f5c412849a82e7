"""Term headings of the Transformers dialect: the name, its abbreviation, and the English name.

English headings read ``masked language modeling (MLM)``. Translated ones come in many
shapes: ``<translation> (<English>)``, the same without the space, ``<translation>
<English> (<ABBR>)``, ``<translation> (<ABBR>)``, or the English name left untranslated.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_TRAILING_PARENS = re.compile(r"^(?P<main>.*?)\s*\((?P<inner>[^()]*)\)\s*$")
#: characters an English name at the end of a translated heading is made of
_TAIL_CHARACTERS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 _./'-")
_INNER_SPLIT = re.compile(r"\s+[-–]\s+|\s*,\s*")


@dataclass(frozen=True, slots=True)
class Heading:
    """What one ``### term`` heading says about its entry."""

    #: the whole heading, as written
    text: str
    #: display name in the file's language
    name: str
    #: short forms found in the heading
    abbreviations: tuple[str, ...]
    #: the English name, when the heading carries one ("" when it doesn't)
    english: str


def looks_like_abbreviation(word: str) -> bool:
    """``MLM``, ``ZeRO``, ``seq2seq``: short, one word, mostly capitals or with a digit."""
    if not word or len(word) > 8 or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9-]*", word):
        return False
    letters = [char for char in word if char.isalpha()]
    capitals = sum(1 for char in letters if char.isupper())
    return any(char.isdigit() for char in word) or (len(letters) > 1 and capitals * 2 >= len(letters))


def is_latin(text: str) -> bool:
    """True when every letter of ``text`` is a Latin one (accents allowed)."""
    return all("LATIN" in unicodedata.name(char, "") for char in text if char.isalpha())


def parse_heading(text: str, *, translated: bool) -> Heading:
    """Split a heading into name, abbreviations and English name."""
    text = " ".join(text.split())
    found = _TRAILING_PARENS.match(text)
    main, inner = (found.group("main").strip(), found.group("inner").strip()) if found else (text, "")
    if not main:  # "(MLM)" alone: nothing but the parenthesis
        main, inner = inner or text, ""
    abbreviations: tuple[str, ...] = ()
    english = ""
    if inner:
        parts = [part for part in _INNER_SPLIT.split(inner) if part]
        shorts = [part for part in parts if looks_like_abbreviation(part)]
        longs = [part for part in parts if not looks_like_abbreviation(part)]
        if shorts and len(shorts) == len(parts):
            abbreviations = tuple(shorts)
        elif translated and all(is_latin(part) for part in parts) and not is_latin(main):
            english = longs[0] if longs else ""
            abbreviations = tuple(shorts)
        elif translated and all(is_latin(part) for part in parts) and " " in inner and not shorts:
            english = inner  # a Latin-script translation with the English name after it
        else:  # a parenthesis that is part of the name
            main = text
    if not translated:
        return Heading(text, main, abbreviations, main)
    if not english and not is_latin(main):
        start = latin_tail_start(main)
        if 0 < start < len(main):
            english = main[start:].strip()
            main = main[:start].strip() or main
    # a Latin-script heading without parenthesis stays without English name: the caller aligns it
    return Heading(text, main, abbreviations, english)


def latin_tail_start(text: str) -> int:
    """Where the Latin words ending ``text`` begin (at a letter); ``len(text)`` when there are none.

    Scanned from the end: a regular expression searching for the tail tried every
    starting point and read a long Latin heading once per character.
    """
    start = len(text)
    while start > 0 and text[start - 1] in _TAIL_CHARACTERS:
        start -= 1
    while start < len(text) and not (text[start].isascii() and text[start].isalpha()):
        start += 1
    return start
