"""The extension's own nodes, with one visitor pair per output format.

Tooltip cards exist only in HTML pages; every other writer skips them, so a doctree
that reaches a non-HTML writer by some other path never breaks the build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.writers.html5 import HTML5Translator


# -- attributes and classes we set on Sphinx's own nodes -------------------------------

#: on the references auto-linking creates
AUTOLINK = "mlglossary_autolink"
#: class of the inline inside an auto-link (kept as plain text when the term is on no page)
AUTOLINK_CLASS = "mlglossary-autolink"
#: on API references inside our entries: they link only where the user's intersphinx knows them
API_REFERENCE = "mlglossary_api"
#: on term references already reported as ambiguous
AMBIGUOUS = "mlglossary_ambiguous"


class glossary_block(nodes.container):
    """The directive's output: a container that knows its language and writing direction."""


def visit_block_html(self: HTML5Translator, node: glossary_block) -> None:
    attributes = {"lang": node["lang"]}
    if node.get("dir"):
        attributes["dir"] = node["dir"]
    self.body.append(self.starttag(node, "div", CLASS="docutils container", **attributes))


def _as_container(fmt: str) -> tuple[Any, Any]:
    """Non-HTML writers render the block like any container."""
    return (lambda self, node: self.visit_container(node), lambda self, node: self.depart_container(node))


class tooltip_cards(nodes.comment):
    """The per-page block holding one card per cited term.

    Cards rendered once and shared between pages are in the ``RENDERED`` attribute (a
    tuple of HTML strings); cards that must stay nodes are its children.

    A ``comment`` to everything but our own visitors: Sphinx's search indexer skips
    comments, so card text stays out of the citing pages' search entries on every
    supported Sphinx (the ``no-search`` class it also carries works from Sphinx 8 on).
    """


#: attribute of :class:`tooltip_cards`: the HTML of its shared, pre-rendered cards
RENDERED = "mlglossary_rendered"


class tooltip_slot(nodes.Invisible, nodes.Element):
    """First child of an HTML page that may cite terms: where its cards are made.

    Its visitor runs in the process that writes the page (a worker under ``-j``), before
    any link of the page is written: it marks the term links and fills the page's
    :class:`tooltip_cards` block (see :mod:`.tooltips`).
    """


class tooltip_card(nodes.General, nodes.Element):
    """One term's card: title, summary, "read more".

    Its id is :func:`card_id`: content can't take it.
    """


def card_id(key: str) -> str:
    """A card's id: ``mlglossary-card--`` and ``key`` (an id made from its href, or a number).

    Ids from content (docutils' and Sphinx's ``make_id``, MyST's attributes) never hold
    two hyphens in a row, so no label, topic or section of a page can take a card's id.
    """
    return "mlglossary-card--" + key


class card_batch(nodes.Element):
    """Cards rendered by one ``render_partial`` call, each into its own string.

    Its visitor walks the cards one by one and keeps what each wrote: the translator
    says where a card ends, so no marker in the output (which text could contain)
    has to.
    """


#: attribute of :class:`card_batch`: the HTML of each child, once rendered
PIECES = "mlglossary_pieces"


def visit_card_batch_html(self: HTML5Translator, node: card_batch) -> None:
    pieces = node[PIECES] = []
    for child in node.children:
        start = len(self.body)
        child.walkabout(self)
        pieces.append("".join(self.body[start:]).strip())
        del self.body[start:]
    raise nodes.SkipNode


class backlink_page(nodes.Inline, nodes.Element):
    """A page number for a backlink, where the format has pages (LaTeX)."""


def visit_backlink_page_latex(self: Any, node: backlink_page) -> None:
    label = self.idescape(f"{node['docname']}:{node['refid']}")
    self.body.append(rf" (p.~\pageref{{{label}}})")
    raise nodes.SkipNode


def visit_cards_html(self: HTML5Translator, node: tooltip_cards) -> None:
    if not node.get(RENDERED) and not node.children:
        raise nodes.SkipNode  # no link of the page has a card
    # written by hand to keep our class first; "no-search" stays on the node for the indexer.
    # The script finds the block by its data attribute: content can copy a class, not write that
    trigger = self.attval(node["trigger"])
    self.body.append(f'<div class="mlglossary-cards no-search" hidden="hidden" data-mlglossary-trigger="{trigger}">')
    self.body.extend(node.get(RENDERED, ()))


def visit_card_html(self: HTML5Translator, node: tooltip_card) -> None:
    """A card is a non-modal dialog named by its term (``role="dialog"``, no ``aria-modal``).

    A card holds links ("Read more", links in summaries). The ARIA ``tooltip`` role is for
    text that takes no focus, and a toggletip is a button announcing plain text in a live
    region, so neither fits; a non-modal dialog is the pattern for a popup with interactive
    content that leaves the rest of the page usable. The term stays a link (its
    ``aria-describedby`` points at the card, so its summary is read on focus); the script
    places the shown card right after its term, so Tab goes from the term into the card and
    on out of it, and sets ``aria-expanded`` where a click opens it.
    """
    attributes: dict[str, Any] = {"role": "dialog", "aria-label": node["label"], "data-mlglossary-href": node["href"]}
    if node.get("dir"):
        attributes["dir"] = node["dir"]
    if node.get("lang"):
        attributes["lang"] = node["lang"]
    self.body.append(self.starttag(node, "div", "", CLASS="mlglossary-card", **attributes))


def depart_div_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</div>\n")


def skip(self: Any, node: nodes.Element) -> None:
    raise nodes.SkipNode


def register(app: Sphinx) -> None:
    app.add_node(
        glossary_block,
        html=(visit_block_html, depart_div_html),
        **{fmt: _as_container(fmt) for fmt in ("latex", "text", "man", "texinfo")},  # type: ignore[arg-type]
    )
    html = (visit_cards_html, depart_div_html)
    others: dict[str, tuple[Any, None]] = {fmt: (skip, None) for fmt in ("latex", "text", "man", "texinfo")}
    app.add_node(tooltip_cards, html=html, **others)  # type: ignore[arg-type]
    app.add_node(tooltip_card, html=(visit_card_html, depart_div_html), **others)  # type: ignore[arg-type]
    app.add_node(card_batch, html=(visit_card_batch_html, None), **others)  # type: ignore[arg-type]
    # tooltip_slot's HTML visitor is registered by .tooltips, which it calls
    app.add_node(
        backlink_page,
        html=(skip, None),
        latex=(visit_backlink_page_latex, None),
        text=(skip, None),
        man=(skip, None),
        texinfo=(skip, None),
    )
