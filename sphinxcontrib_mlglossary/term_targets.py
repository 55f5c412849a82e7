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
backlinks land.

Some references reach this phase with a bare text child (seen for references inside
our MyST-rendered entries after the doctree round trip); resolving those would drop the
id, so they get an inline wrapper first.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .citations import is_term_reference, written_target
from .diagnostics import MlGlossaryWarning, warn
from .domain import glossary_domain
from .external_terms import mapped_term_names
from .nodes import AMBIGUOUS
from .resolution import Ambiguous, Found


class TermTargets(SphinxPostTransform):
    """Give each citation its id and, where this project defines it, its exact term."""

    default_priority = 5  # before ReferencesResolver (10)

    def run(self, **kwargs: Any) -> None:
        domain = glossary_domain(self.env)
        terms = domain.term_index()
        recorded = domain.citations
        counted: dict[str, int] = {}
        for xref in self.document.findall(addnodes.pending_xref):
            if not is_term_reference(xref):
                continue
            written = written_target(xref)
            found = terms.resolve(written)
            if isinstance(found, Found):
                xref["reftarget"] = found.name
            elif found is None and xref["reftarget"] != written.lower():
                # the role proposed our entry's canonical name ("parameters" for "parameter"):
                # when only what was written is another site's term, intersphinx gets that
                mapped = mapped_term_names(domain)
                if written.lower() in mapped and xref["reftarget"].lower() not in mapped:
                    xref["reftarget"] = written
            elif isinstance(found, Ambiguous):
                names = " and ".join(map(repr, found.names))
                warn(
                    MlGlossaryWarning.AMBIGUOUS_TERM,
                    f"term {written!r} could mean {names}; write the one you mean",
                    location=xref,
                )
                xref[AMBIGUOUS] = True
            page = xref.get("refdoc") or self.env.docname
            position = counted.get(page, 0)
            record = recorded.get(page)
            if record is None or position >= len(record.targets) or record.targets[position] != written:
                continue  # not the citation recorded next on its page: added after reading
            counted[page] = position + 1
            node_id = domain.citation_id(page, position)
            if node_id is None:
                continue  # lands on no term: no id, and the page's other ids don't shift
            xref["ids"].append(node_id)
            if len(xref.children) == 1 and isinstance(xref.children[0], nodes.Element):
                continue
            content = nodes.inline(
                "", "", *[child.deepcopy() for child in xref.children], classes=["xref", "std", "std-term"]
            )
            xref.children = []
            xref += content
