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
