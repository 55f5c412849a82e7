"""Which terms get a tooltip card, and what each card shows: the card path's first step.

The card path runs one way: what the domain gathered at read time (the entries glossary
pages show, the project's own glossary terms, every page's citations) -> card contents
(here) -> the site's card asset, rendered once per build (:mod:`.card_asset`) -> the
marks on each page's term links (:mod:`.card_marks`).

A term gets a card when a page cites it outside a glossary. A glossary's own links
("See also", one entry mentioning another) don't count: they make nearly every entry
"cited", and every build would prepare a card per entry. Such a link still gets its
card when some page cites the term.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sphinx.util.docutils import new_document

from .citations import IN_GLOSSARY
from .model import Entry
from .rendering import one_line, our_summary, plain_inline
from .sources import entry_for

if TYPE_CHECKING:
    from docutils import nodes

    from .domain import MlGlossaryDomain
    from .user_terms import UserTerm

#: (docname, anchor): where a glossary term is defined
Place = tuple[str, str]


@dataclass(frozen=True, slots=True)
class CardContent:
    """What a card shows for one glossary term."""

    title: str
    abbreviation: str
    #: inline nodes of the summary (copied before use)
    summary: tuple[nodes.Node, ...]
    #: the summary as one line of text: the ``title`` of every link to the term
    plain: str


@dataclass(frozen=True, slots=True)
class CardSubjects:
    """The project's glossary terms by anchor, and the places of those that get a card."""

    #: anchor -> [(docname, term)] for every glossary term of the project
    by_anchor: dict[str, list[tuple[str, Entry | UserTerm]]]
    #: places of the terms some page cites outside a glossary
    carded: frozenset[Place]

    def term(self, place: Place) -> Entry | UserTerm | None:
        docname, anchor = place
        return next((term for home, term in self.by_anchor.get(anchor, ()) if home == docname), None)


def card_subjects(domain: MlGlossaryDomain) -> CardSubjects:
    """The terms that get a card, found once per build (after every page is read)."""
    return domain.session.resolved.keep(CardSubjects, lambda: _find_subjects(domain))


def _find_subjects(domain: MlGlossaryDomain) -> CardSubjects:
    by_anchor: dict[str, list[tuple[str, Entry | UserTerm]]] = {}
    for docname, entries in domain.definitions.items():
        for entry_id, anchor in entries.items():
            entry = entry_for(domain, docname, entry_id)
            if entry is not None:
                by_anchor.setdefault(anchor, []).append((docname, entry))
    for docname, terms in domain.user_terms.items():
        for anchor, term in terms.items():
            by_anchor.setdefault(anchor, []).append((docname, term))
    return CardSubjects(by_anchor, frozenset(_cited_outside_glossaries(domain, by_anchor)))


def _cited_outside_glossaries(
    domain: MlGlossaryDomain, by_anchor: dict[str, list[tuple[str, Entry | UserTerm]]]
) -> set[Place]:
    targets = {
        target
        for record in domain.citations.values()
        for target, flags in zip(record.targets, record.flags, strict=True)
        if not flags & IN_GLOSSARY
    }
    terms = domain.term_index()
    found = set()
    for target in targets:
        place = terms.place(target)
        if place is not None and any(home == place[0] for home, _term in by_anchor.get(place[1], ())):
            found.add(place)
    return found


def card_content(domain: MlGlossaryDomain, term: Entry | UserTerm, document: nodes.document) -> CardContent:
    """A card's content for one of our entries or a term of the project's own glossary."""
    if not isinstance(term, Entry):
        text, paragraph = term
        summary = tuple(plain_inline(paragraph)) if paragraph is not None else ()
        return CardContent(text, "", summary, one_line(paragraph.astext() if paragraph is not None else ""))
    inline, plain = our_summary(domain, term, document)
    abbreviation = term.abbreviations[0] if term.abbreviations else ""
    return CardContent(term.name, abbreviation, inline, one_line(plain))


def card_contents(domain: MlGlossaryDomain) -> dict[Place, CardContent]:
    """The content of every card of the build, in a stable order (by place)."""
    subjects = card_subjects(domain)
    # summaries are rendered into a document of their own: no page's settings or
    # warnings stream decides what a card says, whichever page is written first
    document = new_document("<mlglossary-cards>")
    document.settings.env = domain.env
    contents = {}
    for place in sorted(subjects.carded):
        term = subjects.term(place)
        if term is not None:
            contents[place] = card_content(domain, term, document)
    return contents
