"""What auto-linking leaves alone: whole entries, or phrases that merely hold a glossary name.

``mlglossary_autolink_exclude`` and a page's ``mlglossary-autolink-exclude`` field take
the same values. A value that names an entry (its id, a name, an abbreviation or alias)
excludes the entry everywhere; any other value that holds a glossary name is a phrase
("Cross Encoder", "Comet Hyperparameters") inside which nothing is linked, while the entry
is still linked elsewhere. A value holding no glossary name could change nothing: it is
reported, as a misspelt entry would be.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from docutils import nodes

from .diagnostics import MlGlossaryWarning, warn
from .model import fold
from .protected_phrases import ProtectedPhrases, protected_phrases
from .term_pattern import TermPattern, build_pattern

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .model import Glossary

#: page metadata naming entries or phrases to leave alone on that page, separated by commas
METADATA_FIELDS = ("mlglossary-autolink-exclude", "mlglossary_autolink_exclude")


@dataclass(frozen=True)
class Exclusions:
    """The entries a page never links, and the phrases it links nothing inside."""

    entries: tuple[str, ...]
    phrases: ProtectedPhrases


def every_name_pattern(glossary: Glossary) -> TermPattern:
    """A pattern finding every name of every entry, linked by default or not: a phrase may
    protect any of them (callers keep it: the build's session, or config validation once)."""
    return build_pattern(glossary, included=[entry.id for entry in glossary.entries])


def kind_of(glossary: Glossary, value: str, every_name: TermPattern) -> Literal["entry", "phrase", ""]:
    """``entry`` when ``value`` names an entry, ``phrase`` when it holds a name, else ""."""
    folded = fold(value)
    if any(folded == fold(key) for entry in glossary.entries for key in (entry.id, *entry.names)):
        return "entry"
    if any(True for _ in every_name.finditer(value)):
        return "phrase"
    return ""


def exclusions(glossary: Glossary, values: Iterable[str], every_name: TermPattern) -> Exclusions:
    """Split validated values into excluded entries and protected phrases."""
    entries: list[str] = []
    phrases: list[str] = []
    for value in values:
        (entries if kind_of(glossary, value, every_name) == "entry" else phrases).append(value)
    return Exclusions(tuple(entries), protected_phrases(phrases))


def page_exclusions(
    document: nodes.document, docname: str, glossary: Glossary, configured: Iterable[str], every_name: TermPattern
) -> Exclusions:
    """The project's exclusions plus those the page's metadata adds (unknown ones reported there)."""
    values = list(configured)
    for docinfo in (child for child in document.children if isinstance(child, nodes.docinfo)):
        for field in docinfo.findall(nodes.field):
            name = field[0].astext().strip().lower()
            if name not in METADATA_FIELDS:
                continue
            for value in (part.strip() for part in field[1].astext().split(",")):
                if not value:
                    continue
                if kind_of(glossary, value, every_name):
                    values.append(value)
                else:
                    warn(
                        MlGlossaryWarning.CONFIG,
                        f"page metadata {name}: {value!r} names no entry of the glossary and holds none of "
                        "its names; it is ignored (list entry ids, names or phrases, separated by commas)",
                        # MyST front matter fields carry no source of their own: name the page
                        location=(docname, field.line) if field.line else docname,
                    )
    return exclusions(glossary, values, every_name)
