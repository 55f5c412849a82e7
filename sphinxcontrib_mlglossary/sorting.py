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
