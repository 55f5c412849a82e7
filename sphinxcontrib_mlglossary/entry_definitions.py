"""A shipped entry's definition on its glossary page, put in place when the page is written.

Read in full, a glossary page of a few hundred entries holds thousands of nodes (each
stored body's HTML pieces and links, each "See also" list's references) that every read
transform walks, that are pickled with the page and held in memory until it is written,
and that no collector needs: a stored body holds no label, image, index entry or section
(:func:`~.entry_bodies.prerenderable`), and its citations are recorded from the data
(:func:`cited_references`). So a shown entry whose body is stored is read as its term
(anchor and index entries) and a :class:`~.nodes.deferred_definition` naming it;
:class:`ExpandDefinitions`, the first of the extension's post-transforms, puts the body and
its "See also" list in its place for every builder, before the citations get their ids.
A project's own glossary file is parsed when read, as before (its bodies warn then).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .entry_references import mark_references
from .i18n import _
from .linked_bodies import add_see_also, link_slot, linked, linked_body, may_link, takes_links
from .loader import bundled_glossary
from .nodes import ENTRY_REFERENCE, deferred_definition
from .prerendered import body_node, bundled_prerendered, data_text, prerendered_body
from .text_direction import list_separator

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

    from .model import Entry, Glossary


def deferred(entry: Entry, language: str, docname: str) -> deferred_definition:
    """What the page holds for ``entry`` until it is written."""
    return deferred_definition(entry=entry.id, language=language, docname=docname)


def see_also(
    related: list[Entry], language: str, docname: str, link: Callable[[Entry, str], nodes.Node] | None = None
) -> nodes.paragraph:
    """The "See also:" line: a term reference to each related entry, by its name.

    Its text elements are ``translatable=False`` (our translations, kept out of the project's).
    ``link`` makes what stands for each reference (a linked body's slot); by default the
    reference's node.
    """
    paragraph = nodes.paragraph(classes=["mlglossary-see-also"], translatable=False)
    paragraph += nodes.strong(text=str(_("See also:")), translatable=False)
    paragraph += nodes.Text(" ")
    separator = list_separator(language)
    for position, other in enumerate(related):
        if position:
            paragraph += nodes.Text(separator)
        paragraph += (link or _see_also_reference)(other, docname)
    return paragraph


#: classes of a "See also" reference's content, as a ``{term}`` role gives them
_SEE_ALSO_CLASSES = ("xref", "std", "std-term")


def _see_also_attributes(other: Entry, docname: str) -> dict[str, Any]:
    """A "See also" reference's attributes, in the order its node holds them."""
    return {
        "refdomain": "std",
        "reftype": "term",
        "reftarget": other.name,
        "refexplicit": False,
        "refwarn": True,
        "refdoc": docname,
        ENTRY_REFERENCE: True,
    }


def _see_also_reference(other: Entry, docname: str) -> addnodes.pending_xref:
    xref = addnodes.pending_xref(
        "", nodes.inline(other.name, other.name, classes=list(_SEE_ALSO_CLASSES), translatable=False)
    )
    xref.attributes.update(_see_also_attributes(other, docname))
    return xref


def _see_also_slot(body: linked_body) -> Callable[[Entry, str], nodes.Node]:
    """Make each "See also" reference of a linked body a link record: the data
    :func:`_see_also_reference`'s node gives (:func:`~.prerendered.node_data`)."""

    def slot(other: Entry, docname: str) -> nodes.Node:
        content = ["inline", {"classes": list(_SEE_ALSO_CLASSES)}, [other.name]]
        return link_slot(body, _see_also_attributes(other, docname), content, nodes.unescape(other.name))

    return slot


def related_entries(entry: Entry, glossary: Glossary) -> list[Entry]:
    return [other for target in entry.see_also if (other := glossary.get(target)) is not None]


class StoredReference(NamedTuple):
    """A cross-reference a deferred definition will hold, as what its citation is recorded
    from: its attributes and its text (what ``astext()`` of the node will give)."""

    attributes: Mapping[str, Any]
    text: str


def cited_references(node: deferred_definition) -> Iterator[StoredReference]:
    """The cross-references the definition will hold, in page order, read from the data
    (making the nodes themselves only to record them cost the reading more than the rest)."""
    glossary = bundled_glossary(node["language"])
    entry = glossary.get(node["entry"])
    if entry is None:
        return
    stored = bundled_prerendered(node["language"])
    fragment = stored.fragment(entry.id, entry.body) if stored is not None else None
    if fragment is not None:
        for link in fragment.links:
            if not isinstance(link, str) and link[0] == "pending_xref":
                yield StoredReference(link[1], data_text(link))
    for other in related_entries(entry, glossary):
        # as _see_also_reference makes it
        yield StoredReference(_SEE_ALSO_ATTRIBUTES, nodes.unescape(other.name))


#: the attributes of a "See also" reference that decide its citation (its target is its text)
_SEE_ALSO_ATTRIBUTES = {"refdomain": "std", "reftype": "term", "refexplicit": False}


class ExpandDefinitions(SphinxPostTransform):
    """Put each deferred definition's body and "See also" list in its place."""

    default_priority = 2  # before StoredBodies (3) and TermTargets (5), which count the citations

    def run(self, **kwargs: Any) -> None:
        known: dict[str, dict[str, bool]] = {}  # per language: whether a reference names an entry
        for node in list(self.document.findall(deferred_definition)):
            linkable = may_link(node)
            node.replace_self(self._definition(node, known.setdefault(node["language"], {}), linkable))

    def _definition(self, node: deferred_definition, known: dict[str, bool], linkable: bool) -> list[nodes.Node]:
        """The body and "See also" line, their text elements ``translatable=False`` as made."""
        language, docname = node["language"], node["docname"]
        glossary = bundled_glossary(language)
        entry = glossary.get(node["entry"])
        if entry is None:
            return []  # the shipped data lost the entry since the page was read: it is read again
        body = self._body(entry, language, docname, glossary, known, linkable)
        related = related_entries(entry, glossary)
        if isinstance(body, linked_body):
            if related:
                add_see_also(body, see_also(related, language, docname, _see_also_slot(body)))
            return [body]
        return [body, see_also(related, language, docname)] if related else [body]

    def _body(
        self, entry: Entry, language: str, docname: str, glossary: Glossary, known: dict[str, bool], linkable: bool
    ) -> nodes.Node:
        stored = bundled_prerendered(language)
        fragment = stored.fragment(entry.id, entry.body) if stored is not None else None
        if fragment is not None and linkable and takes_links(fragment):
            return linked(entry.id, language, fragment, docname)
        if fragment is not None:
            return body_node(
                entry.id, language, fragment, docname, lambda link: mark_references([link], glossary, known)
            )
        # the shipped data changed since the page was read (an upgrade mid-build): an empty
        # stored body that StoredBodies parses in its place
        return prerendered_body(entry=entry.id, language=language, docname=docname, stale=True, translatable=False)
