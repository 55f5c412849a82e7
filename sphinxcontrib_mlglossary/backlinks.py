"""Backlinks under each glossary entry: the pages (and sections) that cite it.

Drawn by a post-transform on the glossary page from the citations every page
recorded at read time. On incremental builds, :mod:`.invalidation` asks which glossary
pages' backlinks changed, so Sphinx rewrites them without re-reading.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .citations import Cited, Index, PageCitations, counted
from .domain import MlGlossaryDomain, glossary_domain
from .rendering import backlink_list

if TYPE_CHECKING:
    from sphinx.builders import Builder
    from sphinx.environment import BuildEnvironment
    from sphinx.util.tags import Tags


class Indexes(dict[tuple[bool, int | None], Index]):
    """(include glossary citations, pages kept per entry) -> backlink index, once per build."""


def reading_order(env: BuildEnvironment) -> list[str]:
    """Documents in table-of-contents order (depth first from the root), then the rest sorted."""
    order: dict[str, None] = {}
    stack = [env.config.root_doc]
    while stack:
        docname = stack.pop()
        if docname in order or docname not in env.all_docs:
            continue
        order[docname] = None
        stack.extend(reversed(env.toctree_includes.get(docname, [])))
    return [*order, *sorted(set(env.all_docs) - set(order))]


class Resolver:
    """Which entries a page's citations count for, with each distinct target resolved once.

    A large project cites the same few dozen names tens of thousands of times.
    """

    def __init__(self, domain: MlGlossaryDomain, include_glossary: bool) -> None:
        self.terms = domain.term_index()
        self.tags = domain.session.tags
        self.include_glossary = include_glossary
        self.include_auto = domain.session.settings.autolink_backlinks
        self._kept: dict[str, bool] = {}

    def entries_cited(self, record: PageCitations) -> dict[tuple[str, str], list[int]]:
        """(glossary docname, anchor) -> positions of the page's citations of it."""
        grouped: dict[tuple[str, str], list[int]] = defaultdict(list)
        for position, (target, flags) in enumerate(zip(record.targets, record.flags, strict=True)):
            if not counted(flags, in_glossary=self.include_glossary, auto=self.include_auto):
                continue
            condition = record.only(position)
            if condition:
                if condition not in self._kept:
                    self._kept[condition] = kept_by_only(self.tags, condition)
                if not self._kept[condition]:
                    continue  # this format drops the block holding it: nothing to land on
            entry = self.terms.place(target)
            if entry is not None:
                grouped[entry].append(position)
        return grouped


def build_index(domain: MlGlossaryDomain, include_glossary: bool, keep: int | None = None) -> Index:
    """Every citation resolved to its term, grouped by citing page.

    ``keep`` bounds how many citing pages are kept per entry (the rest are only
    counted): what the glossary page shows, without an entry per citing page of a large
    project held through the whole write phase.
    """
    index: Index = defaultdict(Cited)
    recorded = domain.citations
    resolver = Resolver(domain, include_glossary)
    for docname in reading_order(domain.env):
        record = recorded.get(docname)
        if record is not None:
            for entry, positions in resolver.entries_cited(record).items():
                cited = index[entry]
                cited.total += 1
                if keep is None or len(cited.pages) < keep:
                    cited.pages.append((docname, tuple(positions)))
    return index


def cached_index(domain: MlGlossaryDomain, include_glossary: bool, keep: int | None) -> Index:
    """One index per build and kind (citations don't change while pages are written)."""
    indexes = domain.session.resolved.keep(Indexes, Indexes)
    if (include_glossary, keep) not in indexes:
        indexes[(include_glossary, keep)] = build_index(domain, include_glossary, keep)
    return indexes[(include_glossary, keep)]


def kept_by_only(tags: Tags | None, condition: str) -> bool:
    """Whether this build keeps an ``only`` block (an expression Sphinx can't read keeps it, as Sphinx does)."""
    try:
        return tags is None or bool(tags.eval_condition(condition))
    except Exception:
        return True


class Backlinks(SphinxPostTransform):
    """Append "Cited in" lists to the entries of a glossary page."""

    default_priority = 30

    def run(self, **kwargs: Any) -> None:
        domain = glossary_domain(self.env)
        session = domain.session
        builder = session.require_builder()
        current = session.settings
        if builder.format == "gettext" or not current.backlinks:
            return
        pages = domain.glossary_pages(with_user_glossaries=current.backlinks_user_glossaries)
        if not may_hold(self.env.docname, builder, pages):
            return
        terms = [
            term
            for term in self.document.findall(nodes.term)
            if term["ids"] and isinstance(term.parent, nodes.definition_list_item)
        ]
        if not terms:
            return
        # anchor -> defining page (singlehtml and LaTeX documents hold several pages)
        homes = {anchor: docname for docname, entries in domain.definitions.items() for anchor in entries.values()}
        if current.backlinks_user_glossaries:
            homes.update((anchor, docname) for docname, found in domain.user_terms.items() for anchor in found)
        index = cached_index(domain, current.backlinks_from_glossary, current.backlinks_max)
        for term in terms:
            anchor = term["ids"][0]
            cited = index.get((homes.get(anchor, ""), anchor))
            if cited is None or not cited.total:
                continue  # nothing cites it: say nothing
            definition = next((c for c in term.parent.children if isinstance(c, nodes.definition)), None)
            if definition is not None:
                definition += backlink_list(domain, builder, self.env.docname, cited)


def may_hold(docname: str, builder: Builder, glossary_pages: set[str]) -> bool:
    """Whether the document being written may hold entries of these glossary pages.

    Most pages can't, and looking would walk the whole page. A document assembled from
    several pages (singlehtml, LaTeX, texinfo, man, unknown builders) is always looked at.
    """
    return docname in glossary_pages or not _one_page_per_document(builder)


def _one_page_per_document(builder: Builder) -> bool:
    from sphinx.builders.html import StandaloneHTMLBuilder
    from sphinx.builders.singlehtml import SingleFileHTMLBuilder
    from sphinx.builders.text import TextBuilder
    from sphinx.builders.xml import XMLBuilder

    return isinstance(builder, StandaloneHTMLBuilder | TextBuilder | XMLBuilder) and not isinstance(
        builder, SingleFileHTMLBuilder
    )
