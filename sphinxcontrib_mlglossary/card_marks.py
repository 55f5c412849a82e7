"""The marks on a page's term links: the last step of the card path.

A page carries no card. Each of its term links that has a card in the site's card
asset (:mod:`.card_asset`) gets the class ``mlglossary-term``, a class naming the
card's key (``mlglossary-key-<key>``) and the card's summary as its ``title`` (what
readers see without JavaScript, and in epub, where no script runs and links get no
key). ``mlglossary.js`` finds each card by that key.

Under ``-j`` Sphinx resolves every page (post-transforms included) in the main process
and hands only the writing to worker processes. The post-transform here prepares the
build's cards once, in the main process, before the first writer is forked, and places
an empty :class:`~.nodes.tooltip_slot` first on the page; the slot's HTML visitor,
which runs wherever the page is written, marks the links before the translator reaches
them. It reads only what was prepared before writing began, and gathers nothing: data
collected in the write phase would be lost under ``-j``.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .card_asset import any_cards, site_cards
from .card_contents import card_subjects
from .domain import glossary_domain
from .linked_bodies import linked_body
from .nodes import MARKED, skip, tooltip_slot
from .single_page import BUILDER as SINGLE_PAGE
from .single_page import is_term_link

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.writers.html5 import HTML5Translator

    from .card_asset import PreparedCard
    from .domain import MlGlossaryDomain

#: prefix of the class naming a link's card (content hashes: letters and digits only)
KEY_CLASS = "mlglossary-key-"
#: a resolved link's attributes: a reference node, or a linked body's link (:mod:`.linked_bodies`)
Link = nodes.reference | dict[str, Any]


class TooltipSlots(SphinxPostTransform):
    """Prepare the build's cards (once) and place the empty slot on HTML pages of a project with glossary terms."""

    default_priority = 20  # after ReferencesResolver (10) and single-page links (15): the links are final
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        domain = glossary_domain(self.env)
        session = domain.session
        if not session.settings.tooltips or not any_cards(domain):
            return
        # here, in the main process: under -j the writers are forked from it and share the cards
        site_cards(domain, session.require_builder())
        self.document.insert(0, tooltip_slot())


def visit_tooltip_slot(translator: HTML5Translator, node: tooltip_slot) -> None:
    """Mark the page's term links (in the process writing the page)."""
    builder = translator.builder
    domain = glossary_domain(builder.env)
    if mark_links(domain, builder, builder.current_docname, translator.document):  # type: ignore[attr-defined]
        node[MARKED] = True
    raise nodes.SkipNode


def mark_links(domain: MlGlossaryDomain, builder: Builder, fromdoc: str, document: nodes.document) -> bool:
    """Mark every term link of the page that has a card; True when one names a card's key."""
    cards = site_cards(domain, builder)
    if not cards:
        return False
    locate = _Locator(domain, builder, fromdoc)
    keyed = False
    for link in document.findall(nodes.reference):
        if not is_term_link(link) and not locate.elsewhere(link):
            continue  # (intersphinx drops the term class where an inventory is named: "site:name")
        keyed = _mark(link, locate, cards) or keyed
    for body in document.findall(linked_body):
        for record in body["links"]:  # term links, resolved as a reference node's attributes
            keyed = _mark(record["resolved"], locate, cards) or keyed
    return keyed


def _mark(link: Link, locate: _Locator, cards: dict[tuple[str, str], PreparedCard]) -> bool:
    """Mark a term link (a reference, or a linked body's link) that has a card; True when keyed."""
    card = locate.card(link, cards)
    if card is None:
        return False
    link["classes"].append("mlglossary-term")
    if card.key:
        link["classes"].append(KEY_CLASS + card.key)
    if card.plain and ("reftitle" not in link or locate.elsewhere(link)):
        # intersphinx titles its links "(in Project)": the summary says more
        link["reftitle"] = card.plain
    return bool(card.key)


class _Locator:
    """Which glossary term a link of the page being written points at."""

    def __init__(self, domain: MlGlossaryDomain, builder: Builder, fromdoc: str) -> None:
        self.by_anchor = card_subjects(domain).by_anchor
        self.builder = builder
        self.fromdoc = fromdoc
        self.uris: dict[str, str] = {}

    @staticmethod
    def elsewhere(link: Link) -> bool:
        """A link intersphinx made to another site (not a page of this project)."""
        return link.get("internal") is False

    def card(self, link: Link, cards: dict[tuple[str, str], PreparedCard]) -> PreparedCard | None:
        if self.elsewhere(link):
            external = cards.get(("", self._from_root(link.get("refuri", ""))))
            if external is not None:
                return external
        page: str | None = None  # None: a link within the page
        if "refid" in link:
            anchor = link["refid"]
        else:
            page, _sep, anchor = link.get("refuri", "").partition("#")
        for docname, _term in self.by_anchor.get(anchor, ()):
            if page is None:
                # every document is on the single page; elsewhere the term must be on this one
                if docname != self.fromdoc and self.builder.name != SINGLE_PAGE:
                    continue
            elif self._uri(docname) != page:
                continue
            return cards.get((docname, anchor))
        return None

    def _from_root(self, refuri: str) -> str:
        """Another site's address as its card is keyed: a relative mapping's link, which intersphinx
        writes from the citing page's folder (``../notes/x.html``), taken back to the root."""
        folder = posixpath.dirname(self.fromdoc)
        if not folder or "://" in refuri or refuri.startswith(("/", "#")):
            return refuri
        path, sep, anchor = refuri.partition("#")
        return posixpath.normpath(posixpath.join(folder, path)) + sep + anchor

    def _uri(self, docname: str) -> str:
        if docname not in self.uris:
            self.uris[docname] = self.builder.get_relative_uri(self.fromdoc, docname)
        return self.uris[docname]


def register(app: Sphinx) -> None:
    app.add_post_transform(TooltipSlots)
    others: dict[str, tuple[Any, None]] = {fmt: (skip, None) for fmt in ("latex", "text", "man", "texinfo")}
    app.add_node(tooltip_slot, html=(visit_tooltip_slot, None), **others)  # type: ignore[arg-type]
