"""The extension's own nodes, with one visitor pair per output format.

Tooltip cards exist only in HTML pages; every other writer skips them, so a doctree
that reaches a non-HTML writer by some other path never breaks the build.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.locale import _ as sphinx_message

from .sorting import jump_bar

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
#: on term references inside a shown entry (its text or "See also") to another entry of the
#: same glossary data: when no page shows that entry (``:terms:``/``:tags:`` picked a few),
#: the reference stays plain text without a warning, as the writer chose not to show it
ENTRY_REFERENCE = "mlglossary_entry_reference"


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


class tooltip_slot(nodes.Invisible, nodes.Element):
    """First child of an HTML page that may cite terms: where its term links are marked.

    Its visitor runs in the process that writes the page (a worker under ``-j``), before
    any link of the page is written: it marks the term links that have a card in the
    site's card asset (see :mod:`.card_marks`) and sets ``MARKED`` when it marked one.
    """


#: attribute of :class:`tooltip_slot`: a term link of the page names a card (the page loads the script)
MARKED = "mlglossary_marked"


class tooltip_card(nodes.General, nodes.Element):
    """One term's card: title, summary, "read more" (rendered once per build into the site's card asset).

    It has no id: the script gives it ``mlglossary-card--`` and its key when it puts it
    in a page. Ids from content (docutils' and Sphinx's ``make_id``, MyST's attributes)
    never hold two hyphens in a row, so no label, topic or section of a page can take it.
    """


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


class citation_numbers(nodes.inline):
    """After a backlink to a page citing a term several times: how many, and a link to each.

    ``count`` holds the count in words ("3 citations"), ``places`` the (docname, id)
    of each citation; the children are the numbered links, each with its accessible
    name in ``LABEL`` ("citation 2 on Guide"). HTML writes the count and the numbers,
    LaTeX the count and a page reference for each, and the plain formats (text, man,
    texinfo), where a number links nowhere, the count alone.
    """


#: attribute of a numbered backlink: its accessible name (the visible text is a bare number)
LABEL = "mlglossary_label"


def visit_citation_numbers_html(self: HTML5Translator, node: citation_numbers) -> None:
    links = []
    for link in node.findall(nodes.reference):
        href = link.get("refuri") or "#" + link.get("refid", "")
        label = link.get(LABEL, "")
        links.append(
            f'<a class="reference internal" href="{self.attval(href)}" aria-label="{self.attval(label)}">'
            f"{self.encode(link.astext())}</a>"
        )
    count = self.encode(node["count"])
    self.body.append(
        f'<span class="mlglossary-cites"><span aria-hidden="true"> · </span>'
        f'<span class="mlglossary-cites-count">{count}</span> {" ".join(links)}</span>'
    )
    raise nodes.SkipNode


def visit_citation_numbers_latex(self: Any, node: citation_numbers) -> None:
    pages = ", ".join(rf"p.~\pageref{{{self.idescape(f'{docname}:{refid}')}}}" for docname, refid in node["places"])
    self.body.append(" (" + self.encode(node["count"]) + ": " + pages + ")")
    raise nodes.SkipNode


def visit_citation_numbers_plain(self: Any, node: citation_numbers) -> None:
    """Text, man and texinfo: the count in words, escaped by the writer's own text visitor."""
    self.visit_Text(nodes.Text(f" ({node['count']})"))
    raise nodes.SkipNode


class letter_heading(nodes.rubric):
    """The heading over one letter's entries: a rubric to every writer, an anchored heading in HTML.

    In HTML it is a real heading (one level below the section holding the glossary),
    so screen readers can move between letters, with an id the letter bar links to
    and the permalink Sphinx gives section titles.
    """


def _letter_level(self: HTML5Translator) -> int:
    return max(2, min(6, self.section_level + int(getattr(self, "initial_header_level", 1))))


def visit_letter_heading_html(self: HTML5Translator, node: letter_heading) -> None:
    self.body.append(self.starttag(node, f"h{_letter_level(self)}", "", CLASS="rubric"))


def depart_letter_heading_html(self: HTML5Translator, node: letter_heading) -> None:
    self.add_permalink_ref(node, sphinx_message("Link to this heading"))
    self.body.append(f"</h{_letter_level(self)}>\n")


class letter_bar(nodes.comment):
    """A glossary's A-Z bar, first in its block; HTML only (a comment to every other writer).

    Written from the letter headings its block still holds when the page is written
    (``:cited-only:`` drops letters after reading): the language's alphabet, with a
    link on each letter that has entries. ``label`` is its accessible name.
    """


def visit_letter_bar_html(self: HTML5Translator, node: letter_bar) -> None:
    block = node.parent
    headings = [
        (child.astext(), child["ids"][0])
        for child in (block.children if block is not None else ())
        if isinstance(child, letter_heading) and child["ids"]
    ]
    if len(headings) < 2:
        raise nodes.SkipNode  # nothing to jump between
    items = [
        f'<a href="#{self.attval(target)}">{self.encode(text)}</a>'
        if target
        else f'<span aria-hidden="true">{self.encode(text)}</span>'
        for text, target in jump_bar(headings, node["language"])
    ]
    label = self.attval(node["label"])
    self.body.append(f'<nav class="mlglossary-letters" aria-label="{label}">{" ".join(items)}</nav>\n')
    raise nodes.SkipNode


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


class deferred_definition(nodes.Invisible, nodes.Element):
    """A shipped entry's definition until its page is written (see :mod:`.entry_definitions`).

    ``entry`` and ``language`` name the entry, ``docname`` the page it was read on (a
    single-page build writes it on another). Replaced before any writer sees it; a writer
    that meets one anyway leaves it out.
    """


class example_fold(nodes.General, nodes.Element):
    """A long example of a glossary entry, folded (see :mod:`.folding`).

    HTML writes a closed ``<details>`` whose ``<summary>`` is ``summary`` ("Example (12
    lines)"); e-books, whose readers may not open a ``<details>``, and every other
    format show the example in full, without the summary.
    """


def visit_example_fold_html(self: HTML5Translator, node: example_fold) -> None:
    if self.builder.name in {"epub", "epub3"}:
        self.body.append(self.starttag(node, "div", "", CLASS="mlglossary-example"))
        return
    self.body.append(self.starttag(node, "details", "", CLASS="mlglossary-example"))
    self.body.append(f"<summary>{self.encode(node['summary'])}</summary>\n")


def depart_example_fold_html(self: HTML5Translator, node: example_fold) -> None:
    self.body.append("</div>\n" if self.builder.name in {"epub", "epub3"} else "</details>\n")


def skip(self: Any, node: nodes.Element) -> None:
    raise nodes.SkipNode


def register(app: Sphinx) -> None:
    app.add_node(
        glossary_block,
        html=(visit_block_html, depart_div_html),
        **{fmt: _as_container(fmt) for fmt in ("latex", "text", "man", "texinfo")},  # type: ignore[arg-type]
    )
    others: dict[str, tuple[Any, None]] = {fmt: (skip, None) for fmt in ("latex", "text", "man", "texinfo")}
    app.add_node(tooltip_card, html=(visit_card_html, depart_div_html), **others)  # type: ignore[arg-type]
    app.add_node(card_batch, html=(visit_card_batch_html, None), **others)  # type: ignore[arg-type]
    # tooltip_slot's HTML visitor is registered by .card_marks, which it calls
    app.add_node(letter_bar, html=(visit_letter_bar_html, None), **others)  # type: ignore[arg-type]
    app.add_node(deferred_definition, html=(skip, None), **others)  # type: ignore[arg-type]
    app.add_node(letter_heading, html=(visit_letter_heading_html, depart_letter_heading_html))
    app.add_node(
        example_fold,
        html=(visit_example_fold_html, depart_example_fold_html),
        **{fmt: _as_container(fmt) for fmt in ("latex", "text", "man", "texinfo")},  # type: ignore[arg-type]
    )
    plain = (visit_citation_numbers_plain, None)
    app.add_node(
        citation_numbers,
        html=(visit_citation_numbers_html, None),
        latex=(visit_citation_numbers_latex, None),
        text=plain,
        man=plain,
        texinfo=plain,
    )
    app.add_node(
        backlink_page,
        html=(skip, None),
        latex=(visit_backlink_page_latex, None),
        text=(skip, None),
        man=(skip, None),
        texinfo=(skip, None),
    )
