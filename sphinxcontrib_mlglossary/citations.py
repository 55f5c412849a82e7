"""Citations: every term reference, remembered per page in document order.

A citation that lands on a term gets an id a backlink lands on: its number among the
page's citations that land on a term, so a reference to an unknown term takes no id
and shifts no other's. Which citations land is known once every page is read; a page's
ids change only when one of its own targets starts or stops resolving (which rewrites
the page anyway). The id is attached when the page is written, and the read doctree is
left untouched:
Sphinx holds every read doctree in memory until its page is written, and anything
added per citation there (an id string; even one more attribute, which doubles the
node's attribute dict) was most of what the extension added to a build's peak memory.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from docutils import nodes
from sphinx import addnodes

from .entry_definitions import cited_references
from .nodes import AUTOLINK, deferred_definition

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

ID_PREFIX = "mlglossary-cite-"
#: the target as written, kept on a reference when an explicit title hides it and the
#: ``term`` role replaced it (see :mod:`.roles`)
WRITTEN_TARGET = "mlglossary_written_target"


def written_target(node: nodes.Element) -> str:
    """The target as the author wrote it (up to case, which term lookups ignore)."""
    return target_as_written(node.attributes, node.astext)


def target_as_written(attributes: Mapping[str, Any], text: Callable[[], str]) -> str:
    """:func:`written_target` of a reference known by its attributes and its text (read only when needed)."""
    if attributes.get(WRITTEN_TARGET):
        return str(attributes[WRITTEN_TARGET])
    if attributes.get("refexplicit"):
        return str(attributes["reftarget"])
    return " ".join(text().split())


class Citation(NamedTuple):
    """One ``{term}`` reference on a page (a view made on demand from :class:`PageCitations`)."""

    #: the reference target as the author wrote it (resolved only when backlinks are drawn)
    target: str
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


def counted(flags: int, *, in_glossary: bool, auto: bool) -> bool:
    """Whether backlinks count a citation with these flags, given whether they count the
    citations inside glossary entries and auto-links (one rule for the lists and the ids)."""
    return not (flags & IN_GLOSSARY and not in_glossary) and not (flags & AUTO and not auto)


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

    def node_id(self, number: int) -> str:
        """Id of the page's ``number``-th citation that lands on a term (see :func:`landing_numbers`)."""
        return f"{self.prefix}{number}"

    def only(self, position: int) -> str:
        index = self.flags[position] >> _ONLY_SHIFT
        return self.conditions[index - 1] if index else ""

    def citation(self, position: int) -> Citation:
        flags = self.flags[position]
        section_id, section_title = self.sections[self.places[position]]
        return Citation(
            self.targets[position],
            section_id,
            section_title,
            bool(flags & IN_GLOSSARY),
            bool(flags & AUTO),
            self.only(position),
        )


def landing_numbers(record: PageCitations, lands: Callable[[str], bool]) -> tuple[int, ...]:
    """Per citation, its number among the page's citations that land on a term; -1 for
    one that lands nowhere (an unknown term, an ambiguous one), which takes no id."""
    numbers = []
    count = 0
    for target in record.targets:
        if lands(target):
            numbers.append(count)
            count += 1
        else:
            numbers.append(-1)
    return tuple(numbers)


def is_term_reference(xref: addnodes.pending_xref) -> bool:
    """What counts as a citation, when recorded and again when ids are attached."""
    return bool(xref.get("refdomain") == "std" and xref.get("reftype") == "term")


def id_prefix(docname: str) -> str:
    """Start of the ids of a page's citations: the page's name keeps them unique where
    pages share one output file (singlehtml, LaTeX)."""
    return f"{ID_PREFIX}{nodes.make_id(docname) or 'page'}-"


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


def _page_references(doctree: nodes.document) -> Iterator[tuple[str, bool, nodes.Node]]:
    """Each citation the page will hold when written, in document order: its target as
    written, whether it was auto-linked, and the node that stands where it will be (the
    reference itself, or the deferred definition holding it)."""
    for node in doctree.findall(_holds_references):
        if isinstance(node, deferred_definition):
            for stored in cited_references(node):
                attributes = stored.attributes
                if attributes.get("refdomain") == "std" and attributes.get("reftype") == "term":  # is_term_reference
                    yield (
                        target_as_written(attributes, partial(str, stored.text)),
                        bool(attributes.get(AUTOLINK)),
                        node,
                    )
        elif is_term_reference(xref := cast("addnodes.pending_xref", node)):
            yield written_target(xref), bool(xref.get(AUTOLINK)), node


def _holds_references(node: nodes.Node) -> bool:
    return isinstance(node, addnodes.pending_xref | deferred_definition)


def record_citations(doctree: nodes.document, docname: str) -> PageCitations | None:
    """The page's citations in document order (None when it has none)."""
    targets: list[str] = []
    places: list[int] = []
    flags: list[int] = []
    sections: dict[int, int] = {}  # id(section node) -> index into section_keys
    section_keys: list[tuple[str, str]] = []
    conditions: dict[str, int] = {}
    last: tuple[nodes.Node | None, _Place | None] = (None, None)
    for target, auto, standing in _page_references(doctree):
        place = last[1] if last[0] is standing and last[1] is not None else _place_of(standing)
        last = (standing, place)
        section, condition = place.section, place.only
        if id(section) not in sections:
            sections[id(section)] = len(section_keys)
            section_keys.append(_section_key(section))
        if condition and condition not in conditions:
            conditions[condition] = len(conditions)
        targets.append(sys.intern(target))
        places.append(sections[id(section)])
        flags.append(
            (IN_GLOSSARY if place.in_glossary else 0)
            | (AUTO if auto else 0)
            | ((conditions[condition] + 1) << _ONLY_SHIFT if condition else 0)
        )
    if not targets:
        return None
    return PageCitations(
        id_prefix(docname), tuple(targets), tuple(places), tuple(section_keys), tuple(flags), tuple(conditions)
    )


# -- who cites an entry (what backlinks show) ---------------------------------------------

#: (citing docname, positions of its citations there); positions index that page's
#: :class:`PageCitations`. Tuples, not lists: an index lives through the write phase,
#: and tuples of strings and ints drop out of the garbage collector's bookkeeping.
CitingPage = tuple[str, tuple[int, ...]]


@dataclass(slots=True)
class Cited:
    """The pages citing one entry, in reading order, and how many there are in all."""

    #: the first pages (all of them unless the index was built to keep fewer)
    pages: list[CitingPage] = field(default_factory=list)
    total: int = 0


#: (docname, anchor) of a glossary term -> the pages citing it
Index = dict[tuple[str, str], Cited]
