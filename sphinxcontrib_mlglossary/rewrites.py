"""Pages an incremental build must write again although Sphinx did not re-read them.

Sphinx re-reads the pages that changed and writes those. It can't know that a glossary
page shows backlinks gathered from other pages, nor that a page's term links and
tooltip cards depend on terms defined on other pages (a term defined later, a
definition reworded). One ``env-get-updated`` handler answers both, from what the
build purged and a fingerprint of the rules that decide where citations point.
"""

from __future__ import annotations

import dataclasses
import hashlib
from typing import TYPE_CHECKING

from .citations import citations
from .collector import definitions, user_terms
from .config import settings
from .matching import resolve_term
from .sources import entry_for

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: attribute on the environment: pages purged since the last check (re-read or removed)
TOUCHED = "mlglossary_touched_pages"
#: attribute on the environment: fingerprint of the rules at the last build
RULES = "mlglossary_rules"
#: attribute on the environment: citing page -> fingerprint of where its citations point
RESOLUTIONS = "mlglossary_resolutions"


def sha1(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


def note_touched(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    """``env-purge-doc``: emitted in the main process before a page is re-read or once it is removed."""
    touched: set[str] | None = getattr(env, TOUCHED, None)
    if touched is None:
        touched = set()
        setattr(env, TOUCHED, touched)
    touched.add(docname)


def card_fingerprints(app: Sphinx, env: BuildEnvironment) -> dict[tuple[str, str], str]:
    """(page, anchor) of every glossary term -> fingerprint of what its card and entry show.

    Our entries are fingerprinted whole, from whichever glossary file the page shows, so
    an edited file rewrites exactly the pages citing the entries that changed.
    """
    language = settings(app).language
    found = {
        (docname, anchor): sha1(repr((text, paragraph.pformat() if paragraph is not None else "")))
        for docname, terms in user_terms(env).items()
        for anchor, (text, paragraph) in terms.items()
    }
    for docname, entries in definitions(env).items():
        for entry_id, anchor in entries.items():
            entry = entry_for(app, docname, entry_id, language)
            # its line in the file only moves warnings, not what pages show
            found[(docname, anchor)] = sha1(repr(dataclasses.replace(entry, line=0) if entry else None))
    return found


def rules_fingerprint(app: Sphinx, env: BuildEnvironment, cards: dict[tuple[str, str], str]) -> str:
    """Every input besides the citing page itself that decides what its citations show.

    Also what ``glossary.json`` is made from besides backlinks (the entries' content).
    """
    current = settings(app)
    std = env.get_domain("std")
    terms = sorted((name, *place) for (kind, name), place in std.objects.items() if kind == "term")  # type: ignore[attr-defined]
    try:
        tags = sorted(app.tags)  # type: ignore[call-overload]
    except TypeError:
        tags = []
    options = (current.backlinks_from_glossary, current.autolink_backlinks, current.backlinks_user_glossaries)
    return sha1(repr((terms, tags, options, app.builder.name, sorted(cards.items()))))


def _resolution(env: BuildEnvironment, docname: str, cards: dict[tuple[str, str], str], memo: dict[str, object]) -> str:
    record = citations(env).get(docname)
    if record is None:
        return ""
    pointed = []
    for target in sorted(set(record.targets)):
        if target not in memo:
            memo[target] = resolve_term(env, target)
        place = memo[target]
        pointed.append((target, place, cards.get(place) if isinstance(place, tuple) else None))
    return sha1(repr(pointed))


def citing_pages_to_rewrite(
    env: BuildEnvironment, touched: set[str], rules_changed: bool, cards: dict[tuple[str, str], str]
) -> list[str]:
    """Pages not re-read whose citations now point elsewhere or show a changed card."""
    previous: dict[str, str] = getattr(env, RESOLUTIONS, None) or {}
    fresh = {docname: value for docname, value in previous.items() if docname in env.all_docs}
    stale = set(citations(env)) if rules_changed else touched | (set(citations(env)) - set(previous))
    memo: dict[str, object] = {}
    changed = []
    for docname in stale & set(env.all_docs):
        fresh[docname] = _resolution(env, docname, cards, memo)
        if docname not in touched and previous.get(docname) != fresh[docname]:
            changed.append(docname)
    setattr(env, RESOLUTIONS, fresh)
    return changed


def pages_to_rewrite(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-get-updated``: glossary pages with changed backlinks, citing pages with changed targets or cards."""
    from .backlinks import glossary_pages_to_rewrite

    touched: set[str] = getattr(env, TOUCHED, None) or set()
    setattr(env, TOUCHED, set())
    cards = card_fingerprints(app, env)
    rules = rules_fingerprint(app, env, cards)
    rules_changed = rules != getattr(env, RULES, None)
    setattr(env, RULES, rules)
    pages = set(glossary_pages_to_rewrite(app, env, touched, rules_changed))
    pages.update(citing_pages_to_rewrite(env, touched, rules_changed, cards))
    return sorted(pages)
