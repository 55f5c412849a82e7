"""Which languages are written right to left.

Babel (a Sphinx dependency) is the authority: its CLDR data knows every locale's
character order and gains languages with each release. Asking it loads the locale
(about 5 MB and 0.1 s, once per process), so the languages the glossary ships in,
by far the most common ``language`` values, are answered without it; a test checks
these answers against Babel.
"""

from __future__ import annotations

from functools import cache

#: the bundled glossary languages: answered without loading Babel's locale data
_KNOWN_WITHOUT_BABEL = {"en": "ltr", "es": "ltr", "ar": "rtl"}
#: CLDR character orders as HTML ``dir`` values; vertical scripts (Mongolian) stay "ltr"
_HTML_DIRECTION = {"right-to-left": "rtl"}


@cache
def direction(language: str | None) -> str:
    """``"rtl"`` or ``"ltr"`` for a Sphinx language tag such as ``ar``, ``es_MX`` or ``uz_Arab``."""
    if not language:
        return "ltr"
    tag = language.replace("-", "_")
    known = _KNOWN_WITHOUT_BABEL.get(tag.lower())
    if known is None and "_" in tag and not _has_script(tag):
        # a region does not change the direction: es_MX reads like es
        known = _KNOWN_WITHOUT_BABEL.get(tag.split("_")[0].lower())
    return known if known is not None else _direction_from_babel(tag)


def _has_script(tag: str) -> bool:
    return any(len(part) == 4 and part.isalpha() for part in tag.split("_")[1:])


def _direction_from_babel(tag: str) -> str:
    """Babel's answer; a tag it does not know is tried by its language alone, then is "ltr"."""
    from babel import Locale, UnknownLocaleError

    for candidate in dict.fromkeys((tag, tag.split("_")[0])):
        try:
            locale = Locale.parse(candidate)
        except (UnknownLocaleError, ValueError, TypeError):
            continue
        return _HTML_DIRECTION.get(locale.character_order, "ltr")
    return "ltr"


#: separators between items of an inline list, where the script has its own comma
_LIST_SEPARATORS = {"ar": "، ", "fa": "، ", "ur": "، ", "ja": "、", "zh": "、"}


def list_separator(language: str | None) -> str:
    """The comma between items of an inline list ("See also: a, b"), in the language's script."""
    base = (language or "").replace("-", "_").split("_")[0].lower()
    return _LIST_SEPARATORS.get(base, ", ")
