"""Tooltip cards for term references, built after references are resolved.

This runs as a post-transform, in the main process even under ``-j``, so the cards
travel inside each page's doctree to whichever process writes it: nothing is
collected in write-phase hooks, where it would be lost under parallel builds.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .domain import glossary_domain
from .nodes import AUTOLINK_CLASS, RENDERED, tooltip_card, tooltip_cards
from .rendering import CardContent, card, card_content, render_together
from .sources import entry_for

if TYPE_CHECKING:
    from sphinx.builders import Builder
    from sphinx.util.tags import Tags

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


class TooltipCards(SphinxPostTransform):
    """Mark resolved term links and append one card per distinct cited term."""

    # after ReferencesResolver (10): we read the final reference nodes
    default_priority = 20
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        domain = glossary_domain(self.env)
        session = domain.session
        if not session.settings.tooltips:
            return
        builder = session.require_builder()
        links = [
            ref
            for ref in self.document.findall(nodes.reference)
            if _is_term_link(ref) and not _dropped(ref, session.tags)
        ]
        if not links:
            return
        fromdoc = self.env.docname
        table = card_sources(domain)
        uris: dict[str, str] = {}
        targets: dict[str, CardContent] = {}
        for link in links:
            href, target = self._locate(domain, builder, link, fromdoc, table, uris)
            if target is None:
                continue
            targets.setdefault(href, target)
            link["classes"].append("mlglossary-term")
            if target.plain and "reftitle" not in link:
                link["reftitle"] = target.plain
        if targets and builder.name not in {"epub", "epub3"}:
            # "no-search": card text belongs to the glossary page, not to every citing page
            block = tooltip_cards(trigger=session.settings.tooltip_trigger, classes=["no-search"])
            block[RENDERED], card_nodes = self._cards(domain, builder, targets, fromdoc)
            block.extend(card_nodes)
            self.document += block

    def _cards(
        self, domain: MlGlossaryDomain, builder: Builder, targets: dict[str, CardContent], fromdoc: str
    ) -> tuple[tuple[str, ...], list[nodes.Node]]:
        """One card per target: HTML rendered once per output directory and shared, and
        the cards that must stay nodes.

        A card reads the same on every page of a directory (its links are relative),
        so rendering it once instead of once per citing page keeps the write phase
        close to a plain build's. The cards a page needs that aren't rendered yet are
        rendered together, one ``render_partial`` call per page rather than per card.
        The page's doctree keeps only references to the shared strings: a written
        doctree waits for Python's cyclic garbage collector, so a node per card on every
        page raised the write phase's peak memory. Builders without ``render_partial``
        (and a card whose id another card of the page already takes) get nodes.
        """
        shared = domain.session.resolved.card_html
        render = getattr(builder, "render_partial", None)
        folder = "" if builder.name == "singlehtml" else posixpath.dirname(builder.get_target_uri(fromdoc))
        if fromdoc in domain.definitions or fromdoc in domain.user_terms:
            folder = "page:" + fromdoc  # links to terms on this very page are written "#id" here
        found: list[nodes.Node | tuple[str, str, str]] = []
        missing: dict[tuple[str, str, str], tooltip_card] = {}
        used: set[str] = set()
        for index, (href, target) in enumerate(targets.items()):
            card_id = "mlglossary-card-" + (nodes.make_id(href) or str(index))
            if card_id in used or render is None:
                found.append(card(domain, builder, target, href, f"mlglossary-card-{index}", fromdoc))
                continue
            used.add(card_id)
            key = (href, folder, card_id)
            if key not in shared:
                missing[key] = card(domain, builder, target, href, card_id, fromdoc)
            found.append(key)
        if missing and render is not None:
            shared.update(zip(missing, render_together(render, list(missing.values())), strict=True))
        rendered = tuple(shared[item] for item in found if not isinstance(item, nodes.Node))
        return rendered, [item for item in found if isinstance(item, nodes.Node)]

    def _locate(
        self,
        domain: MlGlossaryDomain,
        builder: Builder,
        link: nodes.reference,
        fromdoc: str,
        table: dict[str, list[tuple[str, Entry | UserTerm]]],
        uris: dict[str, str],
    ) -> tuple[str, CardContent | None]:
        """The href as written and the glossary term it points at, if it is one of the project's."""
        if "refid" in link:
            anchor, href, docs = link["refid"], "#" + link["refid"], {fromdoc}
        else:
            refuri = link.get("refuri", "")
            page, _sep, anchor = refuri.partition("#")
            href, docs = refuri, None
        contents = domain.session.resolved.card_targets
        for docname, term in table.get(anchor, ()):
            if docs is not None:
                if docname not in docs:
                    continue
            else:
                if docname not in uris:
                    uris[docname] = builder.get_relative_uri(fromdoc, docname)
                if uris[docname] != page:
                    continue
            if (docname, anchor) not in contents:
                contents[(docname, anchor)] = card_content(domain, term, self.document)
            return href, contents[(docname, anchor)]
        return href, None


def _is_term_link(reference: nodes.reference) -> bool:
    if not reference.children:
        return False
    first = reference.children[0]
    classes = first.get("classes", ()) if isinstance(first, nodes.Element) else ()
    return "std-term" in classes or AUTOLINK_CLASS in classes


def _dropped(reference: nodes.reference, tags: Tags | None) -> bool:
    """Inside an ``only`` block this format leaves out (those are removed after this transform)."""
    parent = reference.parent
    while parent is not None:
        if isinstance(parent, addnodes.only) and tags is not None:
            try:
                if not tags.eval_condition(parent["expr"]):
                    return True
            except Exception:
                pass  # Sphinx keeps a block it can't evaluate, and so do we
        parent = parent.parent
    return False
