"""Which term a citation means, in one order everywhere: the project's own terms first.

1. a term of the project's own glossaries: by its exact name, then in any case, then
   by another form of what was written (see 5); the names of an entry of ours that a
   project term replaced (see :mod:`.precedence`) lead to that term as well;
2. a name, abbreviation or alias of one of our entries shown on a page, exactly, then
   in any case;
3. a heading as shown on the glossary page and in cards, ``name (abbreviation)``
   (``masked language modeling (MLM)``): both parts resolved by these rules, when
   they land on the same term;
4. then ours by the spellings auto-linking finds too (:mod:`.spellings`: "pre-trained
   models", "half-precision", "MLP layers"), so the two ways in never disagree;
5. then ours, tried with other forms of what was written: the singular of a plural
   or possessive (``attention masks``, ``LLMs``, ``ZeRO's``, ``máscaras de atención``),
   the plural of a singular (``decoder model`` for *decoder models*), and, last, the
   name with spaces, hyphens and underscores ignored (``fine tuned``, ``finetuned``,
   ``tensor parallel`` for *TensorParallel*). Two different terms found at one step is
   an ambiguity, never a silent pick.

What none of these finds is left to Sphinx's other resolvers (intersphinx among them).
The index is built from the standard domain's public ``objects`` once every page is
read, and used by the links, the backlinks and incremental builds alike, so they never
disagree.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from .inflection import POSSESSIVE, loose_key, variants
from .model import fold, has_own_case
from .names import heading_parts
from .spellings import spellings_of

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

#: (docname, anchor) of a term
Place = tuple[str, str]


class Found(NamedTuple):
    """A term a citation resolves to."""

    #: the term's name as registered in the standard domain
    name: str
    place: Place


class Ambiguous(NamedTuple):
    """A plural or possessive form two terms answer to."""

    names: tuple[str, ...]


class _Names:
    """Exact and case-insensitive lookups over one set of terms."""

    def __init__(self) -> None:
        self.exact: dict[str, Found] = {}
        self.folded: dict[str, Found] = {}
        #: loose key -> the terms it stands for (several: a loose match is then ambiguous)
        self.loose: dict[str, dict[Place, Found]] = {}

    def add(self, name: str, found: Found) -> None:
        """``name`` leads to ``found`` (the term itself, or the term it stands for)."""
        self.exact.setdefault(name, found)
        self.folded.setdefault(fold(name), found)
        self.loose.setdefault(loose_key(name), {}).setdefault(found.place, found)

    def get(self, name: str) -> Found | None:
        return self.exact.get(name) or self.folded.get(fold(name))


class TermIndex:
    """Every glossary term of the project, split into the project's own and ours."""

    def __init__(
        self,
        terms: Iterable[tuple[str, Place]],
        ours: set[Place],
        redirects: Mapping[str, tuple[str, Place]] | None = None,
        language: str = "en",
    ) -> None:
        self._project = _Names()
        self._ours = _Names()
        #: folded spelling of one of our names (see :mod:`.spellings`) -> the terms it may mean
        self._spelt: dict[str, dict[Place, Found]] = {}
        siblings: dict[Place, list[str]] = {}
        for name, place in sorted(terms):
            (self._ours if place in ours else self._project).add(name, Found(name, place))
            if place in ours:
                siblings.setdefault(place, []).append(name)
        for place, names in siblings.items():
            for name in names:
                short = has_own_case(name) and name.isupper()
                for form in spellings_of(name, language, abbreviation=short, siblings=names):
                    self._spelt.setdefault(fold(form), {}).setdefault(place, Found(name, place))
        for name, (term, place) in sorted((redirects or {}).items()):
            self._project.add(name, Found(term, place))
        self._memo: dict[str, Found | Ambiguous | None] = {}

    def resolve(self, written: str) -> Found | Ambiguous | None:
        """The term a citation written this way means (answers remembered per build)."""
        if written not in self._memo:
            self._memo[written] = self._resolve(written)
        return self._memo[written]

    def place(self, written: str) -> Place | None:
        """Where a citation written this way lands (None when nothing, or several terms, match)."""
        found = self.resolve(written)
        return found.place if isinstance(found, Found) else None

    def _resolve(self, written: str) -> Found | Ambiguous | None:
        forms = variants(written)
        project = self._project.get(written) or _one_of(self._project, written, forms)
        if project is not None:
            return project
        direct = self._ours.get(written)
        if direct is not None:
            return direct
        shown = self._heading(written)
        if shown is not None:
            return shown
        spelt = self._spelling(written)
        if spelt is not None:
            return spelt
        return _one_of(self._ours, written, forms)

    def _spelling(self, written: str) -> Found | Ambiguous | None:
        """The term ``written`` is a spelling of, by the rules auto-linking follows too."""
        found = self._spelt.get(fold(written)) or self._spelt.get(fold(POSSESSIVE.sub("", written)))
        if not found:
            return None
        if len(found) > 1:
            return Ambiguous(tuple(term.name for term in found.values()))
        return next(iter(found.values()))

    def _heading(self, written: str) -> Found | None:
        """The term a citation written as its heading, ``name (abbreviation)``, means."""
        parts = heading_parts(written)
        if parts is None:
            return None
        first, second = (self.resolve(part) for part in parts)
        if isinstance(first, Found) and isinstance(second, Found) and first.place == second.place:
            return first
        return None


def _one_of(names: _Names, written: str, forms: Iterable[str]) -> Found | Ambiguous | None:
    """The term another form of ``written`` names: singular or plural, then loosely."""
    found: dict[Place, tuple[str, Found]] = {}
    for form in forms:
        match = names.get(form)
        if match is not None:
            found.setdefault(match.place, (form, match))
    if not found:
        for form in (written, *forms):
            for match in names.loose.get(loose_key(form), {}).values():
                found.setdefault(match.place, (match.name, match))
    if len(found) > 1:
        return Ambiguous(tuple(form for form, _match in found.values()))
    return next((match for _form, match in found.values()), None)


def term_index(
    std_objects: Iterable[tuple[tuple[str, str], tuple[str, ...]]],
    ours: set[Place],
    redirects: Mapping[str, tuple[str, Place]] | None = None,
    language: str = "en",
) -> TermIndex:
    """The index over the standard domain's ``objects`` (``(type, name) -> (docname, anchor, ...)``)."""
    return TermIndex(
        ((name, (entry[0], entry[1])) for (kind, name), entry in std_objects if kind == "term"),
        ours,
        redirects,
        language,
    )
