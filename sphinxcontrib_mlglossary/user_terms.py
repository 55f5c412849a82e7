"""Terms of the project's own ``glossary`` directives, remembered when their page is read.

Their tooltip cards show the term's first paragraph; keeping it at read time (in the
process that reads the page) lets any process that writes a citing page build the card
without opening the glossary page's doctree.

That paragraph travels to every citing page and into ``glossary.json``, so the copy kept
follows the rules of glossary data (:func:`~sphinxcontrib_mlglossary.markup.make_safe`):
raw HTML and script-capable links are left out of it, with one warning per definition.
The project's own page keeps whatever its parser made.
"""

from __future__ import annotations

from typing import NamedTuple

from docutils import nodes
from sphinx import addnodes

from .diagnostics import MlGlossaryWarning, warn
from .markup import make_safe
from .nodes import glossary_block


class UserTerm(NamedTuple):
    """One term of the project's own glossary."""

    #: the term as shown
    text: str
    #: the first paragraph of its definition (None when it has none)
    paragraph: nodes.paragraph | None


def collect_user_terms(document: nodes.document) -> dict[str, UserTerm]:
    """anchor -> term, for every term of the page's own glossaries (ours left out)."""
    found: dict[str, UserTerm] = {}
    for glossary in document.findall(addnodes.glossary):
        if _inside_mlglossary(glossary):
            continue
        for item in glossary.findall(nodes.definition_list_item):
            definition = next(iter(item.findall(nodes.definition)), None)
            paragraph = next(iter(definition.findall(nodes.paragraph)), None) if definition else None
            summary = _summary(paragraph, item) if paragraph else None  # (an empty paragraph: none)
            for term in item.findall(nodes.term):
                if term["ids"]:
                    found[term["ids"][0]] = UserTerm(term.astext(), summary)
    return found


def _summary(paragraph: nodes.paragraph, item: nodes.definition_list_item) -> nodes.paragraph:
    """A copy of the paragraph fit for cards and ``glossary.json``; what was left out is reported once."""
    copy = paragraph.deepcopy()
    for element in copy.findall(nodes.Element):
        # the copy is shown on other pages (and many times on one): the page's ids stay the page's
        element["ids"], element["names"] = [], []
    dropped: list[str] = []
    make_safe(copy, dropped.append)
    if dropped:
        term = next(iter(item.findall(nodes.term)), None)
        name = term.astext() if term is not None else "?"
        warn(
            MlGlossaryWarning.MARKUP,
            f"glossary term {name!r}: its definition's first paragraph is shown in tooltip cards and "
            f"glossary.json, where {'; '.join(dropped)} (this page itself keeps it)",
            location=paragraph,
        )
    return copy


def _inside_mlglossary(node: nodes.Element) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, glossary_block):
            return True
        parent = parent.parent
    return False
