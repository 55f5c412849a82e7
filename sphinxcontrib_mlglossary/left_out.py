"""Entries the decision of :mod:`.precedence` leaves out, taken off the page being written.

A page's directive made them while it was read, not knowing yet that the project defines
the term or that another page shows the entry; the page is written once that is known
(and rewritten when it changes, see :mod:`.invalidation`), so it is fixed here.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .backlinks import may_hold
from .domain import glossary_domain
from .nodes import glossary_block


class LeftOut(SphinxPostTransform):
    """Remove left-out entries, and index entries for names another definition took."""

    # after TermTargets (5), which counts the page's citations as recorded (entries'
    # bodies hold some), and before references are resolved (10) and anything is added
    default_priority = 7

    def run(self, **kwargs: Any) -> None:
        domain = glossary_domain(self.env)
        made = domain.made_definitions
        if not may_hold(self.env.docname, domain.session.require_builder(), set(made)):
            return
        settled = domain.settlement()
        for wrapper in list(self.document.findall(glossary_block)):
            docname = _page_of(wrapper, self.env.docname)
            dropped = set(settled.dropped.get(docname, {}).values())
            for item in list(wrapper.findall(nodes.definition_list_item)):
                term = item.children[0] if item.children else None
                if not isinstance(term, nodes.term) or not term["ids"]:
                    continue
                if term["ids"][0] in dropped:
                    item.parent.remove(item)
                    continue
                for index in list(term.findall(addnodes.index)):
                    if not any(entry[1] in settled.names for entry in index["entries"]):
                        index.parent.remove(index)
            remove_empty_letters(wrapper)


def remove_empty_letters(wrapper: glossary_block) -> None:
    """Letter headings (and their glossary nodes) left with no entry go too."""
    for glossary in list(wrapper.findall(addnodes.glossary)):
        if not any(True for _ in glossary.findall(nodes.definition_list_item)):
            rubric = glossary.previous_sibling()
            if isinstance(rubric, nodes.rubric):
                rubric.parent.remove(rubric)
            glossary.parent.remove(glossary)


def _page_of(node: nodes.Node, default: str) -> str:
    """The page a node was read from, in a document assembled from several pages.

    Sphinx marks each page it inlines: a ``start_of_file`` node around it, and its
    top-level sections carry a ``docname`` (singlehtml keeps only the latter).
    """
    parent = node.parent
    while parent is not None:
        if isinstance(parent, addnodes.start_of_file | nodes.section) and parent.get("docname"):
            return str(parent["docname"])
        parent = parent.parent
    return default
