"""Helpful messages for term references that don't resolve."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from sphinx.util.nodes import make_refnode

from .autolink import AUTOLINK
from .canonical_terms import written_target
from .collector import definitions
from .config import settings
from .loader import bundled_glossary
from .matching import inflected_matches, resolve_term
from .warnings_ import MlGlossaryWarning, warn

if TYPE_CHECKING:
    from docutils import nodes
    from docutils.nodes import Element
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.domains import Domain
    from sphinx.environment import BuildEnvironment

#: set on API references inside our entries: they link only where the user's intersphinx knows them
API_REFERENCE = "mlglossary_api"
#: set on term references already reported as ambiguous
AMBIGUOUS = "mlglossary_ambiguous"


def on_missing_reference(
    app: Sphinx, env: BuildEnvironment, node: pending_xref, contnode: Element
) -> nodes.reference | None:
    """Resolve plurals and possessives; an ambiguous form is a warning, never a silent pick."""
    if node.get("refdomain") != "std" or node.get("reftype") != "term":
        return None
    matches = inflected_matches(env, node["reftarget"])
    if len(matches) > 1:
        names = " and ".join(repr(name) for name, _target in matches)
        warn(
            MlGlossaryWarning.AMBIGUOUS_TERM,
            f"term {node['reftarget']!r} could mean {names}; write the one you mean",
            location=node,
        )
        node[AMBIGUOUS] = True
        return None
    written = written_target(node)
    if not matches and written.lower() != node["reftarget"].lower():
        # the role made the target canonical for the bundled glossary, but the page's
        # glossary (a :source: file) may name the entry otherwise: try what was written
        found = resolve_term(env, written)
        matches = [(written, found)] if found is not None else []
    if not matches:
        return None
    docname, anchor = matches[0][1]
    return make_refnode(app.builder, node.get("refdoc", env.docname), docname, anchor, contnode)


def on_warn_missing_reference(app: Sphinx, domain: Domain, node: pending_xref) -> bool | None:
    """Replace Sphinx's bare "term not in glossary" with advice; return True when handled."""
    if node.get(API_REFERENCE) or node.get(AMBIGUOUS) or node.get(AUTOLINK):
        # API names fall back to code literals, ambiguity was reported already, and an
        # auto-link to a term no page defines stays plain text: none of these is a mistake
        return True
    if domain.name != "std" or node.get("reftype") != "term":
        return None
    current = settings(app)
    if not current.warn_unknown:
        return None
    target = node["reftarget"]
    glossary = bundled_glossary(current.language)
    if glossary.find(target) is not None and not any(definitions(app.env).values()):
        warn(
            MlGlossaryWarning.NO_GLOSSARY_PAGE,
            "terms of the ML glossary are cited but no page holds the glossary: add the "
            "`mlglossary` directive to one page (```{mlglossary}``` in MyST, `.. mlglossary::` in reST)",
            once=True,
        )
        return True
    candidates = [name for (objtype, name) in domain.objects if objtype == "term"]  # type: ignore[attr-defined]
    close = difflib.get_close_matches(target, candidates, n=3, cutoff=0.6)
    if not close:
        lowered = {name.lower(): name for name in candidates}
        close = [lowered[m] for m in difflib.get_close_matches(target.lower(), list(lowered), n=3, cutoff=0.6)]
    message = f"term not in glossary: {target!r}"
    if close:
        message += f"; did you mean {', '.join(map(repr, close))}?"
    warn(MlGlossaryWarning.UNKNOWN_TERM, message, location=node)
    return True
