"""schema.org JSON-LD on glossary pages, so search engines see terms, not plain text.

Each page showing our entries carries one ``DefinedTermSet`` with a ``DefinedTerm`` per
entry the page shows (after :mod:`.left_out` and :mod:`.cited_only` have taken theirs
off). It is made in a post-transform, in the main process even under ``-j``, from what
the domain gathered at read time, and written by the HTML builders that make web pages
(html, dirhtml, singlehtml). Epub leaves it out: a script in an EPUB content document
makes it "scripted" content that reading systems may refuse.

The JSON is embedded in a ``<script>`` element, where ``</script>`` or ``<!--`` in any
string would end or confuse it: ``<``, ``>`` and ``&`` are written as JSON escapes
(``\\u003c``), which any JSON reader turns back into the same text.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import new_document

from .backlinks import may_hold
from .domain import glossary_domain
from .nodes import skip
from .rendering import one_line, our_summary, page_title
from .sources import entry_for

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.writers.html5 import HTML5Translator

    from .domain import MlGlossaryDomain

#: the builders whose pages carry the JSON-LD (and that ``glossary.json`` links from)
WEB_BUILDERS = frozenset({"html", "dirhtml", "singlehtml"})
#: id of the ``<script>`` element holding a page's term set (``glossary.html#mlglossary-terms``)
ELEMENT_ID = "mlglossary-terms"
_SINGLE_PAGE = "singlehtml"
_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}


class structured_data(nodes.Invisible, nodes.Element):
    """A page's JSON-LD, as text ready for a ``<script>`` element (see :func:`script_json`)."""


def script_json(data: Any) -> str:
    """JSON that can't end or comment out the ``<script>`` element it sits in."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).translate(_ESCAPES)


def visit_structured_data_html(self: HTML5Translator, node: structured_data) -> None:
    if self.builder.name in WEB_BUILDERS:
        # node["json"] is escaped by script_json: no "<", ">" or "&" is left in it
        self.body.append(f'<script type="application/ld+json" id="{node["element_id"]}">{node["json"]}</script>\n')
    raise nodes.SkipNode


def element_id(builder: Builder, docname: str) -> str:
    """Id of the page's ``<script>`` element: one per page, also where pages share one file."""
    return f"{ELEMENT_ID}-{nodes.make_id(docname)}" if builder.name == _SINGLE_PAGE else ELEMENT_ID


def page_url(builder: Builder, docname: str) -> str:
    """The page's URL relative to the output directory (where ``glossary.json`` lives)."""
    if builder.name == _SINGLE_PAGE:
        return f"{builder.config.root_doc}{builder.out_suffix}"  # type: ignore[attr-defined]
    return builder.get_target_uri(docname)


def _absolute(builder: Builder, docname: str) -> str:
    """The page's absolute URL under ``html_baseurl`` ("" when none is set)."""
    base = str(builder.config.html_baseurl or "")
    return f"{base.rstrip('/')}/{page_url(builder, docname)}" if base else ""


def term_set(domain: MlGlossaryDomain, builder: Builder, docname: str, shown: set[str]) -> dict[str, Any]:
    """The ``DefinedTermSet`` of a page: the entries whose anchors are in ``shown``.

    URLs are absolute when ``html_baseurl`` is set, else relative to the page itself
    (``#term-token``), which any reader resolves against the page's address.
    """
    page = _absolute(builder, docname)
    set_id = f"{page}#{element_id(builder, docname)}"
    document = new_document("<mlglossary-structured-data>")
    document.settings.env = domain.env
    terms = []
    for entry_id, anchor in domain.definitions.get(docname, {}).items():
        entry = entry_for(domain, docname, entry_id)
        if entry is None or anchor not in shown:
            continue
        _inline, plain = our_summary(domain, entry, document)
        term: dict[str, Any] = {"@type": "DefinedTerm", "@id": f"{page}#{anchor}", "name": entry.name}
        others = [name for name in entry.names if name != entry.name]
        if others:
            term["alternateName"] = others
        term["description"] = one_line(plain)
        term["url"] = f"{page}#{anchor}"
        term["termCode"] = entry.id
        term["inDefinedTermSet"] = {"@id": set_id}
        terms.append(term)
    found: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "DefinedTermSet",
        "@id": set_id,
        "name": page_title(domain.env, docname),
        "inLanguage": domain.session.settings.language,
    }
    if page:
        found["url"] = page
    found["hasDefinedTerm"] = terms
    return found


class StructuredData(SphinxPostTransform):
    """Append each glossary page's term set to the document being written."""

    default_priority = 25  # after left_out (7) and cited_only (15) took their entries off
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        domain = glossary_domain(self.env)
        builder = domain.session.require_builder()
        if builder.name not in WEB_BUILDERS:
            return
        pages = set(domain.definitions)
        if not may_hold(self.env.docname, builder, pages):
            return
        shown = {node_id for term in self.document.findall(nodes.term) for node_id in term["ids"]}
        docnames = sorted(pages) if builder.name == _SINGLE_PAGE else [self.env.docname]
        for docname in docnames:
            if docname in pages and shown & set(domain.definitions[docname].values()):
                data = term_set(domain, builder, docname, shown)
                self.document += structured_data(json=script_json(data), element_id=element_id(builder, docname))


def register(app: Sphinx) -> None:
    others: dict[str, Any] = {fmt: (skip, None) for fmt in ("latex", "text", "man", "texinfo")}
    app.add_node(structured_data, html=(visit_structured_data_html, None), **others)
    app.add_post_transform(StructuredData)
