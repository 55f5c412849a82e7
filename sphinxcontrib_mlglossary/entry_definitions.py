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

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .entry_references import mark_references
from .i18n import _
from .loader import bundled_glossary
from .nodes import ENTRY_REFERENCE, deferred_definition
from .prerendered import body_node, bundled_prerendered, node_from_data, prerendered_body
from .text_direction import list_separator

if TYPE_CHECKING:
    from collections.abc import Iterator

    from .model import Entry, Glossary


def deferred(entry: Entry, language: str, docname: str) -> deferred_definition:
    """What the page holds for ``entry`` until it is written."""
    return deferred_definition(entry=entry.id, language=language, docname=docname)


def see_also(related: list[Entry], language: str, docname: str) -> nodes.paragraph:
    """The "See also:" line: a term reference to each related entry, by its name."""
    paragraph = nodes.paragraph(classes=["mlglossary-see-also"])
    paragraph += nodes.strong(text=str(_("See also:")))
    paragraph += nodes.Text(" ")
    separator = list_separator(language)
    for position, other in enumerate(related):
        if position:
            paragraph += nodes.Text(separator)
        paragraph += _see_also_reference(other, docname)
    return paragraph


def _see_also_reference(other: Entry, docname: str) -> addnodes.pending_xref:
    xref = addnodes.pending_xref(
        "",
        nodes.inline(other.name, other.name, classes=["xref", "std", "std-term"]),
        refdomain="std",
        reftype="term",
        reftarget=other.name,
        refexplicit=False,
        refwarn=True,
        refdoc=docname,
    )
    xref[ENTRY_REFERENCE] = True
    return xref


def related_entries(entry: Entry, glossary: Glossary) -> list[Entry]:
    return [other for target in entry.see_also if (other := glossary.get(target)) is not None]


def cited_references(node: deferred_definition) -> Iterator[addnodes.pending_xref]:
    """The cross-references the definition will hold, in page order (made apart, for the record)."""
    glossary = bundled_glossary(node["language"])
    entry = glossary.get(node["entry"])
    if entry is None:
        return
    stored = bundled_prerendered(node["language"])
    fragment = stored.fragment(entry.id, entry.body) if stored is not None else None
    if fragment is not None:
        for link in fragment.links:
            made = node_from_data(link)
            if isinstance(made, addnodes.pending_xref):
                yield made
    for other in related_entries(entry, glossary):
        yield _see_also_reference(other, node["docname"])


class ExpandDefinitions(SphinxPostTransform):
    """Put each deferred definition's body and "See also" list in its place."""

    default_priority = 2  # before StoredBodies (3) and TermTargets (5), which count the citations

    def run(self, **kwargs: Any) -> None:
        known: dict[str, dict[str, bool]] = {}  # per language: whether a reference names an entry
        for node in list(self.document.findall(deferred_definition)):
            node.replace_self(self._definition(node, known.setdefault(node["language"], {})))

    def _definition(self, node: deferred_definition, known: dict[str, bool]) -> list[nodes.Node]:
        language, docname = node["language"], node["docname"]
        glossary = bundled_glossary(language)
        entry = glossary.get(node["entry"])
        if entry is None:
            return []  # the shipped data lost the entry since the page was read: it is read again
        content = self._body(entry, language, docname)
        related = related_entries(entry, glossary)
        mark_references(content, glossary, known)
        if related:
            content.append(see_also(related, language, docname))
        for block in content:
            if isinstance(block, nodes.Element):
                for text_node in block.findall(nodes.TextElement):
                    text_node["translatable"] = False  # our own translations, kept out of the project's
        return content

    def _body(self, entry: Entry, language: str, docname: str) -> list[nodes.Node]:
        stored = bundled_prerendered(language)
        fragment = stored.fragment(entry.id, entry.body) if stored is not None else None
        if fragment is not None:
            return [body_node(entry.id, language, fragment, docname)]
        # the shipped data changed since the page was read (an upgrade mid-build): an empty
        # stored body that StoredBodies parses in its place
        return [prerendered_body(entry=entry.id, language=language, docname=docname, stale=True)]
