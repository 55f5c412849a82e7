"""singlehtml: term links that land on the one page every document is written into.

Sphinx resolves a link to another document's term as that document's URI plus the term's
id; the single-page builder names a document ``#document-<name>``, so the link becomes
``#document-glossary#term-token``, which matches no id in a browser (Sphinx's own
glossary links have the same problem there). On one page the term's own id is the place
to go: term links, and the term links inside cards, are written ``#term-token``.

Ids are unique per document, not across the documents the page assembles: a section
titled "Term token" on another page holds ``term-token`` there, and on the one page
the browser would take the first of the two. Glossary terms, where term links land, keep
their ids; the other element takes ``term-token-1`` (as docutils names an id already taken).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .nodes import AUTOLINK_CLASS

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: the builder that writes every document into one page
BUILDER = "singlehtml"
#: how that builder names a document in a link
_DOCUMENT_PREFIX = "#document-"


def land_on_the_page(reference: nodes.Element) -> None:
    """``#document-<name>#<id>`` becomes ``#<id>``; any other reference is left as it is."""
    refuri = reference.get("refuri", "")
    if refuri.startswith(_DOCUMENT_PREFIX) and "#" in refuri[1:]:
        reference["refid"] = refuri[1:].partition("#")[2]
        del reference["refuri"]


def is_term_link(reference: nodes.reference) -> bool:
    """A resolved term reference: Sphinx's ``std-term`` inline, or one of our auto-links."""
    if not reference.children:
        return False
    first = reference.children[0]
    classes = first.get("classes", ()) if isinstance(first, nodes.Element) else ()
    return "std-term" in classes or AUTOLINK_CLASS in classes


class SinglePageTermLinks(SphinxPostTransform):
    """Term links of the assembled single page point at ids on it."""

    default_priority = 15  # after ReferencesResolver (10), before the cards (20) read the links
    builders = (BUILDER,)

    def run(self, **kwargs: Any) -> None:
        keep_term_anchors(self.document)
        for reference in self.document.findall(nodes.reference):
            if is_term_link(reference):
                land_on_the_page(reference)


def keep_term_anchors(document: nodes.document) -> None:
    """Elements of other documents holding a glossary term's id (ours or the project's) give it up."""
    entries = [term for term in document.findall(nodes.term) if term["ids"]]
    anchors = {term["ids"][0] for term in entries}
    if not anchors:
        return
    keep = {id(term) for term in entries}
    elements = list(document.findall(nodes.Element))
    used = {given for element in elements for given in element["ids"]}
    for element in elements:
        if id(element) in keep or not anchors.intersection(element["ids"]):
            continue
        renamed = []
        for given in element["ids"]:
            if given in anchors:
                suffix = 1
                while f"{given}-{suffix}" in used:
                    suffix += 1
                given = f"{given}-{suffix}"
                used.add(given)
            renamed.append(given)
        element["ids"] = renamed


def register(app: Sphinx) -> None:
    app.add_post_transform(SinglePageTermLinks)
