"""Helpful messages for term references that don't resolve."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sphinx.util.logging import is_suppressed_warning

from .diagnostics import MlGlossaryWarning, warn
from .domain import glossary_domain
from .model import fold
from .nodes import AMBIGUOUS, API_REFERENCE, AUTOLINK, ENTRY_REFERENCE
from .plausible import plausible

if TYPE_CHECKING:
    from collections.abc import Iterable

    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.domains import Domain

    from .domain import MlGlossaryDomain


def on_warn_missing_reference(app: Sphinx, domain: Domain, node: pending_xref) -> bool | None:
    """Replace Sphinx's bare "term not in glossary" with advice; return True when handled."""
    if node.get(API_REFERENCE) or node.get(AMBIGUOUS) or node.get(AUTOLINK) or node.get(ENTRY_REFERENCE):
        # API names fall back to code literals, ambiguity was reported already, and an
        # auto-link to a term no page defines, like an entry's reference to an entry the
        # project chose not to show, stays plain text: none of these is a mistake
        return True
    if domain.name != "std" or node.get("reftype") != "term":
        return None
    if is_suppressed_warning("ref", "term", app.config.suppress_warnings):
        return True  # the project silenced Sphinx's own warning for this: ours replaces it, so stay quiet
    ours = glossary_domain(app.env)
    if not ours.session.settings.warn_unknown:
        return None
    target = node["reftarget"]
    if ours.session.glossary().find(target) is not None and not any(ours.definitions.values()):
        warn(
            MlGlossaryWarning.NO_GLOSSARY_PAGE,
            "terms of the ML glossary are cited but no page holds the glossary: add the "
            "`mlglossary` directive to one page (```{mlglossary}``` in MyST, `.. mlglossary::` in reST)",
            once=True,
        )
        return True
    close = suggestions(target, domain.objects.items(), ours)  # type: ignore[attr-defined]
    message = f"term not in glossary: {target!r}"
    if close:
        message += f"; did you mean {', '.join(close)}?"
    warn(MlGlossaryWarning.UNKNOWN_TERM, message, location=node)
    return True


def suggestions(
    target: str, std_objects: Iterable[tuple[tuple[str, str], Any]], ours: MlGlossaryDomain, limit: int = 3
) -> list[str]:
    """Up to ``limit`` names the writer plausibly meant (:mod:`.plausible`), each term once;
    an alias or abbreviation of one of our entries names its entry (``'token indices'
    (input IDs)``), or the reader can't tell which term it is."""
    from .sources import entry_for

    places: dict[str, tuple[str, str]] = {}
    for (objtype, name), found in std_objects:
        if objtype == "term":
            places.setdefault(name, (found[0], found[1]))
    close = plausible(target, list(places))  # only what the writer plausibly meant, closest first
    entry_ids = {
        (docname, anchor): entry_id for docname, found in ours.definitions.items() for entry_id, anchor in found.items()
    }
    shown: dict[tuple[str, str], str] = {}
    for name in close:
        place = places[name]
        if place in shown:
            continue  # this term is suggested already, by a closer name
        entry_id = entry_ids.get(place)
        entry = entry_for(ours, place[0], entry_id) if entry_id is not None else None
        shown[place] = (
            f"{name!r} ({entry.name})" if entry is not None and fold(entry.name) != fold(name) else repr(name)
        )
        if len(shown) == limit:
            break
    return list(shown.values())
