"""Citations: every term reference, given a stable id at read time and remembered per page.

The id lets a backlink land on the exact spot; it counts citations within the page
only, so it doesn't change when other pages change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from docutils import nodes
from sphinx import addnodes
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.transforms.post_transforms import SphinxPostTransform

from .autolink import AUTOLINK

if TYPE_CHECKING:
    from collections.abc import Set

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

#: attribute on the environment: docname -> citations on that page, in document order
CITATIONS = "mlglossary_citations"
ID_PREFIX = "mlglossary-cite-"


class Citation(NamedTuple):
    """One ``{term}`` reference on a page."""

    #: the reference target as written (resolved to an entry only when backlinks are drawn)
    target: str
    #: id of the citation node: the landing spot of its backlink
    node_id: str
    #: id of the innermost section holding the citation ("" for the page's top section)
    section_id: str
    #: title of that section ("" for the page's top section)
    section_title: str
    #: True inside a glossary's own entries (one term mentioning another)
    in_glossary: bool
    #: True when auto-linking made the reference from plain text
    auto: bool = False
    #: the ``only`` expressions around the citation, joined with "and" ("" outside any):
    #: a format that drops the block has no citation to link back to
    only: str = ""


def citations(env: BuildEnvironment) -> dict[str, list[Citation]]:
    if not hasattr(env, CITATIONS):
        setattr(env, CITATIONS, {})
    return getattr(env, CITATIONS)  # type: ignore[no-any-return]


def _section_of(node: nodes.Node) -> tuple[str, str]:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, nodes.section):
            if isinstance(parent.parent, nodes.document):
                return "", ""  # the page's own title section: the page title says it all
            title = next(iter(parent.findall(nodes.title)), None)
            return (parent["ids"][0] if parent["ids"] else ""), (title.astext() if title else "")
        parent = parent.parent
    return "", ""


def _only_condition(node: nodes.Node) -> str:
    expressions = []
    parent = node.parent
    while parent is not None:
        if isinstance(parent, addnodes.only):
            expressions.append(f"({parent['expr']})")
        parent = parent.parent
    return " and ".join(reversed(expressions))


def _in_glossary(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, addnodes.glossary):
            return True
        parent = parent.parent
    return False


class CitationsCollector(EnvironmentCollector):
    """Keyed by citing page: purge pops it, a parallel merge copies only the merged pages."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        citations(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        theirs = citations(other)
        ours = citations(env)
        for docname in docnames:
            if docname in theirs:
                ours[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        found: list[Citation] = []
        # the page's name keeps ids unique where pages share one output file
        # (singlehtml); the count keeps them independent of every other page
        prefix = f"{ID_PREFIX}{nodes.make_id(app.env.docname) or 'page'}-"
        for xref in doctree.findall(addnodes.pending_xref):
            if xref.get("refdomain") != "std" or xref.get("reftype") != "term":
                continue
            node_id = f"{prefix}{len(found)}"
            xref["ids"].append(node_id)
            doctree.ids.setdefault(node_id, xref)
            section_id, section_title = _section_of(xref)
            found.append(
                Citation(
                    xref["reftarget"],
                    node_id,
                    section_id,
                    section_title,
                    _in_glossary(xref),
                    bool(xref.get(AUTOLINK)),
                    only=_only_condition(xref),
                )
            )
        if found:
            citations(app.env)[app.env.docname] = found


class WrapBareCitations(SphinxPostTransform):
    """Give bare-text term references an inline child before they are resolved.

    Some term references reach the write phase with a plain text child (seen for
    references inside our MyST-rendered entries after the doctree round trip);
    resolving them would drop the citation id that backlinks land on.
    """

    default_priority = 5  # before ReferencesResolver (10)

    def run(self, **kwargs: Any) -> None:
        for xref in self.document.findall(addnodes.pending_xref):
            if not xref.get("ids") or xref.get("reftype") != "term":
                continue
            if len(xref.children) == 1 and isinstance(xref.children[0], nodes.Element):
                continue
            content = nodes.inline(
                "", "", *[child.deepcopy() for child in xref.children], classes=["xref", "std", "std-term"]
            )
            xref.children = []
            xref += content
