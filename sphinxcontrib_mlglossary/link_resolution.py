"""Where the links of each linked body (:mod:`.linked_bodies`) go, decided as for their nodes.

``ReferencesResolver`` asks the link's domain, then the ``missing-reference`` handlers.
Here the standard domain is asked the same question, once per page and target; a body
any of whose links it doesn't answer with a plain link (or any body, on builders that
write links otherwise) becomes the nodes it stands for, before ``ReferencesResolver``
runs, and is resolved, warned about or unlinked as any reference is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .domain import glossary_domain
from .linked_bodies import BUILDERS, as_nodes, linked_body, search_once
from .prerendered import node_from_data

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: attributes a resolved term link may carry (anything else: the body becomes nodes)
_PLAIN_LINK = frozenset({"internal", "refid", "refuri", "reftitle"})


class ResolveLinkedBodies(SphinxPostTransform):
    """Resolve each linked body's links, or make the body nodes for ``ReferencesResolver``."""

    default_priority = 9  # after TermTargets (5) settled the links; before ReferencesResolver (10)

    def run(self, **kwargs: Any) -> None:
        bodies = list(self.document.findall(linked_body))
        if not bodies:
            return
        builder = glossary_domain(self.env).session.require_builder()
        if builder.name not in BUILDERS:
            for body in bodies:
                body.replace_self(as_nodes(body))
            return
        standard = self.env.get_domain("std")
        found: dict[tuple[str, str], dict[str, Any] | None] = {}
        kept = []
        for body in bodies:
            for record in body["links"]:
                attributes = record["attributes"]
                key = (attributes["refdoc"], attributes["reftarget"])
                if key not in found:
                    xref = node_from_data(["pending_xref", attributes, [record["content"]]], untranslatable=True)
                    content = node_from_data(record["content"], untranslatable=True)  # what the resolver links
                    assert isinstance(xref, addnodes.pending_xref) and isinstance(content, nodes.Element)
                    result = standard.resolve_xref(
                        self.env, attributes["refdoc"], builder, "term", attributes["reftarget"], xref, content
                    )
                    found[key] = _plain_link(result, content)
                resolved = found[key]
                if resolved is None:
                    body.replace_self(as_nodes(body))
                    break
                record["resolved"] = dict(resolved, classes=[])
            else:
                kept.append(body)
        config = self.env.config
        search_once(kept, config.html_search_language or config.language or "en")


def _plain_link(result: nodes.Node | None, content: nodes.Node) -> dict[str, Any] | None:
    """The attributes of a link that holds just its content; None for no link or anything else."""
    if not isinstance(result, nodes.reference) or result.children != [content]:
        return None
    attributes = {key: value for key, value in result.attributes.items() if value not in ([], None)}
    return attributes if set(attributes) <= _PLAIN_LINK else None


def register(app: Sphinx) -> None:
    app.add_post_transform(ResolveLinkedBodies)
