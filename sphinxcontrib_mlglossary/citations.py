"""Citations: every term reference, given a stable id at read time and remembered per page.

The id lets a backlink land on the exact spot; it counts citations within the page
only, so it doesn't change when other pages change.
"""

from __future__ import annotations

import sys
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
    """One ``{term}`` reference on a page (a view made on demand from :class:`PageCitations`)."""

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


IN_GLOSSARY = 1
AUTO = 2
#: flags above these two bits hold 1 + the index of the citation's ``only`` condition
_ONLY_SHIFT = 2


class PageCitations(NamedTuple):
    """A page's citations in document order, stored column by column.

    Kept for every page for the whole build and pickled with the environment, so it
    stores no string per citation: node ids are ``prefix + position``, targets are
    interned (one object per distinct name in the whole environment), and sections and
    ``only`` conditions are indexes into the page's short lists. That keeps memory and
    the pickled environment close to a plain build's.
    """

    prefix: str
    targets: tuple[str, ...]
    #: per citation: index into ``sections``
    places: tuple[int, ...]
    #: (section id, section title) pairs; ("", "") for the page's top section
    sections: tuple[tuple[str, str], ...]
    #: per citation: IN_GLOSSARY | AUTO | (1 + index into ``conditions``) << 2
    flags: tuple[int, ...]
    conditions: tuple[str, ...]

    def node_id(self, position: int) -> str:
        return f"{self.prefix}{position}"

    def only(self, position: int) -> str:
        index = self.flags[position] >> _ONLY_SHIFT
        return self.conditions[index - 1] if index else ""

    def citation(self, position: int) -> Citation:
        flags = self.flags[position]
        section_id, section_title = self.sections[self.places[position]]
        return Citation(
            self.targets[position],
            self.node_id(position),
            section_id,
            section_title,
            bool(flags & IN_GLOSSARY),
            bool(flags & AUTO),
            self.only(position),
        )


def citations(env: BuildEnvironment) -> dict[str, PageCitations]:
    if not hasattr(env, CITATIONS):
        setattr(env, CITATIONS, {})
    return getattr(env, CITATIONS)  # type: ignore[no-any-return]


class _Place(NamedTuple):
    """Where a citation sits, found in one walk up its ancestors."""

    #: innermost section holding it; None for the page's own title section
    section: nodes.section | None
    #: the ``only`` expressions around it, joined with "and" ("" outside any)
    only: str
    #: inside a glossary's own entries
    in_glossary: bool


def _place_of(node: nodes.Node) -> _Place:
    section: nodes.section | None = None
    section_found = False
    expressions: list[str] = []
    in_glossary = False
    parent = node.parent
    while parent is not None:
        if not section_found and isinstance(parent, nodes.section):
            section_found = True
            section = None if isinstance(parent.parent, nodes.document) else parent
        elif isinstance(parent, addnodes.only):
            expressions.append(f"({parent['expr']})")
        elif isinstance(parent, addnodes.glossary):
            in_glossary = True
        parent = parent.parent
    return _Place(section, " and ".join(reversed(expressions)), in_glossary)


def _section_key(section: nodes.section | None) -> tuple[str, str]:
    if section is None:
        return "", ""  # the page's own title section: the page title says it all
    title = next(iter(section.findall(nodes.title)), None)
    return (section["ids"][0] if section["ids"] else ""), (title.astext() if title else "")


class CitationsCollector(EnvironmentCollector):
    """Keyed by citing page: purge pops it, a parallel merge copies only the merged pages."""

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        citations(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: Set[str], other: BuildEnvironment) -> None:
        theirs = citations(other)
        ours = citations(env)
        for docname in docnames:
            if docname in theirs:
                record = theirs[docname]
                # a worker's strings arrive as copies: share them again
                ours[docname] = record._replace(targets=tuple(map(sys.intern, record.targets)))

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        # the page's name keeps ids unique where pages share one output file
        # (singlehtml); the position keeps them independent of every other page
        prefix = f"{ID_PREFIX}{nodes.make_id(app.env.docname) or 'page'}-"
        targets: list[str] = []
        places: list[int] = []
        flags: list[int] = []
        sections: dict[int, int] = {}  # id(section node) -> index into section_keys
        section_keys: list[tuple[str, str]] = []
        conditions: dict[str, int] = {}
        for xref in doctree.findall(addnodes.pending_xref):
            if xref.get("refdomain") != "std" or xref.get("reftype") != "term":
                continue
            node_id = f"{prefix}{len(targets)}"
            xref["ids"].append(node_id)
            doctree.ids.setdefault(node_id, xref)
            place = _place_of(xref)
            section, condition = place.section, place.only
            if id(section) not in sections:
                sections[id(section)] = len(section_keys)
                section_keys.append(_section_key(section))
            if condition and condition not in conditions:
                conditions[condition] = len(conditions)
            targets.append(sys.intern(xref["reftarget"]))
            places.append(sections[id(section)])
            flags.append(
                (IN_GLOSSARY if place.in_glossary else 0)
                | (AUTO if xref.get(AUTOLINK) else 0)
                | ((conditions[condition] + 1) << _ONLY_SHIFT if condition else 0)
            )
        if targets:
            citations(app.env)[app.env.docname] = PageCitations(
                prefix, tuple(targets), tuple(places), tuple(section_keys), tuple(flags), tuple(conditions)
            )


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
