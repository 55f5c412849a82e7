"""The site's tooltip cards: rendered once per build, written as one static script.

Every card is rendered once per build, in the main process, before any page is written
(under ``-j`` the writers are forked from it and share what it made), with its links
written from the site's root. After the build the cards are written to
``_static/mlglossary-cards.js``: a script that defines them, so it loads from a
``file://`` site too, where a ``fetch`` of a JSON file is refused. ``mlglossary.js``
loads it once per visit and puts the cards a page needs into that page, its links
rebased on the page's content root.

A card is named by a hash of its HTML (its *key*). A page holds only the keys of its
own cards (on its term links, see :mod:`.card_marks`), never a version of the whole
file: a card changed elsewhere rewrites no page that doesn't show it, and an edit to
one page rewrites no other. A browser's cached copy of the file is checked against
those keys: a missing key makes the script load the file again under that key
(``mlglossary-cards.js?v=<key>``), so a changed card is never shown stale.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docutils import nodes

from .card_contents import CardContent, Place, card_contents, card_subjects
from .domain import glossary_domain
from .external_terms import external_terms
from .i18n import _
from .nodes import PIECES, card_batch, tooltip_card
from .rendering import resolve_summary_links
from .single_page import BUILDER as SINGLE_PAGE
from .text_direction import direction

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder

    from .domain import MlGlossaryDomain

#: the file in ``_static`` (next to ``mlglossary.js``, which finds it there)
ASSET = "mlglossary-cards.js"
#: the global the file defines: ``{"trigger": "hover" | "click", "cards": {key: HTML}}``
GLOBAL = "mlglossaryCards"
#: links in cards are written as from a page at the site's root; this page name is at
#: the root for every builder (``dirhtml`` writes it as the root folder itself)
ROOT_PAGE = "index"
#: bumped when the file's shape changes (it is part of every key)
FORMAT = "1"


@dataclass(frozen=True, slots=True)
class PreparedCard:
    """A card ready for every page: its key and HTML for the asset, its text for ``title``."""

    #: hash of the card's HTML, named on the page's term links ("" where pages load no script: epub)
    key: str
    #: the summary as one line: the ``title`` of the term's links, where no script runs
    plain: str
    #: the card's HTML, links relative to the site's root ("" where no script runs)
    html: str


class SiteCards(dict[Place, PreparedCard]):
    """Place of a term -> its prepared card, for every card of the build."""


def carries_script(builder: Builder) -> bool:
    """Builders whose pages run our script: HTML ones, not epub (no scripts in e-books)."""
    return builder.format == "html" and builder.name not in {"epub", "epub3"} and hasattr(builder, "render_partial")


def site_cards(domain: MlGlossaryDomain, builder: Builder) -> SiteCards:
    """Every card of the build, prepared once (call it in the main process, before pages are written)."""
    return domain.session.resolved.keep(SiteCards, lambda: _prepare(domain, builder))


def any_cards(domain: MlGlossaryDomain) -> bool:
    """Whether the build may show a card: it has glossary terms, or read another site's."""
    return bool(domain.definitions or domain.user_terms or external_terms(domain))


def other_sites_cards(domain: MlGlossaryDomain) -> dict[Place, CardContent]:
    """Cards for the cited terms of sites mapped through intersphinx, placed at ``("", address)``.

    Their text comes from another site: it only ever becomes a text node here.
    """
    return {
        ("", url): CardContent(
            term.name, term.abbreviation, (nodes.Text(term.summary),) if term.summary else (), term.summary
        )
        for url, term in external_terms(domain).cited(domain).items()
    }


def _prepare(domain: MlGlossaryDomain, builder: Builder) -> SiteCards:
    contents = card_contents(domain) | other_sites_cards(domain)
    if not carries_script(builder):
        return SiteCards({place: PreparedCard("", content.plain, "") for place, content in contents.items()})
    trigger = domain.session.settings.tooltip_trigger
    made = [card(domain, builder, content, root_href(builder, place)) for place, content in contents.items()]
    htmls = render_together(builder.render_partial, made) if made else []  # type: ignore[attr-defined]
    return SiteCards(
        {
            place: PreparedCard(_key(trigger, html), content.plain, html)
            for (place, content), html in zip(contents.items(), htmls, strict=True)
        }
    )


def _key(trigger: str, html: str) -> str:
    return hashlib.sha1(f"{FORMAT}\0{trigger}\0{html}".encode()).hexdigest()[:12]


def root_href(builder: Builder, place: Place) -> str:
    """Where a card's "Read more" goes, from the site's root (``#id`` on the single page)."""
    docname, anchor = place
    if not docname:
        return anchor  # another site's term: its address as intersphinx links it
    if builder.name == SINGLE_PAGE:
        return "#" + anchor
    return (builder.get_target_uri(docname) or "./") + "#" + anchor


def card(domain: MlGlossaryDomain, builder: Builder, content: CardContent, href: str) -> tooltip_card:
    """One term's card node: title, summary with its links written from the root, "Read more"."""
    language = domain.session.settings.language
    node = tooltip_card(href=href, plain=content.plain, label=content.title)
    # say the card's direction whenever it differs from the page's (an English card on
    # an Arabic page would otherwise inherit right-to-left and misplace punctuation)
    if direction(language) != direction(domain.env.config.language):
        node["dir"] = direction(language)
        node["lang"] = language
    elif direction(language) == "rtl":
        node["dir"] = "rtl"
    title = nodes.paragraph(classes=["mlglossary-card-title"])
    title += nodes.strong(text=content.title)
    if content.abbreviation:
        title += nodes.Text(" ")
        title += nodes.inline(text=f"({content.abbreviation})", classes=["mlglossary-card-abbr"])
    node += title
    if content.summary:
        summary = nodes.paragraph(classes=["mlglossary-card-summary"])
        summary.extend(
            _from_root(builder, resolve_summary_links(domain.env, builder, ROOT_PAGE, n.deepcopy()))
            for n in content.summary
        )
        node += summary
    more = nodes.paragraph(classes=["mlglossary-card-more"])
    internal = href.startswith("#") or ("://" not in href and not href.startswith("/"))
    more += nodes.reference("", str(_("Read more")), refuri=href, internal=internal)
    node += more
    return node


def _from_root(builder: Builder, node: nodes.Node) -> nodes.Node:
    """A link Sphinx wrote within the root page (``#id``) names that page: cards are shown on every page."""
    if builder.name == SINGLE_PAGE:
        return node
    found = [node] if isinstance(node, nodes.reference) else []
    if isinstance(node, nodes.Element):
        found.extend(node.findall(nodes.reference, include_self=False))
    for reference in found:
        if "refid" in reference and "refuri" not in reference:
            reference["refuri"] = (builder.get_target_uri(ROOT_PAGE) or "./") + "#" + reference["refid"]
            del reference["refid"]
    return node


def render_together(render: Any, cards: list[tooltip_card]) -> list[str]:
    """The HTML of each card, from one ``render_partial`` call for all of them."""
    batch = card_batch()
    batch.extend(cards)
    render(batch)
    pieces: list[str] = batch[PIECES]
    return pieces


def asset_text(trigger: str, cards: SiteCards, stamp: str) -> str:
    """The script: one assignment of the cards by key (the script that loads it waits for its ``load``).

    Its first line holds the stamp of what it was made from (see :func:`_stamp`).
    """
    data = {"trigger": trigger, "cards": {card.key: card.html for card in sorted(cards.values(), key=lambda c: c.key)}}
    payload = json.dumps(data, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return (
        f"/* sphinxcontrib-mlglossary: this site's tooltip cards, by key (read by mlglossary.js); made from {stamp} */\n"
        f"window.{GLOBAL}={payload};\n"
    )


def _written_stamp(target: Path) -> str:
    """The stamp in the first line of the file an earlier build wrote ("" without one)."""
    try:
        with target.open(encoding="utf-8") as stream:
            first = stream.readline()
    except OSError:
        return ""
    return first.rpartition("made from ")[2].partition(" ")[0]


def write_card_asset(app: Sphinx, exception: BaseException | None) -> None:
    """``build-finished``: write the cards of the build, in the main process, once every page is written.

    Written from what every page recorded at read time, not from the pages this build
    wrote, so an incremental build writes what a clean one does. When no page was
    written and nothing a card depends on changed (the file's stamp says), the file on
    disk is already right and no card is rendered.
    """
    builder = app.builder
    if exception is not None or not carries_script(builder):
        return
    domain = glossary_domain(app.env)
    settings = domain.session.settings
    if not settings.tooltips or not any_cards(domain):
        return
    target = Path(builder.outdir) / "_static" / ASSET
    stamp = _stamp(domain, builder)
    prepared = SiteCards in domain.session.resolved.kept
    if not prepared and _written_stamp(target) == stamp:
        return
    cards = site_cards(domain, builder)
    if not cards and not target.exists():
        return  # nothing cites a term: no page loads the file
    text = asset_text(settings.tooltip_trigger, cards, stamp)
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def _stamp(domain: MlGlossaryDomain, builder: Builder) -> str:
    """What the file is made from: the cited terms and everything their cards depend on."""
    from . import __version__

    settings = domain.session.settings
    parts = (
        FORMAT,
        __version__,
        builder.name,
        settings.tooltip_trigger,
        settings.language,
        domain.data["rules"],  # where terms live, what every card shows (see .invalidation)
        sorted(card_subjects(domain).carded),
        sorted((url, repr(term)) for url, term in external_terms(domain).cited(domain).items()),
    )
    return hashlib.sha1(repr(parts).encode()).hexdigest()


def register(app: Sphinx) -> None:
    app.connect("build-finished", write_card_asset)
