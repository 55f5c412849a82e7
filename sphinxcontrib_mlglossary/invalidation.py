"""Pages an incremental build must write again although Sphinx did not re-read them.

Sphinx re-reads the pages that changed and writes those. It can't know that a glossary
page shows backlinks gathered from other pages, nor that a page's term links and
tooltip cards depend on terms defined on other pages (a term defined later, a
definition reworded), nor that what an ``mlglossary`` directive shows depends on the
terms of other pages (:mod:`.precedence`). One ``env-get-updated`` handler answers all
three, from the pages the domain purged and fingerprints it keeps in its data.

Each citing page's contribution is fingerprinted once and kept; an incremental build
recomputes only the pages it purged (all of them when the rules changed), so its cost
follows the edit, not the size of the project.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import defaultdict
from typing import TYPE_CHECKING

from .backlinks import Resolver, reading_order
from .card_contents import card_subjects
from .citations import IN_GLOSSARY
from .domain import glossary_domain
from .rendering import page_title
from .sources import entry_for

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

    from .domain import MlGlossaryDomain
    from .resolution import TermIndex


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def card_fingerprints(domain: MlGlossaryDomain) -> dict[tuple[str, str], str]:
    """(page, anchor) of every glossary term -> fingerprint of what its card and entry show.

    Our entries are fingerprinted whole, from whichever glossary file the page shows, so
    an edited file rewrites exactly the pages citing the entries that changed.
    """
    found = {
        (docname, anchor): sha1(repr((text, paragraph.pformat() if paragraph is not None else "")))
        for docname, terms in domain.user_terms.items()
        for anchor, (text, paragraph) in terms.items()
    }
    for docname, entries in domain.definitions.items():
        for entry_id, anchor in entries.items():
            entry = entry_for(domain, docname, entry_id)
            # its line in the file only moves warnings, not what pages show
            found[(docname, anchor)] = sha1(repr(dataclasses.replace(entry, line=0) if entry else None))
    return found


def rules_fingerprint(app: Sphinx, domain: MlGlossaryDomain, cards: dict[tuple[str, str], str]) -> str:
    """Every input besides the citing page itself that decides what its citations show.

    Also what ``glossary.json`` is made from besides backlinks (the entries' content).
    """
    current = domain.session.settings
    std = domain.env.get_domain("std")
    terms = sorted((name, *place) for (kind, name), place in std.objects.items() if kind == "term")  # type: ignore[attr-defined]
    try:
        tags = sorted(app.tags)  # type: ignore[call-overload]
    except TypeError:
        tags = []
    options = (current.backlinks_from_glossary, current.autolink_backlinks, current.backlinks_user_glossaries)
    return sha1(repr((terms, tags, options, app.builder.name, sorted(cards.items()))))


def _resolution(terms: TermIndex, domain: MlGlossaryDomain, docname: str, cards: dict[tuple[str, str], str]) -> str:
    record = domain.citations.get(docname)
    if record is None:
        return ""
    pointed = []
    for target in sorted(set(record.targets)):
        place = terms.place(target)
        pointed.append((target, place, cards.get(place) if place is not None else None))
    return sha1(repr(pointed))


def citing_pages_to_rewrite(
    domain: MlGlossaryDomain, purged: set[str], rules_changed: bool, cards: dict[tuple[str, str], str]
) -> list[str]:
    """Pages not re-read whose citations now point elsewhere or show a changed card."""
    env = domain.env
    previous: dict[str, str] = domain.data["resolutions"]
    fresh = {docname: value for docname, value in previous.items() if docname in env.all_docs}
    stale = set(domain.citations) if rules_changed else purged | (set(domain.citations) - set(previous))
    terms = domain.term_index()
    changed = []
    for docname in stale & set(env.all_docs):
        fresh[docname] = _resolution(terms, domain, docname, cards)
        if docname not in purged and previous.get(docname) != fresh[docname]:
            changed.append(docname)
    domain.data["resolutions"] = fresh
    return changed


def _contribution(env: BuildEnvironment, resolver: Resolver, domain: MlGlossaryDomain, docname: str) -> dict[str, str]:
    """What one citing page adds to each glossary page's backlinks (title, sections, ids)."""
    record = domain.citations.get(docname)
    if record is None:
        return {}
    title = page_title(env, docname)
    by_page: dict[str, list[object]] = defaultdict(list)
    for (glossary_page, anchor), positions in sorted(resolver.entries_cited(record).items()):
        first_section = record.sections[record.places[positions[0]]][1]
        # the ids, not only the positions: a citation before these that starts or stops
        # landing on a term renumbers them
        landing = [domain.citation_id(docname, position) for position in positions]
        by_page[glossary_page].append((anchor, title, first_section, landing))
    return {page: sha1(repr(found)) for page, found in by_page.items()}


def glossary_pages_to_rewrite(domain: MlGlossaryDomain, purged: set[str], rules_changed: bool) -> list[str]:
    """Glossary pages whose backlinks differ from the last build."""
    current = domain.session.settings
    if not current.backlinks:
        return []
    env = domain.env
    contributions: dict[str, dict[str, str]] = domain.data["contributions"]
    stale = set(env.all_docs) if rules_changed else purged | (set(env.all_docs) - set(contributions))
    resolver = Resolver(domain, current.backlinks_from_glossary)
    for docname in stale & set(env.all_docs):
        contributions[docname] = _contribution(env, resolver, domain, docname)
    for docname in set(contributions) - set(env.all_docs):
        del contributions[docname]

    order = reading_order(env)
    previous: dict[str, str] = domain.data["digests"]
    fresh = {}
    for page in domain.glossary_pages(with_user_glossaries=current.backlinks_user_glossaries):
        shown = "\n".join(f"{d}\0{contributions[d][page]}" for d in order if page in contributions.get(d, {}))
        fresh[page] = sha1(shown)
    domain.data["digests"] = fresh
    return sorted(page for page, value in fresh.items() if previous.get(page) != value)


def directive_pages_to_rewrite(domain: MlGlossaryDomain) -> list[str]:
    """Pages whose ``mlglossary`` directives now leave out other entries, or index other names.

    Decided once all pages are read (:mod:`.precedence`): the project's term added on
    another page, or the entry shown on another page, changes what this one shows.
    """
    settled = domain.settlement()
    fresh = {}
    for docname, made in domain.made_definitions.items():
        left_out = sorted(settled.dropped.get(docname, {}).items())
        anchors = set(made.values())
        names = sorted(name for name, place in settled.names.items() if place[0] == docname and place[1] in anchors)
        fresh[docname] = sha1(repr((left_out, names)))
    previous: dict[str, str] = domain.data["left_out"]
    domain.data["left_out"] = fresh
    return sorted(page for page, value in fresh.items() if previous.get(page) != value)


def pages_with_flipped_cards(domain: MlGlossaryDomain) -> list[str]:
    """Pages whose glossary links ("See also") gained or lost their card: the term started or stopped being cited.

    Only links inside a glossary can: any other citation gives its term a card.
    """
    carded = card_subjects(domain).carded
    flipped = carded ^ domain.data["carded"]
    domain.data["carded"] = carded
    if not flipped:
        return []
    terms = domain.term_index()
    return sorted(
        docname
        for docname, record in domain.citations.items()
        if any(
            flags & IN_GLOSSARY and terms.place(target) in flipped
            for target, flags in zip(record.targets, record.flags, strict=True)
        )
    )


def pages_to_rewrite(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: glossary pages with changed backlinks, citing pages with changed targets or cards,
    pages whose glossary links gained or lost a card."""
    domain = glossary_domain(env)
    purged: set[str] = domain.data["purged"]
    domain.data["purged"] = set()
    cards = card_fingerprints(domain)
    rules = rules_fingerprint(app, domain, cards)
    rules_changed = rules != domain.data["rules"]
    domain.data["rules"] = rules
    pages = set(glossary_pages_to_rewrite(domain, purged, rules_changed))
    pages.update(citing_pages_to_rewrite(domain, purged, rules_changed, cards))
    pages.update(page for page in directive_pages_to_rewrite(domain) if page not in purged)
    pages.update(pages_with_flipped_cards(domain))
    return sorted(pages)
