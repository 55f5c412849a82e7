"""Citations: every term reference, remembered per page in document order.

A citation's position on its page gives it a stable id that a backlink lands on; it
counts citations within the page only, so it doesn't change when other pages change.
The id is attached when the page is written, and the read doctree is left untouched:
Sphinx holds every read doctree in memory until its page is written, and anything
added per citation there (an id string; even one more attribute, which doubles the
node's attribute dict) was most of what the extension added to a build's peak memory.
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


def is_term_reference(xref: addnodes.pending_xref) -> bool:
    """What counts as a citation, when recorded and again when ids are attached."""
    return bool(xref.get("refdomain") == "std" and xref.get("reftype") == "term")


def id_prefix(docname: str) -> str:
    """Start of the ids of a page's citations: the page's name keeps them unique where
    pages share one output file (singlehtml, LaTeX)."""
    if docname not in _PREFIXES:
        _PREFIXES[docname] = f"{ID_PREFIX}{nodes.make_id(docname) or 'page'}-"
    return _PREFIXES[docname]


_PREFIXES: dict[str, str] = {}


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
        prefix = id_prefix(app.env.docname)
        targets: list[str] = []
        places: list[int] = []
        flags: list[int] = []
        sections: dict[int, int] = {}  # id(section node) -> index into section_keys
        section_keys: list[tuple[str, str]] = []
        conditions: dict[str, int] = {}
        for xref in doctree.findall(addnodes.pending_xref):
            if not is_term_reference(xref):
                continue
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


class IdentifyCitations(SphinxPostTransform):
    """Give each citation its id, and an inline child, before it is resolved.

    Runs on the doctree being written: resolving moves the ``pending_xref``'s ids onto
    the link, where backlinks land. Citations are counted per page in document order,
    as they were recorded; each reference names its page (``refdoc``), so documents
    assembled from several pages (singlehtml, LaTeX) count each page on its own. A
    reference that isn't the citation recorded next on its page was added after reading
    (by another extension): it gets no id and shifts no other citation's.

    Some references reach this phase with a bare text child (seen for references inside
    our MyST-rendered entries after the doctree round trip); resolving those would drop
    the id, so they get an inline wrapper first.
    """

    default_priority = 5  # before ReferencesResolver (10)

    def run(self, **kwargs: Any) -> None:
        recorded = citations(self.env)
        counted: dict[str, int] = {}
        for xref in self.document.findall(addnodes.pending_xref):
            if not is_term_reference(xref):
                continue
            page = xref.get("refdoc") or self.env.docname
            position = counted.get(page, 0)
            record = recorded.get(page)
            if record is None or position >= len(record.targets) or record.targets[position] != xref["reftarget"]:
                continue  # not the citation recorded next on its page: added after reading
            counted[page] = position + 1
            xref["ids"].append(record.node_id(position))
            if len(xref.children) == 1 and isinstance(xref.children[0], nodes.Element):
                continue
            content = nodes.inline(
                "", "", *[child.deepcopy() for child in xref.children], classes=["xref", "std", "std-term"]
            )
            xref.children = []
            xref += content
