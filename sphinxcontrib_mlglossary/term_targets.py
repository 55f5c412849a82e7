"""Before Sphinx resolves references: each citation gets its id, and the term it means.

Runs on the doctree being written, once every page is read, so it knows what the
project defines: the ``term`` role's canonical name for one of our entries (see
:mod:`.roles`) gives way to a term of the project's own by the name the author wrote,
and plurals, possessives and any-case spellings are settled here (see
:mod:`.resolution`). Each reference then names its term exactly, and the standard
domain links it; what is no term of this project keeps its canonical name for
Sphinx's other resolvers (intersphinx), unless only the name as written is a term of a
site intersphinx maps (a plain Sphinx glossary defines "parameter", not our "parameters").

Ids: citations are counted per page in document order, as they were recorded; each
reference names its page (``refdoc``), so documents assembled from several pages
(singlehtml, LaTeX) count each page on its own. A reference that isn't the citation
recorded next on its page was added after reading (by another extension): it gets no
id and shifts no other citation's. Resolving moves the ids onto the link, where
backlinks land; a citation no backlink counts (inside an entry, an auto-link, unless the
project counts those) keeps its number but gets no id.

Some references reach this phase with a bare text child (seen for references inside
our MyST-rendered entries after the doctree round trip); resolving those would drop the
id, so they get an inline wrapper first.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .citations import counted, is_term_reference, target_as_written, written_target
from .diagnostics import MlGlossaryWarning, warn
from .domain import MlGlossaryDomain, glossary_domain
from .external_terms import mapped_term_names
from .linked_bodies import linked_body
from .nodes import AMBIGUOUS
from .resolution import Ambiguous, Found, TermIndex


class TermTargets(SphinxPostTransform):
    """Give each citation its id and, where this project defines it, its exact term."""

    default_priority = 5  # before ReferencesResolver (10)

    _domain: MlGlossaryDomain
    _index: TermIndex
    _counted: dict[str, int]  # per page: the citations counted so far

    def run(self, **kwargs: Any) -> None:
        self._domain = domain = glossary_domain(self.env)
        self._index = domain.term_index()
        self._counted = {}
        for node in list(self.document.findall(_reference_or_linked_body)):
            if isinstance(node, linked_body):
                for record in node["links"]:  # as the node of each would be (linked_bodies)
                    attributes = record["attributes"]
                    written = target_as_written(attributes, partial(str, record["text"]))
                    node_id = self._settle(attributes, written, node)
                    if node_id:
                        record["ids"].append(node_id)
                continue
            assert isinstance(node, addnodes.pending_xref)
            if not is_term_reference(node):
                continue
            node_id = self._settle(node.attributes, written_target(node), node)
            if node_id is None:
                continue
            if node_id:
                node["ids"].append(node_id)
            if len(node.children) == 1 and isinstance(node.children[0], nodes.Element):
                continue
            content = nodes.inline(
                "", "", *[child.deepcopy() for child in node.children], classes=["xref", "std", "std-term"]
            )
            node.children = []
            node += content

    def _settle(self, attributes: dict[str, Any], written: str, location: nodes.Node) -> str | None:
        """Settle a term reference's target (its ``attributes``, changed in place); its citation id.

        None when it is no citation recorded on its page or lands on no term; "" when it
        lands on one but nothing this build writes can point at it (see :func:`~.citations.counted`).
        """
        domain = self._domain
        found = self._index.resolve(written)
        if isinstance(found, Found):
            attributes["reftarget"] = found.name
        elif found is None and attributes["reftarget"] != written.lower():
            # the role proposed our entry's canonical name ("parameters" for "parameter"):
            # when only what was written is another site's term, intersphinx gets that
            mapped = mapped_term_names(domain)
            if written.lower() in mapped and attributes["reftarget"].lower() not in mapped:
                attributes["reftarget"] = written
        elif isinstance(found, Ambiguous):
            names = " and ".join(map(repr, found.names))
            warn(
                MlGlossaryWarning.AMBIGUOUS_TERM,
                f"term {written!r} could mean {names}; write the one you mean",
                location=location,
            )
            attributes[AMBIGUOUS] = True
        page = attributes.get("refdoc") or self.env.docname
        position = self._counted.get(page, 0)
        record = domain.citations.get(page)
        if record is None or position >= len(record.targets) or record.targets[position] != written:
            return None  # not the citation recorded next on its page: added after reading
        self._counted[page] = position + 1
        node_id = domain.citation_id(page, position)  # None: lands on no term, and shifts no other id
        # an id no "Cited in" list or glossary.json counts lands nothing (the shipped
        # glossary page's 2,456 in-entry links carried 85 KB of them)
        settings = domain.session.settings
        linked = counted(
            record.flags[position], in_glossary=settings.backlinks_from_glossary, auto=settings.autolink_backlinks
        )
        return node_id if node_id is None or linked else ""


def _reference_or_linked_body(node: nodes.Node) -> bool:
    return isinstance(node, addnodes.pending_xref | linked_body)
