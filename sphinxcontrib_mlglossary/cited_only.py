"""``:cited-only:``: a glossary that shows only the entries some page cites.

Only known once every page is read, hence a post-transform rather than the directive.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .backlinks import cached_index, may_hold
from .domain import glossary_domain
from .left_out import remove_empty_letters
from .nodes import glossary_block


class CitedOnly(SphinxPostTransform):
    """Drop uncited entries from glossaries marked ``:cited-only:``."""

    default_priority = 15  # before tooltips (20) so removed entries get no cards

    def run(self, **kwargs: Any) -> None:
        domain = glossary_domain(self.env)
        if not may_hold(self.env.docname, domain.session.require_builder(), set(domain.definitions)):
            return
        wrappers = [w for w in self.document.findall(glossary_block) if w.get("mlglossary_cited_only")]
        if not wrappers:
            return
        index = cached_index(domain, False, 0)
        cited = {anchor for (docname, anchor), found in index.items() if found.total}
        removed: set[str] = set()
        for wrapper in wrappers:
            for item in list(wrapper.findall(nodes.definition_list_item)):
                term = item.children[0] if item.children else None
                if isinstance(term, nodes.term) and term["ids"] and term["ids"][0] not in cited:
                    removed.update(term["ids"])
                    item.parent.remove(item)
            remove_empty_letters(wrapper)
        # links into removed entries would dangle: keep their text only
        for reference in list(self.document.findall(nodes.reference)):
            if reference.get("refid") in removed:
                reference.replace_self(reference.children)
