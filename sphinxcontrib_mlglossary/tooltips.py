"""Tooltip cards for term references, built after references are resolved.

This runs as a post-transform, in the main process even under ``-j``, so the cards
travel inside each page's doctree to whichever process writes it: nothing is
collected in write-phase hooks, where it would be lost under parallel builds.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from docutils import nodes
from docutils.utils import new_document
from sphinx import addnodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import sphinx_domains

from .autolink import AUTOLINK_CLASS
from .collector import definitions, user_terms
from .config import app_of, settings
from .i18n import _
from .loader import bundled_glossary
from .markup import render_inline
from .nodes import RENDERED, tooltip_card, tooltip_cards
from .sources import entry_for
from .text_direction import direction

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment


@dataclass(frozen=True, slots=True)
class Target:
    """What a card shows for one glossary anchor."""

    title: str
    abbreviation: str
    #: inline nodes of the summary (copied before use)
    summary: tuple[nodes.Node, ...]
    #: the summary as one line of text: every link to the term shares this one string
    plain: str


#: (href, output folder, language, card id) -> the card's HTML; emptied when a build starts
_CARD_HTML: dict[tuple[str, str, str, str], str] = {}


def reset_card_cache(*args: Any) -> None:
    """``builder-inited`` and ``env-updated``: what an earlier build or the reading phase cached doesn't apply."""
    _CARD_HTML.clear()
    _TABLES.clear()
    _TARGETS.clear()
    _CARD_IDS.clear()


#: language -> anchor -> [(docname, lazy target)]: the project's terms, once per build
_TABLES: dict[str, dict[str, list[tuple[str, Any]]]] = {}
#: (docname, anchor, language) -> what a card about that term shows, once per build
_TARGETS: dict[tuple[str, str, str], Target] = {}
#: href -> its id-safe form (part of the card's id)
_CARD_IDS: dict[str, str] = {}


#: (language, entry id) -> rendered summary of our entries; rendered once per process
_SUMMARIES: dict[tuple[str, str, str], tuple[tuple[nodes.Node, ...], str]] = {}


def our_summary(
    env: BuildEnvironment, language: str, entry_id: str, summary: str, document: nodes.document
) -> tuple[tuple[nodes.Node, ...], str]:
    key = (language, entry_id, summary)  # the summary too: an entry id may come from several glossary files
    if key not in _SUMMARIES:
        # roles such as {term} are only looked up through Sphinx's domains while reading;
        # outside that phase, switch the lookup on for the time of the render. Render into
        # a scratch document with the page's settings: a role object keeps the document
        # of its last use, which would keep this page alive for the rest of the build
        scratch = new_document(document.get("source", "<mlglossary>"), document.settings)
        with sphinx_domains(env):
            inline = tuple(render_inline(summary, scratch, location=_data_location(language, entry_id)))
        _SUMMARIES[key] = (inline, "".join(node.astext() for node in inline))
    return _SUMMARIES[key]


def _data_location(language: str, entry_id: str) -> str | None:
    """``path:line`` of an entry in its data file: where warnings about its summary point."""
    glossary = bundled_glossary(language)
    entry = glossary.get(entry_id)
    return f"{glossary.source}:{entry.line if entry else 0}" if glossary.source else None


def _targets_by_anchor(env: BuildEnvironment, language: str) -> dict[str, list[tuple[str, Any]]]:
    """anchor -> [(docname, lazy target)] for every glossary term of the project (once per build)."""
    if language in _TABLES:
        return _TABLES[language]
    app = app_of(env)
    table: dict[str, list[tuple[str, Any]]] = _TABLES.setdefault(language, {})
    for docname, entries in definitions(env).items():
        for entry_id, anchor in entries.items():
            entry = entry_for(app, docname, entry_id, language)
            if entry is not None:
                table.setdefault(anchor, []).append((docname, entry))
    for docname, terms in user_terms(env).items():
        for anchor, info in terms.items():
            table.setdefault(anchor, []).append((docname, info))
    return table


class TooltipCards(SphinxPostTransform):
    """Mark resolved term links and append one card per distinct cited term."""

    # after ReferencesResolver (10): we read the final reference nodes
    default_priority = 20
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        current = settings(app_of(self.env))
        if not current.tooltips:
            return
        tags = app_of(self.env).tags
        links = [
            ref for ref in self.document.findall(nodes.reference) if _is_term_link(ref) and not _dropped(ref, tags)
        ]
        if not links:
            return
        with_cards = app_of(self.env).builder.name not in {"epub", "epub3"}
        fromdoc = self.env.docname
        table = _targets_by_anchor(self.env, current.language)
        uris: dict[str, str] = {}
        targets: dict[str, Target] = {}
        for link in links:
            href, target = self._locate(link, fromdoc, table, uris)
            if target is None:
                continue
            targets.setdefault(href, target)
            link["classes"].append("mlglossary-term")
            if target.plain and "reftitle" not in link:
                link["reftitle"] = target.plain
        if targets and with_cards:
            # "no-search": card text belongs to the glossary page, not to every citing page
            block = tooltip_cards(trigger=current.tooltip_trigger, classes=["no-search"])
            block[RENDERED], card_nodes = self._cards(targets, current.language, fromdoc)
            block.extend(card_nodes)
            self.document += block

    def _cards(
        self, targets: dict[str, Target], language: str, fromdoc: str
    ) -> tuple[tuple[str, ...], list[nodes.Node]]:
        """One card per target: HTML rendered once per output directory and shared, and
        the cards that must stay nodes.

        A card reads the same on every page of a directory (its links are relative),
        so rendering it once instead of once per citing page keeps the write phase
        close to a plain build's. The cards a page needs that aren't rendered yet are
        rendered together, one ``render_partial`` call per page rather than per card.
        (Under ``-j`` this runs in the main process too: Sphinx applies post-transforms
        there and forks only the HTML writing, so the cache serves every worker.)
        The page's doctree keeps only references to the shared strings: a written
        doctree waits for Python's cyclic garbage collector, so a node per card on every
        page raised the write phase's peak memory. Builders without ``render_partial``
        (and a card whose id another card of the page already takes) get nodes.
        """
        builder = app_of(self.env).builder
        render = getattr(builder, "render_partial", None)
        folder = "" if builder.name == "singlehtml" else posixpath.dirname(builder.get_target_uri(fromdoc))
        if fromdoc in definitions(self.env) or fromdoc in user_terms(self.env):
            folder = "page:" + fromdoc  # links to terms on this very page are written "#id" here
        found: list[nodes.Node | tuple[str, str, str, str]] = []
        missing: dict[tuple[str, str, str, str], tooltip_card] = {}
        used: set[str] = set()
        for index, (href, target) in enumerate(targets.items()):
            if href not in _CARD_IDS:
                _CARD_IDS[href] = nodes.make_id(href)
            card_id = "mlglossary-card-" + (_CARD_IDS[href] or str(index))
            if card_id in used or render is None:
                found.append(self._card(href, target, language, f"mlglossary-card-{index}", fromdoc))
                continue
            used.add(card_id)
            key = (href, folder, language, card_id)
            if key not in _CARD_HTML:
                missing[key] = self._card(href, target, language, card_id, fromdoc)
            found.append(key)
        if missing and render is not None:
            _CARD_HTML.update(zip(missing, _render_together(render, list(missing.values())), strict=True))
        rendered = tuple(_CARD_HTML[item] for item in found if not isinstance(item, nodes.Node))
        return rendered, [item for item in found if isinstance(item, nodes.Node)]

    def _locate(
        self, link: nodes.reference, fromdoc: str, table: dict[str, list[tuple[str, Any]]], uris: dict[str, str]
    ) -> tuple[str, Target | None]:
        """The href as written and the glossary target it points at, if it is one of ours."""
        if "refid" in link:
            anchor, href, docs = link["refid"], "#" + link["refid"], {fromdoc}
        else:
            refuri = link.get("refuri", "")
            page, _sep, anchor = refuri.partition("#")
            href, docs = refuri, None
        for docname, info in table.get(anchor, ()):
            if docs is not None:
                if docname not in docs:
                    continue
            else:
                if docname not in uris:
                    uris[docname] = app_of(self.env).builder.get_relative_uri(fromdoc, docname)
                if uris[docname] != page:
                    continue
            key = (docname, anchor, settings(app_of(self.env)).language)
            if key not in _TARGETS:
                _TARGETS[key] = self._target(info)
            return href, _TARGETS[key]
        return href, None

    def _target(self, info: Any) -> Target:
        if isinstance(info, tuple):  # a term of the project's own glossary
            text, paragraph = info
            summary = tuple(plain_inline(paragraph)) if paragraph is not None else ()
            return Target(text, "", summary, _one_line(paragraph.astext() if paragraph is not None else ""))
        language = settings(app_of(self.env)).language
        inline, plain = our_summary(self.env, language, info.id, info.summary, self.document)
        abbreviation = info.abbreviations[0] if info.abbreviations else ""
        return Target(info.name, abbreviation, inline, _one_line(plain))

    def _card(self, href: str, target: Target, language: str, card_id: str, fromdoc: str) -> tooltip_card:
        card = tooltip_card(ids=[card_id], href=href, plain=target.plain)
        # say the card's direction whenever it differs from the page's (an English card on
        # an Arabic page would otherwise inherit right-to-left and misplace punctuation)
        if direction(language) != direction(app_of(self.env).config.language):
            card["dir"] = direction(language)
            card["lang"] = language
        elif direction(language) == "rtl":
            card["dir"] = "rtl"
        title = nodes.paragraph(classes=["mlglossary-card-title"])
        title += nodes.strong(text=target.title)
        if target.abbreviation:
            title += nodes.Text(" ")
            title += nodes.inline(text=f"({target.abbreviation})", classes=["mlglossary-card-abbr"])
        card += title
        if target.summary:
            summary = nodes.paragraph(classes=["mlglossary-card-summary"])
            summary.extend(self._resolve(node.deepcopy(), fromdoc) for node in target.summary)
            card += summary
        more = nodes.paragraph(classes=["mlglossary-card-more"])
        more += nodes.reference("", str(_("Read more")), refuri=href, internal=True)
        card += more
        return card

    def _resolve(self, node: nodes.Node, fromdoc: str) -> nodes.Node:
        """Resolve term links inside a summary for this page; other cross-references become text."""
        if isinstance(node, addnodes.pending_xref):
            return self._resolve_xref(node, fromdoc)
        if isinstance(node, nodes.Element):
            for xref in list(node.findall(addnodes.pending_xref)):
                xref.replace_self(self._resolve_xref(xref, fromdoc))
        return node

    def _resolve_xref(self, xref: addnodes.pending_xref, fromdoc: str) -> nodes.Node:
        content = xref.children[0] if xref.children else nodes.Text(xref.get("reftarget", ""))
        if xref.get("refdomain") == "std" and xref.get("reftype") == "term":
            std = self.env.get_domain("std")
            resolved = std.resolve_xref(
                self.env,
                fromdoc,
                app_of(self.env).builder,
                "term",
                xref["reftarget"],
                xref,
                content,  # type: ignore[arg-type]
            )
            if resolved is not None:
                return resolved
        return content


#: between cards rendered together; text can't contain it (the writer escapes "<")
_SEPARATOR = "<!--mlglossary-card-separator-->"


def _render_together(render: Any, cards: list[tooltip_card]) -> list[str]:
    """The HTML of each card, from one ``render_partial`` call for all of them."""
    box = nodes.container()
    for card in cards:
        box += nodes.raw("", _SEPARATOR, format="html")
        box += card
    box += nodes.raw("", _SEPARATOR, format="html")
    pieces = render(box)["fragment"].split(_SEPARATOR)[1:-1]
    return [piece.strip() for piece in pieces]


def _is_term_link(reference: nodes.reference) -> bool:
    if not reference.children:
        return False
    first = reference.children[0]
    classes = first.get("classes", ()) if isinstance(first, nodes.Element) else ()
    return "std-term" in classes or AUTOLINK_CLASS in classes


def _dropped(reference: nodes.reference, tags: Any) -> bool:
    """Inside an ``only`` block this format leaves out (those are removed after this transform)."""
    parent = reference.parent
    while parent is not None:
        if isinstance(parent, addnodes.only):
            try:
                if not tags.eval_condition(parent["expr"]):
                    return True
            except Exception:
                pass  # Sphinx keeps a block it can't evaluate, and so do we
        parent = parent.parent
    return False


def _one_line(text: str) -> str:
    return " ".join(text.split())


def plain_inline(paragraph: nodes.paragraph) -> list[nodes.Node]:
    """Children of a user's paragraph with unresolved cross-references flattened to their text."""
    copy = paragraph.deepcopy()
    for xref in list(copy.findall(addnodes.pending_xref)):
        xref.replace_self(xref.children[0] if xref.children else nodes.Text(xref.astext()))
    for index in list(copy.findall(addnodes.index)):
        index.parent.remove(index)
    return list(copy.children)
