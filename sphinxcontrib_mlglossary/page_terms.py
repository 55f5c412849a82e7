"""``mlglossary-page-terms``: the glossary terms a page (or one of its sections) cites, at a glance.

A tutorial's "terms used here" box, made from the page's own citations so it never
goes stale. Three steps, each in the phase that knows what it needs:

1. the directive leaves a placeholder (with its title, so the title is translated with
   the page);
2. once the page is read, translated and auto-linked, a transform writes onto the
   placeholder what the page (or the section) cites, as written, in document order;
3. once every page is read, a post-transform (main process, also under ``-j``) turns
   each into the term it means (:mod:`.resolution`, the project's own terms first) and
   writes the list: one link and summary per term, each term once.

The page is re-read when its citations change, and rewritten by :mod:`.invalidation`
when a term it cites moves or is reworded elsewhere: the list follows both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util.docutils import SphinxDirective, new_document
from sphinx.util.nodes import make_refnode

from .autolink import AutoLinker
from .card_contents import card_content, card_subjects
from .citations import is_term_reference, written_target
from .diagnostics import MlGlossaryWarning, warn
from .domain import glossary_domain
from .nodes import glossary_block
from .rendering import resolve_summary_links
from .resolution import Found, Place
from .single_page import BUILDER as SINGLE_PAGE
from .single_page import land_on_the_page
from .sorting import sort_key

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.builders import Builder
    from sphinx.util.typing import OptionSpec

NAME = "mlglossary-page-terms"
ORDERS = ("document", "alphabetical")
#: class of the term names in the list
ITEM_CLASS = "mlglossary-page-term"


class page_terms(nodes.General, nodes.Element):
    """Placeholder of one list: ``section``, ``order``, ``docname`` and, once the page is
    read, ``targets`` (what the page or section cites, as written, in document order)."""


class PageTermsDirective(SphinxDirective):
    """``mlglossary-page-terms [title]``: list the glossary terms this page cites."""

    optional_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec: ClassVar[OptionSpec] = {
        "section": directives.unchanged_required,
        "order": lambda argument: directives.choice(argument, ORDERS),
    }

    def run(self) -> list[nodes.Node]:
        node = page_terms(
            section=self.options.get("section", "").strip(),
            order=self.options.get("order", "document"),
            docname=self.env.docname,
            targets=[],
        )
        self.set_source_info(node)
        if self.arguments:
            title = nodes.rubric(self.arguments[0], self.arguments[0])
            self.set_source_info(title)  # the gettext builder extracts only nodes with a source
            node += title
        return [node]


class PageTermsTargets(SphinxTransform):
    """Record on each placeholder what its page or section cites (read phase)."""

    default_priority = AutoLinker.default_priority + 10  # after translation and auto-linking

    def apply(self, **kwargs: Any) -> None:
        for node in list(self.document.findall(page_terms)):
            scope = self._scope(node)
            node["targets"] = [] if scope is None else _cited_in(scope)

    def _scope(self, node: page_terms) -> nodes.Element | None:
        wanted = node["section"]
        if not wanted:
            return self.document
        names = {nodes.fully_normalize_name(wanted), wanted}
        ids = {wanted, nodes.make_id(wanted)}
        for section in self.document.findall(nodes.section):
            if names & set(section["names"]) or ids & set(section["ids"]):
                return section
        warn(
            MlGlossaryWarning.OPTION,
            f"{NAME}: no section {wanted!r} on this page; give the section's label or title in :section:",
            location=node,
        )
        return None


def _cited_in(scope: nodes.Element) -> list[str]:
    """Term references in ``scope`` outside glossaries, as written, in document order."""
    return [
        written_target(xref)
        for xref in scope.findall(addnodes.pending_xref)
        if is_term_reference(xref) and not in_glossary(xref)
    ]


def in_glossary(node: nodes.Node) -> bool:
    """Inside a glossary's own entries (ours or the project's): one term mentioning another."""
    parent = node.parent
    while parent is not None:
        if isinstance(parent, addnodes.glossary | glossary_block):
            return True
        parent = parent.parent
    return False


class PageTermsList(SphinxPostTransform):
    """Write each list from its recorded citations, once every page is read."""

    default_priority = 6  # after TermTargets (5); before ReferencesResolver (10) resolves the summaries' links

    def run(self, **kwargs: Any) -> None:
        placeholders = list(self.document.findall(page_terms))
        if not placeholders:
            return
        domain = glossary_domain(self.env)
        builder = domain.session.require_builder()
        terms = domain.term_index()
        subjects = card_subjects(domain)
        language = domain.session.settings.language
        document = new_document("<mlglossary-page-terms>")
        document.settings.env = self.env
        for node in placeholders:
            found: dict[Place, None] = {}  # each term once, where first cited
            for target in node["targets"]:
                match = terms.resolve(target)
                if isinstance(match, Found):
                    found.setdefault(match.place, None)
            items = []
            for place in found:
                term = subjects.term(place)
                if term is None:
                    continue
                content = card_content(domain, term, document)
                shown = f"{content.title} ({content.abbreviation})" if content.abbreviation else content.title
                summary = [
                    resolve_summary_links(self.env, builder, node["docname"], n.deepcopy()) for n in content.summary
                ]
                items.append((shown, place, summary))
            if node["order"] == "alphabetical":
                items.sort(key=lambda item: sort_key(item[0], language))
            if not items and builder.name == "gettext":
                node.replace_self(node.children)  # the title is still offered to translators
                continue
            if not items:
                node.parent.remove(node)  # nothing cited (yet): no empty box
                continue
            box = nodes.container(classes=["mlglossary-page-terms"])
            # the title moves as it is (translated, with the source the gettext builder needs)
            title, node.children = node.children, []
            box.extend(title)
            box += _bullet_list(builder, node["docname"], items)
            node.replace_self(box)


def _bullet_list(builder: Builder, docname: str, items: list[tuple[str, Place, list[nodes.Node]]]) -> nodes.bullet_list:
    """One item per term: its link, then its summary.

    The links are made here rather than left to Sphinx's resolver: they are no
    citations, and a tooltip card would only repeat the summary printed beside them.
    """
    listing = nodes.bullet_list(classes=["mlglossary-page-terms-list"])
    for shown, (home, anchor), summary in items:
        link = make_refnode(builder, docname, home, anchor, nodes.inline(shown, shown, classes=[ITEM_CLASS]))
        if builder.name == SINGLE_PAGE:
            land_on_the_page(link)
        paragraph = nodes.paragraph()
        paragraph += link
        if summary:
            paragraph += nodes.Text(" — ")
            paragraph.extend(summary)
        listing += nodes.list_item("", paragraph)
    return listing


def register(app: Sphinx) -> None:
    app.add_node(page_terms)
    app.add_directive(NAME, PageTermsDirective)
    app.add_transform(PageTermsTargets)
    app.add_post_transform(PageTermsList)
