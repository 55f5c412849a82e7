"""Phrases auto-linking leaves alone wherever they appear.

A project names its own things with words the glossary also holds ("Cross Encoder", "the
Comet Hyperparameters tab"). Excluding the entry would drop its right links too, so a
phrase can be protected instead: no glossary name inside it is linked, the entry is
linked elsewhere. Phrases are matched as whole words, in any case, with any spacing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass(frozen=True)
class ProtectedPhrases:
    """The spans of text covered by a project's (and a page's) protected phrases."""

    regex: re.Pattern[str] | None

    def spans(self, text: str) -> list[tuple[int, int]]:
        if self.regex is None:
            return []
        return [found.span() for found in self.regex.finditer(text)]


def protected_phrases(phrases: Iterable[str]) -> ProtectedPhrases:
    """Compile ``phrases`` (longest first, so a longer phrase wins over its start)."""
    words = sorted(
        {tuple(phrase.split()) for phrase in phrases if phrase.split()},
        key=lambda words: len(" ".join(words)),
        reverse=True,
    )
    if not words:
        return ProtectedPhrases(None)
    source = "|".join(r"\s+".join(map(re.escape, phrase)) for phrase in words)
    return ProtectedPhrases(re.compile(rf"(?<![\w-])(?:{source})(?![\w-])", re.IGNORECASE))


def covered(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether the text from ``start`` to ``end`` overlaps one of ``spans``."""
    return any(start < span_end and span_start < end for span_start, span_end in spans)
