"""Helpful messages for term references that don't resolve."""

from __future__ import annotations

import difflib
from typing import TYPE_CHECKING

from sphinx.util.logging import is_suppressed_warning

from .diagnostics import MlGlossaryWarning, warn
from .domain import glossary_domain
from .nodes import AMBIGUOUS, API_REFERENCE, AUTOLINK

if TYPE_CHECKING:
    from sphinx.addnodes import pending_xref
    from sphinx.application import Sphinx
    from sphinx.domains import Domain


def on_warn_missing_reference(app: Sphinx, domain: Domain, node: pending_xref) -> bool | None:
    """Replace Sphinx's bare "term not in glossary" with advice; return True when handled."""
    if node.get(API_REFERENCE) or node.get(AMBIGUOUS) or node.get(AUTOLINK):
        # API names fall back to code literals, ambiguity was reported already, and an
        # auto-link to a term no page defines stays plain text: none of these is a mistake
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
