"""A stored body on an HTML page, kept as its HTML pieces and its links' data until written.

Made into nodes, the stored bodies of a few hundred entries hold thousands of term links
(a ``pending_xref``, then a ``reference``, an ``inline`` and a text node each): half the
written page's nodes, which every post-transform, the search indexer, the writer and
Python's cyclic garbage collector walk. On the ``html`` and ``dirhtml`` builders a stored
body whose links are all term links is therefore a :class:`linked_body`: its pieces and,
per link (the entry's "See also" links too), the attributes and content the link's node
would have (a 300-entry page: 2.84 s of CPU and 119 MiB before, 2.50 s and 111 MiB after,
with byte-identical output). Each step that decides a term link decides these the same
way, from the same code:

- :class:`~.term_targets.TermTargets` settles each link's term and citation id;
- :class:`ResolveLinkedBodies` asks the standard domain where each link goes (once per
  target), with the same call ``ReferencesResolver`` makes;
- :func:`~.card_marks.mark_links` marks each link that has a card;
- the page's own translator writes each link, through its ``visit_reference``.

So the page's HTML is what the nodes give. A body with a link the standard domain does
not resolve (an API link, a term only another site defines) is made into the nodes it
stands for before ``ReferencesResolver`` runs, and takes the usual path from there.
Other builders, ``:cited-only:`` pages and bodies holding other links never get here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from docutils import nodes

from .entry_references import mark_references
from .loader import bundled_glossary
from .nodes import glossary_block, skip
from .prerendered import Fragment, body_node, data_text, node_from_data, prerendered_body

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator

    from .prerendered import NodeData

#: the builders whose pages hold linked bodies (the others get the nodes)
BUILDERS = frozenset({"html", "dirhtml"})
#: one link of a linked body (see :func:`_record`)
LinkRecord = dict[str, Any]
#: characters the search indexer would read as markup in a link's text
_MARKUP = re.compile("[<>]")
#: what Sphinx's search indexer takes out of raw HTML before splitting the rest into words
_STYLE = re.compile(r"<style.*?</style>", re.IGNORECASE | re.DOTALL)
_SCRIPT = re.compile(r"<script.*?</script>", re.IGNORECASE | re.DOTALL)
_TAG = re.compile(r"<[^<]+?>")
#: search languages whose words Sphinx finds with its plain word pattern (``\w+``), which
#: never takes a word across whitespace (Arabic has none of its own: Sphinx uses English's)
_WORD_PATTERN_LANGUAGES = frozenset({"en", "es", "ar"})


class linked_body(prerendered_body):
    """A stored body held as ``pieces`` and ``links`` (a dict per link) until it is written.

    Its first child is a ``raw`` node of the body's text for Sphinx's search indexer (which
    reads raw HTML without its tags), its second the entry's "See also" line, if any, with
    an empty ``raw`` where each link goes; the writer writes the body itself, then the line.
    """


def takes_links(fragment: Fragment) -> bool:
    """Whether every link of a stored body is a term reference to write from data."""
    return all(
        isinstance(link, list)
        and link[0] == "pending_xref"
        and link[1].get("refdomain") == "std"
        and link[1].get("reftype") == "term"
        and len(link[2]) == 1
        and isinstance(link[2][0], list)
        and link[2][0][0] == "inline"
        for link in fragment.links
    )


def may_link(node: nodes.Node) -> bool:
    """Whether a deferred definition may become a linked body: not on a ``:cited-only:``
    page, whose removed entries' links lose their link (:mod:`.cited_only`)."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, glossary_block):
            return not parent.get("mlglossary_cited_only")
        parent = parent.parent
    return True


def linked(entry_id: str, language: str, fragment: Fragment, docname: str) -> linked_body:
    """The linked body of a stored body on the page ``docname``."""
    links: list[LinkRecord] = []
    for link in fragment.links:
        _tag, attributes, (content,) = cast(list[Any], link)  # a term reference: takes_links
        links.append(_record({**attributes, "refdoc": docname}, content, data_text(content)))
    searched = [fragment.pieces[0]]
    for record, piece in zip(links, fragment.pieces[1:], strict=True):
        searched += [" ", _MARKUP.sub(" ", record["text"]), " ", piece]
    return linked_body(
        "",
        "",
        nodes.raw("", "".join(searched), format="html"),
        entry=entry_id,
        language=language,
        docname=docname,
        translatable=False,
        pieces=list(fragment.pieces),
        links=links,
        body_links=len(links),
    )


def link_slot(body: linked_body, attributes: dict[str, Any], content: NodeData, text: str) -> nodes.raw:
    """A "See also" link of ``body`` as a record, and the empty ``raw`` that holds its place in the line."""
    body["links"].append(_record(attributes, content, text))
    return nodes.raw("", "", format="html")


def add_see_also(body: linked_body, line: nodes.paragraph) -> None:
    """Take the entry's "See also" line in, its links made by :func:`link_slot`."""
    text = [body[0].astext()]
    for record in body["links"][body["body_links"] :]:
        text += [" ", _MARKUP.sub(" ", record["text"])]
    _set_search_text(body, "".join(text))
    body += line


def search_once(bodies: list[linked_body], search_language: str) -> None:
    """Give the search indexer each text of the page's linked bodies once.

    The index records which pages hold a word, not how often: a page of a few hundred
    bodies held about 100,000 words, most of them repeats, which the indexer split, stemmed
    and looked up one by one. Here each body's text for the indexer is what Sphinx itself
    would take from it (the same patterns strip the markup), keeping only the first
    occurrence on the page of each whitespace-separated token. Every word stays in the text
    where it first appeared, so the index and the order words enter it are unchanged. Only
    for search languages that find words with the plain word pattern: a segmenter that
    reads across spaces (Japanese, Chinese) gets the full text.
    """
    if re.split("[-_]", search_language, maxsplit=1)[0].lower() not in _WORD_PATTERN_LANGUAGES:
        return
    seen: set[str] = set()
    for body in bodies:
        text = _TAG.sub("", _SCRIPT.sub("", _STYLE.sub("", body[0].astext())))
        first = []
        for token in text.split():
            if token not in seen:
                seen.add(token)
                first.append(token)
        _set_search_text(body, " ".join(first))


def _set_search_text(body: linked_body, text: str) -> None:
    """Put ``text`` in the body's ``raw`` node for the search indexer.

    The text node is swapped, not the ``raw`` node: a replaced ``raw`` node and its text
    point at each other, so only a full pass of Python's garbage collector frees them, and
    a page's worth of body texts (2.3 MiB) was still held when the page was written.
    A replaced text node is referenced by nothing and goes at once.
    """
    holder = cast(nodes.raw, body[0])
    holder.clear()
    if text:
        holder += nodes.Text(text)


def _record(attributes: dict[str, Any], content: NodeData, text: str) -> LinkRecord:
    """A link as data: its reference's ``attributes`` (settled in place), content, text and ids;
    ``resolved`` (a reference's attributes) and ``html`` are added as the page is written."""
    return {"attributes": attributes, "content": content, "text": text, "ids": []}


def as_nodes(body: linked_body) -> list[nodes.Node]:
    """The nodes the linked body stands for, with what was settled on its links so far."""
    glossary = bundled_glossary(body["language"])
    known: dict[str, bool] = {}
    count = body["body_links"]
    records = iter(body["links"][:count])

    def settled(link: nodes.Element) -> None:
        link["ids"] = list(next(records)["ids"])
        mark_references([link], glossary, known)

    data: list[NodeData] = [
        ["pending_xref", record["attributes"], [record["content"]]] for record in body["links"][:count]
    ]
    made = body_node(
        body["entry"], body["language"], Fragment(tuple(body["pieces"]), tuple(data)), body["docname"], settled
    )
    made["docname"] = body["docname"]
    line = _see_also_line(body)
    if line is None:
        return [made]
    for slot, record in zip(list(line.findall(nodes.raw)), body["links"][count:], strict=True):
        xref = node_from_data(["pending_xref", record["attributes"], [record["content"]]], untranslatable=True)
        assert isinstance(xref, nodes.Element)
        xref["ids"] = list(record["ids"])
        slot.replace_self(xref)
    line.parent.remove(line)
    return [made, line]


def _see_also_line(body: linked_body) -> nodes.paragraph | None:
    return next((child for child in body.children if isinstance(child, nodes.paragraph)), None)


def visit_linked_body(translator: HTML5Translator, node: linked_body) -> None:
    """Write the pieces with their links, then the "See also" line (the page's links are
    written at its first linked body)."""
    links = node["links"]
    if links and "html" not in links[0]:
        _write_links(translator)
    # the stored pieces and each link's HTML themselves, not a joined copy: the page's body
    # is joined once, by the writer, and a few hundred bodies' copies (3 MiB as the page's
    # text is held, two bytes a character) were alive beside it at the build's peak
    pieces: list[str] = node["pieces"]
    translator.body.append(pieces[0])
    for record, piece in zip(links[: node["body_links"]], pieces[1:], strict=True):
        translator.body += (record["html"], piece)
    line = _see_also_line(node)
    if line is not None:
        for slot, record in zip(list(line.findall(nodes.raw)), links[node["body_links"] :], strict=True):
            slot.replace_self(nodes.raw("", record["html"], format="html"))
        line.walkabout(translator)
    raise nodes.SkipNode


#: stands for a link's id while links that differ only by it share their HTML
_ID = "\ue001"


def _write_links(translator: HTML5Translator) -> None:
    """Give every link of the page's linked bodies its HTML, written once per distinct link
    through the translator's own ``visit_reference``."""
    written: dict[str, str] = {}
    for body in translator.document.findall(linked_body):
        for record in body["links"]:
            resolved, ids = record["resolved"], record["ids"]
            if len(ids) > 1:
                record["html"] = _link_html(translator, resolved, record["content"], ids)
                continue
            key = repr((sorted(resolved.items()), record["content"], bool(ids)))
            if key not in written:
                written[key] = _link_html(translator, resolved, record["content"], [_ID] if ids else [])
            record["html"] = written[key].replace(_ID, ids[0]) if ids else written[key]


def _link_html(translator: HTML5Translator, resolved: dict[str, Any], content: NodeData, ids: list[str]) -> str:
    reference = nodes.reference("", "", **resolved)
    reference["classes"] = list(resolved["classes"])
    reference["ids"] = ids
    reference += node_from_data(content, untranslatable=True)
    nodes.paragraph("", "", reference)  # a text element holds it, as one of the body's paragraphs does
    start = len(translator.body)
    reference.walkabout(translator)
    html = "".join(translator.body[start:])
    del translator.body[start:]
    return html


def register(app: Sphinx) -> None:
    others: dict[str, tuple[Any, None]] = {fmt: (skip, None) for fmt in ("latex", "text", "man", "texinfo")}
    app.add_node(linked_body, html=(visit_linked_body, None), **others)  # type: ignore[arg-type]
