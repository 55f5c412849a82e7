"""The words of a page's stored bodies, given to Sphinx's search once each.

Sphinx's search index maps each word to the pages holding it, with no count, but its
indexer still visits every occurrence: on a glossary page of 300 stored bodies (about
100,000 words, 7,000 different ones) that loop was the largest single cost of writing the
page (0.28 s of its 0.37 s). The stored bodies are static HTML, so once the page is
resolved (``doctree-resolved``, the last step before Sphinx indexes it) each body is
marked ``no-search`` and one :class:`search_words` node holds the page's body text, each
space-separated piece once. The indexer reads that text as it would have read the bodies
(raw HTML with its tags stripped the way Sphinx strips them, the links' text as text) and
so finds the same words; no writer shows it.

Search languages that cut words without spaces (Japanese, Chinese) are left as they were:
their word splitters read runs of text, and pieces taken out of their sentences could cut
differently.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from docutils import nodes

from .backlinks import may_hold
from .domain import glossary_domain
from .nodes import skip
from .prerendered import prerendered_body

if TYPE_CHECKING:
    from sphinx.application import Sphinx

#: the class Sphinx's indexer skips an element for
NO_SEARCH = "no-search"

#: search languages whose word splitters do not cut at spaces
_SEGMENTING_LANGUAGES = frozenset({"ja", "zh"})

#: what Sphinx's indexer takes out of raw HTML before it splits the text into words
_STYLE = re.compile(r"<style.*?</style>", re.IGNORECASE | re.DOTALL)
_SCRIPT = re.compile(r"<script.*?</script>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^<]+?>")
_STYLE_OR_SCRIPT = re.compile(r"<s(?:tyle|cript)", re.IGNORECASE)


class search_words(nodes.Element):
    """Text for the search index only: the stored bodies' words, each once. Never written."""


def searchable_text(node: nodes.Node) -> list[str]:
    """The texts Sphinx's indexer splits into words for ``node``, in document order."""
    if isinstance(node, nodes.comment) or (isinstance(node, nodes.Element) and NO_SEARCH in node["classes"]):
        return []
    if isinstance(node, nodes.raw):
        if "html" not in node.get("format", "").split():
            return []
        text = node.astext()
        if _STYLE_OR_SCRIPT.search(text):  # seldom: one search instead of two substitutions
            text = _SCRIPT.sub("", _STYLE.sub("", text))
        return [_TAG.sub("", text)]
    if isinstance(node, nodes.Text):
        return [node.astext()]
    return [text for child in node.children for text in searchable_text(child)]


def pool_body_words(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: mark the stored bodies ``no-search`` and hold their words once."""
    if app.builder.format != "html" or not getattr(app.builder, "search", False):
        return
    language = str(app.config.html_search_language or app.config.language or "en")
    if language[:2].lower() in _SEGMENTING_LANGUAGES:
        return
    if not may_hold(docname, app.builder, set(glossary_domain(app.env).definitions)):
        return  # most pages hold no glossary: not walked
    bodies = list(doctree.findall(prerendered_body))
    if not bodies:
        return
    pieces: dict[str, None] = {}
    for body in bodies:
        for text in searchable_text(body):
            pieces.update(dict.fromkeys(text.split()))
        body["classes"].append(NO_SEARCH)
    doctree += search_words("", nodes.Text(" ".join(pieces)))


def register(app: Sphinx) -> None:
    others: dict[str, Any] = {fmt: (skip, None) for fmt in ("latex", "text", "man", "texinfo")}
    app.add_node(search_words, html=(skip, None), **others)
    # last: the bodies' text must be final when it is copied (Sphinx indexes right after)
    app.connect("doctree-resolved", pool_body_words, priority=900)
