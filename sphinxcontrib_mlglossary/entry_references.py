"""Which cross-references in an entry's text point at the API, and which at another entry.

Marked on the references themselves, wherever the body comes from (parsed on its page,
stored HTML's links, a parse when written), so later steps need not ask again: API links
link only where the project's intersphinx knows them, and a reference to an entry no page
shows stays plain text without a warning (see :data:`~.nodes.ENTRY_REFERENCE`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes

from .inflection import variants
from .nodes import API_REFERENCE, ENTRY_REFERENCE

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .model import Glossary


def mark_references(blocks: Iterable[nodes.Node], glossary: Glossary, known: dict[str, bool] | None = None) -> None:
    """Mark an entry's API references, and its term references to entries of the same data.

    ``known`` remembers the answer per target across the entries of one page (the same
    few hundred targets recur, and each look-up tries every inflection).
    """
    known = {} if known is None else known
    for block in blocks:
        if isinstance(block, nodes.Element):
            for xref in block.findall(addnodes.pending_xref):
                if xref.get("refdomain") == "py":
                    xref[API_REFERENCE] = True
                elif xref.get("reftype") == "term":
                    target = xref.get("reftarget", "")
                    if target not in known:
                        known[target] = names_an_entry(glossary, target)
                    if known[target]:
                        xref[ENTRY_REFERENCE] = True


def names_an_entry(glossary: Glossary, target: str) -> bool:
    """Whether a term reference in an entry's text cites another entry of the same data."""
    return any(glossary.find(form) is not None for form in (target, *variants(target)))
