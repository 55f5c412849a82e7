"""Tooltip cards for term links, made while the page is written.

Under ``-j`` Sphinx resolves every page (post-transforms included) in the main process
and hands only the writing to worker processes, so per-page work done in a
post-transform is serial. Here the post-transform only places two empty nodes on the
page: a :class:`~.nodes.tooltip_slot` first and a :class:`~.nodes.tooltip_cards` block
last. The slot's HTML visitor, which runs wherever the page is written, marks the
term links and fills the block, before the translator reaches either. It reads only
what the domain gathered at read time and builds nothing that has to travel back:
nothing is collected in the write phase, where it would be lost under ``-j``.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .domain import glossary_domain
from .nodes import RENDERED, card_id, skip, tooltip_card, tooltip_cards, tooltip_slot
from .rendering import CardContent, card, card_content, render_together
from .single_page import BUILDER as SINGLE_PAGE
from .single_page import is_term_link
from .sources import entry_for

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.writers.html5 import HTML5Translator

    from .domain import MlGlossaryDomain
    from .model import Entry
    from .user_terms import UserTerm


def card_sources(domain: MlGlossaryDomain) -> dict[str, list[tuple[str, Entry | UserTerm]]]:
    """anchor -> [(docname, term)] for every glossary term of the project (once per build)."""
    resolved = domain.session.resolved
    if resolved.card_sources is None:
        table: dict[str, list[tuple[str, Entry | UserTerm]]] = {}
        for docname, entries in domain.definitions.items():
            for entry_id, anchor in entries.items():
                entry = entry_for(domain, docname, entry_id)
                if entry is not None:
                    table.setdefault(anchor, []).append((docname, entry))
        for docname, terms in domain.user_terms.items():
            for anchor, term in terms.items():
                table.setdefault(anchor, []).append((docname, term))
        resolved.card_sources = table
    return resolved.card_sources


class TooltipSlots(SphinxPostTransform):
    """Place the (empty) slot and card block on HTML pages of a project with glossary terms."""

    default_priority = 20  # after ReferencesResolver (10), so nothing is appended after the block
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        domain = glossary_domain(self.env)
        session = domain.session
        if not session.settings.tooltips or not (domain.definitions or domain.user_terms):
            return
        builder = session.require_builder()
        if session.parallel:
            # writers are forked from this process: what it prepares, none of them redoes
            warm_card_contents(domain, self.document)
            if builder.name not in {"epub", "epub3"}:
                Cards(domain, builder, self.env.docname).warm()
        self.document.insert(0, tooltip_slot())
        # "no-search": card text belongs to the glossary page, not to every citing page
        self.document += tooltip_cards(trigger=session.settings.tooltip_trigger, classes=["no-search"])


def warm_card_contents(domain: MlGlossaryDomain, document: nodes.document) -> None:
    """The card content of every cited term, made once in the main process before pages are written.

    Under ``-j`` each chunk of pages is written by a process forked from the main one:
    what the main process has made is shared with all of them, what a writer makes is
    made again in every chunk (rendering summaries with MyST was most of it).
    """
    resolved = domain.session.resolved
    if resolved.contents_warmed:
        return
    resolved.contents_warmed = True
    cited = cited_places(domain)
    for anchor, terms in card_sources(domain).items():
        for docname, term in terms:
            if (docname, anchor) in cited and (docname, anchor) not in resolved.card_targets:
                resolved.card_targets[(docname, anchor)] = card_content(domain, term, document)


def cited_places(domain: MlGlossaryDomain) -> set[tuple[str, str]]:
    """(docname, anchor) of every term some page cites: the only cards any page shows."""
    resolved = domain.session.resolved
    if resolved.cited is None:
        terms = domain.term_index()
        resolved.cited = {
            place
            for record in domain.citations.values()
            for target in set(record.targets)
            if (place := terms.place(target)) is not None
        }
    return resolved.cited


def visit_tooltip_slot(translator: HTML5Translator, node: tooltip_slot) -> None:
    """Mark the page's term links and fill its card block (in the process writing the page)."""
    builder = translator.builder
    Cards(glossary_domain(builder.env), builder, builder.current_docname).attach(translator.document)  # type: ignore[attr-defined]
    raise nodes.SkipNode


class Cards:
    """The cards of one page being written."""

    def __init__(self, domain: MlGlossaryDomain, builder: Builder, fromdoc: str) -> None:
        self.domain = domain
        self.builder = builder
        self.fromdoc = fromdoc

    def attach(self, document: nodes.document) -> None:
        block = next((c for c in reversed(document.children) if isinstance(c, tooltip_cards)), None)
        links = [ref for ref in document.findall(nodes.reference) if is_term_link(ref)]
        if block is None or not links:
            return
        table = card_sources(self.domain)
        uris: dict[str, str] = {}
        targets: dict[str, CardContent] = {}
        for link in links:
            href, target = self._locate(link, table, uris, document)
            if target is None:
                continue
            targets.setdefault(href, target)
            link["classes"].append("mlglossary-term")
            if target.plain and "reftitle" not in link:
                link["reftitle"] = target.plain
        if targets and self.builder.name not in {"epub", "epub3"}:
            block[RENDERED], card_nodes = self._cards(targets)
            block.extend(card_nodes)

    def warm(self) -> None:
        """Render, in the main process, the cards of every cited term as this page's folder
        writes them, once per folder (see :func:`warm_card_contents`: under ``-j`` a card a
        writer renders is rendered again by every chunk's process)."""
        resolved = self.domain.session.resolved
        folder = self._folder()
        if folder in resolved.warmed_folders:
            return
        resolved.warmed_folders.add(folder)
        targets = {}
        for docname, anchor in sorted(cited_places(self.domain)):
            content = resolved.card_targets.get((docname, anchor))
            if content is not None:
                href = "#" + anchor if docname == self.fromdoc else self._uri(docname) + "#" + anchor
                targets[href] = content
        if targets:
            self._cards(targets)

    def _uri(self, docname: str) -> str:
        return self.builder.get_relative_uri(self.fromdoc, docname)

    def _folder(self) -> str:
        """Pages of one folder write the same links (relative), so they share card HTML."""
        builder, fromdoc = self.builder, self.fromdoc
        if fromdoc in self.domain.definitions or fromdoc in self.domain.user_terms:
            return "page:" + fromdoc  # links to terms on this very page are written "#id" here
        return "" if builder.name == "singlehtml" else posixpath.dirname(builder.get_target_uri(fromdoc))

    def _cards(self, targets: dict[str, CardContent]) -> tuple[tuple[str, ...], list[nodes.Node]]:
        """One card per target: HTML rendered once per output directory and shared, and
        the cards that must stay nodes.

        A card reads the same on every page of a directory (its links are relative),
        so rendering it once instead of once per citing page keeps the write phase
        close to a plain build's. The cards a page needs that aren't rendered yet are
        rendered together, one ``render_partial`` call per page rather than per card.
        The page's doctree keeps only references to the shared strings: a written
        doctree waits for Python's cyclic garbage collector, so a node per card on every
        page raised the write phase's peak memory. Builders without ``render_partial``
        (and a card whose id another card of the page already takes) get nodes. Under
        ``-j`` each writing process keeps its own shared copy.
        """
        domain, builder, fromdoc = self.domain, self.builder, self.fromdoc
        shared = domain.session.resolved.card_html
        render = getattr(builder, "render_partial", None)
        folder = self._folder()
        found: list[nodes.Node | tuple[str, str, str]] = []
        missing: dict[tuple[str, str, str], tooltip_card] = {}
        used: set[str] = set()
        for index, (href, target) in enumerate(targets.items()):
            ident = card_id(nodes.make_id(href) or str(index))
            if ident in used or render is None:
                found.append(card(domain, builder, target, href, card_id(str(index)), fromdoc))
                continue
            used.add(ident)
            key = (href, folder, ident)
            if key not in shared:
                missing[key] = card(domain, builder, target, href, ident, fromdoc)
            found.append(key)
        if missing and render is not None:
            shared.update(zip(missing, render_together(render, list(missing.values())), strict=True))
        rendered = tuple(shared[item] for item in found if not isinstance(item, nodes.Node))
        return rendered, [item for item in found if isinstance(item, nodes.Node)]

    def _locate(
        self,
        link: nodes.reference,
        table: dict[str, list[tuple[str, Entry | UserTerm]]],
        uris: dict[str, str],
        document: nodes.document,
    ) -> tuple[str, CardContent | None]:
        """The href as written and the glossary term it points at, if it is one of the project's."""
        domain, builder, fromdoc = self.domain, self.builder, self.fromdoc
        page: str | None = None  # None: a link within the page
        if "refid" in link:
            anchor, href = link["refid"], "#" + link["refid"]
        else:
            refuri = link.get("refuri", "")
            page, _sep, anchor = refuri.partition("#")
            href = refuri
        contents = domain.session.resolved.card_targets
        for docname, term in table.get(anchor, ()):
            if page is None:
                # every document is on the single page; elsewhere the term must be on this one
                if docname != fromdoc and builder.name != SINGLE_PAGE:
                    continue
            else:
                if docname not in uris:
                    uris[docname] = builder.get_relative_uri(fromdoc, docname)
                if uris[docname] != page:
                    continue
            if (docname, anchor) not in contents:
                contents[(docname, anchor)] = card_content(domain, term, document)
            return href, contents[(docname, anchor)]
        return href, None


def register(app: Sphinx) -> None:
    app.add_post_transform(TooltipSlots)
    others: dict[str, tuple[Any, None]] = {fmt: (skip, None) for fmt in ("latex", "text", "man", "texinfo")}
    app.add_node(tooltip_slot, html=(visit_tooltip_slot, None), **others)  # type: ignore[arg-type]
