"""Which languages are written right to left.

A fixed table rather than Babel's locale data: asking Babel loads a whole locale
(several MB that stay in memory for the rest of the build) to read one field. A test
checks the table against Babel for every locale it knows.
"""

from __future__ import annotations

from functools import cache

#: languages whose default script runs right to left (ISO 639 codes, as Sphinx's ``language``)
_RIGHT_TO_LEFT_LANGUAGES = frozenset(
    {
        "apc", "ar", "arc", "bal", "bgn", "ckb", "dv", "fa", "he", "iw", "ks", "lrc", "mzn", "nqo",
        "ps", "rhg", "sd", "sdh", "skr", "syr", "trw", "ug", "ur", "yi",
    }
)  # fmt: skip
#: scripts written right to left (ISO 15924), for tags such as ``uz_Arab`` or ``ff_Adlm``
_RIGHT_TO_LEFT_SCRIPTS = frozenset({"arab", "adlm", "hebr", "nkoo", "rohg", "syrc", "thaa"})


@cache
def direction(language: str | None) -> str:
    """``"rtl"`` or ``"ltr"`` for a Sphinx language tag such as ``ar``, ``es_MX`` or ``uz_Arab``."""
    if not language:
        return "ltr"
    parts = language.replace("-", "_").lower().split("_")
    script = next((part for part in parts[1:] if len(part) == 4 and part.isalpha()), None)
    if script is not None:
        return "rtl" if script in _RIGHT_TO_LEFT_SCRIPTS else "ltr"
    return "rtl" if parts[0] in _RIGHT_TO_LEFT_LANGUAGES else "ltr"


#: separators between items of an inline list, where the script has its own comma
_LIST_SEPARATORS = {"ar": "، ", "fa": "، ", "ur": "، ", "ja": "、", "zh": "、"}


def list_separator(language: str | None) -> str:
    """The comma between items of an inline list ("See also: a, b"), in the language's script."""
    base = (language or "").replace("-", "_").split("_")[0].lower()
    return _LIST_SEPARATORS.get(base, ", ")
