"""Order entries and pick their letter heading the way readers of each language expect."""

from __future__ import annotations

import unicodedata

_ARABIC_ALEF_FORMS = str.maketrans({"أ": "ا", "إ": "ا", "آ": "ا", "ٱ": "ا"})
_ARABIC_ARTICLE = "ال"


def _strip_marks(text: str, keep: str = "") -> str:
    """Drop accents (combining marks), except on the characters in ``keep``."""
    out = []
    for char in text:
        if char in keep:
            out.append(char)
            continue
        out.extend(c for c in unicodedata.normalize("NFD", char) if not unicodedata.combining(c))
    return "".join(out)


def _base(name: str, language: str) -> str:
    text = name.casefold().strip()
    if language == "ar":
        text = _strip_marks(text).translate(_ARABIC_ALEF_FORMS)
        # Arabic glossaries file words under their first letter after the article "al-"
        if text.startswith(_ARABIC_ARTICLE) and len(text) > len(_ARABIC_ARTICLE) + 1:
            text = text[len(_ARABIC_ARTICLE) :]
        return text
    if language == "es":
        # ñ is a letter of its own in Spanish, between n and o
        return _strip_marks(text, keep="ñ").replace("ñ", "n\x7f")
    return _strip_marks(text)


def sort_key(name: str, language: str) -> tuple[str, str]:
    """Collation key: accent- and case-blind first, the exact name as tie-breaker."""
    return (_base(name, language), name)


def letter(name: str, language: str) -> str:
    """The letter heading an entry is grouped under."""
    base = _base(name, language)
    first = next((c for c in base if c.isalnum()), "")
    if not first:
        return "#"
    if first.isdigit():
        return "0-9"
    if language == "es" and base.startswith("n\x7f"):
        return "Ñ"
    return first.upper()


#: the letters a jump bar shows for each glossary language, entries or not
ALPHABETS = {
    "en": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "es": "ABCDEFGHIJKLMNÑOPQRSTUVWXYZ",
    "ar": "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
}


def jump_bar(headings: list[tuple[str, str]], language: str) -> list[tuple[str, str | None]]:
    """(letter, heading id or None) for a letter bar: the language's alphabet and any
    other heading ("0-9", Latin letters in an Arabic glossary), in the glossary's order.

    ``headings`` are (letter, id) in page order; a letter without entries gets None.
    """
    present: dict[str, str] = {}
    for text, target in headings:
        present.setdefault(text, target)
    letters = [*present, *(char for char in ALPHABETS.get(language, "") if char not in present)]
    return [(char, present.get(char)) for char in sorted(letters, key=lambda char: sort_key(char, language))]


def letter_id(heading: str) -> str:
    """A stable, ASCII id for a letter heading (``mlglossary-letter-a``, ``-u0627`` for ا)."""
    if heading == "0-9":
        return "mlglossary-letter-0-9"
    if heading.isascii() and heading.isalnum():
        return "mlglossary-letter-" + heading.lower()
    if heading == "#":
        return "mlglossary-letter-symbols"
    return "mlglossary-letter-" + "-".join(f"u{ord(char):04x}" for char in heading)
