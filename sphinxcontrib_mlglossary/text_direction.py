"""Which languages are written right to left (from Babel's locale data, a Sphinx dependency)."""

from __future__ import annotations

from functools import cache

from babel import Locale, UnknownLocaleError


@cache
def direction(language: str | None) -> str:
    """``"rtl"`` or ``"ltr"`` for a Sphinx language tag such as ``ar`` or ``es_MX``."""
    if not language:
        return "ltr"
    try:
        return str(Locale.parse(language.replace("-", "_")).text_direction)
    except (ValueError, UnknownLocaleError):
        return "ltr"


#: separators between items of an inline list, where the script has its own comma
_LIST_SEPARATORS = {"ar": "، ", "fa": "، ", "ur": "، ", "ja": "、", "zh": "、"}


def list_separator(language: str | None) -> str:
    """The comma between items of an inline list ("See also: a, b"), in the language's script."""
    base = (language or "").replace("-", "_").split("_")[0].lower()
    return _LIST_SEPARATORS.get(base, ", ")
