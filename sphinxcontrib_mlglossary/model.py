"""The glossary as plain data: no Sphinx imports, so it can be tested and reused alone."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .names import clean_name, heading_parts

_SLUG_JUNK = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """Lower-case ASCII slug, the way the Transformers docs build heading anchors."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return _SLUG_JUNK.sub("-", ascii_text.lower()).strip("-")


def fold(text: str) -> str:
    """Key for case-, spacing- and composition-insensitive name lookups (``é`` typed as e + accent too).

    Invisible characters a name can't hold (:func:`~.names.clean_name`) are ignored, so a
    citation typed with a direction mark still finds its term.
    """
    if not text.isascii():
        text = clean_name(text).text
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def has_own_case(name: str) -> bool:
    """Short forms and code names keep their spelling (``DP``, ``LoRA``, ``fp16``); title case does not count."""
    return any(any(char.isupper() for char in word[1:]) for word in name.split()) or any(
        char.isdigit() for char in name
    )


def safe_to_autolink(name: str, abbreviation: bool = False) -> bool:
    """The default for data that doesn't say: names of several words, and abbreviations
    written in their own case, are rarely anything but the term; a single word often is
    (``patch``, ``labels``, ``attention``)."""
    return abbreviation or has_own_case(name) or " " in name.strip()


@dataclass(frozen=True, slots=True)
class Entry:
    """One glossary term, in one language."""

    #: stable id, the slug of the English name; the same in every language
    id: str
    #: display name in the glossary's language
    name: str
    #: one sentence in MyST inline markup, shown in tooltips
    summary: str
    #: the definition, in MyST Markdown
    body: str
    #: short forms such as ``MLM``
    abbreviations: tuple[str, ...] = ()
    #: other names writers cite the term by (in translations: the English name too)
    aliases: tuple[str, ...] = ()
    #: ids of related entries
    see_also: tuple[str, ...] = ()
    #: topic tags such as ``nlp`` or ``training``
    tags: tuple[str, ...] = ()
    #: anchor of the entry on the Transformers glossary page, kept for old deep links
    legacy_anchor: str = ""
    #: line of the entry in its data file (0 when unknown)
    line: int = 0
    #: the names a plain mention may be auto-linked by without the writer asking; None:
    #: the default rule (see :func:`safe_to_autolink`)
    autolink: tuple[str, ...] | None = None

    @property
    def anchor(self) -> str:
        """The HTML id of the entry, stable across languages."""
        return f"term-{self.id}"

    @property
    def names(self) -> tuple[str, ...]:
        """Every name the entry answers to, display name first, without repeats."""
        seen: dict[str, None] = {}
        for name in (self.name, *self.abbreviations, *self.aliases):
            seen.setdefault(name, None)
        return tuple(seen)

    @property
    def linkable_names(self) -> tuple[str, ...]:
        """The names auto-linking may link without the writer asking (see :attr:`autolink`)."""
        if self.autolink is None:
            return tuple(name for name in self.names if safe_to_autolink(name, name in self.abbreviations))
        chosen = {fold(name) for name in self.autolink}
        return tuple(name for name in self.names if fold(name) in chosen)

    @property
    def heading(self) -> str:
        """Display name with its first abbreviation, as shown on the glossary page."""
        if self.abbreviations:
            return f"{self.name} ({self.abbreviations[0]})"
        return self.name


@dataclass(frozen=True, slots=True)
class Glossary:
    """A validated set of entries in one language."""

    language: str
    entries: tuple[Entry, ...]
    #: the data file the glossary came from
    source: Path | None = None
    _by_id: dict[str, Entry] = field(default_factory=dict, init=False, repr=False, compare=False)
    _by_name: dict[str, Entry] = field(default_factory=dict, init=False, repr=False, compare=False)
    _hash: int = field(default=0, init=False, repr=False, compare=False)

    def __hash__(self) -> int:
        # glossaries key caches; hashing thousands of entries on each lookup was measured
        # to dominate a 3,000-entry build, so the (immutable) hash is computed once
        return self._hash

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.language, self.entries, self.source)))
        for entry in self.entries:
            self._by_id[entry.id] = entry
            for name in entry.names:
                self._by_name.setdefault(fold(name), entry)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._by_id

    def get(self, entry_id: str) -> Entry | None:
        return self._by_id.get(entry_id)

    def find(self, name: str) -> Entry | None:
        """The entry a name, abbreviation or alias stands for, ignoring case and spacing;
        also its heading as shown, ``name (abbreviation)``."""
        found = self._by_name.get(fold(name))
        if found is None and (parts := heading_parts(name)) is not None:
            first, second = (self._by_name.get(fold(part)) for part in parts)
            return first if first is not None and first is second else None
        return found

    def all_names(self) -> list[str]:
        """Every citable name, for "did you mean" suggestions."""
        return [name for entry in self.entries for name in entry.names]
